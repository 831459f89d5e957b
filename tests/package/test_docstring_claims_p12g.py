"""Docstring claims of posenc.rounding, posenc.precision and posenc.similarity that review
p12g (2026-12, pass 7) found wrong; each test fails on the old code or text. References are
mpmath at 60 digits or exact integer arithmetic, never this CPU's kernels."""

from __future__ import annotations

from pathlib import Path

import mpmath
import numpy as np
import pytest

from posenc import precision, rounding
from posenc.similarity import cosine_similarity

ROOT = Path(__file__).resolve().parents[2]


def _exact_double(f, x: float) -> float:
    with mpmath.workdps(60):
        return float(getattr(mpmath, f)(mpmath.mpf(x)))


@pytest.mark.parametrize("x", [3.491415052329831, 301.80767287069466, 699.6549735069129])
def test_apply_float64_is_correctly_rounded_at_default_precision(x):
    """'float64 results: mpmath at 40 digits': apply ran mpmath at the caller's precision (53
    bits by default), and exp(x) came out one unit off (exact value 0.50001 units above)."""
    with mpmath.workprec(53):
        assert rounding.apply("exp", [x], "float64")[0] == _exact_double("exp", x)


def test_apply_float64_does_not_depend_on_mpmath_global_precision():
    with mpmath.workdps(5):
        got = rounding.apply("sin", [1.0], "float64")[0]
    assert got == _exact_double("sin", 1.0)


def test_build_does_not_depend_on_mpmath_global_precision():
    """precision.build('built in float16') read log(base) at mpmath's global precision: with
    mp.dps = 3 entries moved by up to 0.95."""
    want = precision.build("built in float16", [1, 77, 3000], 512)
    with mpmath.workdps(3):
        got = precision.build("built in float16", [1, 77, 3000], 512)
    assert np.array_equal(got, want, equal_nan=True)


def test_nearest_rounds_a_subnormal_once():
    """float(mpf) rounded to 53 bits, then ldexp rounded again: 2.5 + 2**-70 units gave 2."""
    with mpmath.workprec(300):
        v = (mpmath.mpf(5) / 2 + mpmath.mpf(2) ** -70) * mpmath.mpf(2) ** -1074
    assert float(rounding.nearest(v, "float64")) == 3 * 5e-324


def test_nearest_reads_a_string_exactly():
    """'a string is read as a decimal number, exactly': it was read to 200 bits, so a digit far
    past the midpoint 1 + 2**-53 was lost and the tie went to 1.0."""
    mid = "1.00000000000000011102230246251565404236316680908203125"    # 1 + 2**-53, exact
    assert float(rounding.nearest(mid, "float64")) == 1.0                  # tie: even
    assert float(rounding.nearest(mid + "0" * 70 + "1", "float64")) == np.nextafter(1.0, 2.0)


def test_apply_exp_overflows_to_inf_in_every_dtype():
    """'function(x) correctly rounded ... for every element': exp(710) raised OverflowError
    ('math range error') in the float32 and float16 paths."""
    for dtype in ("float16", "float32", "float64"):
        assert np.isinf(rounding.apply("exp", [710.0], dtype)[0])


@pytest.mark.parametrize("call, exc, word", [
    (lambda: rounding.apply("log", [0.0], "float32"), ValueError, "x must be positive"),
    (lambda: rounding.apply("log", [-1.0], "float64"), ValueError, "x must be positive"),
    (lambda: rounding.power(10000.0, [np.nan]), ValueError, "exponent"),
    (lambda: rounding.power(True, [2.0]), TypeError, "base"),
    (lambda: rounding.power(10000.0, ["a"]), TypeError, "exponent"),
])
def test_bad_input_names_the_argument(call, exc, word):
    with pytest.raises(exc, match=word):
        call()


