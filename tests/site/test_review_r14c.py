"""Sentences of chapters 7 and 8 whose direction or size word no page check reads (review-2026-12
r14c): flipping back/ahead, largest/smallest, closer/farther, over/under or barely/far left each
page passing. Each test finds the sentence and recomputes its fact with NumPy, without posenc, so
the word the page prints must be the one the computation gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harness.says import flat, holds

ROOT = Path(__file__).resolve().parents[2]
CH07 = ROOT / "docs/chapters/07-why-pair-sine-with-cosine.md"
CH08 = ROOT / "docs/chapters/08-building-the-formula.md"


def omegas(d_model: int, base: float = 10000.0) -> np.ndarray:
    return base ** (-np.arange(0, d_model, 2) / d_model)


def table(pos, d_model: int, om=None) -> np.ndarray:
    angles = np.outer(np.asarray(pos, dtype=float), omegas(d_model) if om is None else om)
    out = np.empty((len(angles), 2 * angles.shape[1]))
    out[:, 0::2], out[:, 1::2] = np.sin(angles), np.cos(angles)
    return out


def shift_matrix(k: float, d_model: int) -> np.ndarray:
    m = np.zeros((d_model, d_model))
    for i, w in enumerate(omegas(d_model)):
        c, s = np.cos(w * k), np.sin(w * k)
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
    return m


def attend_scores(n: int = 200, d_model: int = 64) -> np.ndarray:
    pe = table(np.arange(n), d_model)
    return (pe @ shift_matrix(3, d_model)) @ pe.T       # W_Q = M_3, W_K = I; rows are queries


def direction(offset: int) -> str:
    return "back" if offset < 0 else "ahead"


def test_ch07_m3_attends_three_back():
    best = attend_scores().argmax(axis=1)
    offsets = set((best - np.arange(len(best)))[3:].tolist())
    assert offsets == {-3}
    text = flat(CH07)
    holds(text, r"makes each position from 3 on attend three (back|ahead)",
          lambda w: w == direction(-3), "ch07 paragraph after the Answer")
    holds(text, r"make each query from position 3 on attend three (back|ahead)",
          lambda w: w == direction(-3), "ch07 Summary")


def test_ch07_query_becomes_the_encoding_three_positions_back():
    pe = table(np.arange(200), 64)
    moved = pe @ shift_matrix(3, 64)                        # PE(p) M_3
    k = -3 if np.allclose(moved[3:], pe[:-3]) else 3 if np.allclose(moved[:-3], pe[3:]) else 0
    holds(flat(CH07), r"PE\(p - 3\)\\\), the encoding three positions (back|ahead)",
          lambda w: w == direction(k), "ch07 attend-k-back")


def test_ch07_scores_three_back_and_three_ahead():
    s, p = attend_scores(), 100
    score = {direction(-3): round(float(s[p, p - 3]), 2), direction(3): round(float(s[p, p + 3]), 2)}
    text = flat(CH07)
    holds(text, r"as the scores ([\d.]+) and ([\d.]+) three (back|ahead) and three (back|ahead) show",
          lambda a, b, w1, w2: w1 != w2 and score[w1] == float(a) and score[w2] == float(b),
          "ch07 Three cases, second bullet")
    holds(text, r"telling three (back|ahead) \(([\d.]+)\) from three (back|ahead) \(([\d.]+)\)",
          lambda w1, a, w2, b: w1 != w2 and score[w1] == float(a) and score[w2] == float(b),
          "ch07 Summary")


def test_ch07_full_sine_map_barely_beats_one_scale_per_column():
    pos = np.arange(1000)
    xs, ys = table(pos, 64)[:, 0::2], table(pos + 5, 64)[:, 0::2]
    full = np.linalg.lstsq(xs, ys, rcond=None)[0]
    scale = (xs * ys).sum(0) / (xs * xs).sum(0)
    res_full = np.linalg.norm(xs @ full - ys) / np.linalg.norm(ys)
    res_diag = np.linalg.norm(xs * scale - ys) / np.linalg.norm(ys)
    word = "barely" if res_full > 0.99 * res_diag else "far"
    holds(flat(CH07), r"it captures (\w+) more than one scale per column",
          lambda w: w == word, "ch07 Exercise 1 solution")


def t2t_against_paper(n: int, d: int) -> np.ndarray:
    half = d // 2
    t2t_om = np.exp(-np.log(10000) / (half - 1) * np.arange(half))
    return np.abs(table(np.arange(n), d, t2t_om) - table(np.arange(n), d)).max(axis=1)


def test_ch08_largest_gap_between_t2t_and_the_paper():
    gap = t2t_against_paper(1024, 512)          # the layouts differ only by a permutation
    values = {"largest": round(float(gap.max()), 3), "smallest": round(float(gap.min()), 3)}
    holds(flat(CH08), r"and the (largest|smallest) gap is ([\d.]+)\.",
          lambda w, v: values[w] == float(v), "ch08 tensor2tensor fold")


def test_ch08_linear_spacing_far_offset_closer_than_neighbours():
    k = np.arange(1, 20_000)
    words = set()
    for d in (64, 128, 256, 512):
        lin = np.linspace(1.0, omegas(d)[-1], d // 2)       # the same two ends, evenly spaced
        gap = np.sqrt((2 - 2 * np.cos(np.multiply.outer(k, lin))).sum(axis=1))
        words.add("closer" if gap[15:].min() < gap[0] else "farther")
    assert len(words) == 1
    holds(flat(CH08), r"a far offset under 20,000 brings its rows (\w+) than neighbours",
          lambda w: w in words, "ch08 Frequencies on a geometric curve")


def test_ch08_width_for_one_percent_is_over_three_times_512():
    bound = 2 * np.log(10000) / -np.log(0.99)
    width = int(2 * np.ceil(bound / 2))
    word = "over" if width > 3 * 512 else "under"
    holds(flat(CH08), r"It takes a width of (\d+), (over|under) three times the paper's 512",
          lambda w, o: int(w) == width and o == word, "ch08 Exercise 1 solution")
