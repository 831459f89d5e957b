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
    (lambda: alibi_slopes(6), "power of two"),
    (lambda: alibi_slopes(0), "positive integer"),
    (lambda: alibi_slopes(True), "positive integer"),
    (lambda: alibi_bias(0, 0.5), "n_positions"),
    (lambda: alibi_bias(3, 0.0), "slope"),
    (lambda: alibi_bias(3, math.inf), "slope"),
])
def test_alibi_rejects_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()
