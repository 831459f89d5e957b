"""What a good positional encoding should satisfy, as executable checks.

Each check takes a candidate encoding (a key of :data:`posenc.candidates.CANDIDATES`, a
:class:`~posenc.candidates.Candidate`, or any function ``f(pos, length=None)`` returning one row per
position) and returns a :class:`Check`: whether it passed, the number it measured, and a note.
The definitions, with the ranges and thresholds below, are stated in the chapter "What should a
good encoding satisfy?" (docs/chapters/03-what-should-a-good-encoding-satisfy.md):

* ``bounded``: every entry for positions ``0 .. TEST_LENGTH - 1`` has ``|value| <= BOUND``.
* ``unique``: any two of the positions ``0 .. TRAIN_LENGTH - 1`` are at least ``DISTINCT`` apart
  (Euclidean distance between their rows).
* ``length_independent``: positions ``0 .. TRAIN_LENGTH/2 - 1`` get the same rows (to ``SAME_TOL``) in a
  sequence of length ``TRAIN_LENGTH / 2`` as in one of length ``TRAIN_LENGTH``.
* ``consistent_offsets``: for each offset ``k = 1 .. MAX_OFFSET`` the distance between the rows of
  ``pos`` and ``pos + k`` is the same (to ``OFFSET_TOL``) for every ``pos`` in the training range.
* ``extends``: growing the sequence from ``TRAIN_LENGTH`` to ``TEST_LENGTH`` positions leaves the
  old rows unchanged, needs entries at most 1% larger than training did, and keeps every two of the
  ``TEST_LENGTH`` positions at least ``DISTINCT`` apart.
* ``smooth``: moving a position by ``SMOOTH_STEP`` from each ``(j + 1/2) SMOOTH_STEP`` in
  ``[0, SMOOTH_RANGE)`` moves its row by at most ``SMOOTH_LIMIT`` (a continuous encoding moves by about slope x step; a digit that
  flips jumps by at least 1).
* ``local``: among positions ``0 .. TRAIN_LENGTH - 1``, every two neighbours are closer than any
  two positions at least ``MAX_OFFSET`` apart (near positions alike, far ones apart).
"""

from __future__ import annotations

import functools
import numbers
from typing import NamedTuple

import numpy as np

from .candidates import CANDIDATES, Candidate, get
from .distances import min_distance

TRAIN_LENGTH = 256
"""Positions ``0 .. 255`` stand for the sequence lengths seen in training."""
TEST_LENGTH = 1024
"""Positions up to ``1023``: four times the training length."""
BOUND = 1.0
"""Largest allowed ``|entry|``: about the spread of chapter 4's toy embedding entries."""
DISTINCT = 1e-3
"""Two positions whose rows are closer than this count as a collision."""
MAX_OFFSET = 16
"""Offsets ``k = 1 .. 16`` are checked for a position-independent distance."""
SAME_TOL = 1e-12
"""Two rows of the same position count as unchanged if no entry differs by more than this."""
OFFSET_TOL = 1e-9
"""Allowed spread (max - min over positions) of the distance at one offset."""
EXTEND_RATIO = 1.01
"""New positions may need entries at most 1% larger than the training positions did."""
SMOOTH_RANGE = 64
"""Smoothness is checked on ``[0, 64)``."""
SMOOTH_STEP = 0.01
"""A hundredth of a position."""
SMOOTH_LIMIT = 0.1
"""The most a row may move when the position moves by ``SMOOTH_STEP``."""


class Check(NamedTuple):
    """Outcome of one property check: whether it passed, the measured value, and a note.

    Examples
    --------
    >>> from posenc.properties import bounded, Check
    >>> result = bounded("raw_index")
    >>> isinstance(result, Check), result.passed
    (True, False)
    """

    passed: bool
    value: float
    note: str


def _candidate(candidate):
    if isinstance(candidate, (str, Candidate)):
        return get(candidate)
    if not callable(candidate):
        raise TypeError(
            "candidate must be a key of posenc.candidates.CANDIDATES, a Candidate, or a function "
            f"f(pos, length=None); got {type(candidate).__name__}"
        )
    return candidate


def _count(value, name: str, minimum: int = 2) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return int(value)


