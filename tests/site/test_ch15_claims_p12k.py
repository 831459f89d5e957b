"""Chapter 15 sentences whose word flip (after/before, earlier/later, same/different, first/last,
not, no, both, fast/slow, early/late, alpha/beta) passed every check that reads prose (review
review-2026-12 p12k pass 5). Each test pins the sentence's phrase and computes what makes it true
with NumPy (and the pinned ``transformers`` where the sentence is about it), without ``posenc``;
each failed on the page with the flipped word."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from harness.says import flat

PAGE = Path(__file__).resolve().parents[2] / "docs" / "chapters" / "15-what-came-next.md"


def text() -> str:
    return flat(PAGE)


def freqs(d, base=10000.0):
    return base ** (-np.arange(0, d, 2) / d)


def rot_adjacent(x, m, base=10000.0):
    """Pairs (2i, 2i+1) of each row turned by m * omega_i."""
    x = np.asarray(x, float)
    a = m * freqs(x.shape[-1], base)
    c, s = np.cos(a), np.sin(a)
    out = x.copy()
    out[..., 0::2] = x[..., 0::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., 0::2] * s + x[..., 1::2] * c
    return out


def rot_half(x, m, base=10000.0):
    """Pairs (i, i + d/2) turned by m * omega_i (the rotate-half convention)."""
    x = np.asarray(x, float)
    h = x.shape[-1] // 2
    a = m * freqs(x.shape[-1], base)
    c, s = np.cos(a), np.sin(a)
    return np.concatenate([x[..., :h] * c - x[..., h:] * s, x[..., :h] * s + x[..., h:] * c], -1)


PERM = np.concatenate([np.arange(0, 8, 2), np.arange(1, 8, 2)])   # interleaved -> concatenated


def test_rotation_after_the_projections_keeps_the_offset_before_does_not():
    assert "applies the rotation *after* the projections" in text()
    rng = np.random.default_rng(5)
    x, y = rng.normal(size=(2, 8))
    wq, wk = rng.normal(size=(2, 8, 8))
    after = [rot_adjacent(x @ wq, m) @ rot_adjacent(y @ wk, m + 3) for m in (2, 900)]
    before = [(rot_adjacent(x, m) @ wq) @ (rot_adjacent(y, m + 3) @ wk) for m in (2, 900)]
    assert math.isclose(after[0], after[1], rel_tol=1e-9)
    assert not math.isclose(before[0], before[1], rel_tol=1e-3)


def test_added_encodings_dot_is_blind_to_the_sign_of_the_offset():
    assert "but was blind to its sign" in text()
    pe = lambda p: np.stack([np.sin(p * freqs(8)), np.cos(p * freqs(8))], -1).ravel()
    assert math.isclose(pe(2) @ pe(5), pe(5) @ pe(2), rel_tol=1e-15)


def test_rotate_half_is_the_same_rotation_of_a_permuted_vector_and_either_trains():
    t = text()
    assert "it is the same rotation applied to a permuted vector" in t
    assert "In a model trained from scratch either choice works" in t
    assert "pairings differ by a fixed permutation" in t
    x = np.random.default_rng(6).normal(size=(3, 8))
    assert np.allclose(rot_half(x[:, PERM], 7), rot_adjacent(x, 7)[:, PERM])
    assert not np.allclose(rot_half(x, 7), rot_adjacent(x, 7))
    # W_Q absorbs the permutation: rotate-half on x W_Q P scores as adjacent on x W_Q
    rng = np.random.default_rng(7)
    wq, wk = rng.normal(size=(2, 8, 8))
    a = rot_half((x[0] @ wq)[PERM], 3) @ rot_half((x[1] @ wk)[PERM], 9)
    b = rot_adjacent(x[0] @ wq, 3) @ rot_adjacent(x[1] @ wk, 9)
    assert math.isclose(a, b, rel_tol=1e-12)


def test_alibi_penalises_earlier_keys_with_slopes_fixed_before_training():
    t = text()
    assert "to the score of query \\(i\\) against an earlier key \\(j\\)" in t
    assert "with slopes fixed before training" in t
    # Press et al.'s slopes are a fixed geometric sequence: 2^(-8k/n) for k = 1..n
    assert [2 ** (-8 * k / 8) for k in range(1, 9)] == [1 / 2 ** k for k in range(1, 9)]


def test_the_first_key_is_n_minus_1_back():
    assert "With \\(n = 2048\\) keys the first is \\(n - 1\\) positions back" in text()
    n = 2048
    assert (n - 1) - 0 == 2047 and (n - 1) - (n - 1) == 0   # query n-1: first key, last key


def test_one_rotation_at_offset_0_keeps_the_dot_product():
    assert "both vectors are turned by the same rotation \\(R_m\\)" in text()
    a, b = np.random.default_rng(8).normal(size=(2, 8))
    assert math.isclose(rot_adjacent(a, 70) @ rot_adjacent(b, 70), a @ b, rel_tol=1e-12)
    assert not math.isclose(rot_adjacent(a, 70) @ rot_adjacent(b, 71), a @ b, rel_tol=1e-3)


def test_raising_the_base_slows_every_pair_but_the_first():
    t = text()
    assert "Raising the base slows every pair but the first" in t
    assert "and the same number at the lengths outside that range" in t
    low, high = freqs(128), freqs(128, 500000.0)
    assert high[0] == low[0] and np.all(high[1:] < low[1:])
    lam_low, lam_high = 2 * np.pi / low, 2 * np.pi / high
    for length in (1, 8, 3 * 10 ** 6):                   # outside 9 .. 2.56 million
        assert (lam_low <= length).sum() == (lam_high <= length).sum()


def test_ntk_stretches_the_middle_pairs_by_intermediate_factors():
    assert "with the pairs between stretched by intermediate factors" in text()
    d, s = 128, 4.0
    stretch = freqs(d) / freqs(d, 10000.0 * s ** (d / (d - 2)))
    assert np.all((stretch[1:-1] > 1) & (stretch[1:-1] < s))
    assert len(set(np.round(stretch[1:-1], 9))) == d // 2 - 2


def paper_ramp(d, length, base, alpha, beta):
    r = length / (2 * np.pi / freqs(d, base))
    return np.clip((r - alpha) / (beta - alpha), 0, 1)


def code_ramp(d, length, base, alpha, beta):
    dim = lambda n: d * math.log(length / (n * 2 * math.pi)) / (2 * math.log(base))
    lo, hi = math.floor(dim(beta)), math.ceil(dim(alpha))
    return 1 - np.clip((np.arange(d // 2) - lo) / (hi - lo), 0, 1)


def test_yarn_keeps_above_beta_divides_below_alpha_and_the_papers_ramp_falls_early():
    t = text()
    assert ("more than \\(\\beta\\) turns, keep the frequency; fewer than \\(\\alpha\\), "
            "divide it by \\(s\\)") in t
    assert "the paper's ramp bends towards 0 early" in t
    assert "linear in the pair index, not the paper's ramp in turns" in t
    r = 4096 / (2 * np.pi / freqs(128))
    paper, code = paper_ramp(128, 4096, 1e4, 1.0, 32.0), code_ramp(128, 4096, 1e4, 1.0, 32.0)
    assert np.all(paper[r > 32] == 1) and np.all(paper[r < 1] == 0)
    assert np.all(code[r > 32] == 1) and np.all(code[r < 1] == 0)
    middle = (code > 0) & (code < 1)
    assert paper[34] < 0.5 * code[34]                     # early towards 0
    assert np.ptp(np.diff(code[middle])) < 1e-12          # equal steps in i
    assert np.ptp(np.diff(paper[middle])) > 0.01          # not in i


def test_transformers_runs_the_code_ramp_not_the_papers():
    transformers = pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    assert "and `ramp=\"paper\"` does not" in text()
    cfg = transformers.LlamaConfig(
        num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=1, vocab_size=32,
        hidden_size=256, max_position_embeddings=16384,
        rope_parameters=dict(rope_type="yarn", factor=4.0, original_max_position_embeddings=4096,
                             rope_theta=10000.0))
    inv, _ = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    inv = inv.numpy().astype(float)
    om = freqs(128)
    for ramp, far in ((code_ramp, False), (paper_ramp, True)):
        g = ramp(128, 4096, 1e4, 1.0, 32.0)
        ours = om * g + om / 4 * (1 - g)
        assert bool(np.max(np.abs(ours - inv) / inv) > 0.4) is far


def test_llama3_has_no_attention_factor():
    transformers = pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    assert "(the config's `low_freq_factor` and `high_freq_factor`), and no attention factor" in text()
    cfg = transformers.LlamaConfig(
        num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=1, vocab_size=32,
        hidden_size=256, max_position_embeddings=131072, rope_parameters=dict(
            rope_type="llama3", factor=8.0, original_max_position_embeddings=8192,
            low_freq_factor=1.0, high_freq_factor=4.0, rope_theta=500000.0))
    _, attention = ROPE_INIT_FUNCTIONS["llama3"](cfg, "cpu")
    assert attention == 1.0


def test_a_sequence_as_long_as_the_training_length_does_not_reset_dynamic_ntk():
    transformers = pytest.importorskip("transformers")
    import torch
    assert "(one as long as the training length does not)" in text()
    cfg = transformers.LlamaConfig(
        num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=1, vocab_size=32,
        hidden_size=256, max_position_embeddings=4096,
        rope_parameters=dict(rope_type="dynamic", factor=2.0, rope_theta=10000.0))
    module = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)
    x = torch.zeros(1, 1, 128)
    module(x, torch.arange(8192)[None])
    long_ = module.inv_freq.clone()
    module(x, torch.arange(4096)[None])                   # as long as the training length
    assert torch.equal(module.inv_freq, long_)
    module(x, torch.arange(4095)[None])                   # shorter: reset
    assert not torch.equal(module.inv_freq, long_)


def test_xpos_shrinks_the_fast_pairs_and_barely_touches_the_slow():
    assert ("shrinks the fast pairs' contribution with distance while barely touching the "
            "slow ones") in text()
    zeta = (np.arange(0, 128, 2) / 128 + 0.4) / 1.4
    assert zeta[0] ** (512 / 512) < 0.3 and zeta[-1] ** (512 / 512) > 0.98


def test_rope_angle_is_the_position_times_the_frequency():
    assert ("it rotates pair \\(i\\) of the query at position \\(m\\) by the angle "
            "\\(m\\,\\omega_i\\)") in text()
    q = np.array([1.0, 0.0, 1.0, 0.0])
    assert np.allclose(rot_adjacent(q, 5)[0::2], np.cos(5 * freqs(4)))   # angle m * omega_i


def test_the_lab_is_not_a_language_model_measurement():
    t = text()
    assert "That is one task, 2x to 8x, not a language model's perplexity" in t
    assert "hoped for extrapolation without testing it" in t
    assert "ranked NoPE first on their tasks" in t
    # the quotations these rest on stay on the page
    assert '"because it may allow the model to extrapolate"' in t
    assert '"NoPE outperforms other explicit positional encoding methods"' in t


def test_the_stretching_methods_named_are_the_ones_checked_against_transformers():
    # review-2026-12 p12k pass 5: "The methods below keep the rotation ... Each is ... tested
    # against ... transformers in tests/package/test_conformance.py" also covered xPos (checked against
    # torchscale's formula only: transformers has no xPos) and NoPE (no rotation at all).
    import re
    t = text()
    assert "The methods below keep the rotation" not in t
    lead = ("Position Interpolation, NTK-aware scaling, YaRN, Llama 3's rule and dynamic NTK "
            "keep the rotation")
    assert lead in t
    conformance = (PAGE.parents[2] / "tests" / "package" / "test_conformance.py").read_text()
    for name in ("position_interpolation", "ntk_base", "yarn_frequencies", "llama3_frequencies",
                 "dynamic_ntk_base"):
        assert re.search(rf'"posenc\.scaling\.{name}": \(\'ROPE_INIT_FUNCTIONS\[', conformance), name
    assert re.search(r'"posenc\.scaling\.xpos_scales": \("torchscale"', conformance)
    assert "xPos" not in lead and "NoPE" not in lead


def test_the_config_key_sentence_names_the_installed_transformers():
    # review-2026-12 p12k pass 5: "(`rope_parameters` in recent `transformers`)" named no version
    transformers = pytest.importorskip("transformers")
    t = text()
    assert "in recent `transformers`" not in t
    assert f"(`rope_parameters` in `transformers` {transformers.__version__})" in t
    cfg = transformers.LlamaConfig(rope_scaling={"rope_type": "linear", "factor": 4.0})
    assert cfg.rope_parameters["rope_type"] == "linear"     # the old key is still read
