"""Stretching RoPE past its training length: changes of frequencies, and xPos's decay.

Each method below keeps the rotation of :func:`posenc.relative.rotate` and changes only the
frequencies ``omega_i`` it rotates by (or, for xPos, scales the rotated vectors). ``factor`` is
``s = L' / L``: the new context length over the one the model was trained on.

* Position Interpolation (Chen, Wong, Chen and Tian, 2023, arXiv:2306.15595):
  positions are squeezed, ``f'(x, m) = f(x, m L / L')``; for a rotation that is every
  ``omega_i`` divided by ``s``.
* "NTK-aware" scaling (bloc97, 2023; written out in Peng, Quesnelle, Fan and Shippole, "YaRN",
  2023, arXiv:2309.00071, as "NTK-aware" interpolation): the base grows to ``base * s ** (d / (d - 2))``, which
  leaves ``omega_0 = 1`` alone and divides the slowest frequency by exactly ``s``.
* YaRN's "NTK-by-parts" interpolation (same paper): pairs that turn more than ``beta`` times
  within the training length keep their frequency, pairs that turn less than ``alpha`` times
  are interpolated by ``s``, and a linear ramp in the number of turns joins the two; attention
  logits are scaled by ``1 / t`` with ``sqrt(1 / t) = 0.1 ln s + 1``. The released code rounds
  the ramp's two ends to whole pairs; ``truncate=False`` (gpt-oss's configuration) keeps them
  fractional.
* LongRoPE (Ding et al., "LongRoPE", 2024, arXiv:2402.13753; Phi-3): each ``omega_i`` divided
  by its own searched factor ``lambda_i``, from one list (``short_factor``) while the sequence
  fits the trained length ``L`` and from another (``long_factor``) past it; cosines and sines
  are multiplied by ``sqrt(1 + ln s / ln L)`` (Phi-3's code, as transformers runs it).
* xPos (Sun et al., "A Length-Extrapolatable Transformer", 2022, arXiv:2212.10554): pair ``i``
  of the query at ``n`` is also multiplied by ``zeta_i ** (n / B)`` and of the key at ``m`` by
  ``zeta_i ** (-m / B)``, so a score decays with ``n - m`` only;
  ``zeta_i = (2 i / d + gamma) / (1 + gamma)``, ``gamma = 0.4``, ``B = 512`` in the authors' code.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._checks import check_base, check_d_model, check_positions
from .encoding import BASE, frequencies


def _check_real(value, name: str, *, minimum: float, strict: bool = False) -> float:
    """Return ``value`` as a float if it is a finite real number >= (or >) ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    try:
        value = float(value)
    except OverflowError:                                 # an int past float64's range
        value = math.inf
    bad = value <= minimum if strict else value < minimum
    if not np.isfinite(value) or bad:
        relation = ">" if strict else ">="
        raise ValueError(f"{name} must be a finite number {relation} {minimum:g}, got {value}")
    return value


def position_interpolation(d_model: int, factor: float, base: float = BASE) -> np.ndarray:
    """Frequencies under Position Interpolation: every ``omega_i`` divided by ``factor``.

    Rotating position ``m`` by these is rotating position ``m / factor`` by the original ones,
    which is how Chen et al. (2023) state it: positions ``0 .. L'`` are squeezed into the
    trained range ``0 .. L``.
    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["linear"]``
    (``rope_type: "linear"``), checked in ``tests/test_conformance.py``.

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


def ntk_base(d_model: int, factor: float, base: float = BASE) -> float:
    """The "NTK-aware" base ``base * factor ** (d_model / (d_model - 2))``.

    Chosen so that the fastest pair keeps ``omega_0 = 1`` and the slowest pair,
    ``base ** (-(d_model - 2) / d_model)``, is divided by exactly ``factor``.
    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["dynamic"]`` with
    ``factor = 1`` at ``seq_len = factor * max_position_embeddings`` (static NTK-aware scaling
    has no ``rope_type`` of its own there), checked in ``tests/test_conformance.py``.

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


RAMPS = ("code", "paper")
"""YaRN's two ramps: the released code's (linear in the pair index) and the paper's (in turns)."""


