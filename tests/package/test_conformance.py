"""posenc against the code real models load: Hugging Face ``transformers`` (pinned in the
``test`` extra), and Meta's complex-number RoPE re-implemented here from its description.

No weights are downloaded: every counterpart is a function or a randomly initialised module
built from a tiny config that keeps the real model's position settings (head width, base,
scaling). Each counterpart has one measurement, the largest difference from posenc, and a
bound in units of float32 rounding that it must stay under.

The measurements also fill ``docs/data/conformance.json``, which chapter 12 renders as its table
of real models and their conventions. The test at the end fails when that file and the
measurements disagree (different rows, conventions, or a recorded difference more than a factor
of 8 from the one measured here); ``POSENC_RECORD_CONFORMANCE=1`` rewrites it.
"""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS  # noqa: E402

import posenc  # noqa: E402
from posenc import scaling  # noqa: E402
from posenc.relative import alibi_slopes, rotate  # noqa: E402
from posenc.torch_module import SinusoidalPositionalEncoding  # noqa: E402
from posenc.variants import encode_variant  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "conformance.json"
U = 2.0 ** -24          # float32 unit roundoff: half the gap between 1 and the next float32
PINNED = "5.24.0"
# transformers builds inverse frequencies in float32: base ** (2 i / d) (a float32 power, good to
# a few ulps), its reciprocal, a division by the factor and, for YaRN and Llama 3, a blend of
# three more operations; posenc works in float64. 16 half-ulps covers these roundings.
FREQ_BOUND = 16 * U


@dataclass(frozen=True)
class Counterpart:
    key: str
    models: str             # which real models run it
    library: str            # the function or class in transformers
    posenc: str             # the posenc call it is compared with
    spacing: str = "-"
    layout: str = "-"
    offset: str = "-"
    padding: str = "-"
    pairing: str = "-"
    measure: str = "relative"   # "relative" for frequencies and factors, "absolute" for tables
    bound: float = 16 * U       # largest difference allowed: see FREQ_BOUND


SPECS: list[Counterpart] = []
MEASURES = {}


def counterpart(**kwargs):
    spec = Counterpart(**kwargs)

    def register(fn):
        SPECS.append(spec)
        MEASURES[spec.key] = functools.lru_cache(maxsize=None)(fn)
        return fn
    return register


def rel(a, b) -> float:
    """Largest relative difference of two arrays of (nonzero) frequencies, float64."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.abs(b)))


def absdiff(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))))


def config(model="llama", head_dim=128, **rope):
    """A tiny config of ``model`` with the real model's rope parameters and head width."""
    cls = {"llama": transformers.LlamaConfig, "qwen2": transformers.Qwen2Config,
           "deepseek_v3": transformers.DeepseekV3Config, "phi3": transformers.Phi3Config}[model]
    kwargs = dict(num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=1,
                  vocab_size=32, max_position_embeddings=rope.pop("max_position_embeddings", 4096),
                  rope_parameters=rope)
    if model == "deepseek_v3":
        kwargs.update(hidden_size=64, qk_rope_head_dim=head_dim, qk_nope_head_dim=16,
                      v_head_dim=16, kv_lora_rank=16, q_lora_rank=None, intermediate_size=32,
                      moe_intermediate_size=16, n_routed_experts=4, num_experts_per_tok=2,
                      n_group=1, topk_group=1, first_k_dense_replace=1)
    else:
        kwargs.update(hidden_size=2 * head_dim, head_dim=head_dim, intermediate_size=32)
    return cls(**kwargs)


def hf_rope(rope_type, cfg, **kw):
    inv_freq, attention = ROPE_INIT_FUNCTIONS[rope_type](cfg, "cpu", **kw)
    return inv_freq.numpy(), float(attention)


# --------------------------------------------------------------------------- RoPE frequencies
@counterpart(key="default-rope", models="Llama 2, Code Llama (base 10^6), Mistral, Qwen2.5",
             library="LlamaRotaryEmbedding.compute_default_rope_parameters",
             posenc="frequencies(128, base)")
def _default():
    worst = 0.0
    for theta in (10000.0, 1e6, 500000.0):
        cfg = config(rope_type="default", rope_theta=theta)
        inv, att = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding \
            .compute_default_rope_parameters(cfg)
        assert att == 1.0
        worst = max(worst, rel(posenc.frequencies(128, base=theta), inv.numpy()))
    return worst


@counterpart(key="linear", models="Llama 2 with Position Interpolation (factor 4, 8)",
             library='ROPE_INIT_FUNCTIONS["linear"]',
             posenc="scaling.position_interpolation(128, s)")
def _linear():
    worst = 0.0
    for s in (2.0, 4.0, 8.0):
        inv, att = hf_rope("linear", config(rope_type="linear", factor=s, rope_theta=10000.0))
        assert att == 1.0
        worst = max(worst, rel(scaling.position_interpolation(128, s), inv))
    return worst


