"""Claims in the docstrings of posenc's similarity, fit, relative and precision modules, and the
fixes of the pass before (p9i), checked without posenc (review-2026-12 p10i, passes 4 and 5)."""
import inspect

import numpy as np
import pytest

import posenc.fit as fit
import posenc.precision as prec
import posenc.relative as rel
import posenc.similarity as sim


def _plain_cosine(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.sum(a * b, axis=-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))


def test_scaling_keeps_the_bits_of_vectors_with_subnormal_entries():
    # p10i 1: p9i's power-of-two scaling ("exact, so cosines keep their bits") rounded a
    # subnormal entry: cosine_similarity([1, 1.5e-323], [0, 1]) gave 2e-323
    a, b = [1.0, 3 * 5e-324], [0.0, 1.0]
    assert sim.cosine_similarity(a, b) == _plain_cosine(a, b) == 3 * 5e-324
    m = sim.cosine_similarity_matrix([a, [1.0, 1.0]])
    assert m[0, 1] == np.clip(_plain_cosine(a, [1.0, 1.0]), -1, 1)


def test_cosine_similarity_stays_within_minus_one_and_one():
    # p10i 2: a vector against itself gave 1.0000000000000002 (a quarter of random vectors),
    # against its negative -1.0000000000000002; the matrix version clipped, this did not
    a = np.random.default_rng(1).normal(size=(2000, 7))
    assert _plain_cosine(a, a).max() > 1                  # the rounding the clip removes
    assert sim.cosine_similarity(a, a).max() == 1.0
    assert sim.cosine_similarity(a, -a).min() == -1.0
    assert not np.isnan(np.arccos(sim.cosine_similarity(a, -a))).any()


@pytest.mark.parametrize("scale", [1e200, 1e-170, 1e-200, 1.0])
def test_fit_handles_huge_and_tiny_tables(scale):
    # p10i 3 and 4: the diagonal fit gave nan (1e200) or 0 (1e-170) for y = 2 x, and
    # relative_residual gave nan where its docstring promises 0 and 1
    x = np.array([[1.0, 2.0], [3.0, 1.0], [0.5, 4.0]]) * scale
    assert np.allclose(fit.fit_linear_map(x, 2 * x, "diagonal"), 2 * np.eye(2), rtol=1e-15)
    assert fit.relative_residual(x, 2 * x, 2 * np.eye(2)) == 0.0
    assert fit.relative_residual(x, x, np.zeros((2, 2))) == 1.0


def test_fit_keeps_the_bits_of_ordinary_tables():
    rng = np.random.default_rng(2)
    x, y, a = rng.normal(size=(50, 6)), rng.normal(size=(50, 6)), rng.normal(size=(6, 6))
    num, den = np.einsum("nj,nj->j", x, y), np.einsum("nj,nj->j", x, x)
    assert np.array_equal(np.diag(fit.fit_linear_map(x, y, "diagonal")), num / den)
    assert fit.relative_residual(x, y, a) == np.linalg.norm(x @ a.T - y) / np.linalg.norm(y)


def test_rotate_offset_refuses_positions_past_2_53():
    # p10i 5: pos [2**53 + 1] is refused, but offset=2**53 rotated rows 2**53 and 2**53 + 1
    # by the same angle (offset 2**70 was accepted too)
    x = [[1.0, 0.0], [1.0, 0.0]]
    for offset in (2**53, 2**70):
        with pytest.raises(ValueError, match="offset"):
            rel.rotate(x, 2, offset=offset)
    out = rel.rotate(x, 2, offset=2**53 - 2)              # rows 2**53 - 2 and 2**53 - 1
    assert not np.array_equal(out[0], out[1])


def test_decade_errors_reads_a_generator_of_methods():
    # p10i 7: a generator was used up by the name check, and the result was {}
    gen = (m for m in ["float32 angle (tutorial)"])
    e = prec.decade_errors(gen, d_model=8, last_decade=2, per_decade=2)
    assert list(e) == ["float32 angle (tutorial)"] and len(e["float32 angle (tutorial)"]) == 1


