"""The lab's experiments: configs, the checks that decide each verdict, and the records in
``docs/data/lab/`` (chapter "What does a trained model do with the encoding?").

A :class:`Check` compares one figure per seed with a threshold; its verdict holds only when every
seed passes, and the figure it quotes is the weakest seed's. A record holds the configs, every
seed's metrics, the verdicts, the library versions, machine and date, and :func:`code_hash`, a
hash of the lab's training code and the configs: a record whose hash differs is stale.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from .run import Config, run

SEEDS = (0, 1, 2, 3, 4)
RECORDS = Path(__file__).resolve().parents[2] / "docs" / "data" / "lab"
CODE = ("model.py", "tasks.py", "run.py")     # the code that produces a run


@dataclass(frozen=True)
class Check:
    """A per-seed figure compared with a threshold; the verdict holds when every seed passes.

    ``figure`` maps one seed's metrics (``{label: metrics}``) to a number; ``op`` is ``"<"`` or
    ``">"``. The weakest seed is the one closest to failing: the largest figure for ``"<"``.

    Examples
    --------
    >>> from posenc.lab.experiments import Check
    >>> c = Check("x", "accuracy stays above 0.9", lambda m: m["a"], ">", 0.9)
    >>> c.decide([{"a": 0.95}, {"a": 0.99}])["weakest"]
    0.95
    """

    id: str
    statement: str
    figure: object
    op: str
    threshold: float

    def decide(self, seeds: list) -> dict:
        figures = [round(float(self.figure(m)), 4) for m in seeds]
        passes = [f < self.threshold if self.op == "<" else f > self.threshold for f in figures]
        weakest = max(figures) if self.op == "<" else min(figures)
        return {"id": self.id, "statement": self.statement, "op": self.op,
                "threshold": self.threshold, "per_seed": figures, "weakest": weakest,
                "holds": all(passes)}


@dataclass(frozen=True)
class Experiment:
    """A named set of configs (one per label) and the checks that decide its verdicts.

    Examples
    --------
    >>> from posenc.lab.experiments import EXPERIMENTS
    >>> EXPERIMENTS["order"].config("none, causal", seed=3).seed
    3
    """

    name: str
    title: str
    configs: dict          # label -> Config (seed 0; the runner sets each seed)
    checks: tuple

    def config(self, label: str, seed: int) -> Config:
        """The config of one label at one seed; seed 0 of an :data:`ATTENTION` config also
        records an attention map at its longest test length."""
        base = self.configs[label]
        length = max(base.test_lengths) if base in ATTENTION and seed == 0 else 0
        return replace(base, seed=seed, attention_length=length)


def _acc(m, label, length):
    return m[label]["test"][str(length)]["accuracy"]


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values)


def _positions(m, label, length, start, stop, key="per_position"):
    """Mean of a per-position metric over positions start .. stop - 1."""
    return _mean(m[label]["test"][str(length)][key][start:stop])


# ------------------------------------------------------------------ 1. order blindness
ORDER_BASE = Config(task="first_last", train_lengths=(12,), test_lengths=(12,), steps=300)
ORDER = Experiment(
    "order", "Order blindness: is the first symbol larger than the last?",
    {"none, bidirectional": replace(ORDER_BASE, scheme="none", causal=False),
     "none, causal": replace(ORDER_BASE, scheme="none", causal=True),
     "sinusoid, bidirectional": replace(ORDER_BASE, scheme="sinusoid", causal=False)},
    (Check("bidirectional-nope-at-chance",
           "bidirectional NoPE: accuracy within 0.06 of chance (0.5)",
           lambda m: abs(_acc(m, "none, bidirectional", 12) - 0.5), "<", 0.06),
     Check("sinusoid-learns-order", "bidirectional with the sinusoid: accuracy above 0.9",
           lambda m: _acc(m, "sinusoid, bidirectional", 12), ">", 0.9),
     Check("causal-nope-learns-order", "causal NoPE: accuracy above 0.6",
           lambda m: _acc(m, "none, causal", 12), ">", 0.6)))

# ------------------------------------------------------------------ 2. raw index, index / L
INDEX_BASE = Config(k=1, train_lengths=(16, 32), test_lengths=(8, 12, 16, 24, 32), steps=400)
INDEX = Experiment(
    "index", "Raw index, index / L and the sinusoid: stability and 'adjacent' across lengths",
    {"index": replace(INDEX_BASE, scheme="index"),
     "index/L": replace(INDEX_BASE, scheme="index/L"),
     "sinusoid": replace(INDEX_BASE, scheme="sinusoid")},
    (Check("index-larger-gradients",
           "raw index: largest gradient norm over 2x the sinusoid's",
           lambda m: m["index"]["grad_norm_max"] / m["sinusoid"]["grad_norm_max"], ">", 2.0),
     Check("index-larger-inputs",
           "raw index: input to the first block over 10x the sinusoid's (root mean square)",
           lambda m: m["index"]["input_rms"] / m["sinusoid"]["input_rms"], ">", 10.0),
     Check("index-still-learns",
           "raw index: accuracy at every test length above 0.98",
           lambda m: min(_acc(m, "index", L) for L in INDEX_BASE.test_lengths), ">", 0.98),
     Check("sinusoid-unseen-lengths",
           "sinusoid: accuracy at every test length above 0.99",
           lambda m: min(_acc(m, "sinusoid", L) for L in INDEX_BASE.test_lengths), ">", 0.99),
     Check("index-over-L-fails-shorter",
           "index / L: accuracy at the unseen shorter length 8 below 0.2",
           lambda m: _acc(m, "index/L", 8), "<", 0.2),
     Check("index-over-L-interpolates",
           "index / L: accuracy at the unseen length 24, between the trained 16 and 32, "
           "above 0.98", lambda m: _acc(m, "index/L", 24), ">", 0.98)))

# ------------------------------------------------------------------ 3-5. past the training length
L_TRAIN, L_TEST = 24, 48
PAST_BASE = Config(k=3, train_lengths=(L_TRAIN,), test_lengths=(L_TRAIN, L_TEST), steps=400,
                   max_len=L_TEST)
PAST_CONFIGS = {s: replace(PAST_BASE, scheme=s)
                for s in ("sinusoid", "learned", "rope", "alibi", "none")}
ATTENTION = {PAST_CONFIGS[s] for s in ("sinusoid", "learned", "rope")}


def _unseen(m, label, key="per_position"):
    return _positions(m, label, L_TEST, L_TRAIN, L_TEST, key)


def _seen(m, label, key="per_position"):
    return _positions(m, label, L_TEST, PAST_BASE.k, L_TRAIN, key)


PAST = Experiment(
    "past", "Past the training length: k back (k = 3), trained on 24 positions, tested on 48",
    PAST_CONFIGS,
    tuple(Check(f"{s}-in-distribution", f"{s}: accuracy at the trained length above 0.99",
                lambda m, s=s: _acc(m, s, L_TRAIN), ">", 0.99)
          for s in ("sinusoid", "learned", "rope"))
    + (Check("sinusoid-fails-past-L", "sinusoid: accuracy at unseen positions 24-47 below 0.5",
             lambda m: _unseen(m, "sinusoid"), "<", 0.5),
       Check("learned-fails-past-L", "learned: accuracy at unseen positions 24-47 below 0.5",
             lambda m: _unseen(m, "learned"), "<", 0.5),
       Check("rope-holds-past-L", "RoPE: accuracy at unseen positions 24-47 above 0.9",
             lambda m: _unseen(m, "rope"), ">", 0.9),
       Check("alibi-does-not-learn", "ALiBi: accuracy at the trained length below 0.6",
             lambda m: _acc(m, "alibi", L_TRAIN), "<", 0.6),
       Check("nope-does-not-learn", "causal NoPE: accuracy at the trained length below 0.6",
             lambda m: _acc(m, "none", L_TRAIN), "<", 0.6)))

LEARNED = Experiment(
    "learned", "Learned against sinusoidal, in distribution (k back, 24 positions)",
    {s: PAST_CONFIGS[s] for s in ("sinusoid", "learned")},
    (Check("learned-no-better", "learned minus sinusoid accuracy at the trained length, "
           "below 0.01", lambda m: _acc(m, "learned", L_TRAIN) - _acc(m, "sinusoid", L_TRAIN),
           "<", 0.01),
     Check("sinusoid-no-better", "sinusoid minus learned accuracy at the trained length, "
           "below 0.01", lambda m: _acc(m, "sinusoid", L_TRAIN) - _acc(m, "learned", L_TRAIN),
           "<", 0.01),
     # Final losses are about 0.0015 here and the recorded gaps 0.0003: a sign is too thin a
     # margin to hold on another CPU's kernels, so the verdict CI re-checks is "no better by
     # more than 0.001"; the page reads the per-seed sign from the record.
     Check("learned-loss-not-lower",
           "learned minus sinusoid final training loss, above -0.001",
           lambda m: m["learned"]["loss_final"] - m["sinusoid"]["loss_final"], ">", -0.001)))

SHIFT = Experiment(
    "shift", "'k back' as one linear map M_k: attention on the key k back, inside and past L",
    {"sinusoid": PAST_CONFIGS["sinusoid"], "rope": PAST_CONFIGS["rope"]},
    (Check("sinusoid-attends-k-back-inside",
           "sinusoid: mean attention on the key 3 back at trained positions above 0.8",
           lambda m: _seen(m, "sinusoid", "attention_k_back"), ">", 0.8),
     Check("sinusoid-loses-k-back-past-L",
           "sinusoid: mean attention on the key 3 back at unseen positions below 0.5",
           lambda m: _unseen(m, "sinusoid", "attention_k_back"), "<", 0.5),
     Check("rope-keeps-k-back-past-L",
           "RoPE: mean attention on the key 3 back at unseen positions above 0.8",
           lambda m: _unseen(m, "rope", "attention_k_back"), ">", 0.8)))

# ------------------------------------------------------------------ 6. addition or concatenation
CONCAT = Experiment(
    "concat", "Addition against concatenation at (almost) equal parameters, k back",
    {"added": PAST_CONFIGS["sinusoid"],
     "concatenated": replace(PAST_BASE, scheme="sinusoid-concat", d_pos=16)},
    (Check("parameters-within-1-percent", "parameter counts differ by under 1%",
           lambda m: abs(m["added"]["params"] / m["concatenated"]["params"] - 1), "<", 0.01),
     Check("added-learns", "added: accuracy at the trained length above 0.99",
           lambda m: _acc(m, "added", L_TRAIN), ">", 0.99),
     Check("concatenated-learns", "concatenated: accuracy at the trained length above 0.99",
           lambda m: _acc(m, "concatenated", L_TRAIN), ">", 0.99)))

# ------------------------------------------------------------------ 7. the paper's token scale
SCALE = Experiment(
    "scale", "Token vectors times sqrt(d_model), as in the paper: does the sinusoid still count?",
    {"sinusoid": PAST_CONFIGS["sinusoid"],
     "sinusoid, tokens x sqrt(d_model)": replace(PAST_CONFIGS["sinusoid"], scale_embedding=True)},
    (Check("unscaled-learns", "sinusoid, unscaled tokens: accuracy at the trained length above 0.99",
           lambda m: _acc(m, "sinusoid", L_TRAIN), ">", 0.99),
     Check("scaled-does-not-learn",
           "sinusoid, tokens x sqrt(d_model): accuracy at the trained length below 0.5",
           lambda m: _acc(m, "sinusoid, tokens x sqrt(d_model)", L_TRAIN), "<", 0.5),
     Check("scaled-tokens-swamp",
           "tokens x sqrt(d_model): input to the first block over 4x larger (root mean square)",
           lambda m: m["sinusoid, tokens x sqrt(d_model)"]["input_rms"] / m["sinusoid"]["input_rms"],
           ">", 4.0)))

# ------------------------------------------------------------------ 8. an offset from raw integers
# "There is no easy way to compute that positions 7 and 10 are 3 apart from raw integers" (seed
# ledger 004-18): k back with k = 3 on the lengths of experiment 2, with two controls. Causal NoPE
# at k = 3 shows what the mask alone gives; causal NoPE at k = 1 shows that experiment 2's k = 1
# task is mostly solved by the mask, so it cannot decide the claim.
OFFSET_LENGTHS = (8, 12, 16, 24)          # every test length but the longest, 32
OFFSET = Experiment(
    "offset", "An offset of 3 from raw integers: k back (k = 3) with the raw index, and controls",
    {"index": replace(INDEX_BASE, scheme="index", k=3),
     "sinusoid": replace(INDEX_BASE, scheme="sinusoid", k=3),
     "none": replace(INDEX_BASE, scheme="none", k=3),
     "none, k = 1": replace(INDEX_BASE, scheme="none", k=1)},
    (Check("index-finds-3-back",
           "raw index, k = 3: accuracy at every test length up to 24 above 0.9",
           lambda m: min(_acc(m, "index", L) for L in OFFSET_LENGTHS), ">", 0.9),
     Check("index-weaker-at-32",
           "raw index, k = 3: accuracy at the trained length 32 below 0.97",
           lambda m: _acc(m, "index", 32), "<", 0.97),
     Check("sinusoid-3-back",
           "sinusoid, k = 3: accuracy at every test length above 0.99",
           lambda m: min(_acc(m, "sinusoid", L) for L in INDEX_BASE.test_lengths), ">", 0.99),
     Check("nope-cannot-3-back",
           "causal NoPE, k = 3: accuracy at every test length below 0.3",
           lambda m: max(_acc(m, "none", L) for L in INDEX_BASE.test_lengths), "<", 0.3),
     Check("nope-mostly-1-back",
           "causal NoPE, k = 1: accuracy at every test length above 0.75",
           lambda m: min(_acc(m, "none, k = 1", L) for L in INDEX_BASE.test_lengths), ">", 0.75)))

EXPERIMENTS = {e.name: e for e in (ORDER, INDEX, PAST, LEARNED, SHIFT, CONCAT, SCALE, OFFSET)}


def code_hash(experiment: Experiment) -> str:
    """sha256 of the code that trains (model, tasks, run) and the experiment's configs.

    The checks are not hashed: :func:`decide` recomputes the verdicts from the recorded runs,
    so a changed threshold needs no re-training (``python scripts/lab.py --decide``).

    Examples
    --------
    >>> from posenc.lab.experiments import EXPERIMENTS, code_hash
    >>> len(code_hash(EXPERIMENTS["past"]))
    64
    """
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in CODE:
        digest.update((here / name).read_bytes())
    configs = {label: [experiment.config(label, 0).as_dict(), experiment.config(label, 1).as_dict()]
               for label in experiment.configs}
    digest.update(json.dumps(configs, sort_keys=True).encode())
    return digest.hexdigest()


def decide(experiment: Experiment, runs: dict) -> list:
    """Verdicts of an experiment from its runs: {label: [metrics per seed]}.

    Examples
    --------
    >>> from posenc.lab.experiments import EXPERIMENTS, decide, load
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
    return job, run(job)


