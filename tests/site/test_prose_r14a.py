"""Sentences of chapters 1 and 2 whose words no page check reads (review-2026-12 r14a): a flip of
a word outside the claim-word list (a scope, a count word, an association of two numbers) left
each page passing. Each test finds the sentence on the page (harness.says) and recomputes what it
says with NumPy, without posenc (chapter 3's property list aside), so that the flip fails here.
One test per page."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import numpy as np

from harness.says import flat, holds, says

ROOT = Path(__file__).resolve().parents[2]
CH01 = ROOT / "docs/chapters/01-why-positions.md"
CH02 = ROOT / "docs/chapters/02-what-if-we-use-the-index.md"
ORDERS = [list(o) for o in permutations(range(5))]


def toy(words, d):
    return np.array([np.random.default_rng([0, *t.encode()]).normal(0.0, 1.0, d) for t in words])


def attend(x, causal=False, bias=0.0, value_bias=0.0, d=8):
    rng = np.random.default_rng(0)
    w_q, w_k, w_v = (rng.normal(0.0, d ** -0.5, (d, d)) for _ in range(3))
    s = (x @ w_q) @ (x @ w_k).T / np.sqrt(d) + bias
    if causal:
        s = np.where(np.tri(len(x), dtype=bool), s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ (x @ w_v + value_bias)


def kept(f, x, o):
    """Which rows of the shuffled output equal the token's old row."""
    a, b = f(x), f(x[o])
    return [bool(np.allclose(b[t], a[o[t]])) for t in range(len(o))]


def ln(h):
    return (h - h.mean(axis=1, keepdims=True)) / h.std(axis=1, keepdims=True)


def test_ch01_stack_scope_and_the_score_route():
    text = flat(CH01)
    x = toy("the quick brown fox jumps".split(), 8)
    w_ff = np.random.default_rng(1).normal(0.0, 8 ** -0.5, (8, 8))

    def block(h):
        h = ln(h + attend(h))
        return ln(h + np.maximum(h @ w_ff, 0))

    # U1: a whole stack (two and three blocks with layer norm) only moves the rows
    stack = all(all(kept(lambda h: block(block(block(h))), x, o)) for o in ORDERS[::7])
    says(text, "so a whole stack of Transformer layers inherits the same property", stack)

    # U4: the prefix-set rule holds in one causal layer, not in two
    def prefix_set_rule(f):
        return all(kept(f, x, o) == [set(o[:t + 1]) == set(range(o[t] + 1)) for t in range(5)]
                   for o in ORDERS)
    one = prefix_set_rule(lambda h: attend(h, causal=True))
    two = prefix_set_rule(lambda h: attend(attend(h, causal=True), causal=True))
    says(text, "In one layer, the mask gives a decoder order information only through", one and not two)

    # F1: one causal layer keeps some rows a causal layer with positions changes (partly);
    # two and three keep exactly the rows it keeps (fully)
    pe = np.zeros((5, 8))
    i, j = np.arange(5)[:, None], np.arange(4)
    pe[:, 0::2], pe[:, 1::2] = np.sin(i / 10000 ** (2 * j / 8)), np.cos(i / 10000 ** (2 * j / 8))
    with_positions = [kept(lambda h: attend(h + pe[:len(h)], causal=True), x, o) for o in ORDERS]

    def word(layers):
        def f(h):
            for _ in range(layers):
                h = attend(h, causal=True)
            return h
        return "fully" if [kept(f, x, o) for o in ORDERS] == with_positions else "partly"
    holds(text, r"a causal mask breaks it (\w+) in one layer, (\w+) from two layers on",
          lambda w1, w2: (w1, w2, w2) == (word(1), word(2), word(3)), "F1")

    # U3: the exercise's slot bias sits on the scores and breaks equivariance there; the
    # sentence names the scores, not the values
    bias = -np.abs(np.subtract.outer(np.arange(5), np.arange(5))) / 2
    on_scores = not all(kept(lambda h: attend(h, bias=bias), x, [3, 0, 4, 2, 1]))
    says(text, "add a position-dependent term to the scores", on_scores)
    says(text, "add a position-dependent term to the values", False)


def test_ch02_counts_gaps_and_thresholds():
    text = flat(CH02)
    p = np.arange(10_000)
    full = np.stack([(p // 10 ** k) % 10 for k in range(4)], axis=1)
    fractions = {"tenth": 1 / 10, "fifth": 1 / 5, "quarter": 1 / 4, "third": 1 / 3, "half": 1 / 2}
    # U5: over all 10,000 positions a tenth of the entries are zero
    holds(text, r"and only a (\w+) of the entries are zero",
          lambda word: fractions[word] == np.mean(full == 0), "U5")
    # U6: the gap between neighbours is 1/L, each number with its own length
    holds(text, r"(\d\.\d\d) between every two neighbours in a (\d+)-token sequence, "
                r"(\d\.\d\d) in a (\d+)-token one",
          lambda g1, n1, g2, n2: (float(g1), float(g2)) == (round(1 / int(n1), 2),
                                                            round(1 / int(n2), 2)), "U6")
    # U7, U8: the unscaled crossing of 0.99 and the prediction made from it
    cat, dog = toy(["cat", "dog"], 64)

    def cos(a, b):
        return a @ b / np.linalg.norm(a) / np.linalg.norm(b)
    first = next(q for q in range(100) if cos(cat + q, dog + q) > 0.99)
    digit_words = {"single-digit": range(1, 10), "two-digit": range(10, 100)}
    holds(text, r"first exceed a cosine similarity of 0\.99 at a (\S+) position",
          lambda word: first in digit_words[word], "U7")
    holds(text, r"The tempting prediction is (\d+)\.", lambda v: int(v) == 100 * first, "U8")
    # U9: size (the raw index) and scale (digits, at most 9) fail one and the same property
    from posenc import properties as P
    one_property = ("bounded" in P.PROPERTIES and not any("scale" in k for k in P.PROPERTIES)
                    and not P.check("raw_index", "bounded").passed
                    and not P.check("decimal_digits", "bounded").passed)
    says(text, '(size and scale become one, "bounded")', one_property)
