"""Find a sentence on a page and hold it to a computation: the one helper the review tests share.

A review that finds a true sentence no check binds (a word flip that passes every test) binds it
with a test that reads the page and recomputes the fact: ``says(text, phrase, fact)`` requires
the phrase on the page exactly when the computed ``fact`` is true, so flipping the word (or the
fact) fails. The page is read flat: whitespace collapsed, so a phrase may cross a line break.

>>> says("a b c", "b  c", 1 < 2)
>>> says("a b c", "b d", 2 < 1)
"""

from __future__ import annotations

import re
from pathlib import Path


def flat(path: Path | str) -> str:
    """The page's text with every run of whitespace as one space."""
    return " ".join(Path(path).read_text().split())


def says(text: str, phrase: str, fact) -> None:
    """Assert that ``text`` contains ``phrase`` (whitespace collapsed) if and only if ``fact``."""
    assert (" ".join(phrase.split()) in text) == bool(fact), (phrase, fact)


def stated(text: str, pattern: str) -> re.Match:
    """The first match of the regular expression ``pattern`` in ``text``; fails if none."""
    m = re.search(pattern, text)
    assert m, pattern
    return m


def holds(text: str, pattern: str, fact, where: str = "") -> None:
    """Every match of ``pattern`` in ``text`` must satisfy ``fact(*groups)``; the sentence must
    be there (a test of a sentence that is gone would pass whatever the page says)."""
    found = re.findall(pattern, text)
    assert found, f"{where}: the sentence {pattern!r} is gone; update this test with it"
    for match in found:
        groups = match if isinstance(match, tuple) else (match,)
        assert fact(*groups), (where, pattern, match)


def section(path: Path | str, title: str) -> str:
    """The prose of the section headed ``## title``, flat: no fenced code, folded notes or
    HTML comments."""
    text = Path(path).read_text()
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    body = text[start:] if end < 0 else text[start:end]
    body = re.sub(r"```.*?```", "", body, flags=re.S)
    body = re.sub(r"\?\?\? note.*?(?=\n\S)", "", body, flags=re.S)
    return " ".join(re.sub(r"<!--.*?-->", "", body, flags=re.S).split())


def paragraphs(path: Path | str) -> list:
    """The page's paragraphs, flat, without fenced code or HTML comments."""
    text = re.sub(r"<!--.*?-->", "", Path(path).read_text(), flags=re.S)    # comments first:
    text = re.sub(r"^[ \t]*(`{3,}).*?^[ \t]*\1[ \t]*$", "", text,          # a ``` inside one
                  flags=re.S | re.M)                                    # must not pair
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