@counterpart(key="llama3",
             models="Llama 3.1, 3.3 (factor 8); Llama 3.2 1B, 3B (factor 32, heads 64, 128)",
             library='ROPE_INIT_FUNCTIONS["llama3"]',
             posenc="scaling.llama3_frequencies(d, factor)")
def _llama3():
    worst = 0.0
    for head, factor in [(128, 8.0), (64, 32.0), (128, 32.0)]:
        cfg = config(head_dim=head, rope_type="llama3", factor=factor, low_freq_factor=1.0,
                     high_freq_factor=4.0, original_max_position_embeddings=8192,
                     rope_theta=500000.0, max_position_embeddings=131072)
        inv, att = hf_rope("llama3", cfg)
        assert att == 1.0
        worst = max(worst, rel(scaling.llama3_frequencies(head, factor), inv))
    return worst


@counterpart(key="yarn-qwen", models="Qwen2.5 with YaRN (factor 4, original 32768, base 10^6)",
             library='ROPE_INIT_FUNCTIONS["yarn"]',
             posenc="scaling.yarn_frequencies(128, 4, 32768, 1e6)")
def _yarn_qwen():
    cfg = config("qwen2", rope_type="yarn", factor=4.0, original_max_position_embeddings=32768,
                 rope_theta=1e6, max_position_embeddings=131072)
    inv, att = hf_rope("yarn", cfg)
    assert math.isclose(att, scaling.yarn_attention_factor(4.0), rel_tol=1e-15)
    return rel(scaling.yarn_frequencies(128, 4.0, 32768, 1e6), inv)


@counterpart(key="yarn-llama", models="Llama-style YaRN (base 10^4 and 5x10^5; s 4 to 32; d 64, 128)",
             library='ROPE_INIT_FUNCTIONS["yarn"]',
             posenc="scaling.yarn_frequencies(d, s, L, base)")
def _yarn_grid():
    worst = 0.0
    for d, theta, s, length in [(128, 10000.0, 4.0, 4096), (128, 500000.0, 8.0, 8192),
                                (64, 10000.0, 16.0, 2048), (128, 10000.0, 32.0, 4096),
                                (64, 1e6, 4.0, 32768)]:
        cfg = config(head_dim=d, rope_type="yarn", factor=s, original_max_position_embeddings=length,
                     rope_theta=theta, max_position_embeddings=int(s * length))
        inv, att = hf_rope("yarn", cfg)
        assert math.isclose(att, scaling.yarn_attention_factor(s), rel_tol=1e-15)
        worst = max(worst, rel(scaling.yarn_frequencies(d, s, length, theta), inv))
    return worst


@counterpart(key="yarn-deepseek",
             models="DeepSeek-V3 (rope head 64, factor 40, original 4096, mscale 1, 1)",
             library='ROPE_INIT_FUNCTIONS["yarn"], DeepseekV3Attention.scaling',
             posenc="scaling.yarn_frequencies(64, 40, 4096); yarn_attention_factor(40, mscale=..)")
def _yarn_deepseek():
    rope = dict(rope_type="yarn", factor=40.0, original_max_position_embeddings=4096,
                rope_theta=10000.0, beta_fast=32, beta_slow=1, mscale=1.0, mscale_all_dim=1.0,
                max_position_embeddings=163840)
    cfg = config("deepseek_v3", head_dim=64, **rope)
    inv, att = hf_rope("yarn", cfg)
    ours = scaling.yarn_attention_factor(40.0, mscale=1.0, mscale_all_dim=1.0)
    assert att == ours == 1.0
    # the softmax scale of the attention layer carries mscale_all_dim's factor twice
    layer = transformers.models.deepseek_v3.modeling_deepseek_v3.DeepseekV3Attention(cfg, 0)
    sharpen = scaling.yarn_attention_factor(40.0) ** 2
    assert math.isclose(layer.scaling, cfg.qk_head_dim ** -0.5 * sharpen, rel_tol=1e-15)
    worst = rel(scaling.yarn_frequencies(64, 40.0, 4096), inv)
    # DeepSeek-V2-style unequal mscales: the ratio of the two
    for m, m_all in [(0.707, 0.707), (1.0, 0.707), (0.5, 1.0)]:
        rope.update(mscale=m, mscale_all_dim=m_all)
        _, att = hf_rope("yarn", config("deepseek_v3", head_dim=64, **rope))
        ours = scaling.yarn_attention_factor(40.0, mscale=m, mscale_all_dim=m_all)
        worst = max(worst, abs(att - ours) / att)
    return worst

@counterpart(key="yarn-gpt-oss",
             models="gpt-oss (head 64, base 150000, factor 32, original 4096, truncate false)",
             library='ROPE_INIT_FUNCTIONS["yarn"] with "truncate": false',
             posenc="scaling.yarn_frequencies(64, 32, 4096, 150000, truncate=False)")
