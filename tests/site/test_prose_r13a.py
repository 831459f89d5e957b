"""Sentences of chapters 1 and 2 whose words no page check reads (review-2026-12 r13a): a flip of
a word outside the claim-word list (not/no, all/any/none, a count, a direction of a relation) left
each page passing. Each test finds the sentences on the page and recomputes what they say with
NumPy, without posenc, so that the flip fails here. One test per section, not per sentence."""

from __future__ import annotations

import re
from itertools import permutations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
CH01 = ROOT / "docs/chapters/01-why-positions.md"
CH02 = ROOT / "docs/chapters/02-what-if-we-use-the-index.md"
TOKENS = "the quick brown fox jumps".split()
ORDER = [3, 0, 4, 2, 1]
ALL_ORDERS = [list(o) for o in permutations(range(5))]


def flat(path: Path) -> str:
    return re.sub(r"\s+", " ", path.read_text())


def toy(words, d=8):
    return np.array([np.random.default_rng([0, *t.encode()]).normal(0.0, 1.0, d) for t in words])


def weights(d=8):
    rng = np.random.default_rng(0)
    return [rng.normal(0.0, d ** -0.5, (d, d)) for _ in range(3)]


def attend(x, w, causal=False, normalise=None, bias=0.0):
    s = (x @ w[0]) @ (x @ w[1]).T / np.sqrt(w[0].shape[1]) + bias
    if causal:
        s = np.where(np.tri(len(x), dtype=bool), s, -np.inf)
    if normalise is None:
        e = np.exp(s - s.max(axis=1, keepdims=True))
        a = e / e.sum(axis=1, keepdims=True)
    else:
        a = normalise(s)
    return a @ (x @ w[2])


