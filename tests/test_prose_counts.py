"""Small counts in prose that the number rule reads as words: each is compared with its value.

harness/numbers.py skips integers 0 to 9 and number words ("six bits"): they are read as words
and checked through the code around them. Review-2026-12 p5c pass 5 flipped such counts in
chapters 3 and 4 ("\\(\\sqrt 6\\)" to "\\(\\sqrt 5\\)", "six bits" to "five", "in five seeds" to
"four", "8 columns or fewer" to "6") and every page check still passed. Here each count is read
from its sentence and compared with a value computed in plain Python or NumPy (posenc only for a
lab record), so a flipped count fails.

Review-2026-12 p6e pass 6 did the same in chapter 13 (how precise is the table): "the 8 fastest
columns" to 6, "4 times in float64" to 3, "four products" to three and others passed the page
check. Its counts are computed here with mpmath, NumPy and torch; posenc only where the count is of
the page's own code (its methods, its fold's columns, its timing loop).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
CH03 = "docs/chapters/03-what-should-a-good-encoding-satisfy.md"
CH04 = "docs/chapters/04-from-digits-to-waves.md"
CH13 = "docs/chapters/13-how-precise-is-the-table.md"
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


def spelling_error(d: int, form: str, dtype: str) -> float:
    """Largest relative error, in machine epsilons, of the frequencies spelled `form` in `dtype`,
    with a correctly rounded pow or exp (mpmath, rounded once): chapter 13's table, recomputed."""
    import math
    import mpmath
    t = {"float32": np.float32, "float64": np.float64}[dtype]
    bits = {"float32": 24, "float64": 53}[dtype]
    worst = mpmath.mpf(0)
    with mpmath.workdps(40):
        factor = t(-math.log(10000.0) / d)
        for i in range(d // 2):
            exact = mpmath.power(10000, -mpmath.mpf(2 * i) / d)
            if form == "power":
                value = mpmath.power(10000, mpmath.mpf(float(-t(2 * i) / t(d))))
            else:
                value = mpmath.exp(mpmath.mpf(float(t(2 * i) * factor)))
            with mpmath.workprec(bits):
                value = +value
            worst = max(worst, abs(value / exact - 1))
    return float(worst) / float(np.finfo(t).eps)


def complex_product_terms() -> tuple:
    """Real products and sums in sin(s+r), cos(s+r) written out (one complex product)."""
    sin_sum = ["sin s * cos r", "cos s * sin r"]
    cos_sum = ["cos s * cos r", "sin s * sin r"]
    return len(sin_sum) + len(cos_sum), (len(sin_sum) - 1) + (len(cos_sum) - 1)


def ch13_text() -> str:
    return re.sub(r"\s+", " ", (ROOT / CH13).read_text())


def bfloat16_bits() -> int:
    import torch
    return 1 - int(np.log2(torch.finfo(torch.bfloat16).eps))


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
    (CH13, r"The figure shows how far (\w+) of them land",
     lambda: len(__import__("posenc.precision", fromlist=["p"]).METHODS) - 1),
    (CH13, r"The first (\w+) decades hold 9,990", lambda: len({len(str(p)) for p in range(10, 10_000)})),
    (CH13, r"For the last (\w+) an upper bound",
     lambda: len(range(1, 6)) - len({len(str(p)) for p in range(10, 10_000)})),
    (CH13, r"the (\d+) fastest columns still follow",
     lambda: int(re.search(r"\)\[:, :(\d+)\]\.astype\(float\)", ch13_text()).group(1))),
    (CH13, r"one bfloat16 step of the angle is (\d+) radians", lambda: 1024 // 2 ** (bfloat16_bits() - 1)),
    (CH13, r"which keeps (\d+) significant bits", bfloat16_bits),
    (CH13, r"evaluates (\w+) spellings in float32",
     lambda: len(re.findall(r"^- the (?:power|reciprocal|tutorial's exponential)",
                            (ROOT / CH13).read_text(), re.M))),
    (CH13, r"2\.4 times in float32 and (\d+) times in float64",
     lambda: round(spelling_error(768, "exp", "float64") / spelling_error(768, "power", "float64"))),
    (CH13, r"between 8 and 9\.21 is (\d+) epsilons",
     lambda: round(float(np.spacing(8.0)) / 2 / float(np.finfo(np.float64).eps))),
    (CH13, r"every other entry is (\w+) products", lambda: complex_product_terms()[0]),
    (CH13, r"products and (\w+) sums in float64", lambda: complex_product_terms()[1]),
    (CH13, r"the starts one row per \\\(c\\\) plus (\d+)", lambda: 512 // 64),
    (CH13, r"one exact row per group of (\w+)", lambda: 512 // 64),
    (CH13, r"median of (\d+) interleaved runs",
     lambda: int(re.search(r"for _ in range\((\d+)\):", ch13_text()).group(1))),
    (CH13, r"less precise than the power form in float32, not more: (\w+) times",
     lambda: int(spelling_error(512, "exp", "float32") / spelling_error(512, "power", "float32"))),
    (CH13, r"Prediction: about (\w+) times larger",
     lambda: 10 ** round(np.log10(float(np.spacing(np.float32(50_000))) / 2 / 2.0**-12))),
    (CH13, r"the rest, over (\d+) epsilons", lambda: int(spelling_error(512, "exp", "float32") - 0.5)),
    (CH13, r"just \*below\* 1 they are (\w+) as dense",
     lambda: round(float(np.spacing(1.0)) / float(1.0 - np.nextafter(1.0, 0.0)))),
    (CH13, r"its (\w+) fastest pairs alone cross",
     lambda: int((10000.0 ** (-np.arange(0, 64, 2) / 64) > 0.5).sum())),
]


def as_number(text: str) -> int:
    return int(text) if text.isdigit() else {**NUMBER_WORDS, "twice": 2}[text.lower()]


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


def test_ch13_summary_ratio_names_its_width():
    """The Summary's "2.4 times at 768": a flip of the width (to 1024) passed the page check."""
    found = re.findall(r"(\d\.\d) times at (\d+)\.", ch13_text())
    assert found, "chapter 13's Summary sentence on the exp/power ratio is gone"
    for ratio, width in found:
        d = int(width)
        assert round(spelling_error(d, "exp", "float32") / spelling_error(d, "power", "float32"), 1) \
            == float(ratio), (ratio, width)
