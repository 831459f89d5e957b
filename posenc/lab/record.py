"""Recording the lab: code hash, runs, the records in ``docs/data/lab/``, the machine they ran on.

Chapter "What does a trained model do with the encoding?" reads the records.

A record holds the configs, every seed's metrics, the verdicts, the library versions, machine and
date, and :func:`code_hash`, a hash of the lab's training code (of the scheme registry, only the
entries its configs use) and the configs: a record whose hash differs is stale.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

from . import schemes
from .run import run
from .table import CODE, Experiment
from .table_axes import EXPERIMENTS

RECORDS = Path(__file__).resolve().parents[2] / "docs" / "data" / "lab"
LAB = Path(__file__).resolve().parent          # where code_hash reads each experiment's code


def code_only(source: str) -> bytes:
    """A module's syntax tree without its docstrings, as bytes: what :func:`code_hash` hashes of
    a file outside :data:`CODE`, so that an edited docstring or comment leaves the records of
    the experiments that use it current (a step toward hashing only the code that runs). The
    files of :data:`CODE` are hashed byte for byte, as the older records were.

    Examples
    --------
    >>> from posenc.lab.record import code_only
    >>> code_only("'One.'; x = 1  # a comment") == code_only("'Two.'; x = 1")
    True
    >>> code_only("x = 1") == code_only("x = 2")
    False
    """
    import ast
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        scoped = isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                   ast.AsyncFunctionDef))
        if (scoped and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree).encode()


def code_hash(experiment: Experiment) -> str:
    """sha256 of the code that trains (``experiment.code``: model, tasks and run, and for the
    experiments of :mod:`posenc.lab.lengths` that module too; of :mod:`posenc.lab.schemes`, the
    entries of the schemes its configs use and the code outside the entries) and the
    experiment's configs. An experiment hashes only the code it trains with, so a new module or
    a new scheme leaves older records current.

    The checks are not hashed: :func:`decide` recomputes the verdicts from the recorded runs,
    so a changed threshold needs no re-training (``python scripts/lab.py --decide``).

    Examples
    --------
    >>> from posenc.lab.record import code_hash
    >>> from posenc.lab.table_axes import EXPERIMENTS
    >>> len(code_hash(EXPERIMENTS["past"]))
    64
    """
    digest = hashlib.sha256()
    here = LAB
    for name in experiment.code:
        path = here / name
        digest.update(path.read_bytes() if name in CODE else code_only(path.read_text()))
    used = sorted({config.scheme for config in experiment.configs.values()})
    digest.update(code_only(schemes.source(used, here / "schemes.py")))
    configs = {label: [experiment.config(label, 0).as_dict(), experiment.config(label, 1).as_dict()]
               for label in experiment.configs}
    digest.update(json.dumps(configs, sort_keys=True).encode())
    return digest.hexdigest()


def decide(experiment: Experiment, runs: dict) -> list:
    """Verdicts of an experiment from its runs: {label: [metrics per seed]}.

    Examples
    --------
    >>> from posenc.lab.record import decide, load
    >>> from posenc.lab.table_axes import EXPERIMENTS
    >>> record = load("order")
    >>> decide(EXPERIMENTS["order"], record["runs"]) == record["verdicts"]
    True
    """
    n = len(next(iter(runs.values())))
    per_seed = [{label: runs[label][i] for label in runs} for i in range(n)]
    return [check.decide(per_seed) for check in experiment.checks]


def _work(job):
    import torch
    torch.set_num_threads(1)
    return job, (job.train_run() if hasattr(job, "train_run") else run(job))


def jobs_of(chosen, seeds=None) -> list:
    """The distinct seeded configs that the experiments ``chosen`` need, costliest first
    (``seeds`` overrides each experiment's own).

    Examples
    --------
    >>> from posenc.lab.record import jobs_of
    >>> from posenc.lab.table_axes import EXPERIMENTS
    >>> len(jobs_of([EXPERIMENTS["learned"], EXPERIMENTS["past"]]))   # shared configs once
    25
    """
    return sorted({e.config(label, s) for e in chosen for label in e.configs
                   for s in (seeds if seeds is not None else e.seeds)},
                  key=lambda c: (c.steps * max(c.train_lengths) * c.d_model, c.scheme, c.seed),
                  reverse=True)


def run_experiments(names=None, seeds=None, workers: int = 2, progress=None,
                    reuse=None, on_result=None) -> dict:
    """Run experiments (each distinct config once per seed) and return their records.

    ``names`` lists names of :data:`EXPERIMENTS` or :class:`Experiment` objects (all of
    :data:`EXPERIMENTS` when None); ``seeds`` overrides each experiment's seeds; ``workers``
    processes train at once, each on one thread; ``progress(done, total)`` is called after every
    run. ``reuse`` maps seeded configs to ``{"metrics", "source"}`` already measured (and
    re-verified) elsewhere: those are not trained again, and the record names the sources.
    ``on_result(config, metrics)`` is called as each run finishes.

    Examples
    --------
    >>> from posenc.lab.checks import Check
    >>> from posenc.lab.record import run_experiments
    >>> from posenc.lab.table import Experiment
    >>> from posenc.lab.run import Config
    >>> tiny = Experiment("tiny", "two steps", {"a": Config(steps=2, eval_size=4, log_every=1)},
    ...                   (Check("learns", "loss below 9", lambda m: m["a"]["loss_final"], "<", 9),))
    >>> run_experiments([tiny], seeds=(0, 1), workers=1)["tiny"]["verdicts"][0]["holds"]
    True
    """
    chosen = [n if isinstance(n, Experiment) else EXPERIMENTS[n] for n in (names or EXPERIMENTS)]
    reuse = reuse or {}
    jobs = [j for j in jobs_of(chosen, seeds) if j not in reuse]
    results, started = {}, time.time()
    if workers > 1 and jobs:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for job, metrics in pool.imap_unordered(_work, jobs):
                results[job] = metrics
                if on_result:
                    on_result(job, metrics)
                if progress:
                    progress(len(results), len(jobs))
    else:
        for job in jobs:
            results[job] = _work(job)[1]
            if on_result:
                on_result(job, results[job])
            if progress:
                progress(len(results), len(jobs))
    seconds = round(time.time() - started, 1)
    records = {}
    for e in chosen:
        seeds_e = tuple(seeds if seeds is not None else e.seeds)
        runs = {label: [results.get(e.config(label, s)) or reuse[e.config(label, s)]["metrics"]
                        for s in seeds_e] for label in e.configs}
        reused = {label: sorted({reuse[e.config(label, s)]["source"] for s in seeds_e
                                 if e.config(label, s) in reuse
                                 and reuse[e.config(label, s)]["source"]})
                  for label in e.configs}
        records[e.name] = {
            "experiment": e.name, "title": e.title, "code_hash": code_hash(e),
            "seeds": list(seeds_e), "configs": {k: c.as_dict() for k, c in e.configs.items()},
            "runs": runs, "verdicts": decide(e, runs), "environment": environment(),
            "lab_seconds": seconds, "workers": workers,
            "reused": {label: src for label, src in reused.items() if src}}
    return records


def environment() -> dict:
    """Library versions, machine and date of a record.

    Examples
    --------
    >>> from posenc.lab.record import environment
    >>> sorted(environment())[:3]
    ['cpus', 'date', 'load_average']
    """
    import numpy
    import torch
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {"python": platform.python_version(), "torch": torch.__version__,
            "numpy": numpy.__version__, "machine": machine(), "cpus": os.cpu_count(),
            "load_average": load, "simd": simd(),
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d")}


# The x86 SIMD flags that decide which kernels torch and NumPy run (their last digits differ
# between kernel levels, so two records of one config agree only on the same level).
SIMD_FLAGS = ("avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
              "avx512_bf16", "amx_tile")


def simd() -> dict:
    """The SIMD level a record's runs used: torch's CPU kernel level (``ATEN_CPU_CAPABILITY``
    plays another) and the CPU's SIMD flags (``/proc/cpuinfo``; empty where it is not there).

    Two runs of one config drift apart from their last digits when this differs, so a record
    that disagrees with a re-run is first compared on this (chapter 10b's limits).

    Examples
    --------
    >>> from posenc.lab.record import simd
    >>> sorted(simd())
    ['cpu_flags', 'torch_kernels']
    """
    import torch
    flags: list[str] = []
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                present = set(line.split(":", 1)[1].split())
                flags = [f for f in SIMD_FLAGS if f in present]
                break
    except OSError:
        pass
    return {"torch_kernels": torch.backends.cpu.get_cpu_capability(), "cpu_flags": flags}


def machine() -> str:
    """The CPU's model name and core count.

    Examples
    --------
    >>> from posenc.lab.record import machine
    >>> machine().endswith("cores)")
    True
    """
    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{name} ({os.cpu_count()} cores)"


def load(name: str) -> dict:
    """The recorded run of an experiment, from ``docs/data/lab/<name>.json``.

    Examples
    --------
    >>> from posenc.lab.record import load
    >>> len(load("past")["seeds"])
    5
    """
    if name not in EXPERIMENTS:
        raise ValueError(f"name must be one of {sorted(EXPERIMENTS)}, got {name!r}")
    return json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def verdict(name: str, check_id: str) -> dict:
    """One recorded verdict: ``{"holds", "weakest", "per_seed", "statement", ...}``.

    Examples
    --------
    >>> from posenc.lab.record import verdict
    >>> verdict("order", "bidirectional-nope-at-chance")["holds"]
    True
    """
    for v in load(name)["verdicts"]:
        if v["id"] == check_id:
            return v
    raise ValueError(f"check_id {check_id!r} is not a check of experiment {name!r}")
