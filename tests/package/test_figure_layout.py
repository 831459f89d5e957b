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


def phone_layout(fig):
    """The figure as a phone shows it (figure_html): narrowed, or its panels restacked."""
    from posenc.plots._svg import _floor_text, _panels, _restack

    _floor_text(fig)
    w, h = fig.get_size_inches()
    side_by_side = len({ax.get_subplotspec().colspan.start for ax in _panels(fig)}) > 1
    if w > NARROW_IN:
        if side_by_side:
            _restack(fig, NARROW_IN)
        else:
            fig.set_size_inches(NARROW_IN, h)
    fig.canvas.draw()
    return fig


def text_problems(fig) -> list:
    """Text drawn outside the figure (clipped), or two texts overlapping (by more than a pixel
    each way). Tick labels outside the axis limits are not drawn and not counted."""
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    hidden = set()
    for ax in fig.axes:
        for axis, lim in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not min(lim) - 1e-9 <= tick.get_loc() <= max(lim) + 1e-9:
                    hidden.update((id(tick.label1), id(tick.label2)))
    texts = [(t.get_text(), t.get_window_extent(renderer)) for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and id(t) not in hidden]
    edge, found = fig.bbox, []
    for text, box in texts:
        if box.x0 < edge.x0 - 1 or box.x1 > edge.x1 + 1 or box.y0 < edge.y0 - 1 or box.y1 > edge.y1 + 1:
            found.append(f"clipped: {text!r}")
    for k, (a, box_a) in enumerate(texts):
        for b, box_b in texts[k + 1:]:
            if min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 1 \
                    and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 1:
                found.append(f"overlap: {a!r} and {b!r}")
    return found


def first_read_figures():
    """The figures of the home page, the tour and chapters 7 and 8, as they call them."""
    import posenc
    from posenc.attention import embed, random_weights, self_attention
    from posenc.plots.architecture import where_it_enters
    from posenc.plots.attention import attention_weights
    from posenc.plots.encoding import heatmap
    from posenc.plots.naive import similarity_curves
    from posenc.plots.rotation import attend_back, circle_shift, sine_ambiguity
    from posenc.plots.similarity import similarity_matrix
    from posenc.plots.spectrum import wavelength_spectrum
    from posenc.plots.uniqueness import clock_path
    from posenc.plots.waves import bits_vs_waves

    tokens = "the quick brown fox jumps".split()
    weights = self_attention(embed(tokens, 8), *random_weights(8, seed=0))[1]
    pos = np.arange(100)
    table = np.stack([np.sin(pos), np.sin(0.1 * pos)], axis=1)
    return {
        "heatmap": lambda: heatmap(posenc.encode(100, 128), title="d_model = 128, positions 0-99"),
        "where_it_enters": lambda: where_it_enters(("the", "cat", "sat"), d_model=16),
        "attention_weights": lambda: attention_weights([("original order", tokens, weights),
                                                        ("shuffled", tokens[::-1], weights)]),
        "similarity_curves": lambda: similarity_curves(np.arange(0, 1001, 10),
                                                       {"cat + pos vs dog + pos": [0.1] * 101}),
        "bits_vs_waves": lambda: bits_vs_waves(32, 4),
        "clock_path": lambda: clock_path(table, pair_=(11, 55), labels=("sin(pos)", "sin(0.1 pos)"),
                                         pair_label="same sin(pos): 11 and 55"),
        "sine_ambiguity": lambda: sine_ambiguity(0.6),
        "circle_shift": lambda: circle_shift(pos=2.0, k=1.5, omega=1.0),
        "attend_back": lambda: attend_back(3, 64, 30),
        "wavelength_spectrum": lambda: wavelength_spectrum((128, 512)),
        "similarity_matrix": lambda: similarity_matrix(posenc.encode(200, 128),
                                                       title="d_model = 128, positions 0-199"),
    }


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    """Each test's figures are closed after it (pyplot warns past 20 open figures, and the
    suite turns RuntimeWarning into an error for whatever test runs next in the process)."""
    yield
    import matplotlib.pyplot as plt
    plt.close("all")


@pytest.mark.parametrize("name", sorted(first_read_figures()))
def test_no_label_collides_or_is_clipped_on_a_phone(name):
    """At a phone's width (the layout figure_html gives a phone), no text of the figure runs
    off its edge and no two texts overlap."""
    fig = phone_layout(first_read_figures()[name]())
    assert not text_problems(fig), text_problems(fig)


def labels_on_dots(fig) -> list:
    """Position labels of a clock path (annotations) whose box, widened by a dot's radius,
    holds the centre of another position's dot."""
    from matplotlib.text import Annotation

    ax, renderer = fig.axes[0], fig.canvas.get_renderer()
    dots = ax.transData.transform(ax.collections[0].get_offsets())
    radius = np.sqrt(14) / 2 * fig.dpi / 72                 # scatter size s=14 (points^2)
    found = []
    for label in fig.findobj(Annotation):
        box, own = label.get_window_extent(renderer), ax.transData.transform(label.xy)
        others = dots[np.hypot(*(dots - own).T) > 1e-6]
        if np.any((box.x0 - radius < others[:, 0]) & (others[:, 0] < box.x1 + radius)
                  & (box.y0 - radius < others[:, 1]) & (others[:, 1] < box.y1 + radius)):
            found.append(label.get_text())
    return found


@pytest.mark.parametrize("omega", [(1.0, 0.1), (1.0, None), (0.1, None)])
def test_clock_path_labels_sit_on_no_other_dot_on_a_phone(omega):
    """The tour's and chapters 5-6's clock paths (two sines, or a sine and its cosine) label
    every tenth position next to its own dot, on no neighbour's (the newcomer read saw "20"
    on another dot)."""
    from posenc.plots.uniqueness import clock_path

    pos = np.arange(100)
    fast, slow = omega
    second = np.sin(slow * pos) if slow else np.cos(fast * pos)
    fig = phone_layout(clock_path(np.stack([np.sin(fast * pos), second], axis=1), pair_=(11, 55),
                                  labels=("a", "b"), pair_label="pair"))
    assert not labels_on_dots(fig), labels_on_dots(fig)
    assert not text_problems(fig), text_problems(fig)


def test_the_label_check_bites():
    fig, ax = new_figure(figsize=(4, 3))
    ax.text(0.5, 0.5, "one label")
    ax.text(0.52, 0.5, "another label")
    ax.text(0.98, 0.5, "a label off the edge", transform=fig.transFigure)
    found = text_problems(phone_layout(fig))
    assert any(f.startswith("overlap") for f in found) and any(f.startswith("clipped") for f in found)
