"""Figures for the chapter "How do digits turn into waves?": counters and the waves that replace them."""

from __future__ import annotations

import numbers

import numpy as np

from ..candidates import binary_bits
from ._svg import PALETTE, new_figure, styled


def _count(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value}")
    return int(value)


@styled
def bits_vs_waves(n_positions: int = 32, n_columns: int = 4):
    """Left: the lowest binary bits of 0 .. n_positions - 1, each a square wave that flips twice
    as slowly as the one before. Right: a zero-centred sine with the same period per column.

    Examples
    --------
    >>> from posenc.plots.waves import bits_vs_waves
    >>> fig = bits_vs_waves(16, 3)
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['position', 'position']
    """
    n_positions = _count(n_positions, "n_positions", 2, 4096)  # 12 bits
    n_columns = _count(n_columns, "n_columns", 1, 8)
    pos = np.arange(n_positions)
    bits = binary_bits(pos, n_bits=12)[:, :n_columns]         # (n, n_columns), 0 or 1
    fine = np.linspace(0, n_positions - 1, 40 * n_positions)
    fig, (left, right) = new_figure(1, 2, figsize=(7.2, 3.4), sharey=True)
    for j in range(n_columns):
        offset = -2.6 * j
        colour = PALETTE[j % len(PALETTE)]
        left.step(pos, 2 * bits[:, j] - 1 + offset, where="post", color=colour, lw=1.8)
        left.plot(pos, 2 * bits[:, j] - 1 + offset, "o", color=colour, ms=2.5)
        period = 2 ** (j + 1)
        wave = lambda x: np.sin(2 * np.pi * x / period)  # noqa: E731  (phase 0; crests on integers from period 4)
        right.plot(fine, wave(fine) + offset, color=colour, lw=1.8)
        right.plot(pos, wave(pos) + offset, "o", color=colour, ms=2.5)
    left.set_yticks([-2.6 * j for j in range(n_columns)],
                    [f"bit {j} (period {2 ** (j + 1)})" for j in range(n_columns)])
    left.set_title("binary counter: jumps")
    right.set_title("waves, same periods: glides")
    for ax in (left, right):
        ax.set_xlabel("position")
    return fig


@styled
def dimension_waves(table, dims, *, positions=None):
    """Selected columns of an encoding table plotted against position, one panel per column.

    Parameters
    ----------
    table : array_like, shape (n_positions, d_model)
    dims : sequence of int
        Column indices to draw.
    positions : array_like, optional
        Position of each row (default ``0 .. n - 1``).

    Examples
    --------
    >>> from posenc.plots.waves import dimension_waves
    >>> from posenc import encode
    >>> fig = dimension_waves(encode(50, 16), [0, 4])
    >>> len(fig.axes)
    2
    """
    t = np.asarray(table)
    if t.dtype.kind not in "iuf" or t.ndim != 2 or t.shape[0] < 2:
        raise ValueError(f"table must be a real 2-D array with at least 2 rows, got shape "
                         f"{t.shape} and dtype {t.dtype}")
    dims = list(dims)
    if not dims or any(isinstance(d, bool) or not isinstance(d, numbers.Integral)
                       or not 0 <= d < t.shape[1] for d in dims):
        raise ValueError(f"dims must be a non-empty list of column indices in 0..{t.shape[1] - 1}"
                         f", got {dims!r}")
    pos = np.arange(t.shape[0]) if positions is None else np.asarray(positions, dtype=float)
    if pos.shape != (t.shape[0],):
        raise ValueError(f"positions must have one entry per row ({t.shape[0]}), got shape "
                         f"{pos.shape}")
    fig, axes = new_figure(len(dims), 1, figsize=(6.4, 1.25 * len(dims) + 0.6), sharex=True,
                           squeeze=False)
    for j, (ax, d) in enumerate(zip(axes[:, 0], dims)):
        ax.plot(pos, t[:, d], color=PALETTE[j % len(PALETTE)], lw=1.6)
        ax.set_ylim(-1.15, 1.15)
        ax.set_ylabel(f"dim {d}", rotation=0, ha="right", va="center")
        ax.axhline(0.0, color="0.6", lw=0.6)
    axes[-1, 0].set_xlabel("position")
    return fig
