"""Pass-4 review p4m (December 2026) of the tour: what its folded pictures no longer show.

- Step 2: the cosine threshold position (6) belongs to the picture's sample, two random
  64-entry vectors of spread 0.5; at spread 1.0 the same threshold comes at 9 to 12. With the
  picture folded, the main line must name that sample itself.
- Step 5: "every query from position 3 on scores highest on the key three back" needs the key
  weights too (W_K = I in the check and the picture); the main line must say so.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from hooks import reader

TOUR = Path(__file__).resolve().parents[2] / "docs" / "tour.md"


def _step(n: int) -> str:
    text = reader.main_line(TOUR.read_text())
    return re.search(rf"^## {n}\..*?(?=^## )", text, flags=re.S | re.M).group(0)


def _first_above(spread: float, seed: int, almost: float = 0.99) -> int:
    a, b = np.random.default_rng(seed).normal(0, spread, (2, 64))
    p = np.arange(1001)[:, None]
    cos = ((a + p) * (b + p)).sum(1) / np.linalg.norm(a + p, axis=1) / np.linalg.norm(b + p, axis=1)
    return next(q for q in range(1001) if (cos[q:] > almost).all())


def test_step_2_names_the_sample_of_its_threshold():
    """Fails on the old text ('two different words ... from position 6 on', no sample)."""
    at_half = {_first_above(0.5, s) for s in range(20)}
    at_one = {_first_above(1.0, s) for s in range(20)}
    assert max(at_half) == 6 and min(at_one) > 6  # the position depends on the words' spread
    step = " ".join(_step(2).split())
    assert "from position 6 on" in step
    assert "64 entries of spread 0.5" in step


def test_step_5_names_the_key_weights():
    """Fails on the old text ('Take query weights W_Q = M_3', key weights unstated)."""
    step = " ".join(_step(5).split())
    assert r"\(W_Q = M_3\)" in step and r"\(W_K = I\)" in step
