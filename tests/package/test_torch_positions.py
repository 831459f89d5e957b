"""Positions as users pass them (per row, left padding, packed, fairseq padding, seq-first) and
the published conventions (tensor2tensor, fairseq, Hugging Face), each against its own formula
written here in float64 from the published description."""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest

import posenc

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                reason="needs PyTorch")


def module(*args, **kwargs):
    from posenc.torch_module import SinusoidalPositionalEncoding

    return SinusoidalPositionalEncoding(*args, **kwargs)


def near(out, expected):
    """float32 output against a float64 formula: within a float32 rounding (plus float64's
    own error in a different evaluation order)."""
    return bool(np.abs(out.double().numpy() - expected).max() <= 2.0**-24 + 1e-12)


# ----------------------------------------------------------------------- published formulas
def t2t_timing_signal(length, channels, start_index=0, min_timescale=1.0,
                      max_timescale=1.0e4):
    """tensor2tensor's get_timing_signal_1d: geometric timescales from min to max over
    channels // 2 frequencies, [sin | cos], a zero channel for odd widths."""
    position = np.arange(length, dtype=np.float64) + start_index
    n = channels // 2
    step = math.log(max_timescale / min_timescale) / max(n - 1, 1)
    inv = min_timescale * np.exp(np.arange(n) * -step)
    scaled = position[:, None] * inv[None, :]
    signal = np.concatenate([np.sin(scaled), np.cos(scaled)], axis=1)
    return np.pad(signal, [[0, 0], [0, channels % 2]])


def fairseq_weights(num_embeddings, dim, padding_idx):
    """fairseq's SinusoidalPositionalEmbedding.get_embedding: t2t spacing, [sin | cos] over
    positions 0 .. num_embeddings - 1, the padding row zeroed, a zero column for odd dim."""
    half = dim // 2
    freq = np.exp(np.arange(half) * -(math.log(10000) / (half - 1)))
    arg = np.arange(num_embeddings, dtype=np.float64)[:, None] * freq[None, :]
    emb = np.concatenate([np.sin(arg), np.cos(arg)], axis=1)
    if dim % 2:
        emb = np.concatenate([emb, np.zeros((num_embeddings, 1))], axis=1)
    emb[padding_idx] = 0
    return emb


def fairseq_positions(tokens, padding_idx):
    """fairseq's utils.make_positions: non-padding tokens numbered from padding_idx + 1,
    padding tokens keep padding_idx."""
    mask = tokens != padding_idx
    return np.cumsum(mask, axis=1) * mask + padding_idx


