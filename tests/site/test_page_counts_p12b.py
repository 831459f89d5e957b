"""Words on chapters 5 and 6 that no page check bound (review-2026-12 p12b: ch05 pass 9, ch06 pass 6).

p12b flipped words outside the claim-word list in a scratch copy (crest to zero crossing, separates
to confuses, need not to must, neither to each, fail to pass, first to last, both to one, whole to
half turns, neighbours to distant positions, second hand to minute hand, fast hand to slow hand,
the other hand to its own hand, no common period to a common period, same to different, ...).
Each false flip passed harness.rules and every prose test. Each sentence is read here and its
word computed in plain NumPy (no posenc, except where the sentence is about what posenc's check
or figure does), so each flip fails.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.site.test_prose_counts import ROOT
from harness.says import flat, holds

CH05 = "docs/chapters/05-is-one-sine-enough.md"
CH06 = "docs/chapters/06-many-clocks.md"
POS = np.arange(100)


def page(path: str) -> str:
    return flat(ROOT / path)


def pairs_by_distance(table):
    """All pairs (a, b), a < b, of the rows of `table`, closest first: (distance, a, b)."""
    t = np.asarray(table, float)
    t = t[:, None] if t.ndim == 1 else t
    a, b = np.triu_indices(len(t), 1)
    d = np.linalg.norm(t[a] - t[b], axis=1)
    order = np.argsort(d, kind="stable")
    return [(float(d[i]), int(a[i]), int(b[i])) for i in order]


def closest(table) -> float:
    return pairs_by_distance(table)[0][0]


def sines(n, omegas):
    p = np.arange(n) if np.isscalar(n) else np.asarray(n)
    return np.sin(np.multiply.outer(p, np.asarray(omegas, float)))


# ----------------------------------------------------------------------------- chapter 5

def fast_wave_neighbours(word: str) -> bool:
    """sin(pos): every step over positions 0 to 99 is above 2/99 (smallest 0.034)."""
    step = float(np.abs(np.diff(np.sin(POS))).min())
    return {"separates": step > 2 / 99, "confuses": step < 0.001}.get(word, False)


def slow_pair_place(word: str) -> bool:
    """The closest pair of sin(0.1 pos), 78 and 79, sits where the wave is near +1."""
    _, a, b = pairs_by_distance(np.sin(0.1 * POS))[0]
    mid = float(np.sin(0.1 * (a + b) / 2))
    return (b - a == 1) and {"crest": mid > 0.99, "crests": mid > 0.99, "trough": mid < -0.99,
                             "troughs": mid < -0.99, "zero crossing": abs(mid) < 0.1,
                             "zero crossings": abs(mid) < 0.1}.get(word, False)


def equal_sines_when(word: str) -> bool:
    """sin a = sin b when b - a is a whole number of turns (2 pi m); half turns give -sin a."""
    a = np.random.default_rng(0).uniform(-10, 10, 1000)
    whole = max(float(np.abs(np.sin(a + 2 * np.pi * m) - np.sin(a)).max()) for m in (1, 2, 3))
    half = min(float(np.abs(np.sin(a + np.pi * m) - np.sin(a)).max()) for m in (1, 3, 5))
    return {"whole": whole < 1e-9 and half > 1, "half": half < 1e-9}.get(word, False)


def six_is_close_return(words: str) -> bool:
    """Position 6 against 0: 0.279 apart; 17 of positions 1 to 99 are closer to 0, and (0, 6) is
    not among the 100 closest pairs of sin(pos)."""
    v = np.sin(POS)
    gap = abs(v[6] - v[0])
    closer = int(np.sum(np.abs(v[1:] - v[0]) < gap))
    top = {(a, b) for _, a, b in pairs_by_distance(v)[:100]}
    is_not = closer == 17 and (0, 6) not in top
    return {"is not": is_not, "is": not is_not}.get(words, False)


def need_not_coincide(need: str, alldiff: str) -> bool:
    """The 100 values of sin(pos) are all different, so values in [-1, 1] need not coincide."""
    distinct = len(np.unique(np.sin(POS))) == len(POS)
    return distinct and (need, alldiff) == ("need not", "all")


def even_reaches(words: str) -> bool:
    gap = closest(np.linspace(-1, 1, 100))
    return {"reach": abs(gap - 2 / 99) < 1e-12,
            "stay short of": gap < 2 / 99 - 1e-12}.get(words, False)


def slow_closest_pair(words: str) -> bool:
    _, a, b = pairs_by_distance(np.sin(0.1 * POS))[0]
    return (a, b) == (78, 79) and {"neighbours": b - a == 1,
                                   "distant positions": b - a > 1}.get(words, False)


def uniqueness_and_offsets(neither: str, first: str, fail: str) -> bool:
    """Over positions 0 to 255 (the first 256; posenc.properties.unique is handed exactly those),
    both waves have a pair under 0.001; the distance at offset k spreads over positions for both."""
    from posenc import properties as P   # the sentence is about what chapter 3's check looks at

    seen = []

    def record(pos, length=None):
        pos = np.arange(pos) if np.isscalar(pos) else np.asarray(pos)   # an int n: 0 .. n - 1
        seen.append(pos)
        return np.sin(pos.astype(float))[:, None]

    P.unique(record)
    looked = seen[0]
    first_256 = looked.size == 256 and looked.min() == 0 and looked.max() == 255
    p = np.arange(256)
    under = [closest(np.sin(w * p)) < 1e-3 for w in (1.0, 0.1)]
    spread = [max(float(np.ptp(np.abs(np.sin(w * (p[k:])) - np.sin(w * p[:-k]))))
                  for k in range(1, 17)) for w in (1.0, 0.1)]
    fails = [s > 1e-9 for s in spread]
    return ({"Neither": all(under), "Each": not any(under)}.get(neither, False)
            and {"first": first_256, "last": not first_256}.get(first, False)
            and {"fail": all(fails), "pass": not any(fails)}.get(fail, False))


def summary_coincide(words: str) -> bool:
    """100 values in [-1, 1] have a pair within 2/99, yet none need coincide (evenly spaced)."""
    return words == "though none need coincide" and len(np.unique(np.linspace(-1, 1, 100))) == 100


def closest_to_multiple(words: str) -> bool:
    """Sums of two of the first 100 positions run 1 to 197: 22 is closest to a multiple of pi."""
    miss = {n: abs(n - np.pi * round(n / np.pi)) for n in range(1, 198)}
    return {"closest to": min(miss, key=miss.get) == 22,
            "farthest from": max(miss, key=miss.get) == 22}.get(words, False)


def equality_needs(words: str) -> bool:
    """Equal gaps with a total below 2, and a total of 2 with unequal gaps: each falls short, so
    equality needs both steps tight."""
    short = closest(np.linspace(-1, 0.9, 100)) < 2 / 99
    spans = closest(np.sort(np.r_[-1, 1, np.random.default_rng(0).uniform(-1, 1, 98)])) < 2 / 99
    return {"both steps": short and spans, "one of the steps": not (short and spans)}.get(
        words, False)


def proof_uses(words: str) -> bool:
    """The bound holds for any 100 values in [-1, 1]: cos, tanh, a chirp, random sets."""
    fs = [np.cos(POS), np.tanh(POS / 50 - 1), np.sin(0.01 * POS ** 2)]
    fs += list(np.random.default_rng(0).uniform(-1, 1, (200, 100)))
    return words == "nothing about" and all(closest(v) <= 2 / 99 for v in fs)


# ----------------------------------------------------------------------------- chapter 6

QUICK = (1.0, np.sqrt(2), np.sqrt(3), np.sqrt(5))
SLOW = (1.0, 0.1, 0.01, 0.001)


def hands_roles(fast: str, slow: str) -> bool:
    """Two hands, 1 and 0.1: the fast one's neighbours are typically 0.68 apart (the slow one's
    0.073); the fast one's lap pair 11, 55 (0.000235) is over 1.5 apart in the slow hand."""
    step = {w: float(np.median(np.abs(np.diff(np.sin(w * POS))))) for w in (1.0, 0.1)}
    lap = abs(np.sin(0.1 * 55) - np.sin(0.1 * 11))
    return step[1.0] > 9 * step[0.1] and lap > 1.5 and (fast, slow) == ("fast", "slow")


