"""The derivation chapters' figures draw, and refuse bad input with a clear message."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from posenc import encode
from posenc.plots import to_svg
from posenc.plots.candidates import gallery
from posenc.plots.naive import similarity_curves
from posenc.plots.uniqueness import clock_path, sine_collisions
from posenc.plots.waves import bits_vs_waves, dimension_waves


def test_figures_draw():
    figs = [
        similarity_curves([0, 1, 2], {"a": [1.0, 0.5, 0.0], "b": [0.0, 0.5, 1.0]}),
        bits_vs_waves(16, 3),
        dimension_waves(encode(20, 8), [0, 7]),
        sine_collisions(range(30), 0.5, pair_=(3, 16)),
        clock_path(np.stack([np.sin(np.arange(20)), np.sin(0.1 * np.arange(20))], 1), pair_=(1, 7)),
        gallery(["raw_index", "single_sine", "binary_bits"], n=16),
    ]
    for fig in figs:
        assert to_svg(fig, alt="draws").startswith("<svg")
    plt.close("all")


def test_bits_panel_shows_the_bits():
    fig = bits_vs_waves(8, 2)
    line = fig.axes[0].lines[0]                  # bit 0 step line, drawn as 2 * bit - 1
    assert line.get_ydata().tolist() == [-1, 1, -1, 1, -1, 1, -1, 1]
    plt.close(fig)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: similarity_curves([0, 1], {}), TypeError, "curves"),
    (lambda: similarity_curves([0, 1, 2], {"a": [1.0, 2.0]}), ValueError, "one per position"),
    (lambda: similarity_curves([0], {"a": [1.0]}), ValueError, "pos"),
    (lambda: bits_vs_waves(1), ValueError, "n_positions"),
    (lambda: bits_vs_waves(8, 9), ValueError, "n_columns"),
    (lambda: bits_vs_waves(8.0), TypeError, "n_positions"),
    (lambda: dimension_waves(encode(5, 4), [4]), ValueError, "dims"),
    (lambda: dimension_waves(encode(5, 4), []), ValueError, "dims"),
    (lambda: dimension_waves(np.ones(5), [0]), ValueError, "table"),
    (lambda: dimension_waves(encode(5, 4), [0], positions=[1, 2]), ValueError, "positions"),
    (lambda: sine_collisions(range(10), 0.0), ValueError, "omega"),
    (lambda: sine_collisions(range(10), 1.0, pair_=(3, 30)), ValueError, "pair_"),
    (lambda: sine_collisions(range(10), 1.0, pair_=3), TypeError, "pair_"),
    (lambda: clock_path(np.ones((5, 3))), ValueError, "shape \\(n, 2\\)"),
    (lambda: clock_path(np.ones((5, 2)), label_every=0), ValueError, "label_every"),
    (lambda: gallery("raw_index"), TypeError, "keys"),
    (lambda: gallery(["raw_index"], n=1), ValueError, "n must be"),
    (lambda: gallery(["nope"]), ValueError, "candidate"),
    (lambda: gallery(["binary_bits"], columns={"binary_bits": [12]}), ValueError, "columns"),
    (lambda: gallery(["binary_bits"], columns={"binary_bits": "0"}), ValueError, "columns"),
    (lambda: gallery(["binary_bits"], columns={"binary_bits": []}), ValueError, "columns"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
    plt.close("all")


def test_gallery_titles_fit_a_phone():
    """Chapter 3's gallery, stacked for a phone as figure_html draws it: every panel title lies
    inside the drawing (a newcomer found the sinusoidal panel's title clipped at 390 px)."""
    from posenc.candidates import CANDIDATES
    from posenc.plots._svg import NARROW_IN, _floor_text, _restack

    fig = gallery(list(CANDIDATES), n=64, columns={"sinusoidal": [0, 8, 16, 62]})
    _floor_text(fig)
    _restack(fig, NARROW_IN)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        if ax.get_visible() and ax.get_title():
            box = ax.title.get_window_extent(renderer)
            assert 0 <= box.x0 and box.x1 <= fig.bbox.width, (ax.get_title(), box)
    plt.close(fig)


def test_gallery_bits_in_lanes_and_a_plain_key():
    """Chapter 3's gallery on a phone (findings ch03-2): drawn as lines over one another, the
    binary bits filled their panel with colour (bit 0 flips at every position), and the key read
    "column 0 or the 1st listed". Each bit column is now bars in a lane of its own, and the key
    names the order of the columns shown."""
    from posenc.candidates import CANDIDATES

    fig = gallery(list(CANDIDATES), n=64, columns={"sinusoidal": [0, 8, 16, 62]})
    bits = next(ax for ax in fig.axes if ax.get_title() == "binary bits (12)")
    assert not bits.lines                                      # no lines drawn over one another
    lanes = [c.get_datalim(bits.transData) for c in bits.collections]
    assert len(lanes) == 4
    for slot, box in enumerate(lanes):                         # lane `slot`: y in [slot, slot + 0.75]
        assert slot <= box.y0 and box.y1 <= slot + 0.75, (slot, box)
    assert [t.get_text() for t in bits.get_yticklabels()] == ["0", "1", "2", "3"]
    key = [t.get_text() for t in fig.legends[0].get_texts()]
    assert key == ["1st column shown", "2nd column shown", "3rd column shown", "4th column shown"]
    plt.close(fig)
