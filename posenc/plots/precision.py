"""Figures of the precision chapter: error of each way of building the table, by position."""

from __future__ import annotations

import numpy as np

from ._svg import PALETTE, new_figure, styled


@styled
def error_by_position(positions, errors: dict, *, floor: float = 1e-9):
    """Log-log plot of the largest error per position, one line per method.

    Parameters
    ----------
    positions : array_like
        1-D positive positions (the x axis).
    errors : dict
        ``{label: per-position errors}``, each the same length as ``positions``, as from
        :func:`posenc.precision.row_errors`; ``nan`` (overflow) is left out of the line.
    floor : float, default 1e-9
        Errors below it are drawn at it (a log axis has no zero).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.precision import error_by_position
    >>> fig = error_by_position([10, 100], {"a": [1e-6, 1e-5]})
    >>> fig.axes[0].get_xscale(), fig.axes[0].get_ylabel()
    ('log', 'largest |error| in the row')
    """
    x = np.asarray(positions, dtype=float)
    if x.ndim != 1 or x.size == 0 or np.any(~(x > 0)):
        raise ValueError("positions must be a non-empty 1-D array of positive numbers")
    if not isinstance(errors, dict) or not errors:
        raise ValueError("errors must be a non-empty dict {label: per-position errors}")
    if len(errors) > len(PALETTE):
        raise ValueError(f"errors can hold at most {len(PALETTE)} lines, got {len(errors)}")
    fig, ax = new_figure(figsize=(5.0, 4.6))
    dashes = ["-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (1, 2)), (0, (8, 2))]
    for k, (label, err) in enumerate(errors.items()):
        err = np.asarray(err, dtype=float)
        if err.shape != x.shape:
            raise ValueError(f"errors[{label!r}] has shape {err.shape}, positions {x.shape}")
        ax.plot(x, np.maximum(err, floor), linestyle=dashes[k], linewidth=1.5,
                color=PALETTE[k], label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("position")
    ax.set_ylabel("largest |error| in the row")
    ax.axhline(2.0**-25, color="0.5", linewidth=0.8, linestyle="--")
    ax.text(x.min(), 2.0**-25 * 1.5, "half a float32 ulp", fontsize=8, color="0.5")
    fig.legend(loc="outside lower center", ncols=2)     # below: the plot keeps the width
    return fig
