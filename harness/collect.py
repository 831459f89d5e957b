"""The Sybil configuration: what pytest runs on every page and every docstring.

Only ``conftest.py`` imports this module (it needs ``sybil``, from the test extra); the site's
hooks use ``harness.page`` alone.

Markdown pages, read once by ``harness.page``:
- a Python fence (``python``, ``py``, ``pycon``, with attributes or ``{ .python }``) that starts
  with ``>>>`` is a doctest: each statement is an example and its printed output is compared, a
  written float meaning "the value correctly rounded to the digits shown" (RoundedNumberChecker);
- any other Python fence is executed in the page's namespace (later blocks see earlier names),
  except an ``exec="on"`` block, which runs as the site build runs it: in a fresh namespace,
  with what it prints captured;
- a claim marker ``<!-- check: EXPRESSION -->`` on its own line(s) is evaluated in the page's
  namespace and fails, naming page, line and expression, when falsy or raising;
- the page's rules (harness.rules: prose numbers, claim words, causes, scope, code line
  lengths, ...) are judged on the text: a line that breaks one is an example at that line, so
  the failing test id names it; after the page's last block the answer's claim markers run. So
  ``pytest PAGE`` is the page's whole verdict.

Docstrings: every ``>>>`` example in ``posenc/*.py`` runs with the module's globals.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np
from sybil import Region, Sybil
from sybil.evaluators.doctest import DocTestEvaluator, OutputChecker
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import ClearNamespaceParser, SkipParser
from sybil.parsers.rest import DocTestParser
from sybil.region import Lexeme

from harness import page as model
from harness import rules

ROOT = Path(__file__).resolve().parents[1]

# What a page shows is what Python prints: a >>> output is compared as text (doctest's own
# checker, ELLIPSIS and NORMALIZE_WHITESPACE only), with no tolerance on numbers. A value that
# could differ by CPU is rounded in the code that prints it (``round(x, 4)``), so the page shows
# exactly what a reader gets when they paste the block. Docstrings obey the same rule.


def _half_unit(text: str) -> float:
    """Half a unit in the last digit written: 0.841 -> 0.0005, 2.5e-3 -> 0.00005 (the prose
    number rules and the browser tests read a written number as the value rounded to it)."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (-(decimals - int(exponent or 0)))


class ExactChecker(OutputChecker):
    """Doctest's comparison, nothing looser: ``0.841`` does not match 0.8414709848."""


def doctest_evaluator(optionflags: int) -> DocTestEvaluator:
    evaluator = DocTestEvaluator(optionflags)
    evaluator.runner._checker = ExactChecker()
    return evaluator


OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def evaluate_exec(example) -> None:
    """An ``exec="on"`` block runs as markdown-exec runs it at build time: a fresh namespace,
    NumPy's default print options, what it prints captured (and discarded: the snapshot test,
    tests/site/test_exec_output.py, compares it)."""
    namespace = {"__name__": "__main__"}
    where = f"{example.path}:{example.line}"
    with np.printoptions(legacy=False), contextlib.redirect_stdout(io.StringIO()):
        exec(compile(example.parsed, where, "exec"), namespace)


class FenceParser:
    """Every Python fence of the page model, as code, an exec block or doctests."""

    def __init__(self, optionflags: int = OPTIONFLAGS) -> None:
        self.doctests = DocTestStringParser(doctest_evaluator(optionflags))
        self.code = PythonEvaluator()

    def __call__(self, document):
        page = model.parse(document.text, document.path)
        for fence in page.fences:
            if not fence.python:
                continue
            source = Lexeme(fence.source, offset=fence.body_start - fence.start, line_offset=0)
            region = Region(fence.start, fence.end, lexemes={"source": source})
            if fence.doctest:
                for sub in self.doctests(fence.source, document.path):
                    sub.adjust(region, source)
                    yield sub
            else:
                region.parsed = source
                region.evaluator = evaluate_exec if fence.exec_on else self.code
                yield region


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
    """Collect the page model's ``<!-- check: EXPRESSION -->`` markers as examples."""

    def __call__(self, document):
        for marker in model.parse(document.text, document.path).markers:
            if not marker.expr:
                raise ValueError(f"{document.path}:{marker.first}: empty claim marker")
            if not marker.deferred:
                yield Region(marker.start, marker.end, marker.expr, evaluate_claim)


