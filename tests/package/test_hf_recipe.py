"""posenc's rotary inside a transformers model (issue 40 item 4): the recipe of
:class:`posenc.torch_module.hf.TransformersRotaryEmbedding` (``model.base_model.rotary_emb =
TransformersRotaryEmbedding(model.config)``), checked against the unpatched model, transformers
5.24.0.

Tiny random models are built here (no download; 2 layers, head_dim 16, seeded): Llama for the
rope types default, linear, dynamic, yarn (truncate True, and False with mscale), llama3 and
longrope; Phi3 and GPT-NeoX for partial rotary. For each, in float32 and bfloat16, the runs
compare logits and greedy tokens with the model's own rotary module:

* a prefill of 40 tokens, then 36 and 20 on the same modules (dynamic NTK keeps 40's base, then
  goes back to the original one);
* a left-padded batch of 28 (rows of 28 and 17 tokens);
* ``generate`` from it with a KV cache, 10 tokens: the positions cross the original length 32,
  so dynamic's base and LongRoPE's list change between decode steps, as the module picks them;
  the caller sets nothing.

Tolerances (``TOLERANCE``, the largest logit difference; the logits are up to about 0.6):

* float32, 1e-6: posenc takes the angles ``pos * omega`` in float64 and rounds cos and sin once;
  transformers multiplies in float32, so its angles are off by about ``pos * omega * 2**-24``
  plus its ``inv_freq``'s rounding. Over positions 0 .. 39 the two modules' cos and sin differ by
  less than 1e-6 (``test_the_tolerances_come_from_the_cos_sin_tables``); the logits differ by
  about 2e-7 (a few float32 steps).
* bfloat16, 0 (the same bits): both round their float32 cos and sin to bfloat16, 8 significant
  bits, and over positions 0 .. 39 no entry lies within their difference of a rounding boundary:
  the tables are the same bits (the same test), so the model computes the same logits. At longer
  positions some entries round apart (item 5, ``tests/package/test_hf_differences.py``).

The model's own rotary module is built again after the bfloat16 cast, as ``from_pretrained(...,
dtype=torch.bfloat16)`` leaves it (float32 ``inv_freq``): ``model.to(torch.bfloat16)`` rounds that
buffer (chapter 16); posenc's frequencies are not a buffer.
"""

from __future__ import annotations

import pytest
import torch

transformers = pytest.importorskip("transformers")
from transformers import (GPTNeoXConfig, GPTNeoXForCausalLM, LlamaConfig,  # noqa: E402
                          LlamaForCausalLM, Phi3Config, Phi3ForCausalLM)

from posenc.torch_module.hf import TransformersRotaryEmbedding  # noqa: E402

VOCAB, HIDDEN, HEADS, ORIGINAL = 96, 64, 4, 32          # head_dim 16, 8 pairs
LONGROPE = {"short_factor": [1.0 + 0.05 * i for i in range(8)],
            "long_factor": [1.0 + 0.5 * i for i in range(8)]}
CASES = {   # name: (model family, rope_parameters, max_position_embeddings)
    "default": ("llama", {"rope_type": "default"}, 128),
    "linear": ("llama", {"rope_type": "linear", "factor": 2.0}, 128),
    "dynamic": ("llama", {"rope_type": "dynamic", "factor": 2.0}, ORIGINAL),
    "yarn": ("llama", {"rope_type": "yarn", "factor": 4.0,
                       "original_max_position_embeddings": ORIGINAL}, 128),
    "yarn-untruncated": ("llama", {"rope_type": "yarn", "factor": 4.0, "truncate": False,
                                   "mscale": 1.0, "mscale_all_dim": 0.5, "beta_fast": 16.0,
                                   "original_max_position_embeddings": ORIGINAL}, 128),
    "llama3": ("llama", {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                         "high_freq_factor": 4.0, "original_max_position_embeddings": ORIGINAL},
               128),
    "longrope": ("llama", {"rope_type": "longrope", **LONGROPE,
                           "original_max_position_embeddings": ORIGINAL}, 128),
    "partial": ("phi3", {"rope_type": "default", "partial_rotary_factor": 0.5}, 128),
    "partial-neox": ("gpt_neox", {"rope_type": "default", "partial_rotary_factor": 0.25}, 128),
}
TOLERANCE = {torch.float32: 1e-6, torch.bfloat16: 0.0}
"""The largest logit difference allowed (logits up to about 0.6 here); see the module doc."""


def build(family, params, max_positions, dtype):
    common = dict(vocab_size=VOCAB, hidden_size=HIDDEN, intermediate_size=2 * HIDDEN,
                  num_hidden_layers=2, num_attention_heads=HEADS, num_key_value_heads=2,
                  max_position_embeddings=max_positions, rope_parameters=dict(params),
                  pad_token_id=0, eos_token_id=None, bos_token_id=None)
    torch.manual_seed(0)
    if family == "gpt_neox":                 # its rotary_emb is model.gpt_neox.rotary_emb
        for key in ("num_key_value_heads", "pad_token_id"):
            common.pop(key)
        model = GPTNeoXForCausalLM(GPTNeoXConfig(**common, hidden_dropout=0.0,
                                                 attention_dropout=0.0))
    elif family == "phi3":
        model = Phi3ForCausalLM(Phi3Config(**common, resid_pdrop=0.0, embd_pdrop=0.0,
                                           attention_dropout=0.0))
    else:
        model = LlamaForCausalLM(LlamaConfig(**common))
    return model.to(dtype).eval()


