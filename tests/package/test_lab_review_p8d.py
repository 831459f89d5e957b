"""Review-2026-12 p8d pass 5 (chapter 10b, second half): a sentence the page needs and that no
marker can demand, read against the records it states.

The start-symbol records (AVX2 kernels, 2026-12-07) re-train the runs of "Past the training
length" (AVX-512, 2026-11-27) without the symbol: eleven of the twelve repeat them step for step,
and the sinusoid's seed 0 does not (0.260 at 2x against 0.304). The page quotes both figures, so
it says which run differs and on which kernels."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CH10B = ROOT / "docs" / "chapters" / "10b-what-does-a-trained-model-do.md"
LAB = ROOT / "docs" / "data" / "lab"


def _section(title: str) -> str:
    text = CH10B.read_text()
    start = text.index(f"## {title}")
    end = text.index("\n## ", start + 1)
    body = re.sub(r"```.*?```", "", text[start:end], flags=re.S)
    return " ".join(re.sub(r"<!--.*?-->", "", body, flags=re.S).split())


def _unseen(m: dict) -> float:
    values = m["test"]["48"]["per_position"][24:48]
    return sum(values) / len(values)


def test_start_section_names_the_one_run_that_differs_from_past():
    start = json.loads((LAB / "start.json").read_text())
    past = json.loads((LAB / "past.json").read_text())
    differ = [(s, i) for s in ("none", "alibi", "sinusoid", "rope")
              for i, (a, b) in enumerate(zip(start["runs"][s], past["runs"][s]))
              if a["test"]["48"] != b["test"]["48"] or a["curve"] != b["curve"]]
    assert differ == [("sinusoid", 0)]
    assert start["environment"]["simd"]["torch_kernels"] == "AVX2"
    here = f"{_unseen(start['runs']['sinusoid'][0]):.3f}"
    there = f"{_unseen(past['runs']['sinusoid'][0]):.3f}"
    assert (here, there) == ("0.260", "0.304")
    text = _section("A start symbol, and 4x and 8x the training length")
    assert "repeat those of \"Past the training length\" but one" in text
    assert f"AVX2 kernels, the sinusoid's seed 0 scored {here} at 2x, not {there}" in text
