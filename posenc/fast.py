"""Building the table fast and correctly rounded, from the rotation property.

Shifting a position by ``k`` rotates every (sin, cos) pair by the angle ``k * omega_i``::

    sin((s + r) w) = sin(s w) cos(r w) + cos(s w) sin(r w)
    cos((s + r) w) = cos(s w) cos(r w) - sin(s w) sin(r w)

So a table of integer positions needs exact sines and cosines only for a few *block starts*
``s`` and for the offsets ``r = 0 .. block - 1`` inside a block; every other entry is one
rotation (four products and two sums in float64) of those, rounded once to the output dtype.
With a pair written as the complex number ``sin + i cos``, the rotation is one complex product:
``(sin a + i cos a) * (cos b - i sin b) = sin(a + b) + i cos(a + b)``.

For an 8192 x 1024 table that is 192 rows of float64 ``sin``/``cos`` instead of 8192, and the
combine runs tile by tile (``block`` rows at a time) so each tile stays in cache. The result is
as accurate as evaluating every angle in float64 and casting once, and faster than the usual
float32 formula. Derived and measured in the chapter "How precise is the table?"
(docs/chapters/13-how-precise-is-the-table.md).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_dtype, check_layout

BLOCK = 64
"""Default rows per block: 8192 positions need 128 block starts plus 64 offsets."""


def _check_block(block) -> int:
    if isinstance(block, (bool, np.bool_)) or not isinstance(block, numbers.Integral):
        raise TypeError(f"block must be a positive integer, got {block!r} "
                        f"of type {type(block).__name__}")
    if int(block) < 1:
        raise ValueError(f"block must be a positive integer, got {int(block)}")
    return int(block)


def _check_integer_positions(positions) -> np.ndarray:
    arr = np.asarray(positions)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(f"positions must hold integers, got an array of dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"positions must be 1-D, got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.floor(arr)):
            raise ValueError("positions must be whole numbers (use posenc.encode for "
                             "real-valued positions)")
    if arr.size and np.abs(arr.astype(np.float64)).max() > 2.0**53:
        raise ValueError("positions must be integers within 2**53 in magnitude")
    return arr.astype(np.int64)


def _check_omega(omega) -> np.ndarray:
    arr = np.asarray(omega)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(f"omega must hold real frequencies, got an array of dtype {arr.dtype}")
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"omega must be a non-empty 1-D array, got shape {arr.shape}")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError("omega must be finite")
    return arr


def phasors(theta) -> np.ndarray:
    """The pairs ``(sin theta, cos theta)`` as complex numbers ``sin theta + i cos theta``.

    Parameters
    ----------
    theta : array_like
        Angles in radians (float64).

    Returns
    -------
    numpy.ndarray
        complex128, same shape as ``theta``.

    Examples
    --------
    >>> phasors([0.0, np.pi / 2])
    array([0.+1.000000e+00j, 1.+6.123234e-17j])
    """
    theta = np.asarray(theta, dtype=np.float64)
    z = np.empty(theta.shape, dtype=np.complex128)
    z.real = np.sin(theta)
    z.imag = np.cos(theta)
    return z


def rotated_table(positions, omega, *, layout: str = "interleaved", dtype="float64",
                  block: int = BLOCK) -> np.ndarray:
    """The encoding table of integer ``positions`` built by rotating a few exact rows.

    Positions ``p`` are split as ``p = s + r`` with a block start ``s`` and an offset
    ``0 <= r < block``; ``sin``/``cos`` are evaluated in float64 only for the distinct starts and
    offsets, then combined by the angle-addition formulas in float64, one tile of rows at a time,
    and rounded once to ``dtype``. Block starts are the multiples of ``block``, whatever the order
    of the positions (unsorted, gaps, negative), so each row depends only on its position.

    Parameters
    ----------
    positions : array_like of int
        1-D integer positions (whole-valued floats are accepted), any order, ``|p| <= 2**53``.
    omega : array_like
        1-D float64 frequencies, usually ``posenc.frequencies(d_model, base)``.
    layout : {"interleaved", "concatenated"}, default "interleaved"
    dtype : {"float64", "float32"}, default "float64"
    block : int, default 64
        Rows per block (and per tile).

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), 2 * len(omega))``. A float32 table is within half a float32 unit
        in the last place of the exact value (plus float64's own error in the angle); a float64
        table is within a few float64 units of direct evaluation.

    Examples
    --------
    >>> from posenc import encode, frequencies
    >>> t = rotated_table(np.arange(100), frequencies(8), dtype="float32")
    >>> bool(np.abs(t - encode(100, 8, dtype="float32")).max() <= 6e-8)
    True

    See the chapter "How precise is the table?" (docs/chapters/13-how-precise-is-the-table.md).
    """
    p = _check_integer_positions(positions)
    omega = _check_omega(omega)
    layout = check_layout(layout)
    out_dtype = check_dtype(dtype)
    block = _check_block(block)

    n, half = p.shape[0], omega.shape[0]
    table = np.empty((n, 2 * half), dtype=out_dtype)
    if n == 0:
        return table
    interleaved = layout == "interleaved"
    if interleaved:
        sin_cols, cos_cols = slice(0, None, 2), slice(1, None, 2)
    else:
        sin_cols, cos_cols = slice(0, half), slice(half, None)

    # Block starts are always multiples of ``block``, so a row depends only on its position:
    # encode(100)[7] and encode([7])[0] are the same bits. A run of consecutive positions that
    # starts on a multiple of ``block`` (e.g. 0 .. n-1) takes the fast contiguous path.
    consecutive = p[0] % block == 0 and (n == 1 or bool(np.all(np.diff(p) == 1)))
    if consecutive:
        starts = p[0] + np.arange(0, n, block, dtype=np.int64)
        offsets = np.arange(min(block, n), dtype=np.int64)
    else:
        q = p // block                                   # floor, so 0 <= r < block
        unique_q, which_start = np.unique(q, return_inverse=True)
        starts = unique_q * block
        offset_of_row = p - q * block
        offsets = np.arange(block, dtype=np.int64)

    # sin(r w) + i cos(r w) for the offsets, and cos(s w) - i sin(s w) for the starts:
    # their product is sin((s + r) w) + i cos((s + r) w). Multiplying by -1j is exact.
    by_offset = phasors(np.multiply.outer(offsets.astype(np.float64), omega))
    by_start = -1j * phasors(np.multiply.outer(starts.astype(np.float64), omega))

    tile = np.empty((min(block, n), half), dtype=np.complex128)
    for k, first in enumerate(range(0, n, block)):
        rows = slice(first, min(first + block, n))
        m = rows.stop - rows.start
        if consecutive:
            np.multiply(by_offset[:m], by_start[k], out=tile[:m])
        else:
            np.multiply(by_offset[offset_of_row[rows]], by_start[which_start[rows]],
                        out=tile[:m])
        if interleaved:
            # complex128 memory is (sin, cos, sin, cos, ...): exactly an interleaved row, so
            # one contiguous copy does it (and rounds once to the dtype).
            table[rows] = tile[:m].view(np.float64)
        else:
            table[rows, sin_cols] = tile[:m].real    # one rounding from float64 to the dtype
            table[rows, cos_cols] = tile[:m].imag
    return table
