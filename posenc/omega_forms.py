"""The frequencies ``omega_i = base ** (-2 i / d_model)`` computed the ways code writes them.

Three spellings of the same number, each evaluated entirely in one floating-point type, so
their rounding errors can be measured against a high-precision reference:

* ``"power"``:      ``base ** (-(2 i) / d_model)``
* ``"reciprocal"``: ``1 / base ** ((2 i) / d_model)``  (the paper's ``pos / base^(2i/d)``)
* ``"exp"``:        ``exp((2 i) * (-log(base) / d_model))``  (the PyTorch tutorial; the factor
  ``-log(base) / d_model`` is computed in Python floats and rounded once to ``dtype``)

:func:`posenc.frequencies` uses ``"power"`` in float64. The chapter "How do the pieces make the formula?"
(docs/chapters/08-building-the-formula.md) measures which spelling is more accurate.
"""

from __future__ import annotations

import math

import numpy as np

from ._checks import check_base, check_d_model, check_dtype

FORMS = ("power", "reciprocal", "exp")


def frequencies_as_written(d_model: int, base: float = 10000.0, *, form: str = "power",
                           dtype="float64") -> np.ndarray:
    """``omega_i`` for ``i = 0 .. d_model/2 - 1``, spelled as ``form``, computed in ``dtype``.

    Parameters
    ----------
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1.
    form : {"power", "reciprocal", "exp"}, default "power"
        Which spelling of the formula to evaluate (see the module docstring).
    dtype : {"float64", "float32"}, default "float64"
        The type every operation is carried out in.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, of type ``dtype``.

    Examples
    --------
    >>> frequencies_as_written(4, 100.0, form="exp")
    array([1. , 0.1])
    >>> frequencies_as_written(4, 100.0, form="power", dtype="float32").dtype
    dtype('float32')
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    if not isinstance(form, str) or form not in FORMS:
        allowed = ", ".join(repr(f) for f in FORMS)
        raise ValueError(f"form must be one of {allowed}, got {form!r}")
    t = check_dtype(dtype).type
    two_i = np.arange(0, d_model, 2).astype(t)            # 2i, exact in both types
    d = t(d_model)
    b = t(base)
    if form == "power":
        return b ** (-two_i / d)
    if form == "reciprocal":
        return t(1) / b ** (two_i / d)
    return np.exp(two_i * t(-math.log(base) / d_model))
