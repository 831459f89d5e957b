"""Run the unit, page and docstring tests as other CPUs would: the CPU matrix (`make portable`).

NumPy picks its SIMD kernels at import, and its float32 ``exp``, ``sin`` and ``cos`` give
different last bits on AVX-512, AVX2 and baseline x86 CPUs. A page that printed what one CPU's
kernels did would pass here and fail on a reader's laptop. This script reruns every test except
the browser ones under three NumPy kernel levels, each in another file order, and with
PyTorch's kernels and thread count varied:

==========  ==========================================  ==========================  ==========
name        NumPy kernels (NPY_DISABLE_CPU_FEATURES)    PyTorch                     file order
==========  ==========================================  ==========================  ==========
native      all this CPU has                            default, default threads    as listed
avx2        no AVX-512 (X86_V4 AVX512_ICL AVX512_SPR)   ATEN_CPU_CAPABILITY=avx2,   reversed
                                                        2 threads
baseline    no AVX2/FMA3 either (+ X86_V3)              ATEN_CPU_CAPABILITY=default, shuffled
                                                        1 thread
==========  ==========================================  ==========================  ==========

Before each run it checks, in a fresh interpreter with the same environment, that NumPy really
disabled what was asked (NumPy ignores unknown names with a warning that pytest would hide) and
that PyTorch took its settings; a configuration that did not take effect fails the matrix.

Usage: python scripts/cpu_matrix.py [--only NAME ...] [--seed N] [-- extra pytest args]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AVX512 = ["X86_V4", "AVX512_ICL", "AVX512_SPR"]
CONFIGS = {
    "native": {"disable": [], "env": {}, "order": "as listed"},
    "avx2": {"disable": AVX512, "env": {"ATEN_CPU_CAPABILITY": "avx2", "OMP_NUM_THREADS": "2"},
             "order": "reversed"},
    "baseline": {"disable": ["X86_V3", *AVX512],
                 "env": {"ATEN_CPU_CAPABILITY": "default", "OMP_NUM_THREADS": "1"},
                 "order": "shuffled"},
}

PROBE = """
import json, os, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import numpy as np
try:
    from numpy._core import _multiarray_umath as umath
except ImportError:
    from numpy.core import _multiarray_umath as umath
facts = {"features": {k: bool(v) for k, v in umath.__cpu_features__.items()},
         "dispatch": list(getattr(umath, "__cpu_dispatch__", [])),
         "warnings": [str(w.message) for w in caught if "CPU" in str(w.message)]}
try:
    import torch
    facts["torch_capability"] = torch.backends.cpu.get_cpu_capability()
    facts["torch_threads"] = torch.get_num_threads()
except ImportError:
    pass
print(json.dumps(facts))
"""


def test_files() -> list[str]:
    """Every test file but the browser's (the site's and the lab widget's): unit tests, pages,
    docstrings, README."""
    tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")
                   if "browser" not in p.relative_to(ROOT / "tests").parts)
    pages = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))
    code = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "posenc").rglob("*.py"))
    return tests + pages + code + ["README.md"]


def environment(name: str) -> dict:
    config = CONFIGS[name]
    env = {**os.environ, **config["env"], "MPLBACKEND": "Agg"}
    env.pop("NPY_DISABLE_CPU_FEATURES", None)
    if config["disable"]:
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(config["disable"])
    return env


def check_configuration(name: str, env: dict) -> dict:
    """Fail unless NumPy and PyTorch run as the configuration asks."""
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                         check=True, cwd=ROOT)
    facts = json.loads(out.stdout.strip().splitlines()[-1])
    config = CONFIGS[name]
    problems = [f"NumPy warned: {w}" for w in facts["warnings"]]
    problems += [f"{f} is still enabled" for f in config["disable"]
                 if facts["features"].get(f)]
    if "ATEN_CPU_CAPABILITY" in config["env"] and "torch_capability" in facts:
        want = config["env"]["ATEN_CPU_CAPABILITY"].upper()
        if facts["torch_capability"] != want:
            problems.append(f"PyTorch kernels are {facts['torch_capability']}, not {want}")
    if "OMP_NUM_THREADS" in config["env"] and "torch_threads" in facts:
        want = int(config["env"]["OMP_NUM_THREADS"])
        if facts["torch_threads"] != min(want, os.cpu_count() or want):
            problems.append(f"PyTorch uses {facts['torch_threads']} threads, not {want}")
    if problems:
        raise SystemExit(f"configuration {name!r} did not take effect: " + "; ".join(problems))
    return facts


def ordered(files: list[str], order: str, seed: int) -> list[str]:
    if order == "reversed":
        return files[::-1]
    if order == "shuffled":
        files = files[:]
        random.Random(seed).shuffle(files)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=list(CONFIGS), default=list(CONFIGS))
    parser.add_argument("--seed", type=int, default=2026, help="seed of the shuffled order")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args()
    files, summary, status = test_files(), [], 0
    for name in args.only:
        env = environment(name)
        facts = check_configuration(name, env)
        enabled = [f for f in facts["dispatch"] if facts["features"].get(f)]
        order = CONFIGS[name]["order"]
        cmd = [sys.executable, "-m", "pytest", "-p", "no:randomly",
               *ordered(files, order, args.seed), *args.pytest_args]
        print(f"== {name}: NumPy kernels {enabled or ['baseline']}, "
              f"PyTorch {facts.get('torch_capability', '-')} x{facts.get('torch_threads', '-')}, "
              f"files {order}" + (f" (seed {args.seed})" if order == "shuffled" else ""),
              flush=True)
        start = time.perf_counter()
        run = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        tail = [line for line in run.stdout.splitlines() if line.strip()][-12:]
        print("\n".join(tail), flush=True)
        counts = next((line for line in reversed(tail) if " passed" in line or " failed" in line),
                      f"exit {run.returncode}")
        summary.append((name, counts.strip("= "), seconds, run.returncode))
        if run.returncode != 0:
            status = 1
            print(run.stdout[-6000:] + run.stderr[-3000:])
    print("\nCPU matrix:")
    for name, counts, seconds, code in summary:
        print(f"  {name:<9} {'ok  ' if code == 0 else 'FAIL'} {counts}  ({seconds:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
