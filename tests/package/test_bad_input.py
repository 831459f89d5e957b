"""Every kind of bad input gets a clear error that names the argument."""

import math

import numpy as np
import pytest

import posenc
from posenc.attention import embed, random_weights, self_attention
from posenc.plots import to_svg


@pytest.mark.parametrize("d_model, exc", [
    (7, ValueError), (1, ValueError), (0, ValueError), (-4, ValueError),
    (8.0, TypeError), ("8", TypeError), (True, TypeError), (None, TypeError),
])
def test_bad_d_model(d_model, exc):
    with pytest.raises(exc, match="d_model"):
        posenc.encode(4, d_model)
    with pytest.raises(exc, match="d_model"):
        posenc.frequencies(d_model)


def test_odd_d_model_message_says_even():
    with pytest.raises(ValueError, match="even"):
        posenc.encode(4, 7)


@pytest.mark.parametrize("base, exc", [
    (1, ValueError), (1.0, ValueError), (0.5, ValueError), (0, ValueError), (-10, ValueError),
    (math.nan, ValueError), (math.inf, ValueError), ("10000", TypeError), (True, TypeError),
    (None, TypeError),
])
def test_bad_base(base, exc):
    with pytest.raises(exc, match="base"):
        posenc.encode(4, 8, base=base)


@pytest.mark.parametrize("pos, exc, words", [
    ([0.0, math.nan], ValueError, "finite"),
    ([math.inf], ValueError, "finite"),
    (np.array([1.0, -np.inf]), ValueError, "finite"),
    (np.zeros((2, 3)), ValueError, "1-D"),
    (np.array(3.0), ValueError, "1-D"),
    (3.5, TypeError, "count"),
    (-1, ValueError, ">= 0"),
    (True, TypeError, "count"),
    (["a", "b"], TypeError, "dtype"),
    (np.array([1 + 2j]), TypeError, "dtype"),
    ([2 ** 60], ValueError, "2\\*\\*53"),
])
def test_bad_positions(pos, exc, words):
    with pytest.raises(exc, match="pos") as info:
        posenc.encode(pos, 8)
    assert info.match(words)


@pytest.mark.parametrize("layout", ["concat", "Interleaved", "", None, 1])
def test_bad_layout(layout):
    with pytest.raises(ValueError, match="layout.*'interleaved', 'concatenated'"):
        posenc.encode(4, 8, layout=layout)


@pytest.mark.parametrize("dtype", ["float16", np.float16, "int32", "bfloat16", "nonsense", object])
def test_unsupported_dtype(dtype):
    with pytest.raises(ValueError, match="dtype.*float64, float32"):
        posenc.encode(4, 8, dtype=dtype)


def test_layout_helpers_reject_bad_arguments():
    with pytest.raises(ValueError, match="source"):
        posenc.layout_permutation(8, "rows", "interleaved")
    with pytest.raises(ValueError, match="target"):
        posenc.layout_permutation(8, "interleaved", "cols")
    with pytest.raises(ValueError, match="d_model"):
        posenc.convert_layout(np.zeros((2, 5)), "interleaved", "concatenated")


def test_attention_rejects_bad_shapes():
    x = embed(["a", "b"], 4)
    w_q, w_k, w_v = random_weights(4)
    with pytest.raises(ValueError, match="w_q must have 4 rows"):
        self_attention(x, np.zeros((3, 4)), w_k, w_v)
    with pytest.raises(ValueError, match="x must be 2-D"):
        self_attention(x[0], w_q, w_k, w_v)
    with pytest.raises(ValueError, match="x must be finite"):
        self_attention(np.full((2, 4), np.nan), w_q, w_k, w_v)
    with pytest.raises(TypeError, match="tokens"):
        embed("dog bites man", 4)
    with pytest.raises(ValueError, match="d_k"):
        random_weights(4, 0)


def test_svg_needs_alt_text():
    import matplotlib.pyplot as plt

    fig = plt.figure()
    with pytest.raises(ValueError, match="alt"):
        to_svg(fig, alt="  ")
    with pytest.raises(TypeError, match="fig"):
        to_svg("not a figure", alt="x")


def test_distances_reject_bad_tables():
    from posenc.distances import min_distance, nearest_pairs, pairwise_distances

    with pytest.raises(ValueError, match="at least 2 positions"):
        min_distance([[1.0, 2.0]])
    with pytest.raises(ValueError, match="finite"):
        pairwise_distances([[0.0], [np.nan]])
    with pytest.raises(ValueError, match="1-D or 2-D"):
        pairwise_distances(np.zeros((2, 2, 2)))
    with pytest.raises(TypeError, match="real numbers"):
        pairwise_distances(np.array(["a", "b"]))
    with pytest.raises(ValueError, match="count"):
        nearest_pairs([0.0, 1.0], count=0)
    with pytest.raises(ValueError, match="positions"):
        nearest_pairs([0.0, 1.0], positions=[5])


def test_distances_match_a_direct_computation():
    from posenc.distances import min_distance, pairwise_distances

    t = posenc.encode(40, 16)
    direct = np.linalg.norm(t[:, None, :] - t[None, :, :], axis=-1)
    assert np.allclose(pairwise_distances(t), direct, atol=1e-7)
    assert min_distance(t) == pytest.approx(direct[~np.eye(40, dtype=bool)].min(), abs=1e-7)


def test_svg_rounds_geometry_but_not_text():
    from posenc.plots import new_figure

    fig, ax = new_figure()
    ax.plot([0.123456, 0.654321], [0.1, 0.9])
    ax.set_title("value 0.0012345")
    svg = to_svg(fig, alt="Alt with 0.0093456 kept.")
    assert "0.0012345" in svg and "0.0093456" in svg
    import re
    for attr in re.findall(r'\sd="([^"]*)"', svg):
        assert not re.search(r"\d\.\d{3}", attr), attr