def _rows(candidate, pos, length) -> np.ndarray:
    """Call the candidate and check that it returned one finite row per position."""
    n = pos if isinstance(pos, int) else len(pos)
    table = np.asarray(candidate(pos, length))
    if table.ndim == 1:
        table = table[:, None]
    if table.ndim != 2 or table.shape[0] != n or table.dtype.kind not in "iuf":
        raise ValueError(
            f"candidate must return a real table with one row per position ({n} rows), "
            f"got shape {table.shape} and dtype {table.dtype}"
        )
    table = table.astype(np.float64)
    if not np.all(np.isfinite(table)):
        raise ValueError("candidate returned non-finite values")
    return table


def _pow2(table: np.ndarray) -> int:
    """Exponent ``e`` with ``ldexp(table, -e)`` peaking in [0.5, 1), where the peak lies outside
    [2**-400, 2**400] (squared distances would overflow or underflow); else 0."""
    peak = float(np.abs(table).max(initial=0.0))
    return int(np.frexp(peak)[1]) if peak > 2.0**400 or 0 < peak < 2.0**-400 else 0


def _norms(rows: np.ndarray) -> np.ndarray:
    """Euclidean norm of each row, for rows of any finite size."""
    e = _pow2(rows)
    return np.ldexp(np.linalg.norm(np.ldexp(rows, -e), axis=1), e)


def _closest(table: np.ndarray) -> float:
    e = _pow2(table)
    return float(np.ldexp(min_distance(np.ldexp(table, -e)), e))


def bounded(candidate, n: int = TEST_LENGTH) -> Check:
    """Largest ``|entry|`` over positions ``0 .. n - 1``; passes if at most :data:`BOUND`.

    Examples
    --------
    >>> from posenc.properties import bounded
    >>> bounded("single_sine").passed, bounded("raw_index").value
    (True, 1023.0)
    """
    candidate, n = _candidate(candidate), _count(n, "n")
    value = float(np.abs(_rows(candidate, n, n)).max())
    return Check(value <= BOUND, value, f"max |entry| over positions 0..{n - 1}")


def unique(candidate, n: int = TRAIN_LENGTH) -> Check:
    """Smallest distance between two of positions ``0 .. n - 1``; passes if at least
    :data:`DISTINCT`.

    Examples
    --------
    >>> from posenc.properties import unique
    >>> unique("raw_index").value
    1.0
    """
    candidate, n = _candidate(candidate), _count(n, "n")
    value = _closest(_rows(candidate, n, n))
    return Check(value >= DISTINCT, value, f"closest pair among positions 0..{n - 1}")


def length_independent(candidate, n: int = TRAIN_LENGTH) -> Check:
    """Largest change of a row of positions ``0 .. n//2 - 1`` between sequences of length ``n//2``
    and ``n`` (``n >= 4``); passes if at most :data:`SAME_TOL`.

    Examples
    --------
    >>> from posenc.properties import length_independent
    >>> length_independent("index_over_length").value
    0.49609375
    """
    candidate, n = _candidate(candidate), _count(n, "n", 4)   # n 2 or 3: position 0 alone
    half = n // 2
    short = _rows(candidate, half, half)
    long = _rows(candidate, n, n)[:half]
    value = float(np.abs(short - long).max())
    return Check(value <= SAME_TOL, value, f"rows of positions 0..{half - 1}, lengths {half} vs {n}")


def consistent_offsets(candidate, n: int = TRAIN_LENGTH, max_offset: int = MAX_OFFSET) -> Check:
    """Largest spread, over positions, of the distance between ``pos`` and ``pos + k``,
    for ``k = 1 .. max_offset``; passes if at most :data:`OFFSET_TOL`.

    Examples
    --------
    >>> from posenc.properties import consistent_offsets
    >>> consistent_offsets("raw_index").value
    0.0
    >>> consistent_offsets("decimal_digits").passed
    False
    """
    candidate, n = _candidate(candidate), _count(n, "n")
    max_offset = _count(max_offset, "max_offset", 1)
    if max_offset >= n:
        raise ValueError(f"max_offset must be less than n ({n}), got {max_offset}")
    table = _rows(candidate, n, n)
    e = _pow2(table)
    table = np.ldexp(table, -e)                              # differences cannot overflow
    spreads = []
    for k in range(1, max_offset + 1):
        d = _norms(table[k:] - table[:-k])                   # (n - k,)
        spreads.append(d.max() - d.min())
    spread = float(np.ldexp(np.max(spreads), e))             # nan stays nan: no pass
    return Check(spread <= OFFSET_TOL, spread,
                 f"spread of |PE(pos+k) - PE(pos)| for k = 1..{max_offset}")


