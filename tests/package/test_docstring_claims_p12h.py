"""Pass 5 (p12h) of the torch modules' docstrings: each case fails on the code before the fix."""

import inspect
import logging

import pytest
import torch

transformers = pytest.importorskip("transformers")

from posenc.torch_module import hf  # noqa: E402
from posenc.torch_module.hf import TransformersRotaryEmbedding  # noqa: E402
from posenc.torch_module.rotary import RotaryEmbedding  # noqa: E402

LLAMA = dict(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
             num_attention_heads=4, max_position_embeddings=64)
MODULE = " ".join(inspect.getdoc(hf).split())
NOTES = " ".join(inspect.getdoc(TransformersRotaryEmbedding).split())


def test_f1_built_under_the_meta_device():
    """p11t's construction check ran under the default device: built inside
    ``with torch.device("meta")`` (big-model init) it raised "Tensor.item() cannot be called on
    meta tensors"; before that fix it built. The refusal still holds there."""
    with torch.device("meta"):
        model = transformers.LlamaForCausalLM(transformers.LlamaConfig(**LLAMA))
        model.model.rotary_emb = TransformersRotaryEmbedding(model.config)
        with pytest.raises(ValueError, match=r"^config: the model's own CohereRotaryEmbedding"):
            TransformersRotaryEmbedding(transformers.CohereConfig(**LLAMA))
    model.to_empty(device="cpu")
    assert model(torch.randint(64, (1, 5))).logits.shape == (1, 5, 64)


def test_f2_three_row_position_ids_are_refused():
    """A multimodal-RoPE text model (Qwen2-VL's, default config: no mrope_section key) passes
    (3, batch, seq) ids; posenc returned (3, batch, seq, d) where the model's class returns
    (batch, seq, d), and the swapped model crashed in o_proj ("mat1 and mat2 shapes cannot be
    multiplied (10x768 and 256x256)")."""
    config = transformers.Qwen2VLTextConfig(vocab_size=64, hidden_size=256,
                                            intermediate_size=64, num_hidden_layers=1,
                                            num_attention_heads=2, num_key_value_heads=2,
                                            max_position_embeddings=128)
    torch.manual_seed(0)
    model = transformers.AutoModel.from_config(config).eval()
    ids = torch.randint(64, (1, 10))
    model.rotary_emb = TransformersRotaryEmbedding(model.config)
    with pytest.raises(ValueError, match=r"^position_ids must be \(batch, seq\), got shape "
                                         r"\(3, 1, 10\): the three rows of a multimodal RoPE"):
        model(input_ids=ids)
    assert "and ``(3, batch, seq)`` position ids (Qwen2-VL's multimodal RoPE)" in MODULE


@pytest.mark.parametrize("model_type, words", [
    ("gpt_oss", r"shape \(4, 32\) \(torch.float32\)"),             # half-width cos
    ("llama4_text", r"shape \(64,\) \(torch.complex64\)"),         # complex freqs_cis
    ("cohere", r"position 1 \['0.5403', '0.5403', "),               # interleaved pairs
])
def test_f3_the_refusal_says_what_differs(model_type, words):
    """The message named Cohere's interleaving as the cause for every refused class, GPT-OSS's
    half-width cos and Llama 4's complex table included."""
    with pytest.raises(ValueError) as info:
        TransformersRotaryEmbedding(transformers.AutoConfig.for_model(model_type))
    message = str(info.value)
    assert message.startswith("config: the model's own ") and "Cohere's interleave" not in message
    assert __import__("re").search(words, message), message


def test_f4_a_model_own_key_is_read_silently(caplog):
    """Notes: transformers "logs a warning and drops the key" for a key posenc does not know;
    a model's own key (Qwen2-VL's mrope_section, in its ignore_keys_at_rope_validation) gets no
    warning and is read by the model's rotary class."""
    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding
    params = {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [2, 1, 1]}
    with caplog.at_level(logging.WARNING):
        config = transformers.Qwen2VLTextConfig(hidden_size=64, num_attention_heads=8,
                                                rope_parameters=dict(params))
    assert "Unrecognized keys" not in caplog.text
    assert Qwen2VLRotaryEmbedding(config).mrope_section == [2, 1, 1]
    with pytest.raises(ValueError, match="'mrope_section': not a key of rope_type 'default'"):
        TransformersRotaryEmbedding(config)
    assert "(transformers warns and ignores it, but reads a model's own key, Qwen2-VL's " \
           "``mrope_section``, silently)" in NOTES
    assert "logs a warning and drops the key" not in NOTES


