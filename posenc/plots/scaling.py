"""Figures for RoPE scaling in the chapter "Where does it fall short, and what came next?": ramps
and frequency ratios per pair.

The functions draw what they are given; the chapter computes the values with
:mod:`posenc.scaling`.
"""

from __future__ import annotations

import numpy as np

from ._svg import PALETTE, new_figure, styled

_STYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)))


def _lines(lines, name: str) -> dict:
    if not isinstance(lines, dict) or not lines:
        raise ValueError(f"{name} must be a non-empty dict of label -> values")
    out, size = {}, None
    for label, values in lines.items():
        y = np.asarray(values, dtype=float)
        if y.ndim != 1 or y.size == 0 or not np.isfinite(y).all():
            raise ValueError(f"{name}[{label!r}] must be a non-empty 1-D array of finite numbers, "
                             f"got shape {y.shape}")
        if size is not None and y.size != size:
            raise ValueError(f"{name}[{label!r}] must have {size} values like the others, "
                             f"got {y.size}")
        size = y.size
        out[label] = y
    return out


@styled
def ramps_by_pair(ramps, *, marks=None):
    """YaRN-style ramps, one line per label, against the pair index ``i``.

    Parameters
    ----------
    ramps : dict of str to array_like
        ``{label: gamma}``, each of shape ``(d_model // 2,)``: 1 keeps a pair's frequency,
        0 divides it by the factor.
    marks : dict of str to float, optional
        Vertical dotted lines at fractional pair indices (for example the correction pairs).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.scaling import ramps_by_pair
    >>> fig = ramps_by_pair({"a": [1, 0.5, 0], "b": [1, 0.2, 0]}, marks={"x": 1.0})
    >>> fig.axes[0].get_xlabel()
    'pair index i'
    """
    ramps = _lines(ramps, "ramps")
    fig, ax = new_figure(figsize=(6.4, 3.4))
    for n, (label, y) in enumerate(ramps.items()):
        ax.plot(np.arange(y.size), y, _STYLES[n % len(_STYLES)], color=PALETTE[n % len(PALETTE)],
                label=label, lw=1.8, marker="o", ms=2.5)
    for n, (label, x) in enumerate((marks or {}).items()):
        ax.axvline(float(x), color="#999999", ls=":", lw=1)
        left = n % 2 == 0                   # labels alternate sides of their lines
        ax.annotate(label, (float(x), 0.3 if left else 0.6), fontsize=10,
                    ha="right" if left else "left", xytext=(-4 if left else 4, 0),
                    textcoords="offset points")
    ax.set_xlabel("pair index i")
    ax.set_ylabel("ramp: 1 keep, 0 divide by s")
    ax.set_ylim(-0.05, 1.05)
    ax.legend(fontsize=10, loc="upper right")
    return fig


@styled
def frequency_ratios(ratios, *, factor=None):
    """Scaled over original frequency, ``omega'_i / omega_i``, per pair, on a log scale.

    Parameters
    ----------
    ratios : dict of str to array_like
        ``{method: omega'_i / omega_i}``, positive, each of shape ``(d_model // 2,)``.
    factor : float, optional
        Draws the levels 1 (kept) and ``1 / factor`` (interpolated) as guides.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.scaling import frequency_ratios
    >>> fig = frequency_ratios({"PI": [0.25, 0.25], "kept": [1.0, 1.0]}, factor=4.0)
    >>> fig.axes[0].get_yscale(), [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ('log', ['1', '1/2', '1/4'])
    """
    ratios = _lines(ratios, "ratios")
    if any(np.any(y <= 0) for y in ratios.values()):
        raise ValueError("ratios must be positive (a frequency ratio)")
    fig, ax = new_figure(figsize=(6.4, 3.6))
    if factor is not None:
        for level in (1.0, 1.0 / float(factor)):
            ax.axhline(level, color="#999999", ls=":", lw=1)
    for n, (label, y) in enumerate(ratios.items()):
        ax.plot(np.arange(y.size), y, linestyle=_STYLES[n % len(_STYLES)],
                color=PALETTE[n % len(PALETTE)], label=label, lw=1.8)
    ax.set_yscale("log", base=2)
    low = min(float(y.min()) for y in ratios.values())
    ticks = 2.0 ** -np.arange(0, int(np.ceil(-np.log2(low))) + 1)     # 1, 1/2, 1/4, ...
    ax.set_yticks(ticks, ["1" if t == 1 else f"1/{round(1 / t)}" for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("pair index i (fast pairs left)")
    ax.set_ylabel("scaled / original frequency")
    ax.legend(fontsize=10)
    return fig
