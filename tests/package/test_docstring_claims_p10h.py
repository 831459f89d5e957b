"""Edges of the docstrings of posenc's encoding, rotation, distances, layouts, variants,
omega_forms, scaling, torch_module.table and _checks modules (and posenc.fast's shared position
check), checked against references built without posenc (review-2026-12 p10h, pass 4)."""
import inspect

import numpy as np
import pytest
import torch

import posenc._checks as chk
import posenc.distances as dist
import posenc.encoding as enc
import posenc.fast as fast
import posenc.layouts as lay
import posenc.rotation as rot
import posenc.scaling as scal
import posenc.torch_module.table as tab
import posenc.variants as var


def flat(doc) -> str:
    return " ".join(inspect.getdoc(doc).split())


BIG = 10**400          # a Python int float64 cannot hold: float(BIG) raises OverflowError


@pytest.mark.parametrize("call, name", [
    (lambda: enc.encode(2, 4, base=BIG), "base"),
    (lambda: var.frequencies(4, BIG, "t2t"), "base"),
    (lambda: rot.rotation_matrix(BIG, 4), "k"),
    (lambda: rot.shift(np.zeros((1, 4)), BIG), "k"),
    (lambda: var.encode_variant(2, 4, offset=BIG), "offset"),
    (lambda: scal.position_interpolation(8, BIG), "factor"),
    (lambda: enc.encode(10**20, 4), "pos"),
])
def test_integers_past_float64_are_named(call, name):
    # H1: float(10**400) raised OverflowError "int too large to convert to float", and a count
    # of 10**20 NumPy's "Maximum allowed size exceeded": neither named the argument
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_fast_refuses_integers_past_2_53():
    # H2: posenc.fast compared float64(p) with 2**53, so int64 2**53 + 1 passed although the
    # docstring says |p| <= 2**53 (the check p9i made exact in posenc._checks)
    for p in (np.array([2**53 + 1]), np.array([-(2**53) - 1]), np.array([2**53 + 1], np.uint64)):
        with pytest.raises(ValueError, match=r"within 2\*\*53"):
            fast.rotated_table(p, enc.frequencies(2))
        with pytest.raises(ValueError, match=r"within 2\*\*53"):
            fast.exact_rows(p)
    edge = fast.rotated_table(np.array([2**53, -(2**53)]), enc.frequencies(2))
    assert edge[0, 0] == np.sin(2.0**53) and edge[1, 0] == np.sin(-(2.0**53))
    assert "``|p| <= 2**53``" in flat(fast.rotated_table)


def test_a_fractional_offset_that_merges_rows_is_refused():
    # H3 (in p9h's fix): only whole offsets were checked; 2**53 - 2 + 1.5 and 2**53 - 1 + 1.5
    # both round to 2**53, and the two rows came out equal
    with pytest.raises(ValueError, match="offset 1.5"):
        var.encode_variant([2**53 - 2, 2**53 - 1], 2, offset=1.5)
    with pytest.raises(ValueError, match="offset 0.5"):
        var.encode_variant([2**52], 2, offset=0.5)          # 2**52 + 0.5 rounds to 2**52
    t = var.encode_variant([2**51, 3.0], 2, offset=0.5)      # exact: kept
    assert t[0, 0] == np.sin(2.0**51 + 0.5) and t[1, 0] == np.sin(3.5)
    assert var.encode_variant([1.0], 2, offset=0.1).shape == (1, 2)   # 1.1 rounds: fine
    assert "refused if whole or past 2**52" in flat(var.encode_variant)


def test_distances_of_large_or_offset_rows():
    # H4: |x|^2 + |y|^2 - 2 x.y overflowed for finite entries near 1e200 (pairwise: nan;
    # nearest_pairs and min_distance: IndexError) and cancelled a shared offset (rows 1e8 and
    # 1e8 + 1: distance 0, a false collision)
    t = np.array([[1e200], [3e200], [4e200]])
    assert dist.pairwise_distances(t)[0, 1] == 2e200
    assert dist.nearest_pairs(t, 2) == [(1, 2, 1e200), (0, 1, 2e200)]
    assert dist.min_distance(t) == 1e200
    assert dist.pairwise_distances([[1e8], [1e8 + 1], [1e8 + 3]]).tolist() == \
        [[0.0, 1.0, 3.0], [1.0, 0.0, 2.0], [3.0, 2.0, 0.0]]
    e = enc.encode(300, 8)           # the pages' tables: same pairs as a brute force
    brute = sorted((float(np.linalg.norm(e[a] - e[b])), a, b)
                   for a in range(300) for b in range(a + 1, 300))[:4]
    got = dist.nearest_pairs(e, 4)
    assert [d for _, _, d in got] == pytest.approx([d for d, _, _ in brute], rel=1e-12)
    a, b = np.array([(a, b) for a, b, _ in got]).T
    assert [d for _, _, d in got] == np.linalg.norm(e[a] - e[b], axis=1).tolist()


