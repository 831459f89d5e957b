"""The claims page's first half, as review-2026-12 p6g pass 6 left it.

Sentences whose number word, single digit or direction the review flipped in a scratch copy with
every check still passing are bound here: each test reads the word from the page and recomputes it
without the page's own block. Also the fairseq layout (#differs-slightly) and the column-in-the-
exponent reading (#i-is-the-dimension), whose old wording must not come back.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from tests.site.test_errata_review_p5i import entry, flat

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "errata.md"
WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "first": 1,
         "second": 2, "third": 3}
WHY = "review-2026-12 p6g pass 6: "
OLD = [
    ("Code that reads \\(i\\) as the column", WHY + "maxjcohen puts the column (2i + 1), not i, "
     "in the exponent"),
    ("the first three rows; but there", WHY + "the seed's first three rows are 0-1, 64-65, 128-129"),
    ("gives all four rows", WHY + "the seed's table has five rows"),
    ("differ by up to 0.71. See", WHY + "fairseq also puts the sines first: up to 2.0 from the "
     "paper's table"),
]


def prose(anchor: str) -> str:
    """The entry up to its first code block: its markers quote the sentences they bind."""
    return entry(anchor).split("```")[0]


def word(pattern: str, anchor: str) -> tuple:
    found = re.search(pattern, prose(anchor))
    assert found, (anchor, pattern)
    return tuple(WORDS[g] if g in WORDS else int(g) for g in found.groups())


def paper(n_pos: int, d: int) -> np.ndarray:
    angle = np.arange(n_pos)[:, None] * 10000.0 ** (-2 * (np.arange(d) // 2) / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))


def test_old_wording_stays_gone():
    text = flat(PAGE.read_text())
    for phrase, why in OLD:
        assert flat(phrase) not in text, why


def test_annotated_transformer_plot_columns_are_two_pairs():
    first, last, pairs = word(r"shows dimensions (\d+) to (\d+), (\w+) pairs", "each-dimension")
    columns = np.arange(first, last + 1)
    assert first % 2 == 0 and len(columns) % 2 == 0            # whole pairs, sine first
    assert pairs == len(set(columns // 2)) == 2


def test_per_column_pair_norm_runs_from_almost_zero_to_almost_two():
    low, high, stays = word(r"wanders between almost (\d+) and almost (\d+) instead of staying (\d+)",
                            "per-column-exponent")
    d, pos = 512, np.arange(1024.0)[:, None]
    angle = pos / np.power(10000, 2 * np.arange(d) / d)
    norm = np.sin(angle[:, 0::2]) ** 2 + np.cos(angle[:, 1::2]) ** 2
    assert abs(norm.min() - low) < 0.01 and abs(norm.max() - high) < 0.01
    table = paper(1024, d)
    assert np.allclose(table[:, 0::2] ** 2 + table[:, 1::2] ** 2, stays) and stays == 1


def test_next_pair_loop_steps_by_two():
    """`i` is already even only if the loop steps by two from 0; the doubled exponent follows."""
    (step,) = word(r"The loop steps the column `i` by (\w+)", "cos-next-pair")
    d = 512
    col = np.arange(0, d, step)
    assert step == 2 and np.all(col % 2 == 0) and len(col) == d // 2
    assert np.allclose(2 * col / d, 2 * (2 * np.arange(d // 2)) / d)   # twice the paper's 2i/d


def test_interleaving_changes_position_zero():
    (row,) = word(r"position (\d+) included", "breaks-trained-models")
    d = 64
    inter, concat = paper(256, d), np.empty((256, d))
    angle = np.arange(256)[:, None] * 10000.0 ** (-2 * np.arange(d // 2) / d)
    concat[:, : d // 2], concat[:, d // 2:] = np.sin(angle), np.cos(angle)
    assert row == 0
    assert inter[row].tolist() == [0.0, 1.0] * (d // 2)
    assert concat[row].tolist() == [0.0] * (d // 2) + [1.0] * (d // 2)


def test_divisor_exceeds_one_after_the_first_pair():
    (after,) = word(r"which exceeds 1 after the (\w+) pair", "wavelength-divisor")
    divisor = 10000.0 ** (2 * np.arange(256) / 512)
    assert after == 1 == int(np.flatnonzero(divisor > 1)[0])   # pair 0's divisor is exactly 1


def test_min_timescale_direction():
    """Multiplying puts min_timescale itself at the fastest inverse timescale."""
    text = prose("min-timescale")
    assert r"becomes \(2\pi / \text{min}\) instead of \(2\pi \cdot \text{min}\)" in text
    for m in (0.5, 2.0, 3.0):
        inc = math.log(1e4 / m) / 3
        multiplied, divided = m * math.exp(0 * -inc), math.exp(0 * -inc) / m
        assert math.isclose(2 * math.pi / multiplied, 2 * math.pi / m)
        assert math.isclose(2 * math.pi / divided, 2 * math.pi * m)


def test_log_space_direct_power_rounds_closer():
    import mpmath
    assert "and the direct power rounds closer" in prose("log-space")
    step = -(math.log(10000.0) / 512)
    worst_exp = worst_power = 0.0
    for i in range(0, 512, 2):
        exact = mpmath.power(10000, mpmath.mpf(-i) / 512)
        worst_exp = max(worst_exp, abs(float((mpmath.mpf(math.exp(i * step)) - exact) / exact)))
        worst_power = max(worst_power, abs(float((mpmath.mpf(float(exact)) - exact) / exact)))
    assert worst_power < worst_exp


def test_fairseq_layout_against_the_papers_table():
    """fairseq's get_embedding, written out: half_dim - 1 spacing, all sines then all cosines."""
    layout_max, = re.search(r"up to 0\.71 \(([\d.]+) with fairseq's sines-first layout\)",
                            prose("differs-slightly")).groups()
    half = 256
    emb = np.arange(512)[:, None] * np.exp(np.arange(half) * -(math.log(10000) / (half - 1)))
    fairseq = np.concatenate([np.sin(emb), np.cos(emb)], axis=1)
    assert round(float(np.abs(fairseq - paper(512, 512)).max()), 1) == float(layout_max) == 2.0


def test_column_in_the_exponent_covers_all_three_codes():
    """jadore801120 and SamLynnEvans give column c the exponent 2c/d; maxjcohen gives c/d (base
    1000): all three put the column in the exponent, only the first two read i as the column."""
    assert "Code that puts the column in the exponent changes the table" in flat(PAGE.read_text())
    d = 64
    c = np.arange(d)
    per_column = 2 * c / d                                       # jadore801120, SamLynnEvans
    maxjcohen = np.where(c % 2 == 0, np.arange(0, d, 2).repeat(2), np.arange(1, d, 2).repeat(2)) / d
    assert np.allclose(maxjcohen, c / d)                         # the column itself
    assert not np.allclose(maxjcohen, per_column)                # not i read as the column
    assert not np.allclose(per_column, 2 * (c // 2) / d)         # neither is the paper's
