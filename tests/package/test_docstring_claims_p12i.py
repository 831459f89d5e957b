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
    conformance = open("tests/package/test_conformance.py").read()
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


# --- Sentences whose flip (no/still, same/different, first/last, ...) passed every test before this
# pass (review-2026-12 p12i, session 12 flip rule): each is bound here to the phrase and to a
# computation without posenc that the flipped phrase contradicts.

def doc_of(obj) -> str:
    return flat(inspect.getdoc(obj))


def test_longrope_switch_sentences_bound():
    doc = doc_of(scal.longrope_uses_long)
    assert "``True`` when ``seq_len`` positions no longer fit the trained length" in doc
    assert not scal.longrope_uses_long(4096, 4096) and scal.longrope_uses_long(4097, 4096)
    doc = doc_of(scal.longrope_frequencies)
    assert "and ``short_factor`` otherwise (also when ``seq_len`` is ``None``" in doc
    short, long_ = [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]
    base = omega(8)
    for seq_len, lam in [(None, short), (1, short), (4096, short), (4097, long_)]:
        got = scal.longrope_frequencies(8, short, long_, 4096, seq_len=seq_len)
        assert np.allclose(got, base / np.array(lam), rtol=1e-14)


def test_longrope_attention_factor_is_the_same_on_both_sides_of_the_switch():
    doc = doc_of(scal.longrope_attention_factor)
    assert "The same factor is used on both sides of the switch" in doc
    # transformers 5.24.0: longrope_frequency_update swaps inv_freq only, attention_scaling stays
    src = inspect.getsource(__import__("transformers.modeling_rope_utils",
                                       fromlist=["dynamic_rope_update"]).dynamic_rope_update)
    update = src[src.index("def longrope_frequency_update"):src.index("def dynamic_frequency_update")]
    assert "inv_freq" in update and "attention_scaling" not in update
    sig = inspect.signature(scal.longrope_attention_factor)
    assert "seq_len" not in sig.parameters


def test_xpos_sentences_bound():
    doc = doc_of(scal.xpos_zeta)
    assert "Fast pairs decay most (``zeta_0 = gamma / (1 + gamma)``)" in doc
    zeta = (np.arange(0, 64, 2) + 0.4 * 64) / (1.4 * 64)           # own, torchscale's buffer
    assert np.allclose(scal.xpos_zeta(64), zeta) and np.all(np.diff(zeta) > 0)
    doc = doc_of(scal.xpos_scales)
    assert "so its scores equal these" in doc
    d, length, off, B = 16, 9, 4, 512.0
    zeta = (np.arange(0, d, 2) + 0.4 * d) / (1.4 * d)
    min_pos = -(length + off) // 2                                  # torchscale's numbering
    rows = np.arange(min_pos, length + off + min_pos)[-length:]
    q_ts = zeta ** (rows[:, None] / B)
    k_all = np.arange(min_pos, length + off + min_pos)
    k_ts = zeta ** (-k_all[:, None] / B)
    theirs = q_ts[:, None, :] * k_ts[None, :, :]
    q = scal.xpos_scales(np.arange(off, off + length), d)
    k = scal.xpos_scales(length + off, d, key=True)
    assert np.allclose(q[:, None, :] * k[None, :, :], theirs, rtol=1e-12)
    assert not np.allclose(q, q_ts)                                 # factors differ, scores agree


def test_dynamic_ntk_has_no_memory():
    assert "this function has no such memory: it depends on ``seq_len`` alone" in \
        doc_of(scal.dynamic_ntk_base)
    first = scal.dynamic_ntk_base(64, 2.0, 4096, 5000)
    scal.dynamic_ntk_base(64, 2.0, 4096, 20000)                     # a longer sequence between
    assert scal.dynamic_ntk_base(64, 2.0, 4096, 5000) == first
    own = 10000.0 * (2.0 * 5000 / 4096 - 1.0) ** (64 / 62)
    assert math.isclose(first, own, rel_tol=1e-14)


def test_transformers_ignores_mscale_when_mscale_all_dim_is_missing():
    assert "which ignores ``mscale`` when ``mscale_all_dim`` is missing, posenc refuses one " \
        "without the other" in doc_of(scal.yarn_attention_factor)
    import transformers
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    cfg = transformers.LlamaConfig(num_attention_heads=1, num_key_value_heads=1, num_hidden_layers=1,
                                   vocab_size=8, hidden_size=16, head_dim=16, intermediate_size=8,
                                   max_position_embeddings=16384,
                                   rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0,
                                                    "factor": 4.0, "mscale": 0.5,
                                                    "original_max_position_embeddings": 4096})
    _, att = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    assert math.isclose(att, 0.1 * math.log(4.0) + 1.0, rel_tol=1e-15)   # mscale 0.5 ignored
    with pytest.raises(ValueError, match="mscale_all_dim is missing"):
        scal.yarn_attention_factor(4.0, mscale=0.5)


def test_ntk_fastest_pair_keeps_omega_0():
    assert "Chosen so that the fastest pair keeps ``omega_0 = 1``" in doc_of(scal.ntk_base)
    for d in (4, 64, 128):
        f = scal.ntk_frequencies(d, 8.0)
        assert f[0] == 1.0 and math.isclose(omega(d)[-1] / f[-1], 8.0, rel_tol=1e-12)


def test_alibi_slopes_list_is_not_sorted():
    doc = doc_of(rel.alibi_slopes)
    assert "so the list is not sorted" in doc
    for n in (3, 5, 6, 12, 24, 40):
        p = 1 << (n.bit_length() - 1)
        own = [2 ** (-8 * h / p) for h in range(1, p + 1)] + \
              [2 ** (-8 * h / (2 * p)) for h in range(1, 2 * (n - p), 2)]
        assert np.allclose(rel.alibi_slopes(n), own) and own != sorted(own, reverse=True)
        assert max(own) == own[p] == 2 ** (-4 / p)


def test_alibi_bias_same_softmax_as_bloom():
    assert "gives the same softmax" in doc_of(rel.alibi_bias)
    n, slope = 7, 0.375
    bloom = np.where(np.tril(np.ones((n, n), bool)), slope * np.arange(n)[None, :], -np.inf)

    def softmax(a):
        e = np.exp(a - a.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)
    assert np.allclose(softmax(rel.alibi_bias(n, slope)), softmax(bloom), rtol=1e-14, atol=0)


def test_partial_rotary_moves_the_first_columns_and_rows():
    assert "rotate only the first ``rotary_dim`` columns" in doc_of(rel.rotate)
    x = np.arange(1.0, 7.0)[None, :]
    out = rel.rotate(x, [3], rotary_dim=2)
    t = 3.0                                                         # omega_0 = 1
    assert np.allclose(out[0, :2], [np.cos(t) - 2 * np.sin(t), np.sin(t) + 2 * np.cos(t)])
    assert np.array_equal(out[0, 2:], x[0, 2:])
    assert "only each head's first ``rotary_dim`` rows move" in doc_of(rel.rope_permutation)
    perm = rel.rope_permutation(2, 6, rotary_dim=4)
    assert perm.tolist() == [0, 2, 1, 3, 4, 5, 6, 8, 7, 9, 10, 11]
