"""Figures of the encoding table itself."""

from __future__ import annotations

import numpy as np

from ._svg import DIVERGING, new_figure, styled


@styled
def heatmap(table, *, title: str | None = None, first_pos: int = 0):
    """Heatmap of an encoding table: positions down, dimensions across, values in [-1, 1].

    Parameters
    ----------
    table : array_like, shape (n_positions, d_model)
        Usually ``posenc.encode(n, d_model)``.
    title : str, optional
        Axes title.
    first_pos : int, default 0
        Position of the first row (for the axis labels).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.encoding import heatmap
    >>> from posenc import encode
    >>> fig = heatmap(encode(20, 16))
    >>> fig.axes[0].get_xlabel()
    'dimension'
    """
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or 0 in table.shape:
        raise ValueError(f"table must be a non-empty 2-D array, got shape {table.shape}")
    fig, ax = new_figure(figsize=(6.4, 3.6))
    n, d = table.shape
    image = ax.imshow(table, cmap=DIVERGING, vmin=-1.0, vmax=1.0, aspect="auto",
                      interpolation="nearest",
                      extent=(-0.5, d - 0.5, first_pos + n - 0.5, first_pos - 0.5))
    ax.set_xlabel("dimension")
    ax.set_ylabel("position")
    if title:
        ax.set_title(title)
    fig.colorbar(image, ax=ax, label="value")
    return fig
