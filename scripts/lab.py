"""Run the lab: train every experiment's models at every seed and record them.

    python scripts/lab.py                 # all experiments, their seeds, write docs/data/lab/*.json
    python scripts/lab.py --only order    # one experiment
    python scripts/lab.py --reuse         # as above, but reuse the recorded runs of any config
                                          # whose seed-0 run re-trains here identically
    python scripts/lab.py --check         # CI: records current, verdicts re-decided, and a
                                          # deterministic subset re-trained against the records
    python scripts/lab.py --decide        # re-decide the verdicts of the records, no training

Each run computes on one thread; --workers runs that many at once (default 1). Experiments are
recorded one at a time, so an interrupted sweep keeps what it finished.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import fields, replace
from pathlib import Path

from posenc.lab import experiments

from posenc.lab.experiments import (CODE, EXPERIMENTS, RECORDS, code_hash, decide, jobs_of, simd,
                                    load, run_experiments)
from posenc.lab.lengths import LengthConfig
from posenc.lab.run import Config, run

CACHE = RECORDS.parents[2] / ".cache" / "lab-runs.jsonl"   # finished runs, by code and config
CHECK_STEPS = 50          # --check re-trains every config's seed 0 this far and compares the curve
CHECK_FULL = ("order",)   # ... and these experiments' seed 0 in full, verdicts included
# ... and the headline verdicts re-decided at seeds no record holds (issue 39): a bound fitted
# to the recorded seeds has to hold at fresh ones too. {experiment: (labels, check ids)}
FRESH_SEEDS = (100, 101, 102)
FRESH = {"past": (("sinusoid", "rope"), ("sinusoid-fails-past-L", "rope-holds-past-L")),
         "start": (("none + start symbol",), ("nope-start-fails-2x",))}


def bar(started, what="runs"):
    """A progress bar on stderr: runs done of the total, seconds so far and, from the mean run so
    far, the seconds left (the costliest runs go first, so the estimate errs long)."""
    def show(done, total):
        width = 30
        filled = width * done // total
        elapsed = time.time() - started
        left = elapsed / done * (total - done) if done else 0.0
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}, "
                         f"{elapsed:5.0f} s, about {left:5.0f} s left")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def _config(stored: dict) -> Config:
    """A Config from a record's dict (fields added since take their defaults); a
    :class:`~posenc.lab.lengths.LengthConfig` when the dict has its start-symbol field."""
    kind = LengthConfig if "bos" in stored else Config
    known = {f.name for f in fields(kind)}
    return kind(**{k: tuple(v) if isinstance(v, list) else v
                   for k, v in stored.items() if k in known})


def _run(config) -> dict:
    """One run of a config by its own runner (posenc.lab.lengths for a LengthConfig)."""
    return config.train_run() if hasattr(config, "train_run") else run(config)


DIAGNOSTICS = ("grad_norm", "grad_norm_max")   # reproduce to about 1e-5, not bit for bit


def _same(a: dict, b: dict) -> bool:
    """Two runs' metrics agree: identical but for the time taken, and gradient norms within
    1e-3 (re-trained on 2026-11-27, some configs' gradient norms differed from the 2026-11-25
    records in the fifth significant digit while the loss curve and accuracies were equal)."""
    def close(x, y):
        return abs(x - y) <= 1e-3 * abs(y)
    a, b = dict(a), dict(b)
    if not (close(a.pop("grad_norm_max"), b.pop("grad_norm_max"))
            and all(close(x[1], y[1]) for x, y in zip(a.pop("grad_norm"), b.pop("grad_norm")))):
        return False
    a.pop("seconds", None), b.pop("seconds", None)
    return a == b


def _code(config=None) -> str:
    """Hash of the code that trains ``config`` (the lab's runner and its scheme registry; for a
    LengthConfig also posenc/lab/lengths.py)."""
    digest = hashlib.sha256()
    names = CODE + ("schemes.py",) + (("lengths.py",) if isinstance(config, LengthConfig) else ())
    for name in names:
        digest.update((Path(experiments.__file__).parent / name).read_bytes())
    return digest.hexdigest()


def cache(config, metrics) -> None:
    """Keep a finished run (keyed by the training code and its config) so that an interrupted
    sweep loses nothing; ``--reuse`` reads it back."""
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    with CACHE.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"code": _code(config), "config": config.as_dict(),
                              "metrics": metrics}) + "\n")


def cached() -> dict:
    """The cached runs of the current training code: {seeded config: metrics}."""
    if not CACHE.exists():
        return {}
    out, codes = {}, {Config: _code(), LengthConfig: _code(LengthConfig())}
    for line in CACHE.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        config = _config(entry["config"])
        if entry["code"] == codes[type(config)]:
            out[config] = entry["metrics"]
    return out


def reusable(jobs, progress=None) -> dict:
    """Runs of ``jobs`` finished before: this code's cached runs, and recorded runs of configs
    whose seed-0 run re-trains here to the same metrics: {seeded config: {"metrics", "source"}}."""
    done = cached()
    out = {job: {"metrics": done[job], "source": None} for job in jobs if job in done}
    jobs = [job for job in jobs if job not in out]
    found = {}                                  # base config -> {seed: (metrics, source)}
    for path in sorted(RECORDS.glob("*.json")):
        if path.stem not in EXPERIMENTS:        # lm.json: the language model's own record
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        source = f"{path.name} ({record['environment']['date']})"
        for label, stored in record["configs"].items():
            base = _config(stored)
            for i, seed in enumerate(record["seeds"]):
                found.setdefault(base, {})[seed] = (record["runs"][label][i], source)
    wanted = {}
    for job in jobs:
        base = replace(job, seed=0, attention_length=0)
        if base in found and job.seed in found[base]:
            wanted.setdefault(base, []).append(job)
    count = 0
    for base, group in wanted.items():
        first = next((j for j in group if j.seed == 0), None)
        count += 1
        if first is None:
            continue
        metrics = _run(first)
        cache(first, metrics)
        if not _same(metrics, found[base][0][0]):
            print(f"not reused: {base.scheme}, k {base.k}: seed 0 re-trains differently")
            continue
        for job in group:
            metrics, source = found[base][job.seed]
            if job.attention_length and "attention" not in metrics:
                continue
            out[job] = {"metrics": metrics, "source": source}
        if progress:
            progress(count, len(wanted))
    return out


def check(names) -> list:
    """CI: every record current and its verdicts re-decided; every config's seed 0 re-trained
    for CHECK_STEPS steps against the recorded curve; CHECK_FULL's seed 0 re-trained in full."""
    problems, seen = [], set()
    for name in names:
        record, experiment = load(name), EXPERIMENTS[name]
        if record["code_hash"] != code_hash(experiment):
            problems.append(f"{name}: record is stale (code or configs changed); run `make lab`")
            continue
        if decide(experiment, record["runs"]) != record["verdicts"]:
            problems.append(f"{name}: recorded verdicts differ from the re-decided ones")
        recorded_simd = record["environment"].get("simd")
        if recorded_simd and recorded_simd != simd():
            print(f"{name:8s} recorded with {recorded_simd}, re-trained here with {simd()}: "
                  "the last digits of the curves may differ")
        for label in experiment.configs:
            config = experiment.config(label, record["seeds"][0])
            if config in seen:
                continue
            seen.add(config)
            short = replace(config, steps=min(CHECK_STEPS, config.steps), eval_at=(),
                            attention_length=0, test_lengths=config.test_lengths[:1],
                            eval_size=8, log_every=min(config.log_every, CHECK_STEPS))
            curve = _run(short)["curve"]
            recorded = record["runs"][label][0]["curve"][:len(curve)]
            worst = max(abs(a[1] - b[1]) / abs(b[1]) for a, b in zip(curve, recorded))
            status = "identical" if curve == recorded else f"within {worst:.1e}"
            print(f"{name:8s} {label:36s} first {short.steps} steps: {status}")
            if worst > 1e-3:
                problems.append(f"{name}/{label}: seed 0 does not re-train to its recorded curve "
                                f"(largest relative gap {worst:.1e})")
    for name in CHECK_FULL:
        if name not in names:
            continue
        record, experiment = load(name), EXPERIMENTS[name]
        fresh = run_experiments([name], seeds=(0,), workers=1)[name]
        for label in experiment.configs:
            a, b = fresh["runs"][label][0], record["runs"][label][0]
            if not _same(a, b):
                gap = max(abs(a["test"][n]["accuracy"] - b["test"][n]["accuracy"])
                          for n in a["test"])
                print(f"{name:8s} {label:36s} re-trained in full: accuracy within {gap}")
                # Records were made with PyTorch's AVX-512 kernels; re-trained in full on an
                # AVX2-only CPU (2026-12-07), order/sinusoid seed 0 landed 0.0205 away, its
                # verdicts unchanged. Digits differ between CPUs; the verdicts are re-decided.
                if gap > 0.03:
                    problems.append(f"{name}/{label}: seed 0 re-trained to accuracy {gap} away")
            else:
                print(f"{name:8s} {label:36s} re-trained in full: identical")
        problems += [f"{name}/{v['id']} fails for seed 0 re-trained here"
                     for v in fresh["verdicts"] if not v["holds"]]
    for v in fresh_verdicts({n: FRESH[n] for n in names if n in FRESH}):
        print(f"fresh    {v['id']:36s} {'holds' if v['holds'] else 'FAILS'}  weakest "
              f"{v['weakest']}  seeds {list(FRESH_SEEDS)}: {v['per_seed']}")
        if not v["holds"]:
            problems.append(f"{v['id']} fails at fresh seeds {list(FRESH_SEEDS)}")
    return problems