@pytest.mark.parametrize("seed, err", [(1.5, TypeError), (-1, ValueError), ("0", TypeError)])
def test_sample_positions_names_a_bad_seed(seed, err):
    # p10i 8: NumPy's "expected non-negative integer" / "SeedSequence expects int" named nothing
    with pytest.raises(err, match="seed"):
        prec.sample_positions(seed=seed)


def test_build_names_the_pytorch_version_it_compares_with():
    # p10i 9: "PyTorch's own float16 sin and cos are not correctly rounded": a library statement
    # with no version (measured with torch 2.13.0+cpu; the rounding depends on its CPU kernels)
    torch = pytest.importorskip("torch")
    text = " ".join(inspect.getdoc(prec.build).split())
    assert "PyTorch 2.13's CPU float16" in text
    assert torch.__version__.startswith("2.13")


def test_decade_errors_names_methods_when_not_a_list():
    with pytest.raises(TypeError, match="methods must be a list"):
        prec.decade_errors(None)


@pytest.mark.parametrize("bad", ["a", [1j], [True]])
def test_to_bfloat16_and_first_increase_name_their_argument(bad):
    # p10i 10 and 11: strings and complex numbers got NumPy's messages, naming no argument;
    # booleans passed as numbers
    with pytest.raises(TypeError, match="x must hold real numbers"):
        prec.to_bfloat16(bad)
    with pytest.raises(TypeError, match="values must hold real numbers"):
        sim.first_increase(bad * 2)


def test_rope_permutation_converts_a_partial_rotary_checkpoint():
    # p10i 12: "moves a checkpoint from one RoPE pairing to the other": with rotary_dim <
    # head_dim the whole-head order moved the pass-through rows and paired i with
    # i + head_dim/2: scores changed by up to 15
    rng = np.random.default_rng(0)
    n_heads, hd, r = 2, 8, 4
    wq, wk, x = rng.normal(size=(n_heads * hd, 5)), rng.normal(size=(n_heads * hd, 5)), rng.normal(size=(3, 5))

    def scores(wq, wk, pairing):
        out = []
        for h in range(n_heads):
            rows = slice(h * hd, (h + 1) * hd)
            q = rel.rotate(x @ wq[rows].T, 3, pairing=pairing, rotary_dim=r)
            k = rel.rotate(x @ wk[rows].T, 3, pairing=pairing, rotary_dim=r)
            out.append(q @ k.T)
        return np.array(out)

    p = rel.rope_permutation(n_heads, hd, rotary_dim=r)
    assert np.allclose(scores(wq, wk, "adjacent"), scores(wq[p], wk[p], "half"), atol=1e-12)
    whole = rel.rope_permutation(n_heads, hd)
    assert not np.allclose(scores(wq, wk, "adjacent"), scores(wq[whole], wk[whole], "half"))
    back = rel.rope_permutation(n_heads, hd, "half", "adjacent", rotary_dim=r)
    assert np.array_equal(p[back], np.arange(n_heads * hd))
    with pytest.raises(ValueError, match="rotary_dim"):
        rel.rope_permutation(1, 8, rotary_dim=10)


def test_diagonal_fit_of_no_samples_stays_zero():
    assert np.array_equal(fit.fit_linear_map(np.zeros((0, 2)), np.zeros((0, 2)), "diagonal"),
                          np.zeros((2, 2)))


def _scaled_square(scale):
    def candidate(pos, length=None):
        p = np.arange(pos, dtype=float) if isinstance(pos, int) else np.asarray(pos, float)
        return (scale * (p / 1024) ** 2)[:, None]
    return candidate


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_property_checks_of_a_candidate_with_huge_or_tiny_entries(scale):
    # p10i 13: "any function f(pos, length=None)": the squared distances overflowed, and
    # consistent_offsets passed a candidate times 1e300 (nan spread read as 0), unique gave 0,
    # local nan, smooth inf; times 1e-300, local gave inf
    import posenc.properties as props
    plain, f = _scaled_square(1.0), _scaled_square(scale)
    for check in (props.consistent_offsets, props.unique, props.smooth):
        assert check(f).value == pytest.approx(check(plain).value * scale, rel=1e-12)
    assert props.local(f).value == pytest.approx(props.local(plain).value, rel=1e-12)
    assert props.consistent_offsets(f).passed is (scale < 1)     # absolute tolerance 1e-9
    assert props.unique(f).passed is (scale > 1)
