"""Doc tests: Sybil runs every Python block of every Markdown page and every docstring example.

Markdown pages: a fence whose info string names python, py or pycon (also with attributes such
as ``title="..."``, ``exec="on"``, ``hl_lines`` or the ``{ .python }`` form) is collected. If it
starts with ``>>>`` it is a doctest whose printed output is compared (floats to the precision
written, thanks to ``NUMBER``); otherwise it is executed. One namespace per page, so blocks build
on each other. ``tests/test_harness.py`` fails if any Python-looking fence is not collected.

Claim markers: an HTML comment on its own line, ``<!-- check: EXPRESSION -->``, is evaluated in
the page's namespace (names from the blocks above it) and fails, naming page, line and
expression, when the value is falsy or the expression raises. Markers inside fences are text.

Docstrings: every ``>>>`` example in ``posenc/*.py`` runs with the module's globals.
"""

from __future__ import annotations

import doctest
import os
import re

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np
from sybil import Region, Sybil
from sybil.evaluators.doctest import NUMBER, DocTestEvaluator, OutputChecker
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import ClearNamespaceParser, SkipParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer
from sybil.parsers.rest import DocTestParser

# A float written on a page means "this value, correctly rounded to the digits shown".
_FLOAT = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][+-]?\d+)?")


def _half_unit(text: str) -> float:
    """Half a unit in the last digit written: 0.841 -> 0.0005, 2.5e-3 -> 0.00005."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (-(decimals - int(exponent or 0)))


class RoundedNumberChecker(OutputChecker):
    """Sybil's NUMBER accepts a whole unit of the last written digit (0.842 for 0.8415). Here a
    written number must be the actual value rounded to the digits shown (half a unit)."""

    def _remove_unwanted_precision(self, want: str, got: str) -> str:
        wanted = list(_FLOAT.finditer(want))
        actual = list(_FLOAT.finditer(got))
        if len(wanted) != len(actual):
            return got
        pieces, last = [], 0
        for w, g in zip(wanted, actual):
            close = abs(float(w.group()) - float(g.group())) <= _half_unit(w.group()) * (1 + 1e-9)
            pieces.append(got[last:g.start()])
            pieces.append(w.group() if close else g.group())
            last = g.end()
        pieces.append(got[last:])
        return "".join(pieces)


def doctest_evaluator(optionflags: int) -> DocTestEvaluator:
    evaluator = DocTestEvaluator(optionflags)
    evaluator.runner._checker = RoundedNumberChecker()
    return evaluator


OPTIONFLAGS = NUMBER | doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

# The info string of a Python fence: ```python, ```py, ```pycon, ```python3, each optionally
# followed by attributes, or the attribute-list form ``` { .python title="x" }.
PYTHON_INFO = re.compile(
    r"[ \t]*(?:\{[ \t]*\.)?(?P<language>python3?|py|pycon)(?![\w-])(?P<attributes>[^\n]*)$\n",
    re.MULTILINE,
)


class AnyPythonFenceParser:
    """Collect every Python fence, with or without attributes, as code or as doctests."""

    def __init__(self, optionflags: int = OPTIONFLAGS) -> None:
        self.lexer = RawFencedCodeBlockLexer(info_pattern=PYTHON_INFO)
        self.doctests = DocTestStringParser(doctest_evaluator(optionflags))
        self.code = PythonEvaluator()

    def __call__(self, document):
        for region in self.lexer(document):
            source = region.lexemes["source"]
            if source.lstrip().startswith(">>>"):
                for sub in self.doctests(source, document.path):
                    sub.adjust(region, source)
                    yield sub
            else:
                region.parsed = source
                region.evaluator = self.code
                yield region


# A claim marker: an HTML comment alone on its line(s); the expression may wrap over lines.
CHECK_MARKER = re.compile(r"^[ \t]*<!--[ \t]*check:(?P<expr>(?:(?!-->).)*?)-->[ \t]*$", re.MULTILINE | re.DOTALL)
_ANY_FENCE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})", re.MULTILINE)


def fenced_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of every fenced block (any language), so markers shown in code are text."""
    spans, pos = [], 0
    while (m := _ANY_FENCE.search(text, pos)):
        fence = m.group("fence")
        close = re.compile(r"^[ \t>]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$",
                           re.MULTILINE)
        end = close.search(text, m.end())
        stop = end.end() if end else len(text)
        spans.append((m.start(), stop))
        pos = stop
    return spans


