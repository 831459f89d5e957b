"""posenc.scaling against the papers' own statements, each re-derived independently here."""

import math

import numpy as np
import pytest

from posenc import frequencies
from posenc.relative import rotate
from posenc.scaling import (
    correction_pair,
    dynamic_ntk_base,
    dynamic_ntk_frequencies,
    llama3_frequencies,
    longrope_attention_factor,
    longrope_frequencies,
    longrope_uses_long,
    ntk_base,
    ntk_frequencies,
    position_interpolation,
    xpos_scales,
    xpos_zeta,
    yarn_attention_factor,
    yarn_frequencies,
    yarn_ramp,
)


def rope_with(omega, x, m):
    """Adjacent-pair rotation of the rows of x by m * omega, written with complex numbers."""
    z = x[:, 0::2] + 1j * x[:, 1::2]
    z = z * np.exp(1j * np.multiply.outer(np.asarray(m, float), omega))
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = z.real, z.imag
    return out


def test_position_interpolation_is_rotation_at_squeezed_positions():
    # Chen et al. (2023): f'(x, m) = f(x, m L / L').
    rng = np.random.default_rng(1)
    x = rng.normal(size=(5, 16))
    m = np.array([0, 7, 100, 4095, 8191])
    squeezed = rotate(x, m / 4.0)
    assert np.allclose(rope_with(position_interpolation(16, 4.0), x, m), squeezed, atol=1e-12)


def test_ntk_base_keeps_fastest_and_divides_slowest_by_s():
    # bloc97 / Peng et al. (2023), "NTK-aware": b' = b s^(|D| / (|D| - 2)).
    for d, s in [(64, 2.0), (128, 8.0), (128, 32.0)]:
        b = ntk_base(d, s)
        assert math.isclose(b, 10000 * s ** (d / (d - 2)), rel_tol=1e-14)
        omega, scaled = frequencies(d), ntk_frequencies(d, s)
        assert scaled[0] == 1.0
        assert math.isclose(omega[-1] / scaled[-1], s, rel_tol=1e-12)
        assert np.all(scaled <= omega)


def _correction_pair(turns, d, base, length):
    """The pair index where a pair makes `turns` turns in `length` positions (continuous):
    L / (2 pi b^(2i/d)) = turns  <=>  i = d ln(L / (2 pi turns)) / (2 ln b)."""
    return d * math.log(length / (2 * math.pi * turns)) / (2 * math.log(base))


