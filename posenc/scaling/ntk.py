"""NTK-aware scaling (bloc97, 2023): the base becomes ``base * s ** (d / (d - 2))``.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import check_base, check_d_model
from ..encoding import BASE, frequencies
from ._args import _check_real


def ntk_base(d_model: int, factor: float, base: float = BASE) -> float:
    """The "NTK-aware" base ``base * factor ** (d_model / (d_model - 2))``.

    Chosen so that the fastest pair keeps ``omega_0 = 1`` and the slowest pair,
    ``base ** (-(d_model - 2) / d_model)``, is divided by exactly ``factor``.
    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["dynamic"]`` with
    ``factor = 1`` at ``seq_len = factor * max_position_embeddings`` (static NTK-aware scaling
    has no ``rope_type`` of its own there), checked in ``tests/package/test_conformance.py``.

    Parameters
    ----------
    d_model : int
        Width of the rotated vectors; a positive even integer, at least 4.
    factor : float
        ``s = L' / L``, at least 1.
    base : float, default 10000

    Examples
    --------
    >>> from posenc.scaling import ntk_base
    >>> round(ntk_base(128, 4.0))                  # Llama's head width 128, context x 4
    40890
    """
    d_model = check_d_model(d_model)
    if d_model < 4:
        raise ValueError(f"d_model must be at least 4 for NTK-aware scaling, got {d_model}")
    factor = _check_real(factor, "factor", minimum=1.0)
    return _scaled_base(check_base(base), factor, d_model, f"factor {factor:g}")


def _scaled_base(base: float, scale: float, d_model: int, cause: str) -> float:
    """``base * scale ** (d_model / (d_model - 2))``, or a ValueError naming ``cause``."""
    try:
        new = base * scale ** (d_model / (d_model - 2))
    except OverflowError:
        new = math.inf
    if not math.isfinite(new):
        raise ValueError(f"{cause} makes the base {base:g} * {scale:g} ** "
                         f"({d_model} / {d_model - 2}) overflow float64")
    return new


def ntk_frequencies(d_model: int, factor: float, base: float = BASE) -> np.ndarray:
    """Frequencies under "NTK-aware" scaling: the paper's formula with :func:`ntk_base`.

    Counterpart: as for :func:`ntk_base`.

    Examples
    --------
    >>> from posenc.encoding import frequencies
    >>> from posenc.scaling import ntk_frequencies
    >>> omega, scaled = frequencies(128), ntk_frequencies(128, 4.0)
    >>> float(scaled[0]), round(float(omega[-1] / scaled[-1]), 12)
    (1.0, 4.0)
    """
    return frequencies(d_model, ntk_base(d_model, factor, base))
