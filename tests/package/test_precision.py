"""posenc.precision against independent references: mpmath for the values, PyTorch for
bfloat16 rounding, and the float16/float32 number formats themselves."""

import math

import mpmath
import numpy as np
import pytest

import posenc
from posenc import precision
from posenc.plots.precision import error_by_position
from tests.package.reference import exact_entry


def test_reference_is_within_1e_10_of_mpmath_up_to_a_million():
    positions = [10, 999_999, 1_000_000]
    table = precision.reference(positions, 512)
    for r, pos in enumerate(positions):
        for col in (0, 1, 2, 3, 100, 101, 510, 511):
            assert abs(table[r, col] - float(exact_entry(pos, col, 512))) < 1e-10


def test_to_bfloat16_matches_torch():
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(0).standard_normal(20_000).astype(np.float32) * 1000
    x = np.concatenate([x, [np.inf, -np.inf, 0.0, 257.0, 259.0, 3.0e38]]).astype(np.float32)
    want = torch.from_numpy(x).to(torch.bfloat16).float().numpy()
    assert np.array_equal(precision.to_bfloat16(x), want)


@pytest.mark.parametrize("d", [64, 512])
@pytest.mark.parametrize("half, method", [("bfloat16", "built in bfloat16"),
                                          ("float16", "built in float16")])
def test_built_in_half_matches_the_tutorial_code_in_torch(half, method, d):
    """The tutorial's code on half tensors, its factor a Python float: PyTorch multiplies in
    float32 and rounds once. Rounding the factor to the half type first gives other frequencies
    (115 of 256 in bfloat16 at d_model = 512, 23 in float16) and fails here."""
    torch = pytest.importorskip("torch")
    dtype = getattr(torch, half)
    pos = precision.sample_positions(1, 5, per_decade=6)
    p = torch.from_numpy(pos).to(dtype)[:, None]
    omega = torch.exp(torch.arange(0, d, 2).to(dtype) * (-math.log(10000.0) / d))
    t = torch.empty(len(pos), d, dtype=dtype)
    t[:, 0::2], t[:, 1::2] = torch.sin(p * omega), torch.cos(p * omega)
    assert np.array_equal(precision.build(method, pos, d), t.double().numpy(), equal_nan=True)


def _mp_float32(value):
    """Round an mpmath value to 24 significant bits (ties to even): float32, independently."""
    with mpmath.workprec(24):
        return float(+value)


def test_float32_tutorial_is_the_correctly_rounded_float32_pipeline():
    # Independent: IEEE float32 products in NumPy, every exp/cos from mpmath rounded to 24 bits.
    d = 32
    pos = np.arange(0, 5000, 37)
    mpmath.mp.dps = 40
    factor = np.float32(-float(mpmath.log(10000)) / d)
    div = np.array([_mp_float32(mpmath.exp(float(a)))
                    for a in np.arange(0, d, 2, dtype=np.float32) * factor], dtype=np.float32)
    angle = pos.astype(np.float32)[:, None] * div
    want = np.array([[_mp_float32(mpmath.cos(float(a))) for a in row] for row in angle])
    assert np.array_equal(precision.build("float32 angle (tutorial)", pos, d)[:, 1::2], want)


def test_machine_method_is_numpy_running_the_tutorial_code():
    d = 32
    pos = np.arange(0, 5000, 37)
    div = np.exp(np.arange(0, d, 2, dtype=np.float32) * np.float32(-math.log(10000.0) / d))
    angle = pos.astype(np.float32)[:, None] * div
    got = precision.build(precision.MACHINE_METHODS[0], pos, d)
    assert np.array_equal(got[:, 1::2], np.cos(angle).astype(np.float64))
    assert np.array_equal(got[:, 0::2], np.sin(angle).astype(np.float64))


def test_error_floors_and_growth():
    e = precision.decade_errors(d_model=128, per_decade=8)
    cast = e["float64, cast to float32"]
    assert max(cast) <= 2.0**-25 + 1e-10
    assert e["float64, stored as float16"][0] == pytest.approx(2.0**-12, rel=0.02)
    assert e["float64, stored as bfloat16"][0] == pytest.approx(2.0**-9, rel=0.02)
    tut = e["float32 angle (tutorial)"]
    assert all(b > 5 * a for a, b in zip(tut, tut[1:]))      # about 10x per decade
    f16 = e["built in float16"]
    assert math.isnan(f16[-1]) and not math.isnan(f16[2])     # positions above 65519 are inf


def test_float16_position_limits():
    with np.errstate(over="ignore"):
        assert float(np.float16(2049)) == 2048.0
        assert float(np.float16(65519)) == 65504.0
        assert np.isinf(np.float16(65520))
    row = precision.build("built in float16", [70_000], 4)
    assert np.isnan(row).any()
    assert np.isnan(precision.row_errors("built in float16", [70_000], 4)[0])


def test_power_form_is_more_accurate_than_exp_form_in_float32():
    # machine-free: both forms with correctly rounded exp and power
    d = 512
    exact = np.array([float(mpmath.power(10000, -mpmath.mpf(2 * i) / d)) for i in range(d // 2)])
    rel = {f: np.abs(precision.omega_in("float32", d, form=f) / exact - 1).max()
           for f in precision.OMEGA_FORMS}
    assert rel["power"] < 2.0**-24 < rel["exp"]


def test_sample_positions_cover_each_decade():
    p = precision.sample_positions(1, 6, per_decade=5)
    for k in range(1, 6):
        assert 10**k in p and 10 ** (k + 1) - 1 in p
    assert p.max() == 10**6 and np.all(np.diff(p) > 0)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: precision.build("fp8", [1], 4), ValueError, "method"),
    (lambda: precision.build("built in float16", [1], 3), ValueError, "d_model"),
    (lambda: precision.build("built in float16", [np.nan], 4), ValueError, "pos"),
    (lambda: precision.decade_errors(["nope"]), ValueError, "method"),
    (lambda: precision.omega_in("float64", 4), ValueError, "dtype"),
    (lambda: precision.omega_in("float32", 4, form="log"), ValueError, "form"),
    (lambda: precision.sample_positions(3, 2), ValueError, "first_decade"),
    (lambda: precision.sample_positions(1, 2, per_decade=1), ValueError, "per_decade"),
    (lambda: precision.sample_positions(1.0, 2), TypeError, "first_decade"),
    (lambda: error_by_position([], {"a": []}), ValueError, "positions"),
    (lambda: error_by_position([0, 10], {"a": [1, 2]}), ValueError, "positive"),
    (lambda: error_by_position([10], {}), ValueError, "errors"),
    (lambda: error_by_position([10, 20], {"a": [1.0]}), ValueError, "shape"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_figure_draws_with_overflowed_points():
    fig = error_by_position([10, 100, 1000], {"a": [1e-6, np.nan, 1e-4], "b": [0, 0, 0]})
    assert len(fig.axes[0].lines) >= 2
    assert "<svg" in posenc.plots.to_svg(fig, alt="errors")
