"""PyTorch modules that add positions to a batch of token embeddings.

* :class:`SinusoidalPositionalEncoding`: the fixed table of Vaswani et al. (2017), section 3.5,
  kept in float64 and cast to the input's dtype at every call, so ``module.half()`` or
  ``module.to(torch.bfloat16)`` never degrades it.
* :class:`LearnedPositionalEmbedding`: a trainable ``nn.Embedding`` table with the same
  interface (BERT and GPT-2 style).

Both take batch-first input ``(batch, seq, d_model)``, add the rows for positions
``start .. start + seq - 1`` and apply optional dropout, as the paper does to "the sums of the
embeddings and the positional encodings". Both refuse input past ``max_len`` with an error
instead of growing or clipping. This is the only module of ``posenc`` that imports torch; the
rest of the package works without it, so import it explicitly::

    from posenc.torch_module import SinusoidalPositionalEncoding

Derived in the chapter "What must a PyTorch module for the encoding get right?"
(docs/chapters/11-a-pytorch-module.md).
"""

from __future__ import annotations

import numbers

import numpy as np

try:
    import torch
    from torch import nn
except ModuleNotFoundError as exc:  # pragma: no cover - exercised in a venv without torch
    raise ModuleNotFoundError(
        "posenc.torch_module needs PyTorch: pip install 'posenc[torch]' (the CPU build is "
        "enough; see the README). The rest of posenc works without it."
    ) from exc

from ._checks import check_base, check_d_model, check_layout
from .encoding import BASE, encode

FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def round_to_odd_float32(table) -> np.ndarray:
    """float64 values rounded to float32 *to odd*: truncate toward zero, then set the last bit
    if anything was cut off.

    Rounding that to a 16-bit float (nearest, ties to even) gives the correctly rounded value
    of the float64 number, which a plain ``float64 -> float32 -> 16-bit`` cast (what PyTorch
    does for ``.to(torch.bfloat16)``) does not always give: the first rounding can land on a
    tie and the second then goes the wrong way.

    Examples
    --------
    >>> v = np.array([1.0 + 2.0 ** -8 + 2.0 ** -40])    # just above a bfloat16 tie
    >>> torch.from_numpy(v).to(torch.bfloat16).item()   # double rounding: down
    1.0
    >>> torch.from_numpy(round_to_odd_float32(v)).to(torch.bfloat16).item()   # once: up
    1.0078125
    """
    exact = np.asarray(table, dtype=np.float64)
    bits = exact.astype(np.float32).view(np.uint32)           # rounded to nearest
    # Where rounding went away from zero, step one unit back toward zero: for IEEE floats
    # that is the magnitude bits minus one, whatever the sign.
    bits = bits - (np.abs(bits.view(np.float32)) > np.abs(exact)).astype(np.uint32)
    inexact = bits.view(np.float32) != exact
    return (bits | inexact.astype(np.uint32)).view(np.float32)


def _check_max_len(max_len) -> int:
    if isinstance(max_len, (bool, np.bool_)) or not isinstance(max_len, numbers.Integral):
        raise TypeError(f"max_len must be a positive integer, got {max_len!r}")
    if max_len <= 0:
        raise ValueError(f"max_len must be a positive integer, got {max_len}")
    return int(max_len)


def _check_dropout(dropout) -> float:
    if isinstance(dropout, bool) or not isinstance(dropout, numbers.Real):
        raise TypeError(f"dropout must be a probability in [0, 1), got {dropout!r}")
    if not 0.0 <= float(dropout) < 1.0:
        raise ValueError(f"dropout must be a probability in [0, 1), got {dropout}")
    return float(dropout)


def _check_start(start) -> int:
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
        raise ValueError(
            f"x must have shape (batch, seq, d_model={d_model}), got shape {tuple(x.shape)}; "
            "is x seq-first or transposed?"
        )
    start = _check_start(start)
    end = start + x.shape[1]
    if end > max_len:
        raise ValueError(
            f"positions {start}..{end - 1} do not fit a table of max_len={max_len} rows "
            f"(positions 0..{max_len - 1}); build the module with max_len >= {end}"
        )
    return start