def _yarn_gpt_oss():
    cfg = transformers.GptOssConfig()          # its defaults are gpt-oss's position settings
    assert cfg.rope_parameters["truncate"] is False and cfg.head_dim == 64
    inv, att = hf_rope("yarn", cfg)
    assert math.isclose(att, scaling.yarn_attention_factor(32.0), rel_tol=1e-15)
    worst = rel(scaling.yarn_frequencies(64, 32.0, 4096, 150000.0, truncate=False), inv)
    # the same block on other heads and bases
    for d, theta, s, length in [(128, 10000.0, 4.0, 4096), (64, 1e6, 8.0, 32768)]:
        cfg = config(head_dim=d, rope_type="yarn", factor=s, original_max_position_embeddings=length,
                     rope_theta=theta, max_position_embeddings=int(s * length), truncate=False)
        inv, _ = hf_rope("yarn", cfg)
        worst = max(worst, rel(scaling.yarn_frequencies(d, s, length, theta, truncate=False), inv))
    return worst


def _longrope_lists(half, seed):
    """Factor lists shaped like Phi-3's: near 1 for the fast pairs, growing for the slow."""
    rng = np.random.default_rng(seed)
    ramp = np.linspace(0.0, 1.0, half)
    short = 1.0 + 2.0 * ramp ** 2 + rng.uniform(0, 0.05, half)
    long_ = 1.0 + 60.0 * ramp ** 1.5 + rng.uniform(0, 0.5, half)
    return short.tolist(), long_.tolist()


@counterpart(key="longrope",
             models="Phi-3 128K (head 96, original 4096), Phi-4-mini (head 128, rotary 0.75)",
             library='ROPE_INIT_FUNCTIONS["longrope"] and Phi3RotaryEmbedding.forward',
             posenc="scaling.longrope_frequencies(d, short, long, 4096, seq_len); "
                    "longrope_attention_factor(s, 4096)")
def _longrope():
    worst = 0.0
    for head, partial, seed in [(96, 1.0, 0), (128, 0.75, 1)]:
        d = int(head * partial)
        short, long_ = _longrope_lists(d // 2, seed)
        # Phi-3 writes the trained length at the top level and no factor in the block
        cfg = transformers.Phi3Config(
            hidden_size=2 * head, num_attention_heads=2, num_key_value_heads=2,
            num_hidden_layers=1, vocab_size=32, intermediate_size=32,
            max_position_embeddings=131072, original_max_position_embeddings=4096,
            rope_parameters={"rope_type": "longrope", "rope_theta": 10000.0,
                             "partial_rotary_factor": partial,
                             "short_factor": short, "long_factor": long_})
        for n in (None, 1, 4096, 4097, 131072):
            inv, att = hf_rope("longrope", cfg, seq_len=n)
            assert math.isclose(att, scaling.longrope_attention_factor(32.0, 4096), rel_tol=1e-15)
            ours = scaling.longrope_frequencies(d, short, long_, 4096, seq_len=n)
            worst = max(worst, rel(ours, inv))
        # the rotary module switches on max(position_ids) + 1 > original length
        module = transformers.models.phi3.modeling_phi3.Phi3RotaryEmbedding(cfg)
        assert module.attention_scaling == scaling.longrope_attention_factor(32.0, 4096)
        for last in (10, 4095, 4096, 100000, 4095):
            module(torch.zeros(1, 1, head), torch.tensor([[0, last]]))
            ours = scaling.longrope_frequencies(d, short, long_, 4096, seq_len=last + 1)
            assert scaling.longrope_uses_long(last + 1, 4096) == (last >= 4096)
            worst = max(worst, rel(ours, module.inv_freq.numpy()))
    return worst



@counterpart(key="dynamic", models="Dynamic NTK (factor 2, trained 4096): 9 sequence lengths",
             library='ROPE_INIT_FUNCTIONS["dynamic"] and LlamaRotaryEmbedding.forward',
             posenc="scaling.dynamic_ntk_frequencies(128, 2, 4096, n)")
def _dynamic():
    cfg = config(rope_type="dynamic", factor=2.0, rope_theta=10000.0, max_position_embeddings=4096)
    worst = 0.0
    for n in (1, 100, 4095, 4096, 4097, 6000, 8192, 20000, 100000):
        inv, att = hf_rope("dynamic", cfg, seq_len=n)
        assert att == 1.0
        worst = max(worst, rel(scaling.dynamic_ntk_frequencies(128, 2.0, 4096, n), inv))
    # the module recomputes its frequencies when a longer sequence comes (dynamic_rope_update)
    # and keeps them for shorter ones until a sequence shorter than the trained length comes:
    # one of exactly the trained length (4096) keeps the longest one's (`seq_len <
    # self.original_max_seq_len` in dynamic_rope_update), as chapter 15 says
    module = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)
    x = torch.zeros(1, 1, 128)
    for n, longest in [(10, 10), (5000, 5000), (12000, 12000), (6000, 12000), (4096, 12000),
                       (300, 300)]:
        module(x, torch.arange(n)[None])
        worst = max(worst, rel(scaling.dynamic_ntk_frequencies(128, 2.0, 4096, longest),
                               module.inv_freq.numpy()))
    return worst


