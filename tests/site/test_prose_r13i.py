"""Sentences of chapter 16 whose words no page check read (review-2026-12 r13i, pass 9): a flip
of the word (not/no, some/no, before/after, earlier/later, one/two, ...) left the page and its
tests passing. Each test finds the sentence on the page and recomputes what it says, with NumPy,
torch and the installed transformers (5.24.0) along the path a model takes, without posenc; the
word the page prints must be the one the computation gives, so the flip (or a change of the
fact) fails."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
CH16 = ROOT / "docs/chapters/16-positions-in-a-running-model.md"

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def flat() -> str:
    return re.sub(r"\s+", " ", CH16.read_text())


def says(phrase: str) -> None:
    assert phrase in flat(), f"chapter 16 no longer says {phrase!r}"


def bf16(x) -> np.ndarray:
    """Round to bfloat16 (torch's round to nearest even), back as float64."""
    return torch.tensor(np.asarray(x, dtype=np.float32)).to(torch.bfloat16).double().numpy()


def omega(d: int = 128, base: float = 500000.0) -> np.ndarray:
    return base ** (-np.arange(d // 2) * 2 / d)


def small_llama(**extra):
    from transformers import LlamaConfig
    return LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128, **extra)


def test_cosines_may_be_stored_in_the_models_type():
    # "The first three must be float32; the last may be stored in the model's type."
    says("the last may be stored in the model's type")
    cosines = np.cos(np.arange(200000) * 0.731)
    assert np.abs(bf16(cosines) - cosines).max() <= 2.0 ** -9     # storing costs 2^-9 at most


def test_some_half_precision_cosines_come_out_with_the_wrong_sign():
    says("in either half type some cosines come out with the wrong sign")
    w = omega()
    rows = np.arange(131072 - 4096, 131072)
    exact = np.cos(np.multiply.outer(rows.astype(float), w))
    half = bf16(np.multiply.outer(bf16(rows), bf16(w)))           # the whole pipeline in bf16
    assert (np.sign(np.cos(half)) != np.sign(exact))[np.abs(exact) > 0.5].any()
    rows16 = np.arange(60000, 65504)
    f16 = (torch.tensor(rows16, dtype=torch.float16)[:, None]
           * torch.tensor(w, dtype=torch.float16)[None]).double().numpy()
    exact16 = np.cos(np.multiply.outer(rows16.astype(float), w))
    assert (np.sign(np.cos(f16)) != np.sign(exact16))[np.abs(exact16) > 0.5].any()


def test_llama_rotary_converts_to_float32_before_it_multiplies():
    says("converts the positions and `inv_freq` to float32 before it multiplies them")
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    rope = LlamaRotaryEmbedding(small_llama(rope_theta=500000.0)).to(torch.bfloat16)
    positions = torch.arange(300, 700)
    cos, _ = rope(torch.zeros(1, dtype=torch.float32), positions[None])
    # the product of float32 positions and the float32 copy of the (bfloat16) buffer, in float32
    before = (positions[:, None].float() * rope.inv_freq.float()[None]).cos()
    # had it multiplied first, in the buffer's type, the angles would be rounded to bfloat16
    after = (positions[:, None].to(torch.bfloat16) * rope.inv_freq[None]).float().cos()
    assert torch.equal(cos[0, :, :64], before)
    assert (cos[0, :, :64] - after).abs().max() > 0.1


def test_from_pretrained_in_bfloat16_keeps_the_buffer_in_float32(tmp_path):
    says("Loading with `from_pretrained(..., dtype=torch.bfloat16)` keeps the buffer in float32")
    from transformers import LlamaForCausalLM
    config = small_llama(intermediate_size=32, num_hidden_layers=1, num_key_value_heads=2,
                         vocab_size=16, rope_theta=500000.0)
    LlamaForCausalLM(config).save_pretrained(tmp_path)
    loaded = LlamaForCausalLM.from_pretrained(tmp_path, dtype=torch.bfloat16)
    assert loaded.model.embed_tokens.weight.dtype == torch.bfloat16
    assert loaded.model.rotary_emb.inv_freq.dtype == torch.float32
    assert loaded.to(torch.bfloat16).model.rotary_emb.inv_freq.dtype == torch.bfloat16


def test_transformers_frequencies_are_not_the_correctly_rounded_ones():
    says("Even uncast, transformers' frequencies are not the correctly rounded ones")
    mpmath = pytest.importorskip("mpmath")
    k = np.arange(64)
    exact = [mpmath.power(500000, mpmath.mpf(-2 * int(j)) / 128) for j in k]
    correct = np.array([np.float32(float(e)) for e in exact])
    power = np.array([np.float32(float(mpmath.power(500000, mpmath.mpf(2 * int(j)) / 128)))
                      for j in k])
    twice = np.float32(1.0) / power                  # 1.0 / base ** x: two roundings (IEEE)
    assert int((twice != correct).sum()) == 18


def rot(x, pos):
    """Rows of the 8-wide ``x`` with pairs (2i, 2i+1) turned by pos * omega_i (base 10000)."""
    w = 10000.0 ** (-np.arange(4) * 2 / 8)
    t = np.multiply.outer(np.asarray(pos, float), w)
    c, s = np.cos(t), np.sin(t)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * c - x[:, 1::2] * s
    out[:, 1::2] = x[:, 0::2] * s + x[:, 1::2] * c
    return out


def test_the_cache_holds_the_keys_of_earlier_tokens():
    says("the keys of earlier tokens are read from the KV cache, already rotated")
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 10, 8))
    full = rot(q, range(10)) @ rot(k, range(10)).T
    causal = np.tril(np.ones((10, 10), dtype=bool))
    t = 7                        # the new token's scores use the keys of tokens 0..6 and its own
    cached = rot(k[:t], range(t))
    row = rot(q[t:t + 1], [t]) @ np.concatenate([cached, rot(k[t:t + 1], [t])]).T
    assert np.allclose(row[0], full[t][causal[t]])


