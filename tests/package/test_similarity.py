"""posenc.similarity and posenc.omega_forms against independent references."""

import math

import mpmath
import numpy as np
import pytest

import posenc
from posenc.omega_forms import frequencies_as_written
from posenc.similarity import (cosine_similarity_matrix, first_dip, first_increase, offset_cosine,
                               offset_distance, offset_dot)
from tests.package.reference import exact_entry


def _mp_dot(p, q, d_model, base=10000):
    return sum(exact_entry(p, c, d_model, base) * exact_entry(q, c, d_model, base)
               for c in range(d_model))


@pytest.mark.parametrize("p, k, d_model", [(5, 3, 16), (1000, -17, 32), (0, 250, 8)])
def test_offset_dot_is_the_row_dot_product(p, k, d_model):
    assert abs(offset_dot(k, d_model) - float(_mp_dot(p, p + k, d_model))) < 1e-12


def test_cosine_and_distance_follow_from_the_dot():
    pe = posenc.encode([40, 71], 24)
    assert math.isclose(offset_cosine(31, 24),
                        pe[0] @ pe[1] / np.linalg.norm(pe[0]) / np.linalg.norm(pe[1]))
    assert math.isclose(offset_distance(31, 24), np.linalg.norm(pe[0] - pe[1]))
    assert offset_distance(0, 24) == 0.0


def test_cosine_similarity_matrix_by_hand():
    t = np.array([[3.0, 4.0], [0.0, 2.0], [-1.0, 0.0]])
    want = np.array([[1.0, 0.8, -0.6], [0.8, 1.0, 0.0], [-0.6, 0.0, 1.0]])
    assert np.allclose(cosine_similarity_matrix(t), want)


def test_first_increase_and_dip():
    assert first_increase([3, 2, 1]) is None
    assert first_dip([3, 2, 1]) is None
    assert first_increase([1, 2]) == 1
    assert first_dip([4, 1, 2, 3, 0]) == (1, 3, 2.0)
    assert first_dip([4, 1, 2, 3]) == (1, 3, 2.0)       # climbs to the end


@pytest.mark.parametrize("d_model", [8, 64])
def test_omega_forms_against_mpmath(d_model):
    mpmath.mp.dps = 40
    ref = np.array([float(mpmath.power(10000, -mpmath.mpf(2 * i) / d_model))
                    for i in range(d_model // 2)])
    for form in ("power", "reciprocal", "exp"):
        assert np.allclose(frequencies_as_written(d_model, form=form), ref, rtol=1e-14, atol=0)
        w32 = frequencies_as_written(d_model, form=form, dtype="float32")
        assert w32.dtype == np.float32
        assert np.allclose(w32, ref, rtol=1e-6, atol=0)


BAD = [
    (lambda: offset_dot("3", 8), TypeError, "k"),
    (lambda: offset_dot(True, 8), TypeError, "k"),
    (lambda: offset_dot(np.zeros((2, 2)), 8), ValueError, "k"),
    (lambda: offset_dot([np.nan], 8), ValueError, "k"),
    (lambda: offset_dot(1, 9), ValueError, "d_model"),
    (lambda: offset_dot(1, 8, base=0.5), ValueError, "base"),
    (lambda: offset_cosine(1, 7), ValueError, "d_model"),
    (lambda: offset_distance(1, 8.0), TypeError, "d_model"),
    (lambda: cosine_similarity_matrix(np.zeros((2, 2))), ValueError, "all-zero"),
    (lambda: cosine_similarity_matrix(np.ones(3)), ValueError, "2-D"),
    (lambda: cosine_similarity_matrix([["a"]]), TypeError, "table"),
    (lambda: first_increase([1.0]), ValueError, "values"),
    (lambda: first_dip(np.zeros((2, 2))), ValueError, "values"),
    (lambda: frequencies_as_written(8, form="log"), ValueError, "form"),
    (lambda: frequencies_as_written(8, dtype="int32"), ValueError, "dtype"),
    (lambda: frequencies_as_written(8, kernels="gpu"), ValueError, "kernels"),
    (lambda: frequencies_as_written(5), ValueError, "d_model"),
    (lambda: frequencies_as_written(8, base=1), ValueError, "base"),
]


@pytest.mark.parametrize("call, exc, words", BAD)
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
