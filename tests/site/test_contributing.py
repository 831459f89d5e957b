"""CONTRIBUTING.md's "Your first change" is true: its example sentence and check pass chapter 5's
rules, and each of its two flips fails with the message it quotes, as a test at the flipped line;
its chapter table names modules that exist and that the chapter's blocks import."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from harness import rules
from harness.page import read

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
CH05 = ROOT / "docs" / "chapters" / "05-is-one-sine-enough.md"
AFTER = "[Chapter 6](06-many-clocks.md) measures how far that takes us."


def _example() -> str:
    block = GUIDE.split("## Your first change", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    return "\n".join(line.removeprefix("   ") for line in block.splitlines()) + "\n"


def _broken(tmp_path, sentence: str) -> list:
    text = CH05.read_text(encoding="utf-8")
    assert AFTER in text and "## The scorecard so far" in text.split(AFTER)[0]
    page = tmp_path / "docs" / "chapters" / CH05.name
    page.parent.mkdir(parents=True)
    page.write_text(text.replace(AFTER, sentence + "\n" + AFTER, 1), encoding="utf-8")
    return rules.failures(read(page))


def test_the_example_passes_and_each_flip_fails_as_quoted(tmp_path):
    example = _example()
    assert "The slow wave turns once in 63 positions." in example
    assert round(2 * 3.141592653589793 / 0.1) == 63            # the check itself holds
    assert _broken(tmp_path / "a", example) == []
    flipped = _broken(tmp_path / "b", example.replace("63 positions", "64 positions"))
    quoted = re.search(r"\(`(number '64' \(prose\) is not bound[^`]*)`\)", GUIDE.replace("\n   ", " "))
    assert quoted and any(quoted.group(1) in f for f in flipped), flipped
    every = _broken(tmp_path / "c", example.replace("turns once in 63", "repeats every 63"))
    assert any("claim word(s) every not stated by a check" in f for f in every), every


def test_a_broken_rule_fails_at_its_own_line():
    from sybil import Document

    from harness.collect import COLLECTED, PageRulesParser, evaluate_broken

    assert "a broken rule is a test of its own at that line" in " ".join(GUIDE.split())
    sentence = _example().replace("63 positions", "64 positions").splitlines()[0]
    text = CH05.read_text(encoding="utf-8").replace(AFTER, sentence + "\n\n" + AFTER, 1)
    counted = CH05.resolve() in COLLECTED      # leave the run's page totals as they were
    broken = [r for r in PageRulesParser()(Document(text, str(CH05)))     # parsed, not written
              if r.evaluator is evaluate_broken]
    if not counted:
        COLLECTED.discard(CH05.resolve())
    line = text.splitlines().index(sentence) + 1
    assert [text[:r.start].count("\n") + 1 for r in broken] == [line], broken


def test_the_chapter_table_names_modules_the_chapters_import():
    table = GUIDE.split("| Chapter | Its modules in `posenc` |", 1)[1].split("\n\n", 1)[0]
    rows = [r for r in table.splitlines() if r.startswith("| ") and not r.startswith("|--")]
    assert len(rows) == len(list((ROOT / "docs" / "chapters").glob("*.md")))
    for row in rows:
        number = row.split("|")[1].split()[0]
        page = next((ROOT / "docs" / "chapters").glob(f"{int(number[:2].rstrip('b')):02d}"
                                                        f"{'b' if number.endswith('b') else ''}-*.md"))
        text = page.read_text(encoding="utf-8")
        for name in re.findall(r"`([a-z_.]+)`", row.split("|")[2]):
            importlib.import_module("posenc." + name)          # a module that exists
            last = name.split(".")[-1]
            assert re.search(rf"posenc[\w.]*\b{last}\b|from posenc[\w.]* import [^\n]*\b{last}\b",
                             text), (page.name, name)