@counterpart(key="ntk", models="NTK-aware scaling (a static base for factor s)",
             library='ROPE_INIT_FUNCTIONS["dynamic"], factor 1, seq_len s L',
             posenc="scaling.ntk_frequencies(128, s)")
def _ntk():
    # with factor 1 the dynamic scale is n / L: at n = s L it is the NTK-aware base for s
    cfg = config(rope_type="dynamic", factor=1.0, rope_theta=10000.0, max_position_embeddings=4096)
    worst = 0.0
    for s in (2, 4, 8):
        inv, _ = hf_rope("dynamic", cfg, seq_len=s * 4096)
        worst = max(worst, rel(scaling.ntk_frequencies(128, float(s)), inv))
    return worst


# --------------------------------------------------------------------------- rotation and biases
def _angle_bound(max_angle: float) -> float:
    """float32 rounding of an angle up to ``max_angle``: a few ulps of the angle, plus the
    rounding of the sine or cosine itself (and of the products in a rotation)."""
    return U * (8 + 8 * max_angle)


N_ROT = 4096


@counterpart(key="rotate-half", models="Llama, Mistral, Qwen2.5 (Hugging Face rotate_half)",
             library="LlamaRotaryEmbedding + apply_rotary_pos_emb", pairing="(i, i + d/2)",
             spacing="paper",
             posenc='relative.rotate(x, pos, pairing="half")', measure="absolute",
             bound=_angle_bound(N_ROT))
def _rotate_half():
    llama = transformers.models.llama.modeling_llama
    cfg = config(rope_type="default", rope_theta=10000.0)
    rng = np.random.default_rng(0)
    q, k = rng.uniform(-1, 1, size=(2, 1, 2, N_ROT, 128)).astype(np.float32)
    pos = torch.arange(N_ROT)[None]
    cos, sin = llama.LlamaRotaryEmbedding(cfg)(torch.from_numpy(q), pos)
    q_hf, k_hf = llama.apply_rotary_pos_emb(torch.from_numpy(q), torch.from_numpy(k), cos, sin)
    worst = 0.0
    for x, y in ((q, q_hf), (k, k_hf)):
        for h in range(2):
            worst = max(worst, absdiff(rotate(x[0, h], N_ROT, pairing="half"), y[0, h].numpy()))
    return worst


def meta_freqs_cis(dim, end, theta=10000.0):
    """Meta's Llama reference (meta-llama/llama, ``llama/model.py``): unit complex numbers
    ``exp(i t omega_j)`` for t < end, with omega_j = theta^(-2j/dim) computed in float32."""
    omega = 1.0 / theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim)
    angles = torch.outer(torch.arange(end).float(), omega)
    return torch.polar(torch.ones_like(angles), angles)


def meta_rotate(x, freqs_cis):
    """Meta's ``apply_rotary_emb``: adjacent coordinates as one complex number, times the
    phasor, back to real pairs. ``x`` is (seq, dim)."""
    pairs = torch.view_as_complex(x.float().reshape(x.shape[0], -1, 2))
    return torch.view_as_real(pairs * freqs_cis).flatten(1)


@counterpart(key="rotate-complex", models="Meta's Llama 2 and 3 reference code (complex form)",
             library="precompute_freqs_cis + apply_rotary_emb (re-implemented here)",
             pairing="(2i, 2i + 1)", spacing="paper", posenc="relative.rotate(x, pos)",
             measure="absolute",
             bound=_angle_bound(N_ROT))
def _rotate_complex():
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, size=(N_ROT, 128)).astype(np.float32)
    worst = 0.0
    for theta in (10000.0, 500000.0):
        ours = rotate(x, N_ROT, base=theta)
        theirs = meta_rotate(torch.from_numpy(x), meta_freqs_cis(128, N_ROT, theta)).numpy()
        worst = max(worst, absdiff(ours, theirs))
    return worst


ALIBI_HEADS = (1, 2, 4, 8, 16, 32, 64, 3, 5, 6, 12, 24, 40, 112)
# Bloom rounds the ratio of its slopes to float32 and raises it to powers h <= 64: the
# ratio's rounding grows h times, plus the rounding of the result.
ALIBI_BOUND = U * (2 + 64)


@counterpart(key="alibi", models="Bloom (112 heads for 176B), MPT",
             library="bloom.build_alibi_tensor, mpt.build_mpt_alibi_tensor",
             posenc="relative.alibi_slopes(n_heads)",
             padding="left padding: positions count real tokens",
             bound=ALIBI_BOUND)