def test_f5_meta_forward_as_transformers():
    """A meta-device forward (shapes only) runs through transformers' rotary class; posenc's
    raised "Tensor.item() cannot be called on meta tensors"."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    config = transformers.LlamaConfig(**LLAMA)
    x, ids = torch.zeros(2, 5, 32, device="meta"), torch.arange(5, device="meta")[None]
    with torch.device("meta"):
        want = LlamaRotaryEmbedding(config)(x, ids)
    got = TransformersRotaryEmbedding(config)(x, ids)
    assert [(t.shape, t.device.type) for t in got] == [(t.shape, t.device.type) for t in want]
    q = torch.zeros(2, 4, 5, 8, device="meta")
    rq, rk = RotaryEmbedding(8)(q, q, torch.arange(5, device="meta"))
    assert rq.shape == q.shape and rq.is_meta


# Sentences whose word flip passed every test (each flipped text is false); bound here.
def _doc(obj):
    return " ".join(inspect.getdoc(obj).split())


def test_f6_axes_before_and_after_transformers_transpose():
    """AXES: "bhsd" is what transformers' attention holds after its .transpose(1, 2), "bshd"
    before it (flash-attn's layout: transformers transposes back before calling it)."""
    from transformers.integrations import flash_attention
    from transformers.models.llama import modeling_llama
    from posenc.torch_module import rotary
    source = inspect.getsource(modeling_llama.LlamaAttention.forward)
    assert "hidden_shape = (*input_shape, -1, self.head_dim)" in source          # (b, s, h, d)
    assert "self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)" in source
    assert "query = query.transpose(1, 2)" in inspect.getsource(flash_attention)
    doc = " ".join(inspect.getsource(rotary).split('AXES = ("bhsd", "bshd")')[1]
                   .split('"""')[1].split())                               # AXES' docstring
    assert "hold after their ``.transpose(1, 2)``); ``\"bshd\"`` is ``(batch, seq, heads, " \
           "head_dim)`` (before it; flash-attn's layout)" in doc


def test_f7_k_may_have_fewer_heads_not_more():
    rope = RotaryEmbedding(8)
    q = torch.randn(1, 4, 3, 8)
    assert rope(q, q[:, :2])[1].shape == (1, 2, 3, 8)                         # fewer: GQA
    with pytest.raises(ValueError, match="k's heads must divide q's"):
        rope(q, torch.randn(1, 8, 3, 8))                                     # more: refused
    assert "``k`` may have fewer heads (grouped-query attention)" in _doc(RotaryEmbedding.forward)


def test_f8_alibi_masks_keys_after_the_query():
    from posenc.torch_module.alibi import alibi_bias
    bias = alibi_bias(2, 4)[0, 0]
    after = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)                  # key j > query i
    assert (bias[after] == torch.finfo(torch.float32).min).all()
    assert (bias[~after] > torch.finfo(torch.float32).min).all()
    assert "causal: keys after the query get the dtype's lowest value" in _doc(alibi_bias)


def test_f9_generate_numbers_padding_0():
    from posenc.torch_module.checks import looks_like_attention_mask
    mask = torch.tensor([[0, 0, 0, 1, 1], [1, 1, 1, 1, 1]])
    ids = torch.ones_like(mask)
    positions = transformers.LlamaForCausalLM._prepare_position_ids_for_generation(
        None, ids, {"attention_mask": mask})
    assert positions.tolist() == [[0, 0, 0, 0, 1], [0, 1, 2, 3, 4]]
    assert not looks_like_attention_mask(positions)
    assert "transformers' ``generate`` (5.24.0) sets the padding's to 0, so a left-padded row " \
           "reads ``0, 0, 0, 1, ...``" in _doc(looks_like_attention_mask)


