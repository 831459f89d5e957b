"""The lab's experiments: configs, the checks that decide each verdict, and the records in
``docs/data/lab/`` (chapter "What does a trained model do with the encoding?").

A :class:`Check` compares one figure per seed with a threshold; its verdict holds only when every
seed passes, and the figure it quotes is the weakest seed's. A record holds the configs, every
seed's metrics, the verdicts, the library versions, machine and date, and :func:`code_hash`, a
hash of the lab's training code and the configs: a record whose hash differs is stale.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from .lengths import LengthConfig, mean_kback_float
from .run import Config, run

SEEDS = (0, 1, 2, 3, 4)
AXIS_SEEDS = (0, 1, 2)          # the robustness axes: three seeds each
RECORDS = Path(__file__).resolve().parents[2] / "docs" / "data" / "lab"
CODE = ("model.py", "tasks.py", "run.py")     # the code that produces a run


@dataclass(frozen=True)
class Check:
    """A per-seed figure compared with a threshold; the verdict holds when every seed passes.

    ``figure`` maps one seed's metrics (``{label: metrics}``) to a number; ``op`` is ``"<"`` or
    ``">"``. The weakest seed is the one closest to failing: the largest figure for ``"<"``.

    ``n``, for a figure that is an accuracy (or its distance from 0.5, with ``half=True``), is
    the number of scored answers behind it (per accuracy, for the difference of two accuracies
    with ``diff=True``): the evaluation set is a sample, so the figure has a
    standard error ``sqrt(q (1 - q) / n)``, taken at the accuracy ``q`` between the figure and the
    threshold that is nearest 0.5 (the largest error on the way), and ``flip`` is the chance
    that fresh evaluation sets move at least one seed across the threshold, from each seed's
    ``Phi(-margin / error)`` (twice that with ``half``), so the verdict would change.

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
    n: int | None = None
    half: bool = False
    diff: bool = False

    def error(self, figure: float) -> float | None:
        """Standard error of an accuracy figure from ``n`` scored answers (None without n),
        taken at the accuracy between the figure and the threshold nearest 0.5 (chapter 10b).

        Examples
        --------
        >>> from posenc.lab.experiments import Check
        >>> c = Check("x", "accuracy stays above 0.9", lambda m: m["a"], ">", 0.9, n=2048)
        >>> round(c.error(0.95), 4)           # sqrt(0.9 * 0.1 / 2048)
        0.0066
        """
        if self.n is None:
            return None
        if self.half:                         # |accuracy - 0.5|: the error of an accuracy at 0.5
            return 0.5 / math.sqrt(self.n)
        if self.diff:                         # a difference of two accuracies: at most this
            return math.sqrt(0.5 / self.n)
        lo, hi = sorted((figure, self.threshold))
        q = min(max(0.5, lo), hi, 1.0)        # the accuracy on the way nearest 0.5
        return math.sqrt(max(q * (1 - q), 1e-12) / self.n)

    def decide(self, seeds: list) -> dict:
        figures = [round(float(self.figure(m)), 4) for m in seeds]
        passes = [f < self.threshold if self.op == "<" else f > self.threshold for f in figures]
        weakest = max(figures) if self.op == "<" else min(figures)
        out = {"id": self.id, "statement": self.statement, "op": self.op,
               "threshold": self.threshold, "per_seed": figures, "weakest": weakest,
               "holds": all(passes)}
        if self.n is not None:
            sides = 2 if self.half else 1     # |accuracy - 0.5| crosses on either side
            flips = [sides * 0.5 * math.erfc(abs(f - self.threshold) / self.error(f)
                                             / math.sqrt(2)) for f in figures]
            stays = math.prod(1 - min(f, 1.0) for f in flips)
            out.update(n=self.n, error=round(self.error(weakest), 4),
                       flip=float(f"{1 - stays:.2g}"))
        return out


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
    seeds: tuple = SEEDS
    code: tuple = CODE     # the files of posenc/lab that train its runs (hashed)

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
# 2048 answers per seed: the standard error of an accuracy at 0.5 is 0.011, and the bound 0.06
# sits 5.4 errors away (256 answers put it 1.9 errors away: a quarter of reruns would cross).
ORDER_BASE = Config(task="first_last", train_lengths=(12,), test_lengths=(12,), steps=300,
                    eval_size=2048)
ORDER = Experiment(
    "order", "Order blindness: is the first symbol larger than the last?",
    {"none, bidirectional": replace(ORDER_BASE, scheme="none", causal=False),
     "none, causal": replace(ORDER_BASE, scheme="none", causal=True),
     "sinusoid, bidirectional": replace(ORDER_BASE, scheme="sinusoid", causal=False)},
    (Check("bidirectional-nope-at-chance",
           "bidirectional NoPE: accuracy within 0.06 of the order-blind baseline, 0.5",
           lambda m: abs(_acc(m, "none, bidirectional", 12) - 0.5), "<", 0.06,
           n=ORDER_BASE.eval_size, half=True),
     Check("sinusoid-learns-order", "bidirectional with the sinusoid: accuracy above 0.9",
           lambda m: _acc(m, "sinusoid, bidirectional", 12), ">", 0.9, n=ORDER_BASE.eval_size),
     Check("causal-nope-learns-order", "causal NoPE: accuracy above 0.6",
           lambda m: _acc(m, "none, causal", 12), ">", 0.6, n=ORDER_BASE.eval_size)))


