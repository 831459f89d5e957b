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
    >>> fig = similarity_curves([0, 1, 2], {"a": [1.0, 0.5, 0.2]})
    >>> fig.axes[0].get_xlabel()
    'position added to every entry'
    """
    x = curve(pos, "pos")
    if not isinstance(curves, dict) or not curves:
        raise TypeError("curves must be a non-empty dict of label -> values")
    fig, ax = new_figure(figsize=(6.4, 3.2))
    styles = ["-", "--", ":", "-."]
    for j, (label, y) in enumerate(curves.items()):
        ax.plot(x, curve(y, f"curves[{label!r}]", x.size), styles[j % 4], label=label, lw=2)
    ax.set_xlabel("position added to every entry")
    ax.set_ylabel(ylabel)
    ax.set_ylim(-0.05, 1.05)
    ax.legend(loc="center right")
    return fig
