"""Review-2026-12 p10d pass 7 (chapter 10b, second half, lab reviewer): words of the prose that
the page's own checks did not bind (a flip in a scratch copy passed the page), each tied here to
the record or the code that decides it."""

import json
import re
from pathlib import Path

from harness.says import section

ROOT = Path(__file__).resolve().parents[2]
CH10B = ROOT / "docs" / "chapters" / "10b-what-does-a-trained-model-do.md"
LAB = ROOT / "docs" / "data" / "lab"
NUMBER_WORDS = {"nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def _record(name: str) -> dict:
    return json.loads((LAB / f"{name}.json").read_text())


def _prose(title: str) -> str:
    return section(CH10B, title)


def _kernels(record: dict) -> str:
    return {"AVX512": "AVX-512", "AVX2": "AVX2"}[record["environment"]["simd"]["torch_kernels"]]


def test_kernel_names_in_the_prose_are_the_records():
    """The added model's seed 0 (past.json, which names no kernel level) is repeated bit for bit
    by longer.json's step-400 checkpoint, recorded on AVX512 kernels; start.json (AVX2) differs."""
    past, longer, start = _record("past"), _record("longer"), _record("start")
    seed0 = past["runs"]["sinusoid"][0]["test"]["48"]
    assert "simd" not in past["environment"]
    assert longer["runs"]["sinusoid, 4000 steps"][0]["checkpoints"]["400"]["48"] == seed0
    assert start["runs"]["sinusoid"][0]["test"]["48"] != seed0
    concat = _prose("Adding or concatenating")
    assert f"by 0.060 to 0.237 on {_kernels(longer)} kernels" in concat
    ratios = _prose("A start symbol, and 4x and 8x the training length")
    assert f"on {_kernels(start)} kernels, the sinusoid's seed 0 scored 0.260 at 2x" in ratios


def test_the_language_model_corpus_words():
    from posenc.lab import corpus

    text = _prose("A language model on real text")
    words = re.search(r"from (\w+) Shakespeare tragedies", text).group(1)
    assert NUMBER_WORDS[words] == len(corpus.PLAYS) - len(corpus.VALIDATION) == 10
    assert corpus.VALIDATION == ("hamlet",) and "*Hamlet* is held out" in text
    assert "Three results differ" not in text     # a count no check bound; cut


def test_most_of_the_models_have_26512_parameters_not_all():
    sizes = [m["params"] for path in sorted(LAB.glob("*.json")) if path.stem != "lm"
             for runs in json.loads(path.read_text())["runs"].values() for m in runs]
    assert len(sizes) / 2 < sizes.count(26512) < len(sizes)
    assert "(26512 parameters for most of them)" in _prose("What the lab does not settle")


def test_only_the_runs_of_two_sections_go_past_2x():
    """Since pass 6 the "one map" section quotes a start.json run at 8x, so the lead-in speaks of
    the runs of two sections, not of two sections."""
    assert "at 8x, 0.450 in seed 0" in _prose("Does the model apply one map")
    assert "Only the runs of [two sections](#a-start-symbol" in " ".join(CH10B.read_text().split())


def test_the_lab_was_recorded_on_two_cpus_so_the_widget_names_its_date_not_the_lab():
    levels = {}
    for path in sorted(LAB.glob("*.json")):
        env = json.loads(path.read_text())["environment"]
        if "simd" in env:
            levels.setdefault(env["simd"]["torch_kernels"], set()).add(env["date"])
    assert levels == {"AVX512": {"2026-11-27"}, "AVX2": {"2026-12-07"}}
    widget = json.loads((ROOT / "docs" / "data" / "lab-widget.json").read_text())
    assert widget["environment"]["date"] == "2026-11-27"
    text = _prose("Train it yourself")
    assert "the machine that recorded the lab" not in text and "measured on 2026-11-27" in text
