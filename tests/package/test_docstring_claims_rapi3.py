"""Claims in the docstrings of posenc.precision, posenc.relative and posenc.candidates, checked
against references built without posenc (review-2026-12 rapi3 pass 1)."""
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import posenc.candidates as cand
import posenc.precision as prec
import posenc.relative as rel

ROOT = Path(__file__).resolve().parents[2]


def flat(doc: str) -> str:
    return " ".join(doc.split())


def test_digit_columns_past_int64_hold_zeros():
    # the place values 10**19 and 2**63 overflow int64; the old code put 9 and 1 there
    assert cand.decimal_digits([5], n_digits=22)[0].tolist() == [5.0] + [0.0] * 21
    assert cand.binary_bits([5], n_bits=66)[0].tolist() == [1.0, 0.0, 1.0] + [0.0] * 63
    top = cand.binary_bits([2.0**53], n_bits=70)[0]
    assert top[53] == 1.0 and top.sum() == 1.0
    digits = cand.decimal_digits([2.0**53], n_digits=20)[0][::-1]
    assert int("".join(str(int(v)) for v in digits)) == 2**53


def test_candidates_check_length_rather_than_ignore_it():
    with pytest.raises(ValueError, match="length must exceed every position"):
        cand.raw_index([5], length=3)
    with pytest.raises(ValueError, match="length must exceed every position"):
        cand.decimal_digits([5], length=3)
    assert "only check it" in flat(inspect.getdoc(cand))


def test_build_overflow_gives_nan_never_inf():
    for method in prec.METHODS:
        got = prec.build(method, [0, 70000, 10**6], 8)
        assert not np.isinf(got).any(), method
    assert np.isnan(prec.build("built in float16", [70000], 8)).all()
    doc = flat(inspect.getdoc(prec.build))
    assert "float64; ``nan`` where the method overflows" in doc and "``inf``" not in doc


def test_rotate_takes_odd_width_with_rotary_dim():
    out = rel.rotate([[1.0, 0.0, 5.0]], [1], rotary_dim=2)
    assert out.shape == (1, 3) and out[0, 2] == 5.0
    with pytest.raises(ValueError, match="even, positive number of columns"):
        rel.rotate([[1.0, 0.0, 5.0]], [1])
    assert "``d`` even unless ``rotary_dim`` is given" in flat(inspect.getdoc(rel.rotate))


def test_alibi_docstring_counts_the_head_counts_the_test_checks():
    text = (ROOT / "tests" / "package" / "test_conformance.py").read_text()
    heads = eval(re.search(r"^ALIBI_HEADS = (\(.*?\))$", text, re.M).group(1))
    doc = flat(inspect.getdoc(rel.alibi_slopes))
    m = re.search(r"checked for (\d+) head counts from (\d+) to (\d+)", doc)
    assert m and int(m.group(1)) == len(heads)
    assert (int(m.group(2)), int(m.group(3))) == (min(heads), max(heads))
    assert len(heads) < max(heads)                # not every count from 1 to 112


def _cpu_has_x86_v3() -> bool:
    runtime = np.__config__.CONFIG.get("SIMD Extensions", {}) if hasattr(np.__config__, "CONFIG") else {}
    return "X86_V3" in runtime.get("found", [])


PROBE = """
import hashlib, numpy as np, posenc
from posenc import precision
pos = np.arange(0, 60000, 7)
print(hashlib.md5(posenc.encode(pos, 128).tobytes()).hexdigest())
print(hashlib.md5(b"".join(precision.build(m, pos, 128).tobytes() for m in precision.METHODS)).hexdigest())
"""


def test_float64_table_bits_vary_between_cpus_but_rounded_methods_agree_here():
    # the module docstring: the methods that round encode's float64 table inherit its
    # last-bit differences between CPUs; a machine with X86_V3 can play one without it
    if sys.platform != "linux" or not _cpu_has_x86_v3():
        pytest.skip("needs an x86-64 CPU with X86_V3 to play one without it")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = []
    for disable in ("", "X86_V3"):
        env["NPY_DISABLE_CPU_FEATURES"] = disable
        out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                             text=True, check=True).stdout.split()
        runs.append(out)
    assert runs[0][0] != runs[1][0]          # float64 table: bits differ
    assert runs[0][1] == runs[1][1]          # the six rounded methods: same bits here
    doc = flat(inspect.getdoc(prec))
    assert "inherit its last-bit differences between CPUs" in doc
    assert "Every method in :data:`METHODS` gives the same bits" not in doc


def test_bound_is_the_toy_embedding_spread_not_any_embedding():
    import posenc.properties as props
    from posenc.attention import embed
    assert props.BOUND == 1.0
    spread = float(embed([f"w{i}" for i in range(50)], 64).std())
    assert 0.9 < spread < 1.1                     # chapter 4's toy entries: spread about 1
    source = (ROOT / "posenc" / "properties.py").read_text()
    assert "about the spread of chapter 4's toy embedding entries" in source
    # Hugging Face initialises token embeddings with std 0.02 (BERT, GPT-2), not 1
    transformers = pytest.importorskip("transformers")
    assert transformers.BertConfig().initializer_range == 0.02


def test_first_increase_refuses_nan():
    import posenc.similarity as sim
    with pytest.raises(ValueError, match="values must be finite"):
        sim.first_increase([1.0, float("nan"), 2.0])      # the old code returned None
    with pytest.raises(ValueError, match="values must be finite"):
        sim.first_dip([1.0, float("nan"), 2.0])


def test_cosine_similarity_names_its_arguments_when_rows_differ():
    import posenc.similarity as sim
    with pytest.raises(ValueError, match="a and b must have the same number of rows"):
        sim.cosine_similarity(np.ones((2, 3)), np.ones((3, 3)))
    assert sim.cosine_similarity(np.ones((2, 3)), np.ones((1, 3))).shape == (2,)