def extends(candidate, n_train: int = TRAIN_LENGTH, n_test: int = TEST_LENGTH) -> Check:
    """Grow the sequence from ``n_train`` to ``n_test`` positions. The value is the largest
    ``|entry|`` of the new positions divided by the largest ``|entry|`` seen in training.
    Passes if that ratio is at most :data:`EXTEND_RATIO`, the old rows do not move (to :data:`SAME_TOL`) and all ``n_test``
    positions stay at least :data:`DISTINCT` apart.

    Examples
    --------
    >>> from posenc.properties import extends
    >>> extends("raw_index").value == 1023 / 255
    True
    >>> extends("sinusoidal").passed
    True
    """
    candidate = _candidate(candidate)
    n_train, n_test = _count(n_train, "n_train"), _count(n_test, "n_test")
    if n_test <= n_train:
        raise ValueError(f"n_test must exceed n_train ({n_train}), got {n_test}")
    train = _rows(candidate, n_train, n_train)
    try:
        full = _rows(candidate, n_test, n_test)
    except ValueError as err:
        return Check(False, float("nan"), f"undefined beyond training: {err}")
    seen = float(np.abs(train).max())
    new = float(np.abs(full[n_train:]).max())
    ratio = new / seen if seen > 0 else (1.0 if new == 0 else float("inf"))
    moved = float(np.abs(full[:n_train] - train).max())
    closest = _closest(full)
    problems = []
    if ratio > EXTEND_RATIO:
        problems.append(f"new positions need entries {ratio:.3g} times larger")
    if moved > SAME_TOL:
        problems.append(f"old rows move by up to {moved:.3g}")
    if closest < DISTINCT:
        problems.append(f"two positions are only {closest:.3g} apart")
    note = "; ".join(problems) or "old rows unchanged, same range, all positions distinct"
    return Check(not problems, ratio, note)


def smooth(candidate, n: int = SMOOTH_RANGE, step: float = SMOOTH_STEP) -> Check:
    """Largest move of a row when its position moves by ``step`` from ``(j + 1/2) step``, for
    each ``j`` that keeps both in ``[0, n)``; passes if at most :data:`SMOOTH_LIMIT`.

    Examples
    --------
    >>> from posenc.properties import smooth
    >>> round(smooth("raw_index").value, 6), smooth("binary_bits").passed
    (0.01, False)
    """
    candidate, n = _candidate(candidate), _count(n, "n")
    if isinstance(step, bool) or not isinstance(step, numbers.Real) or not 0 < step < 1:
        raise ValueError(f"step must be a number between 0 and 1, got {step!r}")
    x = (np.arange(int(round(n / step)) - 1) + 0.5) * step   # midpoints
    x = x[x + step < n]                    # round(n / step) can round up (n 3, step 0.4)
    a = _rows(candidate, x, n)
    b = _rows(candidate, x + step, n)
    e = _pow2(np.concatenate([a, b]))
    value = float(np.ldexp(_norms(np.ldexp(b, -e) - np.ldexp(a, -e)).max(), e))
    return Check(value <= SMOOTH_LIMIT, value, f"largest move for a shift of {step:g} in [0, {n})")


def local(candidate, n: int = TRAIN_LENGTH, far: int = MAX_OFFSET) -> Check:
    """Largest distance between neighbours divided by the smallest distance between two positions
    at least ``far`` apart, among positions ``0 .. n - 1``; passes if below 1.

    Examples
    --------
    >>> from posenc.properties import local
    >>> local("raw_index").value == 1 / 16, local("single_sine").passed
    (True, False)
    """
    candidate, n = _candidate(candidate), _count(n, "n")
    far = _count(far, "far", 2)
    if far >= n:
        raise ValueError(f"far must be less than n ({n}), got {far}")
    table = _rows(candidate, n, n)
    e = _pow2(table)
    table = np.ldexp(table, -e)                              # differences cannot overflow
    near = float(_norms(np.diff(table, axis=0)).max())
    apart = min(float(_norms(table[k:] - table[:-k]).min()) for k in range(far, n))
    value = near / apart if apart > 0 else float("inf")
    near, apart = float(np.ldexp(near, e)), float(np.ldexp(apart, e))
    return Check(value < 1, value,
                 f"neighbours up to {near:.3g} apart; positions {far} or more apart "
                 f"at least {apart:.3g}")


