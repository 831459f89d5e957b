"""Checks for review-2026-12 p12f (pass 6 of the API docstrings: encoding, rotation, distances,
layouts, variants, omega_forms, torch_module/table, _checks). Each fails on the code or text
before the fix (see reviews/2026-12/p12f.md)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import torch

from posenc import encode
from posenc._checks import check_d_model, check_dtype, check_layout
from posenc.distances import min_distance, nearest_pairs, pairwise_distances
from posenc.fast import rotated_table
from posenc.torch_module.table import ties


def _wide(seed: int) -> np.ndarray:
    """Rows 0 and 1 1e-9 apart, rows 2 and 3 2e-6 apart, 16,384 columns."""
    t = np.random.default_rng(seed).uniform(-1, 1, size=(8, 16384))
    t[1] = t[0]
    t[1, 0] += 1e-9
    t[3] = t[2]
    t[3, 0] += 2e-6
    return t


@pytest.mark.parametrize("seed", [9, 10, 19, 21])
def test_closest_pair_of_a_wide_table(seed):
    """"closest first": the old slack (1e-6 of a distance) was below the fast formula's error at
    16,384 columns (5.9e-6), and these four tables gave (2, 3) at 2e-6 before (0, 1) at 1e-9."""
    t = _wide(seed)
    a, b, d = nearest_pairs(t, 1)[0]
    assert (a, b) == (0, 1) and d == pytest.approx(1e-9, rel=1e-6)
    assert min_distance(t) == pytest.approx(1e-9, rel=1e-6)


@pytest.mark.parametrize("table, pair, expected", [
    ([[1e300], [1e-300], [0.0]], (1, 2), 1e-300),          # 1e-300 / 2**997 underflowed: 0
    ([[0.0], [1e-170], [1.0]], (0, 1), 1e-170),            # norm squared 1e-170: 0
    ([[1.7e308, 1.7e308], [0, 0], [1, 1]], (1, 2), 2 ** 0.5),
    ([[1.7e308], [-1.7e308], [0.0]], (0, 2), 1.7e308),     # s = 2**1024 overflowed: nan
])
def test_distances_at_the_ends_of_float64(table, pair, expected):
    """"Euclidean distance between every pair of rows"; min_distance's "0 means a collision"."""
    with np.errstate(all="raise"):
        assert pairwise_distances(table)[pair] == pytest.approx(expected, rel=1e-15)
        found = {(a, b): d for a, b, d in nearest_pairs(table, 3)}
    assert found[pair] == pytest.approx(expected, rel=1e-15)
    assert min_distance(table) > 0


