"""Position Interpolation (Chen et al. 2023): the frequencies divided by the scale ``s``.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import numpy as np

from ..encoding import BASE, frequencies
from ._args import _check_real


def position_interpolation(d_model: int, factor: float, base: float = BASE) -> np.ndarray:
    """Frequencies under Position Interpolation: every ``omega_i`` divided by ``factor``.

    Rotating position ``m`` by these is rotating position ``m / factor`` by the original ones,
    which is how Chen et al. (2023) state it: positions ``0 .. L'`` are squeezed into the
    trained range ``0 .. L``.
    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["linear"]``
    (``rope_type: "linear"``), checked in ``tests/package/test_conformance.py``.

    Parameters
    ----------
    d_model : int
        Width of the rotated vectors (the head width in RoPE); a positive even integer.
    factor : float
        ``s = L' / L``, at least 1.
    base : float, default 10000

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, float64.

    Examples
    --------
    >>> from posenc.scaling import position_interpolation
    >>> position_interpolation(8, 4.0)
    array([0.25   , 0.025  , 0.0025 , 0.00025])
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    return frequencies(d_model, base) / factor
