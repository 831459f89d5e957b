"""Sentences of chapters 7 and 10 whose words no page check reads (review-2026-12 r13c): a flip of
the word (not/no, one/both, key/query, tied/untied, ...) left each page passing. Each test finds
the sentence on its page and recomputes what it says with NumPy, without posenc; the word the
page prints must be the one the computation gives, so the flip (or a change of the fact) fails."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
CH07 = ROOT / "docs/chapters/07-why-pair-sine-with-cosine.md"
CH10 = ROOT / "docs/chapters/10-inside-attention.md"


def flat(path: Path) -> str:
    return re.sub(r"\s+", " ", path.read_text())


def omegas(d_model: int, base: float = 10000.0) -> np.ndarray:
    return base ** (-np.arange(0, d_model, 2) / d_model)


def table(pos, d_model: int) -> np.ndarray:
    pos = np.asarray(pos, dtype=float)
    angles = np.outer(pos, omegas(d_model))
    out = np.empty((len(pos), d_model))
    out[:, 0::2], out[:, 1::2] = np.sin(angles), np.cos(angles)
    return out


def block(theta: float) -> np.ndarray:
    return np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])


def shift_matrix(k: float, d_model: int) -> np.ndarray:
    m = np.zeros((d_model, d_model))
    for i, w in enumerate(omegas(d_model)):
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = block(w * k)
    return m


def spread(s: np.ndarray) -> float:
    n = len(s)
    return max(float(np.ptp(np.diagonal(s, o))) for o in range(1 - n, n))


# chapter 10's toy: embed and random_weights re-implemented from posenc.attention's definitions
def embed(tokens, d_model: int) -> np.ndarray:
    return np.array([np.random.default_rng([0, *t.encode("utf-8")]).normal(0.0, 1.0, d_model)
                     for t in tokens])


def weights(d_model: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return [rng.normal(0.0, d_model ** -0.5, (d_model, d_model)) for _ in range(3)]


TOKENS = "the cat sat on the mat".split()
D = 16


def terms(x, pe, m):
    return {"cc": x @ m @ x.T, "cp": x @ m @ pe.T, "pc": pe @ m @ x.T, "pp": pe @ m @ pe.T}


# ---------------------------------------------------------------- chapter 7

def test_ch07_the_cosine_does_not_fix_near_repeats():
    # the (sin, cos) pair of frequency 1 still brings positions 710 apart within chapter 3's
    # 0.001 (a collision), while neighbours stay 0.96 apart
    k = np.arange(1, 1000)
    chord = 2 * np.abs(np.sin(k / 2))
    word = "does not fix" if chord.min() < 1e-3 < 0.9 < chord[0] else "does fix"
    assert f"are a different failure, which the cosine {word}" in flat(CH07)


def test_ch07_no_two_positions_exactly_whole_turns_apart():
    k = np.arange(1, 100_000)
    left = np.abs((k + np.pi) % (2 * np.pi) - np.pi)
    word = "no two" if left.min() > 0 else "two"
    assert f"in the fastest pair {word} of the positions 0 to 99,999 are exactly whole turns" in flat(CH07)


def test_ch07_the_pair_removes_the_mirror_ambiguity():
    x = np.linspace(0.05, np.pi / 2 - 0.05, 50)
    same_sine = np.allclose(np.sin(x), np.sin(np.pi - x))
    apart = np.hypot(np.sin(x) - np.sin(np.pi - x), np.cos(x) - np.cos(np.pi - x)).min() > 0.09
    assert same_sine and apart
    assert "The pair removes the mirror ambiguity for free." in flat(CH07)


def test_ch07_coefficients_do_not_depend_on_pos():
    b = 0.7                                         # the shift's angle; a runs over positions
    a = np.linspace(-5, 5, 101)
    fit = np.linalg.lstsq(np.stack([np.sin(a), np.cos(a)], 1), np.sin(a + b), rcond=None)[0]
    assert np.allclose(fit, [np.cos(b), np.sin(b)])  # one pair of coefficients for every a
    assert r"which depend on \(k\) and \(\omega\) but **not on \(pos\)**" in flat(CH07)


def test_ch07_textbook_matrix_turns_counter_clockwise():
    b = 0.3
    r = np.array([[np.cos(b), -np.sin(b)], [np.sin(b), np.cos(b)]])
    p = np.array([np.cos(1.0), np.sin(1.0)])         # (cos, sin): x across, y up
    q = r @ p
    word = "counter-clockwise" if p[0] * q[1] - p[1] * q[0] > 0 else "clockwise"
    assert f"turns points {word}, but it expects the pair in the order" in flat(CH07)


def test_ch07_explorer_moving_pos_moves_both_points_not_the_matrix():
    w, k = omegas(16)[1], 3
    now = {p: np.array([np.sin(w * p), np.cos(w * p)]) for p in (2, 5, 2 + k, 5 + k)}
    both_move = not np.allclose(now[2], now[5]) and not np.allclose(now[2 + k], now[5 + k])
    same_matrix = np.allclose(block(w * k) @ now[2], now[2 + k]) and np.allclose(
        block(w * k) @ now[5], now[5 + k])
    assert both_move and same_matrix
    assert r"moving \(pos\) with \(k\) fixed moves both points but leaves the matrix unchanged" in flat(CH07)


def test_ch07_no_entry_of_m_k_mentions_a_position():
    # the map from PE(pos) to PE(pos + 5) fitted on two disjoint ranges is one matrix
    fits = []
    for start in (0, 5000):
        x, y = table(np.arange(start, start + 1000), 64), table(np.arange(start, start + 1000) + 5, 64)
        fits.append(np.block([[np.linalg.lstsq(x[:, j:j + 2], y[:, i:i + 2], rcond=None)[0].T
                               if i == j else np.zeros((2, 2)) for j in range(0, 64, 2)]
                              for i in range(0, 64, 2)]))
    assert np.allclose(fits[0], fits[1], atol=1e-10) and np.allclose(fits[0], shift_matrix(5, 64))
    assert r"though no entry of \(M_k\) mentions a position" in flat(CH07)


def test_ch07_bare_dot_product_carries_no_direction():
    pe = table(np.arange(200), 64)
    gram = pe @ pe.T
    word = "no direction" if np.allclose(gram[100, 101:200], gram[100, 99:0:-1]) else "a direction"
    assert rf"\(-k\): it carries {word}" in flat(CH07)


def test_ch07_closest_pair_of_the_scorecard_is_a_pair_of_neighbours():
    k = np.arange(1, 256)                           # chapter 3's positions 0 to 255
    dist = np.sqrt((2 - 2 * np.cos(np.outer(k, omegas(64)))).sum(axis=1))
    word = "is a pair of neighbours" if dist.argmin() == 0 else "is not a pair of neighbours"
    assert f"its closest pair of positions {word}, everywhere at once" in flat(CH07)


def test_ch07_blocks_find_m_k_from_the_narrow_range():
    x, y = table(np.arange(1000), 64), table(np.arange(1000) + 5, 64)
    m = shift_matrix(5, 64)
    worst = max(np.abs(np.linalg.lstsq(x[:, j:j + 2], y[:, j:j + 2], rcond=None)[0].T
                       - m[j:j + 2, j:j + 2]).max() for j in range(0, 64, 2))
    phrase = ("blocks find \\(M_k\\) from the narrow range too" if worst < 1e-12
              else "blocks do not find \\(M_k\\) from the narrow range")
    assert phrase in flat(CH07)


# ---------------------------------------------------------------- chapter 10

def toy():
    x, pe = embed(TOKENS, D), table(np.arange(len(TOKENS)), D)
    w_q, w_k, _ = weights(D)
    return x, pe, w_q @ w_k.T


def test_ch10_answer_the_term_attention_uses_in_general_does_not():
    _, _, m = toy()
    tab = table(np.arange(64), D)
    word = "does not" if spread(tab @ m @ tab.T) > 1 > 1e6 * spread(tab @ tab.T) else "does too"
    assert f"in general {word}. Concatenating" in flat(CH10)


def test_ch10_nothing_in_the_model_computes_the_terms_separately():
    x, pe, m = toy()
    other = np.random.default_rng(2).normal(size=x.shape)
    a, b = x + other, pe - other                    # another split of the same sums
    scores_equal = np.allclose((a + b) @ m @ (a + b).T, (x + pe) @ m @ (x + pe).T)
    terms_differ = not np.allclose(a @ m @ a.T, x @ m @ x.T)
    word = "Nothing" if scores_equal and terms_differ else "Something"
    assert f"{word} in the model computes the four terms separately" in flat(CH10)


def test_ch10_content_content_is_blind_to_order():
    _, _, m = toy()
    x = embed(TOKENS, D)
    order = [3, 0, 5, 1, 4, 2]
    xs = embed([TOKENS[i] for i in order], D)
    blind = np.allclose(xs @ m @ xs.T, (x @ m @ x.T)[np.ix_(order, order)])
    word = "is blind to order" if blind else "is not blind to order"
    assert f"The content-content term alone {word}" in flat(CH10)


def test_ch10_depends_on_the_offset_is_not_decreases():
    tab = table(np.arange(64), D)
    dots = tab @ tab.T
    word = "is not" if (np.diff(dots[0]) > 0).any() else "is"
    assert f'"Depends only on the offset" {word} "decreases with the offset"' in flat(CH10)


def test_ch10_depends_on_where_not_just_how_far():
    _, _, m = toy()
    tab = table(np.arange(64), D)
    pp = tab @ m @ tab.T
    assert spread(pp) > 0.5 * np.abs(pp).max()
    assert "the term depends on where the two positions are, not just on how far apart" in flat(CH10)


def test_ch10_random_wide_projections_none_vanishes():
    x, pe = embed(TOKENS, D), table(np.arange(len(TOKENS)), D)
    xw, pw = np.hstack([x, 0 * x]), np.hstack([0 * x, pe])
    w = np.random.default_rng(1).normal(0, (2 * D) ** -0.5, (2, 2 * D, D))
    m = w[0] @ w[1].T
    vanish = sum(np.abs(t).max() < 1e-12 for t in terms(xw, pw, m).values())
    word = "none of them vanishes" if vanish == 0 else f"{vanish} of them vanish"
    assert f"With random projections of the wider input {word}." in flat(CH10)


def test_ch10_addition_is_concatenation_with_tied_halves():
    x, pe, _ = toy()
    w_q, w_k, _ = weights(D)
    tied_q, tied_k = np.vstack([w_q, w_q]), np.vstack([w_k, w_k])
    cat = np.hstack([x, pe])
    assert np.allclose((cat @ tied_q) @ (cat @ tied_k).T, ((x + pe) @ w_q) @ ((x + pe) @ w_k).T)
    untied_q = np.vstack([w_q, weights(D, seed=1)[0]])
    assert not np.allclose((cat @ untied_q) @ (cat @ tied_k).T, ((x + pe) @ w_q) @ ((x + pe) @ w_k).T)
    assert "the two halves of each projection are tied (the same matrix" in flat(CH10)


def test_ch10_doubling_the_width_doubles_both_directions():
    d, d_ff = 512, 2048
    before = [(d, d)] * 4 + [(d, d_ff), (d_ff, d)]
    after = [(2 * d, 2 * d)] * 4 + [(2 * d, 2 * d_ff), (2 * d_ff, 2 * d)]
    both = all(a[0] == 2 * b[0] and a[1] == 2 * b[1] for a, b in zip(after, before))
    word = "in both directions" if both else "in one direction"
    assert f"doubles every weight matrix {word}" in flat(CH10)


def test_ch10_exercise_1_terms_change_when_the_key_side_is_content():
    x, pe, m = toy()
    hat = embed("the cat sat on the hat".split(), D)
    old, new = terms(x, pe, m), terms(hat, pe, m)
    changed = {n for n in old if not np.allclose(old[n][:5, 5], new[n][:5, 5])}
    side = "key" if changed == {"cc", "pc"} else "query"
    assert f"a term changes exactly when its *{side}* side is content" in flat(CH10)


def test_ch10_exercise_2_one_non_commuting_block_is_enough():
    tab = table(np.arange(64), D)
    sine_only = np.zeros((D, D))
    sine_only[0, 0] = 1.0
    scaling = np.zeros((D, D))
    scaling[0, 0] = scaling[1, 1] = 2.0             # not a rotation, but it commutes
    enough = spread(tab @ sine_only @ tab.T) > 0.1 and spread(tab @ scaling @ tab.T) < 1e-12
    word = "is enough" if enough else "is not enough"
    assert f"one non-commuting block {word}" in flat(CH10)


def test_ch10_exercise_3_position_position_does_not_see_the_embeddings():
    x, pe, m = toy()
    before, after = terms(x, pe, m), terms(4 * x, pe, m)
    ratios = {n: np.abs(after[n]).mean() / np.abs(before[n]).mean() for n in before}
    assert np.allclose([ratios[n] for n in ("cc", "cp", "pc", "pp")], [16, 4, 4, 1])
    assert "the position-position term does not see the embeddings:" in flat(CH10)


def test_ch10_exercise_3_unscaled_is_the_paper_like_start():
    x = embed(TOKENS, D)
    reference = np.random.default_rng(0).normal(0, D ** -0.5, (1000, D)) * np.sqrt(D)
    which = "unscaled" if abs(x.std() / reference.std() - 1) < abs(4 * x.std() / reference.std() - 1) else "scaled"
    other = "scaled" if which == "unscaled" else "unscaled"
    assert (f"So the {which} `x` is the paper-like start, and the {other} one has entries "
            "about 4 times too large") in flat(CH10)
