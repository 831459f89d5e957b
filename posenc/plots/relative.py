"""Figure for the chapter "Where does it fall short, and what came next?": scores as a function
of the offset n - m."""

from __future__ import annotations

import numpy as np

from ._svg import PALETTE, new_figure, styled

_STYLES = ("-", "--", ":", "-.")


@styled
def scores_by_offset(offsets, panels, *, ylabel: str = "score"):
    """One panel per title; in each, one line per label, plotted against the offset.

    Parameters
    ----------
    offsets : array_like, shape (n,)
        The offsets ``n - m`` on the x axis.
    panels : dict of str to dict of str to array_like
        ``{panel title: {line label: values of shape (n,)}}``; lines that coincide are drawn
        with different dash styles so both stay visible.
    ylabel : str, default "score"

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.relative import scores_by_offset
    >>> fig = scores_by_offset([0, 1, 2], {"A": {"m = 0": [1, 2, 3]}, "B": {"x": [0, 0, 1]}})
    >>> [ax.get_title() for ax in fig.axes]
    ['A', 'B']
    """
    x = np.asarray(offsets, dtype=float)
    if x.ndim != 1 or x.size == 0 or not np.isfinite(x).all():
        raise ValueError(f"offsets must be a non-empty 1-D array of finite numbers, got shape {x.shape}")
    if not isinstance(panels, dict) or not panels or \
            not all(isinstance(lines, dict) and lines for lines in panels.values()):
        raise ValueError("panels must be a non-empty dict of title -> non-empty dict of label -> values")
    fig, axes = new_figure(1, len(panels), figsize=(3.4 * len(panels) + 0.4, 3.2), squeeze=False)
    for ax, (title, lines) in zip(axes[0], panels.items()):
        for n, (label, values) in enumerate(lines.items()):
            y = np.asarray(values, dtype=float)
            if y.shape != x.shape:
                raise ValueError(f"line {label!r} in panel {title!r} must have shape {x.shape}, "
                                 f"got {y.shape}")
            ax.plot(x, y, _STYLES[n % len(_STYLES)], color=PALETTE[n % len(PALETTE)],
                    label=label, lw=1.5)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("offset n - m")
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel(ylabel)
    return fig