def _alibi():
    bloom = transformers.models.bloom.modeling_bloom
    worst = 0.0
    for n in ALIBI_HEADS:
        mask = torch.ones(1, 9, dtype=torch.long)
        bias = bloom.build_alibi_tensor(mask, n, torch.float32)[:, 0, :].numpy()   # (n, 9)
        slopes = alibi_slopes(n)
        worst = max(worst, rel(slopes, bias[:, 1]))
        assert np.allclose(bias, np.multiply.outer(slopes, np.arange(9)), rtol=ALIBI_BOUND,
                           atol=0)
    # MPT: slopes from the next power of two, reordered odd-then-even: the same list
    mpt = transformers.models.mpt.modeling_mpt
    for n in ALIBI_HEADS:
        slopes = -mpt.build_mpt_alibi_tensor(n, 9)[:, 0, -2].numpy()     # key one step back
        worst = max(worst, rel(alibi_slopes(n), slopes))
    # left padding: Bloom's key positions count the real tokens only
    mask = torch.tensor([[0, 0, 1, 1, 1, 1]])
    bias = bloom.build_alibi_tensor(mask, 6, torch.float32)[:, 0, :].numpy()
    assert np.allclose(bias, np.multiply.outer(alibi_slopes(6), [0, 0, 0, 1, 2, 3]),
                       rtol=ALIBI_BOUND, atol=0)
    return worst


def test_alibi_bias_differs_from_bloom_by_a_row_constant():
    """Bloom adds ``slope * j`` (key position), posenc ``-slope * (i - j)``: they differ by
    ``slope * i`` in each query row, which the softmax cancels."""
    from posenc.attention import softmax
    from posenc.relative import alibi_bias
    bloom = transformers.models.bloom.modeling_bloom
    n, seq = 12, 7
    bias = bloom.build_alibi_tensor(torch.ones(1, seq, dtype=torch.long), n, torch.float32)
    causal = np.triu(np.full((seq, seq), -np.inf), k=1)
    scores = np.random.default_rng(3).normal(size=(seq, seq))
    for h, slope in enumerate(alibi_slopes(n)):
        theirs = softmax(scores + bias[h].numpy().astype(np.float64) + causal)
        ours = softmax(scores + alibi_bias(seq, float(slope)))
        assert np.allclose(ours, theirs, rtol=0, atol=1e-6)
        assert not np.allclose(bias[h].numpy() + causal, alibi_bias(seq, float(slope)))


# --------------------------------------------------------------------------- sinusoidal tables
N_TAB = 1024


def _table_bound(n_positions: int) -> float:
    return _angle_bound(n_positions)


def _paper_concat_f64(weight_fn, d):
    """A Marian-style table (float64 NumPy angles, one cast) against posenc."""
    theirs = weight_fn().numpy()
    ours = encode_variant(N_TAB, d, layout="concatenated", dtype="float32")
    return absdiff(ours, theirs)


@counterpart(key="marian", models="Marian (opus-mt)", library="MarianSinusoidalPositionalEmbedding",
             spacing="paper", layout="[sin | cos]", offset="0 (cache length)", padding="none",
             posenc='encode_variant(n, d, layout="concatenated"); the module, start=cache length',
             measure="absolute", bound=U)
def _marian():
    marian = transformers.models.marian.modeling_marian
    worst = 0.0
    for d in (16, 512):
        emb = marian.MarianSinusoidalPositionalEmbedding(N_TAB, d)
        table = emb.create_weight()
        worst = max(worst, absdiff(encode_variant(N_TAB, d, layout="concatenated",
                                                  dtype="float32"), table))
        with torch.no_grad():
            emb.weight.copy_(table)
        rows = emb((2, 5), cache_length=7)                        # decoding step: 7 cached
        ours = SinusoidalPositionalEncoding(d, N_TAB, layout="concatenated")(
            torch.zeros(1, 5, d), start=7)[0]
        worst = max(worst, absdiff(ours, rows))
    return worst


@counterpart(key="pegasus", models="Pegasus", library="PegasusSinusoidalPositionalEmbedding",
             spacing="paper", layout="[sin | cos]", offset="0 (cache length)", padding="none",
             posenc='encode_variant(n, d, layout="concatenated")', measure="absolute", bound=U)
def _pegasus():
    pegasus = transformers.models.pegasus.modeling_pegasus
    emb = pegasus.PegasusSinusoidalPositionalEmbedding(N_TAB, 1024)
    return absdiff(encode_variant(N_TAB, 1024, layout="concatenated", dtype="float32"),
                   emb.create_weight())


