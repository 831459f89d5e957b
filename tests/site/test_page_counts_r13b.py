"""Words on chapter 6 that no page check bound, and two fixed mechanisms (review-2026-12 r13b:
ch05 pass 10, ch06 pass 7).

r13b flipped words outside the claim-word list in a scratch copy of chapter 6 (similar to
different, neighbours to far apart, rises to turns back, is not to is, separates to confuses,
comparable to to much shorter than, stays confused to is separated, mirror to whole-turn,
geometrically to linearly). Each false flip passed harness.rules and every prose test. Each
sentence is read here and its word computed in plain NumPy (no posenc), so each flip fails.
Two entries bind sentences whose mechanism r13b corrected: the hand at 11 (a mirror pair, not
the turns, ends the run of multiples that leave offset-44 pairs closest) and the frequencies
near 0.5 (their slow hand collides as a mirror pair, not by whole turns).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.site.test_page_counts_p12b import CH06, closest, mean_distance, page, pairs_by_distance, sines

POS = np.arange(100)
SLOW = (1.0, 0.1, 0.01, 0.001)


def _turns_off(x: float) -> float:
    return abs(x - round(x))


def _odd_multiple_of_pi(total: float, w: float, tol: float) -> bool:
    """Is w * total within tol (in units of pi) of an odd multiple of pi (a mirror pair)?"""
    k = total * w / np.pi
    return _turns_off(k) < tol and round(k) % 2 == 1


def near_far_rows(near: str, far: str) -> bool:
    """Four slow hands over 1024 positions: neighbours 0.62 apart on average, positions 500 or
    more apart 1.58."""
    t = sines(1024, SLOW)
    d_near, d_far = mean_distance(t, [1]), mean_distance(t, range(500, 1024))
    return d_far > 2 * d_near and (near, far) == ("similar", "different")


def less_where(words: str) -> bool:
    """Over positions 0 to 99 the hand 0.001 lifts the three hands' minimum by under 0.1% (their
    closest pair 45, 46 are neighbours) and the two hands' 5.5-fold (closest pair 63 apart)."""
    d3, a3, b3 = pairs_by_distance(sines(100, SLOW[:3]))[0]
    d2, a2, b2 = pairs_by_distance(sines(100, SLOW[:2]))[0]
    lift_neighbours = closest(sines(100, SLOW)) / d3
    lift_far = closest(sines(100, (1.0, 0.1, 0.001))) / d2
    ok = b3 - a3 == 1 and b2 - a2 > 1 and lift_neighbours < 1.001 < 5 < lift_far
    return ok and words == "neighbours"


def slow_sine_path(words: str) -> bool:
    """sin(0.01 pos) over 0 to 99: 0.01 * 99 < pi / 2, and every step is up."""
    rises = bool(np.all(np.diff(np.sin(0.01 * POS)) > 0)) and 0.01 * 99 < np.pi / 2
    return {"rises all the way": rises, "turns back": not rises}.get(words, False)


def simple_fraction(words: str) -> bool:
    """Two-hand clocks (1, w): 0.46 and 0.49, not simple fractions, beat 0.5; 0.48 and 0.51 do
    worse: what sets the minimum is not being a simple fraction."""
    d = {w: closest(sines(100, (1.0, w))) for w in (0.46, 0.48, 0.49, 0.5, 0.51)}
    mixed = d[0.46] > d[0.5] and d[0.49] > d[0.5] and d[0.48] < d[0.5] and d[0.51] < d[0.5]
    return {"is not": mixed, "is": not mixed}.get(words, False)


def slow_separates(word: str) -> bool:
    """Pair 10, 12 of the clock (1, 0.01): the fast hand 0.0075 apart, the slow hand 0.0198."""
    fast = abs(np.sin(10) - np.sin(12))
    slow = abs(np.sin(0.1) - np.sin(0.12))
    return abs(slow / 0.02 - 1) < 0.05 and slow > 2 * fast and word == "separates"


def slowest_period(words: str) -> bool:
    """Exercise 2: the page measures four hands as the first over 0.001 on 10,000 positions; the
    fourth's period 6283 is comparable to the range (0.63 of it), the third's 628 a sixteenth."""
    text = page(CH06)
    four = re.search(r">>> min\(m for m in far if far\[m\] > 0\.001\) (\d+) ", text)
    ratio = (2 * np.pi / 0.001) / 10_000
    ok = four is not None and four.group(1) == "4" and 0.5 < ratio < 2 \
        and (2 * np.pi / 0.01) / 10_000 < 0.1
    return ok and words == "comparable to"


def confused_pair(words: str) -> bool:
    """Clock (1, 3): sin 3x is a polynomial in sin x, so its closest pair is the single hand's,
    11 and 55, at most sqrt(1 + 9^2) times farther apart."""
    d1, a1, b1 = pairs_by_distance(np.sin(POS))[0]
    d3, a3, b3 = pairs_by_distance(sines(100, (1.0, 3.0)))[0]
    stays = (a3, b3) == (a1, b1) and d3 <= np.sqrt(82) * d1 * (1 + 1e-9)
    return {"stays confused": stays, "is separated": not stays}.get(words, False)