def own_rotary(model):
    """The model's own rotary module, fresh (float32 inv_freq, no dynamic state)."""
    return type(model.base_model.rotary_emb)(model.config)


def runs(model, rotary):
    """Logits and tokens of the three runs, each on a fresh module from ``rotary()``."""
    out = {}
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(1, VOCAB, (2, 40), generator=g)
    with torch.no_grad():
        model.base_model.rotary_emb = rotary()
        out["prefill"] = model(ids).logits
        out["then 36 tokens"] = model(ids[:, :36]).logits     # dynamic keeps 40's frequencies
        out["then 20 tokens"] = model(ids[:, :20]).logits     # dynamic resets
        mask = torch.ones(2, 28, dtype=torch.long)
        mask[1, :11] = 0                                   # row 1: 17 tokens, left-padded
        short = ids[:, :28].masked_fill(mask == 0, 0)
        positions = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 0)
        model.base_model.rotary_emb = rotary()
        out["left-padded"] = model(short, attention_mask=mask,
                                   position_ids=positions).logits * mask[..., None]
        model.base_model.rotary_emb = rotary()
        gen = model.generate(short, attention_mask=mask, max_new_tokens=10, do_sample=False,
                             min_new_tokens=10, output_logits=True,
                             return_dict_in_generate=True, pad_token_id=0)
        out["generate"] = torch.stack(gen.logits, 1)
        out["generate tokens"] = gen.sequences
    return out


def compare(model):
    """The largest logit difference per run, and whether the greedy tokens agree."""
    want = runs(model, lambda: own_rotary(model))
    got = runs(model, lambda: TransformersRotaryEmbedding(model.config))
    gaps = {key: float((got[key].float() - want[key].float()).abs().max())
            for key in want if key != "generate tokens"}
    same = {key: torch.equal(got[key].argmax(-1), want[key].argmax(-1))
            for key in want if key != "generate tokens"}
    same["generate tokens"] = torch.equal(got["generate tokens"], want["generate tokens"])
    return gaps, same


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("name", list(CASES))
def test_the_recipe_gives_the_unpatched_model_logits_and_tokens(name, dtype):
    """Prefill, a left-padded batch and generate with a KV cache: the same greedy tokens, and
    logits within TOLERANCE[dtype] (bfloat16: the same bits)."""
    model = build(*CASES[name], dtype)
    gaps, same = compare(model)
    assert all(same.values()), same
    assert max(gaps.values()) <= TOLERANCE[dtype], gaps


@pytest.mark.parametrize("name", list(CASES))
def test_the_tolerances_come_from_the_cos_sin_tables(name):
    """Why TOLERANCE: over the positions the runs use (0 .. 39), the float32
    cos and sin of the two modules differ by less than 1e-6 (transformers' float32 angles), and
    their bfloat16 ones are the same bits, so bfloat16 logits can be too."""
    model = build(*CASES[name], torch.float32)
    positions = torch.arange(40)[None]
    for dtype, most in ((torch.float32, 1e-6), (torch.bfloat16, 0.0)):
        x = torch.zeros(1, 1, 1, dtype=dtype)
        want = own_rotary(model)(x, positions)
        got = TransformersRotaryEmbedding(model.config)(x, positions)
        for a, b in zip(got, want):
            assert a.dtype == b.dtype == dtype and a.shape == b.shape
            assert float((a.float() - b.float()).abs().max()) <= most, (dtype, name)  # at most


def test_compiled_fullgraph_where_the_frequencies_do_not_depend_on_the_length():
    """torch.compile(fullgraph=True) (eager backend, dynamic shapes) gives the eager module's
    bits for yarn; dynamic, whose frequencies follow the largest position id, is refused."""
    def rotary(name):
        family, params, max_positions = CASES[name]
        config = LlamaConfig(hidden_size=HIDDEN, num_attention_heads=HEADS,
                             max_position_embeddings=max_positions,
                             rope_parameters=dict(params))
        return TransformersRotaryEmbedding(config)

    eager = rotary("yarn")
    compiled = torch.compile(eager, fullgraph=True, backend="eager", dynamic=True)
    for n in (5, 9):
        x, positions = torch.zeros(1, dtype=torch.bfloat16), torch.arange(n)[None]
        for a, b in zip(compiled(x, positions), eager(x, positions)):
            assert torch.equal(a, b)
    with pytest.raises(Exception, match="data-dependent"):
        torch.compile(rotary("dynamic"), fullgraph=True, backend="eager", dynamic=True)(
            torch.zeros(1), torch.arange(5)[None])
    assert "``torch.compile(fullgraph=True)`` the other types trace whole" in \
        " ".join(TransformersRotaryEmbedding.__doc__.split())
