"""The language model's record and verdicts (``docs/data/lab/lm.json``; chapter "What does a
trained model do with the encoding?", section "A language model on real text").

The record holds every seed's metrics (:func:`posenc.lab.lm.run`), the verdicts decided from
them, the library versions, machine and date, and :func:`posenc.lab.lm.code_hash`. The checks
are not hashed: :func:`decide` recomputes the verdicts from the recorded runs, and a changed
threshold needs no re-training (``python scripts/lab_lm.py --decide``).

Positions are counted in the held-out windows of ``8 L`` bytes (``L`` = 64, the training
length): "inside" is the second half of the trained range, positions ``L/2 .. L - 1``, where
every prediction already has at least ``L/2`` bytes of context; "past" is ``L .. 8L - 1``.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import replace

from . import corpus, lm
from .checks import Check
from .record import RECORDS, environment

PATH = RECORDS / "lm.json"
L = lm.CONFIGS["alibi"].length
LONGEST = 8 * L
FRESH_SEED = 3            # never recorded: --check re-trains one scheme at it
FRESH_SCHEME = "alibi"


def inside(m: dict, label: str) -> float:
    """Mean loss at positions ``L/2 .. L - 1`` of the held-out windows.

    Examples
    --------
    >>> from posenc.lab.lm_record import inside
    >>> inside({"a": {"per_position": [3.0] * 32 + [2.0] * 32}}, "a")
    2.0
    """
    values = m[label]["per_position"][L // 2:L]
    return sum(values) / len(values)


def past(m: dict, label: str, start: int = L, stop: int = LONGEST) -> float:
    """Mean loss at positions ``start .. stop - 1`` of the ``8 L`` windows (past ``L`` by
    default).

    Examples
    --------
    >>> from posenc.lab.lm_record import past
    >>> past({"a": {"per_position": [2.0] * 64 + [2.5] * 448}}, "a")
    2.5
    """
    values = m[label]["per_position"][start:stop]
    return sum(values) / len(values)


def window(m: dict, label: str, ratio: int) -> float:
    """Loss averaged over every position of non-overlapping windows of ``ratio x L`` bytes (what
    Press et al.'s Figure 1 plots, as ``exp`` of it, against the window length).

    Examples
    --------
    >>> from posenc.lab.lm_record import window
    >>> window({"a": {"window_loss": {"512": 1.9}}}, "a", 8)
    1.9
    """
    return m[label]["window_loss"][str(ratio * L)]


def unigram_loss() -> float:
    """Loss (nats per byte) on the evaluated held-out bytes of a model that ignores context: each
    byte's frequency in the training plays (add-one smoothed over the 128 byte values).

    Examples
    --------
    >>> from posenc.lab.lm_record import unigram_loss
    >>> round(unigram_loss(), 2)
    3.25
    """
    from collections import Counter
    train = corpus.split("train")
    counts, total = Counter(train), len(train) + corpus.VOCAB
    scored = corpus.split("validation")[1:lm.CONFIGS["alibi"].eval_bytes + 1]
    return sum(-math.log((counts[b] + 1) / total) for b in scored) / len(scored)


def rise(m: dict, label: str, ratio: int = 8) -> float:
    """Loss over windows of ``ratio x L`` minus over windows of ``L``: the same held-out bytes
    scored twice, with longer windows (more context, and positions past ``L``) the second time.

    Examples
    --------
    >>> from posenc.lab.lm_record import rise
    >>> round(rise({"a": {"window_loss": {"64": 2.0, "512": 2.5}}}, "a"), 6)
    0.5
    """
    return window(m, label, ratio) - window(m, label, 1)


def tail(m: dict, label: str) -> float:
    """Mean loss at the last ``L`` positions of the ``8 L`` windows minus the loss over those
    whole windows: what a sliding window of ``8 L`` bytes moved by ``L`` would score, against
    what non-overlapping windows score.

    Examples
    --------
    >>> from posenc.lab.lm_record import tail
    >>> m = {"a": {"per_position": [2.0] * 448 + [3.0] * 64, "window_loss": {"512": 2.125}}}
    >>> tail(m, "a")
    0.875
    """
    return past(m, label, LONGEST - L, LONGEST) - window(m, label, 8)


PAST_L = ("sinusoid", "rope", "alibi", "none")
RISING = ("sinusoid", "rope")
CHECKS = (
    tuple(Check(f"{s}-learns", f"{s}: loss over windows of L = 64 bytes below 2.5 nats per byte "
                "(a model that ignores context: 3.25)", lambda m, s=s: window(m, s, 1), "<", 2.5)
          for s in lm.SCHEMES)
    + (Check("alibi-flat-to-8L",
             "ALiBi: loss over windows of 8L = 512 bytes minus over windows of L, below 0.02",
             lambda m: rise(m, "alibi"), "<", 0.02),
       Check("alibi-lowest-at-8L",
             "ALiBi: loss over windows of 8L, below every other scheme's by more than 0.3",
             lambda m: min(window(m, s, 8) for s in PAST_L if s != "alibi")
             - window(m, "alibi", 8), ">", 0.3))
    + tuple(Check(f"{s}-rises-to-8L",
                  f"{s}: loss over windows of 8L minus over windows of L, above 0.5",
                  lambda m, s=s: rise(m, s), ">", 0.5) for s in RISING)
    + (Check("rope-rises-less-at-2L",
             "sinusoid minus RoPE: loss over windows of 2L minus over windows of L, above 0.2",
             lambda m: rise(m, "sinusoid", 2) - rise(m, "rope", 2), ">", 0.2),
       Check("rope-above-sinusoid-at-8L",
             "RoPE minus sinusoid: loss over windows of 8L, above 0.05",
             lambda m: window(m, "rope", 8) - window(m, "sinusoid", 8), ">", 0.05),
       Check("rope-below-alibi-inside",
             "ALiBi minus RoPE: loss over windows of L, above 0.1",
             lambda m: window(m, "alibi", 1) - window(m, "rope", 1), ">", 0.1),
       Check("rope-rises-at-4L",
             "RoPE: loss over windows of 4L minus over windows of L, above 0.4",
             lambda m: rise(m, "rope", 4), ">", 0.4),
       Check("none-rises-between",
             "no positions: loss over windows of 8L minus over windows of L, above 0.05",
             lambda m: rise(m, "none"), ">", 0.05),
       Check("none-rises-less-than-sinusoid",
             "sinusoid minus no positions: rise from windows of L to 8L, above 0.3",
             lambda m: rise(m, "sinusoid") - rise(m, "none"), ">", 0.3))
    + tuple(Check(f"{s}-sliding-worse", f"{s}: loss at the last L positions of the 8L windows "
                  "minus over the whole windows, above 0.05", lambda m, s=s: tail(m, s), ">", 0.05)
            for s in RISING)
    + (Check("alibi-sliding-same",
             "ALiBi: loss at the last L positions of the 8L windows minus over the whole windows, "
             "below 0.1 (in size)", lambda m: abs(tail(m, "alibi")), "<", 0.1),)
)


def decide(runs: dict) -> list:
    """Verdicts from the runs ``{label: [metrics per seed]}`` (seeds not yet finished, None,
    are left out).

    Examples
    --------
    >>> from posenc.lab.lm_record import decide, load
    >>> record = load()
    >>> decide(record["runs"]) == record["verdicts"]
    True
    """
    n = len(next(iter(runs.values())))
    per_seed = [{label: runs[label][i] for label in runs} for i in range(n)
                if all(runs[label][i] is not None for label in runs)]
    if not per_seed:
        return []
    return [check.decide(per_seed) for check in CHECKS]


def make(runs: dict, seconds: float, workers: int = 1) -> dict:
    """A record of the runs ``{label: [metrics per seed of posenc.lab.lm.SEEDS]}``.

    Examples
    --------
    >>> from posenc.lab.lm_record import load, make
    >>> sorted(make(load()["runs"], 1.0)["corpus"])
    ['file', 'plays', 'sha256', 'validation']
    """
    return {"experiment": "lm", "title": "A byte-level language model on real text, past its "
            "training length", "code_hash": lm.code_hash(lm.CONFIGS),
            "corpus": {"file": corpus.DATA.name, "sha256": corpus.digest(),
                       "plays": list(corpus.PLAYS), "validation": list(corpus.VALIDATION)},
            "seeds": list(lm.SEEDS),
            "lm_configs": {k: c.as_dict() for k, c in lm.CONFIGS.items()},
            "runs": runs, "verdicts": decide(runs), "environment": environment(),
            "lab_seconds": round(seconds, 1), "workers": workers}


def save(record: dict) -> None:
    """Write the record to :data:`PATH`.

    Examples
    --------
    >>> from posenc.lab.lm_record import PATH
    >>> PATH.name
    'lm.json'
    """
    PATH.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def load() -> dict:
    """The recorded runs, ``docs/data/lab/lm.json``.

    Examples
    --------
    >>> from posenc.lab.lm_record import load
    >>> load()["seeds"], len(load()["runs"])
    ([0, 1, 2], 5)
    """
    return json.loads(PATH.read_text(encoding="utf-8"))


def verdict(check_id: str) -> dict:
    """One recorded verdict: ``{"holds", "weakest", "per_seed", "statement", ...}``.

    Examples
    --------
    >>> from posenc.lab.lm_record import verdict
    >>> verdict("alibi-flat-to-8L")["holds"]
    True
    """
    for v in load()["verdicts"]:
        if v["id"] == check_id:
            return v
    raise ValueError(f"check_id {check_id!r} is not a check of the language model")


def fresh(scheme: str = FRESH_SCHEME, seed: int = FRESH_SEED, progress=None) -> list:
    """Train one scheme at a seed the record does not hold and decide the checks that read
    that scheme alone: ``[verdict]`` (for CI's lab leg).

    Examples
    --------
    >>> from posenc.lab.lm_record import CHECKS, FRESH_SCHEME, _alone
    >>> [c.id for c in CHECKS if _alone(c, FRESH_SCHEME)]
    ['alibi-learns', 'alibi-flat-to-8L', 'alibi-sliding-same']
    """
    metrics = lm.run(replace(lm.CONFIGS[scheme], seed=seed), progress)
    return [c.decide([{scheme: metrics}]) for c in CHECKS if _alone(c, scheme)]


def _alone(check: Check, scheme: str) -> bool:
    """Does the check read ``scheme``'s runs alone (its id starts with it, and it compares it
    with no other scheme)?"""
    return check.id.split("-")[0] == scheme and "lowest" not in check.id


def check(progress=None) -> list:
    """CI: the record is current (code, corpus and configs hash), its verdicts re-decide to the
    recorded ones and hold, and :func:`fresh` agrees. Returns the problems (empty: all well).

    Examples
    --------
    >>> from posenc.lab.lm_record import check
    >>> callable(check)
    True
    """
    record, problems = load(), []
    if record["code_hash"] != lm.code_hash(lm.CONFIGS):
        return ["lm: record is stale (code, corpus or configs changed); run `make lab`"]
    if decide(record["runs"]) != record["verdicts"]:
        problems.append("lm: recorded verdicts differ from the re-decided ones")
    problems += [f"lm/{v['id']} fails in the record" for v in record["verdicts"]
                 if not v["holds"]]
    started = time.time()
    for v in fresh(progress=progress):
        print(f"lm {v['id']:32s} at fresh seed {FRESH_SEED}: "
              f"{'holds' if v['holds'] else 'FAILS'}  {v['weakest']}")
        if not v["holds"]:
            problems.append(f"lm/{v['id']} fails at the never-recorded seed {FRESH_SEED}")
    print(f"lm fresh seed: {time.time() - started:.0f} s")
    return problems