def run_experiments(names=None, seeds=SEEDS, workers: int = 2, progress=None) -> dict:
    """Run experiments (every seed, each distinct config once) and return their records.

    ``names`` lists names of :data:`EXPERIMENTS` or :class:`Experiment` objects (all of
    :data:`EXPERIMENTS` when None); ``workers`` processes train at once, each on one thread;
    ``progress(done, total)`` is called after every run.

    Examples
    --------
    >>> from posenc.lab.experiments import Check, Experiment, run_experiments
    >>> from posenc.lab.run import Config
    >>> tiny = Experiment("tiny", "two steps", {"a": Config(steps=2, eval_size=4, log_every=1)},
    ...                   (Check("learns", "loss below 9", lambda m: m["a"]["loss_final"], "<", 9),))
    >>> run_experiments([tiny], seeds=(0, 1), workers=1)["tiny"]["verdicts"][0]["holds"]
    True
    """
    chosen = [n if isinstance(n, Experiment) else EXPERIMENTS[n] for n in (names or EXPERIMENTS)]
    jobs = sorted({e.config(label, s) for e in chosen for label in e.configs for s in seeds},
                  key=lambda c: (c.steps * max(c.train_lengths), c.scheme, c.seed), reverse=True)
    results, started = {}, time.time()
    if workers > 1:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for job, metrics in pool.imap_unordered(_work, jobs):
                results[job] = metrics
                if progress:
                    progress(len(results), len(jobs))
    else:
        for job in jobs:
            results[job] = _work(job)[1]
            if progress:
                progress(len(results), len(jobs))
    seconds = round(time.time() - started, 1)
    records = {}
    for e in chosen:
        runs = {label: [results[e.config(label, s)] for s in seeds] for label in e.configs}
        records[e.name] = {
            "experiment": e.name, "title": e.title, "code_hash": code_hash(e),
            "seeds": list(seeds), "configs": {k: c.as_dict() for k, c in e.configs.items()},
            "runs": runs, "verdicts": decide(e, runs), "environment": environment(),
            "lab_seconds": seconds, "workers": workers}
    return records


def environment() -> dict:
    """Library versions, machine and date of a record.

    Examples
    --------
    >>> from posenc.lab.experiments import environment
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
            "load_average": load, "date": datetime.now(timezone.utc).strftime("%Y-%m-%d")}


def machine() -> str:
    """The CPU's model name and core count.

    Examples
    --------
    >>> from posenc.lab.experiments import machine
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
    >>> from posenc.lab.experiments import load
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
    >>> from posenc.lab.experiments import verdict
    >>> verdict("order", "bidirectional-nope-at-chance")["holds"]
    True
    """
    for v in load(name)["verdicts"]:
        if v["id"] == check_id:
            return v
    raise ValueError(f"check_id {check_id!r} is not a check of experiment {name!r}")
