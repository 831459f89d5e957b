"""Claims in the docstrings of posenc's build, distance, scaling, table and precision modules,
checked against references built without posenc (review-2026-12 p8h, passes 2 and 3)."""
import inspect
import re
import tracemalloc
from pathlib import Path

import mpmath
import numpy as np
import pytest
import torch

import posenc.distances as dist
import posenc.encoding as enc
import posenc.precision as prec
import posenc.scaling as scal
import posenc.torch_module.table as tab

ROOT = Path(__file__).resolve().parents[2]


def _direct(pos, d_model):
    """sin / cos of pos * omega in float64, interleaved, without posenc."""
    theta = np.multiply.outer(np.asarray(pos, dtype=np.float64),
                              10000.0 ** (-np.arange(0, d_model, 2) / d_model))
    out = np.empty((theta.shape[0], d_model))
    out[:, 0::2], out[:, 1::2] = np.sin(theta), np.cos(theta)
    return out


def test_table_path_is_chosen_per_request():
    # F1: the old text said a row depends only on its position; one fractional position
    # sends every row to the direct formula, and an integer row's last bit can change
    rows = [5, 12345, 99999]
    alone = enc.encode(rows, 64)
    mixed = enc.encode(rows + [0.5], 64)[:3]
    assert not np.array_equal(alone, mixed)
    assert np.array_equal(mixed, _direct(rows, 64))
    # within one path a row does not depend on the others
    p = np.arange(20000)
    full = enc.encode(p, 64, dtype="float32")
    assert np.array_equal(enc.encode([19999, 7, 12345], 64, dtype="float32"), full[[19999, 7, 12345]])
    assert "chosen per request" in " ".join(inspect.getdoc(enc.table_for).split())


def test_encode_takes_whole_floats_past_2_53():
    # F2: encode([1e17], 4) raised "positions must be integers within 2**53", naming no
    # argument of encode, although the docstring allows any finite real position
    pos = [1e17, -1e19, 2.0**53 + 2]
    got = enc.encode(pos, 4)
    assert np.array_equal(got, _direct(pos, 4))
    mpmath.mp.prec = 200
    assert got[0, 0] == pytest.approx(float(mpmath.sin(mpmath.mpf(1e17))), abs=1e-15)
    assert np.all(np.isfinite(enc.encode(pos, 4, dtype="float32")))


def test_nearest_pairs_orders_by_the_given_positions():
    # F3: with positions not increasing the old code gave (10, 5, 1.0): pos_a > pos_b
    assert dist.nearest_pairs([0.0, 1.0, 2.0], count=2, positions=[10, 5, 0]) == [
        (0, 5, 1.0), (5, 10, 1.0)]
    # ties broken by position, not by row
    assert dist.nearest_pairs([0.0, 1.0, 0.0, 1.0], count=2, positions=[3, 2, 1, 0]) == [
        (0, 2, 0.0), (1, 3, 0.0)]


SHARE = ["posenc/encoding.py", "posenc/rotation.py", "posenc/distances.py", "posenc/layouts.py",
         "posenc/variants.py", "posenc/omega_forms.py", "posenc/scaling/__init__.py",
         *(f"posenc/scaling/{m}.py" for m in ("interpolation", "ntk", "yarn", "longrope",
                                              "llama3", "dynamic_ntk", "xpos")),
         "posenc/torch_module/table.py", "posenc/relative.py", "posenc/precision.py",
         "posenc/fit.py"]


def _titles():
    """Each chapter file's H1 and its nav title in mkdocs.yml."""
    titles = {}
    for page in (ROOT / "docs" / "chapters").glob("*.md"):
        titles[page.name] = {re.search(r"^# (.+)$", page.read_text(), re.M).group(1)}
    for m in re.finditer(r"- \d+b?\. (.+): chapters/(\S+\.md)", (ROOT / "mkdocs.yml").read_text()):
        titles[m.group(2)].add(m.group(1))
    return titles


OTHERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "posenc").rglob("*.py")
                if "lab" not in p.parts)      # posenc/lab quotes questions that are not titles


@pytest.mark.parametrize("module", OTHERS)
def test_chapter_pointers_quote_the_chapter_title(module):
    # F4: relative.py pointed to "Positions in a running model" and "What came next?", and
    # variants.py to "Variants you will meet in real code"; no chapter has those titles (also
    # attention_terms.py and three figure modules: "What happens inside attention?")
    titles = _titles()
    every = set().union(*titles.values())
    text = (ROOT / module).read_text()
    quoted = re.findall(r'"([^"]*\?)"(\s*\(docs/chapters/([\w.-]+\.md)\))?', text)   # titles ask
    assert quoted or module not in SHARE, module
    for title, _, page in quoted:
        assert " ".join(title.split()) in (titles[page] if page else every), (module, title)