def test_pads_counted_into_all_positions_change_no_score():
    says("counting the pad tokens into all positions of a row changes no score")
    from transformers.models.llama.modeling_llama import (LlamaRotaryEmbedding,
                                                          apply_rotary_pos_emb)
    rope = LlamaRotaryEmbedding(small_llama(rope_theta=10000.0))
    q, k = torch.randn(2, 1, 1, 20, 128, dtype=torch.float64)

    def scores(pads):
        cos, sin = rope(q, torch.arange(pads, pads + 20)[None])
        qr, kr = apply_rotary_pos_emb(q, k, cos.double(), sin.double())
        return qr[0, 0] @ kr[0, 0].T

    assert (scores(0) - scores(3)).abs().max() < 1e-4


def test_a_llama_forward_without_position_ids_counts_the_pads():
    says("A Llama or GPT-2 forward without `position_ids` numbers the columns instead, pads included")
    from transformers import LlamaForCausalLM
    model = LlamaForCausalLM(small_llama(intermediate_size=32, num_hidden_layers=1,
                                         num_key_value_heads=2, vocab_size=16)).eval()
    seen = {}

    def record(module, args, kwargs, out):
        seen["ids"] = (args[1] if len(args) > 1 else kwargs["position_ids"]).tolist()

    model.model.rotary_emb.register_forward_hook(record, with_kwargs=True)
    padded = torch.tensor([[0, 0, 0, 5, 6, 7]])
    with torch.no_grad():
        model(padded, attention_mask=(padded != 0).long())
    assert seen["ids"] == [[0, 1, 2, 3, 4, 5]]          # the columns, the 3 pads included


def test_the_pass_through_part_does_not_depend_on_positions():
    says("a pass-through part, which does not depend on positions at all")
    from transformers.models.gpt_neox import modeling_gpt_neox as neox
    config = transformers.GPTNeoXConfig(hidden_size=256, num_attention_heads=2)
    rope = neox.GPTNeoXRotaryEmbedding(config)          # a quarter of each head of 128
    x = torch.randn(1, 1, 1, 128)
    outs = [neox.apply_rotary_pos_emb(x, x, *rope(x, torch.tensor([[m]])))[0]
            for m in (0, 37, 5000)]
    assert all(torch.equal(o[..., 32:], x[..., 32:]) for o in outs)
    assert not torch.equal(outs[1][..., :32], outs[2][..., :32])


def test_llama_config_has_no_rope_theta_attribute():
    says("a `LlamaConfig` has no `rope_theta` attribute")
    config = transformers.LlamaConfig(rope_theta=500000.0)
    assert not hasattr(config, "rope_theta")
    assert config.rope_parameters["rope_theta"] == 500000.0


def test_a_llama_config_read_back_before_the_build_does_not_show_the_top_level_length():
    says("A `LlamaConfig` read back before that does not show it")
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    config = small_llama(max_position_embeddings=65536, original_max_position_embeddings=3072,
                         rope_scaling={"rope_type": "yarn", "factor": 16.0,
                                       "original_max_position_embeddings": 4096})
    assert config.rope_parameters["original_max_position_embeddings"] == 4096
    LlamaRotaryEmbedding(config)
    assert config.rope_parameters["original_max_position_embeddings"] == 3072


