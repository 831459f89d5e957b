"""posenc's RoPE inside a Hugging Face ``transformers`` model: a drop-in for the model's
``rotary_emb`` (checked against transformers 5.24.0 in ``tests/package/test_hf_recipe.py``).

A transformers decoder such as Llama, Phi3 or GPT-NeoX computes its rotary cos and sin once per
forward pass, in ``model.base_model.rotary_emb(hidden_states, position_ids)`` (``model.model``
for Llama and Phi3, ``model.gpt_neox`` for GPT-NeoX), and hands them to every layer's
``apply_rotary_pos_emb``. :class:`TransformersRotaryEmbedding` returns the same two
tensors from posenc's float64 angles, so swapping it in changes nothing else in the model; it
refuses a config whose model's own rotary class gives other cos at positions 0 to 3 (Cohere's
interleaved pairs), and ``(3, batch, seq)`` position ids (Qwen2-VL's multimodal RoPE).
"""

from __future__ import annotations

import importlib

import torch
from torch import nn

from .checks import NotScriptable
from .rotary import RotaryEmbedding


def _own_cos(config):
    """``(name, cos)``: the model's own rotary class (in the modeling module beside the config's
    class, else the one ``model_type`` names) and its cos at positions 0 to 3, or
    ``(None, None)`` when none can be built and run."""
    names = [type(config).__module__.replace(".configuration_", ".modeling_"),
             f"transformers.models.{getattr(config, 'model_type', '')}.modeling_"
             f"{getattr(config, 'model_type', '')}"]
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception:                # noqa: BLE001 (a model type of another package)
            continue
        for key, cls in vars(module).items():
            if key.endswith("RotaryEmbedding") and getattr(cls, "__module__", "") == name \
                    and hasattr(cls, "compute_default_rope_parameters"):
                try:
                    return key, cls(config)(torch.zeros(1), torch.arange(4)[None])[0][0]
                except Exception:        # noqa: BLE001 (another sub-model's rotary class)
                    continue
    return None, None


