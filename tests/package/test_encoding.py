"""The NumPy encoding against an independent mpmath reference, and its documented behaviour."""

import math

import numpy as np
import pytest

import posenc
from tests.package.reference import exact_entry

HALF_ULP_AT_ONE = 2.0 ** -25        # half a float32 ulp for values in [0.5, 1): 2.98e-8


def test_matches_the_paper_formula_in_float64():
    d_model = 64
    table = posenc.encode(200, d_model)
    for pos in (0, 1, 7, 50, 199):
        for col in range(d_model):
            assert table[pos, col] == pytest.approx(float(exact_entry(pos, col, d_model)), abs=1e-13)


def test_concatenated_layout_matches_reference():
    d_model = 16
    table = posenc.encode([0, 3, 1000], d_model, layout="concatenated")
    for r, pos in enumerate((0, 3, 1000)):
        for col in range(d_model):
            want = float(exact_entry(pos, col, d_model, layout="concatenated"))
            assert table[r, col] == pytest.approx(want, abs=1e-12)


def _ulp32(x: np.ndarray) -> np.ndarray:
    x = np.abs(np.asarray(x, dtype=np.float32))
    return np.spacing(x).astype(np.float64)


def test_float32_within_half_ulp_up_to_a_million():
    """Sampled entries of a float32 table, positions up to 10**6, against 40-digit values."""
    d_model = 512
    rng = np.random.default_rng(2017)
    positions = np.concatenate([[0, 1, 2, 999_999, 1_000_000], rng.integers(0, 1_000_001, 40)])
    table = posenc.encode(positions, d_model, dtype="float32")
    assert table.dtype == np.float32
    columns = np.concatenate([np.arange(8), np.arange(d_model - 8, d_model), rng.integers(0, d_model, 48)])
    worst = 0.0
    for r, pos in enumerate(positions):
        exact = np.array([float(exact_entry(int(pos), int(c), d_model)) for c in columns])
        got = table[r, columns].astype(np.float64)
        err = np.abs(got - exact)
        # half an ulp of the exact value; the 1e-9 covers float64's own error in the angle
        # (about 2e-10 at pos 1e6), which only matters for values below about 0.01
        assert np.all(err <= 0.5 * _ulp32(exact) + 1e-9), (pos, err.max())
        worst = max(worst, err.max())
    assert worst <= HALF_ULP_AT_ONE


def test_float32_is_the_float64_table_cast_once():
    pos = np.array([0, 5, 12345, 999_999])
    assert np.array_equal(posenc.encode(pos, 128, dtype="float32"),
                          posenc.encode(pos, 128).astype(np.float32))
    assert posenc.encode(3, 4, dtype=np.float32).dtype == np.float32


def test_count_and_array_positions_agree():
    assert np.array_equal(posenc.encode(10, 32), posenc.encode(np.arange(10), 32))
    assert np.array_equal(posenc.encode(10, 32), posenc.encode(list(range(10)), 32))
    assert posenc.encode(0, 8).shape == (0, 8)


def test_real_and_negative_positions():
    table = posenc.encode([-2.5, 0.5], 4)
    omega1 = 10000 ** (-2 / 4)
    assert table[0, 0] == pytest.approx(math.sin(-2.5))
    assert table[1, 3] == pytest.approx(math.cos(0.5 * omega1))


def test_frequencies_and_wavelengths():
    omega = posenc.frequencies(512)
    assert omega.shape == (256,)
    assert omega[0] == 1.0
    assert np.all(np.diff(omega) < 0)
    ratios = omega[1:] / omega[:-1]
    assert np.allclose(ratios, 10000 ** (-2 / 512))
    lam = posenc.wavelengths(512)
    assert lam[0] == pytest.approx(2 * math.pi)
    assert lam[-1] == pytest.approx(2 * math.pi * 10000 ** (510 / 512))
    assert lam[-1] < 2 * math.pi * 10000
    assert posenc.frequencies(8, base=2.0)[1] == pytest.approx(2 ** -0.25)


def test_angles_are_pos_times_omega():
    theta = posenc.angles([3.0, 4.0], 8)
    assert np.allclose(theta, np.outer([3.0, 4.0], posenc.frequencies(8)))


def test_layout_permutation_round_trip_and_gram_matrix():
    inter = posenc.encode(50, 64)
    concat = posenc.encode(50, 64, layout="concatenated")
    perm = posenc.layout_permutation(64)
    assert np.array_equal(inter[:, perm], concat)
    back = posenc.convert_layout(concat, "concatenated", "interleaved")
    assert np.array_equal(back, inter)
    assert np.allclose(inter @ inter.T, concat @ concat.T)
    assert np.array_equal(posenc.layout_permutation(8, "interleaved", "interleaved"), np.arange(8))
    assert sorted(perm.tolist()) == list(range(64))


def test_bounded_and_norm():
    table = posenc.encode(1000, 128)
    assert np.abs(table).max() <= 1.0
    assert np.allclose(np.linalg.norm(table, axis=1), math.sqrt(64))
