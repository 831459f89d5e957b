"""Cosine similarity between vectors: how much of a token's direction survives an added position.

Used by the chapter "What if we use the index?" (docs/chapters/02-what-if-we-use-the-index.md).
"""

from __future__ import annotations

import numpy as np


def _vectors(x, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim not in (1, 2) or arr.shape[-1] == 0:
        raise ValueError(f"{name} must be a vector or a 2-D array of row vectors, got shape "
                         f"{arr.shape}")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


def cosine_similarity(a, b):
    """``a . b / (|a| |b|)``, row by row: 1 for the same direction, 0 for orthogonal vectors.

    Parameters
    ----------
    a, b : array_like, shape (d,) or (n, d)
        Vectors, or rows of vectors; shapes broadcast (one vector against many rows).

    Returns
    -------
    float or numpy.ndarray
        A float for two vectors, else one value per row.

    Examples
    --------
    >>> cosine_similarity([1.0, 0.0], [1.0, 1.0])
    0.7071067811865475
    >>> cosine_similarity([[1.0, 0.0], [0.0, 2.0]], [0.0, 1.0])
    array([0., 1.])
    """
    a, b = _vectors(a, "a"), _vectors(b, "b")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"a and b must have the same length, got {a.shape[-1]} and {b.shape[-1]}")
    na, nb = np.linalg.norm(a, axis=-1), np.linalg.norm(b, axis=-1)
    if np.any(na == 0) or np.any(nb == 0):
        raise ValueError("a and b must not contain zero vectors (their direction is undefined)")
    out = np.sum(a * b, axis=-1) / (na * nb)
    return float(out) if np.ndim(out) == 0 else out
