"""What a first-time reader meets, checked on the page sources (issue 32).

- No fold sits above the paragraph it checks: a collapsed ``??? note "Check: ..."`` box never
  opens a section (it comes after the text it checks, not between a heading and its text).
- No instruction works only with a mouse: "hover" is always paired with a way a phone can do
  it ("tap", "touch"; arrow keys do not help a phone).
- Every chapter ends with at least three exercises, each with a solution that runs code.
- The home page's answer is short enough to end on a phone's first screen (a word budget:
  tests/site/browser/test_reading.py measures the pixels).
- (A paragraph ending in ":" with nothing visible after it is a page rule: harness/colons.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness import page as model

ROOT = Path(__file__).resolve().parents[2]
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
    text = re.sub(r"<!--.*?-->", "", text)                    # a comment is not read
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
