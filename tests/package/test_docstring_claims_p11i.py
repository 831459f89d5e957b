"""Review p11i (2026-12, passes 5 and 6 of the API docstrings): each test fails on the code or
text before the fix (docs/data/findings.yml, source 'review-2026-12 p11i')."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from posenc import candidates, fit, precision, properties, relative


@pytest.mark.parametrize("offset", [np.int64(2**63 - 1), np.uint64(2**64 - 1), 2**53 + 1])
def test_rotate_refuses_offsets_past_2_53_of_any_integer_type(offset):
    # old: a NumPy offset wrapped in offset + ceil(max pos) and passed the 2**53 check;
    # 2**53 + 1 with pos [-1] rotated by float(offset) = 2**53, i.e. position 2**53 - 1
    pos = [1] if not isinstance(offset, int) else [-1]
    with pytest.raises(ValueError, match="offset"):
        relative.rotate([[1.0, 0.0]], pos, offset=offset)


def test_rotate_refuses_an_offset_that_rounds_fractional_positions():
    # old: offset 2**52 and pos [0.25, 0.5] gave two identical rows (fractions lost)
    with pytest.raises(ValueError, match="offset"):
        relative.rotate([[1.0, 0.0], [1.0, 0.0]], [0.25, 0.5], offset=2**52)
    with pytest.raises(ValueError, match="offset"):            # old: OverflowError in float()
        relative.rotate(np.zeros((0, 2)), 0, offset=10**400)
    out = relative.rotate([[1.0, 0.0]], [0.25], offset=5)
    want = [np.cos(5.25), np.sin(5.25)]
    assert np.allclose(out[0], want, rtol=0, atol=1e-15)


def test_scorecard_reads_a_generator_once():
    # old: a generator of candidates gave the header alone; of properties, a len() TypeError
    want = properties.scorecard(["raw_index"], properties=["bounded"])
    got = properties.scorecard((k for k in ["raw_index"]), properties=(p for p in ["bounded"]))
    assert got == want and "raw index" in got
    with pytest.raises(TypeError, match="candidates"):
        properties.scorecard(5)


@pytest.mark.parametrize("n", [2, 3])
def test_length_independent_needs_two_compared_positions(n):
    # old: n 2 or 3 compared position 0 alone, and index_over_length passed (value 0.0)
    with pytest.raises(ValueError, match="n must be an integer >= 4"):
        properties.length_independent("index_over_length", n=n)
    assert not properties.length_independent("index_over_length", n=4).passed


def _alternating(p, length=None):
    idx = np.arange(p) if isinstance(p, int) else np.floor(np.asarray(p, dtype=float))
    return np.where(idx % 2, 1.0, -1.0)[:, None] * 1.5e308


def test_consistent_offsets_differences_do_not_overflow():
    # old: rows +-1.5e308 overflowed in table[k:] - table[:-k] -> spread nan, fail; true spread 0
    result = properties.consistent_offsets(_alternating)
    assert result.passed and result.value == 0.0


def test_local_and_smooth_scale_before_differencing():
    scaled = lambda p, length=None: properties.CANDIDATES["raw_index"](p, length) * 2.0**1000
    assert properties.local(scaled).value == properties.local("raw_index").value   # old: nan
    assert properties.smooth(scaled).value == np.ldexp(properties.smooth("raw_index").value, 1000)


def test_smooth_docstring_states_the_sampled_grid():
    # a jump at 0.003 (or 63.999) passes smooth: the ends' half steps are not sampled
    jump = lambda p, length=None: (np.asarray(np.arange(p) if isinstance(p, int) else p,
                                              dtype=float) >= 0.003)[:, None] * 1.0
    assert properties.smooth(jump).passed
    doc = " ".join((properties.smooth.__doc__ + properties.__doc__).split())
    assert "anywhere in" not in doc and "(j + 1/2) step" in doc


@pytest.mark.parametrize("f", [lambda: candidates.single_sine([10], omega=1e308),
                               lambda: candidates.several_sines([10], omegas=(1.0, 1e308))])
def test_sines_refuse_an_overflowing_angle(f):
    # old: nan rows (and RuntimeWarnings) for a "positive finite" omega
    with pytest.raises(ValueError, match="omega"):
        f()


def test_relative_residual_when_x_a_overflows():
    # old: x 1e300 I, a 1e10 I, y = x: X A^T overflowed, inf; true 1e10 - 1
    x = np.eye(3) * 1e300
    assert fit.relative_residual(x, x, 1e10 * np.eye(3)) == pytest.approx(1e10 - 1, rel=1e-12)
    rng = np.random.default_rng(0)
    xo, ao = rng.normal(size=(40, 4)), rng.normal(size=(4, 4))
    yo = xo @ ao.T + rng.normal(size=(40, 4)) * 0.1
    old = np.linalg.norm(xo @ ao.T - yo) / np.linalg.norm(yo)        # ordinary inputs: same bits
    assert fit.relative_residual(xo, yo, ao) == old


def test_precision_casts_name_the_pytorch_version():
    torch = pytest.importorskip("torch")
    doc = " ".join((inspect.getdoc(precision.build) + inspect.getdoc(precision.to_bfloat16)).split())
    assert doc.count("PyTorch 2.13's CPU cast") == 2
    assert torch.__version__.startswith("2.13")
    x = 1 + 2**-11 + 2**-40            # above a float16 tie; float32 rounds it onto the tie
    assert torch.tensor([x], dtype=torch.float64).to(torch.float16).item() == 1.0
    assert np.float64(x).astype(np.float16) != 1.0                 # NumPy rounds once