def test_many_tied_pairs_are_measured_in_blocks():
    """Every pair of an identity matrix's rows ties; the exact distances were taken all at once
    (np.eye(3000): 101 GiB asked for). 400 rows: 255 MB per array before, blocks of 32 MB now."""
    tracemalloc.start()
    try:
        result = nearest_pairs(np.eye(400), 2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result == [(0, 1, 2 ** 0.5), (0, 2, 2 ** 0.5)]
    assert peak < 200 * 2**20, peak


@pytest.mark.parametrize("pos", [[np.array(2**53 + 1), 0.5], [torch.tensor(2**53 + 1), 0.5],
                                 (np.array(-(2**53) - 1), 0.25)])
def test_listed_0d_integers_past_2_53(pos):
    """encode's "integers within 2**53 in magnitude": a 0-d array or tensor beside a float was
    rounded to the row of 2**53."""
    with pytest.raises(ValueError, match="pos holds integers beyond 2\\*\\*53"):
        encode(pos, 2)
    with pytest.raises(ValueError, match="positions holds integers beyond 2\\*\\*53"):
        rotated_table([pos[0], 1.0], np.array([1.0]))


@pytest.mark.parametrize("pos", [[np.array(True), 2], [torch.tensor(True), 2.5]])
def test_listed_0d_bools(pos):
    """A bool inside a list is refused; as a 0-d array or tensor it was read as 1."""
    with pytest.raises(TypeError, match="pos must hold numbers, not bools"):
        encode(pos, 2)


def test_listed_0d_numbers_within_range_still_taken():
    assert np.array_equal(encode([torch.tensor(3), np.array(2.5)], 4), encode([3, 2.5], 4))


def test_checks_module_kinds():
    """_checks' docstring: TypeError for a number of the wrong kind; ValueError for any layout or
    dtype not listed (tests/package/test_bad_input.py holds encode to it)."""
    with pytest.raises(TypeError, match="d_model"):
        check_d_model(8.0)
    for bad in (1, None):
        with pytest.raises(ValueError, match="layout"):
            check_layout(bad)
    with pytest.raises(ValueError, match="dtype"):
        check_dtype(object())


def test_float16_ties_below_2_to_the_minus_14():
    """table.py's module docstring: the low-13-bit pattern is a float16 tie from 2**-14 up only."""
    below = np.float32((1 + 2.0**-11) * 2.0**-20)          # low 13 bits 0x1000, not a tie
    above = np.float32((1 + 2.0**-11) * 2.0**-10)
    assert int(below.view(np.uint32)) & 0x1FFF == 0x1000 == int(above.view(np.uint32)) & 0x1FFF
    assert ties(np.float32([below, above, 3 * 2.0**-25]), torch.float16).tolist() == [1, 2]


def test_omega_forms_points_to_the_chapter_that_measures_the_spellings():
    """omega_forms' module docstring named chapter 8, which only points on to chapter 13."""
    import posenc.omega_forms as forms
    from pathlib import Path
    import re
    named = re.findall(r"docs/chapters/[\w-]+\.md", forms.__doc__)
    assert named == ["docs/chapters/13-how-precise-is-the-table.md"]
    root = Path(__file__).resolve().parents[2]
    assert "frequencies_as_written" not in (root / "docs/chapters/08-building-the-formula.md").read_text()
    assert "posenc.omega_forms" in (root / named[0]).read_text()


# Flip tests (session 12): each sentence below, flipped in a scratch copy, left every doctest and
# docstring test passing; each test now reads the sentence and checks what it says.

def _doc(obj) -> str:
    import inspect
    return " ".join((inspect.getdoc(obj) or "").split())


def test_nearest_pairs_closest_first():
    assert "closest pairs of distinct rows, closest first." in _doc(nearest_pairs)
    d = [dist for _, _, dist in nearest_pairs(encode(200, 8), 12)]
    assert d == sorted(d) and d[0] < d[-1]


def test_rotation_matrix_negative_shifts_backwards():
    from posenc.rotation import rotation_matrix
    assert "negative shifts backwards" in _doc(rotation_matrix)
    back = rotation_matrix(-3, 8) @ encode([5], 8)[0]
    assert np.allclose(back, encode([2], 8)[0]) and not np.allclose(back, encode([8], 8)[0])


def test_t2t_table_is_not_a_permutation_of_the_paper_table():
    import posenc.encoding as enc
    from posenc.variants import encode_variant
    assert "so their tables are not a permutation of this one" in _doc(enc)
    t2t = encode_variant([100], 512, spacing="t2t", layout="concatenated")[0]
    assert not np.array_equal(np.sort(t2t), np.sort(encode([100], 512)[0]))


def test_layouts_differ_only_in_column_order():
    import posenc.layouts as lay
    assert "only the order of the columns differs" in _doc(lay)
    inter, concat = encode(50, 16), encode(50, 16, layout="concatenated")
    assert np.array_equal(inter[:, lay.permutation(16)], concat)        # same rows, columns moved
    assert not np.array_equal(inter, concat)


def test_gram_layernorm_sentences():
    from posenc.layouts import permutation
    from posenc.rotation import rotation_matrix
    from posenc.variants import gram
    doc = _doc(gram)
    assert "(LayerNorm commutes with it)" in doc
    assert "a rotation, such as a shift of all positions, does not commute with LayerNorm" in doc

    def ln(x):
        return (x - x.mean(-1, keepdims=True)) / x.std(-1, keepdims=True)
    e, p, m = encode(64, 16), permutation(16), rotation_matrix(5, 16)
    assert np.allclose(ln(e[:, p]), ln(e)[:, p])
    assert np.abs(ln(e @ m.T) - ln(e) @ m.T).max() > 1.0


def test_one_fractional_position_sends_every_row_to_the_direct_formula():
    from posenc.encoding import frequencies, table_for
    assert "one fractional position sends every row to the direct formula" in _doc(table_for)
    ints = np.arange(4096.0)
    omega = frequencies(512)
    mixed = table_for(np.append(ints, 0.5), omega)[:-1]
    theta = np.multiply.outer(ints, omega)
    direct = np.empty_like(mixed)
    direct[:, 0::2], direct[:, 1::2] = np.sin(theta), np.cos(theta)
    assert np.array_equal(mixed, direct)                              # every row: the direct formula
    assert not np.array_equal(mixed, table_for(ints, omega))          # an integer row's last bit moved


def test_check_positions_returns_1d_float64():
    from posenc._checks import check_positions
    assert "Return positions as a 1-D float64 array." in _doc(check_positions)
    for pos in (3, [1, 2.5], np.arange(4, dtype=np.int8)):
        out = check_positions(pos)
        assert out.ndim == 1 and out.dtype == np.float64


# Second flip batch: 9 more sentences, flipped together, left every doctest and docstring test
# passing; each is read and checked here.

def test_omega_forms_arithmetic_is_ieee_in_dtype():
    from fractions import Fraction
    import posenc.omega_forms as forms
    assert "Every ``+ - * /`` is IEEE arithmetic in ``dtype``, the same on every machine." in _doc(forms)
    for t in (np.float16, np.float32, np.float64):
        for d in (6, 64, 768, 1000):
            two_i = np.arange(0, d, 2).astype(t)
            got = two_i / t(d)                                     # the division the forms use
            # float(Fraction) rounds once to float64; rounding that again to float16/float32
            # could differ from one rounding only if it landed on a tie, which 2i/d (d < 2**11)
            # stays at least 2**-35 (relative) away from
            exact = [t(float(Fraction(int(a), d))) for a in two_i]
            assert np.array_equal(got, np.array(exact, dtype=t)), (t, d)


def test_omega_forms_names_exp_as_the_cpu_dependent_kernel():
    import posenc.omega_forms as forms
    # the behaviour: tests/package/test_docstring_claims_p11h.py::test_float32_exp_differs_with_the_cpu_features
    assert "whose float32 ``exp`` differs from CPU to CPU" in _doc(forms)


def test_pytorch_casts_through_float32_rounding_twice():
    import posenc.torch_module.table as tab
    assert "PyTorch casts through float32, which rounds twice" in _doc(tab)
    v = np.array([1.0 + 2.0 ** -8 + 2.0 ** -40])                # just above a bfloat16 tie
    assert torch.from_numpy(v).to(torch.bfloat16).item() == 1.0             # twice: down
    assert torch.from_numpy(v).to(torch.float32).to(torch.bfloat16).item() == 1.0
    assert float(np.float32(v[0])) == 1.0 + 2.0 ** -8                       # the tie in between


def test_round_to_odd_needs_two_more_bits():
    from posenc.torch_module.table import round_to_odd_float32
    assert "because float32 has at least two more bits" in _doc(round_to_odd_float32)
    assert np.finfo(np.float32).nmant - np.finfo(np.float16).nmant >= 2
    assert np.finfo(np.float32).nmant - 7 >= 2                               # bfloat16: 7 stored bits


def test_t2t_slowest_frequency_is_one_over_base():
    import posenc.variants as var
    assert "which puts the slowest frequency at ``1 / base``" in _doc(var)
    for base in (10.0, 1e4, 1e6):
        f = var.frequencies(64, base, "t2t")
        assert f.argmin() == f.size - 1 and f[0] == 1.0 and abs(f[-1] * base - 1) < 1e-14


def test_zero_pad_appends_the_zero_column():
    from posenc.variants import encode_variant, even_width
    assert "columns and appends a column of zeros" in _doc(even_width)
    t = encode_variant([3, 7], 7, odd="zero_pad")
    assert (t[:, -1] == 0).all() and (t[:, 0] != 0).all()
    assert np.array_equal(t[:, :-1], encode_variant([3, 7], 6))


def test_shift_looks_up_no_position():
    import inspect
    from posenc.rotation import shift
    assert "no position is looked up" in _doc(shift)
    assert list(inspect.signature(shift).parameters) == ["table", "k", "base", "layout"]
    assert np.allclose(shift(encode([0.3, 17.2], 8), 5), encode([5.3, 22.2], 8))


def test_encode_computed_in_float64_and_cast_once():
    assert "The table is always computed in float64 and cast once." in _doc(encode)
    for pos in (np.arange(3000), [0.5, 3.0, 1e6 + 0.25]):
        assert np.array_equal(encode(pos, 64, dtype="float32"), encode(pos, 64).astype(np.float32))


def test_permutation_is_an_integer_array():
    from posenc.layouts import permutation
    assert "Integer array of shape ``(d_model,)``." in _doc(permutation)
    for args in ((6,), (6, "concatenated", "interleaved"), (4, "interleaved", "interleaved")):
        p = permutation(*args)
        assert p.dtype.kind == "i" and p.shape == (args[0],)


def test_a_longdouble_position_float64_cannot_hold_is_refused():
    """A longdouble array was cast to float64 before any check: decimal_digits of 2**53 + 1 gave
    the digits of 2**53 (review-2026-12 p10i pass 4, open until the lead's fix in session 12)."""
    from posenc.candidates import decimal_digits
    with pytest.raises(ValueError, match="pos holds values beyond 2\\*\\*53"):
        decimal_digits(np.array([2**53 + 1], dtype=np.longdouble), n_digits=17)
    exact = decimal_digits(np.array([2**53, 12], dtype=np.longdouble), n_digits=17)
    assert exact[1][:2].tolist() == [2.0, 1.0]