def test_gpt_oss_uses_one_base_for_both_kinds_of_layer():
    says("gpt-oss, which also alternates, uses one base for both")
    from transformers.models.gpt_oss import modeling_gpt_oss as oss
    config = transformers.GptOssConfig(num_hidden_layers=2, hidden_size=64,
                                       num_attention_heads=2, num_key_value_heads=1, head_dim=32)
    assert set(config.layer_types) == {"sliding_attention", "full_attention"}
    model = oss.GptOssModel(config)
    assert len([m for m in model.modules() if "RotaryEmbedding" in type(m).__name__]) == 1


def test_a_random_query_key_score_does_not_decay():
    says("The score of a random query with a random key does not:")
    a, b = np.random.default_rng(7).normal(size=(2, 2000, 128))
    w = 10000.0 ** (-np.arange(64) * 2 / 128)

    def mean_size(m):        # key at 0, query m on: a sum over pairs of rotated dot products
        c, s = np.cos(m * w), np.sin(m * w)
        qa, qb, ka, kb = a[:, 0::2], a[:, 1::2], b[:, 0::2], b[:, 1::2]
        return float(np.abs(((qa * c - qb * s) * ka + (qa * s + qb * c) * kb).sum(1)).mean())

    assert mean_size(1000) > 0.8 * mean_size(0)


def test_the_numpy_functions_have_no_autograd():
    says("take one 2-D head in float64, with no autograd")
    from posenc.relative import rotate
    out = rotate(np.ones((3, 8)), 3)
    assert type(out) is np.ndarray and out.dtype == np.float64


def test_a_prompt_prefilled_in_chunks_past_the_length_is_not_recomputed():
    says("a prompt prefilled in chunks past it is not recomputed")
    from transformers import Phi3Config, Phi3ForCausalLM
    torch.manual_seed(0)
    phi3 = Phi3ForCausalLM(Phi3Config(
        hidden_size=32, num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=1,
        intermediate_size=32, vocab_size=16, pad_token_id=0, eos_token_id=0,
        max_position_embeddings=4096, original_max_position_embeddings=64,
        rope_parameters={"rope_type": "longrope", "rope_theta": 10000.0,
                         "short_factor": [1.0] * 8,
                         "long_factor": [float(f) for f in range(1, 9)]})).eval()
    ids = (torch.arange(100) % 15 + 1)[None]

    def prompt_keys_recomputed(chunk):
        out = phi3.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=1,
                            min_new_tokens=1, do_sample=False, return_dict_in_generate=True,
                            prefill_chunk_size=chunk)
        one_pass = phi3(out.sequences[:, :-1]).cache.layers[0].keys[..., :100, :]
        return bool(torch.allclose(out.cache.layers[0].keys[..., :100, :], one_pass, atol=1e-6))

    assert prompt_keys_recomputed(None)          # prefilled whole: the long list throughout
    assert not prompt_keys_recomputed(32)        # in chunks of 32: the first keep the short list


def test_dynamic_ntk_is_restored_below_the_trained_length_and_not_between():
    says("It is restored when that length is below the trained length, and not when it lies "
         "between the trained length and the longest before it")
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    rope = LlamaRotaryEmbedding(small_llama(max_position_embeddings=4096,
                                            rope_scaling={"rope_type": "dynamic", "factor": 2.0}))

    def restored(lo, hi):
        rope(torch.zeros(1), torch.arange(lo, hi)[None])
        return torch.equal(rope.inv_freq, rope.original_inv_freq)

    assert not restored(0, 8192)                 # grown
    assert not restored(6000, 6001)              # one token at 6000: length 6001, between
    assert not restored(0, 4096)                 # length 4096: not below it
    assert restored(0, 4095)


def test_the_new_token_must_be_rotated_at_its_true_position():
    says("So the new token must be rotated at its true position")
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(2, 9, 8))
    keys = rot(k, range(9))
    full = rot(q[8:], [8]) @ keys.T
    assert not np.allclose(rot(q[8:], [0]) @ keys.T, full)     # another position: other scores
    assert np.allclose(rot(q[8:], [8]) @ keys.T, full)


def test_dropout_is_applied_once_to_the_sum():
    says("Dropout is applied once, to the vector the first layer reads, so one mask covers both")
    torch.manual_seed(0)
    token, position = torch.randn(64, 32), torch.randn(64, 32)
    dropped = torch.nn.Dropout(p=0.5)(token + position)          # once, on the sum
    gone = dropped == 0
    assert gone.any() and torch.equal(gone, (dropped - 0 * token) == 0)
    # a coordinate dropped from the sum is dropped for the token and the position alike: what
    # survives is (token + position) / (1 - p) there, nothing of either elsewhere
    assert torch.allclose(dropped[~gone], 2 * (token + position)[~gone])
