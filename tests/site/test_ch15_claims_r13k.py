"""Chapter 15 sentences whose word flip (not/no, never, nothing, fall/rise, fast/slow,
fastest/slowest, down/up, shorter/longer, lowers/raises, kept/changed, refuses/accepts, alone,
visible/hidden) passed the page and tests/site/test_ch15_*.py (review-2026-12 r13k pass 6). Each test
pins the sentence's phrase and recomputes what makes it true with NumPy, or with the pinned
``transformers`` where the sentence is about it (``posenc`` only where the sentence is about
``posenc``); each failed on the page with the flipped word."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from harness.says import flat
from tests.site.test_ch15_claims_p12k import freqs, rot_adjacent as rot  # one copy of each

PAGE = Path(__file__).resolve().parents[2] / "docs" / "chapters" / "15-what-came-next.md"


def text() -> str:
    return flat(PAGE)


def softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def llama_config(**rope):
    transformers = pytest.importorskip("transformers")
    return transformers.LlamaConfig(
        num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=1, vocab_size=32,
        hidden_size=256, max_position_embeddings=rope.pop("max_position_embeddings"),
        rope_parameters=rope)


def test_the_score_depends_only_on_the_offset_and_is_a_function_of_it_alone():
    t = text()
    assert r"\(q(m) \cdot k(n)\) depends only on \(n - m\)" in t
    assert "the RoPE score is a function of the offset alone" in t
    q, k = np.random.default_rng(11).normal(size=(2, 16))
    offsets = range(-20, 21)
    curves = [[rot(q, m) @ rot(k, m + o) for o in offsets] for m in (30, 130, 10**5)]
    assert np.allclose(curves[0], curves[1], atol=1e-9)
    assert np.allclose(curves[0], curves[2], atol=1e-9)
    assert not math.isclose(curves[0][23], curves[0][24])       # offsets 3 and 4 differ


def test_no_additive_table_and_no_weight_matrix_can_spoil_it():
    t = text()
    assert r"uses the same frequencies \(\omega_i\) but no additive table" in t
    assert "so no weight matrix can spoil it" in t
    # no table is added: a zero vector stays zero at every position (an added table would not)
    assert all(np.array_equal(rot(np.zeros(16), m), np.zeros(16)) for m in (1, 77, 10**6))
    x, y = np.random.default_rng(12).normal(size=(2, 16))
    for seed in range(4):                                    # any W_Q, W_K: rotated after them
        wq, wk = np.random.default_rng(100 + seed).normal(size=(2, 16, 16))
        a = [rot(x @ wq, m) @ rot(y @ wk, m + 5) for m in (0, 9, 4000)]
        assert np.allclose(a, a[0], rtol=1e-9)


def test_alibi_adds_nothing_to_the_embeddings_and_its_weights_fall_per_step_back():
    t = text()
    assert "ALiBi (Press et al., 2022) adds nothing to the embeddings" in t
    assert r"weights that fall by a factor \(e^{-\text{slope}}\) per step back" in t
    n = 12
    for slope in (1 / 2, 1 / 16, 1 / 256):
        i, j = np.indices((n, n))
        bias = np.where(j <= i, -slope * (i - j), -np.inf)
        w = softmax(np.zeros((n, n)) + bias)
        assert np.allclose(w[n - 1, :-1] / w[n - 1, 1:], math.exp(-slope))   # below 1: falls
        # nothing added to the embeddings: equal tokens give equal values at every position,
        # so with equal content the attention output is one vector at every position
        v = np.tile(np.random.default_rng(13).normal(size=(1, 4)), (n, 1))
        out = w @ v
        assert np.allclose(out, out[0])


def test_squeezing_also_squeezes_the_fast_pairs_and_ntk_keeps_the_fastest():
    t = text()
    assert "also squeezes the fast pairs, which distinguished neighbouring tokens" in t
    assert (r"the fastest pair keeps \(\omega_0 = 1\) and the slowest is divided by \(s\)") in t
    for d in (64, 128, 256):
        om = freqs(d)
        assert om[0] == om.max() == 1.0            # one radian between neighbours: the fastest
        for s in (2.0, 4.0, 8.0):
            assert np.allclose((om / s)[0], 1 / s)      # Position Interpolation squeezes it
            ntk = (10000.0 * s ** (d / (d - 2))) ** (-np.arange(0, d, 2) / d)
            ratio = ntk / om
            assert ratio[0] == 1.0 and math.isclose(ratio[-1], 1 / s, rel_tol=1e-12)


def yarn_keep(s, max_positions):
    """transformers' YaRN frequencies (head 128, L 4096, base 10000, factor s) as the share of
    each pair's frequency kept: 1 kept, 0 divided by s."""
    pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    cfg = llama_config(rope_type="yarn", factor=s, original_max_position_embeddings=4096,
                       rope_theta=10000.0, max_position_embeddings=max_positions)
    inv, _ = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    om = freqs(128)
    return (inv.numpy().astype(float) - om / s) / (om - om / s)