def _scored(config, length, start=0):
    """Answers behind a kback accuracy over positions max(start, k) .. length - 1."""
    return config.eval_size * (length - max(start, config.k))


# ------------------------------------------------------------------ 2. raw index, index / L
INDEX_BASE = Config(k=1, train_lengths=(16, 32), test_lengths=(8, 12, 16, 24, 32), steps=400)
INDEX = Experiment(
    "index", "Raw index, index / L and the sinusoid: stability and 'adjacent' across lengths",
    {"index": replace(INDEX_BASE, scheme="index"),
     "index/L": replace(INDEX_BASE, scheme="index/L"),
     "sinusoid": replace(INDEX_BASE, scheme="sinusoid"),
     "none": replace(INDEX_BASE, scheme="none")},
    # The largest gradient norm is one spike of one step: re-trained two days later, one seed's
    # ratio fell from at least 2.28 to 1.53, so the bound is "larger", with room.
    (Check("index-larger-gradients",
           "raw index: largest gradient norm over 1.2x the sinusoid's",
           lambda m: m["index"]["grad_norm_max"] / m["sinusoid"]["grad_norm_max"], ">", 1.2),
     Check("index-larger-inputs",
           "raw index: input to the first block over 10x the sinusoid's (root mean square)",
           lambda m: m["index"]["input_rms"] / m["sinusoid"]["input_rms"], ">", 10.0),
     Check("index-still-learns",
           "raw index: accuracy at every test length above 0.98",
           lambda m: min(_acc(m, "index", L) for L in INDEX_BASE.test_lengths), ">", 0.98,
           n=_scored(INDEX_BASE, 8)),
     Check("sinusoid-unseen-lengths",
           "sinusoid: accuracy at every test length above 0.99",
           lambda m: min(_acc(m, "sinusoid", L) for L in INDEX_BASE.test_lengths), ">", 0.99,
           n=_scored(INDEX_BASE, 8)),
     Check("index-over-L-fails-shorter",
           "index / L: accuracy at the unseen shorter length 8 below 0.2 (order-blind "
           "baseline there 0.447)", lambda m: _acc(m, "index/L", 8), "<", 0.2,
           n=_scored(INDEX_BASE, 8)),
     Check("index-over-L-below-nope",
           "index / L minus the no-position model, accuracy at length 8, below -0.5",
           lambda m: _acc(m, "index/L", 8) - _acc(m, "none", 8), "<", -0.5,
           n=_scored(INDEX_BASE, 8), diff=True),
     Check("index-over-L-interpolates",
           "index / L: accuracy at the unseen length 24, between the trained 16 and 32, "
           "above 0.98", lambda m: _acc(m, "index/L", 24), ">", 0.98,
           n=_scored(INDEX_BASE, 24))))

# ------------------------------------------------------------------ 3-5. past the training length
L_TRAIN, L_TEST = 24, 48
PAST_BASE = Config(k=3, train_lengths=(L_TRAIN,), test_lengths=(L_TRAIN, L_TEST), steps=400,
                   max_len=L_TEST)
PAST_CONFIGS = {s: replace(PAST_BASE, scheme=s)
                for s in ("sinusoid", "learned", "rope", "alibi", "none")}
ATTENTION = {PAST_CONFIGS[s] for s in ("sinusoid", "learned", "rope")}
N_SEEN = _scored(PAST_BASE, L_TRAIN)                  # 21 positions x 256 sequences
N_UNSEEN = PAST_BASE.eval_size * (L_TEST - L_TRAIN)   # 24 positions x 256 sequences
BLIND_PAST_L = 0.147     # posenc.lab.baseline.of("kback", 48, start=24), rounded (tested)


def _unseen(m, label, key="per_position", length=L_TEST):
    return _positions(m, label, length, L_TRAIN, L_TEST, key)


def _seen(m, label, key="per_position"):
    return _positions(m, label, L_TEST, PAST_BASE.k, L_TRAIN, key)


def _first_below(m, label, loss):
    """The first logged step whose mean training loss is below ``loss`` (steps + 1 if none)."""
    return next((step for step, value in m[label]["curve"] if value < loss),
                m[label]["curve"][-1][0] + 1)


