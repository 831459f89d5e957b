"""The figures of chapters 7-9 draw, and reject bad input."""

import numpy as np
import pytest

import posenc
from posenc.plots import to_svg
from posenc.plots.rotation import attend_back, circle_shift, sine_ambiguity
from posenc.plots.similarity import distance_from_origin, similarity_matrix, similarity_vs_offset
from posenc.plots.spectrum import wavelength_spectrum


@pytest.mark.parametrize("draw", [
    lambda: sine_ambiguity(0.6), lambda: circle_shift(2.0, 1.5),
    lambda: wavelength_spectrum((64, 128)), lambda: similarity_vs_offset((16, 32), 30),
    lambda: similarity_matrix(posenc.encode(12, 16)), lambda: distance_from_origin(16, 30),
    lambda: attend_back(3, 16, 12),
])
def test_figures_draw(draw):
    assert to_svg(draw(), alt="A figure.").startswith("<svg")


BAD = [
    (lambda: sine_ambiguity(np.pi / 2), ValueError, "x"),
    (lambda: sine_ambiguity("a"), TypeError, "x"),
    (lambda: circle_shift(0.0, 10.0), ValueError, "omega \\* k"),
    (lambda: circle_shift(0.0, np.nan), ValueError, "k"),
    (lambda: attend_back(0), ValueError, "k"),
    (lambda: attend_back(30, n_positions=30), ValueError, "k"),
    (lambda: attend_back(1.5), TypeError, "k"),
    (lambda: attend_back(3, n_positions=2.0), TypeError, "n_positions"),
    (lambda: attend_back(3, d_model=7), ValueError, "d_model"),
    (lambda: wavelength_spectrum(()), ValueError, "d_models"),
    (lambda: wavelength_spectrum((7,)), ValueError, "d_models"),
    (lambda: wavelength_spectrum((8,), base=1.0), ValueError, "base"),
    (lambda: similarity_vs_offset((8,), max_offset=0), ValueError, "max_offset"),
    (lambda: similarity_vs_offset((8,), max_offset=2.5), TypeError, "max_offset"),
    (lambda: similarity_vs_offset(()), ValueError, "d_models"),
    (lambda: similarity_matrix(np.zeros((3, 4))), ValueError, "all-zero"),
    (lambda: distance_from_origin(9), ValueError, "d_model"),
    (lambda: distance_from_origin(8, 1), ValueError, "n_positions"),
]


@pytest.mark.parametrize("call, exc, words", BAD)
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_attend_back_marks_the_key_three_back():
    """The dots of the figure sit k to the left of the diagonal, on each row from k on."""
    fig = attend_back(3, 64, 30)
    x, y = fig.axes[0].lines[0].get_data()
    assert list(y) == list(range(3, 30)) and list(np.asarray(y) - np.asarray(x)) == [3] * 27


def test_clock_path_names_the_pair_it_circles():
    from posenc.plots.uniqueness import clock_path

    pos = np.arange(100)
    table = np.stack([np.sin(pos), np.sin(0.1 * pos)], axis=1)
    fig = clock_path(table, pair_=(11, 55), pair_label="same sin(pos): 11 and 55")
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["same sin(pos): 11 and 55"]
    assert "closest pair: 11 and 55" in [t.get_text() for t in
                                          clock_path(table, pair_=(11, 55)).axes[0].get_legend().get_texts()]
    with pytest.raises(TypeError, match="pair_label"):
        clock_path(table, pair_=(11, 55), pair_label=3)
