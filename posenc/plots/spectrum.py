"""Figure for the chapter "How do the pieces make the formula?": the wavelengths of the pairs."""

from __future__ import annotations

import numpy as np

from .._checks import check_base, check_d_model
from ..encoding import BASE, wavelengths
from ._svg import PALETTE, new_figure, styled


@styled
def wavelength_spectrum(d_models=(128, 512), base: float = BASE):
    """Wavelength ``2 pi / omega_i`` of every pair, on a log scale, against ``2 i / d_model``.

    On a log axis the geometric spacing of the frequencies is a straight line from ``2 pi`` up
    to (but short of) ``2 pi base``, which is drawn as a dashed line for comparison.

    Parameters
    ----------
    d_models : sequence of int, default (128, 512)
        The widths to draw, one line each.
    base : float, default 10000

    Examples
    --------
    >>> from posenc.plots.spectrum import wavelength_spectrum
    >>> fig = wavelength_spectrum((8, 16))
    >>> fig.axes[0].get_yscale()
    'log'
    """
    d_models = [check_d_model(d, "d_models entry") for d in d_models]
    if not d_models:
        raise ValueError("d_models must hold at least one width")
    base = check_base(base)
    fig, ax = new_figure(figsize=(6.4, 3.6))
    for colour, d in zip(PALETTE, d_models):
        lam = wavelengths(d, base)
        x = 2.0 * np.arange(d // 2) / d
        # The lines coincide, so narrower widths are drawn on top, and only widths with few
        # enough pairs to tell apart get a marker per pair; every width marks its longest pair.
        on_top = 2 + 1 / d
        sparse = d // 2 <= 64
        ax.plot(x, lam, "o-" if sparse else "-", color=colour, ms=2.5,
                lw=1.0 if sparse else 5.0, alpha=1.0 if sparse else 0.55, zorder=on_top,
                label=f"d_model = {d}: longest {lam[-1]:,.0f}")
        ax.plot(x[-1], lam[-1], "o", color=colour, ms=5, zorder=on_top, clip_on=False)
    ax.axhline(2 * np.pi * base, color="0.5", ls="--", lw=1.0)
    ax.text(0.02, 2 * np.pi * base * 1.25, f"2 pi base = {2 * np.pi * base:,.0f} (never reached)",
            fontsize=8, color="0.4")
    ax.set_yscale("log")
    ax.set_xlabel("2i / d_model (pair index as a fraction)")
    ax.set_ylabel("wavelength (positions)")
    ax.set_xlim(0, 1)
    ax.legend(loc="lower right")
    return fig
