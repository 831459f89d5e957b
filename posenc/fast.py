"""Building the table fast and correctly rounded, from the rotation property.

Shifting a position by ``k`` rotates every (sin, cos) pair by the angle ``k * omega_i``::

    sin((s + r) w) = sin(s w) cos(r w) + cos(s w) sin(r w)
    cos((s + r) w) = cos(s w) cos(r w) - sin(s w) sin(r w)

So a table of integer positions needs exact sines and cosines only for a few *block starts*
``s`` and for the offsets ``r = 0 .. block - 1`` inside a block; every other entry is one
rotation (four products and two sums in float64) of those, rounded once to the output dtype.
With a pair written as the complex number ``sin + i cos``, the rotation is one complex product:
``(sin a + i cos a) * (cos b - i sin b) = sin(a + b) + i cos(a + b)``.

The same identity builds the starts and offsets themselves from fewer exact rows: an offset
``r = 8a + b`` (for blocks of 64) is a rotation of row ``b`` by ``8a``, and a start
``s = 64 (8c + e)`` a rotation by ``64e`` of the start ``512c``. For an 8192 x 1024 table that is
40 rows of float64 ``sin``/``cos`` instead of 8192. The products go straight into the table,
a few blocks of rows per call: an interleaved row (sin, cos, sin, cos, ...) has the memory layout
of a row of complex numbers, so NumPy rounds each product once into it. Large tables are shared
between two threads. The result is as accurate as evaluating every
angle in float64 and casting once, and faster than the usual float32 formula. Derived and
measured in the chapter "How precise is the table?"
(docs/chapters/13-how-precise-is-the-table.md).
"""

from __future__ import annotations

import math
import numbers
import os
import threading
from typing import NamedTuple

import numpy as np

from ._checks import check_dtype, check_layout, check_listed_ints, check_positive_int

BLOCK = 64
"""Default rows per block: 8192 positions need 128 block starts plus 64 offsets."""

GROUP = 8
"""Block starts ``s = block * q`` are split as ``q = GROUP * c + e``, with ``0 <= e < GROUP``."""

TILE = 2**17
"""(sin, cos) pairs per call: whole blocks of rows, multiplied in one NumPy call (the
concatenated layout also needs a complex128 buffer of this size, 2 MiB)."""

PARALLEL_MIN = 2**20
"""Tables with at least this many (sin, cos) pairs (and two tiles) share the tiles between two
threads; below it, starting a thread costs more than it saves."""


