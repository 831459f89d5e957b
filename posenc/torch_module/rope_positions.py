"""Where RoPE's tokens are: position ids checked (a mask refused), or counted from an offset.

:class:`~posenc.torch_module.rotary.RotaryEmbedding` takes its positions from here, and
``posenc.torch_module.rotary`` re-exports :func:`check_position_ids`. See the chapter "How do
positions behave in a running model?" (docs/chapters/16-positions-in-a-running-model.md).
"""

from __future__ import annotations

import numpy as np
import torch

from .checks import PositionHints, check_position_tensor
from .rotate import _is_int


def check_position_ids(positions, batch: int, seq: int, device) -> torch.Tensor:
    """``positions`` as a ``(batch or 1, seq)`` integer tensor on ``device``; refuses a mask.

    A bool tensor is an attention mask passed by mistake, and so is an integer one that
    :func:`posenc.torch_module.checks.looks_like_attention_mask` (some row all 1s, or
    ``0, 0, ..., 1, 1``). Other 0/1 position ids pass, e.g. ``[0, 0, 0, 1]`` for a two-token
    prompt left-padded to 4, or packed two-token documents ``[0, 1, 0, 1]``; an attention mask
    of that shape cannot be told from them.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.rotary import check_position_ids
    >>> check_position_ids(torch.tensor([3, 4]), batch=2, seq=2, device="cpu")
    tensor([[3, 4]])
    >>> check_position_ids(torch.tensor([[0, 0, 0, 1], [0, 0, 0, 0]]), 2, 4, "cpu").tolist()
    [[0, 0, 0, 1], [0, 0, 0, 0]]
    """
    # Each size compared with ``!=`` alone: under torch.compile the sizes are symbolic, and
    # ``size in (1, batch)`` is False for two symbols of equal value (issue 31).
    return check_position_tensor(
        positions, _HINTS, device=device, seq=seq, flat_to_row=True,
        bad_shape=lambda p: p.dim() != 2 or p.shape[1] != seq or (
            p.shape[0] != 1 and p.shape[0] != batch),
        shape_error=lambda p: f"positions must have shape (batch, seq) = ({batch}, {seq}), (1, "
                              f"{seq}) or ({seq},), got {tuple(p.shape)}")


_HINTS = PositionHints(
    first=" (for a first position use offset=)",
    bool_tensor="positions must be integer position ids, got a bool tensor: an attention mask? "
                "Pass position ids (e.g. (mask.long().cumsum(-1) - 1).clamp(min=0)), or "
                "nothing for 0 .. seq - 1",
    not_mask="position ids. Pass position ids (e.g. (mask.long().cumsum(-1) - 1)"
             ".clamp(min=0)), or nothing for 0 .. seq - 1",
    dtypes=(torch.int64, torch.int32, torch.int16, torch.int8))


def positions_of(q: torch.Tensor, heads, seq, positions=None, offset=0,
                 swap_hint=lambda: "") -> torch.Tensor:
    """The integer positions of the ``seq`` tokens of ``q`` (``heads`` on its heads axis),
    ``(batch or 1, seq)``: ``positions`` checked, or ``offset + 0 .. seq - 1``; the body of
    :meth:`RotaryEmbedding.positions_for`, whose ``swap_hint`` ends an error that may mean
    ``q`` is in the other axes.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.rope_positions import positions_of
    >>> positions_of(torch.zeros(2, 1, 3, 2), heads=1, seq=3, offset=torch.tensor([0, 5]))
    tensor([[0, 1, 2],
            [5, 6, 7]])
    """
    if positions is not None:
        if not (_is_int(offset) and offset == 0):
            raise ValueError("pass positions or offset, not both (add the offset to the "
                             "positions)")
        if isinstance(positions, torch.Tensor) and positions.dim() in (1, 2) and \
                positions.shape[-1] != seq and positions.shape[-1] == heads:
            raise ValueError(f"positions are for {positions.shape[-1]} tokens, q has "
                             f"{seq} on its seq axis and {heads} on its heads axis"
                             f"{swap_hint()}")
        return check_position_ids(positions, q.shape[0], seq, q.device)
    base = torch.arange(seq, device=q.device)
    # a NumPy integer: eager sees np.integer, torch.compile a 0-d ndarray (checked below as
    # a tensor: dynamo cannot read an ndarray's dtype)
    if isinstance(offset, np.integer):
        offset = int(offset)
    elif isinstance(offset, np.ndarray):
        offset = torch.as_tensor(offset)
    if _is_int(offset):
        if offset < 0:
            raise ValueError(f"offset must be >= 0 (tokens already in the cache), got "
                             f"{offset}")
        return (base + offset).unsqueeze(0)
    if not isinstance(offset, torch.Tensor) or offset.dtype.is_floating_point or \
            offset.dtype == torch.bool or offset.dim() > 1:
        got = (f"a {offset.dtype} tensor of shape {tuple(offset.shape)}"
               if isinstance(offset, torch.Tensor) else type(offset).__name__)
        raise TypeError(f"offset must be an int, a 0-d integer tensor or one per row "
                        f"(batch,), got {got}")
    offset = offset.to(q.device)
    if not torch.compiler.is_compiling() and offset.numel() and int(offset.min()) < 0:
        raise ValueError(f"offset must be >= 0 (tokens already in the cache), got "
                         f"{offset.tolist()}")
    if offset.dim() == 1:
        if offset.shape[0] != q.shape[0]:
            raise ValueError(f"offset must have shape (batch,) = ({q.shape[0]},), got "
                             f"{tuple(offset.shape)}")
        return offset.unsqueeze(1) + base
    return (base + offset).unsqueeze(0)
