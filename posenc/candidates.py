"""Candidate positional encodings, from the naive to the paper's, under one calling convention.

Every candidate is a function ``f(pos, length=None)`` that returns a table with one row per
position, so :mod:`posenc.properties` can test them all the same way:

* ``pos``: an int ``n`` for the positions ``0 .. n - 1``, or a 1-D array of finite positions
  (fractional positions are allowed; the digit-based candidates use their integer part).
* ``length``: the length of the sequence the positions belong to. Only
  :func:`index_over_length` uses it; the others only check it (every position below it), which
  is exactly the property "the same position gets the same vector in any sequence".

The candidates, in the order the chapters meet them: raw index, decimal digits, index / length
(chapter "What if we use the index?"), binary bits (chapter "How do digits turn into waves?"), a single sine
(chapter "Is one sine enough?"), several sines (chapter "Why run many clocks at once?") and the final sinusoidal
encoding from :func:`posenc.encode`. Digit and bit columns are stored fastest first (ones digit,
lowest bit), the same order as the sinusoidal table's columns.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._checks import check_d_model, check_positions, check_positive_int
from .encoding import encode


def _length(length, positions: np.ndarray, pos) -> int | None:
    """Validate ``length``; ``None`` stays ``None``."""
    if length is None:
        return None
    length = check_positive_int(length, "length", "a positive integer (the sequence length)")
    if positions.size and positions.max() >= length:
        raise ValueError(
            f"length must exceed every position: got length {length} and position "
            f"{positions.max():g}; positions run from 0 to length - 1"
        )
    return length


def _omega(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive finite number, got {value!r}")
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value}")
    return value


def _sines(positions: np.ndarray, omega) -> np.ndarray:
    """``sin(pos * omega)``; an angle past float64's range (a huge omega times pos) is an error."""
    with np.errstate(over="ignore"):
        angle = np.multiply.outer(positions, omega)
    if not np.all(np.isfinite(angle)):
        raise ValueError("omega * pos overflows float64; use a smaller omega or positions")
    return np.sin(angle)