def _deferred(example, page) -> list:
    """The answer's claim markers, evaluated in the namespace the whole page has built (the
    answer comes before the code that computes what it says)."""
    failed = []
    for marker in page.markers:
        if marker.deferred:
            where = f"{page.where(marker.first)}"
            try:
                value = eval(compile(marker.expr, where, "eval"), example.namespace)
            except Exception as error:
                failed.append(f"{where}: claim check raised {type(error).__name__}: {error}\n"
                              f"    <!-- check: {marker.expr} -->")
                continue
            if not value:
                failed.append(f"{where}: claim check is false (value {value!r})\n"
                              f"    <!-- check: {marker.expr} -->")
    return failed


def evaluate_deferred(example) -> str | None:
    """After the page's last block: the answer's claim markers (see ``_deferred``), and any rule
    broken on the page's last line."""
    page, broken = example.parsed
    found = _deferred(example, page) + broken
    if found:
        return f"{len(found)} page check(s) failed:\n" + "\n".join(found)
    return None


def evaluate_broken(example) -> str | None:
    """A line of the page that breaks a rule: its messages (page, line, section, what to do)."""
    found = example.parsed
    return f"{len(found)} page rule(s) broken:\n" + "\n".join(found)


# The pages of docs/ this process collected: the end-of-run totals count these (all of them in a
# whole run, one in `pytest PAGE`).
COLLECTED: set[Path] = set()


class PageRulesParser:
    """The page's rules (harness.rules), judged on the text when the page is collected: each line
    that breaks one is an example of its own at that line, so the failing test's id names the
    line (one on a page's code line or marker sits at the end of that block). After the page's
    last block, one more example evaluates the answer's claim markers."""

    def __call__(self, document):
        page = model.parse(document.text, document.path)
        COLLECTED.add(Path(document.path).resolve())
        relative = os.path.relpath(page.path, ROOT)
        found = rules.failures(page, prose=relative.startswith("docs" + os.sep))
        spans = [(f.start, f.end) for f in page.fences] + [(m.start, m.end) for m in page.markers]
        starts = [0]
        for line in page.lines:
            starts.append(starts[-1] + len(line) + 1)
        at: dict = {}
        for message in found:
            line = int(re.match(re.escape(page.path) + r":(\d+) ", message).group(1))
            offset = min(starts[line - 1], len(document.text))
            offset = next((end for start, end in spans if start <= offset < end), offset)
            at.setdefault(offset, []).append(message)
        end = len(document.text)
        for offset in sorted(at):
            if offset < end:
                yield Region(offset, offset, at[offset], evaluate_broken)
        yield Region(end, end, (page, at.get(end, [])), evaluate_deferred)


def _setup(namespace: dict) -> None:
    # NumPy 2 prints scalars as np.float64(0.5); the legacy mode prints 0.5.
    namespace["_posenc_printoptions"] = np.get_printoptions()
    np.set_printoptions(legacy="1.25")


def _teardown(namespace: dict) -> None:
    np.set_printoptions(**namespace["_posenc_printoptions"])
    import matplotlib.pyplot as plt

    plt.close("all")


# A page's figures are drawn under pytest as the build draws them; their SVG is then read from
# the build's figure cache (posenc.plots._svg: keyed by the figure's whole state, the alt text,
# rcParams and the renderer's source, so a changed figure is rendered anew) instead of being
# rendered a second time. POSENC_FIGURE_CACHE= (empty) turns it off, as for the build.
FIGURE_CACHE = ROOT / ".cache" / "figures"
_saved_figure_cache: list = []


def _page_setup(namespace: dict) -> None:
    _setup(namespace)
    _saved_figure_cache.append(os.environ.get("POSENC_FIGURE_CACHE"))
    os.environ.setdefault("POSENC_FIGURE_CACHE", str(FIGURE_CACHE))


def _page_teardown(namespace: dict) -> None:
    _teardown(namespace)
    saved = _saved_figure_cache.pop() if _saved_figure_cache else None
    if saved is None:
        os.environ.pop("POSENC_FIGURE_CACHE", None)
    else:
        os.environ["POSENC_FIGURE_CACHE"] = saved


DOC_PATTERNS = ["README.md", "docs/*.md", "docs/*/*.md", "docs/*/*/*.md"]
CODE_PARSERS = [FenceParser(), ClaimMarkerParser(), SkipParser(), ClearNamespaceParser()]