PAST = Experiment(
    "past", "Past the training length: k back (k = 3), trained on 24 positions, tested on 48",
    PAST_CONFIGS,
    tuple(Check(f"{s}-in-distribution", f"{s}: accuracy at the trained length above 0.99",
                lambda m, s=s: _acc(m, s, L_TRAIN), ">", 0.99, n=N_SEEN)
          for s in ("sinusoid", "learned", "rope"))
    + (Check("sinusoid-fails-past-L", "sinusoid: accuracy at unseen positions 24-47 below 0.5",
             lambda m: _unseen(m, "sinusoid"), "<", 0.5, n=N_UNSEEN),
       Check("learned-fails-past-L", "learned: accuracy at unseen positions 24-47 below 0.5",
             lambda m: _unseen(m, "learned"), "<", 0.5, n=N_UNSEEN),
       Check("rope-holds-past-L", "RoPE: accuracy at unseen positions 24-47 above 0.9",
             lambda m: _unseen(m, "rope"), ">", 0.9, n=N_UNSEEN),
       Check("learned-below-blind-past-L",
             "learned: accuracy at unseen positions 24-47 below the order-blind baseline there, "
             "0.147", lambda m: _unseen(m, "learned"), "<", BLIND_PAST_L, n=N_UNSEEN),
       Check("alibi-not-yet-at-400", "ALiBi: accuracy at the trained length below 0.6 after "
             "400 steps", lambda m: _acc(m, "alibi", L_TRAIN), "<", 0.6, n=N_SEEN),
       Check("nope-not-yet-at-400", "causal NoPE: accuracy at the trained length below 0.6 "
             "after 400 steps", lambda m: _acc(m, "none", L_TRAIN), "<", 0.6, n=N_SEEN)))

LEARNED = Experiment(
    "learned", "Learned against sinusoidal, in distribution (k back, 24 positions)",
    {s: PAST_CONFIGS[s] for s in ("sinusoid", "learned")},
    (Check("learned-no-better", "learned minus sinusoid accuracy at the trained length, "
           "below 0.01", lambda m: _acc(m, "learned", L_TRAIN) - _acc(m, "sinusoid", L_TRAIN),
           "<", 0.01),
     Check("sinusoid-no-better", "sinusoid minus learned accuracy at the trained length, "
           "below 0.01", lambda m: _acc(m, "sinusoid", L_TRAIN) - _acc(m, "learned", L_TRAIN),
           "<", 0.01),
     # Both reach 1.0, where accuracy cannot separate them: compare the steps each needs to
     # bring its training loss (mean of 25 steps) below 0.1.
     Check("learned-not-slower",
           "learned minus sinusoid steps to a training loss below 0.1, at most 0",
           lambda m: _first_below(m, "learned", 0.1) - _first_below(m, "sinusoid", 0.1),
           "<", 1)))

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
           lambda m: _acc(m, "added", L_TRAIN), ">", 0.99, n=N_SEEN),
     Check("concatenated-learns", "concatenated: accuracy at the trained length above 0.99",
           lambda m: _acc(m, "concatenated", L_TRAIN), ">", 0.99, n=N_SEEN),
     Check("concatenated-ahead-past-L",
           "concatenated minus added accuracy at unseen positions 24-47, above 0.03",
           lambda m: _unseen(m, "concatenated") - _unseen(m, "added"), ">", 0.03,
           n=N_UNSEEN, diff=True),
     Check("concatenated-not-slower",
           "concatenated minus added steps to a training loss below 0.01, at most 0",
           lambda m: _first_below(m, "concatenated", 0.01) - _first_below(m, "added", 0.01),
           "<", 1)))

# ------------------------------------------------------------------ 7. the paper's token scale
# The paper multiplies the token vectors by sqrt(d_model); its code (tensor2tensor) draws them
# with standard deviation d_model ** -0.5, so they enter at about unit size. N(0, 1) times
# sqrt(d_model) is the lab's first, different, experiment.
SCALED = "sinusoid, tokens x sqrt(d_model)"
T2T = "sinusoid, paper's init x sqrt(d_model)"
SCALE = Experiment(
    "scale", "Token vectors times sqrt(d_model): N(0, 1) tokens, and the paper's initialisation",
    {"sinusoid": PAST_CONFIGS["sinusoid"],
     SCALED: replace(PAST_CONFIGS["sinusoid"], scale_embedding=True),
     T2T: replace(PAST_CONFIGS["sinusoid"], scale_embedding=True, init="t2t")},
    (Check("unscaled-learns", "sinusoid, unscaled tokens: accuracy at the trained length above 0.99",
           lambda m: _acc(m, "sinusoid", L_TRAIN), ">", 0.99, n=N_SEEN),
     Check("scaled-does-not-learn",
           "sinusoid, N(0, 1) tokens x sqrt(d_model): accuracy at the trained length below 0.5 "
           "after 400 steps", lambda m: _acc(m, SCALED, L_TRAIN), "<", 0.5, n=N_SEEN),
     Check("scaled-tokens-swamp",
           "N(0, 1) tokens x sqrt(d_model): input to the first block over 4x larger (root mean "
           "square)", lambda m: m[SCALED]["input_rms"] / m["sinusoid"]["input_rms"], ">", 4.0),
     Check("paper-init-learns",
           "sinusoid, the paper's init x sqrt(d_model): accuracy at the trained length above 0.9",
           lambda m: _acc(m, T2T, L_TRAIN), ">", 0.9, n=N_SEEN),
     Check("paper-init-unit-size",
           "the paper's init x sqrt(d_model): input to the first block below 1.5x the unscaled "
           "model's (root mean square)",
           lambda m: m[T2T]["input_rms"] / m["sinusoid"]["input_rms"], "<", 1.5)))

