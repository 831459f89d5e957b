"""How alike the encodings of two positions are, as a function of their offset ``k``.

Since ``sin a sin b + cos a cos b = cos(a - b)``, the dot product of two rows is

    PE(p) . PE(p + k) = sum_i cos(omega_i k),

a function of ``k`` alone, even in ``k``, equal to ``d_model / 2`` at ``k = 0``. Every row has
norm ``sqrt(d_model / 2)``, so the cosine similarity is that sum divided by ``d_model / 2`` and
the distance is ``sqrt(d_model - 2 sum_i cos(omega_i k))``. The chapter "Does it keep its
promises?" (docs/chapters/09-does-it-keep-its-promises.md) derives and tests all of this.

:func:`cosine_similarity` between arbitrary vectors serves the chapter "What if we use the
index?" (docs/chapters/02-what-if-we-use-the-index.md).
"""

from __future__ import annotations

import numpy as np

from ._checks import check_base, check_d_model
from .encoding import BASE, frequencies


def _offsets(k, name: str = "k") -> np.ndarray:
    if isinstance(k, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number or a 1-D array of offsets, got {k!r}")
    arr = np.asarray(k)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim > 1:
        raise ValueError(f"{name} must be a number or a 1-D array of offsets, got shape {arr.shape}")
    out = arr.astype(np.float64)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must be finite")
    return out


def offset_dot(k, d_model: int, base: float = BASE) -> np.ndarray:
    """``sum_i cos(omega_i k)``: the dot product of any two rows ``k`` positions apart.

    Parameters
    ----------
    k : float or array_like
        Offset(s) in positions, any sign.
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Same shape as ``k`` (a scalar for a scalar), float64, between ``-d_model/2`` and ``d_model/2``.

    Examples
    --------
    >>> from posenc.similarity import offset_dot
    >>> offset_dot([0, 1], 4, base=100.0).round(6)      # cos(0) + cos(0), cos(1) + cos(0.1)
    array([2.      , 1.535306])
    >>> from posenc import encode
    >>> pe = encode([7, 8], 4, base=100.0)
    >>> round(float(pe[0] @ pe[1]), 6)
    1.535306

    See the chapter "Does it keep its promises?" (docs/chapters/09-does-it-keep-its-promises.md).
    """
    ks = _offsets(k)
    omega = frequencies(d_model, base)
    return np.cos(np.multiply.outer(ks, omega)).sum(axis=-1)


def offset_cosine(k, d_model: int, base: float = BASE) -> np.ndarray:
    """Cosine similarity of two rows ``k`` positions apart: ``offset_dot / (d_model / 2)``.

    Examples
    --------
    >>> from posenc.similarity import offset_cosine
    >>> offset_cosine([0, 1], 64).round(4)
    array([1.    , 0.9662])
    """
    d_model = check_d_model(d_model)
    return offset_dot(k, d_model, base) / (d_model / 2)


def offset_distance(k, d_model: int, base: float = BASE) -> np.ndarray:
    """Euclidean distance between two rows ``k`` positions apart: ``sqrt(d_model - 2 offset_dot)``.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.similarity import offset_distance
    >>> from posenc import encode
    >>> pe = encode([0, 3], 16)
    >>> bool(np.isclose(offset_distance(3, 16), np.linalg.norm(pe[1] - pe[0])))
    True
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    return np.sqrt(np.clip(d_model - 2.0 * offset_dot(k, d_model, base), 0.0, None))


def _scaled(x: np.ndarray) -> np.ndarray:
    """A vector whose largest entry lies outside [2**-400, 2**400] times the power of two that
    brings that entry into [0.5, 1), so its norm cannot overflow or underflow; others unchanged."""
    peak = np.abs(x).max(axis=-1, keepdims=True)
    far = (peak > 2.0**400) | (peak < 2.0**-400)
    return np.ldexp(x, np.where(far, -np.frexp(peak)[1], 0))


def cosine_similarity_matrix(table) -> np.ndarray:
    """Cosine similarity between every pair of rows, shape ``(n, n)``.

    Parameters
    ----------
    table : array_like, shape (n, d)
        One row per position; no row may be all zeros.

    Examples
    --------
    >>> from posenc.similarity import cosine_similarity_matrix
    >>> cosine_similarity_matrix([[1.0, 0.0], [1.0, 1.0]]).round(4)
    array([[1.    , 0.7071],
           [0.7071, 1.    ]])
    """
    t = np.asarray(table)
    if t.dtype.kind not in "iuf":
        raise TypeError(f"table must hold real numbers, got dtype {t.dtype}")
    if t.ndim != 2:
        raise ValueError(f"table must be 2-D (positions x dimensions), got shape {t.shape}")
    t = t.astype(np.float64)
    if not np.all(np.isfinite(t)) or not np.all(np.any(t != 0, axis=1)):
        raise ValueError("table must be finite with no all-zero row")
    t = _scaled(t)
    u = t / np.linalg.norm(t, axis=1)[:, None]
    return np.clip(u @ u.T, -1.0, 1.0)


def first_increase(values):
    """The first index ``j >= 1`` with ``values[j] > values[j - 1]``, or ``None`` if there is none.

    For a curve sampled at ``k = 0, 1, 2, ...`` this is the first offset at which it rises, so
    ``None`` means the curve never increases (it is non-increasing).

    Examples
    --------
    >>> from posenc.similarity import first_increase
    >>> first_increase([5.0, 3.0, 2.0, 2.5, 1.0])
    3
    >>> first_increase([3.0, 2.0, 2.0]) is None
    True
    """
    v = np.asarray(values)
    if v.dtype.kind not in "iuf":
        raise TypeError(f"values must hold real numbers, got dtype {v.dtype}")
    v = v.astype(np.float64)
    if v.ndim != 1 or v.size < 2:
        raise ValueError(f"values must be 1-D with at least 2 entries, got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError("values must be finite (a NaN hides a rise)")
    rises = np.flatnonzero(np.diff(v) > 0)
    return None if rises.size == 0 else int(rises[0]) + 1


def first_dip(values):
    """The first local minimum and how far the first rise climbs out of it.

    Returns ``(j_min, j_max, depth)``: ``values[j_min]`` is the first local minimum (the index
    before the first rise), ``values[j_max]`` the end of the strict rise that follows, and
    ``depth = values[j_max] - values[j_min]``. ``None`` if the values never rise.

    Examples
    --------
    >>> from posenc.similarity import first_dip
    >>> first_dip([5.0, 3.0, 2.0, 2.5, 2.75, 1.0])
    (2, 4, 0.75)
    >>> first_dip([3.0, 2.0, 2.5, 2.5, 3.0])           # a flat step ends the rise
    (1, 2, 0.5)
    """
    start = first_increase(values)
    if start is None:
        return None
    v = np.asarray(values, dtype=np.float64)
    j_min, j_max = start - 1, start
    while j_max + 1 < v.size and v[j_max + 1] > v[j_max]:
        j_max += 1
    return j_min, j_max, float(v[j_max] - v[j_min])

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
    """``a . b / (|a| |b|)``, row by row, clipped to [-1, 1].

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
    >>> from posenc.similarity import cosine_similarity
    >>> cosine_similarity([1.0, 0.0], [1.0, 1.0])
    0.7071067811865475
    >>> cosine_similarity([[1.0, 0.0], [0.0, 2.0]], [0.0, 1.0])
    array([0., 1.])
    """
    a, b = _vectors(a, "a"), _vectors(b, "b")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"a and b must have the same length, got {a.shape[-1]} and {b.shape[-1]}")
    if a.ndim == b.ndim == 2 and len(a) != len(b) and 1 not in (len(a), len(b)):
        raise ValueError(f"a and b must have the same number of rows, or one a single vector; "
                         f"got {len(a)} and {len(b)}")
    if not (np.all(np.any(a != 0, axis=-1)) and np.all(np.any(b != 0, axis=-1))):
        raise ValueError("a and b must not contain zero vectors (their direction is undefined)")
    a, b = _scaled(a), _scaled(b)
    na, nb = np.linalg.norm(a, axis=-1), np.linalg.norm(b, axis=-1)
    out = np.clip(np.sum(a * b, axis=-1) / (na * nb), -1.0, 1.0)   # rounding can pass 1
    return float(out) if np.ndim(out) == 0 else out
