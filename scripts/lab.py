"""Run the lab: train every experiment's models at every seed and record them.

    python scripts/lab.py                 # all experiments, 5 seeds, write docs/data/lab/*.json
    python scripts/lab.py --only order    # one experiment
    python scripts/lab.py --check         # re-run and check every verdict; write nothing
    python scripts/lab.py --decide        # re-decide the verdicts of the records, no training

Each run computes on one thread; --workers runs that many at once (default 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from posenc.lab.experiments import EXPERIMENTS, RECORDS, SEEDS, decide, load, run_experiments


def bar(started):
    def show(done, total):
        width = 30
        filled = width * done // total
        elapsed = time.time() - started
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} runs, "
                         f"{elapsed:5.0f} s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=sorted(EXPERIMENTS))
    parser.add_argument("--seeds", type=int, default=len(SEEDS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="check verdicts, write nothing")
    parser.add_argument("--decide", action="store_true",
                        help="recompute the verdicts of the recorded runs (after a check changed)")
    args = parser.parse_args(argv)
    started = time.time()
    if args.decide:
        records = {name: load(name) for name in (args.only or EXPERIMENTS)}
        for name, record in records.items():
            record["verdicts"] = decide(EXPERIMENTS[name], record["runs"])
    else:
        records = run_experiments(args.only, tuple(range(args.seeds)), args.workers,
                                  bar(started))
    failed = []
    for name, record in records.items():
        for v in record["verdicts"]:
            mark = "holds" if v["holds"] else "FAILS"
            print(f"{name:8s} {v['id']:34s} {mark}  weakest {v['weakest']}  {v['per_seed']}")
            if not v["holds"]:
                failed.append(f"{name}/{v['id']}")
        if not args.check:
            RECORDS.mkdir(parents=True, exist_ok=True)
            (RECORDS / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n",
                                                 encoding="utf-8")
    print(f"{sum(len(r['verdicts']) for r in records.values())} verdicts, {len(failed)} failing;"
          f" {time.time() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