def sinusoid(n, d=8):
    i, j = np.arange(n)[:, None], np.arange(d // 2)
    pe = np.zeros((n, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(i / 10000 ** (2 * j / d)), np.cos(i / 10000 ** (2 * j / d))
    return pe


def moved(f, x, orders=ALL_ORDERS):
    """Does f only move the rows, for each order?"""
    out = f(x)
    return all(np.allclose(f(x[o]), out[o]) for o in orders)


def test_ch01_answer_and_why_it_must_be_so():
    text = flat(CH01)
    w, x = weights(), toy(TOKENS)
    assert "**Answer.** Without a causal mask, self-attention weighs tokens by what they *are*" in text
    assert moved(lambda h: attend(h, w), x) and not moved(lambda h: attend(h, w, causal=True), x)
    # P^T P = I for a permutation matrix; P P is not I for the page's order
    assert r"because \(P^\top P = I\): the rows of the output are only moved" in text
    p = np.eye(5)[ORDER]
    assert np.array_equal(p.T @ p, np.eye(5)) and not np.array_equal(p @ p, np.eye(5))
    # feed-forward and layer norm: changing one row changes only that row of the output
    assert "Feed-forward layers and layer norm act on each row alone" in text
    w_ff = np.random.default_rng(1).normal(0.0, 8 ** -0.5, (8, 8))
    ff_ln = lambda h: (lambda g: (g - g.mean(1, keepdims=True)) / g.std(1, keepdims=True))(
        np.maximum(h @ w_ff, 0) + h)
    y = x.copy()
    y[2] += 1.0
    changed = ~np.all(np.isclose(ff_ln(y), ff_ln(x)), axis=1)
    assert changed.tolist() == [False, False, True, False, False]
    assert "So attention is not *invariant* to order (that would mean an identical output), it " \
           "is *equivariant*: the output moves with the input." in text
    out = attend(x, w)
    assert not np.allclose(attend(x[ORDER], w), out) and np.allclose(attend(x[ORDER], w), out[ORDER])


def test_ch01_positions_and_the_mask():
    text = flat(CH01)
    w = weights()
    a, b = toy("dog bites man".split()), toy("man bites dog".split())
    out_a, out_b = attend(a + sinusoid(3), w), attend(b + sinusoid(3), w)
    gap, length = np.linalg.norm(out_a[0] - out_b[2]), np.linalg.norm(out_a[0])
    assert "0.506, about a fifth of the length (2.302)" in text
    assert abs(gap / length - 1 / 5) < abs(gap / length - 1 / 4) and abs(gap / length - 0.2) < 0.03
    assert "Even the averaged sentence vector now tells the two sentences apart." in text
    assert np.linalg.norm(out_a.mean(axis=0) - out_b.mean(axis=0)) > 0.1
    assert "so the symmetry above no longer holds:" in text
    x = toy(TOKENS)
    moved_by = attend(x[ORDER], w, causal=True) - attend(x, w, causal=True)[ORDER]
    # not a near miss (r14a): rows move by more than their own length, so no "exactly"
    length = np.linalg.norm(attend(x, w, causal=True)[ORDER], axis=1)
    assert (np.linalg.norm(moved_by, axis=1) / length).max() > 1
    # Haviv et al. (2022), abstract: language models "without any explicit positional encoding
    # are still competitive with standard models"
    assert "reach perplexities close to those with one" in text


def test_ch01_exercise_1_sets_and_layers():
    text = flat(CH01)
    w, x, swap = weights(), toy(TOKENS), [0, 2, 1, 3, 4]
    assert ("Within that set attention is still blind to order, so a token's output stays the "
            "same if the set it sees stays the same.") in text
    one = attend(x, w, causal=True)
    for o in ALL_ORDERS:
        same = [bool(np.allclose(attend(x[o], w, causal=True)[t], one[o][t])) for t in range(5)]
        assert same == [set(o[: t + 1]) == set(range(o[t] + 1)) for t in range(5)]
    assert "So the prediction is three equal rows:" in text
    same = [bool(np.allclose(attend(x[swap], w, causal=True)[t], one[swap][t])) for t in range(5)]
    assert sum(same) == 3
    assert "A second causal layer also reads the order inside a prefix:" in text
    two = lambda h: attend(attend(h, w, causal=True), w, causal=True)
    assert [bool(np.allclose(two(x[swap])[t], two(x)[swap][t])) for t in range(5)] == [
        True, False, False, False, False]


def test_ch01_exercises_2_and_3():
    text = flat(CH01)
    w, x = weights(), toy(TOKENS)
    squared = lambda s: s ** 2 / (s ** 2).sum(axis=1, keepdims=True)
    assert "has that property too, so equivariance survives" in text
    assert moved(lambda h: attend(h, w, normalise=squared), x)
    assert r"so, unless \(P B P^\top = B\), the step" in text
    bias = -np.abs(np.subtract.outer(np.arange(5), np.arange(5))) / 2
    p = np.eye(5)[ORDER]
    assert not np.allclose(p @ bias @ p.T, bias)
    assert not moved(lambda h: attend(h, w, normalise=squared, bias=bias), x, [ORDER])
    assert moved(lambda h: attend(h, w, normalise=squared, bias=2 * np.eye(5)), x)
    assert "the matrix argument above applies to any input matrix" in text
    rng = np.random.default_rng(7)
    assert all(moved(lambda h: attend(h, w), rng.normal(size=(5, 8)), ALL_ORDERS[::7])
               for _ in range(3))
    assert "sees a *set* of (word, position) pairs, and the set has not changed" in text
    pe = sinusoid(5)
    pairs = {(TOKENS[j], tuple(pe[j])) for j in range(5)}
    assert {(TOKENS[j], tuple(pe[j])) for j in ORDER} == pairs
    assert "the slot a row occupies in the array still means nothing to attention" in text
    assert moved(lambda h: attend(h, w), x + pe)


def cos(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def digits(n, columns=4):
    p = np.arange(n) if np.isscalar(n) else np.asarray(n)
    return np.stack([(p // 10 ** c) % 10 for c in range(columns)], axis=1)


def test_ch02_raw_index():
    text = flat(CH02)
    cat, dog = toy(["cat", "dog"], 64)
    assert "It does not take position 1000: already at position 10" in text
    assert cos(cat + 10, dog + 10) > 0.99
    assert 'is already nearly unrelated to "cat" itself' in text
    assert abs(cos(cat, cat + 10)) < 0.01 < cos(cat, cat + 0.5)
    assert ("only delays this: at position 1000 the two words still agree to four decimals "
            "(0.99996), because one entry of 1000 outweighs 64 entries of about 1") in text
    app = lambda v, p: np.append(v, p)
    assert round(cos(app(cat, 1000), app(dog, 1000)), 4) == 1.0 and 1000 ** 2 > cat @ cat
    assert r"which tends to 1 as \(p\) grows" in text
    sims = [cos(app(cat, p), app(dog, p)) for p in (10, 100, 1000, 10 ** 5)]
    assert sims == sorted(sims) and 1 - sims[-1] < 1e-8


def test_ch02_digits():
    text = flat(CH02)
    assert "Every entry now lies between 0 and 9 however long the sequence is" in text
    big = digits(np.arange(0, 10 ** 8, 9973), columns=8)
    assert big.min() == 0 and big.max() == 9
    assert "But 9 is still large next to embedding entries" in text
    words = toy([f"w{j}" for j in range(50)], 64)
    assert 9 > 5 * words.std()
    short = digits(512)
    assert "the thousands column is always 0, so it carries no information at all" in text
    assert np.ptp(short[:, 3]) == 0
    assert "over a third of all entries (35%) are zero" in text
    assert np.mean(short == 0) > 1 / 3
    full = digits(10_000)
    assert "So each column is zero a tenth of the time" in text
    assert np.allclose((full == 0).mean(axis=0), 1 / 10)
    assert ("The extra zeros are not a property of digits but of a sequence shorter than the "
            "10,000 positions four columns hold") in text
    assert np.mean(full == 0) == 0.1 < np.mean(short == 0)
    # r14a: the threshold is the table's 10,000 positions, not the largest place value (1000)
    assert all(np.mean(digits(n) == 0) > 0.1 for n in (1001, 2048, 5000, 9999))


def test_ch02_answer_and_conventions():
    text = flat(CH02)
    assert "**Answer.** Obvious encodings of a position all fail." in text
    assert "The attempts failed on size, scale and dependence on the length." in text
    cat = toy(["cat"], 64)[0]
    assert np.linalg.norm(cat + 1000) > 100 * np.linalg.norm(cat)         # size: raw index
    assert digits(512).mean() > 2 * toy([f"w{j}" for j in range(50)], 64).std()  # scale: digits
    assert 5 / 10 != 5 / 50                                                # length: pos / L
    assert "In floating point it gives NaN, which would poison all later layers" in text
    with np.errstate(invalid="ignore"):
        x = toy(["the"], 8) + np.float64(0) / np.float64(0)
    assert np.isnan(attend(x, weights())).all()
    assert "avoids the division by zero (a single token gets 0)" in text
    with np.errstate(all="raise"):
        assert (np.arange(1) / 1).tolist() == [0.0]