# ------------------------------------------------------------------ 8. an offset from raw integers
# "There is no easy way to compute that positions 7 and 10 are 3 apart from raw integers" (seed
# ledger 004-18): k back with k = 3 on the lengths of experiment 2, with two controls. Causal NoPE
# at k = 3 shows what the mask alone gives; causal NoPE at k = 1 shows that experiment 2's k = 1
# task is mostly solved by the mask, so it cannot decide the claim.
OFFSET_LENGTHS = (8, 12, 16, 24)          # every test length but the longest, 32
OFFSET_BASE = replace(INDEX_BASE, k=3)
OFFSET = Experiment(
    "offset", "An offset of 3 from raw integers: k back (k = 3) with the raw index, and controls",
    {"index": replace(OFFSET_BASE, scheme="index"),
     "sinusoid": replace(OFFSET_BASE, scheme="sinusoid"),
     "none": replace(OFFSET_BASE, scheme="none"),
     "none, k = 1": replace(INDEX_BASE, scheme="none")},
    (Check("index-finds-3-back",
           "raw index (alternating signs), k = 3: accuracy at every test length up to 24 above 0.9",
           lambda m: min(_acc(m, "index", L) for L in OFFSET_LENGTHS), ">", 0.9,
           n=_scored(OFFSET_BASE, 8)),
     Check("index-weaker-at-32",
           "raw index, k = 3: accuracy at the trained length 32 below 0.97",
           lambda m: _acc(m, "index", 32), "<", 0.97, n=_scored(OFFSET_BASE, 32)),
     Check("sinusoid-3-back",
           "sinusoid, k = 3: accuracy at every test length above 0.99",
           lambda m: min(_acc(m, "sinusoid", L) for L in OFFSET_BASE.test_lengths), ">", 0.99,
           n=_scored(OFFSET_BASE, 8)),
     Check("nope-cannot-3-back",
           "causal NoPE, k = 3: accuracy at every test length below 0.3",
           lambda m: max(_acc(m, "none", L) for L in OFFSET_BASE.test_lengths), "<", 0.3,
           n=_scored(OFFSET_BASE, 8)),
     Check("nope-mostly-1-back",
           "causal NoPE, k = 1: accuracy at every test length above 0.75",
           lambda m: min(_acc(m, "none, k = 1", L) for L in INDEX_BASE.test_lengths), ">", 0.75,
           n=_scored(INDEX_BASE, 8))))

# ------------------------------------------------------------------ 9. the seeds' raw index
# The seeds add the index as one number to every entry. A pre-norm model's LayerNorms subtract
# each vector's mean, so that is the no-position model there; a post-norm model's first
# attention sees the sum before any LayerNorm. Three seeds, k = 3 as in experiment 8.
SAME = Experiment(
    "same", "The index on every entry (the seeds' scheme) in pre- and post-norm models, k = 3",
    {"none": OFFSET.configs["none"],
     "index-same": replace(OFFSET_BASE, scheme="index-same"),
     "index": OFFSET.configs["index"],
     "none, post-norm": replace(OFFSET_BASE, scheme="none", norm="post"),
     "index-same, post-norm": replace(OFFSET_BASE, scheme="index-same", norm="post"),
     "index, post-norm": replace(OFFSET_BASE, scheme="index", norm="post")},
    (Check("same-index-pre-norm-is-nope",
           "pre-norm: index on every entry minus no positions, largest accuracy gap over the "
           "test lengths, below 0.01",
           lambda m: max(abs(_acc(m, "index-same", L) - _acc(m, "none", L))
                         for L in OFFSET_BASE.test_lengths), "<", 0.01),
     Check("same-index-post-norm-sees-position",
           "post-norm: index on every entry, accuracy at length 8 above the no-position "
           "post-norm model's by 0.1",
           lambda m: _acc(m, "index-same, post-norm", 8) - _acc(m, "none, post-norm", 8),
           ">", 0.1, n=_scored(OFFSET_BASE, 8), diff=True)),
    seeds=AXIS_SEEDS)

