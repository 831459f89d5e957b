"""Distances between the encodings of different positions: how unique and how smooth a table is.

Used by the chapters "What should a good encoding satisfy?", "Is one sine enough?", "Why run many
clocks at once?", "Why pair sine with cosine?" and "Does it keep its promises?".
"""

from __future__ import annotations

import numpy as np

from ._checks import check_listed_ints


def _table(table) -> np.ndarray:
    arr = np.asarray(table)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"table must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim == 1:
        arr = arr[:, None]                      # a one-dimensional encoding: one column
    if arr.ndim != 2:
        raise ValueError(f"table must be 1-D or 2-D (positions x dimensions), got shape {arr.shape}")
    if arr.shape[0] < 2:
        raise ValueError(f"table needs at least 2 positions, got {arr.shape[0]}")
    if arr.shape[1] == 0:                       # else _centred's max fails, naming nothing
        raise ValueError(f"table needs at least 1 column, got shape {arr.shape}")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError("table must be finite")
    return arr


def _centred(t: np.ndarray):
    """``(t - column midranges) / s`` and ``s``, a power of 2 (at most 2**1023): ``|x|^2 + |y|^2
    - 2 x.y`` then neither overflows (entries near 1e308) nor cancels a shared offset (rows near
    1e8)."""
    c = t - (t.max(axis=0) / 2 + t.min(axis=0) / 2)      # midrange: a mean could overflow
    top = float(np.abs(c).max())
    s = 2.0 ** min(int(np.frexp(top)[1]), 1023) if top > 0 else 1.0
    return c / s, s


