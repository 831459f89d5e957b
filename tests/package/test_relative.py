"""RoPE and ALiBi against independent formulations: complex multiplication for RoPE (the
RoFormer paper's own complex form) and explicit loops for ALiBi."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest

import posenc
from posenc.relative import alibi_bias, alibi_slopes, rotate


def rope_complex(vec, m, base=10000.0):
    """Pair (x_{2i}, x_{2i+1}) as the complex number x_{2i} + 1j x_{2i+1}, times e^{1j m theta_i},
    theta_i = base^(-2i/d)."""
    d = len(vec)
    out = []
    for i in range(d // 2):
        z = complex(vec[2 * i], vec[2 * i + 1]) * cmath.exp(1j * m * base ** (-2 * i / d))
        out += [z.real, z.imag]
    return np.array(out)


def test_rotate_matches_the_complex_form():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 12))
    pos = [0, 1, 7, 100, 2048]
    expected = np.array([rope_complex(row, m) for row, m in zip(x, pos)])
    assert np.allclose(rotate(x, pos), expected, rtol=0, atol=1e-12)


def test_scores_depend_only_on_the_offset():
    rng = np.random.default_rng(4)
    q, k = rng.normal(size=(1, 16)), rng.normal(size=(1, 16))
    for pairing in ("adjacent", "half"):
        def score(m, n):
            return float(rotate(q, [m], pairing=pairing)[0] @ rotate(k, [n], pairing=pairing)[0])
        for offset in (-7, 0, 3, 50):
            values = [score(m, m + offset) for m in (0, 5, 123, 4000)]
            assert max(values) - min(values) < 1e-9
        assert abs(score(0, 3) - score(3, 0)) > 1e-3          # direction matters


def test_pairings_are_a_permutation_apart():
    x = np.random.default_rng(5).normal(size=(6, 10))
    perm = posenc.layout_permutation(10)
    assert np.allclose(rotate(x[:, perm], 6, pairing="half"), rotate(x, 6)[:, perm], atol=1e-14)
    assert not np.allclose(rotate(x, 6, pairing="half"), rotate(x, 6))


def test_alibi_against_loops():
    slopes = alibi_slopes(4)
    assert np.allclose(slopes, [2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8])
    b = alibi_bias(5, 0.25)
    for i in range(5):
        for j in range(5):
            assert b[i, j] == (-0.25 * (i - j) if j <= i else -math.inf)


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"x": np.zeros((2, 3)), "pos": 2}, ValueError, "even"),
    ({"x": np.zeros(4), "pos": 1}, ValueError, "2-D"),
    ({"x": np.array([["a", "b"]]), "pos": 1}, TypeError, "real numbers"),
    ({"x": np.zeros((2, 4)), "pos": 3}, ValueError, "one position per row"),
    ({"x": np.zeros((2, 4)), "pos": 2, "pairing": "rotate_half"}, ValueError, "pairing"),
    ({"x": np.zeros((2, 4)), "pos": 2, "base": 1.0}, ValueError, "base"),
    ({"x": np.zeros((2, 4)), "pos": [0.0, np.nan]}, ValueError, "finite"),
])
def test_rotate_rejects_bad_input(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        rotate(**kwargs)


@pytest.mark.parametrize("call, words", [
    (lambda: alibi_slopes(-3), "n_heads"),
    (lambda: alibi_slopes(2.0), "n_heads"),
    (lambda: alibi_slopes(0), "positive integer"),
    (lambda: alibi_slopes(True), "positive integer"),
    (lambda: alibi_bias(0, 0.5), "n_positions"),
    (lambda: alibi_bias(3, 0.0), "slope"),
    (lambda: alibi_bias(3, math.inf), "slope"),
])
def test_alibi_rejects_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()


# ---------------------------------------------------------------- any head count (issue 22)

def slopes_by_the_papers_rule(n):
    """The ALiBi paper's recursion, written from its section 3: a power of two n gets the
    geometric sequence that starts at 2^(-8/n) with that ratio; otherwise take the largest
    power of two below n and add every other slope of twice that many heads."""
    def geometric(m):
        start = 2.0 ** (-8.0 / m)
        return [start * start ** k for k in range(m)]
    if math.log2(n).is_integer():
        return geometric(n)
    p = 2 ** math.floor(math.log2(n))
    return geometric(p) + slopes_by_the_papers_rule(2 * p)[0::2][: n - p]


@pytest.mark.parametrize("n_heads", [1, 2, 3, 5, 6, 7, 8, 12, 16, 20, 24, 40, 71, 112])
def test_alibi_slopes_follow_the_papers_rule_for_any_head_count(n_heads):
    assert np.allclose(alibi_slopes(n_heads), slopes_by_the_papers_rule(n_heads),
                       rtol=1e-14, atol=0)


def test_alibi_slopes_for_other_head_counts_are_distinct_and_extend_the_power_of_two():
    # Bloom's 112 heads: the first 64 are the 64-head slopes, the 48 others lie between them.
    slopes = alibi_slopes(112)
    assert np.array_equal(slopes[:64], alibi_slopes(64))
    assert len(set(slopes.tolist())) == 112
    assert np.array_equal(alibi_slopes(112)[64:], alibi_slopes(128)[0::2][:48])
    assert not np.all(np.diff(slopes) < 0)          # head order is not sorted: by design


def test_bidirectional_alibi_is_symmetric_and_agrees_with_causal_below_the_diagonal():
    causal, both = alibi_bias(7, 0.125), alibi_bias(7, 0.125, causal=False)
    assert np.array_equal(both, both.T)
    below = np.tril_indices(7)
    assert np.array_equal(both[below], causal[below])
    assert np.isfinite(both).all() and not np.isfinite(causal).all()


# ---------------------------------------------------------------- offsets: the KV cache

def causal_scores_full(q, k, **kw):
    n = len(q)
    s = rotate(q, n, **kw) @ rotate(k, n, **kw).T
    return np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)


def causal_scores_cached(q, k, *, use_offset=True, chunks=(1,), **kw):
    """Feed the sequence in chunks, as a decoder does after its prompt; the keys of earlier
    chunks stay in the cache already rotated. ``use_offset=False`` is the bug: each chunk's
    rows are rotated as if they started at position 0."""
    n = len(q)
    rows, cache, start, c = [], [], 0, 0
    while start < n:
        size = min(chunks[min(c, len(chunks) - 1)], n - start)
        off = start if use_offset else 0
        cache.append(rotate(k[start:start + size], size, offset=off, **kw))
        keys = np.concatenate(cache)                                  # (start + size, d)
        q_new = rotate(q[start:start + size], size, offset=off, **kw)
        s = q_new @ keys.T                                            # (size, start + size)
        pad = np.full((size, n - start - size), -np.inf)
        mask = np.arange(start + size)[None, :] <= (start + np.arange(size))[:, None]
        rows.append(np.concatenate([np.where(mask, s, -np.inf), pad], axis=1))
        start, c = start + size, c + 1
    return np.concatenate(rows)


@pytest.mark.parametrize("pairing", ["adjacent", "half"])
@pytest.mark.parametrize("chunks", [(1,), (5, 1), (3, 2, 4)])
def test_kv_cache_with_offsets_gives_the_full_sequence_scores(pairing, chunks):
    rng = np.random.default_rng(22)
    q, k = rng.normal(size=(2, 12, 16))
    full = causal_scores_full(q, k, pairing=pairing)
    cached = causal_scores_cached(q, k, chunks=chunks, pairing=pairing)
    finite = np.isfinite(full)
    assert np.array_equal(finite, np.isfinite(cached))
    assert np.allclose(cached[finite], full[finite], rtol=0, atol=1e-12)


@pytest.mark.parametrize("chunks", [(1,), (5, 1)])
def test_kv_cache_without_offsets_gives_other_scores(chunks):
    rng = np.random.default_rng(22)
    q, k = rng.normal(size=(2, 12, 16))
    full = causal_scores_full(q, k)
    dropped = causal_scores_cached(q, k, chunks=chunks, use_offset=False)
    finite = np.isfinite(full)
    assert np.abs(dropped[finite] - full[finite]).max() > 1.0


def test_offset_equals_shifted_positions():
    x = np.random.default_rng(1).normal(size=(4, 8))
    assert np.array_equal(rotate(x, 4, offset=100), rotate(x, np.arange(100, 104)))
    assert np.array_equal(rotate(x, [3, 5, 8, 13], offset=7), rotate(x, [10, 12, 15, 20]))


# ---------------------------------------------------------------- partial rotary

@pytest.mark.parametrize("pairing", ["adjacent", "half"])
def test_partial_rotary_rotates_the_first_columns_over_their_own_width(pairing):
    rng = np.random.default_rng(6)
    x = rng.normal(size=(5, 20))
    pos = [0, 3, 17, 400, 9000]
    out = rotate(x, pos, rotary_dim=8, pairing=pairing, base=500.0)
    assert np.array_equal(out[:, 8:], x[:, 8:])                       # the rest passes through
    assert np.array_equal(out[:, :8], rotate(x[:, :8], pos, pairing=pairing, base=500.0))
    # against the complex form: frequencies over the rotary width, 500^(-2i/8)
    if pairing == "adjacent":
        ref = np.array([rope_complex(row[:8], m, base=500.0) for row, m in zip(x, pos)])
        assert np.allclose(out[:, :8], ref, rtol=0, atol=1e-11)
    # the bug of using the head width in the exponent gives other angles
    wrong = 500.0 ** (-2 * np.arange(4) / 20)
    right = 500.0 ** (-2 * np.arange(4) / 8)
    assert abs(wrong[-1] / right[-1] - 1) > 1
    assert np.array_equal(rotate(x, pos, rotary_dim=20), rotate(x, pos))


def test_partial_rotary_scores_still_depend_only_on_the_offset():
    rng = np.random.default_rng(7)
    q, k = rng.normal(size=(2, 1, 12))
    def score(m, n):
        return float(rotate(q, [m], rotary_dim=4)[0] @ rotate(k, [n], rotary_dim=4)[0])
    values = [score(m, m + 9) for m in (0, 11, 250, 7000)]
    assert max(values) - min(values) < 1e-9


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"offset": -1}, ValueError, "offset"),
    ({"offset": 1.5}, TypeError, "offset"),
    ({"offset": True}, TypeError, "offset"),
    ({"rotary_dim": 3}, ValueError, "rotary_dim"),
    ({"rotary_dim": 0}, ValueError, "rotary_dim"),
    ({"rotary_dim": 10}, ValueError, "rotary_dim"),
    ({"rotary_dim": 2.0}, TypeError, "rotary_dim"),
])
def test_offset_and_rotary_dim_reject_bad_input(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        rotate(np.zeros((2, 8)), 2, **kwargs)


def test_odd_width_is_fine_with_an_even_rotary_dim():
    x = np.ones((1, 5))
    assert rotate(x, [0], rotary_dim=4).shape == (1, 5)


def test_causal_must_be_a_bool():
    with pytest.raises(TypeError, match="causal"):
        alibi_bias(3, 0.5, causal="no")
