"""Shifting a position is rotating each (sin, cos) pair: ``PE(pos + k) = M_k PE(pos)``.

With a pair stored as ``(sin(omega pos), cos(omega pos))`` the angle-addition formulas give

    sin(omega (pos + k)) =  cos(omega k) sin(omega pos) + sin(omega k) cos(omega pos)
    cos(omega (pos + k)) = -sin(omega k) sin(omega pos) + cos(omega k) cos(omega pos)

so each pair is multiplied by ``[[cos, sin], [-sin, cos]]`` of the angle ``omega k``; the whole
vector by the block-diagonal ``M_k`` built from ``d_model / 2`` such blocks. The chapter
"Why pair sine with cosine?" (docs/chapters/07-why-pair-sine-with-cosine.md) derives it.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_base, check_d_model, check_layout
from .encoding import BASE, frequencies
from .layouts import permutation


def _check_offset(k, name: str = "k") -> float:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Real):
        raise TypeError(f"{name} must be a finite real number (an offset in positions), "
                        f"got {k!r} of type {type(k).__name__}")
    try:
        k = float(k)
    except OverflowError:                                 # an int past float64's range
        raise ValueError(f"{name} must be finite in float64, got an integer of "
                         f"{len(str(abs(int(k))))} digits") from None
    if not np.isfinite(k):
        raise ValueError(f"{name} must be finite, got {k}")
    return k


def rotation_block(theta) -> np.ndarray:
    """The 2 x 2 matrix that advances a ``(sin, cos)`` pair by the angle ``theta``.

    ``[[cos theta, sin theta], [-sin theta, cos theta]]``: acting on the column vector
    ``(sin x, cos x)`` it gives ``(sin(x + theta), cos(x + theta))``.

    Parameters
    ----------
    theta : float
        The angle in radians, ``omega_i * k`` for pair ``i`` and offset ``k``.

    Returns
    -------
    numpy.ndarray
        Shape ``(2, 2)``, float64.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rotation import rotation_block
    >>> x, theta = 0.3, 1.1
    >>> (rotation_block(theta) @ [np.sin(x), np.cos(x)]).round(6)
    array([0.98545 , 0.169967])
    >>> round(float(np.sin(x + theta)), 6), round(float(np.cos(x + theta)), 6)
    (0.98545, 0.169967)
    """
    t = _check_offset(theta, "theta")
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, s], [-s, c]])


def rotation_matrix(k, d_model: int, base: float = BASE, *,
                    layout: str = "interleaved") -> np.ndarray:
    """The ``d_model x d_model`` matrix ``M_k`` with ``PE(pos + k) = M_k @ PE(pos)`` for every pos.

    Parameters
    ----------
    k : float
        The offset in positions (negative shifts backwards; any real number works).
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1.
    layout : {"interleaved", "concatenated"}, default "interleaved"
        Interleaved gives 2 x 2 blocks on the diagonal (pair ``i`` at rows ``2i, 2i+1``);
        concatenated gives the same matrix with rows and columns permuted.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model, d_model)``, float64, orthogonal with determinant 1.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rotation import rotation_matrix
    >>> from posenc import encode
    >>> m = rotation_matrix(3, 8)
    >>> np.allclose(m @ encode([5], 8)[0], encode([8], 8)[0])
    True

    See the chapter "Why pair sine with cosine?" (docs/chapters/07-why-pair-sine-with-cosine.md).
    """
    k = _check_offset(k)
    d_model = check_d_model(d_model)
    base = check_base(base)
    layout = check_layout(layout)
    theta = frequencies(d_model, base) * k                  # (d_model/2,)
    c, s = np.cos(theta), np.sin(theta)
    m = np.zeros((d_model, d_model))
    even = np.arange(0, d_model, 2)
    m[even, even] = c
    m[even, even + 1] = s
    m[even + 1, even] = -s
    m[even + 1, even + 1] = c
    if layout == "concatenated":
        p = permutation(d_model, "interleaved", "concatenated")
        m = m[np.ix_(p, p)]
    return m


def shift(table, k, base: float = BASE, *, layout: str = "interleaved") -> np.ndarray:
    """Advance every row of an encoding table by ``k`` positions, using only the table itself.

    Each ``(sin, cos)`` pair is rotated by ``omega_i * k``; no position is looked up. The result
    equals ``encode(positions + k, d_model)`` up to rounding.

    Parameters
    ----------
    table : array_like, shape (n, d_model)
        Rows of an encoding with this ``base`` and ``layout``.
    k : float
        The offset in positions.
    base : float, default 10000
        The base the table was built with.
    layout : {"interleaved", "concatenated"}, default "interleaved"
        The layout the table was built with.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, d_model)``, float64.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rotation import shift
    >>> from posenc import encode
    >>> np.allclose(shift(encode(4, 6), 10), encode(np.arange(4) + 10, 6))
    True
    """
    arr = np.asarray(table)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"table must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"table must be 2-D (positions x d_model), got shape {arr.shape}")
    d_model = check_d_model(arr.shape[1], "table.shape[1] (d_model)")
    k = _check_offset(k)
    base = check_base(base)
    layout = check_layout(layout)
    t = arr.astype(np.float64)
    if layout == "concatenated":
        t = t[:, permutation(d_model, "concatenated", "interleaved")]
    theta = frequencies(d_model, base) * k
    c, s = np.cos(theta), np.sin(theta)
    sin_part, cos_part = t[:, 0::2], t[:, 1::2]
    out = np.empty_like(t)
    out[:, 0::2] = c * sin_part + s * cos_part
    out[:, 1::2] = c * cos_part - s * sin_part
    if layout == "concatenated":
        out = out[:, permutation(d_model, "interleaved", "concatenated")]
    return out
