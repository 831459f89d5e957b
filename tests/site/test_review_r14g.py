"""Sentences of chapters 11 and 14 whose word flip left every test passing (review-2026-12 r14g,
session 14). Each phrase must be on the page exactly when a small NumPy / torch computation here
says it (tables built here, not with posenc's encoder, except where the sentence is about the
module's own behaviour)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from harness.says import flat as text, says

torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
CH11 = ROOT / "docs" / "chapters" / "11-a-pytorch-module.md"
CH14 = ROOT / "docs" / "chapters" / "14-learned-embeddings.md"


def sinusoid(n: int, d: int) -> np.ndarray:
    pos, w = np.arange(n)[:, None], 10000.0 ** (-np.arange(0, d, 2) / d)
    table = np.zeros((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(pos * w), np.cos(pos * w)
    return table


def spread(m: np.ndarray) -> float:
    return float(max(np.ptp(np.diagonal(m, k)) for k in range(-(len(m) - 1), len(m))))


def cosine(t: np.ndarray) -> np.ndarray:
    t = t / np.linalg.norm(t, axis=1, keepdims=True)
    return t @ t.T


def test_ch14_a_mean_barely_moves_the_offset_structure():
    """Flip "a mean instead barely moves it" -> "moves it further" passed the page."""
    def one_step(reduce):
        torch.manual_seed(0)
        w = torch.tensor(sinusoid(16, 8), dtype=torch.float32, requires_grad=True)
        reduce((torch.randn(4, 8, 8) + w[:8]).pow(2)).backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        return spread(cosine(w.detach().double().numpy()))
    summed, meaned = one_step(torch.sum), one_step(torch.mean)
    says(text(CH14), "a mean instead barely moves it", meaned < 0.01 < 0.5 < summed)


def test_ch14_a_small_share_of_gpt2_xl():
    """Flip "is a small share" -> "is a large share" passed the page."""
    says(text(CH14), "About 1.6 million is a small share of a model with about 1.5 billion",
         1024 * 1600 / 1.5e9 < 0.01)


def test_ch11_seq_first_into_batch_first_fails_on_the_batch():
    """Flip "unless its batch exceeds" -> "unless its seq exceeds" passed the page."""
    from posenc.torch_module import SinusoidalPositionalEncoding

    m = SinusoidalPositionalEncoding(8, max_len=10)

    def refused(seq, batch):
        try:
            m(torch.zeros(seq, batch, 8))               # (seq, batch, d_model)
        except ValueError:
            return True
        return False
    says(text(CH11), "runs silently unless its batch exceeds `max_len`",
         refused(2, 11) and not refused(30, 2))
    says(text(CH11), "runs silently unless its seq exceeds `max_len`", refused(30, 2))


def to_bf16(f32: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even (the cast)."""
    u = f32.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_ch11_ties_are_moved_toward_the_float64_value():
    """Flip "one float32 step toward the float64 value" -> "away from" passed the page."""
    exact = sinusoid(5000, 512)
    f32 = exact.astype(np.float32)
    ties = (f32.view(np.uint32) & 0xFFFF) == 0x8000
    truncated = f32.view(np.uint32) - (np.abs(f32) > np.abs(exact))   # toward zero
    odd = truncated | (truncated.view(np.float32) != exact)          # round to odd
    once = to_bf16(odd.astype(np.uint32).view(np.float32))           # then one rounding
    toward = np.where(ties, np.nextafter(f32, np.where(exact > f32, np.inf, -np.inf)
                                         .astype(np.float32)), f32)
    away = np.where(ties, np.nextafter(f32, np.where(exact > f32, -np.inf, np.inf)
                                       .astype(np.float32)), f32)
    assert 0 < ties.sum() < 100
    right_toward = bool((to_bf16(toward) == once).all())
    right_away = bool((to_bf16(away) == once).all())
    says(text(CH11), "moves each one float32 step toward the float64 value before the cast",
         right_toward and not right_away)


