"""Docstrings of posenc.scaling (the package) and posenc.relative, checked against references
built without posenc (review-2026-12 p12i: scaling pass 6, relative pass 7)."""
import inspect
import math
import re

import numpy as np
import pytest

import posenc.relative as rel
import posenc.scaling as scal
from posenc.scaling import xpos as xpos_module


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def omega(d, base=10000.0):
    return np.array([base ** (-2.0 * i / d) for i in range(d // 2)])


def test_module_names_every_method_that_also_scales_the_rotated_vectors():
    # "changes only the frequencies (or, for xPos, scales ...)": YaRN and LongRoPE scale too
    assert scal.yarn_attention_factor(4.0) > 1.0 and scal.longrope_attention_factor(4.0, 4096) > 1.0
    doc = flat(scal.__doc__)
    sentence = doc[doc.index("Each method below"):doc.index("``factor`` is")]
    assert "only" not in sentence
    for name in ("xPos", "YaRN", "LongRoPE"):
        assert name in sentence, name


def test_yarn_code_ramp_is_linear_in_the_pair_index_not_in_turns():
    d, length = 64, 4096
    code = scal.yarn_ramp(d, length, truncate=False)
    inside = np.flatnonzero((code > 0) & (code < 1))
    assert inside.size >= 3 and np.allclose(np.diff(code[inside], 2), 0.0, atol=1e-12)
    turns = length * omega(d) / (2 * np.pi)                      # own: r_i = L / lambda_i
    paper = np.clip((turns - 1.0) / 31.0, 0.0, 1.0)
    assert np.array_equal(scal.yarn_ramp(d, length, ramp="paper"), paper)
    assert np.abs(paper - code).max() > 0.2                      # the two ramps are not one
    doc = flat(scal.__doc__)
    assert "in the pair index in the released code" in doc
    assert "linear in the number of turns in the paper" in doc


def test_yarn_frequencies_names_no_counterpart_the_tests_do_not_run():
    doc = flat(inspect.getdoc(scal.yarn_frequencies))
    assert "LlamaYaRNScaledRotaryEmbedding" not in doc
    conformance = open("tests/test_conformance.py").read()
    assert "LlamaYaRNScaledRotaryEmbedding" not in conformance


def test_dynamic_ntk_overflow_names_the_factor():
    # seq_len = L + 1 is one token past the trained length; the factor 1e300 is the cause
    with pytest.raises(ValueError, match=r"factor 1e\+300 at seq_len 4097"):
        scal.dynamic_ntk_base(8, 1e300, 4096, 4097)
    with pytest.raises(ValueError, match=r"factor 2 at this seq_len"):
        scal.dynamic_ntk_base(8, 2.0, 4096, 10**300)


@pytest.mark.parametrize("key", [1, 0, "no", None, 1.0])
def test_xpos_scales_key_must_be_a_bool(key):
    with pytest.raises(TypeError, match="key must be True or False"):
        scal.xpos_scales(3, 8, key=key)


def test_xpos_scales_numpy_bool_key_taken():
    assert np.array_equal(scal.xpos_scales([5], 8, key=np.True_), scal.xpos_scales([5], 8, key=True))


def test_xpos_score_factor_holds_up_to_the_stated_position_and_is_refused_past_it():
    doc = flat(inspect.getdoc(scal.xpos_scales))
    stated = int(re.search(r"\(([\d,]+) at the defaults\)", doc).group(1).replace(",", ""))
    zeta0 = 0.4 / 1.4                                            # own zeta_0 = gamma / (1 + gamma)
    assert stated == math.floor(708 * 512 / math.log(1 / zeta0))
    for n, m in [(stated, stated), (stated, stated - 1000), (-stated, 0)]:
        q = scal.xpos_scales([n], 128)
        k = scal.xpos_scales([m], 128, key=True)
        zeta = (np.arange(0, 128, 2) + 0.4 * 128) / (1.4 * 128)  # torchscale's buffer, float64
        assert np.allclose(q * k, zeta ** ((n - m) / 512), rtol=1e-9, atol=0)
    # one past: the old code gave a key factor of inf and q * k = inf or nan
    for p in ([stated + 1], [-(stated + 1)], [1e6]):
        with pytest.raises(ValueError, match="pos reaches"):
            scal.xpos_scales(p, 128, key=True)
    assert xpos_module.xpos_scales is scal.xpos_scales


def test_alibi_bias_counterpart_sentence_is_scoped_to_the_causal_bias():
    n, slope = 6, 0.25
    bloom = slope * np.arange(n)[None, :] * np.ones((n, 1))      # slope * j
    causal = rel.alibi_bias(n, slope)
    lower = np.tril(np.ones((n, n), bool))
    diff = np.where(lower, causal - bloom, np.nan)
    assert np.allclose(diff, -slope * np.arange(n)[:, None] + 0 * diff, equal_nan=True)
    both = rel.alibi_bias(n, slope, causal=False) - bloom
    assert np.ptp(both, axis=1).max() > 1.0                       # not a row constant
    doc = flat(inspect.getdoc(rel.alibi_bias))
    assert "differs from the causal bias by ``slope * i``" in doc