def test_xpos_counterpart_numbers_rows_from_the_middle():
    # F5: torchscale's XPOS.forward (microsoft/torchscale, component/xpos_relative_position.py,
    # the one its MultiheadAttention imports) raises its scale buffer to arange(min_pos,
    # max_pos) / B with min_pos = -(length + offset) // 2, for queries and keys alike;
    # re-derived here from that formula, not from its code
    d, big_b = 8, 512.0
    zeta = (np.arange(0, d, 2) + 0.4 * d) / (1.4 * d)
    length = 9
    min_pos = -length // 2
    theirs = zeta ** (np.arange(min_pos, min_pos + length)[:, None] / big_b)   # queries
    ours = scal.xpos_scales(length, d)
    ratio = theirs / ours
    assert np.allclose(ratio, zeta ** (min_pos / big_b), rtol=1e-13)
    assert not np.allclose(ratio, 1.0)
    keys_theirs, keys_ours = 1 / theirs, scal.xpos_scales(length, d, key=True)
    n, m = 7, 2
    assert np.allclose(theirs[n] * keys_theirs[m], ours[n] * keys_ours[m], rtol=1e-13)
    assert "min_pos" in inspect.getdoc(scal.xpos_scales)


def test_a_16_bit_table_never_exists_whole_in_float64():
    # F6: the old text said the output's bytes plus one chunk; at its peak NumPy holds 2.1 to
    # 3.0 chunks beyond the output (the chunk, its float32 copy, the tie masks; d_model 64 to
    # 8192), 3.5 at d_model 32768, more where one chunk is 64 wide rows or the int64 positions
    # outweigh narrow rows (d_model 2: 7.3); the text now claims only what holds for all
    chunk = tab.CHUNK_ENTRIES * 8
    tracemalloc.start()
    tab.build_table(65536, 512, dtype=torch.float16)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert 2 * chunk < peak < 65536 * 512 * 8 / 4          # not one chunk; far below float64
    assert "plus one chunk" not in " ".join(inspect.getdoc(tab).split())
    # p10h H12: a float64 table is the whole table in float64; the claim is "no float64 copy"
    assert "not a float64 copy of it" in " ".join(inspect.getdoc(tab).split())


def test_table_dtypes_are_the_four_float_types():
    # F7: "any floating dtype": float8 reached ties() and failed naming only the 16-bit types
    from posenc.torch_module.checks import FLOAT_DTYPES
    assert set(FLOAT_DTYPES) == {torch.float16, torch.bfloat16, torch.float32, torch.float64}
    for dtype in FLOAT_DTYPES:
        assert tab.build_table(3, 4, dtype=dtype).dtype == dtype


def test_float64_stored_as_bfloat16_is_rounded_twice_as_torch_does():
    # F8: the old text said "the float64 table rounded once"; the method rounds through float32
    pos = np.arange(4096)
    exact = _direct(pos, 512)
    got = prec.build("float64, stored as bfloat16", pos, 512)
    assert np.array_equal(got, torch.from_numpy(exact).to(torch.bfloat16).double().numpy())
    value = exact[45, 111]                    # 0.99804686831...: rounds to 0.99609375 once
    assert abs(value - 0.99609375) < abs(value - 1.0)
    assert got[45, 111] == 1.0
    assert float(prec.to_bfloat16([1.0 + 2.0**-8 + 2.0**-40])[0]) == 1.0   # nearest: 1.0078125
    # float16 is rounded once (NumPy), unlike PyTorch's float64 -> float16 cast
    got16 = prec.build("float64, stored as float16", pos, 512)
    assert np.array_equal(got16, exact.astype(np.float16).astype(np.float64))
    assert not np.array_equal(got16, torch.from_numpy(exact).to(torch.float16).double().numpy())
    once = "the float64 table rounded once;"
    assert once not in " ".join(inspect.getdoc(prec.build).split())


def test_sample_positions_takes_numpy_integers():
    # F9: np.int64 arguments got TypeError "must be integers"
    assert np.array_equal(prec.sample_positions(np.int64(1), np.int32(3), np.int64(4)),
                          prec.sample_positions(1, 3, 4))
    with pytest.raises(TypeError, match="must be integers"):
        prec.sample_positions(1.0, 3)


def test_transformers_float32_tables_are_equal_at_1024_rows_only():
    # F10: the encode docstring said DistilBERT's and Marian's tables are equal to the float32
    # table, unscoped; pass 1 checked 1,024 rows (tests/package/test_docstring_claims.py). At 4,096 rows
    # 3 entries of each differ by one float32 unit
    transformers = pytest.importorskip("transformers")
    distil = transformers.models.distilbert.modeling_distilbert
    marian = transformers.models.marian.modeling_marian
    out = torch.empty(4096, 512)
    distil.create_sinusoidal_embeddings(4096, 512, out)
    ours = enc.encode(4096, 512, dtype="float32")
    assert 0 < int((out.numpy() != ours).sum()) <= 8
    assert np.abs(out.numpy() - ours).max() <= 2.0**-24
    table = marian.MarianSinusoidalPositionalEmbedding(4096, 512).create_weight().numpy()
    ours = enc.encode(4096, 512, dtype="float32", layout="concatenated")
    assert 0 < int((table != ours).sum()) <= 8
    assert "equal to this float32 table at 1,024 rows" in " ".join(inspect.getdoc(enc.encode).split())
