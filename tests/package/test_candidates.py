"""posenc.candidates against independent references: Python's own digit formatting, mpmath."""

import math

import numpy as np
import pytest

from posenc import candidates as C
from reference import exact_entry


@pytest.mark.parametrize("p", [0, 7, 42, 511, 9999])
def test_decimal_digits_match_str(p):
    expected = [int(ch) for ch in reversed(f"{p:04d}")]          # ones digit first
    assert C.decimal_digits([p]).ravel().tolist() == expected


@pytest.mark.parametrize("p", [0, 1, 6, 255, 4095])
def test_binary_bits_match_format(p):
    expected = [int(ch) for ch in reversed(format(p, "012b"))]
    assert C.binary_bits([p]).ravel().tolist() == expected


def test_fractional_positions_use_integer_part():
    assert C.decimal_digits([41.99]).ravel().tolist() == [1, 4, 0, 0]
    assert C.binary_bits([2.5], n_bits=3).ravel().tolist() == [0, 1, 0]


def test_index_over_length_uses_pos_over_L():
    # The seed's numbers: index 1 is 0.33 in a 3-token and 0.17 in a 6-token sequence.
    assert round(float(C.index_over_length([1], 3)[0, 0]), 2) == 0.33
    assert round(float(C.index_over_length([1], 6)[0, 0]), 2) == 0.17
    assert C.index_over_length(4)[:, 0].tolist() == [0.0, 0.25, 0.5, 0.75]


def test_sines_against_math():
    assert C.single_sine([3], omega=0.5)[0, 0] == pytest.approx(math.sin(1.5), abs=1e-15)
    t = C.several_sines([7], omegas=(1.0, 0.1, 0.01))
    assert t.ravel() == pytest.approx([math.sin(7), math.sin(0.7), math.sin(0.07)], abs=1e-15)


def test_sinusoidal_against_mpmath():
    t = C.sinusoidal([0, 5, 300], d_model=8)
    for r, p in enumerate([0, 5, 300]):
        for c in range(8):
            assert t[r, c] == pytest.approx(float(exact_entry(p, c, 8)), abs=1e-13)


def test_only_index_over_length_depends_on_length():
    for key, cand in C.CANDIDATES.items():
        a, b = cand([1, 2], 5), cand([1, 2], 9)
        assert np.array_equal(a, b) == (key != "index_over_length"), key


def test_registry_order_and_up_to():
    assert list(C.CANDIDATES)[0] == "raw_index" and list(C.CANDIDATES)[-1] == "sinusoidal"
    assert C.up_to(2) == ["raw_index", "decimal_digits", "index_over_length"]
    assert C.up_to(8) == list(C.CANDIDATES)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: C.decimal_digits([10000]), ValueError, "at most 9999"),
    (lambda: C.decimal_digits([-1]), ValueError, ">= 0"),
    (lambda: C.decimal_digits([1], n_digits=0), ValueError, "n_digits"),
    (lambda: C.decimal_digits([1], n_digits=2.0), TypeError, "n_digits"),
    (lambda: C.binary_bits([8], n_bits=3), ValueError, "at most 7"),
    (lambda: C.binary_bits([1], n_bits=True), TypeError, "n_bits"),
    (lambda: C.index_over_length([1, 2]), ValueError, "length must be given"),
    (lambda: C.index_over_length([3], 3), ValueError, "length must exceed"),
    (lambda: C.index_over_length([-1], 3), ValueError, ">= 0"),
    (lambda: C.index_over_length([1], 0), ValueError, "length"),
    (lambda: C.index_over_length([1], 2.5), TypeError, "length"),
    (lambda: C.raw_index([1], "5"), TypeError, "length"),
    (lambda: C.single_sine([1], omega=0), ValueError, "omega"),
    (lambda: C.single_sine([1], omega=math.nan), ValueError, "omega"),
    (lambda: C.single_sine([1], omega="1"), TypeError, "omega"),
    (lambda: C.several_sines([1], omegas=()), ValueError, "omegas"),
    (lambda: C.several_sines([1], omegas="abc"), ValueError, "omegas"),
    (lambda: C.several_sines([1], omegas=(1.0, -0.1)), ValueError, "omegas"),
    (lambda: C.sinusoidal([1], d_model=7), ValueError, "d_model"),
    (lambda: C.raw_index([[1, 2]]), ValueError, "pos"),
    (lambda: C.raw_index([math.inf]), ValueError, "pos"),
    (lambda: C.get("sine"), ValueError, "candidate must be one of"),
    (lambda: C.get(3), ValueError, "candidate"),
    (lambda: C.up_to(0), ValueError, "chapter"),
    (lambda: C.up_to("4"), TypeError, "chapter"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