def _distances(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``|x - y|`` row by row, each row scaled by a power of 2 near its largest difference:
    ``np.linalg.norm`` squares, so a difference below 1e-154 would vanish."""
    with np.errstate(over="ignore"):
        v = x - y
    big = ~np.isfinite(v).all(axis=1)                     # opposite signs past 2**1023
    v[big] = x[big] / 2 - y[big] / 2
    m = np.ldexp(1.0, np.minimum(np.frexp(np.abs(v).max(axis=1))[1], 1023))
    with np.errstate(over="ignore"):
        return m * np.linalg.norm(v / m[:, None], axis=1) * np.where(big, 2.0, 1.0)


def pairwise_distances(table) -> np.ndarray:
    """Euclidean distance between every pair of rows, shape ``(n, n)``.

    Parameters
    ----------
    table : array_like, shape (n,) or (n, d)
        One row per position (a 1-D array is a one-dimensional encoding).

    Examples
    --------
    >>> from posenc.distances import pairwise_distances
    >>> pairwise_distances([[0.0, 0.0], [3.0, 4.0]])
    array([[0., 5.],
           [5., 0.]])
    """
    raw = _table(table)
    t, s = _centred(raw)
    sq = np.einsum("ij,ij->i", t, t)
    d2 = sq[:, None] + sq[None, :] - 2.0 * (t @ t.T)
    np.fill_diagonal(d2, 0.0)
    with np.errstate(over="ignore"):
        out = np.sqrt(np.clip(d2, 0.0, None)) * s
    # where the formula cancels (rows close against their size), measure the difference itself
    i, j = np.nonzero(np.triu(d2 <= 1e-4 * (sq[:, None] + sq[None, :]), k=1))
    step = max(1, _BLOCK_ENTRIES // raw.shape[1])
    for lo in range(0, i.size, step):
        a, b = i[lo:lo + step], j[lo:lo + step]
        out[a, b] = out[b, a] = _distances(raw[a], raw[b])
    return out


_BLOCK_ENTRIES = 1 << 22                        # distances held at once: 32 MB of float64


def _close_pairs(t: np.ndarray, k: int):
    """Every pair ``a < b`` whose fast squared distance is within ``slack`` of the ``k``-th smallest.

    The fast squared distance ``|x|^2 + |y|^2 - 2 x.y`` of rows of width ``d`` is off by at most
    ``4 (d + 2) 2**-53 max |x|^2`` (sums of ``d`` rounded products) and centring ``t`` by at most
    ``8 d 2**-53`` more; ``slack``, ``16 (d + 2) 2**-53 (max |x|^2 + 1)``, covers twice both, so
    every pair among the ``k`` closest is kept, and the caller measures the pairs kept exactly. Rows are taken a block at a time against the rows
    after them, so a block holds at most ``max(n, _BLOCK_ENTRIES)`` squared distances (all pairs
    of 10,000 positions would take 800 MB); the pairs kept grow with the near ties (every pair of
    an identity matrix's rows). A block's own ``k``-th smallest is never below the overall one, so
    the running cutoff keeps a superset of what the final cutoff keeps.
    """
    n, width = t.shape
    sq = np.einsum("ij,ij->i", t, t)
    slack = 16 * (width + 2) * 2.0**-53 * (float(sq.max()) + 1.0)
    rows = max(1, _BLOCK_ENTRIES // n)
    cutoff2 = np.inf                            # a squared distance
    found_a, found_b, found_d2 = [], [], []
    for lo in range(0, n - 1, rows):
        hi = min(lo + rows, n - 1)
        d2 = sq[lo:hi, None] + sq[None, lo + 1:] - 2.0 * (t[lo:hi] @ t[lo + 1:].T)
        d2[:, :hi - lo][np.tri(hi - lo, k=-1, dtype=bool)] = np.inf    # only b > a
        if cutoff2 == np.inf and d2.size >= k:
            cutoff2 = np.partition(d2, k - 1, axis=None)[k - 1] + slack
        r, c = np.nonzero(d2 <= cutoff2)
        found_a.append(r + lo)
        found_b.append(c + lo + 1)
        found_d2.append(d2[r, c])
        if found_d2[-1].size >= k:
            cutoff2 = min(cutoff2, np.partition(found_d2[-1], k - 1)[k - 1] + slack)
    a, b, d2 = (np.concatenate(x) for x in (found_a, found_b, found_d2))
    keep = d2 <= np.partition(d2, k - 1)[k - 1] + slack
    return a[keep], b[keep]


def nearest_pairs(table, count: int = 5, positions=None):
    """The ``count`` closest pairs of distinct rows, closest first.

    Parameters
    ----------
    table : array_like, shape (n,) or (n, d)
        One row per position.
    count : int, default 5
        How many pairs to return (all ``n (n - 1) / 2`` if fewer).
    positions : array_like, optional
        The distinct position of each row (default ``0 .. n - 1``), used to label the pairs.

    Returns
    -------
    list of (pos_a, pos_b, distance)
        With ``pos_a < pos_b`` (labels from ``positions``, in any order); ties are broken by
        position.

    Examples
    --------
    >>> from posenc.distances import nearest_pairs
    >>> nearest_pairs([0.0, 1.0, 0.25, 5.0], count=2)
    [(0, 2, 0.25), (1, 2, 0.75)]
    """
    t = _table(table)
    n = t.shape[0]
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ValueError(f"count must be a positive integer, got {count!r}")
    check_listed_ints(positions, "positions")
    labels = np.arange(n) if positions is None else np.asarray(positions)
    if labels.dtype.kind not in "iuf":
        raise TypeError(f"positions must hold real numbers, got dtype {labels.dtype}")
    if labels.shape != (n,):
        raise ValueError(f"positions must have one entry per row ({n}), got shape {labels.shape}")
    if labels.dtype.kind == "f" and not np.all(np.isfinite(labels)):
        raise ValueError("positions must be finite (a nan label breaks pos_a < pos_b)")
    if np.unique(labels).size != n:
        raise ValueError("positions must be distinct (one position per row)")
    k = min(int(count), n * (n - 1) // 2)
    c, s = _centred(t)
    a, b = _close_pairs(c, k)                   # every pair that could be among the closest
    step = max(1, _BLOCK_ENTRIES // t.shape[1])
    d = np.concatenate([_distances(t[a[lo:lo + step]], t[b[lo:lo + step]])    # exact, in blocks
                        for lo in range(0, a.size, step)])
    la, lb = labels[a], labels[b]
    la, lb = np.where(la <= lb, la, lb), np.where(la <= lb, lb, la)     # pos_a <= pos_b
    order = np.lexsort((lb, la, d))[:k]
    return [(la[j].item(), lb[j].item(), float(d[j])) for j in order]


def min_distance(table) -> float:
    """Smallest distance between the encodings of two different positions (0 means a collision).

    Examples
    --------
    >>> from posenc.distances import min_distance
    >>> min_distance([[0.0], [2.0], [2.5]])
    0.5
    """
    return nearest_pairs(table, count=1)[0][2]
