"""Figures for the chapters "Is one sine enough?" and "Why run many clocks at once?": where positions collide."""

from __future__ import annotations

import numbers

import numpy as np

from ._data import curve, pair
from ._svg import FOREGROUND, PALETTE, SEQUENTIAL, new_figure, styled


def _omega(omega, name: str = "omega") -> float:
    if isinstance(omega, bool) or not isinstance(omega, numbers.Real) or not (
            np.isfinite(omega) and omega > 0):
        raise ValueError(f"{name} must be a positive finite number, got {omega!r}")
    return float(omega)


@styled
def sine_collisions(pos, omega: float = 1.0, *, pair_=None):
    """``sin(omega * pos)`` at integer positions (dots) on the continuous wave, with the pair of
    positions given as ``pair_`` (usually the nearest pair) marked and joined by a dashed line.

    Examples
    --------
    >>> from posenc.plots.uniqueness import sine_collisions
    >>> fig = sine_collisions(range(20), 1.0, pair_=(11, 17))
    >>> fig.axes[0].get_ylabel()
    'sin(ω · pos)'
    """
    positions = curve(list(pos), "pos")
    omega = _omega(omega)
    rows = pair(pair_, positions, "pair_")
    fine = np.linspace(positions.min(), positions.max(), 30 * positions.size)
    fig, ax = new_figure(figsize=(6.8, 3.0))
    ax.plot(fine, np.sin(omega * fine), color=PALETTE[4], lw=1.0)
    ax.plot(positions, np.sin(omega * positions), "o", color=PALETTE[0], ms=3)
    if rows is not None:
        xs = positions[rows]
        ys = np.sin(omega * xs)
        ax.plot(xs, ys, "s", color=PALETTE[5], ms=8, mfc="none", mew=2)
        ax.plot(xs, ys, "--", color=PALETTE[5], lw=1.2)
        # Label the left point to its left and the right one to its right, so that the labels
        # of two neighbours (78 and 79) do not print on top of each other.
        for x, y, side in zip(xs, ys, np.sign(xs - xs.mean())):
            ax.annotate(f"pos {x:g}", (x, y), textcoords="offset points", xytext=(6 * side, 9),
                        ha={-1: "right", 1: "left"}.get(side, "center"), fontsize=8)
    ax.set_xlabel("position")
    ax.set_ylabel("sin(ω · pos)")
    ax.set_title(f"ω = {omega:g}")
    ax.set_ylim(-1.3, 1.35)
    return fig


def _label_place(t, j: int, chars: int) -> dict:
    """Where point ``j``'s label goes: of eight directions around it, the one whose label box
    (7 pt text, ``chars`` wide, as on a 390 px phone) keeps farthest from every other dot, so
    no label sits on a neighbour's dot (first read, issue 32)."""
    span = float(max(np.ptp(t[:, 0]), np.ptp(t[:, 1]))) or 1.0
    points = (t - t[j]) / span * 150.0          # the plot is about 150 pt wide on a phone
    points = np.delete(points, j, axis=0)
    w, h = 4.2 * chars, 7.0
    best, where = -1.0, {}
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)):
        x0 = 3 if dx > 0 else -3 - w if dx < 0 else -w / 2
        y0 = 3 if dy > 0 else -3 - h if dy < 0 else -h / 2
        gx = np.maximum(0, np.maximum(x0 - points[:, 0], points[:, 0] - (x0 + w)))
        gy = np.maximum(0, np.maximum(y0 - points[:, 1], points[:, 1] - (y0 + h)))
        room = float(np.hypot(gx, gy).min()) if len(points) else np.inf
        if room > best + 0.5:
            best = room
            where = {"xytext": (3 * dx, 3 * dy),
                     "ha": "left" if dx > 0 else "right" if dx < 0 else "center",
                     "va": "bottom" if dy > 0 else "top" if dy < 0 else "center"}
    return where


@styled
def clock_path(table, *, positions=None, pair_=None, labels=("column 0", "column 1"),
               label_every: int = 10, pair_label: str | None = None):
    """The path of a two-column encoding: one dot per position, coloured by position, the
    points joined in order; ``pair_`` (e.g. the nearest pair) is circled, with the legend
    ``pair_label`` (default "closest pair: a and b": pass another when the pair circled is not
    the closest one of this table).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plots.uniqueness import clock_path
    >>> pos = np.arange(30)
    >>> fig = clock_path(np.stack([np.sin(pos), np.sin(0.1 * pos)], axis=1), pair_=(3, 25))
    >>> fig.axes[0].get_xlabel()
    'column 0'
    """
    t = np.asarray(table)
    if t.dtype.kind not in "iuf" or t.ndim != 2 or t.shape[1] != 2 or t.shape[0] < 2:
        raise ValueError(f"table must be a real array of shape (n, 2), got shape {t.shape}")
    pos = np.arange(t.shape[0]) if positions is None else curve(positions, "positions",
                                                                t.shape[0])
    rows = pair(pair_, pos, "pair_")
    if isinstance(label_every, bool) or not isinstance(label_every, numbers.Integral) \
            or label_every < 1:
        raise ValueError(f"label_every must be a positive integer, got {label_every!r}")
    fig, ax = new_figure(figsize=(5.2, 4.6))
    ax.plot(t[:, 0], t[:, 1], color="0.6", lw=0.6)
    dots = ax.scatter(t[:, 0], t[:, 1], c=pos, cmap=SEQUENTIAL, s=14, zorder=3,
                      edgecolors=FOREGROUND, linewidths=0.4)   # dark dots on a dark page
    for j in range(0, t.shape[0], label_every):
        ax.annotate(f"{pos[j]:g}", t[j], textcoords="offset points", fontsize=7,
                    **_label_place(t, j, len(f"{pos[j]:g}")))
    if rows is not None:
        if pair_label is None:
            pair_label = f"closest pair: {pos[rows[0]]:g} and {pos[rows[1]]:g}"
        elif not isinstance(pair_label, str):
            raise TypeError(f"pair_label must be a string, got {pair_label!r}")
        ax.scatter(t[rows, 0], t[rows, 1], s=160, facecolors="none", edgecolors=PALETTE[5],
                   linewidths=2, zorder=4, label=pair_label)
        ax.legend(loc="upper left", bbox_to_anchor=(0.0, 1.12))
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.set_aspect("equal")
    fig.colorbar(dots, ax=ax, label="position", shrink=0.8)
    return fig
