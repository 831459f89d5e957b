"""Render matplotlib figures as inline SVG for the site: deterministic, themeable, accessible.

* Deterministic: a fixed ``svg.hashsalt`` and no date, so two builds write identical bytes.
* Themeable: text, axes and ticks are drawn in a sentinel colour that becomes ``currentColor``,
  so the figure follows the page's light or dark text colour; backgrounds are transparent.
* Accessible: the SVG gets ``role="img"`` and a ``<title>`` holding the alt text, which should
  state the figure's takeaway, not its appearance.
"""

from __future__ import annotations

import contextlib
import functools
import html
import io
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

FOREGROUND = "#0b0c0d"
"""Sentinel colour for text and axes; replaced by ``currentColor`` in the SVG."""

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"]
"""Okabe-Ito colours, distinguishable with the common colour-vision deficiencies."""

DIVERGING = "PuOr"
"""Colour map for signed values in [-1, 1] (colour-blind safe, symmetric about 0)."""

SEQUENTIAL = "cividis"
"""Colour map for one-signed values (designed for colour-vision deficiencies)."""

STYLE = {
    "svg.hashsalt": "posenc",
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 10,
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.facecolor": "none",
    "savefig.transparent": True,
    "text.color": FOREGROUND,
    "axes.labelcolor": FOREGROUND,
    "axes.edgecolor": FOREGROUND,
    "axes.titlecolor": FOREGROUND,
    "xtick.color": FOREGROUND,
    "ytick.color": FOREGROUND,
    "legend.frameon": False,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "image.cmap": SEQUENTIAL,
}


@contextlib.contextmanager
def style():
    """Context manager applying the site's plotting style."""
    with plt.rc_context(STYLE):
        yield


def styled(func):
    """Decorator: run a plotting function under :func:`style`, so every artist it makes
    (legends, colour bars, text) takes the site's colours."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with style():
            return func(*args, **kwargs)

    return wrapper


def new_figure(*args, **kwargs):
    """``plt.subplots`` under the site style; returns ``(fig, axes)``."""
    kwargs.setdefault("layout", "constrained")
    with style():
        return plt.subplots(*args, **kwargs)


_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)
# Geometry attributes only: text, labels and alt text keep every digit they were given.
_GEOMETRY = re.compile(r'(\s(?:d|x|y|x1|x2|y1|y2|cx|cy|r|width|height|transform|points)=")([^"]*)"')
_LONG_DECIMAL = re.compile(r"(-?\d+\.\d{2})\d+")


def _round_geometry(svg: str) -> str:
    """Round coordinates to 0.01 pt (invisible at any zoom a page allows); a third smaller."""
    return _GEOMETRY.sub(lambda m: m.group(1) + _LONG_DECIMAL.sub(r"\1", m.group(2)) + '"', svg)


def to_svg(fig: Figure, alt: str, *, close: bool = True) -> str:
    """Serialise ``fig`` to an SVG string with ``alt`` as its accessible title.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to render.
    alt : str
        Alt text: one or two sentences with the takeaway. Must not be empty.
    close : bool, default True
        Close the figure afterwards to free memory.

    Returns
    -------
    str
        An ``<svg>`` element with ``role="img"``, ``aria-label`` and ``<title>``.

    Examples
    --------
    >>> fig, ax = new_figure()
    >>> _ = ax.plot([0, 1], [0, 1])
    >>> svg = to_svg(fig, alt="A rising line.")
    >>> svg.startswith("<svg") and 'aria-label="A rising line."' in svg
    True
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    if not isinstance(alt, str) or not alt.strip():
        raise ValueError("alt must be a non-empty sentence stating the figure's takeaway")
    buffer = io.StringIO()
    with style():
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    if close:
        plt.close(fig)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]                      # drop the XML prolog and doctype
    text = _TITLE.sub("", text)
    text = text.replace(FOREGROUND, "currentColor")
    text = _round_geometry(text)
    label = html.escape(alt.strip(), quote=True)
    text = text.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    head_end = text.index(">") + 1
    return text[:head_end] + f"<title>{label}</title>" + text[head_end:]


def figure_html(fig: Figure, alt: str, caption: str | None = None) -> str:
    """Wrap :func:`to_svg` in a ``<figure>`` with an optional caption, ready for a page.

    Examples
    --------
    >>> fig, ax = new_figure()
    >>> out = figure_html(fig, alt="Empty axes.", caption="Nothing to see.")
    >>> out.startswith('<figure class="posenc-figure">') and "<figcaption>" in out
    True
    """
    body = to_svg(fig, alt)
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="posenc-figure">{body}{cap}</figure>'
