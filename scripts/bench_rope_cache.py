"""Bytes per cached position of RotaryEmbedding's cos/sin cache (issue 40 item 3).

Usage: python scripts/bench_rope_cache.py [--record JSON] [--device cpu|cuda]
(`make bench` records docs/data/bench-rope-cache.json; tests/package/test_bench_rope_cache.py checks
that the record has the shape and the byte counts this script gives now.)

Each scenario runs calls on fresh modules and records what the cache holds afterwards:
``cache_bytes`` (``RotaryEmbedding.cache_nbytes``: the tensors' bytes), the positions it holds,
bytes per cached position, and bytes per position asked for (the highest position + 1). The
minimum is float32 cos and sin of each pair: ``4 * rotary_dim`` bytes per position. On CUDA the
growth of ``torch.cuda.memory_allocated`` over the calls is recorded beside it (the allocator's
own count). The byte counts do not depend on the machine; the record names it all the same.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from posenc.torch_module import RotaryEmbedding  # noqa: E402

KEYS = ("date", "machine", "torch", "device", "scenarios")
"""The record's keys."""
ROW_KEYS = ("name", "rotary_dim", "calls", "positions_asked", "positions_cached",
            "cache_bytes", "bytes_per_cached_position", "bytes_per_position_asked",
            "minimum_bytes_per_position", "allocated_bytes")
"""Each scenario's keys (``allocated_bytes`` is None on the CPU)."""


def _positions(rope: RotaryEmbedding) -> int:
    """Positions the cache holds (0 when empty; one table per device, all of one length)."""
    return max((entry[0].shape[0] for entry in rope._cache.values()), default=0)


def _step(rope, position, dtype, device):
    q = torch.zeros(1, 1, 1, rope.head_dim, dtype=dtype, device=device)
    rope(q, q, offset=position)


def _scenarios(device):
    """(name, rotary_dim, what it calls, highest position, run) per scenario."""
    f32, bf16, f16 = torch.float32, torch.bfloat16, torch.float16

    def steps(dtypes, position, **kwargs):
        def run():
            rope = RotaryEmbedding(128, **kwargs)
            for dtype in dtypes:
                _step(rope, position, dtype, device)
            return rope
        return run

    def decode():                           # one token at every 8th position, then 19999
        rope = RotaryEmbedding(128, max_len=2048)
        for t in [*range(0, 20000, 8), 19999]:
            _step(rope, t, f32, device)
        return rope

    def new_frequencies():                  # dynamic NTK: frequencies set per length
        rope = RotaryEmbedding(128)
        for i in range(10):
            rope.frequencies = rope.frequencies * (1 - 0.01 * i)
            _step(rope, 8191, f32, device)
        return rope

    def cleared():
        rope = steps([f32], 131071)()
        rope.clear_cache()
        return rope

    return [
        ("float32 step at 131071", 128, "float32", 131071, steps([f32], 131071)),
        ("float32 then bfloat16 at 131071", 128, "float32, bfloat16", 131071,
         steps([f32, bf16], 131071)),
        ("float32, bfloat16, float16 at 131071", 128, "float32, bfloat16, float16", 131071,
         steps([f32, bf16, f16], 131071)),
        ("partial rotary 64 of 128, at 4095", 64, "float32", 4095,
         steps([f32], 4095, rotary_dim=64)),
        ("decode loop to 19999 from max_len 2048", 128,
         "float32, one token a step (every 8th)", 19999, decode),
        ("10 frequency sets at 8191", 128, "float32, frequencies set 10 times", 8191,
         new_frequencies),
        ("clear_cache after 131071", 128, "float32, then clear_cache()", 131071, cleared),
    ]


def measure(device="cpu") -> list[dict]:
    """One row per scenario (keys ``ROW_KEYS``)."""
    device = torch.device(device)
    rows = []
    for name, rotary_dim, calls, asked, run in _scenarios(device):
        before = torch.cuda.memory_allocated(device) if device.type == "cuda" else None
        rope = run()
        allocated = (torch.cuda.memory_allocated(device) - before
                     if device.type == "cuda" else None)
        cached, nbytes = _positions(rope), rope.cache_nbytes
        rows.append(dict(zip(ROW_KEYS, (
            name, rotary_dim, calls, asked + 1, cached, nbytes,
            nbytes / cached if cached else None, round(nbytes / (asked + 1), 3),
            4 * rotary_dim, allocated))))
        del rope
    return rows


def machine(device) -> str:
    if torch.device(device).type == "cuda":
        return torch.cuda.get_device_name(device)
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", type=Path, help="write the results as JSON here")
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    record = {"date": datetime.date.today().isoformat(), "machine": machine(args.device),
              "torch": torch.__version__, "device": torch.device(args.device).type,
              "scenarios": measure(args.device)}
    assert tuple(record) == KEYS
    for row in record["scenarios"]:
        print(f"{row['name']:45s} {row['cache_bytes'] / 2**20:8.2f} MiB  "
              f"{row['bytes_per_cached_position']} B/cached position  "
              f"{row['bytes_per_position_asked']} B/position asked"
              + (f"  allocated {row['allocated_bytes'] / 2**20:.2f} MiB"
                 if row["allocated_bytes"] is not None else ""))
    if args.record:
        args.record.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
