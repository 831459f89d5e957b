"""posenc.properties on hand-made candidates whose verdicts are known in advance."""

import numpy as np
import pytest

from posenc import properties as P
from posenc.similarity import cosine_similarity


def constant(pos, length=None):
    n = pos if isinstance(pos, int) else len(pos)
    return np.zeros((n, 2))


def mod_ten(pos, length=None):          # repeats every 10 positions: 0 and 10 collide
    p = np.arange(pos) if isinstance(pos, int) else np.asarray(pos, float)
    return np.stack([np.cos(2 * np.pi * p / 10), np.sin(2 * np.pi * p / 10)], axis=1)


def test_bounded_measures_max_abs():
    r = P.bounded(lambda p, length=None: -2.0 * np.arange(p)[:, None], n=11)
    assert (r.passed, r.value) == (False, 20.0)


def test_unique_finds_collisions():
    assert P.unique(constant).value == 0.0
    r = P.unique(mod_ten, n=20)
    assert not r.passed and r.value == pytest.approx(0.0, abs=1e-12)
    assert P.unique(mod_ten, n=10).passed          # within one period all distinct


def test_consistent_offsets_true_for_a_rotation():
    # cos/sin of one frequency: |PE(p+k) - PE(p)| = 2 sin(pi k / 10) for every p
    assert P.consistent_offsets(mod_ten, n=64).passed
    squared = lambda p, length=None: (np.arange(p) ** 2.0)[:, None]   # noqa: E731
    r = P.consistent_offsets(squared, n=10, max_offset=1)
    assert not r.passed and r.value == 16.0       # steps 1, 3, ..., 17


def test_length_independent_detects_length_use():
    r = P.length_independent(lambda p, length=None: np.full((p, 1), float(length)), n=8)
    assert (r.passed, r.value) == (False, 4.0)


def test_extends_flags_growth_and_collisions():
    assert P.extends("raw_index").value == pytest.approx(1023 / 255)
    r = P.extends(mod_ten, n_train=10, n_test=30)
    assert not r.passed and "apart" in r.note and r.value == pytest.approx(1.0)


def test_extends_reports_undefined_positions():
    from posenc.candidates import decimal_digits
    r = P.extends(lambda p, length=None: decimal_digits(p, n_digits=2), n_train=50, n_test=200)
    assert not r.passed and "undefined" in r.note


def test_smooth_detects_a_jump():
    step = lambda p, length=None: (np.asarray(p, float) >= 31.5)[:, None] * 1.0  # noqa: E731
    assert not P.smooth(step).passed and P.smooth(step).value == 1.0
    assert P.smooth(lambda p, length=None: 3.0 * np.asarray(p, float)[:, None]).value \
        == pytest.approx(0.03)


def test_local_compares_neighbours_with_far_positions():
    r = P.local("raw_index")                     # neighbours 1 apart, far positions >= 16
    assert r.passed and r.value == 1 / 16
    assert not P.local(mod_ten, n=64).passed     # position 10 lands back on position 0
    quick = lambda p, length=None: np.sin(np.multiply.outer(   # noqa: E731
        np.arange(p), [1.0, 2 ** 0.5, 3 ** 0.5, 5 ** 0.5]))
    assert P.unique(quick).passed and not P.local(quick).passed


def test_scorecard_rows_and_verdicts():
    table = P.scorecard(["raw_index", "sinusoidal"]).splitlines()
    assert len(table) == 4 and table[2].startswith("| raw index | ✗ 1023 |")
    assert table[3].count("✓") == len(P.PROPERTIES)


def test_only_final_encoding_passes_all():
    winners = [k for k in P.CANDIDATES
               if all(P.check(k, prop).passed for prop in P.PROPERTIES)]
    assert winners == ["sinusoidal"]


def wrong_rows(pos, length=None):
    return np.zeros((3, 1))


@pytest.mark.parametrize("call, exc, words", [
    (lambda: P.bounded(42), TypeError, "candidate"),
    (lambda: P.bounded("nope"), ValueError, "candidate must be one of"),
    (lambda: P.unique(wrong_rows), ValueError, "one row per position"),
    (lambda: P.unique(lambda p, length=None: np.full((p, 1), np.nan)), ValueError, "non-finite"),
    (lambda: P.unique(lambda p, length=None: np.array([["a"]] * p)), ValueError, "real table"),
    (lambda: P.unique("raw_index", n=1), ValueError, "n must be"),
    (lambda: P.unique("raw_index", n=2.0), TypeError, "n must be"),
    (lambda: P.consistent_offsets("raw_index", n=8, max_offset=8), ValueError, "max_offset"),
    (lambda: P.consistent_offsets("raw_index", max_offset=0), ValueError, "max_offset"),
    (lambda: P.extends("raw_index", n_train=100, n_test=50), ValueError, "n_test"),
    (lambda: P.local("raw_index", n=16, far=16), ValueError, "far"),
    (lambda: P.local("raw_index", far=1.5), TypeError, "far"),
    (lambda: P.smooth("raw_index", step=2), ValueError, "step"),
    (lambda: P.smooth("raw_index", step=True), ValueError, "step"),
    (lambda: P.check("raw_index", "fast"), ValueError, "prop must be one of"),
    (lambda: P.scorecard("raw_index"), TypeError, "candidates"),
    (lambda: P.scorecard([]), TypeError, "candidates"),
    (lambda: P.scorecard(["nope"]), ValueError, "candidate"),
    (lambda: P.scorecard(["raw_index"], properties=["nope"]), ValueError, "properties"),
    (lambda: P.scorecard(["raw_index"], properties="bounded"), ValueError, "properties"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_cosine_similarity_values_and_bad_input():
    assert cosine_similarity([1.0, 0.0], [0.0, 3.0]) == 0.0
    assert cosine_similarity([2.0, 2.0], [-1.0, -1.0]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="zero vectors"):
        cosine_similarity([0.0, 0.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="same length"):
        cosine_similarity([1.0, 0.0], [1.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="a must hold real numbers"):
        cosine_similarity(["x"], [1.0])
    with pytest.raises(ValueError, match="b must be finite"):
        cosine_similarity([1.0], [np.nan])
    with pytest.raises(ValueError, match="b must be a vector"):
        cosine_similarity([1.0], np.ones((1, 1, 1)))
