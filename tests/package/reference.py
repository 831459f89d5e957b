"""An independent high-precision reference for the encoding, written from the paper's formula
with mpmath (no code shared with posenc)."""

from __future__ import annotations

import mpmath

mpmath.mp.dps = 40


def exact_entry(pos, column: int, d_model: int, base=10000, layout: str = "interleaved"):
    """PE[pos, column] to 40 significant digits, as an mpmath number."""
    half = d_model // 2
    if layout == "interleaved":
        i, use_cos = column // 2, column % 2 == 1
    else:
        i, use_cos = column % half, column >= half
    omega = mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d_model)
    angle = mpmath.mpf(pos) * omega
    return mpmath.cos(angle) if use_cos else mpmath.sin(angle)
