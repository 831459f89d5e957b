"""Argument checks that most public functions share.

Each check names the argument and what is allowed, so a bad call fails loudly instead of
returning a wrong table: ``TypeError`` for a number of the wrong kind (a float ``d_model``),
``ValueError`` for one outside the allowed range and for any ``layout`` or ``dtype`` not listed.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

LAYOUTS = ("interleaved", "concatenated")
DTYPES = {"float64": np.float64, "float32": np.float32}


def check_d_model(d_model, name: str = "d_model") -> int:
    """Return ``d_model`` as an int; it must be a positive even integer."""
    if isinstance(d_model, (bool, np.bool_)) or not isinstance(d_model, numbers.Integral):
        raise TypeError(
            f"{name} must be a positive even integer, got {d_model!r} "
            f"of type {type(d_model).__name__}"
        )
    d_model = int(d_model)
    if d_model <= 0 or d_model % 2:
        raise ValueError(
            f"{name} must be a positive even integer (sin and cos come in pairs), "
            f"got {d_model}"
        )
    return d_model


def check_positive_int(value, name: str, allowed: str = "a positive integer") -> int:
    """Return ``value`` as an int; it must be an integer >= 1 (``allowed`` words the message)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {allowed}, got {value!r} of type {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return int(value)


def check_base(base, name: str = "base") -> float:
    """Return ``base`` as a float; it must be a finite real number greater than 1."""
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, numbers.Real):
        raise TypeError(
            f"{name} must be a real number greater than 1, got {base!r} "
            f"of type {type(base).__name__}"
        )
    try:
        base = float(base)
    except OverflowError:                                 # an int past float64's range
        raise ValueError(f"{name} must be a finite number greater than 1, got an integer "
                         f"of {len(str(abs(int(base))))} digits") from None
    if not math.isfinite(base) or base <= 1.0:
        raise ValueError(f"{name} must be a finite number greater than 1, got {base}")
    return base


def check_layout(layout, name: str = "layout") -> str:
    """Return ``layout`` if it is one of :data:`LAYOUTS`."""
    if not isinstance(layout, str) or layout not in LAYOUTS:
        allowed = ", ".join(repr(x) for x in LAYOUTS)
        raise ValueError(f"{name} must be one of {allowed}, got {layout!r}")
    return layout


def check_dtype(dtype, name: str = "dtype") -> np.dtype:
    """Return a NumPy float dtype; only float64 and float32 tables are built."""
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        resolved = None
    if resolved is None or resolved.name not in DTYPES:
        allowed = ", ".join(DTYPES)
        raise ValueError(
            f"{name} must be one of {allowed}, got {dtype!r}; build in float64 or float32 "
            "and cast afterwards if you need half precision (see the precision chapter)"
        )
    if not resolved.isnative:                             # '>f8' on this machine: wrong bytes
        raise ValueError(f"{name} must be in the machine's byte order, got {dtype!r}; "
                         "build natively and call .astype afterwards")
    return resolved


def check_positions(pos, name: str = "pos") -> np.ndarray:
    """Return positions as a 1-D float64 array.

    An integer ``n`` means the positions ``0, 1, ..., n - 1``. Otherwise ``pos`` must be a
    1-D array-like of finite real numbers (integers or floats).
    """
    if isinstance(pos, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int count or a 1-D array of positions, got {pos!r}")
    if isinstance(pos, numbers.Integral):
        n = int(pos)
        if n < 0 or n > 2**53:
            raise ValueError(f"{name} as a count must be >= 0 and at most 2**53, got {n}")
        return np.arange(n, dtype=np.float64)
    if isinstance(pos, numbers.Real):
        raise TypeError(
            f"{name} must be an int count or a 1-D array of positions, got the scalar {pos!r}; "
            f"write [{pos!r}] for a single position"
        )
    check_listed_ints(pos, name)
    arr = np.asarray(pos)
    if arr.dtype == object and arr.ndim == 1 and arr.size \
            and all(isinstance(x, numbers.Integral) for x in arr):   # ints past 64 bits
        raise ValueError(f"{name} holds integers beyond 2**53, which float64 cannot represent")
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must hold integers or real floats, got an array of dtype {arr.dtype}"
        )
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (one position per row of the table), got shape {arr.shape}"
        )
    # compared as Python integers: the float64 cast would round 2**53 + 1 down to 2**53
    if arr.dtype.kind in "iu" and arr.size and max(int(arr.max()), -int(arr.min())) > 2**53:
        raise ValueError(f"{name} holds integers beyond 2**53, which float64 cannot represent")
    out = arr.astype(np.float64)
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8:    # longdouble: the cast can round
        with np.errstate(invalid="ignore"):
            lost = np.isfinite(arr) & (np.abs(arr) > 2**53) & (out.astype(arr.dtype) != arr)
        if np.any(lost):
            raise ValueError(f"{name} holds values beyond 2**53 that float64 cannot represent")
    if not np.all(np.isfinite(out)):
        bad = int(np.flatnonzero(~np.isfinite(out))[0])
        raise ValueError(f"{name} must be finite, got {arr[bad]!r} at index {bad}")
    return out


def check_listed_ints(seq, name: str) -> None:
    """Refuse a list or tuple holding a bool, or an integer past 2**53, also as a 0-d array or
    tensor: NumPy would read True as 1 and, beside a float, round 2**53 + 1."""
    if not isinstance(seq, (list, tuple)):
        return
    seq = [_scalar(x) for x in seq]
    if any(isinstance(x, (bool, np.bool_)) for x in seq):
        raise TypeError(f"{name} must hold numbers, not bools, got {seq!r:.60}")
    if any(isinstance(x, numbers.Integral) and abs(int(x)) > 2**53 for x in seq):
        raise ValueError(f"{name} holds integers beyond 2**53, which float64 cannot represent")


def _scalar(x):
    """A 0-d array or tensor as its Python number (``np.array(True)`` as ``True``); else ``x``."""
    if getattr(x, "ndim", None) == 0 and hasattr(x, "item"):
        try:
            return x.item()
        except (RuntimeError, TypeError, ValueError):     # a tensor on device 'meta'
            return x
    return x


def check_matrix(x, name: str) -> np.ndarray:
    """Return ``x`` as a finite 2-D float64 array, or raise naming ``name``."""
    arr = np.asarray(x)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got shape {arr.shape}")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr
