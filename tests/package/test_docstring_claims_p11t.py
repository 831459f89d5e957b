"""Pass 4 (p11t) of the torch modules' docstrings: each case fails on the code before the fix."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from posenc.torch_module.hf import TransformersRotaryEmbedding  # noqa: E402
from posenc.torch_module.rotary import RotaryEmbedding  # noqa: E402

SMALL = dict(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
             num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=128,
             pad_token_id=0, bos_token_id=1, eos_token_id=2)


@pytest.mark.parametrize("name", ["CohereConfig", "Cohere2Config"])
def test_p1_interleaved_rotary_is_refused(name):
    """Cohere's rotary interleaves the pairs: a [cos | cos] drop-in rotated silently wrong."""
    config = getattr(transformers, name)(**SMALL)
    with pytest.raises(ValueError, match=r"^config: the model's own Cohere2?RotaryEmbedding"):
        TransformersRotaryEmbedding(config)


@pytest.mark.parametrize("config_name, model_name", [("AriaTextConfig", "AriaTextForCausalLM"),
                                                     ("Emu3TextConfig", "Emu3ForCausalLM"),
                                                     ("LlamaConfig", "LlamaForCausalLM")])
def test_p1_model_type_other_than_its_module(config_name, model_name):
    """aria_text and emu3_text_model live in models/aria and models/emu3: the width rule of
    their default rope (it ignores partial_rotary_factor) was not found, and the swap crashed."""
    config = getattr(transformers, config_name)(
        **SMALL, head_dim=8, rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                              "partial_rotary_factor": 0.5})
    torch.manual_seed(0)
    model = getattr(transformers, model_name)(config).eval()
    ids = torch.randint(64, (2, 12))
    with torch.no_grad():
        before = model(ids).logits
        model.model.rotary_emb = TransformersRotaryEmbedding(model.config)
        after = model(ids).logits
    assert (after - before).abs().max() < 1e-6


@pytest.mark.parametrize("positions, got", [(torch.tensor([[True, False]]), "torch.bool"),
                                            (torch.tensor([[0.0, 2.9]]), "torch.float32"),
                                            ([0, 1], "list")])
def test_p2_cos_sin_refuses_non_integer_positions(positions, got):
    """cos_sin read a mask as positions 1, 0 and truncated 2.9 to 2, silently."""
    with pytest.raises(TypeError, match=f"^positions must be an integer tensor, got {got}$"):
        RotaryEmbedding(4).cos_sin(positions)
