"""The sinusoidal module under ``torch.compile``: two custom operators keep NumPy and
data-dependent checks out of traced graphs.

The compiler sees each as one opaque call (with a fake implementation for shapes), and runs it as
plain Python when the compiled code runs, so ``fullgraph=True`` works and its errors are the
module's own (:class:`~posenc.torch_module.sinusoidal.SinusoidalPositionalEncoding`). See the
chapter "What must a PyTorch module for the encoding get right?"
(docs/chapters/11-a-pytorch-module.md).
"""

from __future__ import annotations

import functools

import torch

from .table import build_table


def _range_error(positions: torch.Tensor, max_len: int, kind: str) -> Exception | None:
    """The error for ``positions`` outside ``0 .. max_len - 1`` (``None`` if all fit).

    ``kind`` says where they came from, so the message is the one an eager call gives:
    ``"positions"`` (given), ``"start"`` (``start + 0 .. seq - 1``), ``"padded"`` (counted over
    the tokens that are not padding; never negative)."""
    if positions.numel() == 0:
        return None
    low, high = (int(v) for v in torch.aminmax(positions))
    if kind == "start":
        first = int(positions.reshape(-1)[0])
        if first < 0:
            return ValueError(f"start must be >= 0, got {first}")
        if high >= max_len:
            return ValueError(
                f"positions {first}..{high} do not fit a table of max_len={max_len} rows "
                f"(positions 0..{max_len - 1}); build the module with max_len >= {high + 1}")
        return None
    if kind == "positions" and low < 0:
        return ValueError(f"positions must be >= 0, got {low}")
    if high >= max_len:
        return ValueError(
            f"position {high} does not fit a table of max_len={max_len} rows "
            f"(positions 0..{max_len - 1}); build the module with max_len >= {high + 1}")
    return None


@torch.library.custom_op("posenc::check_positions", mutates_args=())
def _checked(positions: torch.Tensor, max_len: int, kind: str) -> torch.Tensor:
    """``positions`` (a copy) after checking them against ``max_len``; see :func:`_range_error`.

    Under torch.compile the module calls this instead of checking inline: the check needs the
    values, which a traced graph does not have. The copy gives the result a use, so the
    compiler cannot drop the call."""
    error = _range_error(positions, max_len, kind)
    if error is not None:
        raise error
    return positions.clone()


@_checked.register_fake
def _(positions, max_len, kind):
    return torch.empty_like(positions)


def _in_graph_check(positions: torch.Tensor, max_len: int, kind: str) -> torch.Tensor:
    """The range check inside a traced graph.

    Under ``torch.export`` it is ``torch._assert_async``, a plain ATen op, so an exported
    program loads and runs where posenc is not installed (its message is fixed when traced);
    under ``torch.compile`` the custom op :func:`_checked`, whose errors are the eager ones."""
    if torch.compiler.is_exporting():
        low = 0 if kind == "start" or kind == "positions" else -1
        inside = ((positions >= low) & (positions < max_len)).all()
        torch._assert_async(inside, f"posenc: a position is negative or does not fit a table "
                                    f"of max_len={max_len} rows; build the module with a larger "
                                    f"max_len")
        return positions
    return _checked(positions, max_len, kind)


@functools.lru_cache(maxsize=8)
def _shared_table(key: tuple, dtype: torch.dtype, device: str) -> torch.Tensor:
    max_len, d_model, base, spacing, layout, offset, odd = key
    return build_table(max_len, d_model, dtype=dtype, base=base, spacing=spacing,
                       layout=layout, offset=offset, odd=odd).to(device)


@torch.library.custom_op("posenc::table_rows", mutates_args=())
def _table_rows(positions: torch.Tensor, max_len: int, d_model: int, base: float,
                spacing: str, layout: str, offset: int, odd: str,
                dtype: torch.dtype) -> torch.Tensor:
    """Rows ``positions`` of the table in ``dtype`` on ``positions.device``.

    Under torch.compile, for an input whose dtype or device the module holds no table for: the
    table is built (NumPy, float64, rounded once) outside the graph and kept in a small cache
    shared by modules with the same arguments."""
    key = (max_len, d_model, base, spacing, layout, offset, odd)
    return _shared_table(key, dtype, str(positions.device))[positions]


@_table_rows.register_fake
def _(positions, max_len, d_model, base, spacing, layout, offset, odd, dtype):
    return positions.new_empty((*positions.shape, d_model), dtype=dtype)