def hf_distilbert(n_pos, dim):
    """Hugging Face create_sinusoidal_embeddings (DistilBERT): pos / 10000^(2 (j//2) / dim),
    sin at even columns, cos at odd ones."""
    j = np.arange(dim)
    enc = np.arange(n_pos, dtype=np.float64)[:, None] / np.power(10000, 2 * (j // 2) / dim)
    out = np.empty((n_pos, dim))
    out[:, 0::2], out[:, 1::2] = np.sin(enc[:, 0::2]), np.cos(enc[:, 1::2])
    return out


def hf_marian(n_pos, dim):
    """Hugging Face MarianSinusoidalPositionalEmbedding: the same angles, sines of the even
    columns first, then cosines of the odd ones."""
    j = np.arange(dim)
    enc = np.arange(n_pos, dtype=np.float64)[:, None] / np.power(10000, 2 * (j // 2) / dim)
    return np.concatenate([np.sin(enc[:, 0::2]), np.cos(enc[:, 1::2])], axis=1)


# ----------------------------------------------------------------------- conformance
@pytest.mark.parametrize("channels, start", [(512, 0), (64, 17), (7, 3)])
def test_tensor2tensor_get_timing_signal_1d(channels, start):
    import torch

    m = module(channels, max_len=3000, spacing="t2t", layout="concatenated", odd="zero_pad")
    out = m(torch.zeros(1, 2000, channels), start=start)[0]
    assert near(out, t2t_timing_signal(2000, channels, start_index=start))
    # the paper's table in the same layout is a different table
    paper = module(channels, max_len=3000, layout="concatenated", odd="zero_pad")
    assert not near(paper(torch.zeros(1, 2000, channels), start=start)[0],
                    t2t_timing_signal(2000, channels, start_index=start))


@pytest.mark.parametrize("dim, padding_idx", [(512, 1), (64, 0), (33, 2)])
def test_fairseq_sinusoidal_positional_embedding(dim, padding_idx):
    import torch

    rng = np.random.default_rng(0)
    tokens = rng.integers(padding_idx + 1, 1000, (4, 50))
    tokens[1, :7] = padding_idx                                # left padding
    tokens[2, 40:] = padding_idx                               # right padding
    tokens[3, [5, 9, 10]] = padding_idx                        # padding inside
    expected = fairseq_weights(200, dim, padding_idx)[fairseq_positions(tokens, padding_idx)]
    m = module(dim, max_len=150, spacing="t2t", layout="concatenated", odd="zero_pad",
               padding_idx=padding_idx)
    out = m(torch.zeros(4, 50, dim), tokens=torch.from_numpy(tokens))
    assert near(out, expected)
    mask = torch.from_numpy(tokens == padding_idx)
    assert torch.equal(m(torch.zeros(4, 50, dim), padding_mask=mask), out)
    assert torch.count_nonzero(out[1, :7]) == 0 and torch.count_nonzero(out[1, 7]) > 0


@pytest.mark.parametrize("reference, layout", [(hf_distilbert, "interleaved"),
                                               (hf_marian, "concatenated")])
def test_hugging_face_tables_with_position_ids(reference, layout):
    import torch

    m = module(64, max_len=512, layout=layout)
    # left-padded batch: position_ids as HF computes them from the attention mask
    attention = torch.ones(3, 20, dtype=torch.long)
    attention[1, :4] = 0
    attention[2, :11] = 0
    position_ids = (attention.cumsum(-1) - 1).clamp(min=0)
    out = m(torch.zeros(3, 20, 64), position_ids)
    expected = reference(512, 64)[position_ids.numpy()]
    assert near(out, expected)


def test_offset_shifts_every_position():
    import torch

    out = module(16, max_len=40, offset=3)(torch.zeros(1, 40, 16))[0]
    assert near(out, posenc.encode(np.arange(3, 43), 16))
    assert near(out, posenc.variants.encode_variant(40, 16, offset=3))


@pytest.mark.parametrize("odd", ["zero_pad", "drop_last"])
def test_odd_widths_follow_the_numpy_policy(odd):
    import torch

    out = module(9, max_len=30, odd=odd, layout="concatenated")(torch.zeros(1, 30, 9))[0]
    expected = posenc.variants.encode_variant(30, 9, odd=odd, layout="concatenated",
                                              dtype="float32")
    assert np.array_equal(out.numpy(), expected)


# ----------------------------------------------------------------------- positions
def test_start_and_one_token_at_a_time():
    import torch

    m = module(8, max_len=20)
    x = torch.randn(2, 5, 8)
    steps = torch.cat([m(x[:, t:t + 1], start=t) for t in range(5)], dim=1)
    assert torch.equal(steps, m(x))
    assert torch.equal(m(x, start=torch.tensor(3)), m(x, start=3))      # a 0-d tensor start
    assert torch.equal(m(x, start=3), m(x, torch.arange(3, 8)))


def test_per_row_positions_and_packed_sequences():
    import torch

    m = module(8, max_len=64)
    x = torch.randn(3, 6, 8)
    pos = torch.tensor([[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15], [0, 1, 2, 0, 1, 2]])
    out = m(x, pos)
    table = torch.from_numpy(posenc.encode(64, 8, dtype="float32"))
    assert torch.equal(out, x + table[pos])
    assert torch.equal(out[2, 3:], x[2, 3:] + table[:3])                 # packed: restarts
    assert torch.equal(m(x, pos.int()), out)                              # int32 positions


@pytest.mark.parametrize("kind", ["plain", "positions", "padding"])
def test_seq_first_equals_batch_first_transposed(kind):
    import torch

    x = torch.randn(3, 7, 8)                                              # (batch, seq, d)
    bf = module(8, max_len=20, padding_idx=1)
    sf = module(8, max_len=20, padding_idx=1, batch_first=False)
    tokens = torch.tensor([[1, 1, 5, 6, 7, 8, 9], [4, 5, 6, 7, 8, 9, 3], [2, 3, 1, 1, 5, 6, 7]])
    pos = torch.randint(0, 20, (3, 7))
    kw_bf = {"plain": {}, "positions": {"positions": pos}, "padding": {"tokens": tokens}}[kind]
    kw_sf = {k: v.T for k, v in kw_bf.items()}
    assert torch.equal(sf(x.transpose(0, 1), **kw_sf), bf(x, **kw_bf).transpose(0, 1))


def test_seq_first_broadcasts_over_the_batch_axis_only():
    import torch

    sf = module(8, max_len=20, batch_first=False)
    out = sf(torch.zeros(10, 4, 8))                                       # (seq, batch, d)
    assert torch.equal(out[:, 0], out[:, 3])                               # same for every row
    assert not torch.equal(out[0, 0], out[9, 0])                           # differs by position


@pytest.mark.parametrize("call, exc, words", [
    ("m(x, 3)", TypeError, "positions must be an integer torch.Tensor.*start="),
    ("m(x, torch.arange(5.0))", TypeError, "positions must hold integers"),
    ("m(x, torch.ones(5, dtype=torch.bool))", TypeError, "bool tensor: a padding mask goes "
     r"in padding_mask= \(True at padding; from Hugging Face's attention_mask: "
     r"padding_mask=attention_mask == 0\)"),
    ("m(x, torch.tensor([0, 0, 1, 1, 1]))", ValueError, "only 0 and 1 over 5 tokens: this "
     "looks like an attention mask.*padding_mask=attention_mask == 0"),
    ("m(x, torch.ones(2, 5, dtype=torch.long))", ValueError, "attention mask"),
    ("m(x, torch.arange(5).to(torch.uint8))", TypeError, "torch.long or torch.int32"),
    ("m(x, torch.arange(5).to(torch.int16))", TypeError, "torch.long or torch.int32"),
    ("m(x, torch.arange(4))", ValueError, r"positions must have shape \(5,\)"),
    ("m(x, torch.zeros(5, 2, dtype=torch.long))", ValueError, "positions must have shape"),
    ("m(x, torch.arange(5) + 12)", ValueError, "position 16 does not fit .*max_len=16"),
    ("m(x, torch.arange(5) - 1)", ValueError, "positions must be >= 0, got -1"),
    ("m(x, torch.arange(5), start=2)", ValueError, "start must be 0 when positions"),
    ("m(x, start=torch.tensor(2.0))", TypeError, "start must be an int or a 0-d integer"),
    ("m(x, start=torch.tensor([2]))", TypeError, "start must be an int or a 0-d integer"),
    ("m(x, start=torch.tensor(12))", ValueError, r"positions 12\.\.16 do not fit"),
    ("m(x, tokens=torch.ones(2, 5, dtype=torch.long))", ValueError, "tokens need padding_idx"),
    ("p(x, tokens=torch.ones(2, 5))", TypeError, "tokens must be an integer tensor"),
    ("p(x, tokens=torch.ones(5, 2, dtype=torch.long))", ValueError, "leading shape of x"),
    ("p(x, padding_mask=torch.ones(2, 5))", TypeError, "padding_mask must be a bool"),
    ("p(x, padding_mask=torch.ones(2, 4, dtype=torch.bool))", ValueError, "leading shape"),
    ("p(x, tokens=t, padding_mask=t == 1)", ValueError, "not both"),
    ("p(x, torch.arange(5), tokens=t)", ValueError, "not both"),
    ("p(x, tokens=t, start=-1)", TypeError, "start must be a non-negative int"),
    ("p(x, tokens=t, start=12)", ValueError, "position 16 does not fit"),
])
def test_bad_positions_are_refused(call, exc, words):
    import torch

    m, p = module(8, max_len=16), module(8, max_len=16, padding_idx=1)
    x, t = torch.zeros(2, 5, 8), torch.full((2, 5), 7)
    with pytest.raises(exc, match=words):
        eval(call, {"torch": torch, "m": m, "p": p, "x": x, "t": t})


def test_pad_rows_are_zero_and_counted_over_real_tokens():
    import torch

    m = module(8, max_len=16, padding_idx=0)
    tokens = torch.tensor([[0, 0, 0, 5, 6], [5, 6, 7, 8, 9]])
    out = m(torch.zeros(2, 5, 8), tokens=tokens)
    assert torch.count_nonzero(out[0, :3]) == 0
    assert torch.equal(out[0, 3:], out[1, :2])              # left padding: same positions
    # offset defaults to padding_idx + 1: the first real token is at angle padding_idx + 1
    assert near(out[1], posenc.encode(np.arange(1, 6), 8))
