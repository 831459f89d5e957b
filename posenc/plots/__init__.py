"""Figures for the site: each function returns a matplotlib Figure; pages render them to SVG
at build time with :func:`figure_html`, so no image is ever committed."""

from .._extras import require

require("matplotlib", "plots", "posenc.plots")

from ._svg import DIVERGING, PALETTE, SEQUENTIAL, figure_html, new_figure, style, styled, to_svg

__all__ = ["DIVERGING", "PALETTE", "SEQUENTIAL", "figure_html", "new_figure", "style", "styled", "to_svg"]
