"""The claims page's first half, as review-2026-12 p5i pass 5 left it.

Single digits and number words pass the page's number checker whatever they say, so the
sentences below whose count or small number the review flipped without a failing check are bound
here: each test reads the number from the page and recomputes it without the page's own block.
Also: the two Changes lines that blamed the cosine columns alone, and the index row of the YaRN
entry, which dropped the entry's scope.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

import posenc

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "errata.md"
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10}


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def entry(anchor: str) -> str:
    text = flat(PAGE.read_text())
    start = text.index("{#" + anchor + "}")
    end = text.find("### ", start)
    return text[start:end]

def entry_prose(anchor: str) -> str:
    """The entry up to its first code block, whitespace flattened."""
    return entry(anchor).split("```")[0]


def found_in(pattern: str, anchor: str) -> tuple:
    """The groups of ``pattern`` in the entry's prose (fails when it is not there)."""
    match = re.search(pattern, entry_prose(anchor))
    assert match, (anchor, pattern)
    return match.groups()



def number(pattern: str, anchor: str) -> tuple:
    found = re.search(pattern, entry(anchor))
    assert found, (anchor, pattern)
    return tuple(WORDS.get(g, None) or int(g) for g in found.groups())


def loop_tables(d: int, n_pos: int) -> tuple[np.ndarray, np.ndarray]:
    """jadore801120's per-column line and SamLynnEvans' loop, each written out as its code runs."""
    pos = np.arange(float(n_pos))[:, None]
    angle = pos / np.power(10000, 2 * np.arange(d) / d)
    per_column = np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))
    loop = np.empty((n_pos, d))
    for i in range(0, d, 2):
        loop[:, i] = np.sin(pos[:, 0] / (10000 ** ((2 * i) / d)))
        loop[:, i + 1] = np.cos(pos[:, 0] / (10000 ** ((2 * (i + 1)) / d)))
    return per_column, loop


def test_changes_line_names_every_column_that_differs():
    """Both codes give column j the exponent 2j/d, so the sine columns get other frequencies too:
    every column but column 0 differs from the paper's table."""
    d = 512
    per_column, loop = loop_tables(d, 1024)
    paper = posenc.encode(1024, d)
    for table, anchor in ((per_column, "per-column-exponent"), (loop, "cos-next-pair")):
        differ = np.abs(table - paper).max(axis=0) > 1e-9
        assert int(differ.sum()) == d - 1 and not differ[0], anchor
        assert int(differ[0::2].sum()) == d // 2 - 1, anchor                # sine columns too
        changes = entry(anchor).split("**Changes a model's output?**")[1]
        assert "all columns but the first differ" in changes, anchor
    # maxjcohen's base 1000 moves its sines too (its cosines also take (2i + 1)/d)
    d = 64
    j = np.arange(d)
    own = 1000.0 ** (j / d)                                     # 2i/d and (2i + 1)/d
    differ = ~np.isclose(own, 10000.0 ** (2 * (j // 2) / d))
    assert int(differ.sum()) == d - 1 and not differ[0]
    assert "all columns but the first differ" in entry("cos-odd-exponent").split(
        "**Changes a model's output?**")[1]
    assert "the cosine columns get other frequencies" not in flat(PAGE.read_text())


def test_next_pair_loop_is_the_per_column_table():
    """The two bugs are one table: the page says so and points at the entry above."""
    per_column, loop = loop_tables(64, 300)
    assert np.array_equal(per_column, loop)
    assert r"Column \(j\) gets \(2j/d\): [the column-j table](#per-column-exponent)" in entry("cos-next-pair")


def test_yarn_row_keeps_the_entrys_scope():
    """The paper's ramp is linear in the number of turns, as it says; the verdict is about the
    released code and the models that run it."""
    text = PAGE.read_text()
    row = next(r for r in text.splitlines() if "(#yarn-paper-vs-code) |" in r)
    assert row.split("|")[2].strip() == "wrong for the models", row
    assert "**Verdict: wrong for the models**" in entry("yarn-paper-vs-code")


def test_base_repeat_about_six_times():
    (times,) = number(r"period is about (\w+) times that", "base-repeat")
    lam = 2 * math.pi * 10000.0 ** ((512 - 2) / 512)
    assert times == round(lam / 10000.0) == 6


def test_yarn_factor_in_prose_is_the_blocks():
    head, length, factor = number(r"For head width (\d+), training length (\d+) and factor (\d+)",
                                  "yarn-paper-vs-code")
    block = re.search(r"d, length, s, base = (\d+), (\d+), ([\d.]+), ", entry("yarn-paper-vs-code"))
    assert (head, length, float(factor)) == (int(block[1]), int(block[2]), float(block[3]))


def test_min_timescale_agrees_only_at_one():
    (agree_at,) = number(r"With `min_timescale = (\d+)` multiplying and dividing agree",
                         "min-timescale")
    num, top = 4, 1e4
    def inverse(m, divide):
        decay = np.exp(np.arange(num) * -(math.log(top / m) / (num - 1)))
        return decay / m if divide else m * decay
    grid = [0.25, 0.5, 1.0, 2.0, 3.0, 10.0]
    same = [m for m in grid if np.allclose(inverse(m, False), inverse(m, True))]
    assert same == [float(agree_at)] == [1.0]


def test_padding_idx_rows_and_positions():
    reads, zeroed = number(r"first real token reads row (\d+) of the table, and row (\d+), reserved",
                           "padding-idx")
    got, instead = number(r"encoding of position (\d+), not (\d+)", "padding-idx")
    padding_idx = 1
    ids = np.array([5, 6, 7, padding_idx, padding_idx])
    real = ids != padding_idx
    positions = np.cumsum(real) * real + padding_idx            # fairseq's make_positions
    assert (reads, zeroed, got, instead) == (positions[0], padding_idx, positions[0], 0) == (2, 1, 2, 0)


def test_swapped_frequencies_run_from_one_to_thousands():
    low, high = re.search(r"run from (\d+) up to (\w+) of radians", entry("divide-by-div-term")).groups()
    swapped = 10000.0 ** (2 * np.arange(256) / 512)
    scale = {"tens": 10, "hundreds": 100, "thousands": 1000}[high]
    assert float(swapped.min()) == int(low) == 1
    assert scale <= swapped.max() < 10 * scale


def test_wavelength_table_row_counts():
    """p6g pass 6: the seed's table has five rows (0-1 at about 6.3 first), not four; the three
    quoted wavelengths are its rows 64-65 to 192-193, not its first three."""
    (rows,) = number(r"gives all (\w+) rows", "wavelength-table")
    assert "1578.26, as quoted; but there" in entry("wavelength-table")
    quoted = {0: 6.3, 32: 40, 64: 250, 96: 1580, 127: 62832}     # the seed's five rows
    lam = 2 * math.pi * 10000.0 ** (2 * np.array(list(quoted)) / 320)
    within = np.abs(lam / np.array(list(quoted.values())) - 1) < 0.01
    assert rows == len(quoted) == 5
    assert within.tolist() == [True, True, True, True, False]    # all but the last at 320


def test_index_over_length_sequence_lengths():
    short, long = number(r"index 1 is 0\.33 in a (\d+)-token sequence, 0\.17 in a (\d+)-token one",
                         "strictly-between")
    assert (round(1 / short, 2), round(1 / long, 2)) == (0.33, 0.17)
    assert posenc.BASE == 10000.0                                 # the page's imports hold