def fresh_verdicts(chosen: dict, seeds=FRESH_SEEDS) -> list:
    """The checks ``chosen`` ({experiment: (labels, check ids)}) re-decided at seeds that no
    record holds, each label trained in full at each seed (written nowhere)."""
    out = []
    for name, (labels, ids) in chosen.items():
        experiment = EXPERIMENTS[name]
        part = experiments.Experiment(name, experiment.title,
                                      {label: experiment.configs[label] for label in labels},
                                      tuple(c for c in experiment.checks if c.id in ids),
                                      code=experiment.code)
        record = run_experiments([part], seeds=seeds, workers=1, progress=bar(time.time(),
                                 f"{name} runs at fresh seeds"))[name]
        out += [{**v, "id": f"{name}/{v['id']}"} for v in record["verdicts"]]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=sorted(EXPERIMENTS))
    parser.add_argument("--seeds", type=int, help="seeds 0 .. N-1 for every experiment")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--check", action="store_true",
                        help="CI: check the records and re-train a subset; write nothing")
    parser.add_argument("--decide", action="store_true",
                        help="recompute the verdicts of the recorded runs (after a check changed)")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse recorded runs of configs whose seed 0 re-trains identically")
    args = parser.parse_args(argv)
    started = time.time()
    names = args.only or list(EXPERIMENTS)
    if args.check:
        problems = check(names)
        for name in names:
            for v in load(name)["verdicts"]:
                print(f"{name:8s} {v['id']:36s} {'holds' if v['holds'] else 'FAILS'}  "
                      f"weakest {v['weakest']}  {v['per_seed']}")
                if not v["holds"]:
                    problems.append(f"{name}/{v['id']} fails in the record")
        print("\n".join(problems) or "every record current, every verdict holds")
        print(f"lab check: {time.time() - started:.0f} s")
        return 1 if problems else 0
    seeds = tuple(range(args.seeds)) if args.seeds else None
    reuse = {}
    if args.reuse:
        jobs = jobs_of([EXPERIMENTS[n] for n in names], seeds)
        reuse = reusable(jobs, bar(started, "configs verified"))
        print(f"reusing {len(reuse)} recorded runs, verified by re-training seed 0")
    failed, total = [], 0
    for name in names:               # one experiment at a time, written as it finishes
        record = (load(name) if args.decide else
                  run_experiments([name], seeds, args.workers, bar(started), reuse,
                                  on_result=cache)[name])
        if args.decide:
            record["verdicts"] = decide(EXPERIMENTS[name], record["runs"])
        for label, runs in record["runs"].items():      # later experiments reuse these runs
            for seed, metrics in zip(record["seeds"], runs):
                config = EXPERIMENTS[name].config(label, seed)
                reuse.setdefault(config, {"metrics": metrics, "source": None})
        for v in record["verdicts"]:
            total += 1
            mark = "holds" if v["holds"] else "FAILS"
            print(f"{name:8s} {v['id']:36s} {mark}  weakest {v['weakest']}  {v['per_seed']}")
            if not v["holds"]:
                failed.append(f"{name}/{v['id']}")
        RECORDS.mkdir(parents=True, exist_ok=True)
        (RECORDS / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n",
                                             encoding="utf-8")
    print(f"{total} verdicts, {len(failed)} failing; {time.time() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