def test_convert_names_the_table_width():
    # H5: convert of a 5-column table said "d_model must be a positive even integer";
    # convert has no d_model argument
    with pytest.raises(ValueError, match=r"table.shape\[-1\] \(d_model\)"):
        lay.convert(np.zeros((3, 5)), "interleaved", "concatenated")


def test_ntk_base_overflow_is_named():
    # H6: ntk_base(8, 1e300) raised OverflowError (34, 'Numerical result out of range')
    with pytest.raises(ValueError, match="factor 1e"):
        scal.ntk_base(8, 1e300)
    with pytest.raises(ValueError, match="seq_len"):
        scal.dynamic_ntk_base(8, 4.0, 2048, 10**400)
    assert scal.dynamic_ntk_base(8, 4.0, 2048, 10**30) == pytest.approx(
        1e4 * (4.0 * 10**30 / 2048 - 3.0) ** (8 / 6))


def test_ints_past_64_bits_are_called_integers():
    # H7: [2**64] became an object array: "pos must hold integers or real floats, got an
    # array of dtype object", although it holds an integer
    for pos in ([2**64], [2**70, 1]):
        with pytest.raises(ValueError, match=r"pos holds integers beyond 2\*\*53"):
            enc.encode(pos, 4)
    with pytest.raises(TypeError, match="dtype object"):
        enc.encode([None], 4)


def test_checks_are_not_every_public_functions():
    # H8: "shared by every public function": distances, gram and even_width check their own
    # arguments (even_width refuses d_model=4.0 with ValueError, not the TypeError promised)
    # (p11h: distances now takes _checks' list check for positions, but its table check is its own)
    assert "_checks" not in inspect.getsource(var.even_width)
    assert "check_matrix" not in inspect.getsource(dist) and "def _table" in inspect.getsource(dist)
    with pytest.raises(ValueError):
        var.even_width(4.0)
    assert "most public functions" in flat(chk)


def test_marian_differs_by_up_to_2_to_the_minus_24_not_one_unit():
    # H9: "longer tables differ at rare entries by one float32 unit": at 8,192 x 512 an entry
    # near 1.3e-7 differs by 11 float32 units of its own; the absolute bound is 2**-24
    marian = pytest.importorskip("transformers.models.marian.modeling_marian")
    theirs = marian.MarianSinusoidalPositionalEmbedding(8192, 512).create_weight().numpy()
    ours = enc.encode(8192, 512, dtype="float32", layout="concatenated")
    units = np.abs(theirs.view(np.int32).astype(np.int64) - ours.view(np.int32).astype(np.int64))
    assert units.max() > 1 and np.abs(theirs - ours).max() <= 2.0**-24
    assert "by up to 2**-24 (chapter 12)" in flat(enc.encode)


def test_distances_names_every_chapter_that_uses_it():
    # H10: the list missed "What should a good encoding satisfy?" and "Why pair sine with
    # cosine?", whose blocks call nearest_pairs
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    doc = flat(dist)
    for page in sorted((root / "docs" / "chapters").glob("*.md")):
        text = page.read_text()
        if "nearest_pairs(" in text or "pairwise_distances" in text or "min_distance(" in text:
            title = text.splitlines()[0].lstrip("# ").strip()
            assert f'"{title}"' in doc, page.name


def test_nearest_pairs_positions_must_be_numbers():
    # H11: positions=[None, 1, 2] raised NumPy's "'<' not supported between instances of 'int'
    # and 'NoneType'"; strings were taken as positions
    for labels in ([None, 1, 2], ["b", "a", "c"]):
        with pytest.raises(TypeError, match="positions must hold real numbers"):
            dist.nearest_pairs([0.0, 1.0, 3.0], 2, positions=labels)


def test_table_chunks_are_the_16_bit_paths():
    # H12: "a chunk of rows at a time (CHUNK_ENTRIES entries ...); never the whole table in
    # float64": float32/float64 builds go through posenc.fast's tiles, and a float64 table is
    # the whole table in float64
    assert "16-bit tables: ``CHUNK_ENTRIES`` entries" in " ".join(tab.__doc__.split()) or \
        "16-bit tables: :data:`CHUNK_ENTRIES` entries" in " ".join(tab.__doc__.split())
    assert tab.build_table(3, 4, dtype=torch.float64).dtype == torch.float64
    import tracemalloc                      # float32: the output plus tiles, no float64 copy
    tracemalloc.start()
    tab.build_table(16384, 512, dtype=torch.float32, layout="concatenated")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    out = 16384 * 512 * 4
    assert peak < out + 16384 * 512 * 8 / 4 and 2 * tab.CHUNK_ENTRIES * 8 > peak - out