PROPERTIES = {
    "bounded": ("bounded", bounded),
    "unique": ("unique", unique),
    "length_independent": ("same in any length", length_independent),
    "consistent_offsets": ("consistent offsets", consistent_offsets),
    "extends": ("extends", extends),
    "smooth": ("smooth", smooth),
    "local": ("local", local),
}
"""Every property: key -> (column label, check function), in the order of the chapter."""


@functools.lru_cache(maxsize=None)
def _cached(candidate_key: str, property_key: str) -> Check:
    return PROPERTIES[property_key][1](candidate_key)


def check(candidate, prop: str) -> Check:
    """Run one property check by name, e.g. ``check("raw_index", "bounded")``.

    Registered candidates are checked once per process and the result is reused.

    Examples
    --------
    >>> from posenc.properties import check
    >>> check("binary_bits", "bounded")
    Check(passed=True, value=1.0, note='max |entry| over positions 0..1023')
    """
    if not isinstance(prop, str) or prop not in PROPERTIES:
        allowed = ", ".join(repr(k) for k in PROPERTIES)
        raise ValueError(f"prop must be one of {allowed}, got {prop!r}")
    if isinstance(candidate, str) or (isinstance(candidate, Candidate)
                                      and CANDIDATES.get(candidate.key) is candidate):
        return _cached(get(candidate).key, prop)
    return PROPERTIES[prop][1](candidate)


def _cell(result: Check) -> str:
    mark = "✓" if result.passed else "✗"
    v = result.value
    number = f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}"
    return f"{mark} {number}"


def _listed(value, default):
    """``value`` read once into a list (a generator too); ``default``'s keys for None; None for a
    string or a non-iterable."""
    if value is None:
        return list(default)
    if isinstance(value, str):
        return None
    try:
        return list(value)
    except TypeError:
        return None


def scorecard(candidates=None, properties=None, *, numbers: bool = True) -> str:
    """A Markdown table: one row per candidate, one column per property, each cell the verdict
    (✓ or ✗) and the measured number. ``candidates`` is a list of keys (default: all);
    ``properties`` a list of property keys (default: all seven). With ``numbers=False`` the
    cells hold the verdict alone and the columns are headed by the property's number (1-7, in
    the order of the chapter), a table narrow enough for a phone.

    Examples
    --------
    >>> from posenc.properties import scorecard
    >>> print(scorecard(["raw_index"]))
    | candidate | bounded | unique | same in any length | consistent offsets | extends | smooth | local |
    |---|---|---|---|---|---|---|---|
    | raw index | ✗ 1023 | ✓ 1 | ✓ 0 | ✓ 0 | ✗ 4.01 | ✓ 0.01 | ✓ 0.0625 |
    >>> print(scorecard(["raw_index"], properties=["bounded", "extends"]))
    | candidate | bounded | extends |
    |---|---|---|
    | raw index | ✗ 1023 | ✗ 4.01 |
    >>> print(scorecard(["raw_index"], numbers=False))
    | candidate | 1 | 2 | 3 | 4 | 5 | 6 | 7 |
    |---|---|---|---|---|---|---|---|
    | raw index | ✗ | ✓ | ✓ | ✓ | ✗ | ✓ | ✓ |
    """
    keys, props = (_listed(v, d) for v, d in ((candidates, CANDIDATES), (properties, PROPERTIES)))
    if not keys or not all(isinstance(k, str) for k in keys):
        raise TypeError("candidates must be a non-empty list of candidate keys, e.g. "
                        "['raw_index', 'binary_bits']")
    if not props or not all(p in PROPERTIES for p in props):
        allowed = ", ".join(repr(k) for k in PROPERTIES)
        raise ValueError(f"properties must be a non-empty list of {allowed}; got {properties!r}")
    order = list(PROPERTIES)
    heads = [PROPERTIES[p][0] if numbers else str(order.index(p) + 1) for p in props]
    header = "| candidate | " + " | ".join(heads) + " |"
    lines = [header, "|---" * (len(props) + 1) + "|"]
    for key in keys:
        row = [_cell(check(key, prop)) if numbers else _cell(check(key, prop))[0]
               for prop in props]
        lines.append(f"| {get(key).label} | " + " | ".join(row) + " |")
    return "\n".join(lines)
