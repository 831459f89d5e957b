"""Chapter 7 words that no page check reads (flip tests by review-2026-12 p12l pass 4 survived on
each): the word the page prints is compared with the word a NumPy computation gives, so flipping
the word in the prose, or a change that flips the fact, fails here. No posenc call."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harness.says import flat

PAGE = Path(__file__).resolve().parents[2] / "docs/chapters/07-why-pair-sine-with-cosine.md"


def text() -> str:
    return flat(PAGE)


def pair(pos):
    return np.array([np.sin(pos), np.cos(pos)])          # (sin, cos), omega = 1


def test_growing_angle_turns_clockwise_with_sine_across():
    a = np.linspace(0, 2 * np.pi, 13)
    x, y = np.sin(a), np.cos(a)                            # sine across, cosine up
    turn = x[:-1] * y[1:] - y[:-1] * x[1:]                 # z of the cross product, step by step
    word = "clockwise" if (turn < 0).all() else "counter-clockwise"
    assert f"moves the point *{word}*: shifting" in text()


def test_textbook_transpose_shifts_backwards():
    b = 3.0
    block = np.array([[np.cos(b), np.sin(b)], [-np.sin(b), np.cos(b)]])
    assert np.allclose(block @ pair(10), pair(13))
    word = "backwards" if np.allclose(block.T @ pair(10), pair(7)) else "forwards"
    assert f"Getting this wrong silently shifts {word}" in text()


def test_positions_8_and_14_cosines_have_opposite_signs():
    word = "opposite signs" if np.sign(np.cos(8)) != np.sign(np.cos(14)) else "the same sign"
    assert round(np.sin(8), 2) == round(np.sin(14), 2)     # sines agree to two decimals
    assert f"their sines agree to two decimals, their cosines have {word}" in text()


def test_the_fifth_couple_and_the_first_four():
    a, b = np.triu_indices(100, 1)
    order = np.argsort(np.abs(np.sin(a) - np.sin(b)), kind="stable")[:5]
    couples = [(int(a[i]), int(b[i])) for i in order]
    ordinals = ["first", "second", "third", "fourth", "fifth"]
    assert f"The {ordinals[couples.index((8, 14))]} couple is the one this note is about" in text()
    near = sum((q - p) % 44 == 0 for p, q in couples)     # near-repeats: 44 or 88 apart
    counts = {3: "three", 4: "four", 5: "five"}
    assert near == 4 and couples[:4] == [c for c in couples if (c[1] - c[0]) % 44 == 0]
    assert f"The first {counts[near]} are a different failure" in text()
