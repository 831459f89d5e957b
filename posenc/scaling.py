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
  logits are scaled by ``1 / t`` with ``sqrt(1 / t) = 0.1 ln s + 1``.
* xPos (Sun et al., "A Length-Extrapolatable Transformer", 2022, arXiv:2212.10554): pair ``i``
  of the query at ``n`` is also multiplied by ``zeta_i ** (n / B)`` and of the key at ``m`` by
  ``zeta_i ** (-m / B)``, so a score decays with ``n - m`` only;
  ``zeta_i = (2 i / d + gamma) / (1 + gamma)``, ``gamma = 0.4``, ``B = 512`` in the authors' code.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_base, check_d_model, check_positions
from .encoding import BASE, frequencies


def _check_real(value, name: str, *, minimum: float, strict: bool = False) -> float:
    """Return ``value`` as a float if it is a finite real number >= (or >) ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
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
    >>> position_interpolation(8, 4.0)
    array([0.25   , 0.025  , 0.0025 , 0.00025])
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    return frequencies(d_model, base) / factor


def ntk_base(d_model: int, factor: float, base: float = BASE) -> float:
    """The "NTK-aware" base ``base * factor ** (d_model / (d_model - 2))``.

    Chosen so that the fastest pair keeps ``omega_0 = 1`` and the slowest pair,
    ``base ** (-(d_model - 2) / d_model)``, is divided by exactly ``factor``.

    Parameters
    ----------
    d_model : int
        Width of the rotated vectors; a positive even integer, at least 4.
    factor : float
        ``s = L' / L``, at least 1.
    base : float, default 10000

    Examples
    --------
    >>> round(ntk_base(128, 4.0))                  # Llama's head width 128, context x 4
    40890
    """
    d_model = check_d_model(d_model)
    if d_model < 4:
        raise ValueError(f"d_model must be at least 4 for NTK-aware scaling, got {d_model}")
    factor = _check_real(factor, "factor", minimum=1.0)
    return check_base(base) * factor ** (d_model / (d_model - 2))


def ntk_frequencies(d_model: int, factor: float, base: float = BASE) -> np.ndarray:
    """Frequencies under "NTK-aware" scaling: the paper's formula with :func:`ntk_base`.

    Examples
    --------
    >>> omega, scaled = frequencies(128), ntk_frequencies(128, 4.0)
    >>> float(scaled[0]), round(float(omega[-1] / scaled[-1]), 12)
    (1.0, 4.0)
    """
    return frequencies(d_model, ntk_base(d_model, factor, base))


def yarn_ramp(d_model: int, original_length: int, base: float = BASE, *,
              alpha: float = 1.0, beta: float = 32.0) -> np.ndarray:
    """YaRN's ramp ``gamma(r)`` per pair: 0 means interpolate, 1 means keep the frequency.

    ``r_i = L / lambda_i`` is how many turns pair ``i`` makes within the training length ``L``;
    ``gamma = 0`` below ``alpha`` turns, 1 above ``beta``, linear in ``r`` between (Peng et al.,
    2023, "NTK-by-parts", with ``alpha = 1`` and ``beta = 32`` for Llama).

    Parameters
    ----------
    d_model : int
        Width of the rotated vectors; a positive even integer.
    original_length : int
        ``L``, the context length the model was trained on.
    base : float, default 10000
    alpha, beta : float, default 1 and 32
        Turn counts where the ramp starts and ends; ``0 <= alpha < beta``.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, values in ``[0, 1]``.

    Examples
    --------
    >>> yarn_ramp(16, 2048).round(3)             # fast pairs first
    array([1.   , 1.   , 1.   , 0.3  , 0.073, 0.001, 0.   , 0.   ])
    """
    if isinstance(original_length, bool) or not isinstance(original_length, numbers.Integral) \
            or original_length <= 0:
        raise ValueError(f"original_length must be a positive integer, got {original_length!r}")
    alpha = _check_real(alpha, "alpha", minimum=0.0)
    beta = _check_real(beta, "beta", minimum=alpha, strict=True)
    turns = int(original_length) * frequencies(d_model, base) / (2 * np.pi)    # r_i = L / lambda_i
    return np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)


def yarn_frequencies(d_model: int, factor: float, original_length: int, base: float = BASE, *,
                     alpha: float = 1.0, beta: float = 32.0) -> np.ndarray:
    """Frequencies under YaRN's "NTK-by-parts": ``(1 - gamma) omega / s + gamma omega``.

    Examples
    --------
    >>> omega = frequencies(16)
    >>> (yarn_frequencies(16, 4.0, 2048) / omega).round(3)    # fast pairs kept, slow ones / 4
    array([1.   , 1.   , 1.   , 0.475, 0.305, 0.251, 0.25 , 0.25 ])
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    gamma = yarn_ramp(d_model, original_length, base, alpha=alpha, beta=beta)
    omega = frequencies(d_model, base)
    return (1.0 - gamma) * omega / factor + gamma * omega


def yarn_attention_factor(factor: float) -> float:
    """YaRN's ``sqrt(1 / t) = 0.1 ln(s) + 1``, applied to queries and keys (so logits get ``1 / t``).

    Examples
    --------
    >>> yarn_attention_factor(1.0), round(yarn_attention_factor(16.0), 4)
    (1.0, 1.2773)
    """
    factor = _check_real(factor, "factor", minimum=1.0)
    return 0.1 * float(np.log(factor)) + 1.0


def xpos_zeta(d_model: int, gamma: float = 0.4) -> np.ndarray:
    """xPos's per-pair decay base ``zeta_i = (2 i / d_model + gamma) / (1 + gamma)``.

    Fast pairs decay most (``zeta_0 = gamma / (1 + gamma)``), slow ones barely (``zeta`` near 1).

    Examples
    --------
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
    >>> q, k = xpos_scales([1024], 8), xpos_scales([512], 8, key=True)
    >>> bool(np.allclose(q * k, xpos_scales([512], 8)))       # offset 512 either way
    True
    """
    positions = check_positions(pos)
    scale_base = _check_real(scale_base, "scale_base", minimum=0.0, strict=True)
    sign = -1.0 if key else 1.0
    return xpos_zeta(d_model, gamma) ** (sign * positions[:, None] / scale_base)