def test_ch11_the_position_is_longer_than_the_token():
    """Flip "16 times longer than the token" -> "shorter" passed the page."""
    width = 512
    rng = np.random.default_rng(1)
    token = np.linalg.norm(rng.normal(0, width ** -0.5, (1000, width)), axis=1).mean()
    position = np.linalg.norm(sinusoid(1000, width), axis=1)
    ratio = position.min() / token
    says(text(CH11), "the position is about 16 times longer than the token", 15 < ratio < 17)


CH10B = ROOT / "docs" / "chapters" / "10b-what-does-a-trained-model-do.md"


def test_ch10b_learned_falls_under_the_order_blind_baseline():
    """Flip "falls under the order-blind baseline" -> "falls over" passed the page. The models'
    accuracies are the lab's records; the baseline is simulated here: guess the most frequent of
    the p earlier symbols (16 symbols, 3 back), positions 24-47."""
    from posenc.lab.record import load

    rng = np.random.default_rng(0)
    hits = []
    for p in range(24, 48):
        x = rng.integers(0, 16, size=(20_000, p))
        counts = np.stack([(x == s).sum(1) for s in range(16)], axis=1)
        # ties broken at random among the most frequent, as an order-blind guess would
        best = counts == counts.max(1, keepdims=True)
        hits.append((best[np.arange(len(x)), x[:, p - 3]] / best.sum(1)).mean())
    blind = float(np.mean(hits))
    runs = load("past")["runs"]["learned"]
    learned = [sum(r["test"]["48"]["per_position"][24:]) / 24 for r in runs]
    assert abs(blind - 0.147) < 0.005
    says(text(CH10B), "the learned table falls under the order-blind baseline", max(learned) < blind)
    says(text(CH10B), "the learned table falls over the order-blind baseline", min(learned) > blind)


def test_ch10b_the_answer_is_likeliest_the_repeated_symbol():
    """Flip "is then likeliest to be the repeated one" -> "least likely" passed the page. Ten
    earlier symbols from 16: the answer (3 back) is the most frequent symbol more often than the
    rarest one present."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 16, size=(50_000, 11))
    before, answer = x[:, :10], x[:, 7]
    counts = np.stack([(before == s).sum(1) for s in range(16)], axis=1)
    mode = counts.argmax(1)
    rarest = np.where(counts > 0, counts, 99).argmin(1)
    likeliest = (answer == mode).mean() > 1.5 * (answer == rarest).mean()  # 0.233, 0.099
    says(text(CH10B), "is then likeliest to be the repeated one", likeliest)


def test_ch11_frequency_buffer_angles_are_bfloat16_only_from_positions_in_its_dtype():
    """review-2026-12 r14g: "whose angles are computed in bfloat16 after .bfloat16()" held only
    when the positions are made in the buffer's dtype; float32 positions promote the product to
    float32 (the table still degrades: from bfloat16-rounded frequencies)."""
    omega = torch.tensor(10000.0 ** (-np.arange(0, 512, 2) / 512)).bfloat16()
    from_bf16 = (torch.arange(5).bfloat16()[:, None] * omega).dtype
    from_f32 = (torch.arange(5).float()[:, None] * omega).dtype
    says(text(CH11), "whose angles, from positions in its dtype, are bfloat16 after `.bfloat16()`",
         from_bf16 == torch.bfloat16 != from_f32)
    says(text(CH11), "whose angles are computed in bfloat16 after `.bfloat16()`",
         from_f32 == torch.bfloat16)


def test_ch11_double_rounding_errs_only_where_the_first_lands_on_a_midpoint():
    """Flip "where the first lands on the midpoint" -> "the second" passed the page."""
    exact = sinusoid(5000, 512)
    f32 = exact.astype(np.float32)
    ties = (f32.view(np.uint32) & 0xFFFF) == 0x8000                 # first rounding: a midpoint
    truncated = f32.view(np.uint32) - (np.abs(f32) > np.abs(exact))
    odd = truncated | (truncated.view(np.float32) != exact)
    wrong = to_bf16(f32) != to_bf16(odd.astype(np.uint32).view(np.float32))
    says(text(CH11), "Two roundings can disagree with one where the first lands on the midpoint",
         wrong.any() and bool(ties[wrong].all()))
