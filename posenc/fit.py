"""Learning the shift: fit a linear map ``A`` with ``A @ x_p ~ y_p`` by least squares.

Used by the chapter "Why pair sine with cosine?" to show that a per-coordinate (diagonal) map
cannot turn ``PE(p)`` into ``PE(p + k)``, while a map made of 2 x 2 blocks, one per
``(sin, cos)`` pair, recovers the rotation ``M_k`` to rounding error.
"""

from __future__ import annotations

import numpy as np

STRUCTURES = ("full", "diagonal", "block")


def _pair_of_tables(x, y):
    xs, ys = np.asarray(x), np.asarray(y)
    for name, arr in (("x", xs), ("y", ys)):
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 2-D (samples x dimensions), got shape {arr.shape}")
    if xs.shape != ys.shape:
        raise ValueError(f"x and y must have the same shape, got {xs.shape} and {ys.shape}")
    xs, ys = xs.astype(np.float64), ys.astype(np.float64)
    if not (np.all(np.isfinite(xs)) and np.all(np.isfinite(ys))):
        raise ValueError("x and y must be finite")
    return xs, ys


def _pow2(v: np.ndarray, axis=None) -> np.ndarray:
    """Exponent ``e`` that brings the largest ``|v|`` into [0.5, 1) by ``ldexp(v, -e)``, where
    it lies outside [2**-400, 2**400] (sums of squares would overflow or underflow); else 0."""
    peak = np.abs(v).max(axis=axis, initial=0.0)
    return np.where((peak > 2.0**400) | (peak < 2.0**-400), np.frexp(peak)[1], 0)


def fit_linear_map(x, y, structure: str = "full") -> np.ndarray:
    """Least-squares ``A`` (shape ``(d, d)``) minimising ``sum_p |A x_p - y_p|^2``.

    Parameters
    ----------
    x, y : array_like, shape (n, d)
        One sample per row: ``x = encode(p, d_model)``, ``y = encode(p + k, d_model)``.
    structure : {"full", "diagonal", "block"}, default "full"
        ``"full"``: any ``d x d`` matrix. ``"diagonal"``: one scale per coordinate,
        ``y[:, j] ~ a_j x[:, j]``. ``"block"``: 2 x 2 blocks on the diagonal, each acting on
        columns ``2i, 2i + 1`` (one ``(sin, cos)`` pair of the interleaved layout); ``d`` must
        be even.

    Returns
    -------
    numpy.ndarray
        Shape ``(d, d)``; zero outside the allowed pattern.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.fit import fit_linear_map
    >>> x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> m = fit_linear_map(x, x @ np.array([[0.0, 1.0], [-1.0, 0.0]]).T, "block")
    >>> m.round(12) + 0.0                    # + 0.0: no signed zeros, whichever BLAS solved it
    array([[ 0.,  1.],
           [-1.,  0.]])

    See the chapter "Why pair sine with cosine?" (docs/chapters/07-why-pair-sine-with-cosine.md).
    """
    if not isinstance(structure, str) or structure not in STRUCTURES:
        allowed = ", ".join(repr(s) for s in STRUCTURES)
        raise ValueError(f"structure must be one of {allowed}, got {structure!r}")
    xs, ys = _pair_of_tables(x, y)
    n, d = xs.shape
    if structure == "full":
        coef, *_ = np.linalg.lstsq(xs, ys, rcond=None)      # ys ~ xs @ coef
        return coef.T
    if structure == "diagonal":
        ex, ey = _pow2(xs, 0), _pow2(ys, 0)             # (d,): columns of any magnitude
        xs, ys = np.ldexp(xs, -ex), np.ldexp(ys, -ey)
        num = np.einsum("nj,nj->j", xs, ys)
        den = np.einsum("nj,nj->j", xs, xs)
        scale = np.divide(num, den, out=np.zeros(d), where=den > 0)
        return np.diag(np.ldexp(scale, ey - ex))
    if d % 2:
        raise ValueError(f"structure 'block' needs an even number of columns, got {d}")
    a = np.zeros((d, d))
    for start in range(0, d, 2):
        cols = slice(start, start + 2)
        coef, *_ = np.linalg.lstsq(xs[:, cols], ys[:, cols], rcond=None)
        a[cols, cols] = coef.T
    return a


def relative_residual(x, y, a) -> float:
    """``|X A^T - Y| / |Y|`` (Frobenius norms): 0 for a perfect map, 1 for the zero map.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.fit import relative_residual
    >>> x = np.eye(2)
    >>> relative_residual(x, x, np.eye(2)), relative_residual(x, x, np.zeros((2, 2)))
    (0.0, 1.0)
    """
    xs, ys = _pair_of_tables(x, y)
    am = np.asarray(a)
    if am.dtype.kind not in "iuf":
        raise TypeError(f"a must hold real numbers, got dtype {am.dtype}")
    d = xs.shape[1]
    if am.shape != (d, d):
        raise ValueError(f"a must have shape {(d, d)}, got {am.shape}")
    am = am.astype(np.float64)
    if not np.all(np.isfinite(am)):
        raise ValueError("a must be finite")
    if not np.any(ys):
        raise ValueError("y must not be all zeros (the residual is relative to |Y|)")
    ex, ea, ey = (int(_pow2(v)) for v in (xs, am, ys))
    s = max(ex + ea, ey)                                # X A^T and Y times 2**-s: no overflow
    yt = np.ldexp(ys, -s)
    r = np.ldexp(np.ldexp(xs, -ex) @ np.ldexp(am, -ea).T, ex + ea - s) - yt
    er, et = _pow2(r), _pow2(yt)                        # norms of huge or tiny tables
    ratio = np.linalg.norm(np.ldexp(r, -er)) / np.linalg.norm(np.ldexp(yt, -et))
    return float(np.ldexp(ratio, er - et))
