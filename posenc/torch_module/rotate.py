"""RoPE's functions without a module: the cos and sin of the angles ``pos * omega_i``, laid
out for a pairing, and the rotation they give (:func:`apply_rotary`).

:class:`~posenc.torch_module.rotary.RotaryEmbedding` is built on them, and
``posenc.torch_module.rotary`` re-exports them. See the chapter "How do positions behave in a
running model?" (docs/chapters/16-positions-in-a-running-model.md).
"""

from __future__ import annotations

import numbers

import numpy as np
import torch

PAIRINGS = {
    "halves": "halves", "neox": "halves", "gpt-neox": "halves", "llama": "halves",
    "adjacent": "adjacent", "gptj": "adjacent", "gpt-j": "adjacent",
}
"""Accepted ``pairing`` names: ``"halves"`` pairs coordinate ``i`` with ``i + r/2`` (GPT-NeoX,
Llama, ``rotate_half``); ``"adjacent"`` pairs ``2i`` with ``2i + 1`` (GPT-J, the paper)."""

_FLOAT = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _is_int(value) -> bool:
    """An int, NumPy integer or, under torch.compile, a symbolic int; not a bool."""
    return isinstance(value, (numbers.Integral, torch.SymInt)) and \
        not isinstance(value, (bool, np.bool_))


def check_pairing(pairing) -> str:
    """Return the canonical name (``"halves"`` or ``"adjacent"``) of ``pairing``.

    Examples
    --------
    >>> from posenc.torch_module.rotary import check_pairing
    >>> check_pairing("llama"), check_pairing("GPT-J")
    ('halves', 'adjacent')
    """
    name = pairing.lower() if isinstance(pairing, str) else None
    if name not in PAIRINGS:
        raise ValueError(f"pairing must be one of {sorted(PAIRINGS)}, got {pairing!r}")
    return PAIRINGS[name]


