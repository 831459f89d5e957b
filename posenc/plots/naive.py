"""Figures for the chapter "What if we use the index?"."""

from __future__ import annotations

from ._data import curve
from ._svg import new_figure, styled


@styled
def similarity_curves(pos, curves, *, ylabel: str = "cosine similarity"):
    """Line plot of one or more similarity curves against position.

    Parameters
    ----------
    pos : array_like
        Positions (x axis).
    curves : dict of str -> array_like
        Label -> one value per position.
    ylabel : str
        Label of the y axis.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.naive import similarity_curves
    >>> fig = similarity_curves([0, 1, 2], {"a": [1.0, 0.5, 0.2]})
    >>> fig.axes[0].get_xlabel()
    'position added to every entry'
    >>> bool(fig.axes[0].get_ylim()[0] < -0.2)     # a curve below 0 stays visible
    False
    >>> bool(similarity_curves([0, 1], {"a": [1.0, -0.3]}).axes[0].get_ylim()[0] < -0.3)
    True
    """
    x = curve(pos, "pos")
    if not isinstance(curves, dict) or not curves:
        raise TypeError("curves must be a non-empty dict of label -> values")
    fig, ax = new_figure(figsize=(6.4, 3.2))
    styles = ["-", "--", ":", "-."]
    lowest = 0.0
    for j, (label, y) in enumerate(curves.items()):
        y = curve(y, f"curves[{label!r}]", x.size)
        lowest = min(lowest, float(y.min()))
        ax.plot(x, y, styles[j % 4], label=label, lw=2)
    ax.axhline(0.0, color="0.5", lw=0.8, zorder=0)
    ax.set_xlabel("position added to every entry")
    ax.set_ylabel(ylabel)
    ax.set_ylim(lowest - 0.05, 1.05)  # never clip a curve that dips below 0
    ax.legend(loc="center right")
    return fig
