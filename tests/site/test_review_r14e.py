"""Review-2026-12 r14e (the claims page's second part at pass 9, Explore at pass 3, the home page
at pass 5).

Sentences whose flipped word left the page and every test passing in a scratch copy: each
phrase must be on the page exactly when a small computation (NumPy or mpmath, not posenc, unless
the sentence is about what the package or the site does) says it. Also the numbers of a marker
comment on the home page that its line did not compute.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from harness.says import flat, holds, paragraphs, says

ROOT = Path(__file__).resolve().parents[2]
ERRATA = ROOT / "docs" / "errata.md"
EXPLORE = ROOT / "docs" / "explore.md"
INDEX = ROOT / "docs" / "index.md"


def prose(path: Path) -> str:
    """The page's paragraphs, flat, without code or HTML comments (a marker's comment may repeat
    a sentence's words)."""
    return " ".join(paragraphs(path))


def omegas(d_model: int, base: float = 10000.0) -> np.ndarray:
    return base ** (-np.arange(0, d_model, 2) / d_model)


def table(positions, d_model: int) -> np.ndarray:
    angles = np.outer(np.asarray(positions, dtype=float), omegas(d_model))
    out = np.empty((len(angles), d_model))
    out[:, 0::2], out[:, 1::2] = np.sin(angles), np.cos(angles)
    return out


def turn(phi: float) -> np.ndarray:
    """B(phi) of Explore's clock: applied to (sin t, cos t) it gives (sin(t + phi), cos(t + phi))."""
    c, s = math.cos(phi), math.sin(phi)
    return np.array([[c, s], [-s, c]])


# --------------------------------------------------------------------------- the claims page
def test_the_dot_product_is_highest_at_offset_zero():
    """#dot-decays: sum_i cos(omega_i k) peaks at k = 0 (each term is 1 there and only there, as
    omega_0 = 1 and k is an integer); the flip "lowest" passed the page."""
    k = np.arange(0, 200)
    highest = all(int(np.cos(np.outer(k, omegas(d))).sum(axis=1).argmax()) == 0 for d in (64, 128, 512))
    says(flat(ERRATA), r"is highest at \(k = 0\)", highest)
    says(flat(ERRATA), r"is lowest at \(k = 0\)", not highest)


def test_the_entry_about_rope_is_above_the_entry_that_points_to_it():
    """#not-in-practice points to #rope-solves as "the entry above"; the flip "below" passed."""
    text = ERRATA.read_text()
    above = text.index("{#rope-solves}") < text.index("{#not-in-practice}")
    says(flat(ERRATA), "see [the entry above](#rope-solves)", above)


# --------------------------------------------------------------------------- Explore
def test_the_pair_table_shows_both_encodings_and_their_difference():
    """The pair explorer's table headers: PE(A), PE(B) and PE(A) - PE(B); the flip "one encoding"
    passed the page (the sentence carries a no-claim marker as a description)."""
    js = (ROOT / "docs" / "assets" / "explorers" / "pair.js").read_text()
    both = '["PE(A)", "PE(B)", "PE(A) − PE(B)"]' in js
    says(prose(EXPLORE), "both encodings and their difference", both)


def test_the_offset_curve_depends_on_the_offset_alone():
    """PE(ref) . PE(ref + k) equals sum_i cos(omega_i k) for every ref the slider offers; the
    flip "on the position alone" passed the page."""
    k = np.arange(-50, 51)
    alone = all(np.allclose(table(r + k, 64) @ table([r], 64)[0], np.cos(np.outer(k, omegas(64))).sum(axis=1))
                for r in range(0, 1001, 25))
    says(prose(EXPLORE), r"it depends on the offset \(k\) alone", alone)


def test_a_positive_shift_turns_the_hand_clockwise_a_negative_one_back():
    """In Explore's axes (sine across, cosine up) the hand at angle t is (sin t, cos t). The
    cross product of the old and new hand is -sin(phi): negative (clockwise) for a positive
    turn phi in (0, pi), positive (back, counterclockwise) for a negative one. Both flips
    ("counterclockwise", "turns forward") passed the page."""
    crosses = []
    for t in np.linspace(0, 2 * math.pi, 13):
        for phi in (0.1, 1.0, 3.0):
            now = np.array([math.sin(t), math.cos(t)])
            ahead, behind = turn(phi) @ now, turn(-phi) @ now
            crosses.append((now[0] * ahead[1] - now[1] * ahead[0],
                            now[0] * behind[1] - now[1] * behind[0]))
    clockwise = all(a < 0 for a, _ in crosses)
    back = all(b > 0 for _, b in crosses)
    says(prose(EXPLORE), r"a positive \(k\) turns the hand clockwise", clockwise)
    says(prose(EXPLORE), r"Try a negative \(k\) (the hand turns back)", back)


