"""How far one table is from another, position by position (chapters 11 and 12)."""

from __future__ import annotations

import numpy as np

from ._svg import PALETTE, new_figure, styled

_DASHES = ("-", "--", "-.", ":")
_MARKERS = ("o", "s", "^", "D", "v", "x", "P")


@styled
def error_by_position(curves, *, positions=None, title: str | None = None,
                      floor: float | None = None, ylabel: str = "max |error| in the row"):
    """Worst error of a table row against the float64 table, one line per way of building it.

    Parameters
    ----------
    curves : dict of str to array_like
        Label -> 1-D array of non-negative errors, one per position (all the same length).
        Zeros are drawn at the bottom of the log scale.
    positions : array_like, optional
        The position of each entry (default ``0, 1, 2, ...``); e.g. the first position of each
        block when the errors are maxima over blocks of rows.
    title : str, optional
        Axes title.
    floor : float, optional
        Draw a dashed horizontal line here (e.g. half a unit in the last place).
    ylabel : str, default "max |error| in the row"
        Label of the (log-scale) y axis.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.casting import error_by_position
    >>> fig = error_by_position({"a": [1e-3, 2e-3], "b": [1e-8, 1e-8]}, floor=1e-3)
    >>> fig.axes[0].get_yscale(), fig.axes[0].get_xlabel()
    ('log', 'position')
    """
    if not isinstance(curves, dict) or not curves:
        raise ValueError("curves must be a non-empty dict of label -> errors per position")
    arrays = {label: np.asarray(v, dtype=float) for label, v in curves.items()}
    shapes = sorted({a.shape for a in arrays.values()})
    if len(shapes) != 1 or len(shapes[0]) != 1 or shapes[0][0] == 0:
        raise ValueError(f"every curve must be a non-empty 1-D array of the same length, got "
                         f"shapes {shapes}")
    x = np.arange(shapes[0][0]) if positions is None else np.asarray(positions, dtype=float)
    if x.shape != shapes[0]:
        raise ValueError(f"positions must have shape {shapes[0]}, got {x.shape}")
    if any((a < 0).any() or not np.isfinite(a).all() for a in arrays.values()):
        raise ValueError("errors must be finite and non-negative")
    positives = np.concatenate([a[a > 0] for a in arrays.values()])
    bottom = positives.min() / 4 if positives.size else 1e-16     # where zeros are drawn
    fig, ax = new_figure(figsize=(5.0, 4.2))
    # Curves may lie on top of each other: each gets its own dash and marker, the markers
    # staggered along the curve, so every one stays visible.
    step = max(1, x.size // 8)
    for k, (colour, (label, a)) in enumerate(zip(PALETTE, arrays.items())):
        ax.plot(x, np.maximum(a, bottom), label=label, color=colour, lw=1.2,
                ls=_DASHES[k % len(_DASHES)], marker=_MARKERS[k % len(_MARKERS)], ms=5,
                markevery=(k * step // len(arrays), step), fillstyle="none")
    if floor is not None:
        ax.axhline(floor, color="0.5", ls="--", lw=1, label=f"{floor:.3g}")
    ax.set_yscale("log")
    ax.set_xlabel("position")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    long_label = max(len(label) for label in arrays) > 26
    fig.legend(loc="outside lower center", ncols=1 if long_label else 2)
    return fig