@counterpart(key="distilbert",
             models="DistilBERT (sinusoidal_pos_embds=True), XLM (sinusoidal_embeddings=True)",
             library="distilbert.create_sinusoidal_embeddings", spacing="paper",
             layout="interleaved", offset="0", padding="none",
             posenc="encode_variant(n, d)", measure="absolute", bound=U)
def _distilbert():
    distil = transformers.models.distilbert.modeling_distilbert
    out = torch.empty(N_TAB, 768)
    distil.create_sinusoidal_embeddings(N_TAB, 768, out)
    return absdiff(encode_variant(N_TAB, 768, dtype="float32"), out)


def _fairseq_tokens():
    # two sentences, the second left-padded (padding_idx 1), the first right-padded
    return torch.tensor([[5, 6, 7, 8, 1, 1], [1, 1, 9, 10, 11, 12]])


def _fairseq_check(get_rows, d, padding_idx=1, odd="refuse"):
    """posenc's module in fairseq mode against a model's rows for padded tokens."""
    tokens = _fairseq_tokens()
    theirs = get_rows(tokens)
    module = SinusoidalPositionalEncoding(d, 64, spacing="t2t", layout="concatenated",
                                          padding_idx=padding_idx, odd=odd)
    ours = module(torch.zeros(2, tokens.shape[1], d), tokens=tokens)
    pad = (tokens == padding_idx).numpy()
    assert np.all(theirs.numpy()[pad] == 0) and np.all(ours.numpy()[pad] == 0)
    return absdiff(ours, theirs)


def _t2t_table(get_embedding, d, padding_idx):
    table = get_embedding(N_TAB, d, padding_idx).numpy()
    ours = encode_variant(N_TAB, d, spacing="t2t", layout="concatenated", odd="zero_pad",
                          dtype="float32")
    ours[padding_idx] = 0.0
    return absdiff(ours, table)


@counterpart(key="m2m100", models="M2M100, NLLB", library="M2M100SinusoidalPositionalEmbedding",
             spacing="t2t", layout="[sin | cos]", offset="padding_idx + 1",
             padding="zero rows; positions count real tokens (left padding too)",
             posenc='SinusoidalPositionalEncoding(d, spacing="t2t", layout="concatenated", '
                    'padding_idx=1)',
             measure="absolute", bound=_table_bound(N_TAB))
def _m2m100():
    m2m = transformers.models.m2m_100.modeling_m2m_100
    worst = 0.0
    for d in (16, 17, 1024):
        worst = max(worst, _t2t_table(m2m.M2M100SinusoidalPositionalEmbedding.get_embedding, d, 1))
        emb = m2m.M2M100SinusoidalPositionalEmbedding(64, d, padding_idx=1)
        worst = max(worst, _fairseq_check(lambda t: emb(t), d, odd="zero_pad"))
    return worst


@counterpart(key="fsmt", models="FSMT (fairseq WMT19)", library="fsmt.SinusoidalPositionalEmbedding",
             spacing="t2t", layout="[sin | cos]", offset="padding_idx + 1",
             padding="zero rows; positions count real tokens (left padding too)",
             posenc='SinusoidalPositionalEncoding(d, spacing="t2t", layout="concatenated", '
                    'padding_idx=1)',
             measure="absolute", bound=_table_bound(N_TAB))
def _fsmt():
    fsmt = transformers.models.fsmt.modeling_fsmt
    worst = _t2t_table(fsmt.SinusoidalPositionalEmbedding.get_embedding, 1024, 1)
    emb = fsmt.SinusoidalPositionalEmbedding(64, 1024, 1)
    emb.make_weight(64, 1024, 1)
    return max(worst, _fairseq_check(lambda t: emb(t), 1024))


@counterpart(key="speech2text", models="Speech2Text",
             library="Speech2TextSinusoidalPositionalEmbedding", spacing="t2t",
             layout="[sin | cos]", offset="padding_idx + 1",
             padding="zero rows; positions count real tokens (left padding too)",
             posenc='SinusoidalPositionalEncoding(d, spacing="t2t", layout="concatenated", '
                    'padding_idx=1)',
             measure="absolute", bound=_table_bound(N_TAB))
def _speech2text():
    s2t = transformers.models.speech_to_text.modeling_speech_to_text
    worst = _t2t_table(s2t.Speech2TextSinusoidalPositionalEmbedding.get_embedding, 256, 1)
    emb = s2t.Speech2TextSinusoidalPositionalEmbedding(64, 256, padding_idx=1)
    return max(worst, _fairseq_check(lambda t: emb(t), 256))


@counterpart(key="xglm", models="XGLM", library="XGLMSinusoidalPositionalEmbedding",
             spacing="t2t", layout="[sin | cos]", offset="2",
             padding="row 1 zero, unused; position_ids from the model",
             posenc='encode_variant(n, d, spacing="t2t", layout="concatenated", offset=2); '
                    'the module with offset=2',
             measure="absolute", bound=_table_bound(N_TAB))