# The code examples only (what the pages' example counts count), and the same plus the rules.
code_sybil = Sybil(parsers=CODE_PARSERS, patterns=DOC_PATTERNS, setup=_page_setup,
                   teardown=_page_teardown, name="code", path=str(ROOT))
markdown_sybil = Sybil(parsers=[*CODE_PARSERS, PageRulesParser()], patterns=DOC_PATTERNS,
                       setup=_page_setup, teardown=_page_teardown, name="docs", path=str(ROOT))

_docstring_parser = DocTestParser(optionflags=OPTIONFLAGS)
_docstring_parser.string_parser.evaluator = doctest_evaluator(OPTIONFLAGS)

docstring_sybil = Sybil(
    parsers=[_docstring_parser],
    patterns=["posenc/*.py", "posenc/*/*.py"],
    setup=_setup,
    teardown=_teardown,
    name="docstrings",
    path=str(ROOT),
)

pytest_collect_file = (markdown_sybil + docstring_sybil).pytest()


def totals(root: Path = ROOT, with_causes: bool = False, paths=None) -> tuple:
    """(numbers by verdict, sentences by verdict) over ``paths`` (default every page of docs/),
    and causal sentences (and scope verdicts, keyed "scope ...") by verdict when
    ``with_causes``."""
    from harness import causes, numbers, scope, words

    nums: dict[str, int] = {}
    said: dict[str, int] = {}
    why: dict[str, int] = {}
    for path in model.pages(root) if paths is None else paths:
        page = model.read(path)
        for n in numbers.scan(path, page).numbers:
            nums[n.verdict] = nums.get(n.verdict, 0) + 1
        for s in words.lint(path, page):
            said[s.verdict] = said.get(s.verdict, 0) + 1
        if with_causes:
            for s in causes.lint(path, page):
                if s.words:
                    why[s.verdict] = why.get(s.verdict, 0) + 1
            for s in scope.lint(path, page):
                key = "scope " + s.verdict
                why[key] = why.get(key, 0) + 1
    return (nums, said, why) if with_causes else (nums, said)


def pytest_terminal_summary(terminalreporter, config):
    """Print the prose-number, claim-word and cause totals of the pages the run tested: every
    page of docs/ under pytest-xdist (the workers collect, not this process), else those
    collected here; nothing when the run tested no page of docs/."""
    if getattr(config.option, "numprocesses", None):
        paths = None
    else:
        docs = (ROOT / "docs").resolve()
        paths = sorted(p for p in COLLECTED if docs in p.parents)
        if not paths:
            return
    nums, said, why = totals(with_causes=True, paths=paths)
    pages = "every page" if paths is None else f"{len(paths)} page{'s' * (len(paths) > 1)}"
    terminalreporter.write_line(f"page rules over {pages} of docs/:")
    terminalreporter.write_line(
        "prose numbers: {checked} checked by outputs in their section, {restated} restated in "
        "answer/summary, {input} inputs bound to names, {exempt} exempt (<!-- not-checked -->), "
        "{unchecked} unchecked".format(
            **{k: nums.get(k, 0) for k in ("checked", "restated", "input", "exempt",
                                           "unchecked")}))
    terminalreporter.write_line(
        "claim words: {total} sentences, {satisfied} bound to a check stating the word, "
        "{exempt} no-claim markers (<!-- no-claim: reason -->), {transition} words of a "
        "capped class (direction, same, order, negation, both, time) within their page's cap "
        "(harness/not_yet.py), {flagged} flagged".format(
            total=sum(said.values()),
            **{k: said.get(k, 0) for k in ("satisfied", "exempt", "transition", "flagged")}))
    terminalreporter.write_line(
        "causes: {total} causal sentences, {bound} bound to a cause check, {sourced} sourced, "
        "{derived} derived, {exempt} questions/quotations (<!-- no-claim -->), {transition} on "
        "the transition list, {flagged} flagged".format(
            total=sum(v for k, v in why.items() if not k.startswith("scope")),
            **{k: why.get(k, 0) for k in ("bound", "sourced", "derived", "exempt", "transition",
                                           "flagged")}))
    terminalreporter.write_line(
        "scope: {scoped} universal sentences next to a check that declares its domain, {family} "
        "family sentences (half precision, every width, any base) naming or checking each "
        "member, {flagged} flagged".format(**{k: why.get("scope " + k, 0)
                                              for k in ("scoped", "family", "flagged")}))
