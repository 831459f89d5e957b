"""The misuse matrix of posenc.torch_module (issue 40 item 2): every misuse case of the outside
read of 2026-12 (torch-B1 .. B7, torch-8/9, M1 .. M5; ../shared/findings/outside-reads-2026-12.md)
and the ones found since, in one table. Each case either

* raises a ``ValueError`` or ``TypeError`` whose message names the argument (``"raises"``),
* warns, naming the argument and the remedy (``"warns"``: transformers' mask given as ALiBi's
  ``padding_mask``, where a batch of right-padded rows looks the same), or
* runs (``"silent"``): a case no check can tell from the shapes and values. Each silent case is
  named in the README's list of them, and the list holds no other (``SILENT_IN_README``).

The finer tests of each fix are in tests/package/test_torch_misuse.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch

from posenc.torch_module import (LearnedPositionalEmbedding, RotaryEmbedding,
                                 SinusoidalPositionalEncoding, alibi_bias, apply_rotary)
from posenc.torch_module.rotary import rope_cos_sin

README = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())


def _qk(*shape, dtype=torch.float32):
    g = torch.Generator().manual_seed(0)
    return torch.randn(*shape, generator=g).to(dtype)


Q = _qk(2, 4, 6, 16)                       # (batch, heads, seq, head_dim)
BSHD = _qk(2, 6, 4, 16)                    # the same, before .transpose(1, 2)
SQUARE = _qk(2, 4, 4, 16)                  # seq == heads: either layout
COS, SIN = rope_cos_sin(torch.arange(6), torch.tensor(RotaryEmbedding(16).frequencies))
LLAMA31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
           "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
HF_MASK = torch.tensor([[0, 1, 1, 1], [0, 0, 1, 1]])             # transformers': 1 at tokens
ROPE = RotaryEmbedding(16)


def _hf_rotary(**config):
    from transformers import Gemma3TextConfig, LlamaConfig
    from posenc.torch_module.hf import TransformersRotaryEmbedding
    if config.pop("gemma3", False):
        return TransformersRotaryEmbedding(Gemma3TextConfig(hidden_size=64, head_dim=16,
                                                            num_attention_heads=4))
    return TransformersRotaryEmbedding(LlamaConfig(hidden_size=64, num_attention_heads=4,
                                                   **config))


# id: (call, outcome, argument or phrase the message must hold)
CASES = {
    # ---------------------------------------------- RotaryEmbedding(...): construction
    "rope head_dim odd": (lambda: RotaryEmbedding(15), ValueError, "head_dim"),
    "rope head_dim float": (lambda: RotaryEmbedding(16.0), ValueError, "head_dim"),
    "rope rotary_dim > head_dim": (lambda: RotaryEmbedding(16, rotary_dim=32), ValueError,
                                   "rotary_dim"),
    "rope rotary_dim odd": (lambda: RotaryEmbedding(16, rotary_dim=7), ValueError, "rotary_dim"),
    "rope base <= 1": (lambda: RotaryEmbedding(16, base=1.0), ValueError, "base"),
    "rope unknown pairing": (lambda: RotaryEmbedding(16, pairing="rotate"), ValueError,
                             "pairing"),
    "rope attention_factor 0": (lambda: RotaryEmbedding(16, attention_factor=0.0), ValueError,
                                "attention_factor"),
    "rope frequencies wrong count": (lambda: RotaryEmbedding(16, frequencies=[1.0, 0.1]),
                                     ValueError, "frequencies"),
    "rope frequencies negative": (lambda: RotaryEmbedding(4, frequencies=[1.0, -0.5]),
                                  ValueError, "frequencies"),
    "rope max_len 0": (lambda: RotaryEmbedding(16, max_len=0), ValueError, "max_len"),
    "rope unknown axes": (lambda: RotaryEmbedding(16, axes="bsdh"), ValueError, "axes"),
    "rope num_heads 0": (lambda: RotaryEmbedding(16, num_heads=0), ValueError, "num_heads"),
    # ---------------------------------------------- RotaryEmbedding.forward
    "rope q 3-D": (lambda: ROPE(Q[0], Q[0]), ValueError, "q must be"),
    "rope q integer": (lambda: ROPE(Q.long(), Q.long()), ValueError, "q must be"),
    "rope q head_dim != head_dim (B1, torch-9)": (lambda: ROPE(Q[..., :8], Q[..., :8]),
                                                  ValueError, "head_dim"),
    "rope q float16, k float32 (M4)": (lambda: ROPE(Q.half(), Q), TypeError, "q and k"),
    "rope k more heads than q": (lambda: ROPE(Q[:, :2], Q), ValueError, "k's heads"),
    "rope k other seq": (lambda: ROPE(Q, Q[:, :, :3]), ValueError, "q and k"),
    "rope bshd with grouped-query k (B1)": (lambda: ROPE(BSHD, BSHD[:, :, :2]), ValueError,
                                            "axes='bshd'"),
    "rope bshd with num_heads, offset (B1)": (
        lambda: RotaryEmbedding(16, num_heads=4)(BSHD, BSHD, offset=3), ValueError,
        "num_heads=4"),
    "rope bshd decode step with num_heads (B1)": (
        lambda: RotaryEmbedding(16, num_heads=4)(BSHD[:, :1], BSHD[:, :1], offset=100),
        ValueError, "num_heads=4"),
    "rope bshd with positions, seq != heads (B1)": (
        lambda: ROPE(BSHD, BSHD, torch.arange(6).expand(2, 6)), ValueError, "positions"),
    "rope bshd with a rotation, seq != heads (B1)": (
        lambda: ROPE(BSHD, BSHD, rotation=ROPE.rotation(seq=6)), ValueError, "rotation"),
    "rope bshd, as many key as query heads, offset (B1)": (
        lambda: ROPE(BSHD, BSHD, offset=3), "silent", None),
    "rope bshd, seq == heads, offset, num_heads (B1)": (
        lambda: RotaryEmbedding(16, num_heads=4)(SQUARE, SQUARE, offset=3), "silent", None),
    "rope bshd, seq == heads, positions (B1)": (
        lambda: RotaryEmbedding(16, num_heads=4)(SQUARE, SQUARE, torch.arange(4)), "silent",
        None),
    "rope offset negative": (lambda: ROPE(Q, Q, offset=-1), ValueError, "offset"),
    "rope offset float": (lambda: ROPE(Q, Q, offset=2.0), TypeError, "offset"),
    "rope offset bool": (lambda: ROPE(Q, Q, offset=True), TypeError, "offset"),
    "rope offset per row, wrong count": (lambda: ROPE(Q, Q, offset=torch.tensor([1, 2, 3])),
                                         ValueError, "offset"),
    "rope positions and offset": (lambda: ROPE(Q, Q, torch.arange(6), offset=2), ValueError,
                                  "positions or offset"),
    "rope positions float": (lambda: ROPE(Q, Q, torch.arange(6.0)), TypeError, "positions"),
    "rope positions a list": (lambda: ROPE(Q, Q, list(range(6))), TypeError, "positions"),
    "rope positions an int": (lambda: ROPE(Q, Q, 3), TypeError, "offset="),
    "rope positions negative (B2)": (
        lambda: ROPE(Q[:1], Q[:1], torch.tensor([[-1, 0, 1, 2, 3, 4]])), ValueError,
        r"positions must be >= 0.*clamp"),
    "rope positions wrong length": (lambda: ROPE(Q, Q, torch.arange(5)), ValueError,
                                    "positions"),
    "rope bool mask as positions": (lambda: ROPE(Q, Q, torch.ones(2, 6, dtype=torch.bool)),
                                    TypeError, "attention mask"),
    "rope mask with a row of 1s as positions (B2)": (
        lambda: ROPE(Q, Q, torch.tensor([[0, 0, 1, 1, 1, 1], [1] * 6])), ValueError,
        "attention mask"),
    "rope two-token mask as positions (M1)": (
        lambda: ROPE(Q[..., :2, :], Q[..., :2, :], torch.tensor([[1, 1], [0, 1]])),
        ValueError, "attention mask"),
    "rope mask whose rows are valid position ids (B2)": (
        lambda: ROPE(Q, Q, torch.tensor([[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 1]])[:1]),
        "silent", None),
    "rope 0/1 position ids, left-padded short prompts (B2)": (
        lambda: ROPE(Q, Q, torch.tensor([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]])), "runs",
        None),
    "rope rotation and positions": (
        lambda: ROPE(Q, Q, torch.arange(6), rotation=ROPE.rotation(seq=6)), ValueError,
        "rotation"),
    "rope numpy offset (B4)": (lambda: ROPE(Q, Q, offset=np.int64(3)), "runs", None),
    # ---------------------------------------------- apply_rotary (M3, torch-9)
    "apply_rotary fewer pairs than head_dim (M3)": (
        lambda: apply_rotary(Q, COS[:, :4], SIN[:, :4]), ValueError, "rotary_dim"),
    "apply_rotary transformers' [cos | cos] (torch-9)": (
        lambda: apply_rotary(Q, torch.cat([COS, COS], -1), torch.cat([SIN, SIN], -1)),
        ValueError, r"\[cos \| cos\]"),
    "apply_rotary bshd x, seq != heads (torch-9)": (lambda: apply_rotary(BSHD, COS, SIN),
                                                     ValueError, r"transpose\(1, 2\)"),
    "apply_rotary bshd x, seq == heads": (lambda: apply_rotary(SQUARE, COS[:4], SIN[:4]),
                                          "silent", None),
    "apply_rotary cos and sin swapped": (lambda: apply_rotary(Q, SIN, COS), "silent", None),
    "apply_rotary cos, sin of other shapes": (lambda: apply_rotary(Q, COS, SIN[:5]),
                                              ValueError, "cos and sin"),
    "apply_rotary wrong rotary_dim": (lambda: apply_rotary(Q, COS[:, :4], SIN[:, :4],
                                                           rotary_dim=6),
                                      ValueError, "rotary_dim"),
    "apply_rotary batch mismatch": (lambda: apply_rotary(Q, COS.expand(3, 6, 8),
                                                         SIN.expand(3, 6, 8)),
                                    ValueError, "batch"),
    # ---------------------------------------------- from_rope_parameters (B3, B7)
    "config without rope_theta (B3)": (
        lambda: RotaryEmbedding.from_rope_parameters(LLAMA31, 128), ValueError, "rope_theta"),
    "config misspelt key (B3)": (
        lambda: RotaryEmbedding.from_rope_parameters(
            {"rope_type": "yarn", "rope_theta": 1e4, "factor": 4.0,
             "orginal_max_position_embeddings": 1024}, 64, max_position_embeddings=4096),
        ValueError, "orginal_max_position_embeddings"),
    "config factor without rope_type (B3)": (
        lambda: RotaryEmbedding.from_rope_parameters({"rope_theta": 1e4, "factor": 4.0}, 64),
        ValueError, "rope_type"),
    "config missing required key (B3)": (
        lambda: RotaryEmbedding.from_rope_parameters({"rope_type": "linear",
                                                      "rope_theta": 1e4}, 64),
        ValueError, "factor"),
    "config unknown rope_type": (
        lambda: RotaryEmbedding.from_rope_parameters({"rope_type": "proportional",
                                                      "rope_theta": 1e4}, 64),
        ValueError, "rope_type"),
    "config not a dict": (lambda: RotaryEmbedding.from_rope_parameters("llama3", 64),
                          TypeError, "params"),
    "config factor 0 (B7)": (
        lambda: RotaryEmbedding.from_rope_parameters({"rope_type": "linear", "rope_theta": 1e4,
                                                      "factor": 0.0}, 64),
        ValueError, "factor"),
    "config yarn factor < 1 (B7)": (
        lambda: RotaryEmbedding.from_rope_parameters(
            {"rope_type": "yarn", "rope_theta": 1e4, "factor": 0.5,
             "original_max_position_embeddings": 64}, 64), "runs", None),
    "config partial_rotary_factor > 1": (
        lambda: RotaryEmbedding.from_rope_parameters({"rope_type": "default", "rope_theta": 1e4,
                                                      "partial_rotary_factor": 1.5}, 64),
        ValueError, "partial_rotary_factor"),
    "config dynamic without max_position_embeddings": (
        lambda: RotaryEmbedding.from_rope_parameters({"rope_type": "dynamic", "rope_theta": 1e4,
                                                      "factor": 2.0}, 64),
        ValueError, "max_position_embeddings"),
    # ---------------------------------------------- TransformersRotaryEmbedding
    "hf per-layer-type rope_parameters": (lambda: _hf_rotary(gemma3=True), ValueError,
                                          "rope_parameters"),
    "hf float position_ids": (lambda: _hf_rotary()(torch.zeros(1, 2, 8), torch.zeros(1, 2)),
                              TypeError, "position_ids"),
    "hf layer_type": (lambda: _hf_rotary()(torch.zeros(1, 2, 8), torch.zeros(1, 2).long(),
                                           "sliding_attention"), ValueError, "layer_type"),
    # ---------------------------------------------- alibi_bias (B5)
    "alibi transformers' mask as padding_mask (B5)": (
        lambda: alibi_bias(4, 4, padding_mask=HF_MASK.bool()), "warns", "attention_mask="),
    "alibi transformers' mask as padding_mask, cached keys (B5)": (
        lambda: alibi_bias(4, 1, 4, padding_mask=HF_MASK.bool()), ValueError, "padding"),
    "alibi both masks": (lambda: alibi_bias(4, 4, padding_mask=HF_MASK == 0,
                                            attention_mask=HF_MASK), ValueError, "not both"),
    "alibi float attention_mask": (lambda: alibi_bias(4, 4, attention_mask=HF_MASK.float()),
                                   TypeError, "attention_mask"),
    "alibi integer padding_mask": (lambda: alibi_bias(4, 4, padding_mask=HF_MASK), TypeError,
                                   "padding_mask"),
    "alibi n_heads 0": (lambda: alibi_bias(0, 4), ValueError, "n_heads"),
    "alibi k_len < q_len": (lambda: alibi_bias(4, 4, 2), ValueError, "k_len"),
    "alibi causal not a bool": (lambda: alibi_bias(4, 4, causal="yes"), TypeError, "causal"),
    "alibi integer dtype": (lambda: alibi_bias(4, 4, dtype=torch.int32), TypeError, "dtype"),
    "alibi offset float": (lambda: alibi_bias(4, 1, 4, offset=1.5), TypeError, "offset"),
    # ---------------------------------------------- SinusoidalPositionalEncoding (M2)
    "sinusoidal d_model odd": (lambda: SinusoidalPositionalEncoding(7, 16), ValueError,
                               "d_model"),
    "sinusoidal x 2-D": (lambda: SinusoidalPositionalEncoding(8, 16)(torch.zeros(4, 8)),
                         ValueError, "x must have shape"),
    "sinusoidal x transposed": (lambda: SinusoidalPositionalEncoding(8, 16)(
        torch.zeros(2, 8, 5)), ValueError, "d_model"),
    "sinusoidal past max_len": (lambda: SinusoidalPositionalEncoding(8, 16)(
        torch.zeros(1, 17, 8)), ValueError, "max_len"),
    "sinusoidal mask as positions (B2)": (lambda: SinusoidalPositionalEncoding(8, 16)(
        torch.zeros(2, 4, 8), torch.tensor([[0, 0, 1, 1], [1, 1, 1, 1]])), ValueError,
        "attention mask"),
    "sinusoidal batch_first not a bool": (
        lambda: SinusoidalPositionalEncoding(8, 16, batch_first=1), TypeError, "batch_first"),
    "sinusoidal (seq, batch, d) to batch-first (M2)": (
        lambda: SinusoidalPositionalEncoding(8, 16)(torch.zeros(100, 8, 8)), "silent", None),
    # ---------------------------------------------- LearnedPositionalEmbedding
    "learned past max_len": (lambda: LearnedPositionalEmbedding(16, 8)(torch.zeros(1, 17, 8)),
                             ValueError, "max_len"),
    "learned d_model mismatch": (lambda: LearnedPositionalEmbedding(16, 8)(
        torch.zeros(1, 4, 6)), ValueError, "d_model"),
    "learned (seq, batch, d)": (
        lambda: LearnedPositionalEmbedding(16, 8)(torch.zeros(100, 8, 8)), "silent", None),
}

SILENT_IN_README = {
    # silent case id: the words of the README's list that name it
    "rope bshd, as many key as query heads, offset (B1)":
        "as many key as query heads and an offset",
    "rope bshd, seq == heads, offset, num_heads (B1)":
        "(`num_heads=` catches the first unless seq equals heads",
    "rope bshd, seq == heads, positions (B1)": "or as many tokens as heads",
    "rope mask whose rows are valid position ids (B2)":
        "an attention mask passed as positions when each of its rows is also valid position "
        "ids",
    "apply_rotary bshd x, seq == heads": "to `apply_rotary` when seq equals heads",
    "apply_rotary cos and sin swapped": "cos and sin swapped in `apply_rotary`",
    "sinusoidal (seq, batch, d) to batch-first (M2)":
        "a batch-first `SinusoidalPositionalEncoding` (pass `batch_first=False`)",
    "learned (seq, batch, d)": "or `LearnedPositionalEmbedding`",
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_misuse_raises_naming_the_argument_or_is_a_named_silent_case(case):
    call, outcome, words = CASES[case]
    if case.startswith("hf "):
        pytest.importorskip("transformers")
    if outcome in ("silent", "runs"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            call()                                             # no error, no warning
        assert (outcome == "silent") == (case in SILENT_IN_README), case
    elif outcome == "warns":
        with pytest.warns(UserWarning, match=words):
            call()
    else:
        with pytest.raises(outcome, match=words):
            call()


def _readme_silent_list() -> str:
    """The README's paragraph that lists the misuses that run."""
    match = re.search(r"(\w+) misuses cannot be told from the shapes and values, and run: (.*?)"
                      r"(?= ## |$)", README)
    assert match, "the README's list of silent misuses is gone"
    return match.group(0)


def test_the_readme_names_every_silent_case_and_no_other():
    """The README's list of misuses that run is the matrix's silent cases: the count it states,
    one item per case, each case's words in it."""
    text = _readme_silent_list()
    silent = {case for case, (_, outcome, _) in CASES.items() if outcome == "silent"}
    assert silent == set(SILENT_IN_README)
    for case, words in SILENT_IN_README.items():
        assert words in text, case
    count = text.split()[0].lower()
    items = text.count("; ") + 1
    numbers = {"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
    assert numbers[count] == items, (count, items)
    loud = sum(outcome not in ("silent", "runs") for _, outcome, _ in CASES.values())
    assert f"tries each, and the {loud} others that raise or warn" in README
    assert len(CASES) >= 41                                   # the outside read's 41, and more