def test_the_code_ramp_rounds_the_first_pair_down_and_the_second_up():
    assert "rounds the first down and the second up" in text()
    s = 16.0
    keep = yarn_keep(s, 65536)
    low = 128 * math.log(4096 / (32 * 2 * math.pi)) / (2 * math.log(10000.0))   # r = 32
    high = 128 * math.log(4096 / (1 * 2 * math.pi)) / (2 * math.log(10000.0))   # r = 1
    down, up = math.floor(low), math.ceil(high)
    assert (down, up) == (20, 46)
    # the line runs from pair 20 (kept) to pair 46 (interpolated) in 26 equal steps: not 24
    # (the other rounding) nor 24.08 (no rounding)
    assert abs(keep[down] - 1) < 1e-6 and abs(keep[up]) < 1e-6
    assert np.allclose(np.diff(keep[down:up + 1]), -1 / (up - down), atol=1e-5)


def test_transformers_ignores_mscale_alone_and_posenc_refuses_it():
    pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from posenc.scaling import yarn_attention_factor
    assert ("`transformers` ignores `mscale` when `mscale_all_dim` is missing; `posenc` refuses "
            "one without the other") in text()
    cfg = llama_config(rope_type="yarn", factor=40.0, original_max_position_embeddings=4096,
                       rope_theta=10000.0, mscale=0.5, max_position_embeddings=163840)
    _, att = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    assert math.isclose(att, 0.1 * math.log(40.0) + 1)          # mscale 0.5 ignored
    for kwargs in ({"mscale": 1.0}, {"mscale_all_dim": 1.0}):
        with pytest.raises(ValueError):
            yarn_attention_factor(40.0, **kwargs)


def test_llama3_keeps_the_short_wavelengths_and_divides_the_long():
    pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    assert (r"wavelengths shorter than \(L/4\) keep their frequency, wavelengths longer than "
            r"\(L\) are divided by the factor 8") in text()
    cfg = llama_config(rope_type="llama3", factor=8.0, original_max_position_embeddings=8192,
                       low_freq_factor=1.0, high_freq_factor=4.0, rope_theta=500000.0,
                       max_position_embeddings=131072)
    inv, _ = ROPE_INIT_FUNCTIONS["llama3"](cfg, "cpu")
    inv = inv.numpy().astype(float)
    om = freqs(128, 500000.0)
    lam = 2 * np.pi / om
    assert np.allclose(inv[lam < 8192 / 4], om[lam < 8192 / 4], rtol=1e-6)
    assert np.allclose(inv[lam > 8192], om[lam > 8192] / 8, rtol=1e-6)


def test_dynamic_ntk_posenc_depends_on_length_alone_transformers_resets_only_below_l():
    transformers = pytest.importorskip("transformers")
    import torch
    from posenc.scaling import dynamic_ntk_base
    t = text()
    assert "`posenc`'s function depends on the sequence length alone" in t
    assert "until a sequence shorter than the training length resets it" in t
    fresh = dynamic_ntk_base(128, 2.0, 4096, 6000)
    dynamic_ntk_base(128, 2.0, 4096, 20000)
    assert dynamic_ntk_base(128, 2.0, 4096, 6000) == fresh     # no memory of the long call
    cfg = llama_config(rope_type="dynamic", factor=2.0, rope_theta=10000.0,
                       max_position_embeddings=4096)
    module = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)
    x = torch.zeros(1, 1, 128)
    module(x, torch.arange(12000)[None])
    long_ = module.inv_freq.clone()
    module(x, torch.arange(6000)[None])            # longer than L, shorter than the longest
    assert torch.equal(module.inv_freq, long_)     # kept: a longer one does not reset
    module(x, torch.arange(100)[None])             # shorter than L: reset
    assert np.allclose(module.inv_freq.numpy(), freqs(128), rtol=1e-6)


def test_position_is_not_absent_under_the_causal_mask():
    assert "Position is not absent: the causal mask makes the set of visible tokens grow" in text()
    n = 8
    mask = np.triu(np.full((n, n), -np.inf), k=1)
    w = softmax(np.zeros((n, n)) + mask)
    v = np.zeros((n, 1))
    v[0] = 1.0                                             # a start token's value
    out = (w @ v)[:, 0]
    assert np.allclose(out, 1 / np.arange(1, n + 1)) and len(set(out.round(12))) == n


