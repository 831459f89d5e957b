"""Chapter 16's single-digit numbers and number words, which the page's number checker skips
(review-2026-12 p7a pass 7): each is read from the prose and compared with what it counts, so
flipping the word makes a test fail."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs/chapters/16-positions-in-a-running-model.md"
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10}


def text() -> str:
    return re.sub(r"\s+", " ", PAGE.read_text())


def said(pattern: str) -> tuple[str, ...]:
    found = re.search(pattern, text())
    assert found, pattern
    return found.groups()


def number(word: str) -> int:
    return int(word) if word.isdigit() else WORDS[word.lower()]


def test_significant_bits_of_the_half_types():
    torch = pytest.importorskip("torch")
    bf16, f16 = said(r"bfloat16 has (\d+) and float16 has (\d+)")
    bits = [1 - int(np.log2(torch.finfo(t).eps)) for t in (torch.bfloat16, torch.float16)]
    assert [int(bf16), int(f16)] == bits == [8, 11]


def test_exercise_2_keys_are_as_many_positions_later_as_the_offset():
    from posenc.relative import rotate
    (later,) = said(r"as if the key were (\d+) positions later")
    (offset,) = said(r"prompt's keys be rotated with `offset=(\d+)`")
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 25, 16))
    rows = rotate(q, 25)[20:25] @ rotate(k[:5], 5, offset=int(offset)).T
    shifts = [s for s in range(8) if np.allclose(
        rows, rotate(q, 25)[20:25] @ rotate(np.vstack([np.zeros((s, 16)), k[:5]]), s + 5)[s:].T)]
    assert shifts == [int(later)]


def test_counts_the_prose_shares_with_the_code_beside_it():
    page = PAGE.read_text()
    (pads,) = said(r"with (\w+) pads counted")
    assert number(pads) == int(re.search(r">>> pads = (\d+)", page).group(1))
    (heads,) = said(r"(\w+) heads get the four slopes of four heads")
    assert number(heads) == int(re.search(r">>> alibi_slopes\((\d+)\) \* 256", page).group(1))
    (fraction,) = said(r"take the loss below (\w+) its first value")
    assert fraction == "half" and "losses[-1] < losses[0] / 2" in page


def test_yarn_beta_defaults_are_the_ones_transformers_reads_for_zero():
    pytest.importorskip("transformers")
    import torch
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    fast, slow = said(r"replaced by the defaults (\d+) and (\d+)")

    def inv_freq(**betas):
        block = {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 4096}
        config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                             max_position_embeddings=65536, rope_scaling={**block, **betas})
        return ROPE_INIT_FUNCTIONS["yarn"](config, "cpu")[0]

    assert torch.equal(inv_freq(beta_fast=0), inv_freq(beta_fast=float(fast)))
    assert torch.equal(inv_freq(beta_slow=0), inv_freq(beta_slow=float(slow)))
    assert not torch.equal(inv_freq(beta_slow=0), inv_freq(beta_slow=float(slow) + 1))
