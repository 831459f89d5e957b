"""Sentences of chapters 9 and 10 whose flipped word left every page check passing
(review-2026-12 r14d): before/after and earlier/later inside a sentence that still says the other
word elsewhere, "closer" (no claim word), and "later positions". Each test finds the sentence
on the page (harness.says) and recomputes what it says with NumPy, without posenc, so that the
flip fails here. One test per page."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harness.says import flat, says

ROOT = Path(__file__).resolve().parents[2]
CH09 = ROOT / "docs/chapters/09-does-it-keep-its-promises.md"
CH10 = ROOT / "docs/chapters/10-inside-attention.md"


def offset_dots(k, d_model: int, base: float = 10_000.0) -> np.ndarray:
    """sum_i cos(omega_i k), the dot product of two rows k apart."""
    omegas = base ** (-np.arange(0, d_model, 2) / d_model)
    return np.cos(np.multiply.outer(np.asarray(k, dtype=float), omegas)).sum(axis=-1)


def test_ch09_words_whose_flips_passed():
    text = flat(CH09)
    steps = np.arange(1001)
    rises, climbs, after = [], [], []
    for d in (64, 128, 512):
        up = np.diff(offset_dots(steps, d)) > 0
        j_min = int(np.flatnonzero(up)[0])             # the first local minimum
        j_max = j_min + int(np.argmin(up[j_min:]))     # the end of the rise after it
        curve = offset_dots(np.arange(j_max + 1), d)
        climbs.append(round(float(curve[j_max] - curve[j_min]), 4))
        rises.append(int(up.sum()))
        after.append(not up[:j_min].any())             # no rise before the first minimum
    assert climbs == [0.0554, 0.0371, 0.0117] and rises == [490, 479, 444]
    # ":408" the climb comes after the first local minimum, and so does every rise
    says(text, "(after its first local minimum the dot product climbs back by only 0.0554, "
               "0.0371 and 0.0117), but after it the curve rises on 490, 479 and 444",
         all(after))
    # ":319" width 128: of positions 1 to 999,999 none is closer to position 0 than 1
    omegas = 10_000.0 ** (-np.arange(0, 128, 2) / 128)
    best = max(float(np.cos(np.outer(np.arange(s, min(s + 100_000, 10**6)), omegas))
                     .sum(axis=1).max()) for s in range(2, 10**6, 100_000))
    says(text, "none comes closer to position 0 than position 1 does",
         best < float(np.cos(omegas).sum()))
    # Exercise 2: the first negative offset is later for each larger base of 100, 10^4, 10^6
    negative = [int(np.flatnonzero(offset_dots(np.arange(10_000), 64, b) < 0)[0])
                for b in (100.0, 10_000.0, 1_000_000.0)]
    says(text, "hold the sum up. Prediction: later.", negative == sorted(negative))


def test_ch10_words_whose_flips_passed():
    text = flat(CH10)
    dots = offset_dots(np.arange(64), 16)              # position 0 against positions 0 to 63
    went_up = np.flatnonzero(np.diff(dots) > 0) + 1
    assert went_up[:5].tolist() == [4, 5, 6, 11, 12]
    # ":196" the offsets that go up are positive: the later positions
    says(text, "The dot product of position 0 with the later positions goes up again at several "
               "offsets", went_up.size > 2 and bool((went_up > 0).all()))
