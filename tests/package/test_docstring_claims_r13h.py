"""Docstring claims of posenc.rounding, precision, similarity, properties, candidates and fit
checked by review r13h (2026-12, pass 8). The first group failed on the old code (global state
that leaked in or out, huge magnitudes, the overflow edge); the second binds sentences whose
claim word could be flipped with every test still passing: each test reads the word from the
docstring and recomputes the fact. References: mpmath at 60+ digits or plain NumPy."""

from __future__ import annotations

import inspect
import math
import subprocess
import sys
import threading
from pathlib import Path

import mpmath
import numpy as np
import pytest

from posenc import candidates, fit, precision, properties, rounding, similarity

ROOT = Path(__file__).resolve().parents[2]


def _doc(obj) -> str:
    return " ".join(inspect.getdoc(obj).split())


def _exact(f, x: float, dtype="float64"):
    with mpmath.workdps(80):
        return rounding.nearest(getattr(mpmath, f)(mpmath.mpf(float(x))), dtype)


# ---- failed on the old code ------------------------------------------------------------------

def test_no_call_changes_mpmath_global_precision(monkeypatch):
    """'mpmath at 40 digits (its global precision untouched)': the old code set the global
    precision (workdps), which other threads share; a setter that raises catches any use."""
    cls = type(mpmath.mp)

    def refuse(self, value):
        raise AssertionError("posenc changed mpmath's global precision")

    for name in ("prec", "dps"):
        monkeypatch.setattr(cls, name, property(getattr(cls, name).fget, refuse))
    rounding.apply("exp", [1.0, 700.0], "float64")
    rounding.apply("exp", [1000.0], "float32")                 # libm overflow: mpmath fallback
    rounding.power(10000.0, [-0.5], "float32")
    rounding.nearest("inf" if False else "0.1", "float16")
    precision.build("built in float16", [3], 8)
    precision.omega_in("float32", 8)


