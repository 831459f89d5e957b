"""posenc.scaling against the papers' own statements, each re-derived independently here."""

import math

import numpy as np
import pytest

from posenc import frequencies
from posenc.relative import rotate
from posenc.scaling import (
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


def test_yarn_ramp_ends_where_the_turn_counts_say():
    d, base, length = 128, 10000.0, 4096
    gamma = yarn_ramp(d, length, base, alpha=1.0, beta=32.0)
    i = np.arange(d // 2)
    hi = _correction_pair(32.0, d, base, length)        # pairs before it turn > 32 times
    lo = _correction_pair(1.0, d, base, length)         # pairs after it turn < 1 time
    assert np.all(gamma[i < hi] == 1.0) and np.all(gamma[i > lo] == 0.0)
    middle = (i > hi) & (i < lo)
    assert middle.any() and np.all((gamma[middle] > 0) & (gamma[middle] < 1))
    # linear in the number of turns r = L / lambda between the two ends
    r = length / (2 * np.pi / frequencies(d, base))
    assert np.allclose(gamma[middle], (r[middle] - 1.0) / 31.0)


def test_yarn_frequencies_blend_kept_and_interpolated():
    d, s, length = 128, 16.0, 4096
    omega = frequencies(d)
    gamma = yarn_ramp(d, length)
    h = yarn_frequencies(d, s, length)
    assert np.allclose(h[gamma == 1], omega[gamma == 1])
    assert np.allclose(h[gamma == 0], omega[gamma == 0] / s)
    assert np.all(np.diff(h) < 0)                       # still strictly decreasing


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
    (lambda: yarn_attention_factor("2"), "factor"),
    (lambda: xpos_zeta(8, gamma=0.0), "gamma"),
    (lambda: xpos_scales(4, 8, scale_base=-1.0), "scale_base"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()
