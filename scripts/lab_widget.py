"""Record the lab widget's own runs: RoPE and the sinusoid, "3 back", training length 24, 400
steps, seeds 0-4, each trained in a Web Worker in headless Chromium as the widget trains it.
Writes docs/data/lab-widget.json (per seed: accuracy at the training length, mean accuracy at
the unseen positions 24-47, wall-clock seconds, the browser's CPU seconds and the load average;
the browser, machine and date). Chapter 10b quotes
the time of a default run and the widget's bounds from it; tests/site/browser/test_lab_widget.py checks a
fresh run at seed 0 against them.

    python scripts/lab_widget.py            # about 10 minutes on a loaded 2-core machine
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "site" / "browser")]

from lab_widget_driver import page, train, vendor_ready  # noqa: E402

OUT = ROOT / "docs" / "data" / "lab-widget.json"
SCHEMES = ("rope", "sinusoid")
SEEDS = (0, 1, 2, 3, 4)


def browser_cpu_seconds() -> float:
    """CPU time (user + system) used so far by the Chromium processes this script started: a
    measure that the other jobs on a shared machine inflate far less than the wall clock."""
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            if "chrom" in child.name():
                times = child.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            pass
    return total


def main() -> None:
    if not vendor_ready():
        sys.exit("TensorFlow.js is not in .cache/: run `python hooks/lab_widget.py` first")
    from posenc.lab.experiments import machine

    runs = {s: [] for s in SCHEMES}
    with page() as p:
        version = p.browser_version
        for seed in SEEDS:
            for scheme in SCHEMES:
                cpu = browser_cpu_seconds()
                r = train(p, scheme=scheme, seed=seed)
                cpu = browser_cpu_seconds() - cpu
                runs[scheme].append({
                    "seed": seed, "trained": round(r["test"]["24"]["accuracy"], 4),
                    "unseen": round(r["unseen"], 4), "seconds": round(r["seconds"], 1),
                    "cpu_seconds": round(cpu, 1), "load_average": round(os.getloadavg()[0], 1),
                    "loss_final": round(r["curve"][-1][1], 5), "backend": r["backend"]})
                print(scheme, runs[scheme][-1], flush=True)
        baseline = p.evaluate("() => PosencLab.orderBlind(48, 16, 3)")
    unseen_baseline = sum(baseline[24:]) / 24
    record = {
        "config": {"k": 3, "train_length": 24, "test_length": 48, "steps": 400, "batch": 32,
                   "lr": 3e-3, "eval_size": 256, "d_model": 32, "n_heads": 2, "n_layers": 2,
                   "vocab": 16},
        "runs": runs, "order_blind_unseen": round(unseen_baseline, 4),
        "environment": {"browser": f"Chromium {version} (headless)", "tfjs": "4.22.0",
                        "machine": machine(), "load_average": [round(x, 2) for x in os.getloadavg()],
                        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d")},
    }
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