def _digits(positions: np.ndarray, radix: int, width: int, name: str) -> np.ndarray:
    if positions.size and positions.min() < 0:
        raise ValueError(f"pos must be >= 0 for {name}, got {positions.min():g}")
    top = radix ** width - 1
    if positions.size and float(positions.max()) > top:    # Python compares float and int exactly
        raise ValueError(
            f"pos must be at most {top} for {name} with {width} columns, got "
            f"{positions.max():g}; pass a larger width"
        )
    out = np.zeros((positions.size, width))
    if positions.size and positions.max() >= 2.0**62:
        # past int64: exact digits from Python integers (float64 whole numbers are exact)
        for row, whole in enumerate(int(v) for v in np.floor(positions)):
            for k in range(width):
                whole, out[row, k] = divmod(whole, radix)
                if not whole:
                    break
        return out
    whole = np.floor(positions).astype(np.int64)             # (n,), below 2**62
    # place values past 2**62 would overflow int64; those columns stay 0
    fits = min(width, next(k for k in range(1, 64) if radix**k > 2**62))
    place = radix ** np.arange(fits, dtype=np.int64)          # (fits,), fastest first
    out[:, :fits] = (whole[:, None] // place) % radix
    return out


def raw_index(pos, length=None) -> np.ndarray:
    """The position itself as a one-column encoding: ``[pos]``.

    Examples
    --------
    >>> from posenc.candidates import raw_index
    >>> raw_index([0, 3, 1000])
    array([[   0.],
           [   3.],
           [1000.]])

    See the chapter "What if we use the index?" (docs/chapters/02-what-if-we-use-the-index.md).
    """
    positions = check_positions(pos)
    _length(length, positions, pos)
    return positions[:, None]


def decimal_digits(pos, length=None, *, n_digits: int = 4) -> np.ndarray:
    """The decimal digits of the position, ones digit first: 42 -> ``[2, 4, 0, 0]``.

    Parameters
    ----------
    pos : int or array_like
        Non-negative positions, at most ``10 ** n_digits - 1``; fractional positions use their
        integer part.
    length : int, optional
        Checked, not used (the common calling convention).
    n_digits : int, default 4
        Number of columns.

    Examples
    --------
    >>> from posenc.candidates import decimal_digits
    >>> decimal_digits([42, 907])
    array([[2., 4., 0., 0.],
           [7., 0., 9., 0.]])
    """
    positions = check_positions(pos)
    n_digits = check_positive_int(n_digits, "n_digits")
    _length(length, positions, pos)
    return _digits(positions, 10, n_digits, "decimal_digits")


def index_over_length(pos, length=None) -> np.ndarray:
    """The position divided by the sequence length, ``pos / length``, in ``[0, 1)``.

    Positions are counted from 0, so the last position of a sequence of length ``L`` gets
    ``(L - 1) / L``. ``length`` defaults to ``n`` when ``pos`` is the count ``n``.

    Examples
    --------
    >>> from posenc.candidates import index_over_length
    >>> index_over_length(4)
    array([[0.  ],
           [0.25],
           [0.5 ],
           [0.75]])
    >>> index_over_length([1], length=3).round(2)
    array([[0.33]])
    """
    positions = check_positions(pos)
    if length is None:
        if isinstance(pos, numbers.Integral):
            length = max(int(pos), 1)
        else:
            raise ValueError(
                "length must be given (a positive integer) when pos is an array of positions"
            )
    length = _length(length, positions, pos)
    if positions.size and positions.min() < 0:
        raise ValueError(f"pos must be >= 0 for index_over_length, got {positions.min():g}")
    return (positions / length)[:, None]


def binary_bits(pos, length=None, *, n_bits: int = 12) -> np.ndarray:
    """The binary digits of the position, lowest bit first: 6 -> ``[0, 1, 1, 0, ...]``.

    Examples
    --------
    >>> from posenc.candidates import binary_bits
    >>> binary_bits([6], n_bits=4)
    array([[0., 1., 1., 0.]])
    """
    positions = check_positions(pos)
    n_bits = check_positive_int(n_bits, "n_bits")
    _length(length, positions, pos)
    return _digits(positions, 2, n_bits, "binary_bits")


def single_sine(pos, length=None, *, omega: float = 1.0) -> np.ndarray:
    """One sine wave as a one-column encoding: ``[sin(omega * pos)]``.

    Examples
    --------
    >>> from posenc.candidates import single_sine
    >>> single_sine([0, 1, 2]).round(2)
    array([[0.  ],
           [0.84],
           [0.91]])

    See the chapter "Is one sine enough?" (docs/chapters/05-is-one-sine-enough.md).
    """
    positions = check_positions(pos)
    omega = _omega(omega, "omega")
    _length(length, positions, pos)
    return _sines(positions, omega)[:, None]


SEVERAL_OMEGAS = (1.0, 0.1, 0.01, 0.001)
"""Frequencies of :func:`several_sines`: four clocks, each ten times slower than the last."""


def several_sines(pos, length=None, *, omegas=SEVERAL_OMEGAS) -> np.ndarray:
    """One sine per frequency, no cosines: column ``j`` is ``sin(omegas[j] * pos)``.

    Examples
    --------
    >>> from posenc.candidates import several_sines
    >>> several_sines([10], omegas=(1.0, 0.1)).round(3)
    array([[-0.544,  0.841]])

    See the chapter "Why run many clocks at once?" (docs/chapters/06-many-clocks.md).
    """
    positions = check_positions(pos)
    if isinstance(omegas, (str, bytes)) or np.ndim(omegas) != 1 or len(omegas) == 0:
        raise ValueError(f"omegas must be a non-empty 1-D sequence of positive numbers, "
                         f"got {omegas!r}")
    omega = np.array([_omega(w, "omegas") for w in omegas])
    _length(length, positions, pos)
    return _sines(positions, omega)       # (n, len(omegas))


def sinusoidal(pos, length=None, *, d_model: int = 64) -> np.ndarray:
    """The paper's encoding, :func:`posenc.encode` with ``d_model`` columns (default 64).

    Examples
    --------
    >>> from posenc.candidates import sinusoidal
    >>> sinusoidal([1], d_model=4).round(3)
    array([[0.841, 0.54 , 0.01 , 1.   ]])
    """
    positions = check_positions(pos)
    d_model = check_d_model(d_model)
    _length(length, positions, pos)
    return encode(positions, d_model)


@dataclass(frozen=True)
class Candidate:
    """A named candidate encoding: ``encode(pos, length=None)`` returns one row per position.

    Examples
    --------
    >>> from posenc.candidates import get
    >>> c = get("index_over_length")
    >>> c.chapter, c([0, 1, 2], length=4).ravel().tolist()
    (2, [0.0, 0.25, 0.5])
    """

    key: str
    label: str
    encode: Callable
    chapter: int

    def __call__(self, pos, length=None) -> np.ndarray:
        return self.encode(pos, length)


CANDIDATES = {
    c.key: c
    for c in (
        Candidate("raw_index", "raw index", raw_index, 2),
        Candidate("decimal_digits", "decimal digits (4)", decimal_digits, 2),
        Candidate("index_over_length", "index / length", index_over_length, 2),
        Candidate("binary_bits", "binary bits (12)", binary_bits, 4),
        Candidate("single_sine", "single sine, ω = 1", single_sine, 5),
        Candidate("several_sines", "4 sines, ω = 1 … 0.001", several_sines, 6),
        Candidate("sinusoidal", "sinusoidal, d_model = 64", sinusoidal, 8),
    )
}
"""Every candidate, keyed by name, in the order the chapters introduce them."""


def get(key) -> Candidate:
    """Look up a candidate by key, or pass a :class:`Candidate` through.

    Examples
    --------
    >>> from posenc.candidates import get
    >>> get("single_sine").label
    'single sine, ω = 1'
    """
    if isinstance(key, Candidate):
        return key
    if not isinstance(key, str) or key not in CANDIDATES:
        allowed = ", ".join(repr(k) for k in CANDIDATES)
        raise ValueError(f"candidate must be one of {allowed}, got {key!r}")
    return CANDIDATES[key]


def up_to(chapter: int) -> list[str]:
    """Keys of the candidates introduced in chapters up to ``chapter``.

    Examples
    --------
    >>> from posenc.candidates import up_to
    >>> up_to(4)
    ['raw_index', 'decimal_digits', 'index_over_length', 'binary_bits']
    """
    chapter = check_positive_int(chapter, "chapter", "a positive chapter number")
    return [k for k, c in CANDIDATES.items() if c.chapter <= chapter]