def hand_at_2_breaks(kind: str) -> bool:
    """The single hand's mirror pairs (8, 14: a + b = 22) are far apart in the clock (1, 2); its
    whole-turn pairs (11, 55: 44 steps, 7 turns) stay its closest."""
    t = sines(100, (1.0, 2.0))
    mirror_gap = float(np.linalg.norm(t[8] - t[14]))
    closest5 = pairs_by_distance(t)[:5]
    whole_kept = all(b - a == 44 for _, a, b in closest5)
    single_mirror = abs(np.sin(8) - np.sin(14)) < 0.002
    return single_mirror and mirror_gap > 0.5 and whole_kept and kind == "mirror"


def formula_falls(how: str) -> bool:
    """posenc's frequencies at d_model 64, base 10000: 10000^(-2i/64), one ratio 0.7499."""
    w = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    ratios = w[1:] / w[:-1]
    steps = -np.diff(w)
    geometric = float(np.ptp(ratios)) < 1e-12 and abs(ratios[0] - 0.7499) < 1e-4
    linear = float(np.ptp(steps)) < 1e-12
    return {"geometrically": geometric, "linearly": linear}.get(how, False)


def hand_at_11(eleven: str, kind: str) -> bool:
    """Clock (1, 11) over 0 to 99: closest pair 5, 17 (a + b = 22, near 7 pi; 11 * 22 near 77 pi),
    a mirror pair of both hands; after 44 steps the hand at 11 is 0.031 turns off, less than the
    hand at 12 (0.034), whose closest pair is 44 apart again."""
    m = int(eleven)
    _, a, b = pairs_by_distance(sines(100, (1.0, m)))[0]
    mirror = _odd_multiple_of_pi(a + b, 1.0, 0.01) and _odd_multiple_of_pi(a + b, m, 0.05)
    whole = _turns_off((b - a) / (2 * np.pi)) < 0.05
    _, a12, b12 = pairs_by_distance(sines(100, (1.0, m + 1)))[0]
    not_turns = _turns_off(44 * m / (2 * np.pi)) < _turns_off(44 * (m + 1) / (2 * np.pi)) \
        and b12 - a12 == 44
    return m == 11 and not_turns and {"mirror": mirror and not whole,
                                      "whole-turn": whole}.get(kind, False)


def near_half_collide(kind: str) -> bool:
    """Clocks (1, 0.48) and (1, 0.51): their closest pairs (14, 58) and (55, 99) are mirror pairs
    of the slow hand (0.48 * 72 and 0.51 * 154 within 0.01 pi of 11 pi and 25 pi) and over 0.3
    turns off whole turns; (1, 0.5)'s pair 11, 99 is 7.003 whole turns of the slow hand."""
    ok = True
    for w in (0.48, 0.51):
        _, a, b = pairs_by_distance(sines(100, (1.0, w)))[0]
        ok &= _odd_multiple_of_pi(a + b, w, 0.01) and _turns_off((b - a) * w / (2 * np.pi)) > 0.3
    _, a, b = pairs_by_distance(sines(100, (1.0, 0.5)))[0]
    ok &= _turns_off((b - a) * 0.5 / (2 * np.pi)) < 0.01
    return ok and kind == "mirror"


HOLDS = [
    (CH06, r"near positions get (\w+) rows, far positions (\w+) ones", near_far_rows),
    (CH06, r"and lift its minimum less where the closest pair are ([\w ]+?)\.", less_where),
    (CH06, r"\\\(0\.01 \\cdot 99 < \\pi/2\\\), so the sine ([\w ]+?)\)", slow_sine_path),
    (CH06, r"Yet being a simple fraction (is not|is) what sets the minimum", simple_fraction),
    (CH06, r"and that the slow hand (\w+) by about \\\(2 \\times 0\.01\\\)", slow_separates),
    (CH06, r"the slowest hand needs a period ([\w ]+?) the range", slowest_period),
    (CH06, r"A pair the single hand confuses ([\w ]+?), its gap magnified", confused_pair),
    (CH06, r"which is why the hand at 2 breaks the ([\w-]+) pairs\.", hand_at_2_breaks),
    (CH06, r"The frequencies of the final formula fall (\w+), by a ratio", formula_falls),
    (CH06, r"leaves such pairs closest \(at (\d+) a ([\w-]+) pair comes closer\)", hand_at_11),
    (CH06, r"Which pair collides on both hands, by whole turns or as a ([\w-]+) pair", near_half_collide),
]


def _id(entry) -> str:
    return entry[0][14:18] + ":" + re.sub(r"[^A-Za-z0-9 ]", "", entry[1])[:36]


@pytest.mark.parametrize("entry", HOLDS, ids=_id)
def test_statement_holds(entry):
    path, pattern, holds = entry
    found = re.findall(pattern, page(path))
    assert found, f"{path}: the sentence {pattern!r} is gone; update this test with it"
    for match in found:
        assert holds(*(match if isinstance(match, tuple) else (match,))), (pattern, match)
