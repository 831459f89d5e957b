"""RoPE in torch: rotate queries and keys of shape ``(batch, heads, seq, head_dim)`` (or, with
``axes="bshd"``, ``(batch, seq, heads, head_dim)``).

The frequencies are any of :mod:`posenc.scaling`'s (or the paper's), with YaRN's attention
factor; the angles ``pos * omega_i`` are taken in float64 and their cosines and sines rounded
once to float32 (then to the input's dtype, as Hugging Face ``transformers`` does, for the
products), whatever the input dtype. Autograd, and ``torch.compile(fullgraph=True)`` in a
decode loop.

:mod:`posenc.relative` stays the float64 NumPy reference for one 2-D head; use this module in a
model. See the chapter "How do positions behave in a running model?"
(docs/chapters/16-positions-in-a-running-model.md).
"""

from __future__ import annotations

import numbers

import numpy as np
import torch
from torch import nn

from .._checks import check_base
from ..encoding import BASE, frequencies as paper_frequencies
from .checks import NotScriptable, looks_like_attention_mask  # noqa: F401 (re-exported)
from .rope_cache import GROWTH, ROUND, TABLE_ROWS, RopeCache  # noqa: F401 (re-exported)
from .rope_positions import check_position_ids, positions_of  # noqa: F401 (re-exported)
from .rotate import (_FLOAT, PAIRINGS, _is_int, _rotate, apply_rotary,  # noqa: F401 (re-exported)
                     check_pairing, expand_cos_sin, rope_cos_sin)
from .rope_config import (ROPE_KEYS, ROPE_TYPES, FromRopeParameters,  # noqa: F401 (re-exported)
                          read_rope_parameters)

AXES = ("bhsd", "bshd")
"""Accepted ``axes`` of ``q`` and ``k``: ``"bhsd"`` is ``(batch, heads, seq, head_dim)`` (what
transformers' attention layers hold after their ``.transpose(1, 2)``); ``"bshd"`` is
``(batch, seq, heads, head_dim)`` (before it; flash-attn's layout)."""