def evaluate_claim(example) -> str | None:
    """Evaluate a claim marker's expression in the page's namespace. A falsy value or an exception
    returns the failure message (page, line, expression), which Sybil reports as the failure."""
    expression = example.parsed
    where = f"{example.path}:{example.line}"
    try:
        value = eval(compile(expression, where, "eval"), example.namespace)
    except Exception as error:
        return (f"{where}: claim check raised {type(error).__name__}: {error}\n"
                f"    <!-- check: {expression} -->")
    if not value:
        return f"{where}: claim check is false (value {value!r})\n    <!-- check: {expression} -->"
    return None


class ClaimMarkerParser:
    """Collect ``<!-- check: EXPRESSION -->`` lines outside fences as examples."""

    def __call__(self, document):
        spans = fenced_spans(document.text)
        for m in CHECK_MARKER.finditer(document.text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            expression = " ".join(m.group("expr").split())
            if not expression:
                raise ValueError(f"{document.path}: empty claim marker at offset {m.start()}")
            yield Region(m.start(), m.end(), expression, evaluate_claim)


def _setup(namespace: dict) -> None:
    # NumPy 2 prints scalars as np.float64(0.5); the legacy mode prints 0.5.
    namespace["_posenc_printoptions"] = np.get_printoptions()
    np.set_printoptions(legacy="1.25")


def _teardown(namespace: dict) -> None:
    np.set_printoptions(**namespace["_posenc_printoptions"])
    import matplotlib.pyplot as plt

    plt.close("all")


DOC_PATTERNS = ["README.md", "docs/*.md", "docs/*/*.md", "docs/*/*/*.md"]

markdown_sybil = Sybil(
    parsers=[AnyPythonFenceParser(), ClaimMarkerParser(), SkipParser(), ClearNamespaceParser()],
    patterns=DOC_PATTERNS,
    setup=_setup,
    teardown=_teardown,
    name="docs",
)

_docstring_parser = DocTestParser(optionflags=OPTIONFLAGS)
_docstring_parser.string_parser.evaluator = doctest_evaluator(OPTIONFLAGS)

docstring_sybil = Sybil(
    parsers=[_docstring_parser],
    patterns=["posenc/*.py", "posenc/*/*.py"],
    setup=_setup,
    teardown=_teardown,
    name="docstrings",
)

pytest_collect_file = (markdown_sybil + docstring_sybil).pytest()


def pytest_terminal_summary(terminalreporter):
    """Print the prose-number scan's and the claim-word lint's totals at the end of every run."""
    try:
        from tests.claim_words import lint
        from tests.pending import NUMBERS, WORDS, load
        from tests.prose_numbers import scan
    except ImportError:                    # running outside the repository root
        return
    from pathlib import Path

    totals: dict[str, int] = {}
    words: dict[str, int] = {}
    for page in sorted(Path(__file__).parent.joinpath("docs").rglob("*.md")):
        for number in scan(page).numbers:
            totals[number.verdict] = totals.get(number.verdict, 0) + 1
        for sentence in lint(page):
            words[sentence.verdict] = words.get(sentence.verdict, 0) + 1
    terminalreporter.write_line(
        "prose numbers: {checked} checked by outputs in their section, {restated} restated in "
        "answer/summary, {input} inputs bound to names, {exempt} exempt (<!-- not-checked -->), "
        "{unchecked} unchecked ({pending} pending in tests/pending/numbers.txt)".format(
            pending=sum(load(NUMBERS).values()),
            **{k: totals.get(k, 0) for k in ("checked", "restated", "input", "exempt",
                                              "unchecked")}))
    terminalreporter.write_line(
        "claim words: {total} sentences, {satisfied} satisfied by a check naming the word, "
        "{restated} restated in the answer, {exempt} exempt (<!-- no-claim -->), {flagged} "
        "flagged ({pending} pending in tests/pending/words.txt)".format(
            total=sum(words.values()), pending=sum(load(WORDS).values()),
            **{k: words.get(k, 0) for k in ("satisfied", "restated", "exempt", "flagged")}))
