"""Correctly rounded arithmetic, emulated: the value IEEE 754 gives on *every* machine.

IEEE 754 fixes the result of ``+ - * /`` and ``sqrt`` (each correctly rounded), and NumPy's
elementwise arithmetic follows it everywhere. It does not fix ``exp``, ``log``, ``pow``,
``sin`` or ``cos``: NumPy's float32 kernels differ between CPUs (AVX-512, AVX2, baseline), and
libm differs between systems. To state a rounding error as a fact about a *formula*, this module
evaluates those functions as a correctly rounded library would: the exact value (mpmath), rounded
once to the nearest float32 or float64, ties to even.

Two paths give the same bits:

* float64 results: mpmath at 40 digits, rounded to the nearest double;
* float32 and float16 results (fast, for whole tables): the float64 value of the system's libm, which is
  within a few float64 units of the exact value, rounded to the narrow type; wherever that float64
  value lies within 8 float64 units of a rounding boundary of the narrow type (a midpoint
  between two of its numbers), the value is recomputed with mpmath. A libm error below 8 float64 units
  cannot move a result across a boundary, so every result is the correctly rounded one.

Used by the chapter "How precise is the table?" (docs/chapters/13-how-precise-is-the-table.md).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from ._extras import require

mpmath = require("mpmath", "precision", "posenc.rounding")

FUNCTIONS = ("exp", "log", "sin", "cos")
"""The elementary functions of one argument that :func:`apply` evaluates."""

_DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}
_MP = {"exp": mpmath.exp, "log": mpmath.log, "sin": mpmath.sin, "cos": mpmath.cos}
_LIBM = {"exp": math.exp, "log": math.log, "sin": math.sin, "cos": math.cos}
_GUARD = 8          # float64 units: the libm error the fast path tolerates


def _check_dtype(dtype):
    name = np.dtype(dtype).name if not isinstance(dtype, str) else dtype
    if name not in _DTYPES:
        raise ValueError(f"dtype must be 'float16', 'float32' or 'float64', got {dtype!r}")
    return _DTYPES[name]


def nearest(value, dtype="float64"):
    """The float16, float32 or float64 number nearest to an exact ``value`` (ties to even).

    Parameters
    ----------
    value : mpmath.mpf, int, float or str
        The exact value (a string is read as a decimal number, exactly).
    dtype : {"float64", "float32", "float16"}

    Returns
    -------
    numpy.float64, numpy.float32 or numpy.float16

    Examples
    --------
    >>> from posenc.rounding import nearest
    >>> import mpmath
    >>> float(nearest(mpmath.mpf(1) / 3, "float32"))
    0.3333333432674408
    >>> float(nearest("0.1", "float64")) == 0.1
    True
    """
    t = _check_dtype(dtype)
    exact = _exact(value)
    try:
        d = float(exact)                                  # integer division: correctly rounded
    except OverflowError:
        d = math.inf if exact > 0 else -math.inf
    if t is np.float64:
        return np.float64(d)
    with np.errstate(over="ignore"):
        y = t(d)
    if not np.isfinite(y):                                # below the overflow edge: the top
        top = float(np.finfo(t).max)
        edge = top + (top - float(np.nextafter(t(top), t(0)))) / 2
        return t(math.copysign(top, d)) if abs(d) == edge and abs(exact) < edge else y
    # Rounding to float64 and then to the narrower type differs from rounding once only
    # when the float64 value is exactly a midpoint of the narrower type: then the exact
    # value decides.
    other = np.nextafter(y, t(np.inf) if d > float(y) else t(-np.inf))
    mid = (float(y) + float(other)) / 2                   # exact in float64
    if d == mid and exact != mid:
        return other if (exact > mid) == (float(other) > float(y)) else y
    return y


def _exact(value) -> Fraction:
    """``value`` as an exact fraction (an mpf, float or decimal string without rounding)."""
    if isinstance(value, str):
        try:
            return Fraction(value)
        except ValueError:
            pass                                          # "inf", "nan": mpmath reads them
    elif isinstance(value, numbers.Rational):
        return Fraction(value)
    elif isinstance(value, (float, np.floating)) and math.isfinite(value):
        return Fraction(*value.as_integer_ratio())
    if not isinstance(value, mpmath.mpf):
        with mpmath.workprec(200):
            value = mpmath.mpf(value)
    if not mpmath.isfinite(value):
        raise ValueError(f"value must be finite, got {value!r}")
    sign, man, exp, _ = value._mpf_
    q = Fraction(man) * (Fraction(2) ** exp)
    return -q if sign else q


def apply(function: str, x, dtype="float32") -> np.ndarray:
    """``function(x)`` correctly rounded to ``dtype``, for every element of ``x``.

    Parameters
    ----------
    function : {"exp", "log", "sin", "cos"}
    x : array_like
        Arguments; each is taken as the exact number it holds (a float32 argument is widened
        exactly).
    dtype : {"float32", "float64", "float16"}
        The type of the results. float64 results use mpmath for every element (use it for a few
        thousand values at most); float32 and float16 results use libm with an mpmath fallback
        (see the module docstring) and are fast.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``, of type ``dtype``.

    Examples
    --------
    >>> from posenc.rounding import apply
    >>> apply("exp", [0.0, 1.0], "float32")
    array([1.       , 2.7182817], dtype=float32)
    >>> apply("sin", [1e6], "float64")
    array([-0.3499935])
    """
    if function not in FUNCTIONS:
        raise ValueError(f"function must be one of {', '.join(map(repr, FUNCTIONS))}, "
                         f"got {function!r}")
    t = _check_dtype(dtype)
    args = np.asarray(x)
    if args.dtype.kind not in "fiu":
        raise TypeError(f"x must hold real numbers, got dtype {args.dtype}")
    wide = args
    args = args.astype(np.float64)                        # exact for float32 and small ints
    if wide.dtype.itemsize > 4 and wide.dtype != np.float64 and any(
            Fraction(int(v) if wide.dtype.kind in "iu" else Fraction(*v.as_integer_ratio())) != a
            for v, a in zip(wide.ravel(), args.ravel()) if np.isfinite(a)):
        raise ValueError("x must hold numbers float64 holds exactly (integers up to 2**53)")
    if not np.all(np.isfinite(args)):
        raise ValueError("x must be finite")
    if function == "log" and np.any(args <= 0):
        raise ValueError(f"x must be positive for log, got {args.min():g}")
    flat = args.ravel()
    if t is np.float64:
        with mpmath.workdps(40):
            out = [nearest(_MP[function](mpmath.mpf(a)), "float64") for a in flat.tolist()]
        return np.array(out, dtype=np.float64).reshape(args.shape)
    v = np.array([_libm(function, a) for a in flat.tolist()], dtype=np.float64)
    with np.errstate(over="ignore"):
        y = v.astype(t)
    toward = np.where(v > y.astype(np.float64), np.inf, -np.inf).astype(t)
    with np.errstate(over="ignore", invalid="ignore"):
        other = np.nextafter(y, toward)
        mid = (y.astype(np.float64) + other.astype(np.float64)) / 2
    hard = ~(np.abs(v - mid) > _GUARD * np.spacing(np.abs(v)))     # NaN (overflow) is hard too
    for k in np.flatnonzero(hard):
        with mpmath.workdps(40):
            y[k] = nearest(_MP[function](mpmath.mpf(float(flat[k]))), t)
    return y.reshape(args.shape)


def _libm(function: str, a: float) -> float:
    try:
        return _LIBM[function](a)
    except OverflowError:                                 # exp past 709.78: mpmath decides
        return math.nan


def power(base, exponent, dtype="float32") -> np.ndarray:
    """``base ** exponent`` correctly rounded to ``dtype`` (mpmath for every element).

    Examples
    --------
    >>> from posenc.rounding import power
    >>> power(10000.0, [-0.5, 0.0], "float32")
    array([0.01, 1.  ], dtype=float32)
    """
    t = _check_dtype(dtype)
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, numbers.Real):
        raise TypeError(f"base must be a finite positive number, got {base!r}")
    e = np.asarray(exponent)
    if e.dtype.kind not in "fiu":
        raise TypeError(f"exponent must hold real numbers, got dtype {e.dtype}")
    e = e.astype(np.float64)
    if not np.all(np.isfinite(e)):
        raise ValueError("exponent must be finite")
    b = float(base)
    if not (math.isfinite(b) and b > 0):
        raise ValueError(f"base must be a finite positive number, got {base!r}")
    with mpmath.workdps(40):
        out = [nearest(mpmath.power(mpmath.mpf(b), mpmath.mpf(a)), t) for a in e.ravel().tolist()]
    return np.array(out, dtype=t).reshape(e.shape)


def numpy_kernels() -> str:
    """Which of NumPy's SIMD kernel levels this process uses, in words (they decide NumPy's
    float32 ``exp``, ``sin`` and ``cos``), e.g. ``"NumPy 2.4.6, x86_64, kernels up to X86_V3"``.

    Examples
    --------
    >>> from posenc.rounding import numpy_kernels
    >>> numpy_kernels().startswith("NumPy ")
    True
    """
    import platform

    try:
        from numpy._core import _multiarray_umath as umath          # NumPy 2
    except ImportError:                                              # pragma: no cover
        from numpy.core import _multiarray_umath as umath            # NumPy 1.26
    __cpu_dispatch__ = getattr(umath, "__cpu_dispatch__", [])
    __cpu_features__ = getattr(umath, "__cpu_features__", {})

    levels = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    top = levels[-1] if levels else "the baseline"
    return f"NumPy {np.__version__}, {platform.machine()}, kernels up to {top}"