def test_apply_float64_is_right_while_another_thread_uses_mpmath():
    """Old: with a neighbour thread at mp.dps = 5, 833 to 2319 of 3000 exp values were wrong
    per call, and the process's precision was left at 20 or 136 bits."""
    xs = np.random.default_rng(1).uniform(0, 700, 400)
    want = np.array([_exact("exp", x) for x in xs])
    prec = mpmath.mp.prec
    wrong, stop = [], threading.Event()

    def neighbour():
        while not stop.is_set():
            with mpmath.workdps(5):
                mpmath.exp(1)

    def worker():
        for _ in range(2):
            wrong.append(int((rounding.apply("exp", xs, "float64") != want).sum()))

    ts = [threading.Thread(target=neighbour)] + [threading.Thread(target=worker) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts[1:]:
        t.join()
    stop.set()
    ts[0].join()
    assert wrong == [0, 0, 0, 0]
    assert mpmath.mp.prec == prec


HUGE = [
    ('rounding.apply("exp", [1e12], "float32")', "[inf]"),
    ('rounding.apply("exp", [-1e12], "float64")', "[0.]"),
    ('rounding.nearest(mpmath.mpf(2) ** (10 ** 12), "float32")', "inf"),
    ('rounding.nearest("1e1000000000000", "float16")', "inf"),
    ('rounding.power(10000.0, [1e9], "float32")', "[inf]"),
]


@pytest.mark.parametrize("call, shown", HUGE)
def test_huge_magnitudes_are_decided_without_huge_integers(call, shown):
    """p12g's exact-Fraction fix built 2**exp as an integer: apply('exp', [-1e12], 'float64')
    (0.0 in 0.01 s before) and the other calls ran past 30 s, building integers of 10**12 bits.
    Run in a child limited to 2 GB and 60 s, so the old code fails instead of hanging."""
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
            "import numpy as np, mpmath; from posenc import rounding\n"
            f"print(np.asarray({call}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.strip() == shown


def test_fast_path_guards_the_float16_overflow_edge(monkeypatch):
    """exp(11.090110718526951) is 0.67 float64 units below 65520, float16's overflow edge, so
    the nearest float16 is 65504; the old guard measured no boundary there (mid was inf), and a
    libm one unit high (65520.0, an error below 8 units) gave inf."""
    x = 11.090110718526951
    with mpmath.workdps(60):
        assert mpmath.exp(mpmath.mpf(x)) < 65520 and 65520 - mpmath.exp(mpmath.mpf(x)) < 1e-11
    libm = rounding._LIBM["exp"]
    monkeypatch.setitem(rounding._LIBM, "exp", lambda a: libm(a) + math.ulp(libm(a)))
    assert rounding._LIBM["exp"](x) == 65520.0
    assert float(rounding.apply("exp", [x], "float16")[0]) == 65504.0
    assert "or its overflow edge" in _doc(rounding)


def test_results_do_not_depend_on_the_callers_errstate():
    """Old: under np.errstate(under='raise') the cast of a correctly rounded tiny result raised
    FloatingPointError (overflow was ignored, underflow not)."""
    want = _exact("exp", -100.0, "float32")               # a float32 subnormal
    with np.errstate(all="raise"):
        assert rounding.apply("exp", [-20.0], "float16")[0] == 0
        assert rounding.apply("exp", [-100.0], "float32")[0] == want
        assert rounding.apply("sin", [1e-30], "float16")[0] == 0
        assert precision.to_bfloat16([1e-300])[0] == 0


def test_sin_of_minus_zero_has_the_same_bits_on_both_paths():
    """'Two paths give the same bits': sin(-0.0) was +0.0 in float64 (mpmath has no -0) and
    -0.0 in float32; IEEE's value is -0.0."""
    for dtype in ("float16", "float32", "float64"):
        assert np.signbit(rounding.apply("sin", [-0.0], dtype)[0])


@pytest.mark.parametrize("dtype", [None, 3, "f4"] + (
    [__import__("torch").float32] if __import__("importlib").util.find_spec("torch") else []))
def test_bad_dtype_names_the_argument(dtype):
    """Old: torch.float32 or 3 gave NumPy's "Cannot interpret ... as a data type"; None was
    taken as float64."""
    with pytest.raises(ValueError, match="dtype must be"):
        rounding.apply("exp", [1.0], dtype)


def test_sample_positions_names_the_seed_of_its_count():
    """'decade 10 to 99 holds 11 distinct positions at 16' holds at seed 0 only (seeds 1..9:
    15, 15, 13, 16, 13, 13, 15, 15, 13)."""
    assert "at seed 0, decade 10 to 99 holds 11 distinct positions at 16" in _doc(
        precision.sample_positions)
    counts = [len(precision.sample_positions(1, 2, 16, seed=s)) - 1 for s in range(4)]
    assert counts[0] == 11 and counts[1:] != [11, 11, 11]


# ---- bindings: each reads the claim word and recomputes the fact --------------------------------

def test_guard_word_below_8_units():
    """'A libm error below 8 float64 units cannot move a result across a boundary': a libm
    off by up to 7 units gives the same results at 600 arguments next to midpoints."""
    assert "A libm error below 8 float64 units cannot move a result" in _doc(rounding)
    assert rounding._GUARD == 8
    rng = np.random.default_rng(3)
    v = rng.uniform(0.05, 20, 600).astype(np.float16)
    mid = (v.astype(np.float64) + np.nextafter(v, np.float16(np.inf)).astype(np.float64)) / 2
    xs = np.log(mid)                                      # exp(x) within a hair of a midpoint
    good = rounding.apply("exp", xs, "float16")
    libm = rounding._LIBM["exp"]
    try:
        for k in (-7, 7):
            rounding._LIBM["exp"] = lambda a, k=k: libm(a) + k * math.ulp(libm(a))
            assert np.array_equal(rounding.apply("exp", xs, "float16"), good)
    finally:
        rounding._LIBM["exp"] = libm


def test_ieee_does_not_fix_sin():
    """'It does not fix exp, log, pow, sin or cos': two implementations on this machine, NumPy's
    float32 sin and the correctly rounded one, disagree somewhere in 20,000 arguments."""
    assert "It does not fix ``exp``, ``log``, ``pow``, ``sin`` or ``cos``" in _doc(rounding)
    x = np.random.default_rng(0).uniform(-100, 100, 20000).astype(np.float32)
    assert (np.sin(x) != rounding.apply("sin", x, "float32")).any()


def test_reference_far_below_half_unit():
    """'within about 1e-10 of the exact value up to position 10**6, far below float32's half
    unit': mpmath at 40 digits, d_model 64, positions up to 10**6."""
    assert "far below float32's half unit in the last place (2.98e-8)" in _doc(precision)
    pos = [1, 999, 123457, 10**6]
    ref = precision.reference(pos, 64)
    with mpmath.workdps(40):
        worst = max(abs(float(ref[r, 2 * i] - mpmath.sin(p * mpmath.mpf(10000) ** (-2 * i / mpmath.mpf(64)))))
                    for r, p in enumerate(pos) for i in range(32))
    assert worst < 2e-10 < 2.98e-8 / 100


def test_sample_max_is_a_lower_bound():
    """'a maximum over the sample is a lower bound of the decade's worst case': for 100..999 the
    sample's worst float32-angle error is below the whole decade's."""
    assert "is a lower bound of the decade's worst case" in _doc(precision.sample_positions)
    assert "The decade's top is always in the sample" in _doc(precision.sample_positions)
    m = "float32 angle (tutorial)"
    sample = precision.sample_positions(2, 3, per_decade=6)
    every = np.arange(100, 1000)
    assert np.nanmax(precision.row_errors(m, sample[:-1], 16)) < np.nanmax(precision.row_errors(m, every, 16))
    for seed in range(5):
        for per in (2, 5, 16):
            s = precision.sample_positions(1, 4, per, seed=seed)
            assert {99, 999, 9999} <= set(s.tolist())


def test_torch_float16_sin_is_not_correctly_rounded():
    torch = pytest.importorskip("torch")
    assert "float16 ``sin`` and ``cos`` are not correctly rounded" in _doc(precision.build)
    a = 0.2093505859375                                   # p9i's angle, a float16 number
    got = float(torch.sin(torch.tensor([a], dtype=torch.float16))[0])
    assert got != float(_exact("sin", a, "float16"))


def test_first_increase_none_means_never_increases():
    assert "``None`` means the curve never increases" in _doc(similarity.first_increase)
    rng = np.random.default_rng(0)
    for _ in range(200):
        v = rng.integers(0, 4, 6).astype(float)
        rises = bool((np.diff(v) > 0).any())
        assert (similarity.first_increase(v) is None) == (not rises)


def test_offset_dot_is_even_in_k():
    assert "even in ``k``" in _doc(similarity)
    k = np.linspace(0.5, 300, 50)
    assert np.array_equal(similarity.offset_dot(k, 64), similarity.offset_dot(-k, 64))
    assert not np.allclose(similarity.offset_dot(k, 64), -similarity.offset_dot(-k, 64))


def test_property_words_match_the_checks():
    """The module's bullets: smooth 'at most SMOOTH_LIMIT', a flipped digit 'at least 1',
    extends 'at most 1% larger', unique 'at least DISTINCT', local neighbours 'closer'."""
    doc = _doc(properties)
    for phrase in ("moves its row by at most ``SMOOTH_LIMIT``", "flips jumps by at least 1",
                   "needs entries at most 1% larger", "are at least ``DISTINCT`` apart",
                   "every two neighbours are closer than any"):
        assert phrase in doc
    assert properties.EXTEND_RATIO == 1.01
    for key in ("raw_index", "binary_bits", "single_sine", "sinusoidal"):
        s = properties.check(key, "smooth")
        assert s.passed == (s.value <= properties.SMOOTH_LIMIT)
        u = properties.check(key, "unique")
        assert u.passed == (u.value >= properties.DISTINCT)
        loc = properties.check(key, "local")
        assert loc.passed == (loc.value < 1)
    for key in ("decimal_digits", "binary_bits"):
        assert properties.check(key, "smooth").value >= 1
    assert properties.check("raw_index", "extends").value > 1.01
    assert properties.check("sinusoidal", "extends").value <= 1.01
    table = candidates.raw_index(256)
    near = np.abs(np.diff(table[:, 0])).max()
    apart = min(np.abs(table[k:, 0] - table[:-k, 0]).min() for k in range(16, 256))
    assert near < apart and properties.check("raw_index", "local").value == near / apart


def test_only_index_over_length_uses_length():
    assert "Only :func:`index_over_length` uses it" in _doc(candidates)
    users = [k for k, c in candidates.CANDIDATES.items()
             if not np.array_equal(c(np.arange(8.0), 8), c(np.arange(8.0), 16))]
    assert users == ["index_over_length"]


def test_several_omegas_each_ten_times_slower():
    source = " ".join(inspect.getsource(candidates).split())      # an attribute docstring
    assert '"""Frequencies of :func:`several_sines`: four clocks, each ten times slower than the last."""' in source
    w = candidates.SEVERAL_OMEGAS
    assert all(math.isclose(w[i + 1] * 10, w[i]) for i in range(len(w) - 1))


def test_diagonal_cannot_block_recovers():
    from posenc import encode
    assert "cannot turn ``PE(p)`` into ``PE(p + k)``" in _doc(fit)
    p = np.arange(200)
    for d, k in ((2, 1), (8, 3), (64, 50)):
        x, y = encode(p, d), encode(p + k, d)
        assert fit.relative_residual(x, y, fit.fit_linear_map(x, y, "diagonal")) > 0.1
        assert fit.relative_residual(x, y, fit.fit_linear_map(x, y, "block")) < 1e-12


def test_omega_in_float16_is_not_pytorchs_half_tutorial():
    """omega_in's "exp" form was labelled "(the PyTorch tutorial)" for float16 too, but it rounds
    the factor -log(base)/d_model to float16, where PyTorch's half tensors keep the Python
    scalar in float32: 23 of 256 frequencies differ at d_model 512 (up to 0.79%)."""
    torch = pytest.importorskip("torch")
    assert "while PyTorch's float16 tensors keep it in float32" in _doc(precision.omega_in)
    d = 512
    theirs = torch.exp(torch.arange(0, d, 2).to(torch.float16) * (-math.log(10000.0) / d))
    assert (precision.omega_in("float16", d) != theirs.double().numpy()).sum() > 0


# ---- second batch of bindings (flips that passed every test, second look) -----------------------

def test_digit_columns_fastest_first():
    assert "stored fastest first (ones digit, lowest bit)" in _doc(candidates)
    for table in (candidates.decimal_digits(1000), candidates.binary_bits(1000)):
        changes = (np.diff(table, axis=0) != 0).sum(axis=0)
        assert np.all(np.diff(changes) < 0) or np.all(np.diff(changes[changes > 0]) < 0)
    from posenc import frequencies
    assert np.argmax(frequencies(64)) == 0                 # the sinusoidal table: column 0 fastest


def test_every_row_has_norm_sqrt_half_d():
    from posenc import encode
    assert "Every row has norm ``sqrt(d_model / 2)``" in _doc(similarity)
    for d in (2, 8, 64, 512):
        rows = encode(np.arange(0, 100000, 997), d)
        assert np.allclose(np.linalg.norm(rows, axis=1), math.sqrt(d / 2), rtol=0, atol=1e-12)


CHECKS = [  # (function, phrase in its docstring, pass rule from the value)
    (properties.bounded, "passes if at most :data:`BOUND`", lambda v: v <= properties.BOUND),
    (properties.unique, "passes if at least :data:`DISTINCT`", lambda v: v >= properties.DISTINCT),
    (properties.length_independent, "passes if at most :data:`SAME_TOL`", lambda v: v <= properties.SAME_TOL),
    (properties.consistent_offsets, "passes if at most :data:`OFFSET_TOL`", lambda v: v <= properties.OFFSET_TOL),
    (properties.extends, "Passes if that ratio is at most :data:`EXTEND_RATIO`", None),
    (properties.smooth, "passes if at most :data:`SMOOTH_LIMIT`", lambda v: v <= properties.SMOOTH_LIMIT),
    (properties.local, "passes if below 1", lambda v: v < 1),
]


@pytest.mark.parametrize("fn, phrase, rule", CHECKS, ids=[c[0].__name__ for c in CHECKS])
def test_each_check_passes_as_its_docstring_says(fn, phrase, rule):
    assert phrase in _doc(fn)
    for key in ("raw_index", "decimal_digits", "binary_bits", "single_sine", "sinusoidal"):
        r = properties.check(key, fn.__name__)
        if rule is None:                                   # extends: the ratio, and more
            assert not (r.passed and r.value > properties.EXTEND_RATIO)
        else:
            assert r.passed == rule(r.value), (key, r)
    assert any(properties.check(k, fn.__name__).passed for k in ("raw_index", "sinusoidal",
                                                                   "binary_bits", "single_sine"))


def test_decade_top_need_not_be_its_worst():
    assert "its worst position need not be" in _doc(precision.sample_positions)
    every = np.arange(100, 1000)
    err = precision.row_errors("float32 angle (tutorial)", every, 16)
    assert err[-1] < err.max()                             # 999 is not the decade's worst


def test_first_dip_none_means_never_rises():
    assert "``None`` if the values never rise" in _doc(similarity.first_dip)
    rng = np.random.default_rng(1)
    for _ in range(200):
        v = rng.integers(0, 4, 6).astype(float)
        assert (similarity.first_dip(v) is None) == (not (np.diff(v) > 0).any())


def test_no_row_may_be_all_zeros():
    assert "no row may be all zeros" in _doc(similarity.cosine_similarity_matrix)
    with pytest.raises(ValueError, match="no all-zero row"):
        similarity.cosine_similarity_matrix([[0.0, 0.0], [1.0, 1.0]])


def test_ieee_fixes_add_mul_div():
    """'IEEE 754 fixes the result of + - * /': NumPy's float32 results equal the exact value
    rounded once (Fraction arithmetic), for 3000 random pairs."""
    from fractions import Fraction
    assert "IEEE 754 fixes the result of ``+ - * /``" in _doc(rounding)
    rng = np.random.default_rng(2)
    a = (rng.standard_normal(3000) * 10.0 ** rng.uniform(-5, 5, 3000)).astype(np.float32)
    b = (rng.standard_normal(3000) * 10.0 ** rng.uniform(-5, 5, 3000)).astype(np.float32)
    for op, f in ((np.add, lambda x, y: x + y), (np.multiply, lambda x, y: x * y),
                  (np.divide, lambda x, y: x / y)):
        got = op(a, b)
        want = [rounding.nearest(f(Fraction(float(x)), Fraction(float(y))), "float32")
                for x, y in zip(a, b)]
        assert np.array_equal(got, np.array(want, dtype=np.float32))


def test_machine_method_differs_between_kernel_levels():
    """'its results differ from CPU to CPU': the same process with NumPy's AVX2 kernels switched
    off gives other bits for MACHINE_METHODS, and the same bits for the correctly rounded method."""
    assert "its results differ from CPU to CPU" in _doc(precision)
    if "X86_V3" not in rounding.numpy_kernels():
        pytest.skip("needs a CPU with NumPy's X86_V3 kernels to play a second CPU")
    code = ("import hashlib, numpy as np; from posenc import precision as p\n"
            "pos = p.sample_positions(1, 6, 64)\n"
            "print(*[hashlib.md5(p.build(m, pos, 512).tobytes()).hexdigest()\n"
            "        for m in (p.MACHINE_METHODS[0], 'float32 angle (tutorial)')])")
    env = dict(__import__("os").environ, PYTHONPATH=str(ROOT))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                           env=dict(env, **extra), timeout=300).stdout.split()
            for extra in ({}, {"NPY_DISABLE_CPU_FEATURES": "X86_V3"})]
    assert runs[0][0] != runs[1][0] and runs[0][1] == runs[1][1], runs


def test_block_structure_needs_even_width():
    assert "``d`` must be even" in _doc(fit.fit_linear_map)
    x = np.eye(3)
    with pytest.raises(ValueError, match="even number of columns"):
        fit.fit_linear_map(x, x, "block")
    fit.fit_linear_map(np.eye(4), np.eye(4), "block")
