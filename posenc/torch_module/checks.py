"""Argument checks shared by the PyTorch modules; each error names the argument."""

from __future__ import annotations

import numbers
from typing import Callable, NamedTuple

import numpy as np
import torch

FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def check_max_len(max_len) -> int:
    """Return ``max_len`` as an int; it must be a positive integer.

    Examples
    --------
    >>> from posenc.torch_module.checks import check_max_len
    >>> check_max_len(512)
    512
    """
    if isinstance(max_len, (bool, np.bool_)) or not isinstance(max_len, numbers.Integral):
        hint = ""
        if isinstance(max_len, numbers.Real) and 0 < float(max_len) < 1:
            hint = (f"; {max_len!r} looks like the dropout of the PyTorch tutorial's "
                    f"PositionalEncoding(d_model, dropout): here dropout is keyword-only, "
                    f"pass dropout={max_len!r}")
        raise TypeError(f"max_len must be a positive integer, got {max_len!r}{hint}")
    if max_len <= 0:
        raise ValueError(f"max_len must be a positive integer, got {max_len}")
    return int(max_len)


def check_dropout(dropout) -> float:
    """Return ``dropout`` as a float in [0, 1).

    Examples
    --------
    >>> from posenc.torch_module.checks import check_dropout
    >>> check_dropout(0.1)
    0.1
    """
    if isinstance(dropout, bool) or not isinstance(dropout, numbers.Real):
        raise TypeError(f"dropout must be a probability in [0, 1), got {dropout!r}")
    if not 0.0 <= float(dropout) < 1.0:
        raise ValueError(f"dropout must be a probability in [0, 1), got {dropout}")
    return float(dropout)


def check_start(start) -> int:
    """Return ``start`` (the position of the first token) as a non-negative int.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.torch_module.checks import check_start
    >>> check_start(np.int64(7))
    7
    """
    if isinstance(start, (bool, np.bool_)) or not isinstance(start, numbers.Integral):
        raise TypeError(f"start must be a non-negative int (the position of x[:, 0]), got {start!r}")
    if start < 0:
        raise ValueError(f"start must be >= 0, got {start}")
    return int(start)