def rope_cos_sin(positions: torch.Tensor, omega: torch.Tensor, *,
                 attention_factor: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """``attention_factor * cos(pos * omega_i)`` and ``... sin(...)``, float32, one per pair:
    shape ``positions.shape + (len(omega),)``.

    The angles are taken in float64 (``positions`` and ``omega`` are cast), so an angle at
    position ``10**6`` is still exact to about ``10**-10``; only the cosine and sine are rounded
    to float32.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.rotary import rope_cos_sin
    >>> cos, sin = rope_cos_sin(torch.tensor([0, 1]), torch.tensor([1.0, 0.01]))
    >>> cos.shape, sin[1]                       # sin 1, sin 0.01
    (torch.Size([2, 2]), tensor([0.8415, 0.0100]))
    """
    angles = positions.to(torch.float64).unsqueeze(-1) * omega.to(positions.device,
                                                                  torch.float64)
    cos, sin = torch.cos(angles), torch.sin(angles)
    if attention_factor != 1.0:
        cos, sin = cos * attention_factor, sin * attention_factor
    return cos.to(torch.float32), sin.to(torch.float32)


def expand_cos_sin(cos: torch.Tensor, sin: torch.Tensor, pairing: str = "halves"
                   ) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-pair cos and sin (``(..., r / 2)``) laid out over the ``r`` rotated coordinates for
    ``pairing``: ``cos`` for both coordinates of a pair, and ``sin`` negated on the first
    (``[-sin | sin]`` for halves, ``-s0, s0, -s1, s1, ...`` for adjacent), so that
    ``x * cos + swap(x) * sin`` rotates.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.rotary import expand_cos_sin
    >>> expand_cos_sin(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), "adjacent")[1]
    tensor([-3.,  3., -4.,  4.])
    """
    if pairing == "halves":
        return torch.cat([cos, cos], dim=-1), torch.cat([-sin, sin], dim=-1)
    return (cos.repeat_interleave(2, dim=-1),
            torch.stack([-sin, sin], dim=-1).flatten(-2))


def _check_cos_sin(x, cos, sin, rotary_dim) -> None:
    """The shape errors of :func:`apply_rotary`, each naming the argument."""
    if not isinstance(x, torch.Tensor) or x.dtype not in _FLOAT or x.dim() != 4:
        got = (f"shape {tuple(x.shape)}, {x.dtype}" if isinstance(x, torch.Tensor)
               else type(x).__name__)
        raise ValueError(f"x must be a floating-point tensor of shape (batch, heads, seq, "
                         f"head_dim), got {got}")
    for name, t in (("cos", cos), ("sin", sin)):
        if not isinstance(t, torch.Tensor) or not 2 <= t.dim() <= 4:
            got = f"shape {tuple(t.shape)}" if isinstance(t, torch.Tensor) else type(t).__name__
            raise ValueError(f"{name} must be a tensor of shape (seq, r/2), (batch or 1, seq, "
                             f"r/2) or (batch or 1, 1, seq, r/2), got {got}")
    if cos.shape != sin.shape:
        raise ValueError(f"cos and sin must have the same shape, got {tuple(cos.shape)} and "
                         f"{tuple(sin.shape)}")
    width, head_dim = 2 * cos.shape[-1], x.shape[-1]
    if rotary_dim is None and width != head_dim:
        hint = (f": transformers' [cos | cos] layout? pass cos[..., :{head_dim // 2}] and "
                f"sin[..., :{head_dim // 2}]" if cos.shape[-1] == head_dim else
                f": for partial rotary pass rotary_dim={width}" if width < head_dim else "")
        raise ValueError(f"cos and sin hold {cos.shape[-1]} pairs ({width} coordinates), x's "
                         f"head_dim is {head_dim}{hint}")
    if rotary_dim is not None and (not _is_int(rotary_dim) or rotary_dim != width or
                                   width > head_dim):
        raise ValueError(f"rotary_dim must be 2 * cos.shape[-1] = {width} (<= head_dim="
                         f"{head_dim}), got {rotary_dim!r}")
    if cos.shape[-2] != x.shape[-2]:
        hint = (" (x is (batch, seq, heads, head_dim)? transpose(1, 2))"
                if cos.shape[-2] == x.shape[1] else "")
        raise ValueError(f"cos and sin are for {cos.shape[-2]} tokens, x has {x.shape[-2]} "
                         f"(axis 2 of (batch, heads, seq, head_dim)){hint}")
    if cos.dim() >= 3 and cos.shape[0] != 1 and cos.shape[0] != x.shape[0]:
        raise ValueError(f"cos and sin have batch {cos.shape[0]}, x has {x.shape[0]}: give one "
                         f"row per batch row, or 1 for all")


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, pairing: str) -> torch.Tensor:
    """``x * cos + swap(x) * sin`` on the first ``r = cos.shape[-1]`` coordinates (laid out by
    :func:`expand_cos_sin`, in ``x.dtype``, broadcastable to ``x``)."""
    r = cos.shape[-1]
    rot = x[..., :r] if r < x.shape[-1] else x
    if pairing == "halves":
        half = r // 2
        swapped = torch.cat([rot[..., half:], rot[..., :half]], dim=-1)
    else:
        swapped = rot.unflatten(-1, (r // 2, 2)).flip(-1).flatten(-2)
    out = rot * cos + swapped * sin
    if r < x.shape[-1]:
        out = torch.cat([out, x[..., r:]], dim=-1)
    return out


def apply_rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, *,
                 pairing: str = "halves", rotary_dim: int | None = None) -> torch.Tensor:
    """Rotate the first ``r = 2 * cos.shape[-1]`` coordinates of ``x``, pair ``i`` by the angle
    behind ``cos[..., i]`` and ``sin[..., i]``; coordinates past ``r`` (partial rotary, only
    with ``rotary_dim=r`` given) are left as they are.

    ``x``: ``(batch, heads, seq, head_dim)``; ``cos``, ``sin``: ``(batch or 1, seq, r / 2)`` or
    ``(seq, r / 2)``, one entry per pair (from :func:`rope_cos_sin`; transformers' cos holds
    ``[cos | cos]``, ``r`` entries: pass its first half), cast to ``x.dtype`` before the
    products, as transformers' rotary modules cast theirs. Pair ``(a, b)`` becomes
    ``(a cos + b (-sin), b cos + a sin)``: the products and sums ``apply_rotary_pos_emb`` makes
    (``rotate_half`` only negates), so in any dtype the result is the same bits for the same
    cos and sin.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.rotary import apply_rotary, rope_cos_sin
    >>> cos, sin = rope_cos_sin(torch.tensor([1]), torch.tensor([1.0]))
    >>> x = torch.tensor([[[[1.0, 0.0, 5.0, 6.0]]]])
    >>> apply_rotary(x, cos, sin, pairing="adjacent", rotary_dim=2)
    tensor([[[[0.5403, 0.8415, 5.0000, 6.0000]]]])
    >>> apply_rotary(x, cos, sin)
    Traceback (most recent call last):
    ...
    ValueError: cos and sin hold 1 pairs (2 coordinates), x's head_dim is 4: for partial rotary pass rotary_dim=2
    """
    pairing = check_pairing(pairing)
    _check_cos_sin(x, cos, sin, rotary_dim)
    if cos.dim() == 3:
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)              # over the heads
    cos, sin = expand_cos_sin(cos.to(x.dtype), sin.to(x.dtype), pairing)
    return _rotate(x, cos, sin, pairing)
