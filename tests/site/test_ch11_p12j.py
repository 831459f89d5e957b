"""Chapter 11 sentences whose flipped word left the page and every test passing
(review-2026-12 p12j pass 3): each phrase must be on the page exactly when a small
computation says it (references written here in float64, not with posenc's tables)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from harness.says import flat, says

torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
CH11 = ROOT / "docs" / "chapters" / "11-a-pytorch-module.md"


def page() -> str:
    return flat(CH11)


def row(p: float, d: int):
    """The paper's row at angle p (interleaved sin, cos), float64."""
    out = []
    for i in range(d // 2):
        angle = p / 10000 ** (2 * i / d)
        out += [math.sin(angle), math.cos(angle)]
    return torch.tensor(out, dtype=torch.float64)


def module(*args, **kwargs):
    from posenc.torch_module import SinusoidalPositionalEncoding

    return SinusoidalPositionalEncoding(*args, **kwargs)


def test_gradients_go_to_the_input():
    pe = module(8, max_len=16)
    x = torch.randn(2, 5, 8, requires_grad=True)
    pe(x).sum().backward()
    fact = list(pe.parameters()) == [] and torch.equal(x.grad, torch.ones_like(x))
    says(page(), "so gradients go to the input and to nothing else", fact)


def test_first_real_token_angle_is_padding_idx_plus_one():
    fs = module(8, max_len=100, padding_idx=1)
    out = fs(torch.zeros(1, 4, 8), tokens=torch.tensor([[1, 1, 7, 9]]))[0].double()
    near = lambda a, b: bool((a - b).abs().max() < 1e-7)        # float32 rounding
    fact = near(out[2], row(2, 8)) and near(out[3], row(3, 8)) and not near(out[3], row(2, 8))
    says(page(), "the first real token's angle is `padding_idx + 1`", fact)


def test_a_tie_goes_to_the_even_neighbour():
    # bfloat16 at 1: steps of 2**-7; 1 and 1 + 2**-6 have an even last bit, 1 + 2**-7 odd
    ties = torch.tensor([1 + 2**-8, 1 + 3 * 2**-8], dtype=torch.float32).bfloat16().tolist()
    says(page(), "goes to the even neighbour whichever side", ties == [1.0, 1 + 2**-6])


def test_to_device_moves_every_table():
    s = module(8, max_len=16)
    s.table(torch.bfloat16)
    s.to("meta")
    fact = s.table().device.type == "meta" and s.table(torch.bfloat16).device.type == "meta"
    says(page(), "`.to(device)` moves the tables;", fact)


def test_seq_first_pattern_adds_the_batch_index():
    table_sf = torch.stack([row(p, 8) for p in range(100)]).unsqueeze(1)     # (100, 1, 8)
    y = torch.zeros(4, 10, 8, dtype=torch.float64) + table_sf[:4]
    fact = all(torch.equal(y[b, t], table_sf[b, 0]) for b in range(4) for t in range(10)) \
        and not torch.equal(y[2, 9], table_sf[9, 0])
    says(page(), r"each token of sequence `b` gets \(PE(b)\), the *batch* index", fact)


def test_transformer_layer_has_the_other_default():
    layer = torch.nn.TransformerEncoderLayer(8, 2)
    fact = layer.self_attn.batch_first != module(8).batch_first
    says(page(), "has the same flag with the other default", fact)