class TransformersRotaryEmbedding(NotScriptable, nn.Module):
    """posenc's rotary as a transformers model's ``rotary_emb``: ``forward(x, position_ids)``
    returns ``(cos, sin)``, each ``(batch, seq, rotary_dim)`` in ``x.dtype``, in transformers'
    ``[cos | cos]`` layout, with the attention factor folded in, as the model's own
    ``LlamaRotaryEmbedding`` (or ``Phi3RotaryEmbedding``, ...) does.

    Built from the model's config, read by :meth:`RotaryEmbedding.from_rope_parameters`
    (each ``rope_type`` of :data:`~posenc.torch_module.rope_config.ROPE_TYPES`;
    ``partial_rotary_factor``, except where the model's own default rope ignores it, as Llama's,
    Mistral's, Qwen2's and Aria's text model's do in transformers 5.24.0).
    The two types whose frequencies depend on the length follow transformers' rule at each call,
    from the largest position id + 1: ``dynamic`` keeps the longest length seen (and goes back to
    the original frequencies when a call is shorter than ``max_position_embeddings``),
    ``longrope`` takes its long factors past ``original_max_position_embeddings`` and its short
    ones otherwise. Under ``torch.compile(fullgraph=True)`` the
    other types trace whole; these two read the largest position id as a number, which a full
    graph refuses (``tests/package/test_hf_recipe.py``).

    Parameters
    ----------
    config : transformers.PretrainedConfig
        The model's config (``model.config``); a per-layer-type ``rope_parameters`` (Gemma 3)
        is refused.
    max_len : int, default 2048
        Passed to :class:`RotaryEmbedding` (its cache's least first length).

    Notes
    -----
    Where it differs from transformers 5.24.0 (each measured in ``tests/package/test_hf_differences.py``):

    * Long positions. posenc takes the angles in float64, transformers in float32, whose error
      grows with the position. At head_dim 128 (base 10000) their float32 cos and sin differ by
      up to 0.0077 over positions 0 to 131071, by more than 1e-3 from about position 18000;
      posenc's are within half a float32 step (3e-8) of float64 cosines. A tiny Llama's float32
      logits differ by 6e-5 at positions 131032 to 131071, and by less than 1e-6 at 0 to 39.
    * Rounding. Both round float32 cos and sin to bfloat16, but from float32 values that differ:
      at head_dim 128, 6.5% of the bfloat16 entries over positions 0 to 131071 round to other
      values, by up to 0.0078, the first before position 100. The tiny Llama's bfloat16 logits
      are then 0.0078 apart at positions 131032 to 131071 (whether a greedy token changes there
      depends on the CPU's kernels), and the same bits at 0 to 39.
    * Refusals. posenc raises, naming the key or argument, where transformers runs: a block
      without ``rope_theta`` given to :meth:`RotaryEmbedding.from_rope_parameters` (transformers
      takes its model class's default, 10000 for Llama; a model's config always holds one), an
      unknown key or a ``factor`` without ``rope_type`` (transformers warns and ignores it, but
      reads a model's own key, Qwen2-VL's ``mrope_section``, silently), a ``rope_type`` posenc
      does not read (``proportional``; Gemma 3's per-layer
      blocks), a ``factor`` below 1 for ``linear``, ``dynamic`` or ``llama3`` (transformers
      logs a warning and runs), negative position ids (transformers rotates by the negative
      angle), and, in
      :class:`RotaryEmbedding`, ``q`` and ``k`` of different dtypes (transformers'
      ``apply_rotary_pos_emb`` promotes each with ``cos``: both float32 in a float32 model, but
      bfloat16 ``q`` and float32 ``k`` stay so in a bfloat16 one).

    Examples
    --------
    The recipe: build the model as usual, then replace its rotary module.

    >>> import torch
    >>> from transformers import LlamaConfig, LlamaForCausalLM
    >>> from posenc.torch_module.hf import TransformersRotaryEmbedding
    >>> config = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64,
    ...                      num_hidden_layers=2, num_attention_heads=4,
    ...                      max_position_embeddings=128,
    ...                      rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0,
    ...                                       "factor": 4.0,
    ...                                       "original_max_position_embeddings": 32})
    >>> _ = torch.manual_seed(0)
    >>> model = LlamaForCausalLM(config).eval()
    >>> ids = torch.randint(64, (1, 40))
    >>> before = model(ids).logits
    >>> model.model.rotary_emb = TransformersRotaryEmbedding(model.config)
    >>> after = model(ids).logits
    >>> bool((after - before).abs().max() < 1e-6)
    True
    """

    def __init__(self, config, *, max_len: int = 2048) -> None:
        super().__init__()
        params = getattr(config, "rope_parameters", None)
        if not isinstance(params, dict):
            raise ValueError(f"config.rope_parameters must be a dict (transformers 5), got "
                             f"{type(params).__name__}")
        if params and all(isinstance(v, dict) for v in params.values()):
            raise ValueError(f"config.rope_parameters holds one block per layer type "
                             f"({sorted(params)}): build one RotaryEmbedding per type with "
                             f"RotaryEmbedding.from_rope_parameters instead")
        head_dim = getattr(config, "head_dim", None) or \
            config.hidden_size // config.num_attention_heads
        self.params = dict(params)
        self.head_dim = int(head_dim)
        self.max_position_embeddings = int(config.max_position_embeddings)
        self.max_len = max_len
        self.rope_type = self.params.get("rope_type", self.params.get("type", "default"))
        with torch.device("cpu"):      # built under torch.device("meta") too: check on the CPU
            own, own_cos = _own_cos(config)
        if own is not None and self.rope_type == "default" and \
                "partial_rotary_factor" in self.params and \
                own_cos.shape[-1] == self.head_dim:            # Llama's: it rotates every one
            del self.params["partial_rotary_factor"]
        self.rope = self._build(None)
        if self.rope_type == "longrope":        # both lists built once; picked per call
            self.original = int(self.params.get("original_max_position_embeddings",
                                                self.max_position_embeddings))
            self.long_rope = self._build(self.original + 1)
        self.max_seq_len_cached = self.max_position_embeddings       # dynamic's state
        if own is not None:
            with torch.device("cpu"):
                cos = self.forward(torch.zeros(1), torch.arange(4)[None])[0][0]
            if cos.shape != own_cos.shape or own_cos.is_complex() or \
                    not torch.allclose(cos, own_cos.float(), atol=1e-4):
                row = "position 1" if own_cos.dim() > 1 else "first"
                theirs = [f"{v:.4g}" for v in (own_cos[1] if own_cos.dim() > 1 else own_cos)[:4]
                          .tolist()]
                ours = [f"{v:.4g}" for v in cos[1, :4].tolist()]
                raise ValueError(
                    f"config: the model's own {own} gives other cos at positions 0 to 3 than "
                    f"posenc's [cos | cos]: shape {tuple(own_cos.shape)} ({own_cos.dtype}), "
                    f"{row} {theirs}, against posenc's {tuple(cos.shape)}, position 1 {ours}, "
                    f"so TransformersRotaryEmbedding cannot replace it")

    def _build(self, seq_len: int | None) -> RotaryEmbedding:
        return RotaryEmbedding.from_rope_parameters(
            self.params, self.head_dim, seq_len=seq_len,
            max_position_embeddings=self.max_position_embeddings, max_len=self.max_len)

    def _rope_for(self, seq_len: int) -> RotaryEmbedding:
        """The module for a call whose largest position id is ``seq_len - 1``."""
        if self.rope_type == "longrope":
            return self.long_rope if seq_len > self.original else self.rope
        if self.rope_type == "dynamic":          # transformers' dynamic_frequency_update
            cached = self.max_seq_len_cached
            if seq_len > cached:
                self.rope.frequencies = self._build(seq_len).frequencies
                self.max_seq_len_cached = seq_len
            if seq_len < self.max_position_embeddings < cached:
                self.rope.frequencies = self._build(None).frequencies
                self.max_seq_len_cached = self.max_position_embeddings
        return self.rope

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor, layer_type=None
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """``(cos, sin)`` at ``position_ids`` (``(batch, seq)`` integers), in ``x.dtype``: the
        float64 angles' cos and sin times the attention factor, rounded once to float32, then to
        ``x.dtype``.

        Examples
        --------
        >>> import torch
        >>> from transformers import LlamaConfig
        >>> from posenc.torch_module.hf import TransformersRotaryEmbedding
        >>> rotary = TransformersRotaryEmbedding(LlamaConfig(hidden_size=8,
        ...                                                  num_attention_heads=2))
        >>> cos, sin = rotary(torch.zeros(1, 2, 8), torch.tensor([[0, 1]]))
        >>> cos.shape, sin[0, 1]                    # sin 1, sin 0.01, then again
        (torch.Size([1, 2, 4]), tensor([0.8415, 0.0100, 0.8415, 0.0100]))
        """
        if layer_type is not None:
            raise ValueError(f"layer_type={layer_type!r}: one TransformersRotaryEmbedding "
                             f"serves one rope_parameters block")
        if not isinstance(position_ids, torch.Tensor) or position_ids.dtype.is_floating_point \
                or position_ids.dtype == torch.bool:
            got = position_ids.dtype if isinstance(position_ids, torch.Tensor) else \
                type(position_ids).__name__
            raise TypeError(f"position_ids must be an integer tensor (batch, seq), got {got}")
        if position_ids.dim() > 2:
            raise ValueError(f"position_ids must be (batch, seq), got shape "
                             f"{tuple(position_ids.shape)}: the three rows of a multimodal RoPE "
                             f"(Qwen2-VL's mrope) are not read, so TransformersRotaryEmbedding "
                             f"cannot replace this model's rotary_emb")
        rope = self.rope
        if self.rope_type in ("dynamic", "longrope") and not position_ids.is_meta:
            rope = self._rope_for(int(position_ids.max()) + 1 if position_ids.numel() else 1)
        cos, sin = rope.cos_sin(position_ids, x.dtype)
        return torch.cat([cos, cos], dim=-1), torch.cat([sin, sin], dim=-1)