def test_the_clock_matrix_is_the_transpose_because_the_pair_is_stored_sine_first():
    """Stored (cos t, sin t), a turn by phi is the textbook rotation R(phi); stored sine first,
    (sin t, cos t), it is B(phi) = R(phi)^T. The flip "stored cosine first" passed the page."""
    phi, t = 0.7, 1.3
    textbook = np.array([[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]])
    cos_first = np.allclose(textbook @ [math.cos(t), math.sin(t)], [math.cos(t + phi), math.sin(t + phi)])
    sine_first = np.allclose(textbook.T @ [math.sin(t), math.cos(t)], [math.sin(t + phi), math.cos(t + phi)])
    not_textbook = not np.allclose(textbook @ [math.sin(t), math.cos(t)], [math.sin(t + phi), math.cos(t + phi)])
    says(prose(EXPLORE), "because the pair is stored sine first", cos_first and sine_first and not_textbook)


def test_a_large_i_is_the_slow_pair_whose_hand_hardly_moves():
    """At every width the clock explorer offers (16 to 128) and every shift (|k| <= 50), the last
    pair turns by under 0.02 rad, pair 0 by k rad. The flip "small i" passed the page."""
    last = max(50 * omegas(d)[-1] for d in range(16, 129, 2))
    first = min(omegas(d)[0] for d in range(16, 129, 2))
    says(prose(EXPLORE), r"a slow pair (large \(i\): the hand hardly moves)", last < 0.02 and first == 1)


# --------------------------------------------------------------------------- the home page
def _weights_3_back(scale: float, n: int = 200, d: int = 64) -> np.ndarray:
    """The causal softmax weight each query p (3 to n - 1) puts on key p - 3, with W = scale M_3."""
    pe = table(range(n), d)
    m3 = np.zeros((d, d))
    for i, w in enumerate(omegas(d)):
        m3[2 * i:2 * i + 2, 2 * i:2 * i + 2] = turn(3 * w)           # pe[p] @ m3 == pe[p - 3]
    assert np.allclose(pe[3:] @ m3, pe[:-3])
    scores = (pe @ (scale * m3)) @ pe.T                              # query p, key j: PE(p - 3) . PE(j)
    out = []
    for p in range(3, n):
        row = scores[p, :p + 1]
        e = np.exp(row - row.max())
        out.append(e[p - 3] / e.sum())
    return np.array(out)


def test_one_matrix_makes_every_query_from_3_on_attend_3_back():
    """The Answer: with W = M_3 the largest score of each query p >= 3 is on key p - 3 (not
    p - 4); the flip "attend 4 back" passed the page."""
    pe = table(range(200), 64)
    m3 = np.zeros((64, 64))
    for i, w in enumerate(omegas(64)):
        m3[2 * i:2 * i + 2, 2 * i:2 * i + 2] = turn(3 * w)           # pe[p] @ m3 == pe[p - 3]
    best = ((pe @ m3) @ pe.T)[3:].argmax(axis=1)                     # no mask needed: p - 3 wins anyway
    back_3 = np.array_equal(best, np.arange(200)[3:] - 3)
    says(prose(INDEX), "every query from position 3 on attend 3 back", back_3)
    says(prose(INDEX), "every query from position 3 on attend 4 back", not back_3)


def test_the_answer_markers_comment_states_what_one_eighth_of_m3_gives():
    """The Answer's softmax marker explains its 4 M_3 by what M_3 / 8 gives; the comment said
    "about 0.02", which none of the marker's 197 queries gives (0.035 to 0.34)."""
    w = _weights_3_back(1 / 8)
    holds(flat(INDEX), r"puts (0\.\d+) to (0\.\d+) (?:# )?there over these 200 positions",
          lambda lo, hi: round(float(w.min()), 3) == float(lo)
          and round(float(w.max()), 2) == float(hi), "index Answer marker")
    assert _weights_3_back(4).min() > 0.97


