"""The claims page's first half, as review-2026-12 p8g pass 7 left it.

The index row of #ten-twenty had widened the seed's example (position 10 nearer to 20 than to
15) into a rule that holds at base 10000 ("A position may be closer to a farther one than to a
nearer one") and called the rule wrong there. Eight true sentences no check read (the review
flipped each in a scratch copy with every check passing) are bound here: each test reads the
words from the page and recomputes what they say without the page's own blocks. Also the
#wavelength-table comment that still counted four rows after pass 6 counted five.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from tests.site.test_errata_review_p5i import entry_prose as prose, flat, found_in as found

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "errata.md"
WHY = "review-2026-12 p8g pass 7: "
OLD = [
    ("A position may be closer to a farther one than to a nearer one",
     WHY + "true at base 10000 (0 is closer to 44 than to 43 at d_model 512); only the seed's "
     "10/15/20 example is wrong"),
    ("# the four rows' pairs", WHY + "the seed's table has five rows; the list holds the last four"),
]


def dots_from(position: int, d: int, base: float = 10000.0) -> np.ndarray:
    """Dot products of the paper's encoding of `position` with every position 0 to 4095 (equal
    norms, so a larger dot product is a smaller distance)."""
    omega = base ** (-np.arange(0, d, 2) / d)
    return np.cos(np.outer(np.arange(4096) - position, omega)).sum(axis=1)


def paper(n_pos: int, d: int, base: float = 10000.0) -> np.ndarray:
    angle = np.arange(n_pos)[:, None] * base ** (-2 * (np.arange(d) // 2) / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))


def test_old_wording_stays_gone():
    text = flat(PAGE.read_text())
    for phrase, why in OLD:
        assert flat(phrase) not in text, why


def test_ten_twenty_row_states_the_example_that_is_wrong_at_base_10000():
    row = re.search(r"^\| \[(.+?)\]\(#ten-twenty\) \| (.+?) \|", PAGE.read_text(), re.M)
    assert row, "the index row of #ten-twenty"
    claim, verdict = row.groups()
    assert verdict == "wrong at base 10000"
    numbers = re.fullmatch(r"Position (\d+) may be closer to (\d+) than to (\d+)", claim)
    assert numbers, f"the row must state the seed's example, not a rule: {claim!r}"
    p, far, near = map(int, numbers.groups())
    assert abs(far - p) > abs(near - p)
    # the example is wrong at base 10000 at every even width to 1024 ...
    for d in range(2, 1025, 2):
        dots = dots_from(p, d)
        assert dots[near] > dots[far], d
    # ... while the rule it was widened to holds there: a farther position can be the closer one
    for d, (nearer, farther) in {64: (5, 6), 128: (11, 12), 512: (43, 44), 4096: (244, 245)}.items():
        dots = dots_from(0, d)
        assert dots[farther] > dots[nearer], d
        assert np.all(np.diff(dots[:nearer + 1]) < 0), d          # the first rise


def test_pairs_share_their_two_offsets():
    frequency, offsets = found(r"columns of different pairs differ in (\w+) and (share the same two "
                               r"offsets|differ in offset too)", "each-dimension")
    assert frequency == "frequency" and offsets.startswith("share")
    d, pos = 20, np.arange(100.0)
    table = paper(100, d)
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    for i, w in enumerate(omega):
        assert np.allclose(table[:, 2 * i], np.sin(w * pos + 0.0))
        assert np.allclose(table[:, 2 * i + 1], np.sin(w * pos + math.pi / 2))
    assert len(set(np.round(omega, 12))) == d // 2


def test_per_column_table_loses_the_shift_map():
    (word,) = found(r"the rotation that shifts positions .{0,80}?\) is (lost|kept)\.",
                    "per-column-exponent")
    d, pos = 16, np.arange(400.0)[:, None]
    column_j = np.where(np.arange(d) % 2 == 0, np.sin(pos / 10000 ** (2 * np.arange(d) / d)),
                        np.cos(pos / 10000 ** (2 * np.arange(d) / d)))

    def shift_residual(table):
        x, y = table[:-1], table[1:]
        m = np.linalg.lstsq(x, y, rcond=None)[0]
        return float(np.abs(x @ m - y).max())

    assert shift_residual(paper(400, d)) < 1e-9
    assert (shift_residual(column_j) > 0.1) == (word == "lost")


def test_odd_exponent_pairs_leave_the_circle():
    (word,) = found(r"so the pair (drifts off|stays on) the circle", "cos-odd-exponent")
    d, base, pos = 64, 1000.0, np.arange(1000.0)[:, None]    # maxjcohen: base 1000
    sines = np.sin(pos / base ** (np.arange(0, d, 2) / d))
    cosines = np.cos(pos / base ** (np.arange(1, d, 2) / d))
    norm = sines ** 2 + cosines ** 2
    assert (float(np.abs(norm - 1).max()) > 0.5) == (word == "drifts off")


def test_concatenated_layout_keeps_every_dot_product():
    (word,) = found(r"which (keeps|changes) every dot product between", "order-does-not-matter")
    inter = paper(256, 64)
    concat = np.hstack([inter[:, 0::2], inter[:, 1::2]])
    assert np.allclose(inter @ inter.T, concat @ concat.T) == (word == "keeps")


def test_tensor2tensor_spacing_denominator():
    (sign,) = found(r"\\ln\(\\text\{max\}/\\text\{min\}\) / \(d/2 ([-+]) 1\)", "same-channels")
    d, max_timescale = 512, 1e4
    num = d // 2                                 # get_timing_signal_1d: num_timescales
    written = num - 1 if sign == "-" else num + 1
    increment = math.log(max_timescale) / written
    # the code's slowest inverse timescale is 1 / max_timescale (min_timescale = 1)
    assert math.isclose(math.exp(-(num - 1) * increment), 1 / max_timescale)


def test_t2t_spacing_error_grows_with_the_position():
    (word,) = found(r"but the error (grows|shrinks) with", "differs-slightly")
    d, n = 512, 512
    t2t = np.exp(np.arange(d // 2) * -(math.log(10000.0) / (d // 2 - 1)))
    angle = np.arange(n)[:, None] * np.repeat(t2t, 2)[None, :]
    t2t_table = np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))
    diff = np.abs(t2t_table - paper(n, d)).max(axis=1)
    early, late = float(diff[:128].max()), float(diff[-128:].max())
    assert (late > early) == (word == "grows")


def test_yarn_code_rounds_the_ends_as_written():
    beta_end, alpha_end = found(r"where \\\(r = \\beta\\\) rounded (down|up) and the pair where "
                                r"\\\(r = \\alpha\\\) rounded (down|up)", "yarn-paper-vs-code")
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    d, length, s, base = 128, 4096, 4.0, 10000.0
    config = LlamaConfig(hidden_size=4 * d, num_attention_heads=4,
                         max_position_embeddings=int(s * length), rope_theta=base,
                         rope_scaling={"rope_type": "yarn", "factor": s,
                                       "original_max_position_embeddings": length})
    hf = LlamaRotaryEmbedding(config).inv_freq.double().numpy()
    omega = base ** (-np.arange(0, d, 2) / d)

    def pair_at(turns):
        return d * math.log(length / (2 * math.pi * turns)) / (2 * math.log(base))

    rounding = {"down": math.floor, "up": math.ceil}
    low, high = rounding[beta_end](pair_at(32.0)), rounding[alpha_end](pair_at(1.0))
    assert not pair_at(32.0).is_integer() and not pair_at(1.0).is_integer()
    gamma = 1 - np.clip((np.arange(d // 2) - low) / (high - low), 0, 1)
    assert np.allclose(hf, (1 - gamma) * omega / s + gamma * omega, rtol=1e-6)


def test_rotate_half_pairs_coordinate_i_with_i_plus_half():
    (k,) = found(r"Rotating \\\(\(x_i, x_\{i\+d/(\d)\}\)\\\)", "rotate-half-bug")
    d, angle = 16, 0.7
    x = np.random.default_rng(0).normal(size=d)
    theta = np.tile(angle * 10000.0 ** (-np.arange(0, d, 2) / d), 2)   # cat((freqs, freqs))
    rotate_half = np.concatenate([-x[d // 2:], x[:d // 2]])            # as in transformers
    hf = x * np.cos(theta) + rotate_half * np.sin(theta)
    own = x.copy()
    step = d // int(k)
    for i in range(d // 2):
        a, b, t = x[i], x[i + step], theta[i]
        own[i], own[i + step] = a * math.cos(t) - b * math.sin(t), a * math.sin(t) + b * math.cos(t)
    assert np.allclose(own, hf)
