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


def test_scores_by_offset_draws_each_line():
    from posenc.plots.relative import scores_by_offset

    fig = scores_by_offset([0, 1], {"p": {"a": [0, 1], "b": [1, 0]}, "q": {"c": [2, 2]}})
    assert [len(ax.lines) for ax in fig.axes] == [2, 1]
    assert fig.axes[0].lines[0].get_linestyle() != fig.axes[0].lines[1].get_linestyle()


@pytest.mark.parametrize("offsets, panels, words", [
    ([], {"p": {"a": []}}, "offsets"),
    ([[0, 1]], {"p": {"a": [0, 1]}}, "offsets"),
    ([0, 1], {}, "panels"),
    ([0, 1], {"p": {}}, "panels"),
    ([0, 1], {"p": {"a": [0, 1, 2]}}, "line 'a' in panel 'p'"),
])
def test_scores_by_offset_rejects_bad_input(offsets, panels, words):
    from posenc.plots.relative import scores_by_offset

    with pytest.raises(ValueError, match=words):
        scores_by_offset(offsets, panels)


def test_gram_panels_scale_each_panel_on_its_own():
    from posenc.plots.learned import gram_panels

    fig = gram_panels({"a": np.eye(2), "b": 3 * np.eye(2)})
    assert fig.axes[0].images[0].get_clim() == (-1.0, 1.0)
    assert [ax.get_title() for ax in fig.axes if ax.get_title()] == ["a", "b"]


@pytest.mark.parametrize("panels, words", [
    ({}, "non-empty dict"),
    ({"a": np.zeros((2, 3))}, "square"),
    ({"a": np.zeros((0, 0))}, "non-empty square"),
    ({"a": np.full((2, 2), np.nan)}, "finite"),
])
def test_gram_panels_rejects_bad_input(panels, words):
    from posenc.plots.learned import gram_panels

    with pytest.raises(ValueError, match=words):
        gram_panels(panels)
