"""Distances between the encodings of different positions: how unique and how smooth a table is.

Used by the chapters "Is one sine enough?", "Why run many clocks at once?" and "Does it keep its promises?".
"""

from __future__ import annotations

import numpy as np


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
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError("table must be finite")
    return arr


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
    t = _table(table)
    sq = np.einsum("ij,ij->i", t, t)
    d2 = sq[:, None] + sq[None, :] - 2.0 * (t @ t.T)
    np.fill_diagonal(d2, 0.0)
    return np.sqrt(np.clip(d2, 0.0, None))


def nearest_pairs(table, count: int = 5, positions=None):
    """The ``count`` closest pairs of distinct rows, closest first.

    Parameters
    ----------
    table : array_like, shape (n,) or (n, d)
        One row per position.
    count : int, default 5
        How many pairs to return.
    positions : array_like, optional
        The position of each row (default ``0 .. n - 1``), used to label the pairs.

    Returns
    -------
    list of (pos_a, pos_b, distance)
        With ``pos_a < pos_b``; ties are broken by position.

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
    labels = np.arange(n) if positions is None else np.asarray(positions)
    if labels.shape != (n,):
        raise ValueError(f"positions must have one entry per row ({n}), got shape {labels.shape}")
    a, b = np.triu_indices(n, k=1)
    approx = pairwise_distances(t)[a, b]        # fast, but cancellation costs ~1e-8
    k = min(int(count), a.size)
    cutoff = np.partition(approx, k - 1)[k - 1] + 1e-6 * (1.0 + np.abs(t).max())
    keep = np.flatnonzero(approx <= cutoff)     # every pair that could be among the closest
    a, b = a[keep], b[keep]
    d = np.linalg.norm(t[a] - t[b], axis=1)     # exact distances for those
    order = np.lexsort((b, a, d))[:k]
    return [(labels[a[j]].item(), labels[b[j]].item(), float(d[j])) for j in order]


def min_distance(table) -> float:
    """Smallest distance between the encodings of two different positions (0 means a collision).

    Examples
    --------
    >>> from posenc.distances import min_distance
    >>> min_distance([[0.0], [2.0], [2.5]])
    0.5
    """
    return nearest_pairs(table, count=1)[0][2]
