"""Correctly rounded arithmetic, emulated: the value IEEE 754 gives on *every* machine.

IEEE 754 fixes the result of ``+ - * /`` and ``sqrt`` (each correctly rounded), and NumPy's
elementwise arithmetic follows it everywhere. It does not fix ``exp``, ``log``, ``pow``,
``sin`` or ``cos``: NumPy's float32 kernels differ between CPUs (AVX-512, AVX2, baseline), and
libm differs between systems. To state a rounding error as a fact about a *formula*, this module
evaluates those functions as a correctly rounded library would: the exact value (mpmath), rounded
once to the nearest float32 or float64, ties to even.

Two paths give the same bits:

* float64 results: mpmath at 40 digits (its global precision untouched), rounded to the nearest
  double;
* float32 and float16 results (fast, for whole tables): the float64 value of the system's libm, which is
  within a few float64 units of the exact value, rounded to the narrow type; wherever that float64
  value lies within 8 float64 units of a rounding boundary of the narrow type (a midpoint
  between two of its numbers, or its overflow edge), the value is recomputed with mpmath. A libm
  error below 8 float64 units cannot move a result across a boundary, so every result is the correctly rounded one.

Used by the chapter "How precise is the table?" (docs/chapters/13-how-precise-is-the-table.md).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from ._extras import require

mpmath = require("mpmath", "precision", "posenc.rounding")
from mpmath import libmp  # noqa: E402  (explicit precision: no global mpmath state, thread-safe)

FUNCTIONS = ("exp", "log", "sin", "cos")
"""The elementary functions of one argument that :func:`apply` evaluates."""

_DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}
_MPF = {"exp": libmp.mpf_exp, "log": libmp.mpf_log, "sin": libmp.mpf_sin, "cos": libmp.mpf_cos}
_PREC = 136         # bits: 40 decimal digits, passed to every call (mpmath's global precision unused)
_FAR = 1100         # |value| >= 2**1100 rounds to inf, |value| < 2**-1100 to 0, in every dtype
_LIBM = {"exp": math.exp, "log": math.log, "sin": math.sin, "cos": math.cos}
_GUARD = 8          # float64 units: the libm error the fast path tolerates


def _check_dtype(dtype):
    try:
        name = np.dtype(dtype).name if not isinstance(dtype, str) and dtype is not None else dtype
    except TypeError:                                     # torch.float32, say
        name = None
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
    return _round(_exact(value), _check_dtype(dtype))


def _round(exact, t):
    """An exact Fraction (or a float already decided: +-inf, +-0.0) rounded once to ``t``."""
    if isinstance(exact, float):
        return t(exact)
    try:
        d = float(exact)                                  # integer division: correctly rounded
    except OverflowError:
        d = math.inf if exact > 0 else -math.inf
    if t is np.float64:
        return np.float64(d)
    with np.errstate(all="ignore"):
        y = t(d)
    if not np.isfinite(y):                                # below the overflow edge: the top
        top = float(np.finfo(t).max)
        edge = top + (top - float(np.nextafter(t(top), t(0)))) / 2
        return t(math.copysign(top, d)) if abs(d) == edge and abs(exact) < edge else y
    # Rounding to float64 and then to the narrower type differs from rounding once only
    # when the float64 value is exactly a midpoint of the narrower type: then the exact
    # value decides.
    with np.errstate(all="ignore"):
        other = np.nextafter(y, t(np.inf) if d > float(y) else t(-np.inf))
    mid = (float(y) + float(other)) / 2                   # exact in float64
    if d == mid and exact != mid:
        return other if (exact > mid) == (float(other) > float(y)) else y
    return y


def _exact(value):
    """``value`` as an exact Fraction (an mpf, number or decimal string, without rounding), or
    the float +-inf or +-0.0 where its magnitude alone decides the result (no huge integers)."""
    if isinstance(value, str):
        if value.strip().lstrip("+-").lower() in ("inf", "infinity", "nan"):
            raise ValueError(f"value must be finite, got {value!r}")
        try:
            d = float(value)                              # correctly rounded: decides inf and 0
            return d if d == 0 or math.isinf(d) else Fraction(value)
        except ValueError:
            raise ValueError(f"value must be a decimal number, got {value!r}") from None
    if isinstance(value, numbers.Rational):
        return Fraction(value)
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            raise ValueError(f"value must be finite, got {value!r}")
        return Fraction(*value.as_integer_ratio())
    raw = getattr(value, "_mpf_", None)
    if raw is None:
        try:
            return Fraction(value)                        # decimal.Decimal, say
        except (TypeError, ValueError):
            raise TypeError(f"value must be an mpmath.mpf, int, float or str, got {value!r}") from None
    return _from_mpf(raw, value)


def _from_mpf(raw, shown=None):
    """An mpmath raw value (sign, man, exp, bc) as for :func:`_exact`."""
    sign, man, exp, bc = raw
    if not man:
        if raw not in (libmp.fzero, libmp.fnzero):
            raise ValueError(f"value must be finite, got {shown if shown is not None else raw!r}")
        return -0.0 if sign else 0.0
    if exp + bc > _FAR:
        return -math.inf if sign else math.inf
    if exp + bc < -_FAR:
        return -0.0 if sign else 0.0
    q = Fraction(int(man) << exp) if exp >= 0 else Fraction(int(man), 1 << -exp)
    return -q if sign else q


def _value(function: str, a: float):
    """``function(a)`` from mpmath at 40 digits, for :func:`_round`."""
    if a == 0 and function == "sin":
        return a                                          # sin(-0.0) is -0.0 (mpmath has no -0)
    return _from_mpf(_MPF[function](libmp.from_float(a), _PREC, libmp.round_nearest))


def apply(function: str, x, dtype="float32") -> np.ndarray:
    """``function(x)`` correctly rounded to ``dtype``, for every element of ``x``.

    Parameters
    ----------
    function : {"exp", "log", "sin", "cos"}
    x : array_like
        Arguments; each is taken as the exact number it holds (a float32 argument is widened
        exactly).
    dtype : {"float32", "float64", "float16"}
        The type of the results. float64 results use mpmath for every element; float32 and float16
        results use libm with an mpmath fallback (see the module docstring) and are fast.

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
        out = [_round(_value(function, a), np.float64) for a in flat.tolist()]
        return np.array(out, dtype=np.float64).reshape(args.shape)
    v = np.array([_libm(function, a) for a in flat.tolist()], dtype=np.float64)
    with np.errstate(all="ignore"):                      # not the caller's errstate
        y = v.astype(t)
        toward = np.where(v > y.astype(np.float64), np.inf, -np.inf).astype(t)
        other = np.nextafter(y, toward)
        mid = (y.astype(np.float64) + other.astype(np.float64)) / 2
        top = float(np.finfo(t).max)
        edge = top + (top - float(np.nextafter(t(top), t(0)))) / 2    # overflow boundary
        mid = np.where(np.isinf(mid), np.copysign(edge, mid), mid)
        hard = ~(np.abs(v - mid) > _GUARD * np.spacing(np.abs(v)))  # NaN (overflow) too
    for k in np.flatnonzero(hard):
        y[k] = _round(_value(function, float(flat[k])), t)
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
    mb = libmp.from_float(b)
    out = [_round(_from_mpf(libmp.mpf_pow(mb, libmp.from_float(a), _PREC, libmp.round_nearest)), t)
           for a in e.ravel().tolist()]
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
