"""Sentences of chapters 1 and 2 whose words no page check reads (review-2026-12 p12m): a flip of
the word (first/last, a slot, a digit column, a count) left each page passing. Each test finds the
sentence on its page and recomputes what it says with NumPy, without posenc."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from harness.says import flat

ROOT = Path(__file__).resolve().parents[2]
CH01 = ROOT / "docs/chapters/01-why-positions.md"
CH02 = ROOT / "docs/chapters/02-what-if-we-use-the-index.md"
TOKENS = "the quick brown fox jumps".split()


def sees(order, slot):
    """The words the token in `slot` sees under a causal mask, for a shuffle `order`."""
    return {TOKENS[j] for j in order[: slot + 1]}


def test_ch01_exercise_1_slots():
    swap = [0, 2, 1, 3, 4]
    same_set = [sees(swap, t) == sees(range(5), swap[t]) for t in range(5)]
    text = flat(CH01)
    assert 'Slot 0 sees "the" alone in both orders.' in text
    assert sees(swap, 0) == sees(range(5), 0) == {"the"}
    assert "Slots 3 and 4 see the same tokens in both orders" in text
    assert [t for t in range(1, 5) if same_set[t]] == [3, 4]
    assert ('"brown", now in slot 1, no longer sees "quick", and "quick", now in slot 2, '
            'sees "brown" as well') in text
    assert TOKENS[swap[1]] == "brown" and "quick" not in sees(swap, 1)
    assert "quick" in sees(range(5), 2) and TOKENS[swap[2]] == "quick" and "brown" in sees(swap, 2)
    assert "brown" not in sees(range(5), 1)


def test_ch01_mask_first_and_last():
    text = flat(CH01)
    assert "the first token can only attend to itself, the last one sees everything" in text
    mask = np.tri(5, dtype=bool)                   # row t: the slots token t sees
    assert mask[0].sum() == 1 and mask[0, 0] and mask[-1].all()


def test_ch02_first_and_last_value_and_single_token():
    text = flat(CH02)
    assert "the first position gets exactly 0, the last \\((L - 1)/L\\)" in text
    assert all((np.arange(L) / L)[0] == 0 and (np.arange(L) / L)[-1] == (L - 1) / L
               for L in range(1, 200))
    assert "(a single token gets 0)" in text
    assert (np.arange(1) / 1).tolist() == [0.0]


def test_ch02_position_5_halfway_and_a_tenth():
    text = flat(CH02)
    assert 'Position 5 means "halfway" in one sequence and "a tenth of the way" in another' in text
    assert 5 / 10 == 0.5 and 5 / 50 == 0.1


def digits(n):
    p = np.arange(n)
    return np.stack([(p // 10 ** c) % 10 for c in range(4)], axis=1)


def test_ch02_digit_columns():
    text = flat(CH02)
    assert "In the first 512 positions the thousands column never leaves 0." in text
    short = digits(512)
    assert (short[:, 3] == 0).all() and not (short[:, 2] == 0).all()
    assert ("the ones digit cycles 0 to 9 a thousand times, the tens digit holds each value for "
            "ten positions and cycles a hundred times") in text
    full = digits(10_000)
    ones_cycles = int(np.sum(np.diff(full[:, 0]) == -9)) + 1
    tens_runs = np.diff(np.flatnonzero(np.diff(full[:, 1])))
    tens_cycles = int(np.sum(np.diff(full[:, 1]) == -9)) + 1
    assert ones_cycles == 1000 and set(tens_runs.tolist()) == {10} and tens_cycles == 100


def attend(x, w, causal=False):
    s = (x @ w[0]) @ (x @ w[1]).T / np.sqrt(w[0].shape[1])
    if causal:
        s = np.where(np.tri(len(x), dtype=bool), s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ (x @ w[2])


def test_ch01_dog_bites_man_and_the_layers_above():
    text = flat(CH01)
    assert ('Biter or bitten, "dog" gets the same vector. Layers above that ignore slots cannot '
            'tell the two apart either; a causal layer can.') in text
    rng = np.random.default_rng(0)
    w = [rng.normal(0.0, 8 ** -0.5, (8, 8)) for _ in range(3)]
    vec = {t: np.random.default_rng([0, *t.encode()]).normal(0.0, 1.0, 8)
           for t in ("dog", "bites", "man")}
    a = np.array([vec[t] for t in "dog bites man".split()])
    b = np.array([vec[t] for t in "man bites dog".split()])
    out_a, out_b = attend(a, w), attend(b, w)
    assert np.allclose(out_a[0], out_b[2])                                   # the same vector
    assert np.allclose(attend(out_a, w)[0], attend(out_b, w)[2])             # a layer above
    assert not np.allclose(attend(out_a, w, causal=True)[0], attend(out_b, w, causal=True)[2])


# Second batch of flips (p12m): each of these sentences' flipped word also left its page passing.

def toy(words, d=8):
    return np.array([np.random.default_rng([0, *t.encode()]).normal(0.0, 1.0, d) for t in words])


def weights8():
    rng = np.random.default_rng(0)
    return [rng.normal(0.0, 8 ** -0.5, (8, 8)) for _ in range(3)]


def attend_weights(x, w):
    s = (x @ w[0]) @ (x @ w[1]).T / np.sqrt(w[0].shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_ch01_shuffle_sentences():
    from itertools import permutations
    text = flat(CH01)
    w, x, order = weights8(), toy(TOKENS), [3, 0, 4, 2, 1]
    out, a = attend(x, w), attend_weights(x, w)
    assert "The attention weights are the same numbers as before" in text
    assert np.allclose(np.sort(attend_weights(x[order], w), axis=None), np.sort(a, axis=None))
    assert "The output *matrix* did change: its rows moved." in text
    moved = attend(x[order], w)
    assert not np.allclose(moved, out) and np.allclose(moved, out[order])
    assert "Encoders, which use no mask, get no such signal at all." in text
    assert all(np.allclose(attend(x[list(o)], w), out[list(o)]) for o in permutations(range(5)))
    assert "Slots 1 and 2 are where the swap happens" in text
    swap = [0, 2, 1, 3, 4]
    assert [t for t in range(5) if swap[t] != t] == [1, 2]


def test_ch01_exercise_3_words_only():
    text = flat(CH01)
    assert ("Shuffling only the words pairs each word with a new position: a different sentence, "
            "so the outputs differ") in text
    w, x, order = weights8(), toy(TOKENS), [3, 0, 4, 2, 1]
    i, j = np.arange(5)[:, None], np.arange(4)
    pe = np.zeros((5, 8))
    pe[:, 0::2], pe[:, 1::2] = np.sin(i / 10000 ** (2 * j / 8)), np.cos(i / 10000 ** (2 * j / 8))
    assert not np.allclose(attend(x[order] + pe, w), attend(x + pe, w)[order])


def cos(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_ch02_raw_index_sentences():
    text = flat(CH02)
    cat, dog = toy(["cat", "dog"], 64)
    assert "the two words become indistinguishable and each stops resembling itself" in text
    assert cos(cat + 100, dog + 100) > 0.999 > cos(cat, dog) and abs(cos(cat, cat + 100)) < 0.1
    assert "The vector the first layer receives is almost all position" in text
    assert np.linalg.norm(np.full(64, 1000.0)) > 1000 * np.linalg.norm(cat)
    assert "entries of \"cat\" sum to a negative number" in text
    assert cat.sum() < 0
    assert "Scaling moves the problem, it does not fix it" in text
    first = [next(p for p in range(5000) if cos(cat + p / s, dog + p / s) > 0.99)
             for s in (1, 10, 100)]
    assert first[0] < first[1] < first[2]                 # moved, and still reached


def test_ch02_digits_and_nan():
    text = flat(CH02)
    short = digits(512)
    assert "the hundreds column is 0 for the first 100 positions" in text
    assert np.flatnonzero(short[:, 2])[0] == 100 and np.flatnonzero(short[:, 1])[0] == 10
    assert "That share belongs to short sequences" in text
    assert np.mean(short == 0) > np.mean(digits(10_000) == 0)
    assert "In floating point it gives NaN" in text
    with np.errstate(invalid="ignore"):
        assert np.isnan(np.float64(0) / np.float64(0))


# Third batch of flips (p12m).

CH03 = ROOT / "docs/chapters/03-what-should-a-good-encoding-satisfy.md"
CH15 = ROOT / "docs/chapters/15-what-came-next.md"


def test_ch01_answer_mask_and_pointers():
    text = flat(CH01)
    assert 'So "dog bites man" and "man bites dog" give "dog" the same output.' in text
    w = weights8()
    assert np.allclose(attend(toy("dog bites man".split()), w)[0],
                       attend(toy("man bites dog".split()), w)[2])
    assert "some* signal about order: how many tokens each position can see" in text
    assert np.tri(5, dtype=bool).sum(axis=1).tolist() == [1, 2, 3, 4, 5]
    assert "order information only through *which prefix* a token sees" in text
    assert "Chapter 15 meets it again as ALiBi." in text
    assert "ALiBi adds a penalty proportional to the distance" in flat(CH15)


def test_ch02_answer_and_conventions():
    text = flat(CH02)
    cat, dog = toy(["cat", "dog"], 64)
    assert 'at position 1000 "cat" and "dog" point almost the same way' in text
    assert cos(cat + 1000, dog + 1000) > 0.9999
    assert "gives every position but the first a value that depends on the length" in text
    assert {0 / L for L in range(1, 60)} == {0.0}
    assert all(len({p / L for L in range(p + 1, 60)}) == 59 - p for p in range(1, 59))
    assert "which is the first property of chapter 3" in text
    assert re.search(r"\*\*Answer\.\*\* \w+ properties, each precise enough to compute: "
                     r"\*\*bounded\*\*", flat(CH03))
    assert "neither convention removes the dependence on the length" in text
    assert len({(L - 1) / L for L in (2, 4, 10)}) == 3      # pos/L: the last value moves with L
    assert [1 / (L - 1) for L in (3, 6)] != [1 / 2, 1 / 2]  # pos/(L-1): index 1 moves with L


# Fourth batch of flips (p12m).

def test_ch01_setup_and_sources():
    text = flat(CH01)
    # Vaswani et al. (2017), section 3.2.1: "Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V  (1)"
    assert "(Vaswani et al., 2017, equation 1)" in text
    assert r"\operatorname{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}}\right) V" in text
    assert "a five-word sentence with no repeated word" in text
    assert len(set(TOKENS)) == len(TOKENS) == 5
    assert "such as averaging the rows to classify a sentence, sees no difference at all" in text
    w, x, order = weights8(), toy(TOKENS), [3, 0, 4, 2, 1]
    moved, out = attend(x[order], w), attend(x, w)
    assert np.allclose(moved.mean(axis=0), out.mean(axis=0)) and not np.allclose(moved[0], out[0])
    assert "a vector that depends on its position alone" in text
    assert "posenc.encode(3, d_model) # one row per position 0, 1, 2" in text   # no word input
    # Haviv et al. (2022) train causal (decoder-only) language models without positions
    assert "decoder-only language models trained with no positional encoding" in text


def test_ch02_conventions_and_scale():
    text = flat(CH02)
    assert "which makes the last position exactly 1" in text
    assert all((np.arange(L) / (L - 1))[-1] == 1.0 and (np.arange(L) / (L - 1))[0] == 0.0
               for L in range(2, 200))
    assert "stretched a hundred times along the position axis" in text
    cat, dog = toy(["cat", "dog"], 64)
    assert all(np.isclose(cos(cat + p / 100, dog + p / 100), cos(cat + q, dog + q))
               for p, q in ((100, 1.0), (750, 7.5), (800, 8.0)))
    assert "creeps towards 1 without reaching it" in text
    lasts = [(L - 1) / L for L in (1, 2, 4, 10, 1000, 2 ** 52)]
    assert lasts == sorted(lasts) and max(lasts) < 1
    assert "(64 entries each, roughly standard normal)" in text
    assert abs(cat.mean()) < 0.3 and 0.8 < cat.std() < 1.2 and cat.min() < 0