class RotaryEmbedding(NotScriptable, RopeCache, FromRopeParameters, nn.Module):
    """Rotate ``q`` and ``k`` by their positions (RoPE, Su et al. 2021).

    Counterpart: ``transformers``' ``apply_rotary_pos_emb`` with the cos/sin of its rotary
    embedding classes (each ``rope_type`` of :data:`~posenc.torch_module.rope_config.ROPE_TYPES`:
    see :meth:`from_rope_parameters`), and GPT-J's ``rotate_every_two`` with
    ``pairing="adjacent"``; checked in ``tests/package/test_torch_rotary.py``.

    Parameters
    ----------
    head_dim : int
        Width of a query/key head, a positive even integer.
    base : float, default 10000
        The paper's base; with ``frequencies`` given, only checked and kept as ``.base``.
    frequencies : array-like, optional
        The ``rotary_dim // 2`` angular frequencies ``omega_i``, e.g. from
        :func:`posenc.scaling.yarn_frequencies` or :func:`posenc.scaling.llama3_frequencies`.
        Default: ``base ** (-2 i / rotary_dim)``.
    rotary_dim : int, optional
        Rotate only the first ``rotary_dim`` coordinates of each head (partial rotary, GPT-J,
        Phi, GPT-NeoX's ``rotary_pct``); default ``head_dim``.
    pairing : str, default "halves"
        ``"halves"`` (also ``"neox"``, ``"llama"``) or ``"adjacent"`` (also ``"gptj"``).
    attention_factor : float, default 1.0
        Multiplies cos and sin (so the logits get its square): YaRN's
        :func:`posenc.scaling.yarn_attention_factor`, LongRoPE's factor.
    max_len : int, default 2048
        The least length of the cos/sin cache when first built (see Notes); it grows (eager)
        when a later position needs it.
    axes : {"bhsd", "bshd"}, default "bhsd"
        The axes of ``q`` and ``k``: ``(batch, heads, seq, head_dim)`` or ``(batch, seq, heads,
        head_dim)``; the rotated tensors come back in the same axes.
    num_heads : int, optional
        The query heads. Given, ``q`` must have them on its heads axis and ``k`` a divisor of
        them, which catches ``q`` and ``k`` passed in the other ``axes`` (see Notes).

    Notes
    -----
    ``q`` and ``k`` in the other axes than ``axes`` are refused when their shapes show it: ``k``
    with fewer heads than ``q`` (grouped-query attention), ``positions`` or a ``rotation`` whose
    length is the heads axis, or ``num_heads`` given. Otherwise (as many key as query heads,
    an ``offset``, no ``num_heads``) a ``(batch, seq, heads, head_dim)`` tensor given for
    ``(batch, heads, seq, head_dim)`` cannot be told from its shape; it would be rotated by
    head index. So is any input whose sequence length equals its head count.

    The cache is one float32 table per device: the cos and sin of each pair at positions
    ``0 .. L - 1``, ``4 * rotary_dim`` bytes per position (64 MiB for 131072 positions at
    ``rotary_dim`` 128), from which every input dtype is cast per call. ``L`` is first the larger
    of ``max_len`` and the first call's largest position + 1, rounded up to a multiple of 64; a
    later position grows it to that position, and by at least an eighth, rounded up likewise,
    up to ``max(max_len, 2**20)`` (:data:`TABLE_ROWS`): a call with a later position computes
    its cos and sin instead. It never shrinks by itself: :meth:`clear_cache` drops it. Its key
    is the frequencies' bytes, ``attention_factor`` and device, so setting :attr:`frequencies`
    (dynamic NTK, LongRoPE's long factors) replaces it. Each instance has its own: share one
    ``RotaryEmbedding`` between layers, or pass :meth:`rotation` to each. It is not a buffer:
    ``.half()`` cannot cast it and ``state_dict()`` leaves it out. Under ``torch.compile`` cos
    and sin are computed from the positions (same float64 angles), so there is no
    data-dependent length check in the graph.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.rotary import RotaryEmbedding
    >>> rope = RotaryEmbedding(head_dim=4)
    >>> q = k = torch.tensor([1.0, 0.0, 0.0, 0.0]).expand(1, 1, 3, 4)   # (batch, heads, seq, d)
    >>> rq, rk = rope(q, k)
    >>> rq[0, 0, :, 0]                       # cos 0, cos 1, cos 2
    tensor([ 1.0000,  0.5403, -0.4161])
    >>> rope(q[:, :, :1], k[:, :, :1], offset=2)[0][0, 0, 0, 0]      # one token at position 2
    tensor(-0.4161)
    >>> RotaryEmbedding(4, axes="bshd")(q.transpose(1, 2), k.transpose(1, 2))[0][0, :, 0, 0]
    tensor([ 1.0000,  0.5403, -0.4161])
    """

    def __init__(self, head_dim: int, *, base: float = BASE, frequencies=None,
                 rotary_dim: int | None = None, pairing: str = "halves",
                 attention_factor: float = 1.0, max_len: int = 2048, axes: str = "bhsd",
                 num_heads: int | None = None) -> None:
        super().__init__()
        if not _is_int(head_dim) or head_dim <= 0 or head_dim % 2:
            raise ValueError(f"head_dim must be a positive even integer, got {head_dim!r}")
        self.head_dim = int(head_dim)
        if rotary_dim is None:
            rotary_dim = self.head_dim
        if not _is_int(rotary_dim) or not 0 < rotary_dim <= self.head_dim or rotary_dim % 2:
            raise ValueError(f"rotary_dim must be a positive even integer <= head_dim="
                             f"{self.head_dim}, got {rotary_dim!r}")
        self.rotary_dim = int(rotary_dim)
        self.pairing = check_pairing(pairing)
        if isinstance(attention_factor, bool) or not isinstance(attention_factor, numbers.Real) \
                or not np.isfinite(attention_factor) or attention_factor <= 0:
            raise ValueError(f"attention_factor must be a positive finite number, got "
                             f"{attention_factor!r}")
        self.attention_factor = float(attention_factor)
        if not _is_int(max_len) or max_len <= 0:
            raise ValueError(f"max_len must be a positive integer, got {max_len!r}")
        self.max_len = int(max_len)
        if axes not in AXES:
            raise ValueError(f"axes must be one of {AXES}, got {axes!r}")
        self.axes = axes
        if num_heads is not None and (not _is_int(num_heads) or num_heads <= 0):
            raise ValueError(f"num_heads must be a positive integer or None, got {num_heads!r}")
        self.num_heads = None if num_heads is None else int(num_heads)
        self.base = check_base(base)
        self._start_cache(paper_frequencies(self.rotary_dim, self.base) if frequencies is None
                          else frequencies)

    # ------------------------------------------------------------------------------ forward
    def cos_sin(self, positions: torch.Tensor, dtype: torch.dtype = torch.float32
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """cos and sin for integer ``positions`` (any shape), one per pair: shape
        ``positions.shape + (rotary_dim // 2,)``, in ``dtype``.

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> RotaryEmbedding(4).cos_sin(torch.tensor([[0, 3]]))[1]
        tensor([[[0.0000, 0.0000],
                 [0.1411, 0.0300]]])
        """
        if not isinstance(positions, torch.Tensor) or positions.dtype.is_floating_point or \
                positions.dtype.is_complex or positions.dtype == torch.bool:
            got = positions.dtype if isinstance(positions, torch.Tensor) else \
                type(positions).__name__
            raise TypeError(f"positions must be an integer tensor, got {got}")
        return self._lookup(positions, dtype, expanded=False)

    def _lookup(self, positions, dtype, expanded):
        """cos and sin at ``positions``: per pair, or laid out by :func:`expand_cos_sin`."""
        direct = torch.compiler.is_compiling() or positions.is_meta     # no values to look up
        if not direct:
            low, high = (int(v) for v in torch.aminmax(positions)) if positions.numel() else (0, 0)
            if low < 0:
                raise ValueError(f"positions must be >= 0, got {low} (padding numbered by "
                                 f"mask.cumsum(-1) - 1 is at -1: add .clamp(min=0); "
                                 f"transformers' generate sets it to 0)")
            direct = not self._cacheable(high + 1)      # e.g. a stray id near 2**31
        if direct:
            cos, sin = rope_cos_sin(positions, self._omega_for(positions.device),
                                    attention_factor=self.attention_factor)
            cos, sin = cos.to(dtype), sin.to(dtype)
            return expand_cos_sin(cos, sin, self.pairing) if expanded else (cos, sin)
        table_cos, table_sin = self._table(high + 1, positions.device)
        if positions.dtype not in (torch.int64, torch.int32):   # int16, int8 do not index
            positions = positions.long()
        cos, sin = table_cos[positions].to(dtype), table_sin[positions].to(dtype)
        return expand_cos_sin(cos, sin, self.pairing) if expanded else (cos, sin)

    def _axes(self, q: torch.Tensor) -> tuple[int, int]:
        """The heads and seq sizes of ``q`` (or ``k``) in :attr:`axes`."""
        return (q.shape[1], q.shape[2]) if self.axes == "bhsd" else (q.shape[2], q.shape[1])

    def _swap_hint(self) -> str:
        other = "bshd" if self.axes == "bhsd" else "bhsd"
        names = {"bhsd": "(batch, heads, seq, head_dim)", "bshd": "(batch, seq, heads, head_dim)"}
        return (f": are q and k {names[other]}? transpose(1, 2), or build RotaryEmbedding(..., "
                f"axes={other!r})")

    def positions_for(self, q: torch.Tensor, positions=None, offset=0) -> torch.Tensor:
        """The integer positions of ``q``'s tokens, ``(batch or 1, seq)``: ``positions``
        checked, or ``offset + 0 .. seq - 1``.

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> RotaryEmbedding(2).positions_for(torch.zeros(2, 1, 3, 2), offset=4)
        tensor([[4, 5, 6]])
        """
        heads, seq = self._axes(q)
        return positions_of(q, heads, seq, positions, offset, self._swap_hint)

    def rotation(self, positions=None, *, seq: int | None = None, offset=0,
                 dtype: torch.dtype = torch.float32, device=None
                 ) -> tuple[torch.Tensor, torch.Tensor]:
        """The cos and sin of one forward pass, laid out for the rotation, to share between
        layers: ``rope(q, k, rotation=rope.rotation(position_ids, dtype=q.dtype))`` in each
        layer looks nothing up (transformers likewise computes cos/sin once per forward).

        ``positions`` as in :meth:`forward`, or ``seq`` tokens from ``offset``. Returns two
        tensors of shape ``(batch or 1, 1, seq, rotary_dim)`` in ``dtype``, whatever
        :attr:`axes`.

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> rope = RotaryEmbedding(4)
        >>> q = torch.randn(2, 3, 5, 4)
        >>> shared = rope.rotation(seq=5, offset=7)
        >>> torch.equal(rope(q, q, rotation=shared)[0], rope(q, q, offset=7)[0])
        True
        """
        if positions is None:
            if not _is_int(seq) or seq <= 0:
                raise ValueError(f"seq must be a positive int when positions are not given, "
                                 f"got {seq!r}")
            length, batch = seq, 1
        else:
            positions = positions.to(device) if device is not None else positions
            batch = positions.shape[0] if positions.dim() == 2 else 1
            length, device = positions.shape[-1], positions.device
        shape = (batch, 1, length, self.head_dim) if self.axes == "bhsd" else \
            (batch, length, 1, self.head_dim)
        like = torch.empty(shape, device=device, dtype=dtype)
        cos, sin = self._lookup(self.positions_for(like, positions, offset), dtype, True)
        return cos.unsqueeze(1), sin.unsqueeze(1)

    def _check_qk(self, q, k) -> None:
        names = "(batch, heads, seq, head_dim" if self.axes == "bhsd" else \
            "(batch, seq, heads, head_dim"
        for name, t in (("q", q), ("k", k)):
            if not isinstance(t, torch.Tensor) or t.dtype not in _FLOAT or t.dim() != 4 or \
                    t.shape[-1] != self.head_dim:
                got = (f"shape {tuple(t.shape)}, {t.dtype}" if isinstance(t, torch.Tensor)
                       else type(t).__name__)
                raise ValueError(f"{name} must be a floating-point tensor of shape {names}="
                                 f"{self.head_dim}), got {got}")
        if q.dtype != k.dtype:
            raise TypeError(f"q and k must have the same dtype, got {q.dtype} and {k.dtype}")
        (q_heads, q_seq), (k_heads, k_seq) = self._axes(q), self._axes(k)
        if k.shape[0] != q.shape[0] or k_seq != q_seq:
            hint = self._swap_hint() if k.shape[0] == q.shape[0] and k_heads == q_heads else ""
            raise ValueError(f"q and k must have the same batch and seq (the new tokens) in "
                             f"{names}), got {tuple(q.shape)} and {tuple(k.shape)}{hint}")
        if k_heads == 0 or q_heads % k_heads:
            raise ValueError(f"k's heads must divide q's (grouped-query attention), got "
                             f"{k_heads} and {q_heads} in {names}): {tuple(q.shape)} and "
                             f"{tuple(k.shape)}")
        if self.num_heads is not None and q_heads != self.num_heads:
            raise ValueError(f"q must have num_heads={self.num_heads} heads, got {q_heads} on "
                             f"the heads axis of {names}), shape {tuple(q.shape)}"
                             f"{self._swap_hint()}")

    def forward(self, q: torch.Tensor, k: torch.Tensor, positions=None, *, offset=0,
                rotation: tuple[torch.Tensor, torch.Tensor] | None = None
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """Rotate ``q`` and ``k`` (the same positions), in :attr:`axes`.

        Parameters
        ----------
        q, k : torch.Tensor
            Floating point, one dtype, ``(batch, heads, seq, head_dim)`` (``axes="bhsd"``, the
            default) or ``(batch, seq, heads, head_dim)`` (``axes="bshd"``); ``k`` may have
            fewer heads (grouped-query attention).
        positions : torch.Tensor, optional
            Integer ``position_ids``, ``(batch, seq)``, ``(1, seq)`` or ``(seq,)``.
        offset : int or integer tensor, default 0
            Without ``positions``: the tokens are at ``offset .. offset + seq - 1``, e.g. the
            length of a KV cache; a ``(batch,)`` tensor gives one offset per row.
        rotation : tuple of torch.Tensor, optional
            From :meth:`rotation`, computed once per forward pass and shared by the layers
            (instead of ``positions`` or ``offset``).

        Returns
        -------
        tuple of torch.Tensor
            Rotated ``q`` and ``k``, their shapes and dtypes.

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> rope = RotaryEmbedding(2)
        >>> q = torch.tensor([1.0, 0.0]).expand(2, 1, 2, 2)
        >>> rope(q, q, torch.tensor([[0, 1], [5, 6]]))[0][1, 0, 0]     # cos 5, sin 5
        tensor([ 0.2837, -0.9589])
        """
        self._check_qk(q, k)
        heads, seq = self._axes(q)
        if rotation is not None:
            if positions is not None or not (_is_int(offset) and offset == 0):
                raise ValueError("pass rotation, or positions/offset, not both (rotation holds "
                                 "the positions)")
            cos, sin = rotation
            if cos.shape[-2] != seq or cos.shape[-1] != self.rotary_dim:
                hint = self._swap_hint() if cos.shape[-2] == heads else \
                    ": build it with rope.rotation(...)"
                raise ValueError(f"rotation is for {cos.shape[-2]} tokens of rotary_dim="
                                 f"{cos.shape[-1]}, q has {seq} tokens (rotary_dim="
                                 f"{self.rotary_dim}){hint}")
            # in q's dtype, as apply_rotary casts: a float32 rotation must not promote bfloat16
            # q and k to float32
            cos, sin = cos.to(q.dtype), sin.to(q.dtype)
        elif positions is None and type(offset) is int and offset >= 0 and \
                self._cacheable(offset + seq) and not torch.compiler.is_compiling():
            table_cos, table_sin = self._table(offset + seq, q.device)   # a KV cache's offset
            cos, sin = expand_cos_sin(table_cos[offset:offset + seq].to(q.dtype),
                                      table_sin[offset:offset + seq].to(q.dtype), self.pairing)
        else:
            cos, sin = self._lookup(self.positions_for(q, positions, offset), q.dtype, True)
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)             # over the heads
        if self.axes == "bshd":     # cos, sin: (seq, r) or (batch or 1, 1, seq, r); seq first
            cos, sin = (cos.unsqueeze(-2), sin.unsqueeze(-2)) if cos.dim() == 2 else \
                (cos.transpose(-3, -2), sin.transpose(-3, -2))
        return _rotate(q, cos, sin, self.pairing), _rotate(k, cos, sin, self.pairing)

    def extra_repr(self) -> str:
        """What ``repr`` shows inside the parentheses: the widths, the pairing and a YaRN
        attention factor when it is not 1.

        Examples
        --------
        >>> from posenc.torch_module.rotary import RotaryEmbedding
        >>> RotaryEmbedding(8, rotary_dim=4)
        RotaryEmbedding(head_dim=8, rotary_dim=4, pairing='halves')
        """
        parts = [f"head_dim={self.head_dim}"]
        if self.rotary_dim != self.head_dim:
            parts.append(f"rotary_dim={self.rotary_dim}")
        parts.append(f"pairing={self.pairing!r}")
        if self.attention_factor != 1.0:
            parts.append(f"attention_factor={self.attention_factor:g}")
        return ", ".join(parts)
