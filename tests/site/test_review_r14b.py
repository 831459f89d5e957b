"""Review-2026-12 r14b (chapters 3 and 4, pass 8).

Sentences whose flipped word (closer/farther, both/either, before/after, previous/next,
longer/shorter, down/up) left the page and every test passing in a scratch copy: each phrase
must be on the page exactly when a small NumPy computation (no posenc formula) says it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harness.says import flat, says

ROOT = Path(__file__).resolve().parents[2]
CH03 = flat(ROOT / "docs" / "chapters" / "03-what-should-a-good-encoding-satisfy.md")
CH04 = flat(ROOT / "docs" / "chapters" / "04-from-digits-to-waves.md")


def closest(table: np.ndarray) -> float:
    """Smallest Euclidean distance between two rows."""
    d = np.linalg.norm(table[:, None] - table[None, :], axis=-1)
    return float(d[np.triu_indices(len(table), 1)].min())


def bits(positions, n_bits: int = 12, gray: bool = False) -> np.ndarray:
    """Binary (or Gray) code of the integer part of each position, lowest bit first."""
    whole = np.floor(np.asarray(positions, float)).astype(np.int64)
    if gray:
        whole = whole ^ (whole >> 1)
    return ((whole[:, None] >> np.arange(n_bits)) & 1).astype(float)


def largest_move(code, step: float = 0.01, end: int = 64) -> float:
    """The smoothness check's number: largest row move for a shift of step from each midpoint."""
    x = (np.arange(round(end / step) - 1) + 0.5) * step
    x = x[x + step < end]
    return float(np.linalg.norm(code(x + step) - code(x), axis=1).max())


def test_index_over_length_neighbours_are_closer_than_the_threshold():
    """ch03 'neighbours end up 1/1024 apart, closer than the 0.001 threshold'."""
    grown = np.arange(1024.0)[:, None] / 1024
    gap = float(np.diff(grown[:, 0]).min())
    says(CH03, r"neighbours end up \(1/1024\) apart, closer than the 0.001 threshold",
         gap == 1 / 1024 < 0.001)


def test_no_scale_passes_both_bounded_and_unique():
    """ch03 Exercise 1 'No scale passes both': 1023 c <= 1 and c >= 0.001 never hold together,
    though each alone holds for some scale (so 'either' would be false)."""
    scales = np.geomspace(1e-6, 1.0, 2001)
    bounded, unique = 1023 * scales <= 1, scales >= 0.001
    says(CH03, "No scale passes both", bounded.any() and unique.any() and not (bounded & unique).any())


def test_the_four_sines_are_closer_among_1024():
    """ch03 Exercise 2 'closer among the 1024 of \"extends\"' (the four sines, omega = 1 ... 0.001)."""
    omegas = np.array([1.0, 0.1, 0.01, 0.001])
    among = [closest(np.sin(np.outer(np.arange(n), omegas))) for n in (256, 1024)]
    says(CH03, 'closer among the 1024 of "extends"', among[1] < among[0])


def test_the_smoothness_range_stops_before_the_crossing_into_64():
    """ch03 Exercise 3 'The crossing into position 64 would flip seven bits, but the range stops
    before it': the last shift ends at 63.995, and 63 to 64 flips seven bits."""
    x = (np.arange(6399) + 0.5) * 0.01
    last_end = float((x[x + 0.01 < 64] + 0.01).max())
    flips = int((bits([63]) != bits([64])).sum())
    says(CH03, "but the range stops before it", last_end < 64 and flips == 7)


def test_binary_entries_are_closer_to_the_embedding_scale_than_decimal():
    """ch04 'Binary entries are 0 or 1, already much closer to the scale of an embedding than
    0 to 9' (an embedding entry's standard deviation about 1)."""
    entries = np.random.default_rng(0).standard_normal((50, 64))
    scale = float(entries.std())
    says(CH04, "already much closer to the scale of an embedding than 0 to 9",
         abs(np.log(1 / scale)) < abs(np.log(9 / scale)) / 10)


def test_the_drawn_period_two_wave_is_zero_at_both_positions():
    """ch04 'in the phase drawn here both are 0': the dots of the period-2 wave in the figure."""
    from posenc.plots.waves import bits_vs_waves

    dots = np.asarray(bits_vs_waves(32, 4).axes[1].lines[1].get_ydata(), float)
    says(CH04, "in the phase drawn here both are 0",
         len(dots) == 32 and np.allclose(dots[0::2], 0) and np.allclose(dots[1::2], 0))


def test_a_useful_wave_needs_a_period_longer_than_2():
    """ch04 'the fastest useful wave needs a period longer than 2': at whole positions a sine
    with a period T under 2 is, up to sign, the sine of period T / (T - 1), which is over 2."""
    p = np.arange(200)
    aliases = []
    for period in (1.25, 1.5, 1.8, 1.9):
        slower = period / (period - 1)
        aliases.append(slower > 2 and np.allclose(np.sin(2 * np.pi * p / period),
                                                  -np.sin(2 * np.pi * p / slower)))
    says(CH04, "the fastest useful wave needs a period longer than 2",
         all(aliases) and np.allclose(np.sin(np.pi * p), 0))


def test_the_smoothness_check_is_the_previous_chapters():
    """ch04 'the smoothness check of the previous chapter': chapter 3, just before it in the nav,
    defines smooth."""
    nav = (ROOT / "mkdocs.yml").read_text()
    at = [nav.index(f"chapters/{name}.md") for name in
          ("03-what-should-a-good-encoding-satisfy", "04-from-digits-to-waves")]
    between = nav[at[0]:at[1]].count("chapters/")
    says(CH04, "the smoothness check of the previous chapter",
         at[0] < at[1] and between == 1 and "**Smooth.**" in CH03)


def test_gray_code_moves_by_1_down_from_sqrt_6():
    """ch04 Exercise 1 'a distance of 1, down from sqrt 6 for plain binary'."""
    gray = largest_move(lambda x: bits(x, gray=True))
    plain = largest_move(bits)
    says(CH04, r"a distance of 1, down from \(\sqrt 6\) for plain binary",
         gray == 1.0 and np.isclose(plain, np.sqrt(6)) and gray < plain)
