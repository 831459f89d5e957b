"""Figures of chapters 10-15: each draws, and each refuses bad input with a clear error."""

from __future__ import annotations

import numpy as np
import pytest

from posenc.plots.casting import error_by_position


def test_error_by_position_draws_one_line_per_curve():
    fig = error_by_position({"a": [0.0, 1e-3, 2e-3], "b": [1e-8, 1e-8, 1e-8]},
                            positions=[0, 10, 20], floor=1e-3)
    ax = fig.axes[0]
    assert len(ax.lines) == 3                         # two curves and the floor
    assert list(ax.lines[0].get_xdata()) == [0, 10, 20]
    assert ax.lines[0].get_ydata()[0] > 0             # a zero error is drawn at the bottom


@pytest.mark.parametrize("curves, kwargs, words", [
    ({}, {}, "non-empty dict"),
    ([1, 2], {}, "non-empty dict"),
    ({"a": [1.0], "b": [1.0, 2.0]}, {}, "same length"),
    ({"a": np.zeros((2, 2))}, {}, "1-D"),
    ({"a": []}, {}, "non-empty"),
    ({"a": [-1.0]}, {}, "non-negative"),
    ({"a": [np.nan]}, {}, "finite"),
    ({"a": [1.0, 2.0]}, {"positions": [0]}, "positions"),
])
def test_error_by_position_rejects_bad_input(curves, kwargs, words):
    with pytest.raises(ValueError, match=words):
        error_by_position(curves, **kwargs)


def test_four_terms_draws_four_panels_on_one_scale():
    from posenc.plots.attention_terms import four_terms

    terms = {name: np.full((3, 3), v) for name, v in zip("abcd", (1.0, -2.0, 0.5, 0.0))}
    fig = four_terms(terms, ["x", "y", "z"])
    images = [ax.images[0] for ax in fig.axes[:4]]
    assert {im.get_clim() for im in images} == {(-2.0, 2.0)}
    assert [ax.get_title() for ax in fig.axes[:4]] == list("abcd")


@pytest.mark.parametrize("terms, tokens, words", [
    ({"a": np.zeros((2, 2))}, ["x", "y"], "exactly four"),
    ({k: np.zeros((2, 2)) for k in "abcd"}, ["x", "y", "z"], "shape"),
    ({**{k: np.zeros((2, 2)) for k in "abc"}, "d": np.full((2, 2), np.inf)}, ["x", "y"], "finite"),
])
def test_four_terms_rejects_bad_input(terms, tokens, words):
    from posenc.plots.attention_terms import four_terms

    with pytest.raises(ValueError, match=words):
        four_terms(terms, tokens)
