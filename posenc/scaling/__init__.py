"""Stretching RoPE past its training length: changes of frequencies, and xPos's decay.

Each method below keeps the rotation of :func:`posenc.relative.rotate` and changes the
frequencies ``omega_i`` it rotates by, scales the rotated vectors (xPos), or both (YaRN's and
LongRoPE's attention factors). ``factor`` is
``s = L' / L``: the new context length over the one the model was trained on.

* Position Interpolation (Chen, Wong, Chen and Tian, 2023, arXiv:2306.15595):
  positions are squeezed, ``f'(x, m) = f(x, m L / L')``; for a rotation that is every
  ``omega_i`` divided by ``s``.
* "NTK-aware" scaling (bloc97, 2023; written out in Peng, Quesnelle, Fan and Shippole, "YaRN",
  2023, arXiv:2309.00071, as "NTK-aware" interpolation): the base grows to ``base * s ** (d / (d - 2))``, which
  leaves ``omega_0 = 1`` alone and divides the slowest frequency by exactly ``s``.
* YaRN's "NTK-by-parts" interpolation (same paper): pairs that turn more than ``beta`` times
  within the training length keep their frequency, pairs that turn less than ``alpha`` times
  are interpolated by ``s``, and a ramp joins the two: linear in the number of turns in the
  paper, in the pair index in the released code, which rounds its ends to whole pairs
  (``truncate=False``, gpt-oss's configuration, keeps them fractional); attention logits are
  scaled by ``1 / t`` with ``sqrt(1 / t) = 0.1 ln s + 1``.
* LongRoPE (Ding et al., "LongRoPE", 2024, arXiv:2402.13753; Phi-3): each ``omega_i`` divided
  by its own searched factor ``lambda_i``, from one list (``short_factor``) while the sequence
  fits the trained length ``L`` and from another (``long_factor``) past it; cosines and sines
  are multiplied by ``sqrt(1 + ln s / ln L)`` (Phi-3's code, as transformers runs it).
* xPos (Sun et al., "A Length-Extrapolatable Transformer", 2022, arXiv:2212.10554): pair ``i``
  of the query at ``n`` is also multiplied by ``zeta_i ** (n / B)`` and of the key at ``m`` by
  ``zeta_i ** (-m / B)``, so a score decays with ``n - m`` only;
  ``zeta_i = (2 i / d + gamma) / (1 + gamma)``, ``gamma = 0.4``, ``B = 512`` in the authors' code.

Each method has its own module (``interpolation``, ``ntk``, ``yarn``, ``longrope``,
``llama3``, ``dynamic_ntk``, ``xpos``); ``posenc.scaling`` re-exports every name they define.

See the chapter "Where does it fall short, and what came next?"
(docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

from .._checks import check_base, check_d_model, check_positions  # noqa: F401 (re-exported)
from ..encoding import BASE, frequencies  # noqa: F401 (re-exported)
from ._args import _check_length, _check_real  # noqa: F401 (re-exported)
from .dynamic_ntk import dynamic_ntk_base, dynamic_ntk_frequencies  # noqa: F401 (re-exported)
from .interpolation import position_interpolation  # noqa: F401 (re-exported)
from .llama3 import llama3_frequencies  # noqa: F401 (re-exported)
from .longrope import (_check_factor_list, longrope_attention_factor,  # noqa: F401 (re-exported)
                       longrope_frequencies, longrope_uses_long)
from .ntk import _scaled_base, ntk_base, ntk_frequencies  # noqa: F401 (re-exported)
from .xpos import xpos_scales, xpos_zeta  # noqa: F401 (re-exported)
from .yarn import (RAMPS, _check_ramp, _check_truncate, _mscale,  # noqa: F401 (re-exported)
                   correction_pair, yarn_attention_factor, yarn_frequencies, yarn_ramp)
