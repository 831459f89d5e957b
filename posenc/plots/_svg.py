"""Render matplotlib figures as inline SVG for the site: deterministic, themeable, accessible.

* Deterministic: a fixed ``svg.hashsalt`` and no date, so two builds write identical bytes.
* Themeable: text, axes and ticks are drawn in a sentinel colour that becomes ``currentColor``,
  so the figure follows the page's light or dark text colour; backgrounds are transparent.
* Accessible: the SVG gets ``role="img"`` and a ``<title>`` holding the alt text, which should
  state the figure's takeaway, not its appearance.
* Cached when asked: if ``POSENC_FIGURE_CACHE`` names a folder (the site build sets it to
  ``.cache/figures``), an SVG is stored there under a digest of everything that decides its bytes
  (the figure's full pickled state, the alt text, every rcParam at render time, matplotlib's
  version and this module's source) and reused when the same figure is drawn again. Any change
  to the data, the plotting code's output or the style is a new digest, so a stale figure cannot
  be served; a figure that cannot be pickled is simply rendered.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import html
import io
import os
import pickle
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.text  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.transforms import TransformNode  # noqa: E402

FOREGROUND = "#0b0c0d"
"""Sentinel colour for text and axes; replaced by ``currentColor`` in the SVG."""

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"]
"""Okabe-Ito colours, distinguishable with the common colour-vision deficiencies."""

THEMED = {"#0072b2": "blue", "#e69f00": "orange", "#009e73": "green", "#cc79a7": "pink",
          "#56b4e9": "sky", "#d55e00": "vermillion", "#f0e442": "yellow", "#999999": "grey",
          "#808080": "grey", "#666666": "muted"}
"""Line and text colours the page's stylesheet sets per theme (``--posenc-blue`` ...), each at
least 3:1 against the page background in light and dark mode (assets/posenc.css); the SVG keeps
the Okabe-Ito value as the fallback."""

MIN_FONT_PT = 10
"""Smallest text in a figure: at the widths below it is read at 11 px or more on a 1280 px
screen and 9 px or more on a 390 px phone."""

NARROW_IN = 5.0
"""Width of every figure on a phone (its 358 px column shows 10 pt text at 9.9 px)."""

WIDE_IN = 7.1
"""Widest a figure may be on a desktop: unscaled in the 688 px column at 1280 px."""

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
_THEMED = re.compile("|".join(THEMED), re.IGNORECASE)
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
    >>> from posenc.plots import new_figure, to_svg
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
    with style():
        _floor_text(fig)
        key = _cache_key(fig, alt)
        cached = _cache_read(key)
        if cached is None:
            buffer = io.StringIO()
            fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    if close:
        plt.close(fig)
    if cached is not None:
        return cached
    text = buffer.getvalue()
    text = text[text.index("<svg"):]                      # drop the XML prolog and doctype
    text = _TITLE.sub("", text)
    text = text.replace(FOREGROUND, "currentColor")
    text = _THEMED.sub(lambda m: f"var(--posenc-{THEMED[m.group(0).lower()]}, {m.group(0)})", text)
    text = _round_geometry(text)
    label = html.escape(alt.strip(), quote=True)
    text = text.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    head_end = text.index(">") + 1
    text = text[:head_end] + f"<title>{label}</title>" + text[head_end:]
    _cache_write(key, text)
    return text


def _floor_text(fig: Figure) -> None:
    """Raise every text of the figure (tick labels, legends, annotations) to MIN_FONT_PT."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):             # later ticks copy the tick_params,
            # and the first tick is their template (reading every tick places them all: slow)
            if axis.majorTicks[0].label1.get_fontsize() < MIN_FONT_PT:
                ax.tick_params(axis=axis.axis_name, labelsize=MIN_FONT_PT)
    for text in fig.findobj(matplotlib.text.Text):
        if text.get_fontsize() < MIN_FONT_PT:
            text.set_fontsize(MIN_FONT_PT)


def _panels(fig: Figure) -> list:
    """The figure's plotting panels (no colour bars), in reading order."""
    panels = [ax for ax in fig.axes if ax.get_subplotspec() is not None and ax.get_visible()]
    return sorted(panels, key=lambda ax: (ax.get_subplotspec().rowspan.start,
                                          ax.get_subplotspec().colspan.start))


