"""The rules every page obeys, judged on one reading of the page (harness.page).

``failures(page)`` returns one message per broken rule, each naming page, line and section:
- every number typed in the prose is bound to the value that produces it (harness.numbers);
- every sentence whose claim lives in a word has a check that states the word (harness.words);
- code lines a reader sees fit in 80 characters (harness.lines).
The Sybil configuration (harness.collect) runs these as one more pytest item of the page, after
its code blocks, so ``pytest docs/chapters/NN-*.md`` gives the page's whole verdict.
"""

from __future__ import annotations

from harness import lines, numbers, words
from harness.page import Page


def number_failures(page: Page) -> list:
    return [f"{page.where(n.line)}: number {n.text!r} ({n.where}) is not bound to a value: no "
            "output of the nearest checks shows it at the precision written, and no name in "
            "the section's code holds it"
            for n in numbers.scan(page.path, page).numbers if n.verdict == "unchecked"]


def word_failures(page: Page) -> list:
    out = []
    for s in words.lint(page.path, page):
        if s.verdict == "flagged":
            out.append(f"{page.where(s.line)}: claim word(s) {', '.join(s.missing)} not stated by "
                       f"a check next to the paragraph: {s.text}")
    return out


def line_failures(page: Page) -> list:
    return [f"{page.where(n)}: code line of {len(text)} characters (at most {lines.LIMIT}): "
            f"{text}" for n, text in lines.long_lines(page)]


def failures(page: Page, prose: bool = True) -> list:
    """Every broken rule of the page; ``prose=False`` (README.md) judges only its code lines."""
    found = line_failures(page)
    if prose:
        found = number_failures(page) + word_failures(page) + found
    return found