def test_the_decoder_mask_lets_each_token_see_the_tokens_before_it():
    """The paper's decoder self-attention masks later positions; in posenc's attention with
    causal=True the weights are nonzero exactly on and below the diagonal. The flip "after it"
    passed the page."""
    from posenc.attention import embed, random_weights, self_attention
    weights = self_attention(embed("the cat sat on mat".split(), 16), *random_weights(16, seed=1),
                             causal=True)[1]
    before = np.array_equal(weights > 0, np.tri(5, dtype=bool))
    says(prose(INDEX), "each token sees only itself and the tokens before it", before)


def test_haviv_et_al_conjecture_the_mask_is_the_source():
    """Haviv et al. (2022), abstract: "We conjecture that causal attention enables the model to
    infer the number of predecessors that each token can attend to"; a conjecture, not a proof.
    The flip "show that the mask" passed the page: the phrase is pinned here."""
    says(prose(INDEX), "and conjecture that the mask is the source", True)
    says(prose(INDEX), "and show that the mask is the source", False)


def test_two_values_of_one_sine_must_come_close_three_need_not():
    """Chapter 5's blurb: of n values in [-1, 1] two lie within 2/(n - 1) (n - 1 gaps share a
    range of 2), and that is all: three values of one sine at positions 0, 1, 2 with
    omega = pi - arcsin(0.9) are 0, 0.9 and -0.785, not all three within 2/(3 - 1) = 1. The flip "three of
    them" passed the page."""
    values = np.sin((math.pi - np.arcsin(0.9)) * np.arange(3))
    gaps = np.diff(np.sort(values))
    two = gaps.min() <= 2 / (3 - 1) and all(np.diff(np.sort(np.sin(np.arange(n)))).min() <= 2 / (n - 1)
                                            for n in (10, 100, 1000))
    three = np.ptp(values) <= 2 / (3 - 1)
    says(prose(INDEX), r"but two of them must come within \(2/(n - 1)\)", two and not three)


def test_many_clocks_keep_positions_apart_far_beyond_one():
    """Chapter 6's blurb: among positions 0 to 999 the d_model = 512 table keeps every two rows
    at least 3.7 apart, while the best single pair of the table lets two come within 0.0063.
    The flip "far below" passed the page."""
    pe = table(range(1000), 512)
    gram = pe @ pe.T
    squared = np.diag(gram)[:, None] + np.diag(gram)[None, :] - 2 * gram
    np.fill_diagonal(squared, np.inf)
    many = math.sqrt(squared.min())
    single = max(float((2 * np.abs(np.sin(np.arange(1, 1000) * w / 2))).min()) for w in omegas(512))
    says(prose(INDEX), "keep positions apart far beyond what any single one can", many > 100 * single)


def test_the_last_pair_has_the_longest_wavelength():
    """Chapter 8's blurb: the wavelengths 2 pi / omega_i grow with i, so the longest is the last
    pair's, 2 pi 10000^((d - 2)/d). The flip "the shortest is" passed the page (the marker checks
    the last pair's value, not that it is the longest)."""
    longest = all(math.isclose(float((2 * math.pi / omegas(d)).max()), 2 * math.pi * 10000 ** ((d - 2) / d),
                               rel_tol=1e-12) and bool(np.all(np.diff(2 * math.pi / omegas(d)) > 0))
                  for d in (8, 64, 512))
    says(prose(INDEX), r"the longest is \(2\pi \cdot 10000^{(d-2)/d}\)", longest)


def test_float64_cast_once_is_within_half_not_a_quarter_of_a_float32_unit():
    """Chapter 13's blurb: sin in float64 cast once to float32 is off by up to half a float32
    unit (plus the far smaller float64 angle error): over a sample of positions below a million
    the worst is about 0.5 of a unit, well above a quarter. The flip "a quarter of" passed."""
    import mpmath
    mpmath.mp.dps = 30
    rng = np.random.default_rng(0)
    worst = 0.0
    for p in rng.integers(0, 10**6, 60).tolist() + [10**6 - 1]:
        for i in (0, 1, 100, 255):
            v = np.float32(np.sin(p * 10000.0 ** (-2 * i / 512)))
            exact = mpmath.sin(p * mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / 512))
            worst = max(worst, float(abs(mpmath.mpf(float(v)) - exact)) / float(np.spacing(abs(v))))
    says(prose(INDEX), "within half a float32 unit", 0.25 < worst < 0.5 + 1e-2)


def test_no_explore_paragraph_opens_with_a_detached_aside():
    """A marker placed inside the matrix paragraph split it: the page showed a paragraph opening
    "(tensor2tensor stores ... too," cut off from the sentence it qualifies."""
    assert not [p for p in paragraphs(EXPLORE) if p.startswith("(")]
