"""Review rlab pass 1 (2026-12) of the lab's start-symbol, ratio and reverse records."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    return json.loads((ROOT / "docs" / "data" / "lab" / f"{name}.json").read_text())


def _past(m, n):
    return sum(m["test"][str(n)]["per_position"][24:]) / (n - 24)


def test_start_repeats_past_only_on_the_same_kernels():
    """table_axes.py: the start record's runs without a start symbol repeat past's step for step
    on the same CPU kernels only; the sinusoid's seed 0 differs between AVX-512 and AVX2."""
    past, start = _load("past")["runs"], _load("start")["runs"]
    assert "simd" not in _load("past")["environment"]
    assert _load("start")["environment"]["simd"]["torch_kernels"] == "AVX2"
    assert [round(_past(m, 48), 3) for m in (past["sinusoid"][0], start["sinusoid"][0])] \
        == [0.304, 0.26]
    assert all(a["curve"] == b["curve"] for a, b in zip(past["rope"][:3], start["rope"]))
    text = (ROOT / "posenc" / "lab" / "table_axes.py").read_text()
    assert "on\n# the same CPU kernels: past's sinusoid seed 0 (AVX-512) scored 0.304" in text

