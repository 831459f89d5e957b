"""Checks of the p10t review (issue 38, pass 3 of the torch modules' docstrings): each fails on
the text or code before the fix."""

import inspect
import warnings

import pytest
import torch

from posenc.torch_module import rope_config
from posenc.torch_module.hf import TransformersRotaryEmbedding
from posenc.torch_module.rotary import RotaryEmbedding
from posenc.torch_module.sinusoidal import SinusoidalPositionalEncoding


def test_p1_extra_repr_shows_a_non_default_offset_and_the_odd_policy():
    """offset=0 beside padding_idx=1 is not the default (2): the repr must show it; the odd
    policy changes the table of an odd width, so it is shown there."""
    assert "offset=0" in SinusoidalPositionalEncoding(4, padding_idx=1, offset=0).extra_repr()
    assert "offset=2" in SinusoidalPositionalEncoding(4, padding_idx=1).extra_repr()
    assert "offset" not in SinusoidalPositionalEncoding(4).extra_repr()
    zero, drop = (SinusoidalPositionalEncoding(5, odd=odd).extra_repr()
                  for odd in ("zero_pad", "drop_last"))
    assert zero != drop and "odd='drop_last'" in drop
    doc = SinusoidalPositionalEncoding.extra_repr.__doc__
    assert "only when they are not the default" not in doc and "not 0 or" in doc


@pytest.mark.parametrize("dtype", [torch.int16, torch.int8, torch.uint8])
def test_p2_small_integer_positions_index_the_cache(dtype):
    """rotary's positions check accepts int16 and int8; they failed in torch's indexing
    (IndexError naming no argument), and uint8 position ids indexed as a mask in hf."""
    rope = RotaryEmbedding(8)
    ids = torch.tensor([[0, 1, 5]])
    assert torch.equal(rope.cos_sin(ids.to(dtype))[0], rope.cos_sin(ids)[0])
    q = torch.randn(1, 2, 3, 8)
    if dtype != torch.uint8:
        assert torch.equal(rope(q, q, ids.to(dtype))[0], rope(q, q, ids)[0])
    from transformers import LlamaConfig
    hf = TransformersRotaryEmbedding(LlamaConfig(hidden_size=32, num_attention_heads=4))
    x = torch.zeros(1, 3, 32)
    assert torch.equal(hf(x, ids.to(dtype))[0], hf(x, ids)[0])


def test_p2_position_dtype_errors_name_what_is_accepted():
    q = torch.zeros(1, 1, 2, 4)
    with pytest.raises(TypeError, match=r"torch\.long, torch\.int32, torch\.int16 or torch\.int8"):
        RotaryEmbedding(4)(q, q, torch.tensor([[0.0, 1.0]]))
    from transformers import LlamaConfig
    hf = TransformersRotaryEmbedding(LlamaConfig(hidden_size=32, num_attention_heads=4))
    with pytest.raises(TypeError, match="position_ids must be an integer tensor.*bool"):
        hf(torch.zeros(1, 2, 32), torch.tensor([[True, False]]))


@pytest.mark.parametrize("offset", [torch.tensor(-3), torch.tensor([0, -3])])
def test_p3_negative_tensor_offset_names_offset(offset):
    q = torch.zeros(2, 1, 2, 4)
    with pytest.raises(ValueError, match=r"^offset must be >= 0"):
        RotaryEmbedding(4)(q, q, offset=offset)


def test_p4_a_new_rope_type_needs_both_test_cases():
    """tests/package/test_torch_rotary.py::test_every_rope_type_has_a_test_case asks for a case in
    CONFIGS and in test_hf_recipe.py's CASES: the docstrings name both."""
    doc = rope_config.__doc__
    assert "CONFIGS" in doc and "tests/package/test_hf_recipe.py" in doc and "CASES" in doc
    source = inspect.getsource(rope_config)
    assert "one entry here and its test case" not in source
    assert "one entry here and one test case" not in " ".join(doc.split())


@pytest.mark.parametrize("name", ["Llama", "Phi3"])
def test_p5_partial_rotary_factor_as_the_model_reads_it(name):
    """Llama's default rope ignores partial_rotary_factor (rotates the whole head), Phi3's
    applies it: the swap matches the model's logits in both (it crashed for Llama)."""
    import transformers
    config = getattr(transformers, f"{name}Config")(
        vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
        num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=128,
        pad_token_id=0, rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                         "partial_rotary_factor": 0.5})
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = transformers.AutoModelForCausalLM.from_config(config).eval()
    ids = torch.randint(1, 64, (2, 10))
    with torch.no_grad():
        before = model(ids).logits
        model.base_model.rotary_emb = TransformersRotaryEmbedding(model.config)
        assert float((model(ids).logits - before).abs().max()) < 1e-6
    assert "Llama's" in TransformersRotaryEmbedding.__doc__