class SinusoidalPositionalEncoding(nn.Module):
    """Add the sinusoidal encoding to batch-first embeddings: ``dropout(x + PE[start:start+seq])``.

    Parameters
    ----------
    d_model : int
        Width of the embeddings; a positive even integer.
    max_len : int, default 5000
        Number of positions in the table; longer input raises ``ValueError``.
    dropout : float, default 0.0
        Dropout probability applied to the sum (the paper used 0.1 for its base model).
    base : float, default 10000
        See :func:`posenc.encode`.
    layout : {"interleaved", "concatenated"}, default "interleaved"
        See :func:`posenc.encode`.

    Notes
    -----
    The table ``pe`` is a *non-persistent* buffer: it follows ``.to(device)`` but is not saved
    in ``state_dict()`` (it is recomputed from the arguments). It always stays float64:
    ``.half()``, ``.bfloat16()`` or ``.to(dtype)`` leave it untouched, and ``forward`` casts it
    to ``x.dtype`` once per call, so each entry is rounded once from the float64 value. For
    float16 and bfloat16 input the cast starts from a second buffer ``pe_odd``, the same table
    rounded to odd in float32 (see :func:`round_to_odd_float32`), so that those entries too are
    correctly rounded. ``.to_empty(device=...)`` (meta-device initialisation) leaves both tables
    valid: they are copied or rebuilt, never left uninitialised.

    Examples
    --------
    >>> module = SinusoidalPositionalEncoding(d_model=4, max_len=10)
    >>> x = torch.zeros(2, 3, 4)                       # (batch, seq, d_model)
    >>> module(x, start=1)[0].numpy().round(3)
    array([[ 0.841,  0.54 ,  0.01 ,  1.   ],
           [ 0.909, -0.416,  0.02 ,  1.   ],
           [ 0.141, -0.99 ,  0.03 ,  1.   ]], dtype=float32)
    >>> module.bfloat16().pe.dtype
    torch.float64
    """

    def __init__(self, d_model: int, max_len: int = 5000, *, dropout: float = 0.0,
                 base: float = BASE, layout: str = "interleaved") -> None:
        super().__init__()
        self.d_model = check_d_model(d_model)
        self.max_len = _check_max_len(max_len)
        self.base = check_base(base)
        self.layout = check_layout(layout)
        self.dropout = nn.Dropout(_check_dropout(dropout))
        pe, pe_odd = self._tables(torch.device("cpu"))
        self.register_buffer("pe", pe, persistent=False)            # (max_len, d_model) float64
        self.register_buffer("pe_odd", pe_odd, persistent=False)    # same, float32 round-to-odd

    def _tables(self, device):
        table = encode(self.max_len, self.d_model, base=self.base, layout=self.layout)
        return (torch.from_numpy(table).to(device),
                torch.from_numpy(round_to_odd_float32(table)).to(device))

    def _apply(self, fn, recurse=True):
        # Module.to(dtype), .half() and .bfloat16() cast every floating buffer, and
        # .to_empty(device=...) replaces every buffer by uninitialised memory. Let the buffers
        # follow the device and nothing else: copy the previous tables there, or rebuild them
        # from the arguments when the previous ones held no data (meta device).
        pe, pe_odd = self.pe, self.pe_odd
        super()._apply(fn, recurse)
        device = self.pe.device
        if pe.is_meta and device.type != "meta":
            self.pe, self.pe_odd = self._tables(device)
        else:
            self.pe, self.pe_odd = pe.to(device), pe_odd.to(device)
        return self

    def forward(self, x: torch.Tensor, start: int = 0) -> torch.Tensor:
        """``x`` of shape ``(batch, seq, d_model)``; ``start`` is the position of ``x[:, 0]``
        (for incremental decoding, the number of tokens already processed)."""
        start = check_input(x, self.d_model, self.max_len, start)
        table = self.pe if x.dtype in (torch.float64, torch.float32) else self.pe_odd
        rows = table[start:start + x.shape[1]].to(x.dtype)   # (seq, d_model), rounded once
        return self.dropout(x + rows)                        # (batch, seq, d_model)

    def extra_repr(self) -> str:
        return (f"d_model={self.d_model}, max_len={self.max_len}, base={self.base:g}, "
                f"layout={self.layout!r}")


class LearnedPositionalEmbedding(nn.Module):
    """Add a trainable position table to batch-first embeddings: ``dropout(x + P[start:start+seq])``.

    Parameters
    ----------
    max_len : int
        Number of rows (positions 0 .. max_len - 1). A learned table has no row for a later
        position, so longer input raises ``ValueError``.
    d_model : int
        Width of the embeddings; a positive even integer (as for the sinusoidal module).
    dropout : float, default 0.0
        Dropout probability applied to the sum.
    init_std : float, default 0.02
        Standard deviation of the normal initialisation of the rows.

    Examples
    --------
    >>> module = LearnedPositionalEmbedding(max_len=512, d_model=768)
    >>> sum(p.numel() for p in module.parameters())
    393216
    >>> module(torch.zeros(1, 3, 768)).shape
    torch.Size([1, 3, 768])
    """

    def __init__(self, max_len: int, d_model: int, *, dropout: float = 0.0,
                 init_std: float = 0.02) -> None:
        super().__init__()
        self.max_len = _check_max_len(max_len)
        self.d_model = check_d_model(d_model)
        if isinstance(init_std, bool) or not isinstance(init_std, numbers.Real):
            raise TypeError(f"init_std must be a positive number, got {init_std!r}")
        if not init_std > 0:
            raise ValueError(f"init_std must be a positive number, got {init_std!r}")
        self.dropout = nn.Dropout(_check_dropout(dropout))
        self.embedding = nn.Embedding(self.max_len, self.d_model)
        nn.init.normal_(self.embedding.weight, mean=0.0, std=float(init_std))

    def forward(self, x: torch.Tensor, start: int = 0) -> torch.Tensor:
        """``x`` of shape ``(batch, seq, d_model)``; ``start`` is the position of ``x[:, 0]``."""
        start = check_input(x, self.d_model, self.max_len, start)
        pos = torch.arange(start, start + x.shape[1], device=x.device)   # (seq,)
        return self.dropout(x + self.embedding(pos).to(x.dtype))         # (batch, seq, d_model)

    def extra_repr(self) -> str:
        return f"max_len={self.max_len}, d_model={self.d_model}"
