"""YaRN (Peng et al. 2023): its ramp, the frequencies it gives, and its attention factor.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import check_base, check_d_model
from ..encoding import BASE, frequencies
from ._args import _check_length, _check_real


RAMPS = ("code", "paper")
"""YaRN's two ramps: the released code's (linear in the pair index) and the paper's (in turns)."""


def _check_ramp(ramp) -> str:
    if not isinstance(ramp, str) or ramp not in RAMPS:
        allowed = ", ".join(repr(r) for r in RAMPS)
        raise ValueError(f"ramp must be one of {allowed}, got {ramp!r}")
    return ramp


def correction_pair(turns: float, d_model: int, original_length: int,
                    base: float = BASE) -> float:
    """The (fractional) pair index ``i`` whose pair makes ``turns`` turns in ``L`` positions.

    Solves ``L * omega_i / (2 pi) = turns`` for ``i``:
    ``i = d_model * ln(L / (2 pi turns)) / (2 ln base)``. YaRN's released code calls it
    ``find_correction_dim``; the ramp of :func:`yarn_ramp` with ``ramp="code"`` runs between
    ``floor`` of it at ``beta`` turns and ``ceil`` of it at ``alpha`` turns.
    Counterpart: ``find_correction_dim`` in jquesnelle/yarn and in
    ``transformers.modeling_rope_utils._compute_yarn_parameters`` (a nested function there),
    checked through :func:`yarn_frequencies` in ``tests/package/test_conformance.py``.

    Examples
    --------
    >>> from posenc.scaling import correction_pair
    >>> round(correction_pair(32.0, 128, 4096), 3), round(correction_pair(1.0, 128, 4096), 3)
    (20.944, 45.027)
    """
    d_model = check_d_model(d_model)
    length = _check_length(original_length)
    turns = _check_real(turns, "turns", minimum=0.0, strict=True)
    return d_model * float(np.log(length / (2 * np.pi * turns))) / (2 * float(np.log(check_base(base))))


def _check_truncate(truncate, ramp: str) -> bool:
    if not isinstance(truncate, (bool, np.bool_)):
        raise TypeError(f"truncate must be True or False, got {truncate!r}")
    if not truncate and ramp != "code":
        raise ValueError(f"truncate=False applies to ramp='code' only, got ramp={ramp!r}")
    return bool(truncate)