def clock_hand(word: str) -> bool:
    """10 s and 70 s: the same second-hand reading, different minute-hand readings."""
    second, minute = (lambda t: t % 60), (lambda t: t // 60 % 60)
    return {"second": second(10) == second(70) and minute(10) != minute(70),
            "minute": minute(10) == minute(70)}.get(word, False)


def hand_is(words: str) -> bool:
    x = np.linspace(0, 50, 501)
    periodic = bool(np.allclose(np.sin(x + 2 * np.pi), np.sin(x))) and all(
        (t + 60) % 60 == t % 60 for t in range(120))
    return words == "" and periodic and float(np.abs(np.sin(x)).max()) <= 1


def path_axes(across: str, drift: str) -> bool:
    """The figure's x axis is the first column, sin(pos), whose steps are typically 0.68; the y axis
    sin(0.1 pos), typically 0.073."""
    from posenc.plots.uniqueness import clock_path   # the sentence is about this figure

    table = sines(100, (1.0, 0.1))
    fig = clock_path(table, labels=("sin(pos)", "sin(0.1 pos)"))
    ax = fig.axes[0]
    x, y = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    fast_on_x = (ax.get_xlabel() == "sin(pos)" and np.allclose(x, table[:, 0])
                 and np.allclose(y, table[:, 1]))
    import matplotlib.pyplot as plt
    plt.close(fig)
    typical = [float(np.median(np.abs(np.diff(table[:, j])))) for j in (0, 1)]
    return fast_on_x and typical[0] > 9 * typical[1] and (across, drift) == (
        "horizontally", "up and down")


def worst_pairs(first: str, second: str) -> bool:
    _, a, b = pairs_by_distance(np.sin(POS))[0]
    _, c, d = pairs_by_distance(np.sin(0.1 * POS))[0]
    return (a, b, c, d) == (11, 55, 78, 79) and (first, second) == ("fast", "slow")


def separated_by(words: str) -> bool:
    """In (sin pos, sin 0.1 pos): 11, 55 differ under 0.001 in the fast column and over 1 in the
    slow one; 78, 79 under 0.001 in the slow column and over 0.9 in the fast one."""
    t = sines(100, (1.0, 0.1))
    d1, d2 = np.abs(t[55] - t[11]), np.abs(t[79] - t[78])
    other = d1[0] < 1e-3 < 1 < d1[1] and d2[1] < 1e-3 < 0.9 < d2[0]
    return {"other": other, "its own": not other}.get(words, False)


def common_period(word: str) -> bool:
    """1, sqrt 2, sqrt 3, sqrt 5: no ratio of two is a fraction p/q with q up to 10,000 (to 1e-12),
    so no common period (2 pi p / w the same for all)."""
    def fraction(r):
        return any(abs(r * q - round(r * q)) < 1e-12 * q for q in range(1, 10_001))
    ratios = [QUICK[i] / QUICK[j] for i in range(4) for j in range(i + 1, 4)]
    return {"no": not any(fraction(r) for r in ratios),
            "a": all(fraction(r) for r in ratios)}.get(word, False)


def uniqueness_needs_slow(words: str) -> bool:
    beats = [closest(sines(n, QUICK)) > closest(sines(n, SLOW)) for n in (100, 256)]
    return {"does not": all(beats), "does": not any(beats)}.get(words, False)


def mean_distance(t, offsets) -> float:
    return float(np.concatenate([np.linalg.norm(t[k:] - t[:-k], axis=1) for k in offsets]).mean())


def neighbour_vs_far(fast_words: str, slow_words: str) -> bool:
    """Over 1024 positions: fast hands, neighbours 1.98 against 1.91 for offsets 500 or more;
    slow hands 0.62 against 1.58."""
    near, far = {}, {}
    for name, w in (("fast", QUICK), ("slow", SLOW)):
        t = sines(1024, w)
        near[name], far[name] = mean_distance(t, [1]), mean_distance(t, range(500, 1024))
    return ({"no closer": near["fast"] >= far["fast"],
             "much closer": near["fast"] < far["fast"] / 2}.get(fast_words, False)
            and {"much closer": near["slow"] < far["slow"] / 2,
                 "no closer": near["slow"] >= far["slow"]}.get(slow_words, False))


def offsets_spread(w, n=256, max_k=16) -> float:
    t = sines(n, w)
    return max(float(np.ptp(np.linalg.norm(t[k:] - t[:-k], axis=1))) for k in range(1, max_k + 1))


def four_hands_offsets(word: str) -> bool:
    fails = offsets_spread(SLOW) > 1e-9
    return {"fails": fails, "passes": not fails}.get(word, False)


def local_ratio(t, n=256, far=16) -> float:
    """Chapter 3's locality number: largest neighbour step over the smallest distance between two
    of positions 0 .. n - 1 at least `far` apart (below 1 passes)."""
    t = t[:n]
    near = float(np.linalg.norm(np.diff(t, axis=0), axis=1).max())
    return near / min(float(np.linalg.norm(t[k:] - t[:-k], axis=1).min()) for k in range(far, n))


def local_how(first: str, second: str) -> bool:
    t = sines(1024, SLOW)
    on_average = mean_distance(t, [1]) < mean_distance(t, range(500, 1024)) / 2
    pair_by_pair = local_ratio(t) < 1
    return on_average and not pair_by_pair and (first, second) == ("on average", "pair by pair")


def with_cosines(words: str) -> bool:
    """Each sine with its cosine: one step size everywhere (spread under 1e-9), and the locality
    number at these four frequencies is still 1.49, above 1."""
    angles = np.multiply.outer(np.arange(1024), SLOW)
    t = np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
    even = float(np.ptp(np.linalg.norm(np.diff(t, axis=0), axis=1))) < 1e-9
    fails = local_ratio(t) > 1
    return even and {"still fails": fails, "passes": not fails}.get(words, False)


def scorecard_verdicts(word: str) -> bool:
    """Chapter 3's scorecard row for the four hands fails consistent offsets and local only, as
    computed here: offsets spread 2.2, locality number 14.8, closest pair over 256 0.0301."""
    from posenc import properties as P   # the sentence is about the scorecard's row

    failed = {prop for prop in P.PROPERTIES if not P.check("several_sines", prop).passed}
    own = (offsets_spread(SLOW) > 1e-9 and local_ratio(sines(256, SLOW)) > 1
           and closest(sines(256, SLOW)) >= 1e-3)
    same = own and failed == {"consistent_offsets", "local"}
    return {"same": same, "different": not same}.get(word, False)


def sine_only_offsets(words: str) -> bool:
    fail = all(offsets_spread(w) > 1e-9 for w in (SLOW, (1.0,), (1.0, 0.1)))
    return {"still fail": fail, "now pass": not fail, "pass": not fail}.get(words, False)


def half_of_one(word: str) -> bool:
    """0.5 is half of 1: after an even number 2m of fast turns the slow hand has made m, a whole
    number; after an odd number, a half. The pair 11, 99: 14.006 fast turns, 7.003 slow."""
    fast, slow = 88 / (2 * np.pi), 88 * 0.5 / (2 * np.pi)
    even_case = round(fast) % 2 == 0 and abs(slow - round(slow)) < 0.01
    odd_slow = 3 * 0.5      # three fast turns: one and a half slow turns
    return {"even": even_case and abs(odd_slow - round(odd_slow)) > 0.4,
            "odd": False}.get(word, False)


def pair_10_12(words: str) -> bool:
    """10 + 12 = 22 is 7.003 pi (an odd multiple: a mirror pair); 12 - 10 is 0.32 turns."""
    mirror = abs(22 / np.pi - 7) < 0.01 and round(22 / np.pi) % 2 == 1
    whole = abs(2 / (2 * np.pi) - round(2 / (2 * np.pi))) < 0.01
    return {"mirror pair": mirror and not whole, "whole-turn pair": whole}.get(words, False)


def beat_slow_hand(words: str) -> bool:
    base = closest(sines(100, (1.0, 0.1)))
    beats = [closest(sines(100, (1.0, w))) > base for w in (0.5, 0.01)]
    return {"Both beat": all(beats), "Neither beats": not any(beats)}.get(words, False)


def neighbours_8342(words: str) -> bool:
    return {"neighbours": 8343 - 8342 == 1, "far-apart positions": 8343 - 8342 > 1}.get(
        words, False)


def sixth_hand(words: str, hand: str) -> bool:
    """The sixth hand (1e-5) moves a neighbour pair by at most 1e-5: the four hands' gap at 8342,
    8343 (0.01576) grows by at most a relative 2.0e-7. Earlier the fourth hand (0.001) moved the
    three hands' closest pair over 100 positions, neighbours 45 and 46, under 0.1%; the third
    hand over 100 positions lifted the two hands' minimum 5.8-fold."""
    h = [0.1 ** j for j in range(6)]
    d = float(np.linalg.norm(sines([8342], h[:4]) - sines([8343], h[:4])))
    bound = np.sqrt(d ** 2 + 1e-10) / d - 1
    _, a, b = pairs_by_distance(sines(100, h[:3]))[0]
    fourth = closest(sines(100, h[:4])) / closest(sines(100, h[:3])) - 1
    third = closest(sines(100, h[:3])) / closest(sines(100, h[:2])) - 1
    earlier = {"fourth": b - a == 1 and fourth < 1e-3, "third": third < 1e-3}
    return bound < 2.1e-7 and {"neighbours": True, "far apart": False}.get(words, False) \
        and earlier.get(hand, False)


def period_of_1_and_2(words: str) -> bool:
    x = np.linspace(0, 20, 2001)
    same = bool(np.allclose(sines(x + 2 * np.pi, (1.0, 2.0)), sines(x, (1.0, 2.0))))
    return {"the same": same, "a different": not same}.get(words, False)


def second_hand_breaks(kind: str, sign: str, near: str) -> bool:
    """Mirror pairs a + b = (2m + 1) pi: sin 2b = -sin 2a, so their gap in the hand at 2 is
    2 |sin 2a|, small only where sin 2a is near 0. Whole-turn pairs keep sin 2b = sin 2a."""
    a = np.random.default_rng(0).uniform(0, 2 * np.pi, 1000)
    b_mirror, b_whole = 7 * np.pi - a, a + 14 * np.pi
    flips = bool(np.allclose(np.sin(2 * b_mirror), -np.sin(2 * a)))
    keeps = bool(np.allclose(np.sin(2 * b_whole), np.sin(2 * a)))
    gap = np.abs(np.sin(2 * b_mirror) - np.sin(2 * a))
    small_near_0 = bool(np.all(gap[np.abs(np.sin(2 * a)) < 0.01] < 0.02))
    return flips and keeps and small_near_0 and (kind, sign, near) == ("mirror", "-", "0")


def left_after_two(word: str) -> bool:
    pairs = pairs_by_distance(sines(100, (1.0, 2.0)))[:5]
    near_whole = abs(44 / (2 * np.pi) - 7) < 0.01
    return all(b - a == 44 for _, a, b in pairs) and {"whole": near_whole}.get(word, False)


def one_and_a_half(off: str, beats: str) -> bool:
    turns = 44 * 1.5 / (2 * np.pi)
    half_off = abs(turns - np.floor(turns) - 0.5) < 0.01
    m = {w: closest(sines(100, (1.0, w))) for w in (1.5, 2.0, 0.1)}
    wins = m[1.5] > max(m[2.0], m[0.1])
    return {"half a turn": half_off}.get(off, False) and {"beats": wins, "loses to": not wins}.get(
        beats, False)


def hand_at_3(word: str) -> bool:
    """sin 3x = 3 sin x - 4 sin^3 x: no information beyond sin x; the (1, 3) clock's minimum
    is the single hand's 11, 55 gap times sqrt(1 + 9^2)."""
    x = np.arange(100.0)
    poly = bool(np.allclose(np.sin(3 * x), 3 * np.sin(x) - 4 * np.sin(x) ** 3))
    d1 = closest(np.sin(x))
    predicted = abs(closest(sines(100, (1.0, 3.0))) / (np.sqrt(82) * d1) - 1) < 0.01
    return poly and predicted and {"no": True, "new": False}.get(word, False)


def sin2x_needs(words: str) -> bool:
    """x and pi - x share sin x but have opposite sin 2x: sin 2x needs cos x too."""
    x = np.random.default_rng(0).uniform(0.1, 1.4, 100)
    same_sin = bool(np.allclose(np.sin(x), np.sin(np.pi - x)))
    opposite = bool(np.allclose(np.sin(2 * (np.pi - x)), -np.sin(2 * x)))
    return same_sin and opposite and words == "the cosine too"


FAR = np.arange(1, 200_001)
OMEGAS64 = 10000.0 ** (-np.arange(0, 64, 2) / 64)


def offset_gap(omegas):
    """Distance between the sin-and-cos rows of position 0 and of offsets 1 to 200,000."""
    return np.sqrt((2 - 2 * np.cos(np.multiply.outer(FAR, omegas))).sum(axis=1))


def other_28(words: str) -> bool:
    """Pairs 0, 8, 16, 24 are 1, 0.1, 0.01, 0.001; of the 28 other hands 21 lie between 1 and
    0.001 and 7 are slower than 0.001."""
    decade = OMEGAS64[[0, 8, 16, 24]]
    others = np.delete(OMEGAS64, [0, 8, 16, 24])
    between = int(np.sum((others < 1) & (others > 0.001)))
    return bool(np.allclose(decade, [1, 0.1, 0.01, 0.001])) and len(others) == 28 \
        and between == 21 and words == "other"


def table_64(realign: str, where: str) -> bool:
    g = offset_gap(OMEGAS64)
    at = int(FAR[g.argmin()])
    return {"does not realign": at == 1}.get(realign, False) and {"neighbour": at == 1}.get(
        where, False)


def hands_32(word: str) -> bool:
    rng = np.random.default_rng(0)
    gaps = [offset_gap(0.75 ** np.arange(32))]
    gaps += [offset_gap(np.exp(rng.uniform(np.log(OMEGAS64[-1]), 0, 32))) for _ in range(3)]
    none = all(int(FAR[g.argmin()]) == 1 for g in gaps)
    return {"no": none, "a": not none}.get(word, False)


def even_realign(both: str, conj: str) -> bool:
    """Evenly spaced hands w_j = 1 - j delta: at their closest return k both k and delta k are
    within 0.007 turns of whole turns, and so is every hand."""
    evens = np.linspace(1, OMEGAS64[-1], 32)
    g = offset_gap(evens)
    k, delta = int(FAR[g.argmin()]), evens[0] - evens[1]

    def miss(w):
        return np.abs((k * w / (2 * np.pi) + 0.5) % 1 - 0.5)
    ok = miss(1.0) < 0.007 and miss(delta) < 0.007 and float(miss(evens).max()) < 0.007
    return ok and (both, conj) == ("both", "and")


def cosine_frequency(words: str) -> bool:
    p = np.arange(1024)

    def spread(w_cos):
        t = np.column_stack([f(w * p) for w, wc in zip(SLOW, w_cos)
                             for f in (np.sin, lambda a, wc=wc, w=w: np.cos(a * wc / w))])
        return float(np.ptp(np.linalg.norm(np.diff(t, axis=0), axis=1)))
    same, other = spread(SLOW), spread(tuple(1.1 * w for w in SLOW))
    return {"the same": same < 1e-9 < other, "a different": other < 1e-9}.get(words, False)


def need_not_match(words: str) -> bool:
    differ = abs(closest(sines(256, SLOW)) - closest(sines(1024, SLOW))) > 0.005
    return {"need not": differ, "must": not differ}.get(words, False)


def clock_repeats(words: str) -> bool:
    readings = [(t % 60, t // 60 % 60) for t in range(3601)]
    first = min(k for k in range(1, 3601) if readings[k] == readings[0])
    return {"repeat": first == 3600}.get(words, False)


def being_off(words: str) -> bool:
    half = abs(44 * 2.5 / (2 * np.pi) % 1 - 0.5) < 0.01
    worse = closest(sines(100, (1.0, 2.5))) < closest(sines(100, (1.0, 2.0)))
    return half and {"not enough": worse, "enough": not worse}.get(words, False)


def multiples_of_one(lo: str, hi: str, word: str, not_: str) -> bool:
    """The (1, n) clock over positions 0 to 99: for n = 2 to 10 its closest pair is 44 apart
    and n turns 44 steps within 0.03 of whole turns; at n = 11 its closest pair is not 44 apart
    (r13b: the sentence now says why, a mirror pair; tests/site/test_page_counts_r13b.py)."""
    def offset(n):
        _, a, b = pairs_by_distance(sines(100, (1.0, n)))[0]
        return b - a
    lo_, hi_, no = int(lo), int(hi), int(not_)
    near = all(abs(44 * n / (2 * np.pi) - round(44 * n / (2 * np.pi))) < 0.03
               for n in range(lo_, hi_ + 1))
    return (near and all(offset(n) == 44 for n in range(lo_, hi_ + 1)) and offset(no) != 44
            and no == hi_ + 1 and word == "closest")


HOLDS = [
    (CH05, r"A fast wave \(\\\(\\omega = 1\\\)\) (\w+) neighbours", fast_wave_neighbours),
    (CH05, r"but neighbours near its ([\w ]+?) are almost equal", slow_pair_place),
    (CH05, r"and neighbours at a ([\w ]+?) nearly coincide", slow_pair_place),
    (CH05, r"at two angles \\\(a \\ne b\\\) when they differ by (\w+) turns", equal_sines_when),
    (CH05, r"Position 6, one rough period after 0, (is not|is) one of the close returns",
     six_is_close_return),
    (CH05, r"The values ([\w ]+?) coincide \(the sine's 100 values are ([\w ]+?) different\)",
     need_not_coincide),
    (CH05, r"Evenly spaced values from -1 to 1 ([\w ]+?) that bound", even_reaches),
    (CH05, r"the closest pair is now two \*([\w ]+)\*, 78 and 79", slow_closest_pair),
    (CH05, r"(\w+) frequency passes the uniqueness check of chapter 3, which looks at the (\w+) "
           r"256 positions \(`P.TRAIN_LENGTH`\), and both (\w+) consistent offsets",
     uniqueness_and_offsets),
    (CH05, r"have a pair at most \\\(2/99\\\) apart, ([^.]+?)\. ", summary_coincide),
    (CH05, r"the fraction that put an integer ([\w ]+?) a multiple of \\\(\\pi\\\) was",
     closest_to_multiple),
    (CH05, r"Equality needs ([\w ]+?) to be tight", equality_needs),
    (CH05, r"The proof uses ([\w ]+?) the sine:", proof_uses),
    (CH06, r"the (\w+) hand separates neighbours, the (\w+) hands tell laps apart", hands_roles),
    (CH06, r"A clock's (\w+) hand alone cannot tell 10 seconds from 70", clock_hand),
    (CH06, r"Each hand is bounded and ([\w ]*?)periodic\.", hand_is),
    (CH06, r"jump across the square (\w+) \(fast hand\) while drifting slowly ([\w ]+?) \(slow "
           r"hand\)", path_axes),
    (CH06, r"Positions 11 and 55, the worst pair of the (\w+) hand, and 78 and 79, the worst of the "
           r"(\w+) hand", worst_pairs),
    (CH06, r"each separated by the ([\w ]+?) hand:", separated_by),
    (CH06, r"whose frequencies share (\w+) common period", common_period),
    (CH06, r"Does uniqueness, then, need slow hands\? It (does not|does)\.", uniqueness_needs_slow),
    (CH06, r"With the fast hands a position's neighbour is, on average, ([\w ]+?) to it than a "
           r"position 500 or more away; with the slow hands neighbours are ([\w ]+?) than such far",
     neighbour_vs_far),
    (CH06, r"It (\w+) consistent offsets: the distance between", four_hands_offsets),
    (CH06, r"It is local (on average|pair by pair) but not (pair by pair|on average): it fails the "
           r"locality", local_how),
    (CH06, r"A cosine for each sine evens the steps but, at these four frequencies, ([\w ]+?) it\.",
     with_cosines),
    (CH06, r"as the last row, records the (\w+) verdicts", scorecard_verdicts),
    (CH06, r"Sine-only clocks ([\w ]+?) consistent offsets, which motivates", sine_only_offsets),
    (CH06, r"whenever the offset is close to an (\w+) number of fast turns, the slow hand has also "
           r"made close to a whole number", half_of_one),
    (CH06, r"\(\\\(10 \+ 12 = 22 \\approx 7\\pi\\\), a ([\w -]+?)\)", pair_10_12),
    (CH06, r"(Both beat|Neither beats) the original slow hand of 0\.1", beat_slow_hand),
    (CH06, r"the gap the first four hands leave between ([\w -]+?) 8342 and 8343", neighbours_8342),
    (CH06, r"by a relative 2\.0e-7 because that closest pair are ([\w ]+?), as for the (\w+) hand "
           r"earlier", sixth_hand),
    (CH06, r"and \\\(2\\\) repeats with (the same|a different) period", period_of_1_and_2),
    (CH06, r"The second hand breaks the ([\w-]+) pairs: for those, \\\(\\sin 2b \\approx (-?)\\sin "
           r"2a\\\), so such a pair stays close just where \\\(\\sin 2a\\\) is near (\d)",
     second_hand_breaks),
    (CH06, r"What is left are offsets near (\w+) turns, and all five closest pairs", left_after_two),
    (CH06, r"turns 10\.5 times in 44 steps, ([\w ]+?) off, and ([\w ]+?) both the clock at 2",
     one_and_a_half),
    (CH06, r"is a function of \\\(\\sin x\\\) alone, so it adds (\w+) information", hand_at_3),
    (CH06, r"2 \\sin x \\cos x\\\) needs ([\w ]+?), which is why", sin2x_needs),
    (CH06, r"at offset 169,646; with the ([\w ]+?) 28 hands,", other_28),
    (CH06, r"the whole 64-wide table ([\w ]+?) over offsets 1 to 200,000 \(its closest return is the "
           r"([\w ]+?), 1\.4718 away\)", table_64),
    (CH06, r"32 hands have (\w+) return closer than the neighbour", hands_32),
    (CH06, r"they realign wherever (\w+) \\\(k\\\) (\w+) \\\(\\delta k\\\)", even_realign),
    (CH06, r"pairing every sine with a cosine of (the same|a different|\w+) frequency", cosine_frequency),
    (CH06, r"fixed ranges, so they ([\w ]+?) match the numbers above", need_not_match),
    (CH06, r"only after 3600 seconds does the pair ([\w ]+?):", clock_repeats),
    (CH06, r"Being off is ([\w ]+?):", being_off),
    (CH06, r"hand at (\d+) to (\d+) times the first is also near a whole number of "
           r"turns after 44 steps, and leaves such pairs (\w+) \(at (\d+) a mirror pair", multiples_of_one),
]


def _id(entry) -> str:
    return entry[0][14:18] + ":" + re.sub(r"[^A-Za-z0-9 ]", "", entry[1])[:36]


@pytest.mark.parametrize("entry", HOLDS, ids=_id)
def test_statement_holds(entry):
    path, pattern, fact = entry
    holds(page(path), pattern, fact, path)
