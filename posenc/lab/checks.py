"""The verdict check: a figure per seed against a threshold; it holds when every seed passes.

The helpers that read a figure from a run's metrics are here too (chapter "What does a trained
model do with the encoding?").
"""

from __future__ import annotations

import math
from dataclasses import dataclass


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
    >>> from posenc.lab.checks import Check
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
        >>> from posenc.lab.checks import Check
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
        """The verdict over the seeds' metrics (one dict per seed): it holds when every seed
        passes, and it quotes the weakest seed's figure.

        Examples
        --------
        >>> from posenc.lab.checks import Check
        >>> c = Check("x", "accuracy stays above 0.9", lambda m: m["a"], ">", 0.9)
        >>> c.decide([{"a": 0.95}, {"a": 0.85}])["holds"]
        False
        """
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



def _acc(m, label, length):
    return m[label]["test"][str(length)]["accuracy"]


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values)


def _positions(m, label, length, start, stop, key="per_position"):
    """Mean of a per-position metric over positions start .. stop - 1."""
    return _mean(m[label]["test"][str(length)][key][start:stop])

