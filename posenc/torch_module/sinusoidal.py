"""``SinusoidalPositionalEncoding``: add the fixed table of Vaswani et al. (2017), section 3.5.

Derived in the chapter "What must a PyTorch module for the encoding get right?"
(docs/chapters/11-a-pytorch-module.md).
"""

from __future__ import annotations

import numbers

import numpy as np
import torch
from torch import nn

from .._checks import check_base, check_layout
from ..encoding import BASE
from ..variants import ODD_POLICIES, check_spacing, even_width
from .checkpoint import _check_stored_table, _tolerance, _which_convention  # noqa: F401
from .checks import (NotScriptable, PositionHints, check_dropout, check_max_len,
                     check_position_tensor, looks_like_attention_mask)  # noqa: F401
from .compile_ops import (_checked, _in_graph_check, _range_error, _shared_table,  # noqa: F401
                          _table_rows)
from .sinusoidal_tables import _DTYPE_NAMES, SinusoidalTables
from .table import FLOAT_DTYPES, build_table  # noqa: F401 (re-exported)

def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _same_shape(shape, expected) -> bool:
    """``shape == expected`` size by size (symbolic sizes under torch.compile included)."""
    return len(shape) == len(expected) and all(a == b for a, b in zip(shape, expected))


_HINTS = PositionHints(
    first=" (for a scalar first position use start=)",
    bool_tensor="positions must be integer positions, got a bool tensor: a padding mask goes in "
                "padding_mask= (True at padding; from Hugging Face's attention_mask: "
                "padding_mask=attention_mask == 0)",
    not_mask="positions. Pass padding_mask=attention_mask == 0 (True at padding), or nothing "
             "for 0 .. seq - 1",
    dtypes=(torch.int64, torch.int32))                    # uint8 would index as a mask