# ------------------------------------------------------------------ 10. the training budget
# The verdicts "did not learn in 400 steps" re-run ten times longer, with the accuracy measured
# along the way (the learning rate is constant, so the model after 400 of 4000 steps is the
# model of a 400-step run). ALiBi also at the width and head count of experiment 11.
BUDGET_STEPS = (200, 400, 1000, 2000)
BUDGET_BASE = replace(PAST_BASE, steps=BUDGET_STEPS[-1], eval_at=BUDGET_STEPS[:-1])
WIDE = dict(d_model=64, n_heads=4)
WIDE_ALIBI = "alibi, d_model 64, 4 heads"
BUDGET = Experiment(
    "budget", "ALiBi and causal NoPE, 200 to 2000 steps (k = 3, trained on 24, tested on 48)",
    {"alibi": replace(BUDGET_BASE, scheme="alibi"),
     "none": replace(BUDGET_BASE, scheme="none"),
     WIDE_ALIBI: replace(BUDGET_BASE, scheme="alibi", steps=1000, eval_at=(200, 400), **WIDE)},
    (Check("alibi-learns-with-budget",
           "ALiBi: accuracy at the trained length after 2000 steps above 0.4",
           lambda m: _acc(m, "alibi", L_TRAIN), ">", 0.4, n=N_SEEN),
     Check("nope-learns-with-budget",
           "causal NoPE: accuracy at the trained length after 2000 steps above 0.4",
           lambda m: _acc(m, "none", L_TRAIN), ">", 0.4, n=N_SEEN),
     Check("losses-still-falling",
           "ALiBi and causal NoPE: the last logged training loss minus the mean of the five "
           "before it (steps 1850-1975), below 0: still falling at 2000 steps",
           lambda m: max(m[s]["curve"][-1][1] - sum(v for _, v in m[s]["curve"][-6:-1]) / 5
                         for s in ("alibi", "none")), "<", 0),
     Check("nope-past-L-near-blind",
           "causal NoPE: accuracy at unseen positions 24-47 after 2000 steps below 0.25 "
           "(order-blind baseline 0.147)", lambda m: _unseen(m, "none"), "<", 0.25, n=N_UNSEEN),
     Check("wide-alibi-learns",
           "ALiBi, d_model 64 and 4 heads: accuracy at the trained length after 1000 steps "
           "above 0.8", lambda m: _acc(m, WIDE_ALIBI, L_TRAIN), ">", 0.8, n=N_SEEN),
     Check("wide-alibi-holds-past-L",
           "ALiBi, d_model 64 and 4 heads: accuracy at unseen positions 24-47 after 1000 steps "
           "above 0.6", lambda m: _unseen(m, WIDE_ALIBI), ">", 0.6, n=N_UNSEEN),
     Check("wide-alibi-keeps-most-past-L",
           "ALiBi, d_model 64 and 4 heads: accuracy at unseen positions over accuracy at the "
           "trained length, above 0.8",
           lambda m: _unseen(m, WIDE_ALIBI) / _acc(m, WIDE_ALIBI, L_TRAIN), ">", 0.8)),
    seeds=AXIS_SEEDS)

# ------------------------------------------------------------------ 11. the LayerNorm placement
AXES = Experiment(
    "axes", "Post-norm blocks, as in the paper: sinusoid, learned and RoPE past the training length",
    {f"{s}, post-norm": replace(PAST_CONFIGS[s], norm="post")
     for s in ("sinusoid", "learned", "rope")},
    tuple(Check(f"{s}-post-norm-in-distribution",
                f"{s}, post-norm: accuracy at the trained length above 0.9",
                lambda m, s=s: _acc(m, f"{s}, post-norm", L_TRAIN), ">", 0.9, n=N_SEEN)
          for s in ("sinusoid", "learned", "rope"))
    + (Check("sinusoid-post-norm-fails-past-L",
             "sinusoid, post-norm: accuracy at unseen positions 24-47 below 0.5",
             lambda m: _unseen(m, "sinusoid, post-norm"), "<", 0.5, n=N_UNSEEN),
       Check("learned-post-norm-fails-past-L",
             "learned, post-norm: accuracy at unseen positions 24-47 below 0.5",
             lambda m: _unseen(m, "learned, post-norm"), "<", 0.5, n=N_UNSEEN),
       Check("learned-post-norm-below-blind-past-L",
             "learned, post-norm: accuracy at unseen positions 24-47 below the order-blind "
             "baseline there, 0.147", lambda m: _unseen(m, "learned, post-norm"), "<",
             BLIND_PAST_L, n=N_UNSEEN),
       Check("rope-post-norm-holds-past-L",
             "RoPE, post-norm: accuracy at unseen positions 24-47 above 0.8",
             lambda m: _unseen(m, "rope, post-norm"), ">", 0.8, n=N_UNSEEN)),
    seeds=AXIS_SEEDS)