def test_rotation_keeps_lengths_and_angles_for_every_position():
    assert "lengths and angles are kept, for every" in text()
    a, b = np.random.default_rng(14).normal(size=(2, 16))
    for m in (0, 7, 10**6, 10**9):
        ra, rb = rot(a, m), rot(b, m)
        assert math.isclose(ra @ ra, a @ a, rel_tol=1e-9)
        assert math.isclose(ra @ rb, a @ b, rel_tol=1e-9)


def test_the_gentlest_slope_keeps_distant_keys_visible():
    assert ("the gentlest of the standard slopes keeps distant keys visible, at a few ten "
            "thousandths of the recent one's weight") in text()
    share = math.exp(-(2048 - 1) / 256)
    assert 1e-4 < share < 1e-3


def test_a_larger_base_lowers_the_threshold_and_never_turning_pairs():
    t = text()
    assert "a larger base lowers that threshold" in t
    assert "A pair whose wavelength exceeds 512 never completes a turn during training" in t
    thresholds = [math.log(4096 / (2 * math.pi)) / math.log(b) for b in (1e4, 5e5, 1e6)]
    assert thresholds == sorted(thresholds, reverse=True) and len(set(thresholds)) == 3
    om = freqs(512)
    assert np.array_equal(511 * om < 2 * np.pi, 2 * np.pi / om > 512)   # positions 0 .. 511


# second batch (10 more flips; these 7 passed every prose check)

def test_interpolated_positions_sit_inside_the_trained_range():
    assert "sees positions up to 8188 at angles inside the trained range" in text()
    om = freqs(128)
    assert np.all(8188 / 4.0 * om <= 2047 * om) and np.any(8189 / 4.0 * om > 2047 * om)


def test_models_run_the_code_ramp():
    assert "Models run the code's ramp, so it is `posenc`'s default" in text()
    s = 4.0
    keep = yarn_keep(s, 16384)
    code = 1 - np.clip((np.arange(64) - 20) / (46 - 20), 0, 1)
    r = 4096 / (2 * np.pi / freqs(128))
    paper = np.clip((r - 1) / (32 - 1), 0, 1)
    assert np.allclose(keep, code, atol=1e-5) and not np.allclose(keep, paper, atol=0.1)


def test_xpos_decay_like_the_rotation_depends_on_the_offset_alone():
    assert "like the rotation it depends on the offset alone" in text()
    zeta = (np.arange(0, 128, 2) / 128 + 0.4) / 1.4
    decay = [zeta ** (n / 512) * zeta ** (-(n - 300) / 512) for n in (300, 1000, 50000)]
    assert np.allclose(decay[0], decay[1]) and np.allclose(decay[0], decay[2])


def test_summary_rope_depends_on_the_offset_with_sign():
    assert r"depends only on \(n - m\), with sign" in text()
    q, k = np.random.default_rng(15).normal(size=(2, 16))
    assert not math.isclose(rot(q, 2) @ rot(k, 5), rot(q, 5) @ rot(k, 2))


def test_summary_nope_drops_the_encoding_and_relies_on_the_causal_mask():
    assert "NoPE drops the encoding and relies on the causal mask" in text()
    # without the mask, equal scores give every position the same weights: no position left
    n = 6
    full = softmax(np.zeros((n, n)))
    causal = softmax(np.zeros((n, n)) + np.triu(np.full((n, n), -np.inf), k=1))
    assert np.allclose(full, full[0]) and not np.allclose(causal, causal[0])


def test_deepseek_mscales_are_equal_so_the_ratio_is_one():
    pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    assert "which is 1 when they are equal, as they are in DeepSeek-V3" in text()
    cfg = llama_config(rope_type="yarn", factor=40.0, original_max_position_embeddings=4096,
                       rope_theta=10000.0, mscale=1.0, mscale_all_dim=1.0,
                       max_position_embeddings=163840)
    _, att = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    assert att == 1.0


def test_dynamic_ntk_base_keeps_growing():
    pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    assert "which keeps growing however long the input gets" in text()
    cfg = llama_config(rope_type="dynamic", factor=2.0, rope_theta=10000.0,
                       max_position_embeddings=4096)
    slowest = [float(ROPE_INIT_FUNCTIONS["dynamic"](cfg, "cpu", seq_len=n)[0][-1])
               for n in (8192, 10**5, 10**7, 10**9)]
    assert all(a > b for a, b in zip(slowest, slowest[1:]))     # the base keeps rising
