"""Figures are readable on a phone and in both themes (posenc/plots/_svg.py): text never below
MIN_FONT_PT, no figure wider than NARROW_IN on a phone, panels side by side drawn a second time
stacked, and line colours taken from the page's theme variables."""

import re

import numpy as np

from posenc.plots._svg import MIN_FONT_PT, NARROW_IN, THEMED, figure_html, new_figure, to_svg


def _sizes(svg):
    return [float(x) for x in re.findall(r"font-size: ([\d.]+)px", svg)]


def test_small_text_is_raised_to_the_floor():
    fig, ax = new_figure(figsize=(4, 3))
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(fontsize=6)
    ax.tick_params(labelsize=5)
    ax.text(0.5, 0.5, "note", fontsize=7)
    sizes = _sizes(to_svg(fig, alt="A line."))
    assert sizes and min(sizes) >= MIN_FONT_PT


def test_line_colours_follow_the_theme():
    fig, ax = new_figure(figsize=(4, 3))
    for k in range(3):
        ax.plot([0, 1], [k, k + 1])
    svg = to_svg(fig, alt="Three lines.")
    assert "var(--posenc-blue, #0072b2)" in svg and "var(--posenc-orange, #e69f00)" in svg
    bare = re.findall(r"(?<!, )(#[0-9a-fA-F]{6})", svg)
    assert not [c for c in bare if c.lower() in THEMED], bare


def test_a_wide_single_panel_is_narrowed():
    fig, ax = new_figure(figsize=(6.4, 3.0))
    ax.plot([0, 1], [0, 1])
    out = figure_html(fig, alt="One panel.")
    assert out.count("<svg") == 1
    assert float(re.search(r'width="([\d.]+)pt"', out).group(1)) <= NARROW_IN * 72


def test_panels_side_by_side_are_stacked_for_a_phone():
    fig, axes = new_figure(1, 3, figsize=(10, 3))
    for ax in axes:
        ax.imshow(np.eye(3))
    fig.colorbar(axes[0].images[0], ax=list(axes))
    out = figure_html(fig, alt="Three panels.", caption="c")
    wide, narrow = re.findall(r'<div class="posenc-figure__(?:wide|narrow)">(<svg.*?</svg>)\s*</div>', out, re.S)
    w = lambda svg: float(re.search(r'width="([\d.]+)pt"', svg).group(1))   # noqa: E731
    h = lambda svg: float(re.search(r'height="([\d.]+)pt"', svg).group(1))  # noqa: E731
    assert w(narrow) <= NARROW_IN * 72 < w(wide)
    assert h(narrow) > 2 * h(wide)                                           # one above the other
    ids = [set(re.findall(r'\sid="([^"]+)"', svg)) for svg in (wide, narrow)]
    assert ids[0] and not ids[0] & ids[1], "the two drawings share element ids"
    for svg, own in zip((wide, narrow), ids):
        for ref in re.findall(r'(?:url\(#|href="#)([^)"]+)', svg):
            assert ref in own, ref
