"""Dynamic NTK (bloc97 and emozilla, 2023): the NTK-aware base chosen by the sequence length.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import check_base, check_d_model
from ..encoding import BASE, frequencies
from ._args import _check_length, _check_real
from .ntk import _scaled_base


def dynamic_ntk_base(d_model: int, factor: float, original_length: int, seq_len: int,
                     base: float = BASE) -> float:
    """The base that dynamic NTK scaling uses for a sequence of ``seq_len`` tokens.

    ``base * (factor * n / L - (factor - 1)) ** (d_model / (d_model - 2))`` with
    ``n = max(seq_len, L)`` (bloc97 and emozilla, 2023): the NTK-aware base of
    :func:`ntk_base` for the scale ``factor * n / L - (factor - 1)``, which is 1 up to the
    training length ``L`` and grows by ``factor`` for every further ``L`` tokens, with no upper
    limit. With ``factor = 1`` the scale is ``n / L``, the length ratio itself.
    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["dynamic"]`` with
    ``max_position_embeddings = L``. The rotary module there calls it again whenever a sequence
    is longer than any before (``dynamic_rope_update``) and keeps that base until a sequence
    shorter than ``L`` comes; this function has no such memory: it depends on ``seq_len`` alone.

    Parameters
    ----------
    d_model : int
        Head width; a positive even integer, at least 4.
    factor : float
        At least 1.
    original_length : int
        ``L``, the trained length (``max_position_embeddings`` in the config).
    seq_len : int
        The current sequence length (positions ``0 .. seq_len - 1``); a positive integer.
    base : float, default 10000

    Examples
    --------
    >>> import math
    >>> from posenc.scaling import dynamic_ntk_base, ntk_base
    >>> dynamic_ntk_base(128, 2.0, 4096, 2000)           # within the trained length
    10000.0
    >>> math.isclose(dynamic_ntk_base(128, 2.0, 4096, 2 * 4096), ntk_base(128, 3.0))
    True

    See the chapter "Where does it fall short, and what came next?"
    (docs/chapters/15-what-came-next.md), section "Dynamic NTK".
    """
    d_model = check_d_model(d_model)
    if d_model < 4:
        raise ValueError(f"d_model must be at least 4 for NTK-aware scaling, got {d_model}")
    factor = _check_real(factor, "factor", minimum=1.0)
    length = _check_length(original_length)
    n = max(_check_length(seq_len, "seq_len"), length)
    base = check_base(base)
    if n == length:
        return base
    try:
        scale = factor * n / length - (factor - 1.0)
    except OverflowError:                                 # seq_len past float64's range
        scale = math.inf
    at = f"seq_len {n}" if n < 10**20 else "this seq_len"
    return _scaled_base(base, scale, d_model, f"factor {factor:g} at {at}")


def dynamic_ntk_frequencies(d_model: int, factor: float, original_length: int, seq_len: int,
                            base: float = BASE) -> np.ndarray:
    """Frequencies under dynamic NTK scaling: the paper's formula with :func:`dynamic_ntk_base`.

    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["dynamic"]`` (its
    inverse frequencies), and ``LlamaRotaryEmbedding`` with ``rope_type: "dynamic"``, checked in
    ``tests/package/test_conformance.py``.

    Examples
    --------
    >>> from posenc import frequencies
    >>> from posenc.scaling import dynamic_ntk_frequencies
    >>> bool((dynamic_ntk_frequencies(64, 2.0, 2048, 1024) == frequencies(64)).all())
    True
    """
    return frequencies(d_model, dynamic_ntk_base(d_model, factor, original_length, seq_len, base))
