"""What a first-time reader meets, checked on the page sources (issue 32).

- No fold sits above the paragraph it checks: a collapsed ``??? note "Check: ..."`` box never
  opens a section (it comes after the text it checks, not between a heading and its text).
- No instruction works only with a mouse: "hover" is always paired with a way a phone can do
  it ("tap", "touch"; arrow keys do not help a phone).
- Every chapter ends with at least three exercises, each with a solution that runs code.
- The home page's answer is short enough to end on a phone's first screen (a word budget:
  tests/test_browser.py measures the pixels).
- No rendered paragraph ends in ":" with nothing visible after it (only a check marker, then
  prose or a heading): the colon announces something the reader never sees.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness import page as model

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md"))
CHAPTERS = sorted((ROOT / "docs" / "chapters").glob("*.md"))
# Chapters allowed fewer than three exercises for now (none: 10b's third landed).
EXERCISES_PENDING: set = set()


def ids(paths):
    return [p.relative_to(ROOT).as_posix() for p in paths]


def folds_opening_a_section(page) -> list:
    """Check folds with nothing but markers between them and their heading (or the top)."""
    found = []
    previous = None
    for element in page.elements:
        if element.kind == "marker":
            continue
        if element.kind == "block" and element.title and previous in (None, "heading"):
            found.append(f"{page.path}:{element.first}: the fold {element.title.strip()} opens "
                         "its section, above the paragraph it checks")
        previous = element.kind
    return found


@pytest.mark.parametrize("path", PAGES, ids=ids(PAGES))
def test_no_fold_above_its_paragraph(path):
    assert not folds_opening_a_section(model.read(path))


def test_the_fold_rule_bites():
    bad = model.parse('# T\n\n## S\n\n??? note "Check: x"\n\n    ```python\n    x = 1\n    ```\n\n'
                      "Text that the fold checks.\n", "<t>")
    good = model.parse("# T\n\n## S\n\nText that the fold checks.\n\n"
                       '??? note "Check: x"\n\n    ```python\n    x = 1\n    ```\n', "<t>")
    assert folds_opening_a_section(bad) and not folds_opening_a_section(good)


HOVER = re.compile(r"\bhover", re.IGNORECASE)
OTHER_WAY = re.compile(r"\b(tap|touch)", re.IGNORECASE)


@pytest.mark.parametrize("path", PAGES, ids=ids(PAGES))
def test_no_hover_only_instruction(path):
    page = model.read(path)
    bad = [f"{path.name}:{n}: {line.strip()[:80]}" for n, _, line in page.prose
           if HOVER.search(line) and not OTHER_WAY.search(line)]
    assert not bad, "an instruction a phone cannot follow:\n" + "\n".join(bad)


def exercises(page) -> list:
    """(line, has a solution that runs code) for each ``**Exercise`` paragraph."""
    out = []
    starts = [e for e in page.elements
              if e.kind == "paragraph" and e.lines[0][1].lstrip().startswith("**Exercise")]
    for k, start in enumerate(starts):
        end = starts[k + 1].first if k + 1 < len(starts) else len(page.lines) + 1
        heading = next((h for h, _, _ in page.headings if start.first < h < end), None)
        end = min(end, heading or end)
        lines = page.lines[start.first - 1:end - 1]
        solution = any(re.match(r'\s*\?{3}\+?\s+\w+\s+"(Solution|Answer)', line) for line in lines)
        runs = any(f.python and start.first < f.first < end for f in page.fences)
        out.append((start.first, solution and runs))
    return out


def exercise_param(path):
    marks = [pytest.mark.xfail(reason="helper lab adds the third")] \
        if path.name in EXERCISES_PENDING else []
    return pytest.param(path, id=path.name, marks=marks)


@pytest.mark.parametrize("path", [exercise_param(p) for p in CHAPTERS])
def test_three_exercises_with_run_solutions(path):
    found = exercises(model.read(path))
    solved = [line for line, ok in found if ok]
    assert len(solved) >= 3, f"{path.name}: {len(solved)} exercises with a run solution {found}"


def test_home_answer_fits_a_first_screen():
    """The answer under the home page's title: at most 90 words, formulas counted as one (it
    was 112, and its last sentence fell below a 390 px phone's first screen)."""
    page = model.read(ROOT / "docs" / "index.md")
    answer = next(e for e in page.elements if e.kind == "paragraph"
                  and e.lines[0][1].startswith("**Answer.**"))
    text = " ".join(raw for _, raw in answer.lines)
    text = re.sub(r"\\\(.*?\\\)", "x", text)                 # a formula reads as one word
    words = len(text.split())
    assert text.startswith("**Answer.**") and words <= 90, words


