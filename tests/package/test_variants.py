"""Conformance: each convention re-derived here from its published description, entry by entry
with the math module (no code shared with posenc), then compared with posenc.variants."""

from __future__ import annotations

import math

import numpy as np
import pytest

import posenc
from posenc.variants import encode_variant, even_width, frequencies, gram


def paper_table(positions, d):
    """Vaswani et al. (2017), section 3.5: PE(pos, 2i) = sin(pos / 10000^(2i/d)),
    PE(pos, 2i+1) = cos(pos / 10000^(2i/d))."""
    rows = []
    for p in positions:
        row = [0.0] * d
        for i in range(d // 2):
            row[2 * i] = math.sin(p / 10000 ** (2 * i / d))
            row[2 * i + 1] = math.cos(p / 10000 ** (2 * i / d))
        rows.append(row)
    return np.array(rows)


def timing_signal(length, channels, min_timescale=1.0, max_timescale=1.0e4, start_index=0):
    """tensor2tensor's get_timing_signal_1d as its docstring describes it: num_timescales =
    channels // 2 geometrically spaced timescales from min to max; signal = [sin | cos] of
    position / timescale; a zero channel appended when channels is odd."""
    n = channels // 2
    step = math.log(max_timescale / min_timescale) / max(n - 1, 1)
    rows = []
    for p in range(start_index, start_index + length):
        inv = [1.0 / (min_timescale * math.exp(k * step)) for k in range(n)]
        row = [math.sin(p * w) for w in inv] + [math.cos(p * w) for w in inv]
        rows.append(row + [0.0] * (channels % 2))
    return np.array(rows)


def fairseq_rows(n_tokens, d, padding_idx=1):
    """fairseq's SinusoidalPositionalEmbedding for an unpadded sentence: half_dim = d // 2,
    frequencies exp(-k * ln(10000) / (half_dim - 1)), [sin | cos], zero column for odd d,
    and the first token at position padding_idx + 1."""
    half = d // 2
    rows = []
    for p in range(padding_idx + 1, padding_idx + 1 + n_tokens):
        freqs = [math.exp(-k * math.log(10000) / (half - 1)) for k in range(half)]
        rows.append([math.sin(p * f) for f in freqs] + [math.cos(p * f) for f in freqs]
                    + [0.0] * (d % 2))
    return np.array(rows)


@pytest.mark.parametrize("d", [2, 8, 64, 512])
def test_paper_convention(d):
    ours = encode_variant(200, d)
    assert np.allclose(ours, paper_table(range(200), d), rtol=0, atol=1e-12)
    assert np.array_equal(ours, posenc.encode(200, d))          # the defaults are posenc.encode


@pytest.mark.parametrize("d", [2, 4, 8, 64, 512, 7, 513])
def test_tensor2tensor_convention(d):
    ours = encode_variant(300, d, spacing="t2t", layout="concatenated", odd="zero_pad")
    assert np.allclose(ours, timing_signal(300, d), rtol=0, atol=1e-11)
    start = encode_variant([5, 6, 7], 64, spacing="t2t", layout="concatenated")
    assert np.allclose(start, timing_signal(3, 64, start_index=5), rtol=0, atol=1e-12)


@pytest.mark.parametrize("d, padding_idx", [(4, 1), (64, 1), (512, 1), (9, 0), (64, 3)])
def test_fairseq_convention(d, padding_idx):
    ours = encode_variant(100, d, spacing="t2t", layout="concatenated",
                          offset=padding_idx + 1, odd="zero_pad")
    assert np.allclose(ours, fairseq_rows(100, d, padding_idx), rtol=0, atol=1e-11)


def test_t2t_frequencies_end_at_one_over_base():
    assert frequencies(512, spacing="t2t")[-1] == pytest.approx(1e-4, rel=1e-12)
    assert frequencies(512)[-1] == pytest.approx(10000 ** (-510 / 512), rel=1e-12)
    assert frequencies(2, spacing="t2t").tolist() == [1.0]


def test_drop_last_is_the_wider_table_cut():
    assert np.array_equal(encode_variant(10, 7, odd="drop_last"), posenc.encode(10, 8)[:, :7])


def test_layouts_and_offsets_keep_the_gram_matrix_spacing_does_not():
    base = gram(posenc.encode(256, 64))
    assert np.allclose(gram(encode_variant(256, 64, layout="concatenated")), base, atol=1e-12)
    assert np.allclose(gram(encode_variant(256, 64, offset=2)), base, atol=1e-10)
    assert not np.allclose(gram(encode_variant(256, 64, spacing="t2t")), base, atol=1e-3)


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"spacing": "fairseq"}, ValueError, "spacing must be one of 'paper', 't2t'"),
    ({"spacing": None}, ValueError, "spacing"),
    ({"odd": "pad"}, ValueError, "odd must be one of 'refuse', 'zero_pad', 'drop_last'"),
    ({"offset": "2"}, TypeError, "offset"),
    ({"offset": True}, TypeError, "offset"),
    ({"offset": math.nan}, ValueError, "offset must be finite"),
    ({"layout": "concat"}, ValueError, "layout"),
    ({"base": 1}, ValueError, "base"),
    ({"dtype": "float16"}, ValueError, "dtype"),
])
def test_bad_arguments(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        encode_variant(4, 8, **kwargs)


@pytest.mark.parametrize("d, odd, words", [
    (7, "refuse", "d_model=7 is odd"), (1, "zero_pad", "d_model >= 3"),
    (0, "refuse", "positive integer"), (8.0, "refuse", "positive integer"),
    (True, "refuse", "positive integer"), (7, None, "odd must be one of"),
])
def test_bad_odd_widths(d, odd, words):
    with pytest.raises(ValueError, match=words):
        even_width(d, odd)


def test_odd_width_refused_by_default():
    with pytest.raises(ValueError, match="odd='zero_pad'"):
        encode_variant(4, 7)


def test_gram_rejects_bad_tables():
    with pytest.raises(ValueError, match="2-D"):
        gram(np.zeros(3))
    with pytest.raises(ValueError, match="real numbers"):
        gram(np.array([["a"]]))
    with pytest.raises(ValueError, match="spacing"):
        frequencies(8, spacing="T2T")


def test_score_terms_against_a_direct_expansion():
    from posenc.attention_terms import score_terms

    rng = np.random.default_rng(1)
    x, pe = rng.normal(size=(5, 6)), rng.normal(size=(5, 6))
    w_q, w_k = rng.normal(size=(6, 3)), rng.normal(size=(6, 3))
    terms = score_terms(x, pe, w_q, w_k)
    for i in range(5):
        for j in range(5):
            q_x, q_p = x[i] @ w_q, pe[i] @ w_q
            k_x, k_p = x[j] @ w_k, pe[j] @ w_k
            assert np.isclose(terms["content-position"][i, j], q_x @ k_p)
            assert np.isclose(terms["position-content"][i, j], q_p @ k_x)
    full = ((x + pe) @ w_q) @ ((x + pe) @ w_k).T
    assert np.allclose(sum(terms.values()), full)


@pytest.mark.parametrize("args, exc, words", [
    ((np.zeros((3, 4)), np.zeros((2, 4)), np.zeros((4, 2)), np.zeros((4, 2))), ValueError, "pe must have"),
    ((np.zeros((3, 4)), np.zeros((3, 4)), np.zeros((5, 2)), np.zeros((4, 2))), ValueError, "w_q must have 4 rows"),
    ((np.zeros((3, 4)), np.zeros((3, 4)), np.zeros((4, 2)), np.zeros((4, 3))), ValueError, "same shape"),
    ((np.zeros(4), np.zeros(4), np.zeros((4, 2)), np.zeros((4, 2))), ValueError, "x must be 2-D"),
    ((np.array([["a"]]), np.zeros((1, 1)), np.zeros((1, 1)), np.zeros((1, 1))), TypeError, "x must hold"),
    ((np.zeros((1, 1)), np.full((1, 1), np.nan), np.zeros((1, 1)), np.zeros((1, 1))), ValueError, "pe must be finite"),
])
def test_score_terms_rejects_bad_input(args, exc, words):
    from posenc.attention_terms import score_terms

    with pytest.raises(exc, match=words):
        score_terms(*args)


def test_diagonal_spread():
    from posenc.attention_terms import diagonal_spread

    toeplitz = np.array([[abs(i - j) + 0.5 * (j > i) for j in range(6)] for i in range(6)])
    assert diagonal_spread(toeplitz) == 0.0
    toeplitz[2, 4] += 0.25
    assert diagonal_spread(toeplitz) == 0.25
    with pytest.raises(ValueError, match="square"):
        diagonal_spread(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="square"):
        diagonal_spread(np.zeros((0, 0)))
