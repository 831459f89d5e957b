"""posenc.rotation and posenc.fit: the shift is a block rotation, checked against mpmath."""

import mpmath
import numpy as np
import pytest

import posenc
from posenc.fit import fit_linear_map, relative_residual
from posenc.rotation import rotation_block, rotation_matrix, shift
from tests.package.reference import exact_entry


@pytest.mark.parametrize("k, d_model, base", [(3, 8, 10000), (-7, 16, 10000), (2.5, 6, 50.0)])
def test_rotation_matrix_moves_rows_to_the_mpmath_reference(k, d_model, base):
    m = rotation_matrix(k, d_model, base)
    for pos in (0, 1, 13, 400):
        row = np.array([float(exact_entry(pos, c, d_model, base)) for c in range(d_model)])
        want = np.array([float(exact_entry(mpmath.mpf(pos) + mpmath.mpf(k), c, d_model, base))
                         for c in range(d_model)])
        assert np.abs(m @ row - want).max() < 1e-13


def test_rotation_block_by_angle_addition():
    for x, theta in [(0.3, 1.1), (2.0, -0.4), (5.0, 3.0)]:
        got = rotation_block(theta) @ np.array([mpmath.sin(x), mpmath.cos(x)], dtype=float)
        want = [float(mpmath.sin(mpmath.mpf(x) + theta)), float(mpmath.cos(mpmath.mpf(x) + theta))]
        assert np.abs(got - want).max() < 1e-15


def test_transposed_block_goes_backwards():
    # The textbook counter-clockwise matrix acting on (sin, cos) shifts by -k, not +k.
    pe = posenc.encode([10, 13, 7], 2)
    block = rotation_block(3.0)
    assert np.allclose(block @ pe[0], pe[1])
    assert np.allclose(block.T @ pe[0], pe[2])
    assert not np.allclose(block.T @ pe[0], pe[1])


def test_group_properties():
    a, b, d = 4, -9, 12
    ma, mb = rotation_matrix(a, d), rotation_matrix(b, d)
    assert np.allclose(ma @ mb, rotation_matrix(a + b, d))
    assert np.array_equal(rotation_matrix(0, d), np.eye(d))
    assert np.allclose(rotation_matrix(-a, d), ma.T)
    assert np.allclose(ma.T @ ma, np.eye(d))
    assert np.isclose(np.linalg.det(ma), 1.0)


def test_concatenated_layout():
    t = posenc.encode(5, 10, layout="concatenated")
    want = posenc.encode(np.arange(5) + 4, 10, layout="concatenated")
    assert np.allclose(t @ rotation_matrix(4, 10, layout="concatenated").T, want)
    assert np.allclose(shift(t, 4, layout="concatenated"), want)


def test_shift_matches_encode_at_large_positions():
    pos = np.arange(0, 5000, 37)
    assert np.abs(shift(posenc.encode(pos, 64), 123) - posenc.encode(pos + 123, 64)).max() < 1e-10


def test_fit_recovers_a_known_block_map_and_diagonal_fails():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 4))
    true = np.zeros((4, 4))
    true[:2, :2] = [[0.6, 0.8], [-0.8, 0.6]]
    true[2:, 2:] = [[2.0, 0.0], [0.0, -1.0]]
    y = x @ true.T
    assert np.allclose(fit_linear_map(x, y, "block"), true)
    assert np.allclose(fit_linear_map(x, y, "full"), true)
    diag = fit_linear_map(x, y, "diagonal")
    assert np.allclose(np.diag(diag)[2:], [2.0, -1.0], atol=1e-12)
    assert relative_residual(x, y, diag) > 0.3
    assert relative_residual(x, y, true) < 1e-14


BAD = [
    (lambda: rotation_matrix("3", 8), TypeError, "k"),
    (lambda: rotation_matrix(np.nan, 8), ValueError, "k"),
    (lambda: rotation_matrix(True, 8), TypeError, "k"),
    (lambda: rotation_matrix(3, 7), ValueError, "d_model"),
    (lambda: rotation_matrix(3, 8, 1.0), ValueError, "base"),
    (lambda: rotation_matrix(3, 8, layout="concat"), ValueError, "layout"),
    (lambda: rotation_block(None), TypeError, "theta"),
    (lambda: rotation_block(np.inf), ValueError, "theta"),
    (lambda: shift(np.zeros((3, 5)), 1), ValueError, "d_model"),
    (lambda: shift(np.zeros(4), 1), ValueError, "2-D"),
    (lambda: shift(np.array([["a", "b"]]), 1), TypeError, "table"),
    (lambda: shift(np.zeros((3, 4)), "1"), TypeError, "k"),
    (lambda: shift(np.zeros((3, 4)), 1, layout="rows"), ValueError, "layout"),
    (lambda: fit_linear_map(np.zeros((3, 2)), np.zeros((3, 2)), "banded"), ValueError, "structure"),
    (lambda: fit_linear_map(np.zeros((3, 2)), np.zeros((4, 2))), ValueError, "same shape"),
    (lambda: fit_linear_map(np.zeros(3), np.zeros(3)), ValueError, "2-D"),
    (lambda: fit_linear_map(np.zeros((3, 3)), np.zeros((3, 3)), "block"), ValueError, "even"),
    (lambda: fit_linear_map(np.full((3, 2), np.nan), np.zeros((3, 2))), ValueError, "finite"),
    (lambda: fit_linear_map(np.array([["a"]]), np.zeros((1, 1))), TypeError, "x"),
    (lambda: relative_residual(np.eye(2), np.eye(2), np.eye(3)), ValueError, "shape"),
]


@pytest.mark.parametrize("call, exc, words", BAD)
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