def test_f10_llama_default_rope_ignores_partial_rotary_factor():
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    from transformers.models.stablelm.modeling_stablelm import StableLmRotaryEmbedding
    params = {"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.5}
    llama = transformers.LlamaConfig(hidden_size=32, num_attention_heads=4,
                                     rope_parameters=dict(params))
    stablelm = transformers.StableLmConfig(hidden_size=32, num_attention_heads=4,
                                           rope_parameters=dict(params))
    ids = torch.arange(3)[None]
    assert LlamaRotaryEmbedding(llama)(torch.zeros(1), ids)[0].shape[-1] == 8      # ignores
    assert StableLmRotaryEmbedding(stablelm)(torch.zeros(1), ids)[0].shape[-1] == 4  # reads
    assert TransformersRotaryEmbedding(llama)(torch.zeros(1), ids)[0].shape[-1] == 8
    assert "except where the model's own default rope ignores it, as Llama's" in NOTES


def test_f11_dynamic_keeps_the_longest_length():
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    config = transformers.LlamaConfig(hidden_size=32, num_attention_heads=4,
                                      max_position_embeddings=128,
                                      rope_parameters={"rope_type": "dynamic", "factor": 2.0,
                                                       "rope_theta": 1e4})
    theirs, ours = LlamaRotaryEmbedding(config), TransformersRotaryEmbedding(config)
    for length in (300, 200):                      # 200 after 300: 300's frequencies kept
        ids = torch.arange(length)[None]
        want, got = theirs(torch.zeros(1), ids)[1], ours(torch.zeros(1), ids)[1]
        assert torch.allclose(want, got, atol=1e-4)
    assert theirs.max_seq_len_cached == ours.max_seq_len_cached == 300
    assert "``dynamic`` keeps the longest length seen" in NOTES


# Second flip batch (sinusoidal, rotary Notes, tables): each flipped text false, every test passed.
def test_f12_padding_tokens_get_a_zero_row():
    from posenc.torch_module import SinusoidalPositionalEncoding
    pe = SinusoidalPositionalEncoding(8, 32, padding_idx=1)
    tokens = torch.tensor([[1, 1, 5, 6], [5, 6, 7, 8]])
    out = pe(torch.zeros(2, 4, 8), tokens=tokens)
    assert (out[0, :2] == 0).all() and (out[0, 2:] != 0).any()
    assert "gives padding tokens a zero row" in _doc(SinusoidalPositionalEncoding)


def test_f13_fairseq_numbers_the_first_token_padding_idx_plus_1():
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding
    from posenc.torch_module import SinusoidalPositionalEncoding
    ids = torch.tensor([[1, 1, 5, 6, 7]])
    positions = M2M100SinusoidalPositionalEmbedding.create_position_ids_from_input_ids(ids, 1)
    assert positions.tolist() == [[1, 1, 2, 3, 4]]                      # first token: 1 + 1
    assert SinusoidalPositionalEncoding(8, 32, padding_idx=1).offset == 2
    assert "(fairseq numbers the first token ``padding_idx + 1``)" in _doc(
        SinusoidalPositionalEncoding)


def test_f14_the_table_is_no_buffer_ddp_could_broadcast():
    """DDP broadcasts parameters and buffers; the sinusoidal table is neither."""
    from posenc.torch_module import SinusoidalPositionalEncoding
    pe = SinusoidalPositionalEncoding(8, 32)
    assert list(pe.buffers()) == [] and list(pe.parameters()) == [] and pe.state_dict() == {}
    assert "DDP does not broadcast it" in _doc(SinusoidalPositionalEncoding)


def test_f15_half_cannot_cast_the_rotary_cache():
    rope = RotaryEmbedding(8)
    q = torch.zeros(1, 1, 3, 8)
    rope(q, q)
    rope.half()
    assert {t.dtype for entry in rope._cache.values() for t in entry} == {torch.float32}
    assert "``.half()`` cannot cast it and ``state_dict()`` leaves it out" in _doc(RotaryEmbedding)


def test_f16_a_cast_builds_the_table_never_casts_another():
    from posenc.torch_module import SinusoidalPositionalEncoding
    from posenc.torch_module.sinusoidal_tables import SinusoidalTables
    from posenc.torch_module.table import build_table
    pe = SinusoidalPositionalEncoding(512, 5000).to(torch.bfloat16)
    built = build_table(5000, 512, dtype=torch.bfloat16)
    cast = pe.table(torch.float32).to(torch.bfloat16)                    # rounds twice
    assert torch.equal(pe.table(torch.bfloat16), built) and not torch.equal(built, cast)
    assert "never cast from another table" in " ".join(
        inspect.getdoc(SinusoidalTables._apply).split())


def test_f17_16_bit_tiles_hold_at_least_64_rows():
    from posenc import fast
    from posenc.torch_module import table
    assert fast.BLOCK == 64
    assert max(fast.BLOCK, table.CHUNK_ENTRIES // 100_000 // fast.BLOCK * fast.BLOCK) == 64
    assert "entries, at least 64 rows)" in " ".join(inspect.getdoc(table).split())
