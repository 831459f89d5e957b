"""Train and record the lab's byte-level language model (chapter 10b, "A language model on real
text"): five position schemes x three seeds, written to docs/data/lab/lm.json.

    python scripts/lab_lm.py              # train every run (one thread), write the record
    python scripts/lab_lm.py --decide     # re-decide the verdicts of the record, no training
    python scripts/lab_lm.py --check      # CI: record current, verdicts re-decided, and one
                                          # scheme re-trained at a never-recorded seed
    python scripts/lab_lm.py --reuse      # train nothing if the record is current

The record is rewritten after every finished run, so an interrupted sweep keeps what it has.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace

from posenc.lab import lm, lm_record


def bar(started, total, what="steps"):
    state = {"done": 0}

    def show(n=1):
        state["done"] += n
        done, width = state["done"], 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}, "
                         f"{time.time() - started:5.0f} s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def _work(job):
    import torch
    torch.set_num_threads(1)
    label, seed = job
    return label, seed, lm.run(replace(lm.CONFIGS[label], seed=seed))


def record_all(workers: int = 1) -> int:
    """Train every scheme at every seed, ``workers`` processes at once (one thread each), and
    rewrite the record after every finished run."""
    started = time.time()
    jobs = [(label, seed) for seed in lm.SEEDS for label in lm.CONFIGS]
    runs = {label: [None] * len(lm.SEEDS) for label in lm.CONFIGS}
    show = bar(started, len(jobs), "language-model runs")
    if workers > 1:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for label, seed, metrics in pool.imap_unordered(_work, jobs):
                runs[label][lm.SEEDS.index(seed)] = metrics
                lm_record.save(record := lm_record.make(runs, time.time() - started, workers))
                show(1)
    else:
        for job in jobs:
            label, seed, metrics = _work(job)
            runs[label][lm.SEEDS.index(seed)] = metrics
            lm_record.save(record := lm_record.make(runs, time.time() - started, workers))
            show(1)
    for v in record["verdicts"]:
        print(f"lm {v['id']:40s} {'holds' if v['holds'] else 'FAILS'}  weakest {v['weakest']}  "
              f"{v['per_seed']}")
    print(f"lm: {len(jobs)} runs, {time.time() - started:.0f} s")
    return 0 if all(v["holds"] for v in record["verdicts"]) else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--decide", action="store_true")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--reuse", action="store_true",
                        help="train nothing when the record is current")
    parser.add_argument("--only", nargs="*", help="(scripts/lab.py's experiments: skip the LM)")
    args, _ = parser.parse_known_args(argv)     # `make lab` passes scripts/lab.py's arguments
    if args.only is not None:
        print("lm: skipped (--only names scripts/lab.py's experiments)")
        return 0
    if args.reuse and not args.check and lm_record.load()["code_hash"] == lm.code_hash(lm.CONFIGS):
        print("lm: record current, nothing to train (--reuse)")
        return 0
    if args.check:
        problems = lm_record.check(progress=bar(time.time(), lm.CONFIGS[lm_record.FRESH_SCHEME].steps))
        print("\n".join(problems) or "lm: record current, every verdict holds, fresh seed agrees")
        return 1 if problems else 0
    if args.decide:
        record = lm_record.load()
        record["verdicts"] = lm_record.decide(record["runs"])
        lm_record.save(record)
        return 0 if all(v["holds"] for v in record["verdicts"]) else 1
    return record_all(args.workers)


if __name__ == "__main__":
    sys.exit(main())
