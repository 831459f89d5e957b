"""Where posenc's RoPE and transformers 5.24.0's differ (issue 40 item 5): each number of the
Notes of :class:`posenc.torch_module.hf.TransformersRotaryEmbedding`, measured here and found in
the docstring; each refusal run on both sides (transformers runs, posenc raises naming the key or
argument)."""

from __future__ import annotations

import inspect
import logging

import numpy as np
import pytest
import torch

transformers = pytest.importorskip("transformers")
from transformers import Gemma3TextConfig, LlamaConfig, LlamaForCausalLM  # noqa: E402
from transformers.models.llama.modeling_llama import (LlamaRotaryEmbedding,  # noqa: E402
                                                      apply_rotary_pos_emb)

from posenc.torch_module import RotaryEmbedding  # noqa: E402
from posenc.torch_module.hf import TransformersRotaryEmbedding  # noqa: E402

NOTES = " ".join(inspect.getdoc(TransformersRotaryEmbedding).split())
HEAD_DIM, LAST = 128, 131071


@pytest.fixture(scope="module")
def tables():
    """float32 cos and sin (one per pair) of transformers and posenc at positions 0 .. 131071,
    head_dim 128, base 10000; transformers' bfloat16 ones are its float32 ones cast (as its
    forward casts), posenc's likewise (its float32 table cast per call)."""
    positions = torch.arange(LAST + 1)[None]
    hf = LlamaRotaryEmbedding(LlamaConfig(hidden_size=2 * HEAD_DIM, num_attention_heads=2))
    cos, sin = hf(torch.zeros(1), positions)
    half = HEAD_DIM // 2
    ours = RotaryEmbedding(HEAD_DIM).cos_sin(positions[0])
    return (cos[0, :, :half], sin[0, :, :half]), ours


def test_long_positions_float32(tables):
    (hf_cos, hf_sin), (cos, sin) = tables
    gap = torch.maximum((hf_cos - cos).abs(), (hf_sin - sin).abs()).amax(-1)
    assert round(float(gap.max()), 4) == 0.0077
    first = int((gap > 1e-3).nonzero()[0])
    assert round(first, -3) == 18000, first
    angles = np.outer(np.arange(LAST + 1), RotaryEmbedding(HEAD_DIM).frequencies)
    err = np.abs(cos.double().numpy() - np.cos(angles)).max()
    assert err <= 2.0 ** -25 and f"{2.0 ** -25:.0e}" == "3e-08"          # within half a step
    assert "by up to 0.0077 over positions 0 to 131071, by more than 1e-3 from about position " \
           "18000; posenc's are within half a float32 step (3e-8) of float64 cosines" in NOTES


def test_rounding_bfloat16(tables):
    (hf_cos, hf_sin), (cos, sin) = tables
    pairs = [(a.to(torch.bfloat16), b.to(torch.bfloat16)) for a, b in
             ((hf_cos, cos), (hf_sin, sin))]
    apart = [a != b for a, b in pairs]
    share = sum(int(d.sum()) for d in apart) / sum(d.numel() for d in apart)
    assert round(100 * share, 1) == 6.5
    most = max(float((a.float() - b.float()).abs().max()) for a, b in pairs)
    assert round(most, 4) == 0.0078                                      # up to
    first = int((apart[0] | apart[1]).any(-1).nonzero()[0])
    assert 39 < first < 100, first
    assert "6.5% of the bfloat16 entries over positions 0 to 131071 round to other values, by " \
           "up to 0.0078, the first before position 100" in NOTES


def _tiny_llama_gaps(dtype):
    config = LlamaConfig(vocab_size=96, hidden_size=2 * HEAD_DIM, intermediate_size=256,
                         num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2,
                         max_position_embeddings=LAST + 1)
    torch.manual_seed(0)
    model = LlamaForCausalLM(config).eval().to(dtype)
    ids = torch.randint(96, (1, 40))
    gaps, same = {}, {}
    for start in (0, LAST + 1 - 40):
        positions = torch.arange(start, start + 40)[None]
        with torch.no_grad():
            model.model.rotary_emb = LlamaRotaryEmbedding(config)
            want = model(ids, position_ids=positions).logits.float()
            model.model.rotary_emb = TransformersRotaryEmbedding(config)
            got = model(ids, position_ids=positions).logits.float()
        gaps[start] = float((got - want).abs().max())
        same[start] = torch.equal(got.argmax(-1), want.argmax(-1))
    return gaps, same


def test_a_tiny_llama_at_long_positions():
    """The logits of a tiny Llama (head_dim 128, 2 layers, seeded) with its own rotary module and
    with posenc's, at positions 0 .. 39 and 131032 .. 131071."""
    gaps, same = _tiny_llama_gaps(torch.float32)
    assert gaps[0] < 1e-6 and f"{gaps[LAST + 1 - 40]:.0e}" == "6e-05", gaps
    bf16, bf16_same = _tiny_llama_gaps(torch.bfloat16)
    assert bf16[0] == 0.0 and round(bf16[LAST + 1 - 40], 4) == 0.0078, bf16
    # float32: the same greedy tokens at both ends; bfloat16 at long positions: the same on
    # AVX2 kernels, one token changed under NumPy/PyTorch's baseline kernels (CI's portable leg,
    # 2026-12-07), so the Notes claim no tokens there
    assert all(same.values()) and bf16_same[0]
    assert "float32 logits differ by 6e-5 at positions 131032 to 131071, and by less than 1e-6 " \
           "at 0 to 39" in NOTES
    assert "bfloat16 logits are then 0.0078 apart at positions 131032 to 131071 (whether a greedy " \
           "token changes there depends on the CPU's kernels), and the same bits at 0 to 39" in NOTES