def _check_integer_positions(positions) -> np.ndarray:
    check_listed_ints(positions, "positions")             # before NumPy rounds [2**53 + 1, 1.0]
    arr = np.asarray(positions)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(f"positions must hold integers, got an array of dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"positions must be 1-D, got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.floor(arr)):
            raise ValueError("positions must be whole numbers (use posenc.encode for "
                             "real-valued positions)")
    # integers compared as Python ints: the float64 cast would round 2**53 + 1 down to 2**53
    if arr.size and (max(int(arr.max()), -int(arr.min())) > 2**53 if arr.dtype.kind in "iu"
                     else np.abs(arr).max() > 2.0**53):
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
    >>> import numpy as np
    >>> from posenc.fast import phasors
    >>> phasors([0.0, np.pi / 2])
    array([0.+1.000000e+00j, 1.+6.123234e-17j])
    """
    theta = np.asarray(theta, dtype=np.float64)
    z = np.empty(theta.shape, dtype=np.complex128)
    z.real = np.sin(theta)
    z.imag = np.cos(theta)
    return z


def rotors(theta) -> np.ndarray:
    """The rotations ``cos theta - i sin theta``: multiplying a phasor by one adds ``theta``.

    ``-1j * (sin b + i cos b) = cos b - i sin b``, exactly (multiplying by ``-1j`` only moves
    and negates parts), and ``phasors(a) * rotors(b)`` is ``phasors(a + b)`` up to float64
    rounding.

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
    >>> from posenc.fast import phasors, rotors
    >>> z = phasors(0.3) * rotors(0.4)
    >>> bool(abs(z - phasors(0.7)) < 1e-15)
    True
    """
    return -1j * phasors(theta)


def _offset_phasors(count: int, block: int, omega: np.ndarray) -> np.ndarray:
    """``phasors(r * omega)`` for ``r = 0 .. count - 1``, from ``r = m a + b`` with
    ``m = ceil(sqrt(block))``: exact rows for the ``b`` and for the multiples ``m a``, one
    complex product for each offset. ``m`` depends only on ``block``, so each offset is always
    split the same way."""
    m = math.isqrt(block - 1) + 1
    low = np.arange(min(m, count), dtype=np.float64)                  # b
    high = np.arange(0, count, m, dtype=np.float64)                    # m a
    both = rotors(np.multiply.outer(high, omega))[:, None, :] * \
        phasors(np.multiply.outer(low, omega))[None, :, :]
    return both.reshape(-1, omega.shape[0])[:count]


def _start_rotors(q: np.ndarray, block: int, omega: np.ndarray) -> np.ndarray:
    """``rotors(q * block * omega)`` for integer ``q``, from ``q = GROUP c + e`` (floor
    division, so ``0 <= e < GROUP`` and the split depends only on ``q``)."""
    c = q // GROUP
    e = q - c * GROUP
    if q.size > 1 and q[-1] - q[0] == q.size - 1:        # consecutive (sorted, no gaps)
        unique_c, which_c = np.arange(c[0], c[-1] + 1), c - c[0]
        unique_e, which_e = (np.arange(GROUP), e) if q.size >= GROUP else np.unique(
            e, return_inverse=True)
    else:
        unique_c, which_c = np.unique(c, return_inverse=True)
        unique_e, which_e = np.unique(e, return_inverse=True)
    # one call for both sets of exact rows: the multiples of GROUP * block, then of block
    pieces = np.concatenate([unique_c * (GROUP * block), unique_e * block]).astype(np.float64)
    exact = rotors(np.multiply.outer(pieces, omega))
    # np.take: NumPy's fancy indexing is about ten times slower on complex rows
    return np.take(exact, which_c, axis=0) * np.take(exact, unique_c.size + which_e, axis=0)


class _Plan(NamedTuple):
    consecutive: bool              # p = first, first + 1, ... with first a multiple of block
    q: np.ndarray                  # the distinct block indices; the starts are q * block
    offsets: int                   # offsets 0 .. offsets - 1 are needed
    which_start: np.ndarray | None     # per row, index into q (None when consecutive)
    offset_of_row: np.ndarray | None   # per row, p - start (None when consecutive)


def _plan(p: np.ndarray, block: int) -> _Plan:
    """Split checked integer positions into block starts and offsets. Block starts are always
    multiples of ``block``, so a row depends only on its position: encode(100)[7] and
    encode([7])[0] are the same bits. A run of consecutive positions that starts on a multiple
    of ``block`` (e.g. 0 .. n-1) takes the fast contiguous path."""
    n = p.shape[0]
    if p[0] % block == 0 and (n == 1 or bool(np.all(np.diff(p) == 1))):
        q = p[0] // block + np.arange(-(-n // block), dtype=np.int64)
        return _Plan(True, q, min(block, n), None, None)
    q_of_row = p // block                                      # floor, so 0 <= r < block
    q, which_start = np.unique(q_of_row, return_inverse=True)
    offset_of_row = p - q_of_row * block
    return _Plan(False, q, int(offset_of_row.max()) + 1, which_start, offset_of_row)


def exact_rows(positions, block: int = BLOCK) -> int:
    """How many rows of float64 ``sin``/``cos`` :func:`rotated_table` evaluates for
    ``positions``; every other row is made by rotation.

    Parameters
    ----------
    positions : array_like of int
        As for :func:`rotated_table`.
    block : int, default 64

    Returns
    -------
    int
        Exact rows for the offsets (``b`` and ``m a``) plus those for the starts (``GROUP block c``
        and ``block e``); each row has ``len(omega)`` angles.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.fast import exact_rows
    >>> exact_rows(np.arange(8192)), exact_rows(np.arange(2048))
    (40, 28)

    See the chapter "How precise is the table?" (docs/chapters/13-how-precise-is-the-table.md).
    """
    p = _check_integer_positions(positions)
    block = check_positive_int(block, "block")
    if p.size == 0:
        return 0
    plan = _plan(p, block)
    m = math.isqrt(block - 1) + 1
    offset_rows = min(m, plan.offsets) + len(range(0, plan.offsets, m))
    c = plan.q // GROUP
    return offset_rows + np.unique(c).size + np.unique(plan.q - c * GROUP).size


def rotated_table(positions, omega, *, layout: str = "interleaved", dtype="float64",
                  block: int = BLOCK, workers: int | None = None) -> np.ndarray:
    """The encoding table of integer ``positions`` built by rotating a few exact rows.

    Positions ``p`` are split as ``p = s + r`` with a block start ``s`` and an offset
    ``0 <= r < block``. Exact float64 ``sin``/``cos`` are evaluated for a few rows only: offsets
    ``r = m a + b`` (``m = ceil(sqrt(block))``) come from rows ``b`` and ``m a``, starts
    ``s = block (8c + e)`` from rows ``block e`` and ``8 block c``. Everything else is combined by
    the angle-addition formulas in float64 (complex products), one tile of rows at a time, and
    rounded once to ``dtype``. Block starts are the multiples of ``block``, whatever the order of
    the positions (unsorted, gaps, negative), so each row depends only on its position.

    Parameters
    ----------
    positions : array_like of int
        1-D integer positions (whole-valued floats are accepted), any order, ``|p| <= 2**53``.
    omega : array_like
        1-D float64 frequencies, usually ``posenc.frequencies(d_model, base)``.
    layout : {"interleaved", "concatenated"}, default "interleaved"
    dtype : {"float64", "float32"}, default "float64"
    block : int, default 64
        Rows per block.
    workers : int or None, default None
        Threads that share the tiles. ``None``: two for tables of at least ``PARALLEL_MIN``
        pairs on a machine with two or more CPUs, else one. The result does not depend on it.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), 2 * len(omega))``. A float32 table is within half a float32 unit
        in the last place of the exact value (plus float64's own error in the angle); a float64
        table is within a few float64 units of direct evaluation.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.fast import rotated_table
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
    block = check_positive_int(block, "block")
    if workers is not None:
        workers = check_positive_int(workers, "workers", "a positive integer or None")

    n, half = p.shape[0], omega.shape[0]
    table = np.empty((n, 2 * half), dtype=out_dtype)
    if n == 0:
        return table
    interleaved = layout == "interleaved"

    plan = _plan(p, block)
    consecutive, q = plan.consecutive, plan.q
    which_start, offset_of_row = plan.which_start, plan.offset_of_row
    by_offset = _offset_phasors(plan.offsets, block, omega)
    # phasors(r w) * rotors(s w) = phasors((s + r) w) = sin((s + r) w) + i cos((s + r) w)
    by_start = _start_rotors(q, block, omega)

    blocks_per_tile = max(1, TILE // (block * half))
    rows_per_tile = block * blocks_per_tile
    tiles = -(-n // rows_per_tile)

    if interleaved:
        # An interleaved row (sin, cos, sin, cos, ...) has the memory layout of a complex row
        # (sin + i cos, ...), so the products are written straight into the table viewed as
        # complex; NumPy rounds each part once to the dtype (complex128 -> complex64 is a
        # "same_kind" cast) through a small internal buffer, with no tile to copy.
        into = table.view(np.complex64 if out_dtype == np.float32 else np.complex128)

    def fill(first_tile: int, stop_tile: int) -> None:
        buffer = None if interleaved else np.empty((min(rows_per_tile, n), half), np.complex128)
        for k in range(first_tile, stop_tile):
            lo = k * rows_per_tile
            hi = min(lo + rows_per_tile, n)
            tile = into[lo:hi] if interleaved else buffer[: hi - lo]
            if consecutive:
                whole = (hi - lo) // block                     # complete blocks in this tile
                b0 = k * blocks_per_tile
                if whole:
                    np.multiply(by_offset, by_start[b0:b0 + whole, None, :],
                                out=tile[: whole * block].reshape(whole, block, half),
                                casting="same_kind")
                if whole * block < hi - lo:                    # the last, partial block
                    np.multiply(by_offset[: hi - lo - whole * block], by_start[b0 + whole],
                                out=tile[whole * block:], casting="same_kind")
            else:
                np.multiply(np.take(by_offset, offset_of_row[lo:hi], axis=0),
                            np.take(by_start, which_start[lo:hi], axis=0), out=tile,
                            casting="same_kind")
            if not interleaved:
                table[lo:hi, :half] = tile.real       # one rounding from float64 to the dtype
                table[lo:hi, half:] = tile.imag

    if workers is None:
        workers = 2 if n * half >= PARALLEL_MIN and (os.cpu_count() or 1) >= 2 else 1
    workers = min(workers, tiles)
    if workers == 1:
        fill(0, tiles)
        return table
    # NumPy releases the GIL inside each product and copy, so threads share the cores. Each tile
    # is computed the same way whichever thread takes it: the bits do not depend on ``workers``.
    cuts = [tiles * w // workers for w in range(workers + 1)]
    failures: list[BaseException] = []

    def run(first_tile: int, stop_tile: int) -> None:
        try:
            fill(first_tile, stop_tile)
        except BaseException as exc:                  # re-raised in the calling thread
            failures.append(exc)

    helpers = [threading.Thread(target=run, args=(cuts[w], cuts[w + 1]), daemon=True)
               for w in range(1, workers)]
    for thread in helpers:
        thread.start()
    run(cuts[0], cuts[1])
    for thread in helpers:
        thread.join()
    if failures:
        raise failures[0]
    return table