# ------------------------------------------------------------------ 12. heads or width (ALiBi)
# The budget's wide ALiBi changes the width and the head count at once; these two configs change
# one each, at the same budget (1000 steps) and checkpoints, beside the budget's records.
HEADS_ONLY = "alibi, d_model 32, 4 heads"
WIDTH_ONLY = "alibi, d_model 64, 2 heads"
HEADS = Experiment(
    "heads", "ALiBi after 1000 steps: 4 heads at width 32, and width 64 with 2 heads",
    {HEADS_ONLY: replace(BUDGET.configs[WIDE_ALIBI], d_model=32),
     WIDTH_ONLY: replace(BUDGET.configs[WIDE_ALIBI], n_heads=2)},
    (Check("four-heads-learn-more",
           "ALiBi, d_model 32 and 4 heads: accuracy at the trained length after 1000 steps above "
           "0.55 (2 heads at step 1000 of the budget's runs: at most 0.487)",
           lambda m: _acc(m, HEADS_ONLY, L_TRAIN), ">", 0.55, n=N_SEEN),
     Check("four-heads-hold-past-L",
           "ALiBi, d_model 32 and 4 heads: accuracy at unseen positions 24-47 after 1000 steps "
           "above 0.45 (2 heads: at most 0.284)",
           lambda m: _unseen(m, HEADS_ONLY), ">", 0.45, n=N_UNSEEN),
     Check("four-heads-keep-most-past-L",
           "ALiBi, d_model 32 and 4 heads: accuracy at unseen positions over accuracy at the "
           "trained length, above 0.7 (2 heads: at most 0.59)",
           lambda m: _unseen(m, HEADS_ONLY) / _acc(m, HEADS_ONLY, L_TRAIN), ">", 0.7),
     Check("wider-two-heads-keep-less-past-L",
           "ALiBi, d_model 64 and 2 heads: accuracy at unseen positions over accuracy at the "
           "trained length, below 0.7 (4 heads at width 32: above 0.7)",
           lambda m: _unseen(m, WIDTH_ONLY) / _acc(m, WIDTH_ONLY, L_TRAIN), "<", 0.7)),
    seeds=AXIS_SEEDS)

# ------------------------------------------------------------------ 13. past L, ten times longer
# "Past the training length" at 400 steps is not a budget: the same sinusoid and learned models
# trained for 4000 steps, evaluated after 400, 1200 and 4000.
LONGER_STEPS = (400, 1200, 4000)
LONGER_CONFIGS = {f"{s}, 4000 steps": replace(PAST_CONFIGS[s], steps=LONGER_STEPS[-1],
                                              eval_at=LONGER_STEPS[:-1])
                  for s in ("sinusoid", "learned")}


def _unseen_at(m, label, step):
    """Accuracy at unseen positions 24-47 after ``step`` training steps."""
    tests = m[label]["test"] if step == LONGER_STEPS[-1] else m[label]["checkpoints"][str(step)]
    return _mean(tests[str(L_TEST)]["per_position"][L_TRAIN:L_TEST])


def _seen_at(m, label, step):
    tests = m[label]["test"] if step == LONGER_STEPS[-1] else m[label]["checkpoints"][str(step)]
    return tests[str(L_TRAIN)]["accuracy"]


LONGER = Experiment(
    "longer", "Past the training length after 400, 1200 and 4000 steps: sinusoid and learned",
    LONGER_CONFIGS,
    (Check("sinusoid-fails-past-L-at-every-budget",
           "sinusoid: accuracy at unseen positions 24-47 below 0.5 after 400, 1200 and 4000 "
           "steps (the largest of the three)",
           lambda m: max(_unseen_at(m, "sinusoid, 4000 steps", t) for t in LONGER_STEPS),
           "<", 0.5, n=N_UNSEEN),
     Check("learned-below-blind-at-every-budget",
           "learned: accuracy at unseen positions 24-47 below the order-blind baseline, 0.147, "
           "after 400, 1200 and 4000 steps (the largest of the three)",
           lambda m: max(_unseen_at(m, "learned, 4000 steps", t) for t in LONGER_STEPS),
           "<", BLIND_PAST_L, n=N_UNSEEN),
     Check("both-in-distribution-at-every-budget",
           "sinusoid and learned: accuracy at the trained length above 0.99 after 400, 1200 and "
           "4000 steps (the smallest)",
           lambda m: min(_seen_at(m, label, t) for label in LONGER_CONFIGS for t in LONGER_STEPS),
           ">", 0.99, n=N_SEEN)),
    seeds=AXIS_SEEDS)

# ------------------------------------------------------------------ 14. a start symbol, 2x to 8x
# Issue 39: the same k back (k = 3, trained on 24 symbols) with and without one fixed start
# symbol in front of every sequence, each model tested on 24, 48, 96 and 192 symbols (1x, 2x,
# 4x, 8x). These runs use posenc.lab.lengths, so only these records hash that module. Without
# the start symbol a run is the run of experiment 3 (past) for the same seed, step for step, on
# the same CPU kernels: past's sinusoid seed 0 (AVX-512) scored 0.304 at 2x, start's (AVX2) 0.260.
RATIOS = (2, 4, 8)
LENGTH_CODE = CODE + ("lengths.py",)


