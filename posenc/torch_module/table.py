"""The table as a torch tensor of float16, bfloat16, float32 or float64, each entry rounded once
from float64.

The rows come from the exact rotation builder (:func:`posenc.fast.rotated_table`), in float64,
a tile of rows at a time (16-bit tables: :data:`CHUNK_ENTRIES` entries, at least 64 rows); only
the output table is kept, not a float64 copy of it.

* float32: the builder rounds its float64 products straight to float32 (round to nearest).
* float16 and bfloat16: NumPy has no bfloat16, and PyTorch casts through float32, which rounds
  twice. Rounding twice is wrong only where the float32 value lands exactly halfway between two
  16-bit neighbours (a *tie*: its low 16 bits, for bfloat16, or 13, for float16 from 2**-14 up,
  are exactly half a step: 1 in 2**16 or 2**13 of those bit patterns, not a table's measured
  rate; below 2**-14, odd multiples of 2**-25) and the float64 value was not that tie. :func:`round_to_16_bit` moves exactly those entries one float32
  unit toward the float64 value before the cast, so the cast rounds them the way a single
  rounding would.
* float64: the builder's float64 table.

Derived in the chapter "What must a PyTorch module for the encoding get right?"
(docs/chapters/11-a-pytorch-module.md).
"""

from __future__ import annotations

import numpy as np
import torch

from ..fast import BLOCK, rotated_table
from ..variants import even_width, frequencies

from .checks import FLOAT_DTYPES

CHUNK_ENTRIES = 2**21
"""float64 entries built per chunk for the 16-bit tables (16 MiB)."""

_FP16_MIN_NORMAL_BITS = np.uint32(0x38800000)        # 2**-14 as float32 bits


def round_to_odd_float32(table) -> np.ndarray:
    """float64 values rounded to float32 *to odd*: cut toward zero, then set the last bit if
    anything was cut off.

    A reference for the tests: rounding that to a 16-bit float (nearest, ties to even) gives the
    correctly rounded value of the float64 number, because float32 has at least two more bits.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from posenc.torch_module.table import round_to_odd_float32
    >>> v = np.array([1.0 + 2.0 ** -8 + 2.0 ** -40])    # just above a bfloat16 tie
    >>> torch.from_numpy(v).to(torch.bfloat16).item()   # double rounding: down
    1.0
    >>> torch.from_numpy(round_to_odd_float32(v)).to(torch.bfloat16).item()   # once: up
    1.0078125
    """
    exact = np.asarray(table, dtype=np.float64)
    bits = exact.astype(np.float32).view(np.uint32)           # rounded to nearest
    # Where rounding went away from zero, step one unit back toward zero.
    bits = bits - (np.abs(bits.view(np.float32)) > np.abs(exact)).astype(np.uint32)
    inexact = bits.view(np.float32) != exact
    return (bits | inexact.astype(np.uint32)).view(np.float32)


def ties(t32: np.ndarray, dtype: torch.dtype) -> np.ndarray:
    """Flat indices of the float32 entries that lie exactly halfway between two neighbours of
    ``dtype`` (``torch.bfloat16`` or ``torch.float16``).

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from posenc.torch_module.table import ties
    >>> ties(np.float32([1.0, 1.0 + 2.0 ** -8, 1.0 + 2.0 ** -9]), torch.bfloat16)
    array([1])
    >>> ties(np.float32([1.0 + 2.0 ** -11, 2.0 ** -25, 3 * 2.0 ** -26]), torch.float16)
    array([0, 1])
    """
    bits = np.ascontiguousarray(t32, dtype=np.float32).reshape(-1).view(np.uint32)
    if dtype == torch.bfloat16:          # 8 significant bits, float32's exponent range
        return np.flatnonzero((bits & 0xFFFF) == 0x8000)
    if dtype != torch.float16:
        raise ValueError(f"dtype must be torch.bfloat16 or torch.float16, got {dtype}")
    magnitude = bits & np.uint32(0x7FFFFFFF)
    normal = np.flatnonzero((magnitude >= _FP16_MIN_NORMAL_BITS) & ((bits & 0x1FFF) == 0x1000))
    # Below 2**-14 float16 is subnormal: steps of 2**-24, ties at odd multiples of 2**-25.
    small = np.flatnonzero((magnitude < _FP16_MIN_NORMAL_BITS) & (magnitude != 0))
    k = np.abs(bits[small].view(np.float32).astype(np.float64)) * 2.0**25
    return np.sort(np.concatenate([normal, small[(k == np.floor(k)) & (k % 2 == 1)]]))


