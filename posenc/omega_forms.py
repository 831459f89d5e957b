"""The frequencies ``omega_i = base ** (-2 i / d_model)`` computed the ways code writes them.

Three spellings of the same number, each evaluated entirely in one floating-point type, so
their rounding errors can be measured against a high-precision reference:

* ``"power"``:      ``base ** (-(2 i) / d_model)``
* ``"reciprocal"``: ``1 / base ** ((2 i) / d_model)``  (the paper's ``pos / base^(2i/d)``)
* ``"exp"``:        ``exp((2 i) * (-log(base) / d_model))``  (the PyTorch tutorial; the factor
  ``-log(base) / d_model`` is computed in Python floats and rounded once to ``dtype``)

Every ``+ - * /`` is IEEE arithmetic in ``dtype``, the same on every machine. ``exp``, ``log``
and ``**`` are not fixed by IEEE 754: with ``kernels="correctly rounded"`` (the default) each
is the exact value rounded once (:mod:`posenc.rounding`), so the result is a property of the
spelling, not of a CPU; ``kernels="numpy"`` uses this machine's NumPy (and Python's libm for
the float64 logarithm), whose float32 ``exp`` differs from CPU to CPU.

:func:`posenc.frequencies` uses ``"power"`` in float64. The chapter "How precise is the table?"
(docs/chapters/13-how-precise-is-the-table.md) measures which spelling is more accurate.
"""

from __future__ import annotations

import math

import numpy as np

from ._extras import require

mpmath = require("mpmath", "precision", "posenc.omega_forms")

from . import rounding
from ._checks import check_base, check_d_model

FORMS = ("power", "reciprocal", "exp")
KERNELS = ("correctly rounded", "numpy")
_TYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def frequencies_as_written(d_model: int, base: float = 10000.0, *, form: str = "power",
                           dtype="float64", kernels: str = "correctly rounded") -> np.ndarray:
    """``omega_i`` for ``i = 0 .. d_model/2 - 1``, spelled as ``form``, computed in ``dtype``.

    Parameters
    ----------
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1; finite in ``dtype`` for "power" and "reciprocal".
    form : {"power", "reciprocal", "exp"}, default "power"
        Which spelling of the formula to evaluate (see the module docstring).
    dtype : {"float64", "float32", "float16"}, default "float64"
        The type every operation is carried out in.
    kernels : {"correctly rounded", "numpy"}, default "correctly rounded"
        How ``exp``, ``log`` and ``**`` are evaluated (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, of type ``dtype``.

    Examples
    --------
    >>> from posenc.omega_forms import frequencies_as_written
    >>> frequencies_as_written(4, 100.0, form="exp")
    array([1. , 0.1])
    >>> frequencies_as_written(4, 100.0, form="power", dtype="float32").dtype
    dtype('float32')
    >>> frequencies_as_written(4, 100.0, form="exp", dtype="float16", kernels="numpy")
    array([1. , 0.1], dtype=float16)
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    if not isinstance(form, str) or form not in FORMS:
        allowed = ", ".join(repr(f) for f in FORMS)
        raise ValueError(f"form must be one of {allowed}, got {form!r}")
    if not isinstance(kernels, str) or kernels not in KERNELS:
        raise ValueError(f"kernels must be one of {', '.join(map(repr, KERNELS))}, "
                         f"got {kernels!r}")
    try:
        name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
    except TypeError:                                     # torch.float32, say
        name = None
    if name not in _TYPES:
        raise ValueError(f"dtype must be 'float64', 'float32' or 'float16', got {dtype!r}")
    t = _TYPES[name]
    with np.errstate(over="ignore"):
        overflows = form != "exp" and not np.isfinite(t(base))   # "exp" takes log in Python
    if overflows:
        raise ValueError(f"base {base:g} overflows {name} (largest {np.finfo(t).max:g}), which "
                         f"form={form!r} holds it in; use form='exp' or a wider dtype")
    two_i = np.arange(0, d_model, 2).astype(t)            # 2i: exact (float16: up to 2048)
    d = t(d_model)
    b = t(base) if form != "exp" else None
    exact = kernels == "correctly rounded"
    with np.errstate(over="ignore", under="ignore"):
        if form in ("power", "reciprocal"):
            exponent = (-two_i / d) if form == "power" else (two_i / d)   # IEEE division
            p = rounding.power(float(b), exponent, name) if exact else b ** exponent
            return p if form == "power" else t(1) / p
        if exact:                             # 40 digits, not mpmath's global precision
            log_base = float(rounding.apply("log", [base], "float64")[0])
        else:
            log_base = math.log(base)
        argument = two_i * t(-log_base / d_model)
        return rounding.apply("exp", argument, name) if exact else np.exp(argument)