def test_yarn_paper_ramp_ends_where_the_turn_counts_say():
    d, base, length = 128, 10000.0, 4096
    gamma = yarn_ramp(d, length, base, alpha=1.0, beta=32.0, ramp="paper")
    i = np.arange(d // 2)
    hi = _correction_pair(32.0, d, base, length)        # pairs before it turn > 32 times
    lo = _correction_pair(1.0, d, base, length)         # pairs after it turn < 1 time
    assert np.all(gamma[i < hi] == 1.0) and np.all(gamma[i > lo] == 0.0)
    middle = (i > hi) & (i < lo)
    assert middle.any() and np.all((gamma[middle] > 0) & (gamma[middle] < 1))
    # linear in the number of turns r = L / lambda between the two ends
    r = length / (2 * np.pi / frequencies(d, base))
    assert np.allclose(gamma[middle], (r[middle] - 1.0) / 31.0)


def test_yarn_code_ramp_is_linear_in_the_pair_index_between_rounded_ends():
    # the released YaRN code: floor of the pair index at beta turns, ceil of it at alpha turns
    d, base, length = 128, 10000.0, 4096
    lo = math.floor(_correction_pair(32.0, d, base, length))
    hi = math.ceil(_correction_pair(1.0, d, base, length))
    assert (lo, hi) == (20, 46)
    assert math.isclose(correction_pair(32.0, d, length, base),
                        _correction_pair(32.0, d, base, length), rel_tol=1e-14)
    gamma = yarn_ramp(d, length, base)
    i = np.arange(d // 2)
    assert np.array_equal(gamma, 1 - np.clip((i - lo) / (hi - lo), 0, 1))
    assert gamma[lo] == 1 and gamma[hi] == 0
    assert np.allclose(np.diff(gamma[lo:hi + 1]), -1 / (hi - lo))    # equal steps in i
    paper = yarn_ramp(d, length, base, ramp="paper")
    assert np.max(np.abs(paper - gamma)) > 0.2                  # the two ramps differ


def test_yarn_code_ramp_guards_equal_ends_and_clips_to_the_width():
    # both ends in the same pair: the code adds 0.001 instead of dividing by zero
    d, length = 8, 4096
    low = max(math.floor(correction_pair(32.0, d, length)), 0)
    high = min(math.ceil(correction_pair(1.0, d, length)), d - 1)
    gamma = yarn_ramp(d, length)
    assert np.all((gamma >= 0) & (gamma <= 1))
    i = np.arange(d // 2)
    width = (high - low) or 0.001
    assert np.array_equal(gamma, 1 - np.clip((i - low) / width, 0, 1))


@pytest.mark.parametrize("ramp", ["code", "paper"])
def test_yarn_frequencies_blend_kept_and_interpolated(ramp):
    d, s, length = 128, 16.0, 4096
    omega = frequencies(d)
    gamma = yarn_ramp(d, length, ramp=ramp)
    h = yarn_frequencies(d, s, length, ramp=ramp)
    assert np.allclose(h[gamma == 1], omega[gamma == 1])
    assert np.allclose(h[gamma == 0], omega[gamma == 0] / s)
    assert np.all(np.diff(h) < 0)                       # still strictly decreasing


def test_yarn_attention_factor_with_mscale_is_a_ratio():
    s = 40.0
    assert yarn_attention_factor(s, mscale=1.0, mscale_all_dim=1.0) == 1.0
    expected = (0.1 * 0.5 * math.log(s) + 1) / (0.1 * 1.0 * math.log(s) + 1)
    assert math.isclose(yarn_attention_factor(s, mscale=0.5, mscale_all_dim=1.0), expected)
    assert yarn_attention_factor(1.0, mscale=3.0, mscale_all_dim=1.0) == 1.0


def test_llama3_is_the_paper_ramp_with_low_and_high_as_alpha_and_beta():
    # Meta's apply_scaling, written with wavelengths, re-derived here
    d, s, length, base = 128, 8.0, 8192, 500000.0
    omega = frequencies(d, base)
    lam = 2 * np.pi / omega
    low_wl, high_wl = length / 1.0, length / 4.0
    smooth = (length / lam - 1.0) / (4.0 - 1.0)
    expected = np.where(lam < high_wl, omega,
                        np.where(lam > low_wl, omega / s, (1 - smooth) * omega / s + smooth * omega))
    got = llama3_frequencies(d, s, length, base)
    assert np.allclose(got, expected, rtol=1e-15, atol=0)
    assert np.allclose(got, yarn_frequencies(d, s, length, base, alpha=1.0, beta=4.0,
                                             ramp="paper"), rtol=1e-15, atol=0)
    assert np.sum((got < omega) & (got > omega / s)) == 6


def test_dynamic_ntk_grows_past_the_trained_length():
    d, s, length = 128, 2.0, 4096
    assert dynamic_ntk_base(d, s, length, 1) == dynamic_ntk_base(d, s, length, length) == 10000.0
    bases = [dynamic_ntk_base(d, s, length, n) for n in (4097, 8192, 16384, 10**6)]
    assert np.all(np.diff(bases) > 0) and bases[0] > 10000.0
    # scale s n / L - (s - 1): at n = 2 L and s = 2 that is 3
    assert math.isclose(bases[1], ntk_base(d, 3.0), rel_tol=1e-14)
    assert np.array_equal(dynamic_ntk_frequencies(d, s, length, 8192),
                          frequencies(d, bases[1]))


def test_yarn_attention_factor_matches_section_3_4():
    for s in (1.0, 2.0, 16.0, 32.0):
        assert math.isclose(yarn_attention_factor(s), 0.1 * math.log(s) + 1.0)


def test_xpos_zeta_matches_torchscale_buffer():
    # torchscale: (arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)
    for d in (8, 64, 128):
        expected = (np.arange(0, d, 2) + 0.4 * d) / (1.4 * d)
        assert np.allclose(xpos_zeta(d), expected, rtol=0, atol=1e-15)


def test_xpos_score_depends_on_offset_only():
    rng = np.random.default_rng(2)
    q, k = rng.normal(size=(2, 1, 16))

    def score(n, m):
        sq = np.repeat(xpos_scales([n], 16), 2, axis=1)
        sk = np.repeat(xpos_scales([m], 16, key=True), 2, axis=1)
        return float((rotate(q, [n]) * sq)[0] @ (rotate(k, [m]) * sk)[0])

    assert math.isclose(score(10, 3), score(1010, 1003), rel_tol=1e-9)
    assert not math.isclose(score(10, 3), score(10, 4), rel_tol=1e-6)


@pytest.mark.parametrize("call, match", [
    (lambda: position_interpolation(8, 0.5), "factor"),
    (lambda: position_interpolation(8, True), "factor"),
    (lambda: ntk_base(2, 2.0), "d_model"),
    (lambda: ntk_frequencies(8, float("inf")), "factor"),
    (lambda: yarn_ramp(8, 0), "original_length"),
    (lambda: yarn_ramp(8, 2048, alpha=4.0, beta=2.0), "beta"),
    (lambda: yarn_ramp(8, -5), "original_length"),
    (lambda: yarn_ramp(8, 2048, ramp="linear"), "ramp"),
    (lambda: yarn_frequencies(8, 0.9, 2048), "factor"),
    (lambda: yarn_frequencies(8, 2.0, 2048, ramp=None), "ramp"),
    (lambda: yarn_attention_factor(2.0, mscale=1.0), "mscale_all_dim"),
    (lambda: yarn_attention_factor(2.0, mscale_all_dim=1.0), "mscale"),
    (lambda: yarn_attention_factor(2.0, mscale=-1.0, mscale_all_dim=1.0), "mscale"),
    (lambda: llama3_frequencies(8, 0.5), "factor"),
    (lambda: llama3_frequencies(8, 8.0, 0), "original_length"),
    (lambda: llama3_frequencies(8, low_freq_factor=4.0, high_freq_factor=4.0), "low_freq_factor"),
    (lambda: llama3_frequencies(8, low_freq_factor=0.0), "low_freq_factor"),
    (lambda: dynamic_ntk_base(8, 0.99, 2048, 4096), "factor"),
    (lambda: dynamic_ntk_base(8, 2.0, 0, 4096), "original_length"),
    (lambda: dynamic_ntk_base(8, 2.0, 2048, 0), "seq_len"),
    (lambda: dynamic_ntk_frequencies(2, 2.0, 2048, 4096), "d_model"),
    (lambda: correction_pair(0.0, 8, 2048), "turns"),
    (lambda: yarn_attention_factor("2"), "factor"),
    (lambda: xpos_zeta(8, gamma=0.0), "gamma"),
    (lambda: xpos_scales(4, 8, scale_base=-1.0), "scale_base"),
    (lambda: yarn_ramp(8, 2048, truncate=0), "truncate"),
    (lambda: yarn_frequencies(8, 2.0, 2048, ramp="paper", truncate=False), "truncate"),
    (lambda: longrope_frequencies(8, [1.0] * 3, [1.0] * 4, 4096), "short_factor"),
    (lambda: longrope_frequencies(8, [1.0] * 4, [1.0, 2.0, 0.0, 1.0], 4096), "long_factor"),
    (lambda: longrope_frequencies(8, [1.0] * 4, ["a"] * 4, 4096), "long_factor"),
    (lambda: longrope_frequencies(8, [1.0] * 4, [1.0] * 4, 0), "original_length"),
    (lambda: longrope_frequencies(8, [1.0] * 4, [1.0] * 4, 4096, seq_len=0), "seq_len"),
    (lambda: longrope_uses_long(10, -1), "original_length"),
    (lambda: longrope_attention_factor(0.5, 4096), "factor"),
    (lambda: longrope_attention_factor(2.0, 1), "original_length"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_untruncated_ramp_runs_between_the_fractional_pair_indices():
    # transformers' find_correction_range with truncate=False: no floor/ceil, the ramp
    # (i - low) / (high - low) between the continuous pair indices of beta and alpha turns.
    for d, length, base in [(64, 4096, 150000.0), (128, 8192, 500000.0), (16, 2048, 10000.0)]:
        low = max(_correction_pair(32.0, d, base, length), 0.0)
        high = min(_correction_pair(1.0, d, base, length), d - 1.0)
        i = np.arange(d // 2)
        want = 1.0 - np.clip((i - low) / (high - low), 0.0, 1.0)
        got = yarn_ramp(d, length, base, truncate=False)
        assert np.allclose(got, want, rtol=0, atol=1e-15)
        # the truncated ramp is the same line between the rounded ends
        rounded = yarn_ramp(d, length, base)
        lo, hi = math.floor(low), math.ceil(high)
        assert np.allclose(rounded, 1.0 - np.clip((i - lo) / (hi - lo), 0.0, 1.0), atol=1e-15)
        assert not np.allclose(got, rounded)


def test_longrope_divides_each_pair_by_its_factor_and_switches_past_the_length():
    # Ding et al. (2024), LongRoPE: theta_i' = theta_i / lambda_i; Phi-3 switches lists when
    # the sequence is longer than original_max_position_embeddings.
    rng = np.random.default_rng(5)
    d, length = 96, 4096
    short, long_ = rng.uniform(1, 3, d // 2), rng.uniform(1, 60, d // 2)
    omega = np.array([10000.0 ** (-2 * i / d) for i in range(d // 2)])
    for n, lam in [(None, short), (1, short), (length, short), (length + 1, long_), (10**6, long_)]:
        assert np.allclose(longrope_frequencies(d, short, long_, length, seq_len=n), omega / lam,
                           rtol=1e-14, atol=0)
    assert [longrope_uses_long(n, length) for n in (length - 1, length, length + 1)] == \
        [False, False, True]


def test_longrope_attention_factor_is_the_papers():
    # sqrt(1 + ln(s) / ln(L)); 1 when nothing is stretched.
    assert longrope_attention_factor(1.0, 4096) == 1.0
    for s, length in [(32.0, 4096), (16.0, 8192), (2.0, 2048)]:
        want = (1 + math.log(s) / math.log(length)) ** 0.5
        assert math.isclose(longrope_attention_factor(s, length), want, rel_tol=1e-15)