def _check_length(value, name: str = "original_length") -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if value > 2**1023:                                   # past float64's range: np.log overflows
        raise ValueError(f"{name} must be at most 2**1023, got an integer of {len(str(value))} digits")
    return int(value)


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
    checked through :func:`yarn_frequencies` in ``tests/test_conformance.py``.

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
    :func:`yarn_frequencies` in ``tests/test_conformance.py``.

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
    inverse frequencies), and the released code's ``LlamaYaRNScaledRotaryEmbedding``, checked in ``tests/test_conformance.py``.

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
    (``seq_len > original_max_position_embeddings``), checked in ``tests/test_conformance.py``.

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
    inverse frequencies; Phi-3 and Phi-4-mini), checked in ``tests/test_conformance.py``.

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
    ``tests/test_conformance.py``.

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
    ``tests/test_conformance.py``, which follows ``apply_scaling`` in Meta's reference code
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
    return _scaled_base(base, scale, d_model, f"seq_len {n}" if n < 10**20 else "seq_len")


def dynamic_ntk_frequencies(d_model: int, factor: float, original_length: int, seq_len: int,
                            base: float = BASE) -> np.ndarray:
    """Frequencies under dynamic NTK scaling: the paper's formula with :func:`dynamic_ntk_base`.

    Counterpart: ``transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["dynamic"]`` (its
    inverse frequencies), and ``LlamaRotaryEmbedding`` with ``rope_type: "dynamic"``, checked in
    ``tests/test_conformance.py``.

    Examples
    --------
    >>> from posenc import frequencies
    >>> from posenc.scaling import dynamic_ntk_frequencies
    >>> bool((dynamic_ntk_frequencies(64, 2.0, 2048, 1024) == frequencies(64)).all())
    True
    """
    return frequencies(d_model, dynamic_ntk_base(d_model, factor, original_length, seq_len, base))


def xpos_zeta(d_model: int, gamma: float = 0.4) -> np.ndarray:
    """xPos's per-pair decay base ``zeta_i = (2 i / d_model + gamma) / (1 + gamma)``.

    Fast pairs decay most (``zeta_0 = gamma / (1 + gamma)``), slow ones barely (``zeta`` near 1).

    Counterpart: the ``scale`` buffer of ``XPOS`` in microsoft/torchscale
    (``(arange(0, d, 2) + 0.4 d) / (1.4 d)``), re-derived in ``tests/test_scaling.py``.

    Examples
    --------
    >>> from posenc.scaling import xpos_zeta
    >>> xpos_zeta(8).round(4)
    array([0.2857, 0.4643, 0.6429, 0.8214])
    """
    d_model = check_d_model(d_model)
    gamma = _check_real(gamma, "gamma", minimum=0.0, strict=True)
    i = np.arange(d_model // 2, dtype=np.float64)
    return (2.0 * i / d_model + gamma) / (1.0 + gamma)


def xpos_scales(pos, d_model: int, *, scale_base: float = 512.0, gamma: float = 0.4,
                key: bool = False) -> np.ndarray:
    """Per-pair factors ``zeta_i ** (pos / B)`` for queries, ``zeta_i ** (-pos / B)`` for keys.

    A query rotated and scaled at ``n`` against a key at ``m`` then carries the factor
    ``zeta_i ** ((n - m) / B)`` in pair ``i`` of its score: a decay with the offset alone.

    Counterpart: ``XPOS.forward`` in microsoft/torchscale (``downscale=True`` for keys), which
    numbers rows from ``min_pos = -(length + offset) // 2``: its factors are these times
    ``zeta_i ** (min_pos / B)`` (keys: divided by it), so its scores equal these; both
    re-derived in ``tests/test_docstring_claims_p8h.py``.

    Parameters
    ----------
    pos : int or array_like
        An int ``n`` for positions ``0 .. n - 1``, or a 1-D array of positions.
    d_model : int
        Width of the rotated vectors; a positive even integer.
    scale_base : float, default 512
        ``B`` in the authors' code (torchscale).
    gamma : float, default 0.4
    key : bool, default False
        ``True`` for the key side (negative exponent).

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), d_model // 2)``, one factor per pair; apply it to both
        coordinates of the pair.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.scaling import xpos_scales
    >>> q, k = xpos_scales([1024], 8), xpos_scales([512], 8, key=True)
    >>> bool(np.allclose(q * k, xpos_scales([512], 8)))       # offset 512 either way
    True
    """
    positions = check_positions(pos)
    scale_base = _check_real(scale_base, "scale_base", minimum=0.0, strict=True)
    sign = -1.0 if key else 1.0
    return xpos_zeta(d_model, gamma) ** (sign * positions[:, None] / scale_base)
