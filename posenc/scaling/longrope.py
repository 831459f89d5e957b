"""LongRoPE (Ding et al. 2024; Phi-3): a searched divisor per pair, and its attention factor.

See the chapter "How do positions behave in a running model?"
(docs/chapters/16-positions-in-a-running-model.md).
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import check_d_model
from ..encoding import BASE, frequencies
from ._args import _check_length, _check_real


def _check_factor_list(values, name: str, d_model: int) -> np.ndarray:
    try:
        factors = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a list of {d_model // 2} real numbers, got {values!r}") \
            from None
    if factors.shape != (d_model // 2,):
        raise ValueError(f"{name} must hold one factor per pair, {d_model // 2} for "
                         f"d_model={d_model}, got shape {factors.shape}")
    if not (np.isfinite(factors).all() and (factors > 0).all()):
        raise ValueError(f"{name} must hold finite numbers > 0, got {values!r}")
    return factors


def longrope_uses_long(seq_len: int, original_length: int) -> bool:
    """LongRoPE's switch: ``True`` when ``seq_len`` positions no longer fit the trained length.

    ``seq_len > original_length``, with ``seq_len`` the number of positions the current
    forward pass covers (``max(position_ids) + 1``), as transformers decides it. Other
    libraries decide on other lengths (see chapter 16, "Reading a rope_scaling block").
    Counterpart: ``longrope_frequency_update`` in ``transformers.modeling_rope_utils``
    (``seq_len > original_max_position_embeddings``), checked in ``tests/package/test_conformance.py``.

    Examples
    --------
    >>> from posenc.scaling import longrope_uses_long
    >>> longrope_uses_long(4096, 4096), longrope_uses_long(4097, 4096)
    (False, True)
    """
    length = _check_length(original_length)
    return _check_length(seq_len, "seq_len") > length


def longrope_frequencies(d_model: int, short_factor, long_factor, original_length: int,
                         seq_len: int | None = None, base: float = BASE) -> np.ndarray:
    """Frequencies under LongRoPE: ``omega_i / lambda_i``, one factor per pair.

    ``lambda`` is ``long_factor`` when :func:`longrope_uses_long` is true for ``seq_len``, and
    ``short_factor`` otherwise (also when ``seq_len`` is ``None``, as a model starts).
    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["longrope"]`` (its
    inverse frequencies; Phi-3 and Phi-4-mini), checked in ``tests/package/test_conformance.py``.

    Parameters
    ----------
    d_model : int
        Width of the rotated part of the head (``head_dim * partial_rotary_factor``); a positive
        even integer.
    short_factor, long_factor : sequence of float
        ``d_model // 2`` divisors each, positive (a checkpoint's ``rope_scaling`` lists).
    original_length : int
        ``L``, the trained length (``original_max_position_embeddings``).
    seq_len : int, optional
        Positions the forward pass covers; ``None`` for the short factors.
    base : float, default 10000

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, float64.

    Examples
    --------
    >>> from posenc import frequencies
    >>> from posenc.scaling import longrope_frequencies
    >>> short, long = [1.0, 1.0, 1.5, 2.0], [1.0, 2.0, 8.0, 16.0]
    >>> (frequencies(8) / longrope_frequencies(8, short, long, 4096, seq_len=5000)).round(6)
    array([ 1.,  2.,  8., 16.])
    >>> (frequencies(8) / longrope_frequencies(8, short, long, 4096)).round(6)
    array([1. , 1. , 1.5, 2. ])

    See the chapter "How do positions behave in a running model?"
    (docs/chapters/16-positions-in-a-running-model.md), section "Reading a rope_scaling block".
    """
    d_model = check_d_model(d_model)
    short = _check_factor_list(short_factor, "short_factor", d_model)
    long = _check_factor_list(long_factor, "long_factor", d_model)
    length = _check_length(original_length)
    use_long = seq_len is not None and longrope_uses_long(seq_len, length)
    return frequencies(d_model, base) / (long if use_long else short)


def longrope_attention_factor(factor: float, original_length: int) -> float:
    """LongRoPE's factor on the cosines and sines, ``sqrt(1 + ln s / ln L)`` (1 for ``s = 1``).

    ``s`` is the block's ``factor`` or, when the block has none, as in Phi-3's configurations,
    ``max_position_embeddings / original_max_position_embeddings``. The same factor is used on
    both sides of the switch. Counterpart: the second value returned by
    ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["longrope"]``, checked in
    ``tests/package/test_conformance.py``.

    Parameters
    ----------
    factor : float
        ``s``, at least 1.
    original_length : int
        ``L``, at least 2.

    Examples
    --------
    >>> from posenc.scaling import longrope_attention_factor
    >>> round(longrope_attention_factor(131072 / 4096, 4096), 4)      # Phi-3 128K
    1.1902
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    length = _check_length(original_length)
    if length < 2:
        raise ValueError(f"original_length must be at least 2, got {length}")
    if factor == 1.0:
        return 1.0
    return math.sqrt(1.0 + math.log(factor) / math.log(length))