def _xglm():
    xglm = transformers.models.xglm.modeling_xglm
    emb = xglm.XGLMSinusoidalPositionalEmbedding(N_TAB, 1024, padding_idx=1)
    worst = _t2t_table(xglm.XGLMSinusoidalPositionalEmbedding.get_embedding, 1024, 1)
    rows = emb(torch.arange(N_TAB - 2)[None])[0]                 # positions 0.. -> rows 2..
    ours = encode_variant(N_TAB - 2, 1024, spacing="t2t", layout="concatenated", offset=2,
                          dtype="float32")
    module = SinusoidalPositionalEncoding(1024, N_TAB - 2, spacing="t2t", layout="concatenated",
                                          offset=2)
    through_module = module(torch.zeros(1, N_TAB - 2, 1024))[0]
    return max(worst, absdiff(ours, rows), absdiff(through_module, rows))


@counterpart(key="whisper", models="Whisper (encoder)", library="whisper.sinusoids",
             spacing="t2t", layout="[sin | cos]", offset="0", padding="none",
             posenc='encode_variant(n, d, spacing="t2t", layout="concatenated"); the module',
             measure="absolute", bound=_table_bound(1500))
def _whisper():
    whisper = transformers.models.whisper.modeling_whisper
    worst = 0.0
    for d in (384, 1280):
        table = whisper.sinusoids(1500, d)
        worst = max(worst, absdiff(encode_variant(1500, d, spacing="t2t", layout="concatenated",
                                                  dtype="float32"), table))
        module = SinusoidalPositionalEncoding(d, 1500, spacing="t2t", layout="concatenated")
        worst = max(worst, absdiff(module.table(), table))
    return worst


# --------------------------------------------------------------------------- the tests
# Every table, frequency or bias function, the counterpart its docstring names, and the
# measurements above (or the test) that check it.
DOCSTRINGS = {
    "posenc.encoding.frequencies": ("compute_default_rope_parameters", ["default-rope"]),
    "posenc.encoding.encode": ("create_sinusoidal_embeddings", ["distilbert", "marian"]),
    "posenc.variants.frequencies": ("M2M100SinusoidalPositionalEmbedding", ["m2m100", "whisper"]),
    "posenc.variants.encode_variant": ("M2M100SinusoidalPositionalEmbedding",
                                       ["marian", "m2m100", "xglm", "whisper"]),
    "posenc.relative.rotate": ("apply_rotary_pos_emb", ["rotate-half", "rotate-complex"]),
    "posenc.relative.alibi_slopes": ("build_alibi_tensor", ["alibi"]),
    "posenc.relative.alibi_bias": ("build_alibi_tensor",
                                   ["test_alibi_bias_differs_from_bloom_by_a_row_constant"]),
    "posenc.torch_module.SinusoidalPositionalEncoding": ("M2M100SinusoidalPositionalEmbedding",
                                                         ["marian", "m2m100", "fsmt"]),
    "posenc.torch_module.build_table": ("M2M100SinusoidalPositionalEmbedding", ["m2m100"]),
    "posenc.scaling.position_interpolation": ('ROPE_INIT_FUNCTIONS["linear"]', ["linear"]),
    "posenc.scaling.ntk_base": ('ROPE_INIT_FUNCTIONS["dynamic"]', ["ntk"]),
    "posenc.scaling.ntk_frequencies": ("ntk_base", ["ntk"]),
    "posenc.scaling.correction_pair": ("find_correction_dim", ["yarn-llama"]),
    "posenc.scaling.yarn_ramp": ('ROPE_INIT_FUNCTIONS["yarn"]', ["yarn-llama", "yarn-qwen"]),
    "posenc.scaling.yarn_frequencies": ('ROPE_INIT_FUNCTIONS["yarn"]',
                                        ["yarn-llama", "yarn-qwen", "yarn-deepseek",
                                         "yarn-gpt-oss"]),
    "posenc.scaling.yarn_attention_factor": ('ROPE_INIT_FUNCTIONS["yarn"]', ["yarn-deepseek"]),
    "posenc.scaling.longrope_frequencies": ('ROPE_INIT_FUNCTIONS["longrope"]', ["longrope"]),
    "posenc.scaling.longrope_attention_factor": ('ROPE_INIT_FUNCTIONS["longrope"]',
                                                 ["longrope"]),
    "posenc.scaling.longrope_uses_long": ("longrope_frequency_update", ["longrope"]),
    "posenc.scaling.llama3_frequencies": ('ROPE_INIT_FUNCTIONS["llama3"]', ["llama3"]),
    "posenc.scaling.dynamic_ntk_base": ('ROPE_INIT_FUNCTIONS["dynamic"]', ["dynamic"]),
    "posenc.scaling.dynamic_ntk_frequencies": ('ROPE_INIT_FUNCTIONS["dynamic"]', ["dynamic"]),
    "posenc.scaling.xpos_zeta": ("torchscale", ["test_xpos_zeta_matches_torchscale_buffer"]),
    "posenc.scaling.xpos_scales": ("torchscale", ["test_xpos_score_depends_on_offset_only"]),
}


