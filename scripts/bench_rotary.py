"""Benchmark of posenc's torch RoPE against transformers' (Llama's rotary embedding class and
``apply_rotary_pos_emb``), at prefill and decode shapes, float32 and bfloat16.

Usage: python scripts/bench_rotary.py [--quick] [--record JSON] [--device cpu|cuda]

Two measurements per shape:

- ``layer``: a model of one layer: posenc's ``rope(q, k, position_ids)`` (cos/sin looked up
  in its cache) against ``LlamaRotaryEmbedding(x, position_ids)`` followed by
  ``apply_rotary_pos_emb`` (cos/sin computed from the inverse frequencies);
- ``deep``: what a deep model repeats in each layer, cos/sin computed once per forward and
  shared between the layers: ``rope(q, k, rotation=rope.rotation(position_ids))`` against
  ``apply_rotary_pos_emb(q, k, cos, sin)``.

Each sample is the fastest of a few calls; posenc and transformers alternate, so both share the
machine's noise; the ratio is the median of the ratios of neighbouring samples (posenc's time
over transformers'). On the CPU one thread. A benchmark, not a test: other processes on the
machine change the numbers.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHAPES = {               # name: (batch, heads, kv_heads, seq, head_dim, first position)
    "prefill 1x32x2048x128": (1, 32, 8, 2048, 128, 0),
    "prefill 4x16x512x64": (4, 16, 16, 512, 64, 0),
    "decode 8x32x1x128 at 4095": (8, 32, 8, 1, 128, 4095),
    "decode 1x32x1x128 at 100": (1, 32, 8, 1, 128, 100),
}


def _time(fn, sync, inner):
    best = float("inf")
    for _ in range(inner):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best


def compare(ours, theirs, sync, samples, inner):
    for fn in (ours, theirs):                      # warm up (caches, allocator)
        fn()
        fn()
    ratios, t_ours, t_theirs = [], [], []
    for _ in range(samples):
        a = _time(ours, sync, inner)
        b = _time(theirs, sync, inner)
        t_ours.append(a)
        t_theirs.append(b)
        ratios.append(a / b)
    return {"posenc_us": 1e6 * min(t_ours), "transformers_us": 1e6 * min(t_theirs),
            "ratio": statistics.median(ratios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--record", type=Path, help="write the results as JSON here")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--samples", type=int, help="samples per measurement (default 15; "
                        "--quick: 5)")
    args = parser.parse_args()

    import torch
    import transformers
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import (LlamaRotaryEmbedding,
                                                          apply_rotary_pos_emb)

    from posenc.torch_module.rotary import RotaryEmbedding

    device = torch.device(args.device)
    if device.type == "cpu":
        torch.set_num_threads(1)
        sync = lambda: None                             # noqa: E731
    else:
        sync = torch.cuda.synchronize
    samples, inner = (5, 3) if args.quick else (15, 5)
    samples = args.samples or samples
    rows = []
    for name, (batch, heads, kv, seq, head_dim, first) in SHAPES.items():
        for dtype in (torch.float32, torch.bfloat16):
            torch.manual_seed(0)
            q = torch.randn(batch, heads, seq, head_dim, device=device).to(dtype)
            k = torch.randn(batch, kv, seq, head_dim, device=device).to(dtype)
            position_ids = (torch.arange(seq, device=device) + first)[None].expand(batch, seq)
            config = LlamaConfig(hidden_size=heads * head_dim, num_attention_heads=heads,
                                 num_key_value_heads=kv, max_position_embeddings=8192,
                                 rope_parameters={"rope_type": "default",
                                                  "rope_theta": 10000.0})
            hf = LlamaRotaryEmbedding(config).to(device)
            rope = RotaryEmbedding(head_dim, max_len=8192)
            cos, sin = hf(q, position_ids)
            out = compare(lambda: rope(q, k, position_ids),
                          lambda: apply_rotary_pos_emb(q, k, *hf(q, position_ids)),
                          sync, samples, inner)
            rows.append({"shape": name, "dtype": str(dtype).removeprefix("torch."),
                         "what": "layer", **out})
            shared = rope.rotation(position_ids, dtype=dtype)
            out = compare(lambda: rope(q, k, rotation=shared),
                          lambda: apply_rotary_pos_emb(q, k, cos, sin),
                          sync, samples, inner)
            rows.append({"shape": name, "dtype": str(dtype).removeprefix("torch."),
                         "what": "deep", **out})
            last = rows[-2:]
            for row in last:
                print(f"{row['shape']:28s} {row['dtype']:9s} {row['what']:6s} "
                      f"posenc {row['posenc_us']:9.1f} us  transformers "
                      f"{row['transformers_us']:9.1f} us  ratio {row['ratio']:.2f}", flush=True)
    record = {
        "date": datetime.date.today().isoformat(),
        "machine": (torch.cuda.get_device_name(device) if device.type == "cuda" else
                    f"{platform.processor() or platform.machine()}, {platform.node()}"),
        "device": device.type, "threads": torch.get_num_threads(),
        "torch": torch.__version__, "transformers": transformers.__version__,
        "samples": samples, "calls_per_sample": inner,
        "rows": rows,
        "worst_ratio": max(row["ratio"] for row in rows),
    }
    print(f"worst ratio {record['worst_ratio']:.2f} ({record['machine']}, {record['date']})")
    if args.record:
        args.record.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
