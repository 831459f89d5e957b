"""Argument checks shared by the PyTorch modules; each error names the argument."""

from __future__ import annotations

import numbers

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

    TorchScript cannot compile keyword-only arguments or the table's NumPy builder, and
    PyTorch has deprecated it in favour of ``torch.compile`` and ``torch.export``.

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
