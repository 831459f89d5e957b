"""The figures of chapters 7-9 draw, and reject bad input."""

import numpy as np
import pytest

import posenc
from posenc.plots import to_svg
from posenc.plots.rotation import circle_shift, sine_ambiguity
from posenc.plots.similarity import distance_from_origin, similarity_matrix, similarity_vs_offset
from posenc.plots.spectrum import wavelength_spectrum


@pytest.mark.parametrize("draw", [
    lambda: sine_ambiguity(0.6), lambda: circle_shift(2.0, 1.5),
    lambda: wavelength_spectrum((64, 128)), lambda: similarity_vs_offset((16, 32), 30),
    lambda: similarity_matrix(posenc.encode(12, 16)), lambda: distance_from_origin(16, 30),
])
def test_figures_draw(draw):
    assert to_svg(draw(), alt="A figure.").startswith("<svg")


BAD = [
    (lambda: sine_ambiguity(np.pi / 2), ValueError, "x"),
    (lambda: sine_ambiguity("a"), TypeError, "x"),
    (lambda: circle_shift(0.0, 10.0), ValueError, "omega \\* k"),
    (lambda: circle_shift(0.0, np.nan), ValueError, "k"),
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