def yarn_ramp(d_model: int, original_length: int, base: float = BASE, *,
              alpha: float = 1.0, beta: float = 32.0, ramp: str = "code",
              truncate: bool = True) -> np.ndarray:
    """YaRN's ramp ``gamma`` per pair: 0 means interpolate, 1 means keep the frequency.

    ``r_i = L / lambda_i`` is how many turns pair ``i`` makes within the training length ``L``.
    Pairs with more than ``beta`` turns are kept, pairs with fewer than ``alpha`` turns are
    interpolated; the two ramps differ in between:

    * ``ramp="code"`` (default): what YaRN's released code (jquesnelle/yarn,
      ``_yarn_find_correction_range`` and ``_yarn_linear_ramp_mask``) and every model that
      loads it run, through ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"]``
      with ``truncate=True`` (Qwen2.5, DeepSeek-V3 and others). The ramp is linear in the
      *pair index* ``i``, from ``low = floor(correction_pair(beta))`` (``gamma = 1``) to
      ``high = ceil(correction_pair(alpha))`` (``gamma = 0``), with ``low >= 0`` and
      ``high <= d_model - 1`` as in that code. ``truncate=False`` skips ``floor`` and ``ceil``:
      the ramp then runs between the fractional pair indices themselves, as gpt-oss's
      configuration asks (``"truncate": false``; transformers reads the key, default true).
    * ``ramp="paper"``: Peng et al. (2023), "NTK-by-parts" interpolation: linear in the number of
      turns, ``gamma = clip((r - alpha) / (beta - alpha), 0, 1)``. Since ``r`` falls
      geometrically with ``i``, this ramp bends towards 0.

    Counterpart: the ``1 - linear_ramp_factor`` mask of
    ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"]``, checked through
    :func:`yarn_frequencies` in ``tests/package/test_conformance.py``.

    Parameters
    ----------
    d_model : int
        Width of the rotated vectors (the head width); a positive even integer.
    original_length : int
        ``L``, the context length the model was trained on (``original_max_position_embeddings``).
    base : float, default 10000
    alpha, beta : float, default 1 and 32
        Turn counts where the ramp ends and starts (``beta_slow`` and ``beta_fast`` in the code);
        ``0 < alpha < beta``.
    ramp : {"code", "paper"}, default "code"
    truncate : bool, default True
        Round the code ramp's ends to whole pairs (``floor``, ``ceil``); ``False`` only with
        ``ramp="code"``.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, values in ``[0, 1]``.

    Examples
    --------
    >>> from posenc.scaling import yarn_ramp
    >>> yarn_ramp(16, 2048)                             # fast pairs first
    array([1.  , 1.  , 1.  , 0.75, 0.5 , 0.25, 0.  , 0.  ])
    >>> yarn_ramp(16, 2048, ramp="paper").round(3)
    array([1.   , 1.   , 1.   , 0.3  , 0.073, 0.001, 0.   , 0.   ])
    >>> yarn_ramp(16, 2048, truncate=False).round(3)        # ends not rounded (gpt-oss)
    array([1.   , 1.   , 1.   , 0.673, 0.341, 0.009, 0.   , 0.   ])

    See the chapter "Where does it fall short, and what came next?"
    (docs/chapters/15-what-came-next.md), section "YaRN's two ramps".
    """
    d_model = check_d_model(d_model)
    length = _check_length(original_length)
    ramp = _check_ramp(ramp)
    truncate = _check_truncate(truncate, ramp)
    alpha = _check_real(alpha, "alpha", minimum=0.0, strict=True)
    beta = _check_real(beta, "beta", minimum=alpha, strict=True)
    if ramp == "paper":
        turns = length * frequencies(d_model, base) / (2 * np.pi)    # r_i = L / lambda_i
        return np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)
    low = correction_pair(beta, d_model, length, base)
    high = correction_pair(alpha, d_model, length, base)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d_model - 1)
    if low == high:
        high += 0.001                                   # the code's guard against 0 / 0
    i = np.arange(d_model // 2, dtype=np.float64)
    return 1.0 - np.clip((i - low) / (high - low), 0.0, 1.0)


def yarn_frequencies(d_model: int, factor: float, original_length: int, base: float = BASE, *,
                     alpha: float = 1.0, beta: float = 32.0, ramp: str = "code",
                     truncate: bool = True) -> np.ndarray:
    """Frequencies under YaRN's "NTK-by-parts": ``(1 - gamma) omega / s + gamma omega``.

    ``gamma`` is :func:`yarn_ramp` (``ramp="code"`` by default, the one models run;
    ``truncate=False`` for a configuration with ``"truncate": false``, such as gpt-oss's).
    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"]`` (its
    inverse frequencies), checked in ``tests/package/test_conformance.py``.

    Examples
    --------
    >>> from posenc import frequencies
    >>> from posenc.scaling import yarn_frequencies
    >>> omega = frequencies(16)
    >>> (yarn_frequencies(16, 4.0, 2048) / omega).round(3)    # fast pairs kept, slow ones / 4
    array([1.   , 1.   , 1.   , 0.812, 0.625, 0.438, 0.25 , 0.25 ])
    >>> (yarn_frequencies(16, 4.0, 2048, ramp="paper") / omega).round(3)
    array([1.   , 1.   , 1.   , 0.475, 0.305, 0.251, 0.25 , 0.25 ])
    >>> gpt_oss = yarn_frequencies(64, 32.0, 4096, 150000.0, truncate=False)
    >>> int((gpt_oss != yarn_frequencies(64, 32.0, 4096, 150000.0)).sum())  # of 32 pairs
    9
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    gamma = yarn_ramp(d_model, original_length, base, alpha=alpha, beta=beta, ramp=ramp,
                      truncate=truncate)
    omega = frequencies(d_model, base)
    return (1.0 - gamma) * omega / factor + gamma * omega


def _mscale(factor: float, mscale: float = 1.0) -> float:
    return 1.0 if factor <= 1.0 else 0.1 * mscale * float(np.log(factor)) + 1.0


def yarn_attention_factor(factor: float, *, mscale: float | None = None,
                          mscale_all_dim: float | None = None) -> float:
    """YaRN's ``sqrt(1 / t)``, multiplied into queries and keys (so logits get ``1 / t``).

    Without ``mscale``: the paper's ``sqrt(1 / t) = 0.1 ln(s) + 1``. DeepSeek's configs give
    ``mscale`` and ``mscale_all_dim``; the factor is then
    ``(0.1 mscale ln s + 1) / (0.1 mscale_all_dim ln s + 1)``, which is 1 when the two are equal
    (DeepSeek-V3 then multiplies its softmax scale by ``(0.1 mscale_all_dim ln s + 1) ** 2``
    in the attention layer instead). Counterpart: the second value returned by
    ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"]``. Unlike that code, which
    ignores ``mscale`` when ``mscale_all_dim`` is missing, posenc refuses one without the other.

    Parameters
    ----------
    factor : float
        ``s``, at least 1.
    mscale, mscale_all_dim : float, optional
        Both or neither; positive.

    Examples
    --------
    >>> from posenc.scaling import yarn_attention_factor
    >>> yarn_attention_factor(1.0), round(yarn_attention_factor(16.0), 4)
    (1.0, 1.2773)
    >>> yarn_attention_factor(40.0, mscale=1.0, mscale_all_dim=1.0)     # DeepSeek-V3
    1.0
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    if (mscale is None) != (mscale_all_dim is None):
        missing = "mscale_all_dim" if mscale_all_dim is None else "mscale"
        raise ValueError(f"mscale and mscale_all_dim go together: {missing} is missing")
    if mscale is None:
        return _mscale(factor)
    mscale = _check_real(mscale, "mscale", minimum=0.0, strict=True)
    mscale_all_dim = _check_real(mscale_all_dim, "mscale_all_dim", minimum=0.0, strict=True)
    return _mscale(factor, mscale) / _mscale(factor, mscale_all_dim)
