"""The order-blind baseline of the lab's tasks, computed exactly (chapter "What does a trained
model do with the encoding?").

"Chance" on the lab's pages means this baseline: the accuracy of the best model that sees the
symbols but not their order, on the positions being scored. It is not ``1 / vocab``.

- ``"kback"`` at position ``p`` (``p >= k``, causal prefix): the model sees its own symbol, the
  count ``p`` of the symbols before it and their multiset, but not which came where. The answer,
  the symbol at ``p - k``, is then equally likely to sit in any of the ``p`` earlier slots, so
  the best guess is the most frequent earlier symbol, right with probability
  ``E[largest count] / p`` over ``p`` symbols drawn uniformly from ``vocab``. :func:`kback`
  computes that expectation exactly, with fractions.
- ``"first_last"``: 0.5; a reordering swaps which symbol is first as often as not.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from functools import lru_cache


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


@lru_cache(maxsize=None)
def _expected_max_count(n: int, vocab: int) -> Fraction:
    """E[max_s count_s] for n symbols drawn uniformly from vocab, exactly.

    E[max] = sum over m >= 0 of P(max > m), and vocab^n P(max <= m) counts the sequences in
    which no symbol occurs more than m times: add the symbols one at a time, choosing the
    j <= m slots of each.
    """
    total = Fraction(0)
    for m in range(n):
        ways = [1] + [0] * n                    # sequences of length t over the symbols so far
        for _ in range(vocab):
            ways = [sum(math.comb(t, j) * ways[t - j] for j in range(min(m, t) + 1))
                    for t in range(n + 1)]
        total += 1 - Fraction(ways[n], vocab ** n)
    return total


def kback(p: int, vocab: int = 16, k: int = 3) -> Fraction:
    """The order-blind accuracy at position ``p`` of "output the symbol ``k`` back", exactly.

    Parameters
    ----------
    p : int
        The position scored, 0-based; ``p >= k``.
    vocab, k : int
        Symbols, and the offset of the task.

    Examples
    --------
    >>> from posenc.lab.baseline import kback
    >>> kback(1, k=1)                  # one earlier symbol: it is the answer
    Fraction(1, 1)
    >>> float(kback(3, k=3))           # three earlier symbols, vocab 16
    0.39453125
    """
    p, vocab, k = _positive_int(p, "p"), _positive_int(vocab, "vocab"), _positive_int(k, "k")
    if p < k:
        raise ValueError(f"p must be at least k={k}, got {p}")
    return _expected_max_count(p, vocab) / p


def mean_kback(start: int, stop: int, vocab: int = 16, k: int = 3) -> float:
    """The order-blind accuracy averaged over positions ``max(start, k) .. stop - 1``, as the lab
    averages a model's accuracy over the same positions.

    Examples
    --------
    >>> from posenc.lab.baseline import mean_kback
    >>> round(mean_kback(0, 24), 4), round(mean_kback(24, 48), 4)
    (0.2293, 0.1475)
    """
    start, stop = max(int(start), _positive_int(k, "k")), _positive_int(stop, "stop")
    if stop <= start:
        raise ValueError(f"stop must be above max(start, k)={start}, got {stop}")
    return float(sum(kback(p, vocab, k) for p in range(start, stop)) / (stop - start))


def of(task: str, length: int, vocab: int = 16, k: int = 3, start: int = 0) -> float:
    """The order-blind baseline of a task over the positions the lab scores at ``length``
    (from ``start``): 0.5 for first_last; :func:`mean_kback` for kback.

    Examples
    --------
    >>> from posenc.lab.baseline import of
    >>> of("first_last", 12), round(of("kback", 8, k=1), 4)
    (0.5, 0.4472)
    """
    from .tasks import check_task
    if check_task(task) == "first_last":
        return 0.5
    return mean_kback(start, length, vocab, k)