class SinusoidalPositionalEncoding(NotScriptable, SinusoidalTables, nn.Module):
    """Add the sinusoidal encoding to embeddings: ``dropout(x + PE[positions])``.

    Counterpart: with ``spacing="t2t"``, ``layout="concatenated"`` and ``padding_idx``, the rows
    of ``M2M100SinusoidalPositionalEmbedding`` (and FSMT's, Speech2Text's) in Hugging Face
    ``transformers``, left padding included; with ``layout="concatenated"`` alone, Marian's.
    Checked in ``tests/package/test_conformance.py``.

    Parameters
    ----------
    d_model : int
        Width of the embeddings. Odd widths follow ``odd``.
    max_len : int, default 5000
        Number of positions ``0 .. max_len - 1``; a position past it raises ``ValueError``.
    dropout : float, default 0.0
        Dropout probability applied to the sum (the paper used 0.1).
    base : float, default 10000
    spacing : {"paper", "t2t"}, default "paper"
        Frequencies, see :func:`posenc.variants.frequencies` (``"t2t"``: tensor2tensor, fairseq).
    layout : {"interleaved", "concatenated"}, default "interleaved"
        ``"concatenated"`` is ``[sin | cos]`` (tensor2tensor, fairseq, Marian).
    offset : int, optional
        Added to every position before the angle is taken. Default 0, or ``padding_idx + 1``
        when ``padding_idx`` is given (fairseq numbers the first token ``padding_idx + 1``).
    odd : {"refuse", "zero_pad", "drop_last"}, default "refuse"
        Policy for an odd ``d_model``, see :func:`posenc.variants.even_width`.
    padding_idx : int, optional
        fairseq mode: ``forward(x, tokens=ids)`` counts positions over the tokens that are not
        ``padding_idx`` and gives padding tokens a zero row.
    batch_first : bool, optional
        ``x`` is ``(batch, seq, d_model)`` (``True``, the default) or ``(seq, batch, d_model)``
        (``False``). Loading a seq-first ``pe`` table (the PyTorch tutorial's) into a module
        built without it is refused: the layout of ``x`` cannot be told from its shape, so the
        replacing code must say which it passes. For the same reason a ``(seq, batch,
        d_model)`` input given to a batch-first module runs, read as ``(batch, seq)``, even when
        its seq is past ``max_len`` (see Examples).
    dtype : torch.dtype, default torch.float32
        The table built now; a table for another input dtype is built on first use.
    device : torch.device or str, optional
        Where the table is put now; it follows the input's device on later calls.

    Notes
    -----
    The table is not a buffer or a parameter: ``state_dict()`` leaves it out, ``.half()`` or
    ``.to(dtype)`` cannot cast it, DDP does not broadcast it. There is one table per input dtype
    the module has seen, each entry rounded once from float64 to that dtype (4 bytes per entry
    in float32, 2 in float16 and bfloat16); it moves to ``x.device`` on the first call there.
    A state dict holding a tutorial-style ``pe`` buffer loads after its table is checked
    against this one.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from posenc.torch_module.sinusoidal import SinusoidalPositionalEncoding
    >>> module = SinusoidalPositionalEncoding(d_model=4, max_len=10)
    >>> x = torch.zeros(2, 3, 4)                       # (batch, seq, d_model)
    >>> module(x, start=1)[0].numpy().round(3)
    array([[ 0.841,  0.54 ,  0.01 ,  1.   ],
           [ 0.909, -0.416,  0.02 ,  1.   ],
           [ 0.141, -0.99 ,  0.03 ,  1.   ]], dtype=float32)
    >>> module(x, torch.tensor([[0, 1, 2], [5, 6, 7]]))[1, 0, 0].item() == x.new_tensor(
    ...     np.sin(5.0)).item()
    True
    >>> module(torch.zeros(12, 2, 4)).shape      # seq 12 > max_len, seq-first: not caught
    torch.Size([12, 2, 4])
    """

    def __init__(self, d_model: int, max_len: int = 5000, *, dropout: float = 0.0,
                 base: float = BASE, spacing: str = "paper", layout: str = "interleaved",
                 offset: int | None = None, odd: str = "refuse", padding_idx: int | None = None,
                 batch_first: bool | None = None, dtype: torch.dtype = torch.float32,
                 device=None) -> None:
        super().__init__()
        if not isinstance(odd, str) or odd not in ODD_POLICIES:
            allowed = ", ".join(repr(p) for p in ODD_POLICIES)
            raise ValueError(f"odd must be one of {allowed}, got {odd!r}")
        if _is_int(d_model) and d_model > 0:
            even_width(d_model, odd)                        # raises for odd widths under "refuse"
        else:
            raise (TypeError if not _is_int(d_model) else ValueError)(
                f"d_model must be a positive integer, got {d_model!r}")
        self.d_model = int(d_model)
        self.max_len = check_max_len(max_len)
        self.base = check_base(base)
        self.spacing = check_spacing(spacing)
        self.layout = check_layout(layout)
        self.odd = odd
        if padding_idx is not None and not _is_int(padding_idx):
            raise TypeError(f"padding_idx must be an int or None, got {padding_idx!r}")
        if padding_idx is not None and padding_idx < 0:
            raise ValueError(f"padding_idx must be >= 0 (a token id), got {padding_idx}")
        self.padding_idx = None if padding_idx is None else int(padding_idx)
        if offset is None:
            offset = 0 if padding_idx is None else self.padding_idx + 1
        if not _is_int(offset):
            raise TypeError(f"offset must be an int (the rotation builder takes integer "
                            f"positions), got {offset!r}")
        self.offset = int(offset)
        if batch_first is not None and not isinstance(batch_first, bool):
            raise TypeError(f"batch_first must be True or False, got {batch_first!r}")
        self._layout_chosen = batch_first is not None      # a seq-first checkpoint asks for it
        self.batch_first = True if batch_first is None else batch_first
        self.dropout = nn.Dropout(check_dropout(dropout))
        if dtype not in FLOAT_DTYPES:
            raise TypeError(f"dtype must be one of {_DTYPE_NAMES}, got {dtype!r}")
        self._tables: dict[torch.dtype, torch.Tensor] = {}
        self._tables[dtype] = self._build(dtype).to(device)
        self.register_load_state_dict_pre_hook(_check_stored_table)

    def _shape(self) -> str:
        if self.batch_first:
            return f"(batch, seq, d_model={self.d_model})"
        return f"(seq, batch, d_model={self.d_model})"

    # ------------------------------------------------------------------------ forward
    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None, *, start=0,
                tokens: torch.Tensor | None = None,
                padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        """Add the rows of the positions of ``x``'s tokens.

        Parameters
        ----------
        x : torch.Tensor
            ``(batch, seq, d_model)``, or ``(seq, batch, d_model)`` with ``batch_first=False``.
        positions : torch.Tensor, optional
            Integer positions, shape ``(seq,)`` or the leading shape of ``x``
            (``(batch, seq)``, as Hugging Face's ``position_ids``). Default: ``start .. start +
            seq - 1`` for every row.
        start : int or 0-d integer tensor (an int with ``tokens`` or ``padding_mask``), default 0
            Position of the first token.
        tokens : torch.Tensor, optional
            Token ids with the leading shape of ``x`` (needs ``padding_idx``): positions count
            the tokens that are not ``padding_idx`` (plus ``start``); padding rows get zero.
        padding_mask : torch.Tensor, optional
            Boolean, ``True`` at padding, the leading shape of ``x``; as ``tokens``.

        Returns
        -------
        torch.Tensor
            ``x`` plus the rows, the shape and dtype of ``x`` (then dropout, in training).

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module import SinusoidalPositionalEncoding
        >>> pe = SinusoidalPositionalEncoding(d_model=4, max_len=10)
        >>> x = torch.zeros(2, 3, 4)                       # (batch, seq, d_model)
        >>> pe(x, start=2)[0, 0]                           # position 2: sin 2, cos 2, ...
        tensor([ 0.9093, -0.4161,  0.0200,  0.9998])
        >>> pe(x, torch.tensor([[0, 1, 2], [7, 8, 9]]))[1, 0, 0]     # sin 7
        tensor(0.6570)
        >>> pe(x, padding_mask=torch.tensor([[True, False, False]] * 2))[0, :, 0]
        tensor([0.0000, 0.0000, 0.8415])
        """
        table = self._tables.get(getattr(x, "dtype", None))
        if table is None or table.device != x.device:
            table = self._table_for(x)                      # (max_len, d_model) or None
        if x.dim() != 3 or x.shape[2] != self.d_model:
            hint = "; for one sequence use x.unsqueeze(0)" if x.dim() == 2 else ""
            if x.dim() == 3 and self.d_model in tuple(x.shape[:2]):
                hint = "; is x transposed? d_model must be the last axis"
            elif x.dim() == 3:
                hint = (f"; the last axis of x is its embedding width, {x.shape[2]}: build the "
                        f"module with d_model={x.shape[2]}")
            raise ValueError(f"x must have shape {self._shape()}, got shape "
                             f"{tuple(x.shape)}{hint}")
        if positions is None and tokens is None and padding_mask is None:
            seq = x.shape[1] if self.batch_first else x.shape[0]
            if type(start) is int or _is_int(start):
                if table is not None and 0 <= start and start + seq <= self.max_len:
                    rows = table[start:start + seq]         # (seq, d_model)
                elif not torch.compiler.is_compiling():     # eager: a table is always there
                    self._refuse_start(start, seq)
                else:       # no table, or out of range: the check raises when the graph runs
                    positions = _in_graph_check(torch.arange(seq, device=x.device) + start,
                                         self.max_len, "start")
                    rows = self._gather(table, positions, x)
            else:
                rows = self._gather(table, self._start_tensor(start, seq, x.device), x)
            if not self.batch_first:
                rows = rows.unsqueeze(1)                     # (seq, 1, d_model)
            out = x + rows                                   # broadcast over the batch only
        elif positions is not None:
            if tokens is not None or padding_mask is not None:
                raise ValueError("pass positions, or tokens/padding_mask, not both")
            if not (_is_int(start) and start == 0):
                raise ValueError("start must be 0 when positions are given (add it to them)")
            out = x + self._rows(table, self._check_positions(positions, x), x)
        else:
            out = self._padded(x, table, tokens, padding_mask, start)
        if self.training and self.dropout.p > 0:
            return self.dropout(out)
        return out

    def _refuse_start(self, start, seq):
        if _is_int(start) and start < 0:
            raise ValueError(f"start must be >= 0, got {start}")
        end = start + seq
        raise ValueError(
            f"positions {start}..{end - 1} do not fit a table of max_len={self.max_len} rows "
            f"(positions 0..{self.max_len - 1}); build the module with max_len >= {end}")

    def _start_tensor(self, start, seq, device):
        if not isinstance(start, torch.Tensor) or start.dim() != 0 or \
                start.dtype.is_floating_point or start.dtype == torch.bool or \
                start.is_complex():
            raise TypeError(f"start must be an int or a 0-d integer tensor (the position of the "
                            f"first token), got {start!r}")
        positions = torch.arange(seq, device=device) + start.to(device)      # (seq,)
        if torch.compiler.is_compiling():
            return _in_graph_check(positions, self.max_len, "start")
        value = int(start)
        if value < 0 or value + seq > self.max_len:
            self._refuse_start(value, seq)
        return positions

    def _check_positions(self, positions, x) -> torch.Tensor:
        lead = tuple(x.shape[:2])
        seq_shape = (x.shape[1],) if self.batch_first else (x.shape[0],)
        names = "(batch, seq)" if self.batch_first else "(seq, batch)"
        # Size by size: under torch.compile with dynamic shapes the sizes of x are symbolic,
        # and a tuple comparison (``in``) does not see that s0 == 3 (issue 31).
        return check_position_tensor(
            positions, _HINTS, device=x.device, seq=seq_shape[0],
            bad_shape=lambda p: not _same_shape(p.shape, lead) and not _same_shape(p.shape,
                                                                                 seq_shape),
            shape_error=lambda p: f"positions must have shape {seq_shape} (seq,) or {lead} "
                                  f"{names}, got {tuple(p.shape)}",
            seq_dim=lambda p: -1 if p.dim() == 1 or self.batch_first else 0,
            in_graph=lambda p: _in_graph_check(p, self.max_len, "positions"),
            range_error=lambda p: _range_error(p, self.max_len, "positions"))

    def _rows(self, table, positions, x) -> torch.Tensor:
        rows = self._gather(table, positions, x)   # (seq, d) or the leading shape of x + (d,)
        if rows.dim() == 2 and not self.batch_first:
            rows = rows.unsqueeze(1)               # (seq, 1, d_model)
        return rows

    def _padded(self, x, table, tokens, padding_mask, start) -> torch.Tensor:
        lead = tuple(x.shape[:2])
        if tokens is not None and padding_mask is not None:
            raise ValueError("pass tokens or padding_mask, not both")
        if tokens is not None:
            if self.padding_idx is None:
                raise ValueError("tokens need padding_idx: build the module with "
                                 "padding_idx=<the padding token id>, or pass padding_mask")
            if not isinstance(tokens, torch.Tensor) or tokens.dtype.is_floating_point or \
                    tokens.dtype == torch.bool:
                raise TypeError(f"tokens must be an integer tensor of token ids, got "
                                f"{getattr(tokens, 'dtype', type(tokens).__name__)}")
            if not _same_shape(tokens.shape, lead):
                raise ValueError(f"tokens must have the leading shape of x, {lead}, got "
                                 f"{tuple(tokens.shape)}")
            keep = tokens.to(x.device) != self.padding_idx
        else:
            if not isinstance(padding_mask, torch.Tensor) or padding_mask.dtype != torch.bool:
                raise TypeError(f"padding_mask must be a bool tensor (True at padding), got "
                                f"{getattr(padding_mask, 'dtype', type(padding_mask).__name__)}")
            if not _same_shape(padding_mask.shape, lead):
                raise ValueError(f"padding_mask must have the leading shape of x, {lead}, got "
                                 f"{tuple(padding_mask.shape)}")
            keep = ~padding_mask.to(x.device)
        if not _is_int(start) or start < 0:
            raise TypeError(f"start must be a non-negative int with tokens/padding_mask, got "
                            f"{start!r}")
        seq_dim = 1 if self.batch_first else 0
        count = torch.cumsum(keep, dim=seq_dim)                   # tokens so far, this one in
        positions = (count - 1 + start).clamp_(min=0)             # pads: any valid row
        if torch.compiler.is_compiling():
            positions = _in_graph_check(positions, self.max_len, "padded")
        else:
            error = _range_error(positions, self.max_len, "padded")
            if error is not None:
                raise error
        rows = self._gather(table, positions, x) * keep.unsqueeze(-1).to(x.dtype)  # pads: 0
        return x + rows

    def extra_repr(self) -> str:
        """The arguments shown by ``repr(module)``: ``offset`` when it is not 0 or
        ``padding_idx`` is given, ``odd`` for an odd ``d_model``, ``padding_idx`` and
        ``batch_first`` when they are not the default.

        Examples
        --------
        >>> from posenc.torch_module import SinusoidalPositionalEncoding
        >>> SinusoidalPositionalEncoding(512, max_len=1024, padding_idx=1).extra_repr()
        "d_model=512, max_len=1024, base=10000, spacing='paper', layout='interleaved', offset=2, padding_idx=1"
        """
        parts = [f"d_model={self.d_model}", f"max_len={self.max_len}", f"base={self.base:g}",
                 f"spacing={self.spacing!r}", f"layout={self.layout!r}"]
        if self.offset or self.padding_idx is not None:
            parts.append(f"offset={self.offset}")
        if self.d_model % 2:
            parts.append(f"odd={self.odd!r}")
        if self.padding_idx is not None:
            parts.append(f"padding_idx={self.padding_idx}")
        if not self.batch_first:
            parts.append("batch_first=False")
        return ", ".join(parts)