LEARN = re.compile(r"\blearn", re.IGNORECASE)


def answer_learning_unmeasured(page) -> list:
    """Sentences of the page's Answer that say what a model learns, when no marker right after
    the Answer reads a lab record (``verdict(``): a claim about trained models is a measurement
    (a model *can* learn "attend 3 back" once for every position was the paper's hypothesis;
    the lab's models trained on that task did not carry it past their training length)."""
    elements = page.elements
    start = next(k for k, e in enumerate(elements) if e.kind == "paragraph"
                 and e.lines[0][1].startswith("**Answer.**"))
    text = " ".join(raw for _, raw in elements[start].lines)
    markers = []
    for e in elements[start + 1:]:
        if e.kind != "marker":
            break
        markers.append(e.marker.expr)
    if any("verdict(" in m for m in markers):
        return []
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if LEARN.search(s)]


@pytest.mark.parametrize("name", ["index.md", "tour.md"])
def test_first_read_answer_learning_is_measured(name):
    assert not answer_learning_unmeasured(model.read(ROOT / "docs" / name))


def test_the_learning_rule_bites():
    bad = model.parse('# T\n\n**Answer.** A model can learn "attend 3 back" once.\n\n'
                      "<!-- check: True  # attend 3 back -->\n", "<t>")
    good = model.parse('# T\n\n**Answer.** Models trained here did not learn it past L.\n\n'
                       '<!-- check: verdict("past", "x")["holds"]  # past L -->\n', "<t>")
    assert answer_learning_unmeasured(bad) and not answer_learning_unmeasured(good)


COMMENT = re.compile(r"<!--.*?-->", re.S)
SHOWN = ("```", "- ", "* ", "1. ", "\\[", "???", "!!!", "<div", "|")
# Pages with a known dangling colon, fixed by another helper (outside reads 2026-12, ch08-6).
COLON_PENDING = {"08-building-the-formula.md"}


def dangling_colons(text: str) -> list:
    """(line, end of text) of each paragraph that ends in ":" when the next thing a reader sees
    is not a block, list, display math, fold, table or explorer: a marker is not rendered, so
    the colon announces nothing (outside reads 2026-12: ch01-1, ch07-5, ch08-6)."""
    blanked = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text).split("\n")
    out, fence = [], False
    for n, raw in enumerate(blanked):
        s = raw.strip()
        if s.startswith("```"):
            fence = not fence
            continue
        if fence or not s.endswith(":") or s.startswith(("#", "???", "!!!", ">>>", "...", "|")):
            continue
        if n + 1 < len(blanked) and blanked[n + 1].strip():
            continue                                    # the paragraph goes on, or a fence follows
        m = n + 1
        while m < len(blanked) and not blanked[m].strip():
            m += 1
        if m >= len(blanked) or not blanked[m].lstrip().startswith(SHOWN):
            out.append((n + 1, s[-60:]))
    return out


def colon_param(path):
    marks = [pytest.mark.xfail(reason="ch08-6: the chapter 8 helper fixes it")] \
        if path.name in COLON_PENDING else []
    return pytest.param(path, id=path.relative_to(ROOT).as_posix(), marks=marks)


@pytest.mark.parametrize("path", [colon_param(p) for p in PAGES])
def test_no_colon_announces_only_a_marker(path):
    bad = dangling_colons(path.read_text())
    assert not bad, f"{path.name}: a colon with nothing rendered after it: {bad}"


def test_the_colon_rule_bites():
    bad = "Text that holds for all:\n\n<!-- check: True -->\n\n## Next\n"
    bad_prose = "Checked on many angles:\n\n<!-- check: True -->\n\nSo it holds.\n"
    good = "Text that holds for all.\n\n<!-- check: True -->\n\n## Next\n"
    shown = "In numbers:\n\n```pycon\n>>> 1\n1\n```\n\nA list:\n\n- one\n"
    assert dangling_colons(bad) and dangling_colons(bad_prose)
    assert not dangling_colons(good) and not dangling_colons(shown)