def _lengths(config: Config, **changes) -> LengthConfig:
    fields = {name: getattr(config, name) for name in config.__dataclass_fields__}
    return LengthConfig(**{**fields, **changes})


LENGTH_BASE = _lengths(PAST_BASE, test_lengths=(L_TRAIN,) + tuple(r * L_TRAIN for r in RATIOS))
START = " + start symbol"
START_CONFIGS = {}
for _s in ("none", "alibi", "sinusoid", "rope"):
    START_CONFIGS[_s] = replace(LENGTH_BASE, scheme=_s)
    START_CONFIGS[_s + START] = replace(LENGTH_BASE, scheme=_s, bos=True)


def _past_ratio(m, label, ratio):
    """Accuracy at the unseen positions 24 .. 24 r - 1 of inputs r times the training length."""
    return _positions(m, label, ratio * L_TRAIN, L_TRAIN, ratio * L_TRAIN)


def _blind_ratio(ratio):
    """The order-blind baseline at those positions (posenc.lab.lengths.mean_kback_float)."""
    return round(mean_kback_float(L_TRAIN, ratio * L_TRAIN), 3)


STARTX = Experiment(
    "start", "A start symbol or none: k back (k = 3), 400 steps, trained on 24 symbols, tested "
    "to 8x",
    START_CONFIGS,
    (Check("nope-start-learns",
           "causal NoPE with a start symbol: accuracy at the trained length after 400 steps "
           "above 0.5 (order-blind baseline 0.229)",
           lambda m: _acc(m, "none" + START, L_TRAIN), ">", 0.5, n=N_SEEN),
     Check("alibi-start-learns",
           "ALiBi (2 heads) with a start symbol: accuracy at the trained length after 400 steps "
           "above 0.4 (order-blind baseline 0.229)",
           lambda m: _acc(m, "alibi" + START, L_TRAIN), ">", 0.4, n=N_SEEN),
     Check("nope-no-start-not-yet",
           "causal NoPE without a start symbol: accuracy at the trained length after 400 steps "
           "below 0.6", lambda m: _acc(m, "none", L_TRAIN), "<", 0.6, n=N_SEEN),
     Check("alibi-no-start-not-yet",
           "ALiBi (2 heads) without a start symbol: accuracy at the trained length after 400 "
           "steps below 0.6", lambda m: _acc(m, "alibi", L_TRAIN), "<", 0.6, n=N_SEEN),
     Check("nope-start-fails-2x",
           "causal NoPE with a start symbol: accuracy at unseen positions 24-47 (2x) below 0.3 "
           "(order-blind baseline 0.147)",
           lambda m: _past_ratio(m, "none" + START, 2), "<", 0.3, n=N_UNSEEN),
     Check("alibi-start-fails-2x",
           "ALiBi (2 heads) with a start symbol: accuracy at unseen positions 24-47 (2x) "
           "below 0.3 (order-blind baseline 0.147)",
           lambda m: _past_ratio(m, "alibi" + START, 2), "<", 0.3, n=N_UNSEEN),
     Check("sinusoid-fails-2x-either-way",
           "sinusoid, with and without a start symbol: accuracy at unseen positions 24-47 (2x) "
           "below 0.5 (the larger of the two)",
           lambda m: max(_past_ratio(m, "sinusoid", 2), _past_ratio(m, "sinusoid" + START, 2)),
           "<", 0.5, n=N_UNSEEN),
     Check("rope-holds-2x-either-way",
           "RoPE, with and without a start symbol: accuracy at unseen positions 24-47 (2x) above "
           "0.9 (the smaller of the two)",
           lambda m: min(_past_ratio(m, "rope", 2), _past_ratio(m, "rope" + START, 2)),
           ">", 0.9, n=N_UNSEEN)),
    seeds=AXIS_SEEDS, code=LENGTH_CODE)

RATIO_CONFIGS = {label: START_CONFIGS[label]
                 for label in ("rope", "rope" + START, "alibi" + START, "sinusoid")}
