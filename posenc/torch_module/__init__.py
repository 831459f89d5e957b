"""PyTorch modules that add positions to token embeddings.

* :class:`SinusoidalPositionalEncoding`: the fixed table of Vaswani et al. (2017), section 3.5,
  with each entry rounded once from float64 to the input's dtype; positions per row, padding,
  and the tensor2tensor/fairseq/Hugging Face conventions as options.
* :class:`LearnedPositionalEmbedding`: a trainable ``nn.Embedding`` table (BERT and GPT-2 style).
* :class:`RotaryEmbedding` (:mod:`.rotary`): RoPE on queries and keys, with any of
  :mod:`posenc.scaling`'s frequencies, for a model and its KV-cache decode loop.
* :class:`TransformersRotaryEmbedding` (:mod:`.hf`): the same RoPE as a transformers model's
  ``rotary_emb``, a drop-in.
* :func:`alibi_bias` (:mod:`.alibi`): ALiBi's attention bias, causal or not, with a KV cache.

This and the lab (:mod:`posenc.lab`) are the parts of ``posenc`` that import torch;
import it explicitly::

    from posenc.torch_module import SinusoidalPositionalEncoding

Derived in the chapter "What must a PyTorch module for the encoding get right?"
(docs/chapters/11-a-pytorch-module.md).
"""

try:
    import torch  # noqa: F401
except ModuleNotFoundError as exc:  # pragma: no cover - exercised in a venv without torch
    raise ModuleNotFoundError(
        "posenc.torch_module needs PyTorch: pip install 'posenc[torch]' (the CPU build is "
        "enough; see the README). The rest of posenc, but the lab, works without it.",
        name="torch") from exc

from .alibi import alibi_bias, alibi_slopes
from .checks import check_input
from .hf import TransformersRotaryEmbedding
from .learned import LearnedPositionalEmbedding
from .rotary import RotaryEmbedding, apply_rotary, rope_cos_sin
from .sinusoidal import SinusoidalPositionalEncoding
from .table import build_table, round_to_16_bit, round_to_odd_float32, ties

__all__ = ["SinusoidalPositionalEncoding", "LearnedPositionalEmbedding", "RotaryEmbedding",
           "TransformersRotaryEmbedding", "apply_rotary", "rope_cos_sin", "alibi_bias",
           "alibi_slopes", "build_table", "round_to_16_bit", "round_to_odd_float32", "ties",
           "check_input"]
