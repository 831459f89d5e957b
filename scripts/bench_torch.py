"""Benchmark of posenc.torch_module.SinusoidalPositionalEncoding against the PyTorch tutorial.

Usage: python scripts/bench_torch.py [--quick] [--record JSON]     (`make bench` records
docs/data/bench-torch.json, which chapter 11 renders)

- build: time and peak memory (growth of the peak resident set over the process before the
  build, in a fresh process per run) of a 512-wide table of 10**4, 10**5, 10**6 rows, for the
  module (float32 table) and the tutorial's float32 `pe` buffer; the resident table size;
- forward: latency of one call (the fastest sample; one thread) at (1, 1, 512), (32, 128, 512), (8, 2048, 1024) in
  float32 and bfloat16, for the module (in eval mode: no dropout) and for `x + pe[:, :seq]`
  with a table already in x.dtype, alternating so both share the machine's noise; the ratio
  is the median of the ratios of neighbouring samples.
A benchmark, not a test: other processes on the machine change the numbers.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BUILD = r"""
import math, resource, sys, time
import torch
sys.path.insert(0, {root!r})
from posenc.torch_module import SinusoidalPositionalEncoding
n, d, which = {n}, 512, {which!r}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
t0 = time.perf_counter()
if which == "posenc":
    m = SinusoidalPositionalEncoding(d, max_len=n)
    size = m.nbytes
else:
    position = torch.arange(n).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, 1, d)
    pe[:, 0, 0::2] = torch.sin(position * div_term)
    pe[:, 0, 1::2] = torch.cos(position * div_term)
    size = pe.nbytes
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
print(seconds, peak, size)
"""


def bench_build(sizes, repeats):
    rows = []
    for n in sizes:
        runs = {"posenc": [], "tutorial": []}
        for _ in range(repeats):
            for which in runs:
                out = subprocess.run([sys.executable, "-c",
                                      BUILD.format(root=str(ROOT), n=n, which=which)],
                                     capture_output=True, text=True, check=True)
                runs[which].append([float(v) for v in out.stdout.split()])
        med = {w: [statistics.median(r[i] for r in runs[w]) for i in range(3)] for w in runs}
        for which in ("posenc", "tutorial"):
            seconds, peak, size = med[which]
            rows.append({"rows": n, "method": which, "build_s": round(seconds, 3),
                         "peak_MiB": round(peak / 2**20, 1), "table_MiB": round(size / 2**20, 1),
                         "time_vs_tutorial": round(seconds / med["tutorial"][0], 3),
                         "peak_vs_table": round(peak / size, 2)})
    return rows


def bench_forward(shapes, repeats):
    import torch

    from posenc.torch_module import SinusoidalPositionalEncoding

    rows = []
    for shape in shapes:
        batch, seq, d = shape
        for dtype in (torch.float32, torch.bfloat16):
            m = SinusoidalPositionalEncoding(d, max_len=4096, dtype=dtype).eval()
            pe = m.table(dtype).unsqueeze(0).clone()             # (1, max_len, d) in x.dtype
            x = torch.randn(batch, seq, d).to(dtype)

            def plain():
                return x + pe[:, :x.size(1)]

            def ours():
                return m(x)

            assert torch.equal(plain(), ours())
            calls = max(1, int(1e-3 / _once(plain)))         # about 1 ms per sample
            samples = {"plain": [], "posenc": []}
            ratios = []
            for k in range(repeats):
                order = (("plain", plain), ("posenc", ours))
                t = {}
                for name, fn in (order if k % 2 else order[::-1]):
                    t0 = time.perf_counter()
                    for _ in range(calls):
                        fn()
                    t[name] = (time.perf_counter() - t0) / calls * 1e6
                    samples[name].append(t[name])
                ratios.append(t["posenc"] / t["plain"])
            rows.append({"shape": list(shape), "dtype": str(dtype).removeprefix("torch."),
                         "plain_us": round(min(samples["plain"]), 2),
                         "posenc_us": round(min(samples["posenc"]), 2),
                         "ratio": round(statistics.median(ratios), 3)})
    return rows


def _once(fn):
    fn()
    t0 = time.perf_counter()
    for _ in range(20):
        fn()
    return (time.perf_counter() - t0) / 20


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--skip-build", action="store_true",
                    help="keep the build rows already recorded in the --record file")
    ap.add_argument("--record", type=Path, metavar="JSON",
                    help="write the tables, with date and machine, to this file")
    args = ap.parse_args(argv)
    from bench import machine_description

    if args.skip_build and args.record and args.record.exists():
        build = json.loads(args.record.read_text())["build"]
    else:
        build = bench_build([10**4, 10**5, 10**6], 1 if args.quick else 3)
    print("| rows x 512 | method | build s | vs tutorial | peak MiB | table MiB | peak/table |")
    print("|---|---|---|---|---|---|---|")
    for r in build:
        print(f"| {r['rows']} | {r['method']} | {r['build_s']} | {r['time_vs_tutorial']}x | "
              f"{r['peak_MiB']} | {r['table_MiB']} | {r['peak_vs_table']} |")
    import torch

    torch.set_num_threads(1)            # both sides alike, and less exposed to other processes
    forward = bench_forward([(1, 1, 512), (32, 128, 512), (8, 2048, 1024)],
                            11 if args.quick else 61)
    print()
    print("| x shape | dtype | x + pe[:, :seq] us | module us | ratio |")
    print("|---|---|---|---|---|")
    for r in forward:
        print(f"| {tuple(r['shape'])} | {r['dtype']} | {r['plain_us']} | {r['posenc_us']} | "
              f"{r['ratio']}x |")
    if args.record:
        record = {"date": str(datetime.date.today()), "machine": machine_description(),
                  "build": build, "forward": forward}
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(json.dumps(record, indent=1) + "\n")
        print(f"recorded in {args.record}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
