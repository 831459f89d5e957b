"""Word flips that passed every check on chapter 16 (review-2026-12 r14i, pass 10): each sentence
is read here and its fact recomputed, so the flip fails ("largest power of two under n" -> "over",
"s times closer in angle" -> "farther", "grows when a later position needs it" -> "earlier").
ALiBi's slopes come from Bloom's ``build_alibi_tensor`` and position interpolation's frequencies
from transformers' ``linear`` type, not from posenc; the cache sentence is about posenc's own
``RotaryEmbedding``, so it is measured there."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.bloom.modeling_bloom import build_alibi_tensor

from harness.says import flat, says

ROOT = Path(__file__).resolve().parents[2]

CH16 = ROOT / "docs" / "chapters" / "16-positions-in-a-running-model.md"


def bloom_slopes(n: int) -> np.ndarray:
    return build_alibi_tensor(torch.ones(1, 2), n, torch.float64)[:, 0, 1].numpy()


def test_alibi_other_counts_start_from_the_largest_power_of_two_under_n():
    counts = [n for n in range(3, 129) if n & (n - 1)]
    under = all(np.allclose(bloom_slopes(n)[:p], 2.0 ** (-8 * np.arange(1, p + 1) / p))
                for n in counts for p in [2 ** int(np.log2(n))])
    over = all(np.allclose(bloom_slopes(n)[:p // 2], 2.0 ** (-8 * np.arange(1, p // 2 + 1) / p))
               for n in counts for p in [2 ** (int(np.log2(n)) + 1)])
    says(flat(CH16), r"the largest power of two \(p\) under \(n\)", under and not over)


def test_position_interpolation_puts_neighbours_s_times_closer_in_angle():
    s, plain = 8.0, 10000.0 ** (-np.arange(0, 128, 2) / 128)
    config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                         rope_theta=10000.0, rope_scaling={"rope_type": "linear", "factor": s})
    served = ROPE_INIT_FUNCTIONS["linear"](config, "cpu")[0].double().numpy()
    closer = s > 1 and np.allclose(served / plain, 1 / s, rtol=1e-6)   # every pair, the fast too
    text = flat(CH16)
    says(text, r"neighbouring tokens end up \(s\) times closer in angle than in training", closer)
    says(text, r"are \(s\) times closer in angle, in each pair, than in training", closer)


def test_the_cos_sin_cache_grows_when_a_later_position_needs_it():
    from posenc.torch_module import RotaryEmbedding

    rope = RotaryEmbedding(8, max_len=64)
    x = torch.zeros(1, 1, 3, 8)

    def rows(offset: int) -> int:
        rope(x, x, offset=offset)
        (cos, _), = rope._cache.values()
        return cos.shape[0]

    first = rows(0)
    later = rows(5000)                       # a later position than the table holds
    earlier = rows(10)                       # an earlier one, after the table grew
    says(flat(CH16), "grows when a later position needs it",
         first < 5003 <= later and earlier == later)
