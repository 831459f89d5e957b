"""Claims in the docstrings of posenc.candidates and posenc.precision, checked against
references built without posenc (review-2026-12 rapi5 pass 2)."""
import mpmath
import numpy as np
import pytest

import posenc.candidates as cand
import posenc.precision as prec


def test_digits_of_positions_past_int64_are_exact():
    # pass 1 made columns past int64 zeros, but a float position >= 2**63 (1e19 is exact in
    # float64) was cast to int64 and gave the digits of -2**63
    assert cand.decimal_digits([1e19], n_digits=20)[0].tolist() == [0.0] * 19 + [1.0]
    bits = cand.binary_bits([2.0**63, 6.0], n_bits=64)
    assert np.flatnonzero(bits[0]).tolist() == [63] and np.flatnonzero(bits[1]).tolist() == [1, 2]
    x = 2.0**62 + 2.0**12
    digits = cand.decimal_digits([x], n_digits=20)[0][::-1]
    assert int("".join(str(int(v)) for v in digits)) == int(x)


def test_many_digit_columns_give_digits_not_overflow_error():
    # 10**400 does not fit a float: the old bound check raised OverflowError
    assert cand.decimal_digits([5], n_digits=400)[0, :2].tolist() == [5.0, 0.0]
    assert cand.binary_bits([5.5], n_bits=1100)[0, :4].tolist() == [1.0, 0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="pass a larger width"):
        cand.decimal_digits([1e19], n_digits=19)


def _cr(value, dtype):
    """Nearest dtype number to an exact mpmath value (ties to even), without posenc."""
    d = float(value)
    y = dtype(d)
    if dtype is np.float64:
        return y
    other = np.nextafter(y, dtype(np.inf) if float(y) < d else dtype(-np.inf))
    if d == (float(y) + float(other)) / 2 and mpmath.mpf(d) != value:
        if abs(mpmath.mpf(float(other)) - value) < abs(mpmath.mpf(float(y)) - value):
            y = other
    return y


def test_built_in_float16_rounds_sin_once_to_float16_bfloat16_through_float32():
    # build's docstring said every operation is computed in float32 and rounded to the half
    # type; for float16 the code rounds exp, sin and cos once, straight to float16. At angle
    # 300 (position 300, omega 1) the two readings differ: -0.99951171875 against -1.0.
    with mpmath.workprec(120):
        exact = mpmath.sin(mpmath.mpf(300))
        once, twice = _cr(exact, np.float16), np.float16(_cr(exact, np.float32))
    assert (float(once), float(twice)) == (-0.99951171875, -1.0)
    assert prec.build("built in float16", [300], 2)[0, 0] == float(once)
    # bfloat16: sin rounded to float32 first, then to bfloat16
    angle = prec.to_bfloat16([300.0])[0]
    got = prec.build("built in bfloat16", [300], 2)[0, 0]
    with mpmath.workprec(120):
        assert got == float(prec.to_bfloat16([_cr(mpmath.sin(mpmath.mpf(float(angle))), np.float32)])[0])
    doc = " ".join(prec.build.__doc__.split())
    assert "correctly rounded straight to float16, or to float32 and then to bfloat16" in doc
    assert "each elementary function correctly rounded" not in doc