def _restack(fig: Figure, width: float) -> bool:
    """Lay the figure out ``width`` inches wide: side-by-side panels go into one column (two
    when there are more than three), each keeping its shape. False if it cannot be restacked."""
    panels = _panels(fig)
    if not panels:
        return False
    grid = panels[0].get_subplotspec().get_gridspec()
    rows, cols = grid.get_geometry()
    w, h = fig.get_size_inches()
    if cols == 1 or any(ax.get_subplotspec().get_gridspec() is not grid for ax in panels):
        fig.set_size_inches(width, h)
        return True
    ncols = 1 if len(panels) <= 3 else 2
    nrows = -(-len(panels) // ncols)
    aspect = (w / cols) / (h / rows)                  # of one panel, titles and labels included
    panel_h = min(max(width / ncols / aspect, 1.8), 3.4)
    stacked = fig.add_gridspec(nrows, ncols)
    for k, ax in enumerate(panels):
        ax.set_subplotspec(stacked[k // ncols, k % ncols])
    fig.set_size_inches(width, panel_h * nrows + 0.3)
    return True


class _StablePickler(pickle.Pickler):
    """Pickles a figure without the parts that change from process to process or with what ran
    before: each transform's ``_parents`` (back-references keyed by ``id()`` that only serve
    invalidation) and the figure's pyplot number (which counts the figures already open)."""

    def reducer_override(self, obj):
        if isinstance(obj, Figure):
            reduced = list(obj.__reduce_ex__(5))
            if len(reduced) > 2 and isinstance(reduced[2], dict):
                reduced[2] = {k: v for k, v in reduced[2].items()
                              if k not in ("_number", "number", "_restore_to_pylab")}
            return tuple(reduced)
        if not isinstance(obj, TransformNode):
            return NotImplemented
        reduced = list(obj.__reduce_ex__(5))
        if len(reduced) > 2 and isinstance(reduced[2], dict) and "_parents" in reduced[2]:
            reduced[2] = {**reduced[2], "_parents": None}
        return tuple(reduced)


@functools.lru_cache(maxsize=1)
def _renderer_source() -> str:
    """This module's source, read once: a change to the rendering code is a new digest."""
    return Path(__file__).read_text()


def _cache_key(fig: Figure, alt: str) -> str | None:
    """Digest of everything that decides the SVG's bytes, or None when not caching."""
    if not os.environ.get("POSENC_FIGURE_CACHE"):
        return None
    digest = hashlib.sha256()
    try:
        buffer = io.BytesIO()
        _StablePickler(buffer, protocol=5).dump(fig)
    except Exception:                                # e.g. a lambda formatter: just render
        return None
    digest.update(buffer.getvalue())
    rc = sorted((k, repr(v)) for k, v in plt.rcParams.items())
    for part in (alt, repr(rc), matplotlib.__version__, _renderer_source()):
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()


def _cache_path(key: str) -> Path:
    return Path(os.environ["POSENC_FIGURE_CACHE"]) / f"{key}.svg"


def _cache_read(key: str | None) -> str | None:
    if key is None:
        return None
    path = _cache_path(key)
    try:
        text = path.read_text(encoding="utf-8")
        os.utime(path)                               # used: keep it (hooks/figure_cache.py)
        return text
    except OSError:
        return None


def _cache_write(key: str | None, text: str) -> None:
    if key is None:
        return
    path = _cache_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)                    # atomic: a reader never sees half a file
    except OSError:
        pass


def figure_html(fig: Figure, alt: str, caption: str | None = None) -> str:
    """Wrap :func:`to_svg` in a ``<figure>`` with an optional caption, ready for a page.

    Examples
    --------
    >>> from posenc.plots import new_figure, figure_html
    >>> fig, ax = new_figure()
    >>> out = figure_html(fig, alt="Empty axes.", caption="Nothing to see.")
    >>> out.startswith('<figure class="posenc-figure">') and "<figcaption>" in out
    True
    """
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    w, h = fig.get_size_inches()
    side_by_side = len({ax.get_subplotspec().colspan.start for ax in _panels(fig)}) > 1
    if w <= NARROW_IN or not side_by_side:            # one layout for every screen
        if w > NARROW_IN:
            fig.set_size_inches(NARROW_IN, h)
        return f'<figure class="posenc-figure">{to_svg(fig, alt)}{cap}</figure>'
    # Panels side by side on a desktop, stacked on a phone: two drawings, CSS shows one.
    if w > WIDE_IN:
        fig.set_size_inches(WIDE_IN, h * WIDE_IN / w)
    wide = _unique_ids(to_svg(fig, alt, close=False), "w")
    _restack(fig, NARROW_IN)
    narrow = _unique_ids(to_svg(fig, alt), "n")
    return (f'<figure class="posenc-figure posenc-figure--two"><div class="posenc-figure__wide">'
            f'{wide}</div><div class="posenc-figure__narrow">{narrow}</div>{cap}</figure>')


_ID = re.compile(r'\sid="([^"]+)"')


def _unique_ids(svg: str, prefix: str) -> str:
    """Prefix the SVG's element ids (and the references to them): two drawings of one figure
    on a page must not share a clip path or marker id."""
    ids = set(_ID.findall(svg))
    if not ids:
        return svg
    names = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    svg = re.sub(rf'(\sid=")({names})"', rf'\g<1>{prefix}-\g<2>"', svg)
    return re.sub(rf'([("]#)({names})([)"])', rf'\g<1>{prefix}-\g<2>\g<3>', svg)
