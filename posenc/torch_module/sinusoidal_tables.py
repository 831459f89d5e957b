"""The sinusoidal module's tables: one per input dtype, each entry rounded once from float64,
built on first use and moved with the module.

A mixin of :class:`~posenc.torch_module.sinusoidal.SinusoidalPositionalEncoding` (class Notes);
see the chapter "What must a PyTorch module for the encoding get right?"
(docs/chapters/11-a-pytorch-module.md).
"""

from __future__ import annotations

import torch

from .compile_ops import _table_rows
from .table import FLOAT_DTYPES, build_table

_DTYPE_NAMES = ", ".join(str(d).removeprefix("torch.") for d in FLOAT_DTYPES)


class SinusoidalTables:
    """Mixin of :class:`~posenc.torch_module.sinusoidal.SinusoidalPositionalEncoding`: its
    tables (``self._tables``, one per dtype) and :meth:`table`, :attr:`nbytes`; it reads the
    module's ``max_len``, ``d_model``, ``base``, ``spacing``, ``layout``, ``offset`` and ``odd``.

    Examples
    --------
    >>> from posenc.torch_module.sinusoidal import SinusoidalPositionalEncoding
    >>> from posenc.torch_module.sinusoidal_tables import SinusoidalTables
    >>> isinstance(SinusoidalPositionalEncoding(8, 16), SinusoidalTables)
    True
    """

    def _build(self, dtype: torch.dtype) -> torch.Tensor:
        return build_table(self.max_len, self.d_model, dtype=dtype, base=self.base,
                           spacing=self.spacing, layout=self.layout, offset=self.offset,
                           odd=self.odd)

    def _key(self) -> tuple:
        return (self.max_len, self.d_model, self.base, self.spacing, self.layout, self.offset,
                self.odd)

    def table(self, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        """The ``(max_len, d_model)`` table in ``dtype``, each entry rounded once from float64
        (built now if the module has none in that dtype).

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module import SinusoidalPositionalEncoding
        >>> pe = SinusoidalPositionalEncoding(d_model=4, max_len=3)
        >>> pe.table().shape
        torch.Size([3, 4])
        >>> pe.table(torch.bfloat16)[1]            # sin 1, cos 1, sin 0.01, cos 0.01
        tensor([0.8398, 0.5391, 0.0100, 1.0000], dtype=torch.bfloat16)
        """
        if dtype not in FLOAT_DTYPES:
            raise TypeError(f"dtype must be one of {_DTYPE_NAMES}, got {dtype!r}")
        if dtype not in self._tables:
            device = next(iter(self._tables.values()), torch.empty(0)).device
            device = torch.device("cpu") if device.type == "meta" else device
            self._tables[dtype] = self._build(dtype).to(device)
        return self._tables[dtype]

    @property
    def nbytes(self) -> int:
        """Bytes held by the tables (one per dtype built).

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module import SinusoidalPositionalEncoding
        >>> SinusoidalPositionalEncoding(512, max_len=1000).nbytes        # float32: 4 bytes
        2048000
        >>> SinusoidalPositionalEncoding(512, 1000, dtype=torch.bfloat16).nbytes
        1024000
        """
        return sum(t.nbytes for t in self._tables.values())

    def _apply(self, fn, recurse=True):
        """``.to()``, ``.half()``, ``.cuda()``, ``.to_empty()`` ...: build the table for the
        dtype the cast gives (rounded once from float64, never cast from another table) and
        move the tables to its device, so a compiled call finds them ready."""
        result = super()._apply(fn, recurse)
        tables = {}
        for dtype, table in self._tables.items():
            try:
                probe = fn(torch.empty(0, dtype=dtype, device=table.device))
            except Exception:               # not a cast or a move: leave the tables alone
                probe = None
            if not isinstance(probe, torch.Tensor):
                tables.setdefault(dtype, table)
                continue
            if probe.device != table.device:
                table = self._build(dtype).to(probe.device) if table.is_meta else \
                    table.to(probe.device)
            tables.setdefault(dtype, table)
            if probe.dtype in FLOAT_DTYPES and probe.dtype not in tables:
                tables[probe.dtype] = self._build(probe.dtype).to(probe.device)
        self._tables = tables
        return result

    def _table_for(self, x) -> torch.Tensor | None:
        """The table for ``x``'s dtype on ``x``'s device, built or moved if needed; ``None``
        under torch.compile when the module has none (the rows then come from
        :func:`_table_rows`, outside the graph)."""
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"x must be a torch.Tensor of shape {self._shape()}, got "
                            f"{type(x).__name__}")
        if x.dtype not in FLOAT_DTYPES:
            raise TypeError(
                f"x must be floating point ({_DTYPE_NAMES}), got {x.dtype}; positions are "
                "added to token embeddings, so pass the embedded tokens, not the token ids")
        table = self._tables.get(x.dtype)
        if table is not None and table.device == x.device:
            return table
        if torch.compiler.is_compiling():
            return None
        if table is not None and table.is_meta:            # no data to move: rebuild
            del self._tables[x.dtype]
        table = self.table(x.dtype).to(x.device)           # moves: the old copy is dropped
        self._tables[x.dtype] = table
        return table

    def _gather(self, table, positions, x) -> torch.Tensor:
        if table is not None:
            return table[positions]
        return _table_rows(positions.to(x.device), *self._key(), x.dtype)
