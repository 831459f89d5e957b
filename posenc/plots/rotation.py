"""Figures for the chapter "Why pair sine with cosine?": one sine is ambiguous, a (sin, cos)
point on the circle is not, and a shift by k is a rotation of that point."""

from __future__ import annotations

import numbers

import numpy as np

from ._svg import PALETTE, SEQUENTIAL, new_figure, styled


def _real(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def _circle(ax):
    t = np.linspace(0.0, 2.0 * np.pi, 361)
    ax.plot(np.sin(t), np.cos(t), color="0.6", lw=1.0)
    ax.axhline(0.0, color="0.8", lw=0.6)
    ax.axvline(0.0, color="0.8", lw=0.6)
    ax.set_aspect("equal")
    ax.set_xlim(-1.35, 1.35)
    ax.set_ylim(-1.35, 1.35)
    ax.set_xlabel("sin(angle)")
    ax.set_ylabel("cos(angle)")


@styled
def sine_ambiguity(x: float = 0.6):
    """Two angles, ``x`` and ``pi - x``, that one sine cannot tell apart but the circle can.

    Left: ``sin`` with the two angles at the same height. Right: the points
    ``(sin, cos)`` of the same two angles, mirror images across the horizontal axis.

    Parameters
    ----------
    x : float, default 0.6
        The first angle in radians; ``sin(x)`` must not be ``+-1`` (then the two angles coincide).

    Examples
    --------
    >>> from posenc.plots.rotation import sine_ambiguity
    >>> fig = sine_ambiguity(0.6)
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['angle (radians)', 'sin(angle)']
    """
    x = _real(x, "x")
    if np.isclose(abs(np.sin(x)), 1.0):
        raise ValueError(f"x must not be a peak of the sine (then x and pi - x coincide), got {x}")
    y = np.pi - x
    fig, (left, right) = new_figure(1, 2, figsize=(7.2, 3.3))
    t = np.linspace(-0.5, 2.0 * np.pi + 0.5, 400)
    left.plot(t, np.sin(t), color="0.4", lw=1.2)
    left.axhline(np.sin(x), color="0.7", lw=0.8, ls="--")
    for angle, colour, label in ((x, PALETTE[0], "x"), (y, PALETTE[5], "pi - x")):
        left.plot([angle], [np.sin(angle)], "o", color=colour, ms=8, label=f"{label} = {angle:.2f}")
        right.plot([np.sin(angle)], [np.cos(angle)], "o", color=colour, ms=8,
                   label=f"{label}: ({np.sin(angle):.2f}, {np.cos(angle):.2f})")
    left.set_xlabel("angle (radians)")
    left.set_ylabel("sin(angle)")
    left.set_title("one sine: same value")
    left.legend(loc="lower left", fontsize=8)
    _circle(right)
    right.set_title("(sin, cos): different points")
    right.legend(loc="lower left", fontsize=8)
    return fig


@styled
def circle_shift(pos: float = 2.0, k: float = 1.5, omega: float = 1.0):
    """The point ``(sin(omega pos), cos(omega pos))`` and its image after a shift by ``k``.

    The pair is drawn with ``sin`` across and ``cos`` up, the order it is stored in; with that
    choice a growing position moves the point clockwise, by the angle ``omega k``.

    Parameters
    ----------
    pos, k : float
        Starting position and offset.
    omega : float, default 1
        The pair's frequency; ``omega * k`` must be between 0 and 2 pi (exclusive) so the arc
        is drawable.

    Examples
    --------
    >>> from posenc.plots.rotation import circle_shift
    >>> fig = circle_shift(2.0, 1.5)
    >>> fig.axes[0].get_ylabel()
    'cos(angle)'
    """
    pos, k, omega = _real(pos, "pos"), _real(k, "k"), _real(omega, "omega")
    theta = omega * k
    if not 0.0 < theta < 2.0 * np.pi:
        raise ValueError(f"omega * k must be between 0 and 2 pi to draw the arc, got {theta}")
    a = omega * pos
    fig, ax = new_figure(figsize=(4.4, 4.4))
    _circle(ax)
    arc = np.linspace(a, a + theta, 100)
    ax.plot(0.55 * np.sin(arc), 0.55 * np.cos(arc), color=PALETTE[2], lw=1.5)
    ax.annotate("", xy=(0.55 * np.sin(arc[-1]), 0.55 * np.cos(arc[-1])),
                xytext=(0.55 * np.sin(arc[-3]), 0.55 * np.cos(arc[-3])),
                arrowprops={"arrowstyle": "->", "color": PALETTE[2], "lw": 1.5})
    mid = a + theta / 2
    ax.text(0.38 * np.sin(mid), 0.38 * np.cos(mid), "omega k", ha="center", va="center",
            color=PALETTE[2], fontsize=9)
    for angle, colour, label in ((a, PALETTE[0], "PE(pos)"), (a + theta, PALETTE[5], "PE(pos + k)")):
        px, py = np.sin(angle), np.cos(angle)
        ax.plot([0, px], [0, py], color=colour, lw=1.0)
        ax.plot([px], [py], "o", color=colour, ms=8)
        ax.annotate(label, (px, py), xytext=(1.17 * px, 1.17 * py), ha="center", va="center",
                    color=colour, fontsize=9)
    ax.set_title(f"shift by k = {k:g}: rotate clockwise by {theta:.2f} rad")
    return fig


@styled
def attend_back(k: int = 3, d_model: int = 64, n_positions: int = 30):
    """Scores of every query position against every key position when the query weights are
    the rotation ``M_k`` (``W_Q = M_k``, ``W_K = I``): a query at ``p`` becomes ``PE(p - k)``, so
    each row scores highest ``k`` positions back, the same band at every position.

    Parameters
    ----------
    k : int, default 3
        How far back each query looks, ``1 <= k < n_positions``.
    d_model : int, default 64
        Width of the encoding (even).
    n_positions : int, default 30
        Positions ``0 .. n_positions - 1`` on both axes.

    Examples
    --------
    >>> from posenc.plots.rotation import attend_back
    >>> fig = attend_back(3, 64, 30)
    >>> fig.axes[0].get_xlabel(), fig.axes[1].get_ylabel()
    ('key position', 'score / 32')

    See the chapter "Why pair sine with cosine?" (docs/chapters/07-why-pair-sine-with-cosine.md).
    """
    from ..encoding import encode
    from ..rotation import rotation_matrix

    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an integer, got {k!r}")
    if isinstance(n_positions, (bool, np.bool_)) or not isinstance(n_positions, numbers.Integral):
        raise TypeError(f"n_positions must be an integer, got {n_positions!r}")
    if not 1 <= k < n_positions:
        raise ValueError(f"k must be at least 1 and below n_positions={n_positions}, got {k}")
    pe = encode(int(n_positions), d_model)
    scores = (pe @ rotation_matrix(int(k), d_model)) @ pe.T / (d_model / 2)
    fig, ax = new_figure(figsize=(4.6, 4.2))
    n = int(n_positions)
    image = ax.imshow(scores, cmap=SEQUENTIAL, vmin=scores.min(), vmax=1.0,
                      extent=(-0.5, n - 0.5, n - 0.5, -0.5), interpolation="nearest")
    rows = np.arange(int(k), n)
    ax.plot(scores[rows].argmax(axis=1), rows, "o", color=PALETTE[5], ms=3.5)  # row maxima
    ax.set_xlabel("key position")
    ax.set_ylabel("query position")
    ax.set_title(f"query weights W_Q = M_{int(k)}")
    fig.colorbar(image, ax=ax, label=f"score / {d_model // 2}")   # short: fits a 390 px phone
    return fig
