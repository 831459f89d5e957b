"""The rules every page obeys, judged on one reading of the page (harness.page).

``failures(page)`` returns one message per broken rule, each naming page, line and section:
- every number typed in the prose is bound to the value that produces it (harness.numbers);
- every sentence whose claim lives in a word has a check that states the word (harness.words);
- every sentence that names a cause is bound to a cause check, a source or a derivation
  (harness.causes);
- a check's declared domain is stated by its paragraph, and a family ("half precision") is named
  or checked member by member (harness.scope);
- code lines a reader sees fit in 80 characters (harness.lines);
- a sentence ending with a colon is followed by what it introduces (harness.colons).
The Sybil configuration (harness.collect) judges these when it collects the page: each line that
breaks one is a pytest item at that line, so ``pytest docs/chapters/NN-*.md`` gives the page's
whole verdict and a failure's test id names the line.
"""

from __future__ import annotations

import re

from harness import causes, colons, lines, numbers, scope, words
from harness.page import Page


def number_failures(page: Page) -> list:
    out = []
    for n in numbers.scan(page.path, page).numbers:
        if n.verdict != "unchecked":
            continue
        if n.why == "twin":
            why = ("is written twice on this line but the section's checks show the value once: "
                   "each occurrence needs its own output (or an == in a marker)")
        elif n.why == "neighbour":
            why = (f"is ambiguous: the checks next to it also show {n.neighbour:g}, one unit "
                   "away in the last digit written, so the check would pass if the prose said "
                   "that; print or compare only what this number states")
        elif n.why == "bound":
            why = (f"is a bound ({n.bound}) rounded to the unsafe side: the value the check "
                   "shows falls short of it; round the other way")
        elif n.section in page.answer_sections | page.summary_sections:
            why = ("restates nothing: no number of another section's prose says it at this "
                   "precision, and no output prints it exactly (four digits or more)")
        else:
            why = ("is not bound to a value: no output or == check in its section shows it at "
                   "the precision written, and no name in the section's code holds it")
        out.append(f"{page.where(n.line)}: number {n.text!r} ({n.where}) {why}")
    return out


def word_failures(page: Page) -> list:
    out = []
    for s in words.lint(page.path, page):
        if s.verdict == "flagged":
            out.append(f"{page.where(s.line)}: claim word(s) {', '.join(s.missing)} not stated by "
                       f"a check next to the paragraph: {s.text}")
    return out


def cause_failures(page: Page) -> list:
    return [f"{page.where(s.line)}: cause ({', '.join(s.words) or 'check'}) not bound: "
            f"{s.missing}: {s.text}" for s in causes.lint(page.path, page)
            if s.verdict == "flagged"]


def scope_failures(page: Page) -> list:
    return [f"{page.where(s.line)}: scope: {s.why}: {s.text}"
            for s in scope.lint(page.path, page) if s.verdict == "flagged"]


# A float written in a prose code span (`pos * 6e-8`) is a number too: it must be a value the
# page's code holds (a fenced block or a claim marker), so a figure cannot hide in backticks.
SPAN_FLOAT = re.compile(r"(?<![\w.])(?:\d+\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])")


def code_span_failures(page: Page) -> list:
    code = " ".join(f.source for f in page.fences) + " " + " ".join(m.expr for m in page.markers)
    held = {float(x) for x in SPAN_FLOAT.findall(code)}
    out = []
    for n, _, raw in page.prose:
        for span in re.findall(r"`([^`]+)`", raw):
            for x in SPAN_FLOAT.findall(span):
                if float(x) not in held:
                    out.append(f"{page.where(n)}: number {x!r} in the code span `{span}` is no "
                               "value of the page's code (a block or a marker): write it in "
                               "prose where the number rule binds it, or compute it in a block")
    return out


def colon_failures(page: Page) -> list:
    from pathlib import Path
    if Path(page.path).name in colons.COLON_NOT_YET:
        return []
    return [f"{page.where(n)}: the sentence ends with a colon, but what follows shows the reader "
            f"nothing it introduces (code, a list, math, a figure, a table or a folded box): end "
            f"it with a full stop or show what it points at: {text}"
            for n, text in colons.dangling(page)]


def line_failures(page: Page) -> list:
    return [f"{page.where(n)}: code line of {len(text)} characters (at most {lines.LIMIT}): "
            f"{text}" for n, text in lines.long_lines(page)]


def failures(page: Page, prose: bool = True) -> list:
    """Every broken rule of the page; ``prose=False`` (README.md) judges only its code lines."""
    found = line_failures(page)
    if prose:
        found = (number_failures(page) + word_failures(page) + cause_failures(page)
                 + scope_failures(page) + code_span_failures(page)
                 + noise_failures(page) + colon_failures(page) + found)
    return found



NOISE_DIGITS = 12
_FLOAT_TOKEN = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d+|\d\.?\d*[eE][-+]?\d+)(?![\w.])")


def noise_failures(page: Page) -> list:
    """Don't print noise: a ``>>>`` output showing a float with more than 12 significant digits
    (a full-precision repr such as 0.0001333521432163324) prints rounding that any harmless
    refactor changes. Round it, print a comparison, or say the value is exact: a comment
    containing "exact" on the statement (``>>> 2.0 ** -24   # exact``)."""
    out = []
    for fence in page.fences:
        if not fence.doctest:
            continue
        statement = ""
        for n, text in fence.body:
            line = text.strip()
            if line.startswith(">>>"):
                statement = line
                continue
            if line.startswith("..."):
                statement += "\n" + line
                continue
            if "exact" in statement.lower():
                continue
            for m in _FLOAT_TOKEN.finditer(line):
                mantissa = m.group().lstrip("+-").lower().partition("e")[0]
                digits = len(mantissa.replace(".", "").lstrip("0"))
                if digits > NOISE_DIGITS:
                    out.append(f"{page.where(n)}: printed float {m.group()} has {digits} "
                               "significant digits: round it, print a comparison, or mark the "
                               "statement '# exact'")
    return out