N_RATIO = {r: PAST_BASE.eval_size * (r - 1) * L_TRAIN for r in RATIOS}   # answers past L
RATIO = Experiment(
    "ratio", "2x, 4x and 8x the training length: RoPE, and RoPE against ALiBi at one width and "
    "budget (k = 3, d_model 32, 2 heads, 400 steps)", RATIO_CONFIGS,
    (Check("rope-holds-2x", "RoPE, no start symbol: accuracy at unseen positions 24-47 (2x) "
           "above 0.9", lambda m: _past_ratio(m, "rope", 2), ">", 0.9, n=N_RATIO[2]),
     Check("rope-drops-from-2x-to-8x",
           "RoPE, no start symbol: 2x minus 8x accuracy at unseen positions, above 0.1",
           lambda m: _past_ratio(m, "rope", 2) - _past_ratio(m, "rope", 8), ">", 0.1),
     Check("rope-ahead-of-alibi-at-2x",
           "with a start symbol: RoPE minus ALiBi accuracy at unseen positions 24-47 (2x), "
           "above 0.3", lambda m: _past_ratio(m, "rope" + START, 2)
           - _past_ratio(m, "alibi" + START, 2), ">", 0.3, n=N_RATIO[2], diff=True),
     Check("rope-ahead-of-alibi-at-8x",
           "with a start symbol: RoPE minus ALiBi accuracy at unseen positions 24-191 (8x), "
           "above 0", lambda m: _past_ratio(m, "rope" + START, 8)
           - _past_ratio(m, "alibi" + START, 8), ">", 0.0, n=N_RATIO[8], diff=True),
     Check("sinusoid-fails-at-every-ratio",
           "sinusoid, no start symbol: accuracy at unseen positions below 0.5 at 2x, 4x and 8x "
           "(the largest)", lambda m: max(_past_ratio(m, "sinusoid", r) for r in RATIOS),
           "<", 0.5, n=N_RATIO[2])),
    seeds=AXIS_SEEDS, code=LENGTH_CODE)

# ------------------------------------------------------------------ 15. reverse (distance grows)
# Kazemnejad et al. (2023)'s "reverse" (posenc.lab.lengths): n symbols, a separator, the symbols
# reversed; output j is 2 j + 1 positions after its source. Trained on n = 1 to 8 (uniformly, as
# their train split), with a start symbol, tested at n = 8, 16, 32 and 64 (1x to 8x).
REVERSE_LENGTHS = (8, 16, 32, 64)
REVERSE_BASE = LengthConfig(task="reverse", bos=True, train_lengths=tuple(range(1, 9)),
                            test_lengths=REVERSE_LENGTHS, steps=1500)
REVERSE_SCHEMES = ("none", "sinusoid", "rope", "alibi")


def _rev(m, label, n, key="accuracy"):
    return m[label]["test"][str(n)][key]


REVERSE = Experiment(
    "reverse", "Reverse n symbols (Kazemnejad et al. 2023), trained on n = 1 to 8 with a start "
    "symbol, 1500 steps, tested at n = 8 to 64",
    {s: replace(REVERSE_BASE, scheme=s) for s in REVERSE_SCHEMES},
    (Check("reverse-rope-learns", "RoPE: accuracy per output at n = 8 (trained) above 0.8",
           lambda m: _rev(m, "rope", 8), ">", 0.8, n=REVERSE_BASE.eval_size * 8),
     Check("reverse-every-scheme-fails-2x",
           "every scheme: share of sequences with every output right at n = 16 (2x) below 0.05 "
           "(the largest)", lambda m: max(_rev(m, s, 16, "sequences") for s in REVERSE_SCHEMES),
           "<", 0.05),
     Check("reverse-every-scheme-below-half-2x",
           "every scheme: accuracy per output at n = 16 (2x) below 0.5 (the largest)",
           lambda m: max(_rev(m, s, 16) for s in REVERSE_SCHEMES), "<", 0.5,
           n=REVERSE_BASE.eval_size * 16)),
    seeds=AXIS_SEEDS, code=LENGTH_CODE)

EXPERIMENTS = {e.name: e for e in (ORDER, INDEX, PAST, LEARNED, SHIFT, CONCAT, SCALE, OFFSET,
                                            SAME, BUDGET, AXES, HEADS, LONGER,
                                            STARTX, RATIO, REVERSE)}


def code_only(source: str) -> bytes:
    """A module's syntax tree without its docstrings, as bytes: what :func:`code_hash` hashes of
    a file outside :data:`CODE`, so that an edited docstring or comment leaves the records of
    the experiments that use it current (a step toward hashing only the code that runs). The
    files of :data:`CODE` are hashed byte for byte, as the older records were.

    Examples
    --------
    >>> from posenc.lab.experiments import code_only
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
    experiments of :mod:`posenc.lab.lengths` that module too) and the experiment's configs.
    An experiment hashes only the files it trains with, so a new module leaves older records
    current.

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
    for name in experiment.code:
        path = here / name
        digest.update(path.read_bytes() if name in CODE else code_only(path.read_text()))
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
    return job, (job.train_run() if hasattr(job, "train_run") else run(job))


def jobs_of(chosen, seeds=None) -> list:
    """The distinct seeded configs that the experiments ``chosen`` need, costliest first
    (``seeds`` overrides each experiment's own).

    Examples
    --------
    >>> from posenc.lab.experiments import EXPERIMENTS, jobs_of
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
    >>> from posenc.lab.experiments import Check, Experiment, run_experiments
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
    >>> from posenc.lab.experiments import simd
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