def check_input(x, d_model: int, max_len: int, start) -> int:
    """Validate a batch-first input and return ``start`` as an int.

    ``x`` must be a floating-point tensor of shape ``(batch, seq, d_model)`` and the positions
    ``start .. start + seq - 1`` must exist in a table of ``max_len`` rows.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.checks import check_input
    >>> check_input(torch.zeros(2, 5, 8), d_model=8, max_len=16, start=3)
    3
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor of shape (batch, seq, d_model), got {type(x).__name__}")
    if x.dtype not in FLOAT_DTYPES:
        allowed = ", ".join(str(d).removeprefix("torch.") for d in FLOAT_DTYPES)
        raise TypeError(
            f"x must be floating point ({allowed}), got {x.dtype}; positions are added to token "
            "embeddings, so pass the embedded tokens, not the token ids"
        )
    if x.dim() != 3:
        hint = "; for one sequence use x.unsqueeze(0)" if x.dim() == 2 else ""
        raise ValueError(f"x must have shape (batch, seq, d_model), got shape {tuple(x.shape)}{hint}")
    if x.shape[-1] != d_model:
        hint = ("is x transposed? d_model must be the last axis" if d_model in tuple(x.shape[:2])
                else f"the last axis of x is its embedding width, {x.shape[-1]}: build the "
                     f"module with d_model={x.shape[-1]}")
        raise ValueError(
            f"x must have shape (batch, seq, d_model={d_model}), got shape {tuple(x.shape)}; "
            f"{hint}")
    start = check_start(start)
    end = start + x.shape[1]
    if end > max_len:
        raise ValueError(
            f"positions {start}..{end - 1} do not fit a table of max_len={max_len} rows "
            f"(positions 0..{max_len - 1}); build the module with max_len >= {end}"
        )
    return start


class NotScriptable:
    """Mixin: ``torch.jit.script(module)`` fails at once with a message naming what works.

    TorchScript cannot compile their forward methods (keyword-only arguments with defaults, or
    a module-level tuple), and PyTorch deprecated it for ``torch.compile`` and ``torch.export``.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module import SinusoidalPositionalEncoding
    >>> torch.jit.script(SinusoidalPositionalEncoding(8, 16))
    Traceback (most recent call last):
    ...
    TypeError: SinusoidalPositionalEncoding does not support torch.jit.script (TorchScript); use torch.compile(module) to compile it, or torch.export.export(module, (x,)) for a program that runs without Python
    """

    def __prepare_scriptable__(self):
        raise TypeError(
            f"{type(self).__name__} does not support torch.jit.script (TorchScript); use "
            "torch.compile(module) to compile it, or torch.export.export(module, (x,)) for a "
            "program that runs without Python")


def looks_like_attention_mask(positions: torch.Tensor, dim: int = -1) -> bool:
    """Whether integer ``positions`` (seq along ``dim``) can only be an attention mask.

    ``True`` when every value is 0 or 1, there are at least two tokens, and some row is all 1s
    or runs ``0, 0, ..., 1, 1`` (two or more 0s, then two or more 1s): the mask of a batch with
    an unpadded row, or of a row left-padded by two or more tokens. No padding or packing recipe
    gives those position ids: the tokens of one sequence are numbered ``0, 1, 2, ...``, and
    transformers' ``generate`` (5.24.0) sets the padding's to 0, so a left-padded row reads
    ``0, 0, 0, 1, ...``. Other 0/1 tensors (``[0, 0, 0, 1]`` from a two-token prompt padded to
    4, packed two-token documents ``[0, 1, 0, 1]``) are valid position ids and pass; an
    attention mask of that shape cannot be told from them.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.checks import looks_like_attention_mask
    >>> looks_like_attention_mask(torch.tensor([[0, 0, 1, 1], [1, 1, 1, 1]]))   # a mask
    True
    >>> looks_like_attention_mask(torch.tensor([[0, 0, 0, 1], [0, 0, 0, 0]]))   # positions
    False
    >>> looks_like_attention_mask(torch.tensor([[0, 1, 0, 1, 0, 1]]))           # packed
    False
    """
    if positions.numel() == 0 or positions.shape[dim] < 2 or \
            int(positions.min()) < 0 or int(positions.max()) > 1:
        return False
    rows = positions.movedim(dim, -1).reshape(-1, positions.shape[dim])
    if bool((rows == 1).all(dim=-1).any()):
        return True
    if rows.shape[-1] < 4:
        return False
    rising = (rows[:, 1:] >= rows[:, :-1]).all(dim=-1)
    pads_then_tokens = rising & (rows[:, 1] == 0) & (rows[:, -2] == 1)
    return bool(pads_then_tokens.any())


_INT_NAMES = {torch.int64: "torch.long", torch.int32: "torch.int32", torch.int16: "torch.int16",
              torch.int8: "torch.int8"}


class PositionHints(NamedTuple):
    """One module's words in :func:`check_position_tensor`'s errors, and its integer dtypes.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.checks import PositionHints
    >>> hints = PositionHints(first=" (use start=)", bool_tensor="a bool tensor",
    ...                       not_mask="positions. Pass a mask", dtypes=(torch.int64,))
    >>> hints.dtypes
    (torch.int64,)
    """

    first: str          # after "got int": where a scalar first position goes instead
    bool_tensor: str    # the error for a bool tensor (a mask passed as positions)
    not_mask: str       # the mask error's end: "not <what positions are>. Pass <what instead>"
    dtypes: tuple       # the integer dtypes accepted


def check_position_tensor(positions, hints: PositionHints, *, device, seq, bad_shape: Callable,
                          shape_error: Callable, seq_dim=-1, flat_to_row: bool = False,
                          in_graph: Callable | None = None,
                          range_error: Callable | None = None) -> torch.Tensor:
    """``positions`` checked and moved to ``device``: an integer tensor of a shape
    ``bad_shape`` accepts, not an attention mask (:func:`looks_like_attention_mask` along
    ``seq_dim``, an int or a function of the positions), within range (``range_error``, or
    ``in_graph`` under torch.compile). The rotary and sinusoidal modules' one positions check,
    each module's words passed in ``hints``; ``flat_to_row`` makes ``(seq,)`` ``(1, seq)``.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.checks import PositionHints, check_position_tensor
    >>> hints = PositionHints(" (use start=)", "a bool tensor", "positions. Pass a mask",
    ...                       (torch.int64,))
    >>> check_position_tensor(torch.tensor([2, 3]), hints, device="cpu", seq=2, flat_to_row=True,
    ...                       bad_shape=lambda p: p.shape[-1] != 2, shape_error=str)
    tensor([[2, 3]])
    >>> check_position_tensor(torch.tensor([1, 1]), hints, device="cpu", seq=2,
    ...                       bad_shape=lambda p: False, shape_error=str)
    Traceback (most recent call last):
    ...
    ValueError: positions hold only 0 and 1 over 2 tokens: this looks like an attention mask (a row of 1s, or 0, 0, ..., 1, 1), not positions. Pass a mask
    """
    if not isinstance(positions, torch.Tensor):
        integer = isinstance(positions, (numbers.Integral, torch.SymInt)) and \
            not isinstance(positions, (bool, np.bool_))
        raise TypeError(f"positions must be an integer torch.Tensor, got "
                        f"{type(positions).__name__}{hints.first if integer else ''}")
    if positions.dtype == torch.bool:
        raise TypeError(hints.bool_tensor)
    if positions.dtype not in hints.dtypes:
        names = [_INT_NAMES.get(d, str(d)) for d in hints.dtypes]
        accepted = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise TypeError(f"positions must hold integers ({accepted}), got {positions.dtype}")
    if flat_to_row and positions.dim() == 1:
        positions = positions.unsqueeze(0)
    if bad_shape(positions):
        raise ValueError(shape_error(positions))
    dim = seq_dim(positions) if callable(seq_dim) else seq_dim
    positions = positions.to(device)
    # is_compiling first: a test of the symbolic length would add a guard, and torch.export
    # would refuse a dynamic seq that may be 2 ("Not all values of S ... satisfy 3 <= S")
    if torch.compiler.is_compiling():
        return positions if in_graph is None else in_graph(positions)
    if positions.is_meta:                                   # shapes only: no values to check
        return positions
    error = None if range_error is None else range_error(positions)
    if error is not None:
        raise error
    if looks_like_attention_mask(positions, dim):            # row of 1s, or 0, 0, .., 1, 1
        raise ValueError(f"positions hold only 0 and 1 over {seq} tokens: this looks like an "
                         f"attention mask (a row of 1s, or 0, 0, ..., 1, 1), not "
                         f"{hints.not_mask}")
    return positions