def _hf_rotary(params, **config):
    config = LlamaConfig(hidden_size=64, num_attention_heads=2, max_position_embeddings=128,
                         rope_parameters=dict(params), **config)
    return LlamaRotaryEmbedding(config), config


@pytest.mark.parametrize("params, words", [
    ({"rope_type": "linear", "factor": 2.0}, "rope_theta"),
    ({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32,
      "orginal_max_position_embeddings": 1024}, "'orginal_max_position_embeddings'"),
    ({"factor": 4.0}, "rope_type"),
    ({"rope_type": "proportional", "rope_theta": 1e4}, "rope_type"),
])
def test_refused_blocks_that_transformers_reads(params, words, caplog):
    """transformers builds its rotary module (with base 10000 for the block without rope_theta;
    logging a warning for an unknown key, and for a factor without rope_type, whose factor it
    drops); posenc raises naming the key."""
    with caplog.at_level(logging.WARNING):
        hf, config = _hf_rotary(params)
    if "rope_theta" not in params:
        assert config.rope_parameters["rope_theta"] == 10000.0
    if params.get("rope_type") != "proportional" and words != "rope_theta":
        assert "Unrecognized keys" in caplog.text
    if "rope_type" not in params:
        assert torch.allclose(hf.inv_freq, _hf_rotary({"rope_type": "default"})[0].inv_freq)
    with pytest.raises(ValueError, match=words):
        RotaryEmbedding.from_rope_parameters(dict(params), 32, max_position_embeddings=128)
    assert "a block without ``rope_theta``" in NOTES
    assert "(``proportional``; Gemma 3's per-layer blocks)" in NOTES


def test_refused_per_layer_blocks_negative_positions_and_mixed_dtypes():
    from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding
    gemma = Gemma3TextConfig(hidden_size=64, head_dim=16, num_attention_heads=4)
    Gemma3RotaryEmbedding(gemma)                                         # transformers runs
    with pytest.raises(ValueError, match="rope_parameters holds one block per layer type"):
        TransformersRotaryEmbedding(gemma)
    hf, config = _hf_rotary({"rope_type": "default"})
    positions = torch.tensor([[-1, 0, 1]])
    cos, sin = hf(torch.zeros(1), positions)
    assert torch.allclose(sin[0, 0], -sin[0, 2])                         # the negative angle
    with pytest.raises(ValueError, match="positions must be >= 0"):
        TransformersRotaryEmbedding(config)(torch.zeros(1), positions)
    q = torch.randn(1, 2, 3, 32)
    cos, sin = hf(torch.zeros(1), torch.arange(3)[None])
    rq, rk = apply_rotary_pos_emb(q.half(), q, cos, sin)
    assert rq.dtype == rk.dtype == torch.float32                          # promoted
    rq, rk = apply_rotary_pos_emb(q.bfloat16(), q, cos.bfloat16(), sin.bfloat16())
    assert (rq.dtype, rk.dtype) == (torch.bfloat16, torch.float32)       # a bfloat16 model's cos
    with pytest.raises(TypeError, match="q and k must have the same dtype"):
        RotaryEmbedding(32)(q.half(), q)
    assert "negative position ids (transformers rotates by the negative angle)" in NOTES
    assert "``apply_rotary_pos_emb`` promotes each with ``cos``: both float32 in a float32 " \
           "model, but bfloat16 ``q`` and float32 ``k`` stay so in a bfloat16 one" in NOTES


@pytest.mark.parametrize("params", [
    {"rope_type": "linear", "factor": 0.5},
    {"rope_type": "dynamic", "factor": 0.5},
    {"rope_type": "llama3", "factor": 0.5, "original_max_position_embeddings": 32,
     "low_freq_factor": 1.0, "high_freq_factor": 4.0},
])
def test_refused_factor_below_one(params, caplog):
    """transformers 5.24.0 logs a warning and builds these; posenc raises naming factor (p11t)."""
    params = {"rope_theta": 1e4, **params}
    with caplog.at_level(logging.WARNING):
        hf, _ = _hf_rotary(params)
    assert "factor field must be a float or int >= 1" in caplog.text
    assert torch.isfinite(hf.inv_freq).all()
    with pytest.raises(ValueError, match="^factor must be"):
        RotaryEmbedding.from_rope_parameters(dict(params), 32, max_position_embeddings=128)
    assert "a ``factor`` below 1 for ``linear``, ``dynamic`` or ``llama3``" in " ".join(
        NOTES.split())
