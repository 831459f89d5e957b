"""Llama 3.1's scaling (``rope_type: "llama3"``): wavelengths kept, divided, or blended between.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import numpy as np

from ..encoding import frequencies
from ._args import _check_length, _check_real


def llama3_frequencies(d_model: int, factor: float = 8.0, original_length: int = 8192,
                       base: float = 500000.0, *, low_freq_factor: float = 1.0,
                       high_freq_factor: float = 4.0) -> np.ndarray:
    """Frequencies under Llama 3.1's scaling (``rope_type: "llama3"``).

    Wavelengths ``lambda_i`` shorter than ``L / high_freq_factor`` are kept, those longer than
    ``L / low_freq_factor`` are divided by ``factor``, and between them the frequency is blended
    with ``smooth = (L / lambda_i - low_freq_factor) / (high_freq_factor - low_freq_factor)``:
    the paper's YaRN ramp (linear in the turns ``L / lambda_i``) with ``alpha = low_freq_factor``
    and ``beta = high_freq_factor``, and no attention factor. Defaults are Llama 3.1's
    (factor 8, low 1, high 4, original length 8192, base 500000).

    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["llama3"]``, checked in
    ``tests/package/test_conformance.py``, which follows ``apply_scaling`` in Meta's reference code
    (meta-llama/llama-models).

    Parameters
    ----------
    d_model : int
        Head width; a positive even integer.
    factor : float, default 8
        At least 1.
    original_length : int, default 8192
    base : float, default 500000
    low_freq_factor, high_freq_factor : float, default 1 and 4
        ``0 < low_freq_factor < high_freq_factor``.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, float64.

    Examples
    --------
    >>> from posenc import frequencies
    >>> from posenc.scaling import llama3_frequencies
    >>> ratio = llama3_frequencies(128) / frequencies(128, base=500000.0)
    >>> float(ratio[0]), float(ratio[-1]), int(((ratio > 1 / 8) & (ratio < 1)).sum())
    (1.0, 0.125, 6)

    See the chapter "Where does it fall short, and what came next?"
    (docs/chapters/15-what-came-next.md), section "Llama 3's scaling".
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    length = _check_length(original_length)
    low = _check_real(low_freq_factor, "low_freq_factor", minimum=0.0, strict=True)
    high = _check_real(high_freq_factor, "high_freq_factor", minimum=0.0, strict=True)
    if not low < high:
        raise ValueError(f"low_freq_factor must be below high_freq_factor, got "
                         f"low_freq_factor={low} and high_freq_factor={high}")
    omega = frequencies(d_model, base)
    turns = length * omega / (2 * np.pi)                   # L / lambda_i
    smooth = np.clip((turns - low) / (high - low), 0.0, 1.0)
    return (1.0 - smooth) * omega / factor + smooth * omega
