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


def _binomial_product(f: list, g: list, binom: list) -> list:
    """Sequences over two disjoint alphabets, by length: interleave s of one with t - s of the other."""
    return [sum(b * f[s] * g[t - s] for s, b in enumerate(binom[t]) if f[s] and g[t - s])
            for t in range(len(f))]


@lru_cache(maxsize=None)
def _expected_max_counts(size: int, vocab: int) -> tuple:
    """E[max_s count_s] for every n = 0 .. size symbols drawn uniformly from vocab, exactly.

    E[max] = n - sum over m < n of P(max <= m), and vocab^n P(max <= m) counts the sequences of
    length n in which no symbol occurs more than m times. For each m one count serves every n:
    the one-symbol sequences (lengths 0 .. m) raised to the vocab-th power under
    :func:`_binomial_product`, by repeated squaring.
    """
    binom = [[math.comb(t, j) for j in range(t + 1)] for t in range(size + 1)]
    below = [0] * (size + 1)
    for m in range(size):
        power, result, e = [int(t <= m) for t in range(size + 1)], None, vocab
        while e:
            if e & 1:
                result = power if result is None else _binomial_product(result, power, binom)
            e >>= 1
            if e:
                power = _binomial_product(power, power, binom)
        for n in range(m + 1, size + 1):
            below[n] += result[n]
    return tuple(n - Fraction(below[n], vocab ** n) for n in range(size + 1))


def _expected_max_count(n: int, vocab: int) -> Fraction:
    """E[max_s count_s] for n symbols drawn uniformly from vocab (a table of every n up to a
    power of two at least 48, computed once per size)."""
    size = 48
    while size < n:
        size *= 2
    return _expected_max_counts(size, vocab)[n]


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