def round_to_16_bit(t64: np.ndarray, dtype: torch.dtype) -> torch.Tensor:
    """float64 values correctly rounded to ``dtype`` (``torch.bfloat16`` or ``torch.float16``).

    Round to float32; where that lands on a tie of ``dtype`` and the float64 value is not the
    tie, step one float32 unit toward the float64 value; then cast (PyTorch rounds to nearest,
    ties to even). The step leaves the entry strictly between the tie and the float64 value's
    16-bit neighbour, so the cast picks that neighbour.

    Examples
    --------
    >>> import numpy as np
    >>> import torch
    >>> from posenc.torch_module.table import round_to_16_bit
    >>> v = np.array([1.0 + 2.0 ** -8 + 2.0 ** -40, 1.0 + 2.0 ** -8 - 2.0 ** -40])
    >>> torch.from_numpy(v).to(torch.bfloat16).tolist()      # the cast: both to even
    [1.0, 1.0]
    >>> round_to_16_bit(v, torch.bfloat16).tolist()          # rounded once
    [1.0078125, 1.0]
    """
    t64 = np.ascontiguousarray(t64, dtype=np.float64)
    t32 = t64.astype(np.float32)
    flat32, flat64 = t32.reshape(-1), t64.reshape(-1)
    at = ties(flat32, dtype)
    at = at[flat32[at] != flat64[at]]                     # a float64 tie stays a tie
    away = np.abs(flat64[at]) > np.abs(flat32[at])        # more magnitude: step away from zero
    bits = flat32.view(np.uint32)
    bits[at] = np.where(away, bits[at] + np.uint32(1), bits[at] - np.uint32(1))
    return torch.from_numpy(t32).to(dtype)


def build_table(max_len: int, d_model: int, *, dtype: torch.dtype = torch.float32,
                base: float = 10000.0, spacing: str = "paper", layout: str = "interleaved",
                offset: int = 0, odd: str = "refuse") -> torch.Tensor:
    """The ``(max_len, d_model)`` table of positions ``offset .. offset + max_len - 1`` on the
    CPU, each entry rounded once from float64 to ``dtype``.

    Arguments are checked by the caller (:class:`SinusoidalPositionalEncoding`); ``spacing``,
    ``layout`` and ``odd`` are those of :func:`posenc.variants.encode_variant`, which this
    equals entry for entry in float64 and float32.

    Counterpart: the tables of Hugging Face ``transformers`` (``M2M100SinusoidalPositionalEmbedding``
    and its fairseq-style copies, Marian), through :class:`SinusoidalPositionalEncoding` in
    ``tests/package/test_conformance.py``.

    Examples
    --------
    >>> from posenc.torch_module.table import build_table
    >>> from posenc.variants import encode_variant
    >>> t = build_table(6, 8, offset=2, spacing="t2t", layout="concatenated")
    >>> bool((t.numpy() == encode_variant(6, 8, offset=2, spacing="t2t",
    ...                                   layout="concatenated", dtype="float32")).all())
    True
    """
    width = even_width(d_model, odd)
    omega = frequencies(width, base, spacing)
    positions = np.arange(max_len, dtype=np.int64) + int(offset)
    if dtype in (torch.float32, torch.float64):
        np_dtype = "float32" if dtype == torch.float32 else "float64"
        table = torch.from_numpy(rotated_table(positions, omega, layout=layout, dtype=np_dtype))
    else:
        table = torch.empty(max_len, width, dtype=dtype, device="cpu")   # whatever the default
        rows = max(BLOCK, CHUNK_ENTRIES // width // BLOCK * BLOCK)
        for lo in range(0, max_len, rows):
            chunk = rotated_table(positions[lo:lo + rows], omega, layout=layout)
            table[lo:lo + rows] = round_to_16_bit(chunk, dtype)
    if width > d_model:                                   # odd="drop_last"
        return table[:, :d_model].contiguous()
    if width < d_model:                                   # odd="zero_pad": a zero column
        return torch.cat([table, table.new_zeros(max_len, 1)], dim=1)
    return table
