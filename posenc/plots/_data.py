"""Input checks shared by the derivation chapters' figures."""

from __future__ import annotations

import numpy as np


def curve(y, name: str, n: int | None = None) -> np.ndarray:
    """A finite 1-D float array (of length ``n`` if given)."""
    arr = np.asarray(y)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{name} must be 1-D with at least 2 values, got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise ValueError(f"{name} must have {n} values (one per position), got {arr.size}")
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


def pair(p, positions: np.ndarray, name: str = "pair"):
    """Two positions that both occur in ``positions``; returns their row indices."""
    if p is None:
        return None
    try:
        a, b = p[0], p[1]
    except (TypeError, IndexError, KeyError):
        raise TypeError(f"{name} must be two positions (a, b), got {p!r}") from None
    rows = []
    for x in (a, b):
        hit = np.flatnonzero(positions == x)
        if hit.size == 0:
            raise ValueError(f"{name} must name positions that are plotted, got {x!r}")
        rows.append(int(hit[0]))
    return rows