@pytest.mark.parametrize("name", sorted(DOCSTRINGS))
def test_docstring_names_a_checked_counterpart(name):
    import importlib
    import inspect
    module, attr = name.rsplit(".", 1)
    doc = inspect.getdoc(getattr(importlib.import_module(module), attr)) or ""
    counterpart, checks = DOCSTRINGS[name]
    assert "Counterpart" in doc and counterpart in doc, (name, counterpart)
    here = Path(__file__).read_text() + (Path(__file__).parent / "test_scaling.py").read_text()
    for check in checks:
        assert check in MEASURES or f"def {check}(" in here, (name, check)


def test_transformers_is_the_pinned_version():
    assert transformers.__version__ == PINNED


@pytest.mark.parametrize("key", [s.key for s in SPECS])
def test_posenc_matches_its_counterpart(key):
    spec = next(s for s in SPECS if s.key == key)
    measured = MEASURES[key]()
    assert measured <= spec.bound, (key, measured, spec.bound)


def test_float64_tables_agree_exactly():
    """Chapter 12 says Marian, Pegasus and DistilBERT agree exactly on the 1,024-row tables built
    here; their bound U alone would let one float32 step through unnoticed, and the recorded 0.0
    would stay (review-2026-12 r1214 pass 1)."""
    for key in ("marian", "pegasus", "distilbert"):
        assert MEASURES[key]() == 0.0, key


def test_paper_ramp_does_not_match_transformers():
    """The check above can fail: the paper's ramp is far from what models load."""
    cfg = config(rope_type="yarn", factor=4.0, original_max_position_embeddings=4096,
                 rope_theta=10000.0, max_position_embeddings=16384)
    inv, _ = hf_rope("yarn", cfg)
    paper = scaling.yarn_frequencies(128, 4.0, 4096, ramp="paper")
    gap = np.abs(paper - inv) / inv
    assert gap.max() > 0.4 and int(np.argmax(gap)) == 34
    assert rel(scaling.yarn_frequencies(128, 4.0, 4096, ramp="code"), inv) < FREQ_BOUND


def test_truncated_ramp_does_not_match_gpt_oss():
    """The gpt-oss check can fail: the default (truncated) ramp differs in 9 of 32 pairs, by up
    to 28.9 radians at the last of 131072 positions."""
    inv, _ = hf_rope("yarn", transformers.GptOssConfig())
    truncated = scaling.yarn_frequencies(64, 32.0, 4096, 150000.0)
    gap = np.abs(truncated - inv.astype(np.float64))
    assert int((gap / inv > FREQ_BOUND).sum()) == 9
    assert round(float(gap.max()) * 131071, 1) == 28.9


def test_longrope_switch_is_not_the_short_list():
    """The LongRoPE check can fail: past the trained length transformers uses the long list."""
    short, long_ = _longrope_lists(48, 0)
    cfg = config("phi3", head_dim=96, rope_type="longrope", rope_theta=10000.0,
                 short_factor=short, long_factor=long_, original_max_position_embeddings=4096,
                 max_position_embeddings=131072)
    inv, _ = hf_rope("longrope", cfg, seq_len=4097)
    assert rel(scaling.longrope_frequencies(96, short, long_, 4096, seq_len=4097), inv) < FREQ_BOUND
    assert rel(scaling.longrope_frequencies(96, short, long_, 4096, seq_len=4096), inv) > 0.5


def _rows():
    rows = []
    for spec in SPECS:
        row = asdict(spec)
        row["max_diff"] = float(f"{MEASURES[spec.key]():.2g}")
        rows.append(row)
    return rows


def test_docs_table_is_the_measured_one():
    rows = _rows()
    if os.environ.get("POSENC_RECORD_CONFORMANCE"):
        DATA.write_text(json.dumps({
            "transformers": transformers.__version__,
            "torch": torch.__version__.split("+")[0],
            "measured_on": "2-core AMD EPYC VM, 2026-11-27",
            "rows": rows}, indent=1) + "\n")
    recorded = json.loads(DATA.read_text())
    assert recorded["transformers"] == transformers.__version__
    assert [r["key"] for r in recorded["rows"]] == [r["key"] for r in rows]
    for old, new in zip(recorded["rows"], rows):
        for field in new:
            if field != "max_diff":
                assert old[field] == new[field], (new["key"], field)
        assert old["max_diff"] <= new["bound"]
        # float32 kernels differ between machines: a factor of 8 either way, or both tiny
        if max(old["max_diff"], new["max_diff"]) > U:
            assert new["max_diff"] / 8 <= old["max_diff"] <= 8 * new["max_diff"], new["key"]