def test_float16_positions_overflow_from_65520():
    """Comment 'float16: inf above 65519': 65519.5 rounds to 65504, a finite row."""
    with np.errstate(invalid="ignore", over="ignore"):
        rows = precision.build("built in float16", [65519.5, 65520.0], 2)
        assert np.float16(65519.5) == 65504 and np.isinf(np.float16(65520.0))
    assert np.all(np.isfinite(rows[0])) and np.all(np.isnan(rows[1]))


def test_same_direction_can_fall_short_of_one():
    """'clipped to [-1, 1]: 1 for the same direction': [1, 1, 3] and 5 times it (exactly
    parallel) give 0.9999999999999999."""
    assert cosine_similarity([1.0, 1.0, 3.0], [5.0, 5.0, 15.0]) < 1.0
    doc = cosine_similarity.__doc__
    assert "1 for the same direction" not in doc


def test_rounding_module_names_only_the_chapter_that_uses_it():
    """Chapter 8 imports nothing that uses posenc.rounding (only omega_forms and precision do)."""
    assert "08-building-the-formula" not in rounding.__doc__
    text = (ROOT / "docs/chapters/08-building-the-formula.md").read_text()
    assert "rounding." not in text.replace("to rounding", "") and "omega_forms" not in text


@pytest.mark.parametrize("method", ["float32 angle (tutorial)", "built in bfloat16"])
def test_float32_methods_do_not_depend_on_mpmath_global_precision(method):
    """'same bits on every machine': omega_in took log(base) at mpmath's global precision
    (through posenc.omega_forms); with mp.dps = 3 the tutorial's entries moved by 0.071."""
    want = precision.build(method, [1, 77, 3000], 512)
    with mpmath.workdps(3):
        got = precision.build(method, [1, 77, 3000], 512)
    assert np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("dtype, top", [("float16", 65504.0), ("float32", float(np.finfo(np.float32).max))])
def test_nearest_just_below_the_overflow_edge_is_the_largest_number(dtype, top):
    """A value a hair below the overflow edge (top + half a unit) rounds to float64's copy of
    the edge; nearest returned inf, the nearest number is the largest finite one."""
    ulp = top - float(np.nextafter(np.dtype(dtype).type(top), np.dtype(dtype).type(0)))
    with mpmath.workprec(300):
        v = mpmath.mpf(top) + mpmath.mpf(ulp) / 2 - mpmath.mpf(2) ** -60
        assert float(v) == top + ulp / 2
        assert float(rounding.nearest(v, dtype)) == top
        assert float(rounding.nearest(-v, dtype)) == -top
        assert np.isinf(rounding.nearest(v + mpmath.mpf(2) ** -50, dtype))


def test_apply_takes_each_argument_exactly_or_refuses_it():
    """'each is taken as the exact number it holds': the int64 2**53 + 1 was widened to 2**53,
    and sin came out -0.8489 (sin(2**53 + 1) is -0.9034)."""
    assert rounding.apply("sin", np.array([2**53], dtype=np.int64), "float64")[0] == \
        _exact_double("sin", 2.0**53)
    for x in (np.array([2**53 + 1], dtype=np.int64), np.array([2**64 - 1], dtype=np.uint64)):
        with pytest.raises(ValueError, match="x must hold numbers float64 holds exactly"):
            rounding.apply("sin", x, "float64")


def test_frequencies_as_written_exp_form_ignores_the_callers_mpmath_precision():
    """omega_forms.frequencies_as_written(form="exp", kernels="correctly rounded") took
    log(base) at the caller's mpmath precision: under mp.dps = 3 the float64 frequencies moved by
    2.4e-5 (review-2026-12 lead pass 7, left by p12g as p12f's share)."""
    import mpmath
    from posenc.omega_forms import frequencies_as_written
    here = frequencies_as_written(64, form="exp", kernels="correctly rounded")
    with mpmath.workdps(3):
        low = frequencies_as_written(64, form="exp", kernels="correctly rounded")
    assert np.array_equal(here, low)
