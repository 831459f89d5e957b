"""Figures for the chapter "What should a good encoding satisfy?": the candidates side by side."""

from __future__ import annotations

import numbers

import numpy as np

from ..candidates import get
from ._svg import PALETTE, new_figure, styled


@styled
def gallery(keys, n: int = 64, *, max_columns: int = 4):
    """One small panel per candidate: its first ``max_columns`` columns over positions
    ``0 .. n - 1`` (in a sequence of length ``n``).

    Examples
    --------
    >>> from posenc.plots.candidates import gallery
    >>> fig = gallery(["raw_index", "binary_bits"], n=16)
    >>> [ax.get_title() for ax in fig.axes]
    ['raw index', 'binary bits (12)']
    """
    if isinstance(keys, str) or not list(keys):
        raise TypeError("keys must be a non-empty list of candidate keys")
    cands = [get(k) for k in keys]
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    cols = 2
    rows = (len(cands) + cols - 1) // cols
    fig, axes = new_figure(rows, cols, figsize=(7.0, 1.9 * rows + 0.4), squeeze=False)
    pos = np.arange(n)
    for ax, cand in zip(axes.flat, cands):
        table = np.asarray(cand(n, n))
        for j in range(min(max_columns, table.shape[1])):
            ax.plot(pos, table[:, j], color=PALETTE[j % len(PALETTE)], lw=1.3,
                    drawstyle="steps-post" if "digits" in cand.key or "bits" in cand.key
                    else "default")
        ax.set_title(cand.label)
        ax.set_xlabel("position")
    for ax in list(axes.flat)[len(cands):]:
        ax.set_visible(False)
    # One key for every panel: colour j is column j of each candidate's table.
    shown = max(range(len(cands)), key=lambda k: len(axes.flat[k].lines))
    fig.legend(axes.flat[shown].lines, [f"column {j}" for j in range(len(axes.flat[shown].lines))],
               loc="outside upper center", ncols=4)
    return fig
