"""Figures for the chapter "What should a good encoding satisfy?": the candidates side by side."""

from __future__ import annotations

import numbers

import numpy as np

from ..candidates import get
from ._svg import PALETTE, new_figure, styled


@styled
def gallery(keys, n: int = 64, *, max_columns: int = 4, columns=None):
    """One small panel per candidate: its first ``max_columns`` columns over positions
    ``0 .. n - 1`` (in a sequence of length ``n``), or the columns ``columns[key]`` for the
    candidates named in the mapping ``columns`` (their panel title lists them). Colour ``j`` is
    the ``j``-th column shown. Columns of 0s and 1s (the bits) are drawn as bars, each column in
    a lane of its own: drawn as lines over one another, a column that flips at every position
    fills its panel with colour at a phone's width.

    Examples
    --------
    >>> from posenc.plots.candidates import gallery
    >>> fig = gallery(["raw_index", "binary_bits"], n=16, columns={"binary_bits": [0, 3]})
    >>> [ax.get_title() for ax in fig.axes]
    ['raw index', 'binary bits (12)\\ncolumns 0, 3']
    """
    if isinstance(keys, str) or not list(keys):
        raise TypeError("keys must be a non-empty list of candidate keys")
    cands = [get(k) for k in keys]
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    cols = 2
    rows = (len(cands) + cols - 1) // cols
    columns = {} if columns is None else dict(columns)
    for key, shown in columns.items():
        if isinstance(shown, (str, bytes)) or not all(
                isinstance(j, numbers.Integral) and not isinstance(j, bool) and j >= 0
                for j in shown) or not list(shown):
            raise ValueError(f"columns[{key!r}] must be a non-empty list of column indices, "
                             f"got {shown!r}")
    fig, axes = new_figure(rows, cols, figsize=(7.0, 1.9 * rows + 0.4), squeeze=False)
    pos = np.arange(n)
    for ax, cand in zip(axes.flat, cands):
        table = np.asarray(cand(n, n))
        if table.ndim == 1:
            table = table[:, None]
        picked = columns.get(cand.key)
        shown = list(range(min(max_columns, table.shape[1]))) if picked is None else list(picked)
        if max(shown) >= table.shape[1]:
            raise ValueError(f"columns[{cand.key!r}] must be below {table.shape[1]}, got {shown}")
        binary = np.isin(table[:, shown], (0, 1)).all()
        for slot, j in enumerate(shown):
            colour = PALETTE[slot % len(PALETTE)]
            if binary:                   # lane `slot`: a bar wherever column j is 1
                edges = np.append(pos, n)
                ax.fill_between(edges, slot, slot + 0.75 * np.append(table[:, j], table[-1, j]),
                                step="post", color=colour, lw=0)
            else:
                ax.plot(pos, table[:, j], color=colour, lw=1.3,
                        drawstyle="steps-post" if "digits" in cand.key else "default")
        if binary:
            ax.set_yticks(np.arange(len(shown)) + 0.375, [str(j) for j in shown])
            ax.set_ylabel("column")
        # the columns go on a second line: one line is too wide for a phone's panel
        ax.set_title(cand.label if picked is None
                     else f"{cand.label}\ncolumns {', '.join(str(j) for j in shown)}")
        ax.set_xlabel("position")
    for ax in list(axes.flat)[len(cands):]:
        ax.set_visible(False)
    # One key for every panel: colour j is the j-th column shown, which is column j itself
    # unless the panel's title lists the columns.
    most = max(range(len(cands)), key=lambda k: len(axes.flat[k].lines))
    fig.legend(axes.flat[most].lines,
               [f"column {j}" if not columns else f"{_nth(j)} column shown"
                for j in range(len(axes.flat[most].lines))],
               loc="outside upper center", ncols=2 if columns else 4)
    return fig


def _nth(j: int) -> str:
    return ["1st", "2nd", "3rd"][j] if j < 3 else f"{j + 1}th"
