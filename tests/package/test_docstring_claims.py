"""Claims in the docstrings of posenc.encoding, checked against references built without posenc
(review-2026-12 rapi pass 1)."""
import inspect

import mpmath
import numpy as np
import pytest

import posenc.encoding as enc


def _exact_sin(pos, omega):
    mpmath.mp.prec = 200
    return mpmath.sin(mpmath.mpf(float(pos)) * mpmath.mpf(float(omega)))


def test_float32_bound_needs_its_slack_and_range():
    # d_model 64, pair 3, position 95001: the entry is about 3.6e-6, where a float32 unit is
    # 2.3e-13, and the float64 angle (about 4e4) is itself rounded by up to 3.6e-12.
    d, pos, col = 64, 95001, 6
    omega = 10000.0 ** (-2.0 * (col // 2) / d)
    exact = _exact_sin(pos, omega)
    got = enc.encode([pos], d, dtype="float32")[0, col]
    half_unit = float(np.spacing(np.abs(got))) / 2
    err = float(abs(mpmath.mpf(float(got)) - exact))
    assert err > half_unit                      # half a unit alone does not hold
    assert err <= half_unit + 1e-10             # within: half a unit plus about 1e-10
    for doc in (inspect.getdoc(enc), inspect.getdoc(enc.encode)):
        flat = " ".join(doc.split())
        assert "half a float32 unit plus about 1e-10" in flat
        assert "one million" in flat
        assert "in the last place of the exact value" not in flat


def test_encode_equals_transformers_float32_tables_exactly():
    # the encode docstring says DistilBERT's and Marian's tables are *equal* to the float32
    # table; tests/package/test_conformance.py allows half a unit, this checks equality bit for bit.
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    distil = transformers.models.distilbert.modeling_distilbert
    marian = transformers.models.marian.modeling_marian
    out = torch.empty(1024, 768)
    distil.create_sinusoidal_embeddings(1024, 768, out)
    assert np.array_equal(out.numpy(), enc.encode(1024, 768, dtype="float32"))
    table = marian.MarianSinusoidalPositionalEmbedding(1024, 512).create_weight().numpy()
    assert np.array_equal(table, enc.encode(1024, 512, dtype="float32", layout="concatenated"))


def test_t2t_slowest_frequency_is_one_over_base_only_up_to_rounding():
    # the posenc.variants docstring said tensor2tensor's spacing ends at "exactly 1 / base";
    # in float64 exp(-ln(10000)) is 9.999999999999991e-05, about 7 units from 1e-4.
    import posenc.variants as var
    for d in (4, 8, 64, 512):
        last = float(np.exp(-np.log(10000.0) * (d // 2 - 1) / (d // 2 - 1)))
        assert last != 1e-4 and abs(last * 1e4 - 1) < 2e-15
        assert float(var.frequencies(d, spacing="t2t")[-1]) == last
    flat = " ".join(inspect.getdoc(var).split())
    assert "exactly ``1 / base``" not in flat and "up to float64 rounding" in flat
