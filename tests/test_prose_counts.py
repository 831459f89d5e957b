"""Small counts in prose that the number rule reads as words: each is compared with its value.

harness/numbers.py skips integers 0 to 9 and number words ("six bits"): they are read as words
and checked through the code around them. Review-2026-12 p5c pass 5 flipped such counts in
chapters 3 and 4 ("\\(\\sqrt 6\\)" to "\\(\\sqrt 5\\)", "six bits" to "five", "in five seeds" to
"four", "8 columns or fewer" to "6") and every page check still passed. Here each count is read
from its sentence and compared with a value computed in plain Python or NumPy (posenc only for a
lab record), so a flipped count fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
CH03 = "docs/chapters/03-what-should-a-good-encoding-satisfy.md"
CH04 = "docs/chapters/04-from-digits-to-waves.md"
NUMBER_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}


def bits_differing(a: int, b: int) -> int:
    return bin(a ^ b).count("1")


def gray(n: int) -> int:
    return n ^ (n >> 1)


def widest_not_local(base: float = 10000.0) -> int:
    """The widest even d_model that fails chapter 3's locality (neighbours against offsets
    16 to 255), after checking that every narrower even width fails it too."""
    k = np.arange(1, 256)
    failing = []
    for d in range(2, 65, 2):
        w = base ** (-np.arange(0, d, 2) / d)
        dist = np.sqrt((2 - 2 * np.cos(np.outer(k, w))).sum(axis=1))
        failing.append(dist[0] / dist[15:].min() >= 1)
    widest = 2 * (failing.index(False))
    assert all(failing[: widest // 2]) and not any(failing[widest // 2:])
    return widest


def offset_seeds() -> int:
    from posenc.lab.experiments import verdict
    return len(verdict("offset", "index-finds-3-back")["per_seed"])


# (page, pattern with one group per count, value of each group); every match is compared.
COUNTS = [
    (CH04, r"Going from 31 to 32 flips (\w+) bits at once", lambda: bits_differing(31, 32)),
    (CH04, r"a move of \\\(\\sqrt (\d+)\\\)", lambda: bits_differing(31, 32)),
    (CH04, r"from \\\(\\sqrt (\d+)\\\) for plain binary", lambda: bits_differing(31, 32)),
    (CH04, r"The jump of \\\(\\sqrt (\d+)\\\)", lambda: bits_differing(31, 32)),
    (CH04, r"one step can flip (\w+) bits",
     lambda: max(bits_differing(a, a + 1) for a in range(63))),
    (CH04, r"to 33, flips (\w+) bit", lambda: bits_differing(32, 33)),
    (CH04, r"positions three apart differ in one bit or in (\w+)",
     lambda: max(bits_differing(gray(j), gray(j + 3)) for j in range(4093))),
    (CH04, r"Two steps always flip (\w+) different bits",
     lambda: {bits_differing(gray(j), gray(j + 2)) for j in range(4094)}.pop()),
    (CH03, r"with (\d+) columns or fewer", widest_not_local),
    (CH03, r"in (\w+) seeds, the small model", offset_seeds),
    (CH03, r"(\w+) bits flip, a jump of \\\(\\sqrt\{(\d+)\}\\\)",
     lambda: bits_differing(31, 32)),
    (CH03, r"into position 64 would flip (\w+) bits", lambda: bits_differing(63, 64)),
    (CH03, r"need entries (\w+) times larger", lambda: round(1023 / 255)),
    (CH03, r"(\w+) bits are enough for 4096 positions", lambda: (4096 - 1).bit_length()),
    # review-2026-12 p6d pass 6: more small counts of chapter 3 that a flip left passing
    (CH03, r"\*\*Answer\.\*\* (\w+) properties, each precise", lambda: len(properties().PROPERTIES)),
    (CH03, r"None of the (\w+) naive candidates", lambda: len(candidates()) - 1),
    (CH03, r"Here are the (\w+), drawn over positions", lambda: len(candidates())),
    (CH03, r"drawn over positions 0 to (\d+)\. For the sinusoidal", lambda: gallery_last()),
    (CH03, r"whose first (\w+) columns are all fast", lambda: fast_columns_hidden()),
    (CH03, r"up to 1024 \(positions 0 to 1023\), (\w+) times longer", lambda: 1024 // 256),
    (CH03, r"\(by (\d) when a decimal digit rolls over\)",
     lambda: max(abs(int(a) - int(b)) for n in range(9999) for a, b in zip(f"{n:04d}", f"{n + 1:04d}"))),
    (CH03, r"the sinusoid's cosines reach it at position (\d+)", lambda: cosines_at_one()),
    (CH03, r"(\w+) fast sines whose frequencies share no period", lambda: ch06_counter_example_size()),
    (CH03, r"which covers the paper's (\w+) widths", lambda: len({512, 1024} & set(range(10, 1025, 2)))),
    (CH03, r"So (\w+) of the properties reduce to that function", lambda: len(BY_OFFSET)),
    (CH03, r"The other (\w+) hold at any width", lambda: len(properties().PROPERTIES) - len(BY_OFFSET)),
    (CH03, r"(\w+) verdicts change\.", lambda: verdicts_changed_by_strict_threshold()),
]

# Chapter 3's fold: the four properties that reduce to the distance at offset k.
BY_OFFSET = ("unique", "extends", "smooth", "local")


def properties():
    from posenc import properties as P
    assert set(BY_OFFSET) <= set(P.PROPERTIES)
    return P


def candidates():
    from posenc.candidates import CANDIDATES
    return CANDIDATES


def gallery_last() -> int:
    text = (ROOT / CH03).read_text()
    return int(re.search(r"last = (\d+)\s+# positions 0 \.\. last", text)[1])


def fast_columns_hidden() -> int:
    """The gallery's default panel shows the first max_columns columns; for the sinusoid at
    d_model 64 each of them completes more than 7 turns over positions 0 to 63."""
    import inspect
    from posenc.plots.candidates import gallery
    shown = inspect.signature(gallery).parameters["max_columns"].default
    omega = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    assert all(64 * omega[j // 2] / (2 * np.pi) > 7 for j in range(shown))
    return shown


def cosines_at_one() -> int:
    omega = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    return int(np.flatnonzero((np.cos(np.outer(np.arange(1024), omega)) == 1).all(axis=1))[0])


def ch06_counter_example_size() -> int:
    text = re.sub(r"\s+", " ", (ROOT / "docs/chapters/06-many-clocks.md").read_text())
    omegas = re.search(r"no common period, \\\(\\omega = ([^)]*?)\\\)", text)[1]
    return len(omegas.split(","))


def verdicts_changed_by_strict_threshold() -> int:
    """Exercise 2: (candidate, check) verdicts that change when the threshold goes from 0.001
    to 0.05; both checks that use it (unique, extends) run at each threshold."""
    P = properties()
    checks = {"unique": P.unique, "extends": P.extends}
    loose = P.DISTINCT
    def verdicts():
        return {(k, c): f(k).passed for k in candidates() for c, f in checks.items()}
    before = verdicts()
    try:
        P.DISTINCT = 0.05
        after = verdicts()
    finally:
        P.DISTINCT = loose
    return sum(before[key] != after[key] for key in before)


def as_number(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS[text.lower()]


@pytest.mark.parametrize("page, pattern, value", COUNTS,
                         ids=[f"ch{p[14:16]}:" + re.sub(r"[^A-Za-z0-9 ]", "", pat)[:30] for p, pat, _ in COUNTS])
def test_small_count_agrees(page, pattern, value):
    text = re.sub(r"\s+", " ", (ROOT / page).read_text())
    found = re.findall(pattern, text)
    assert found, f"{page}: the sentence {pattern!r} is gone; update this test with it"
    expected = value()
    for match in found:
        for group in (match if isinstance(match, tuple) else (match,)):
            assert as_number(group) == expected, (page, pattern, group, expected)
