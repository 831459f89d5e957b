"""Find the numbers typed in a page's prose and check that the page's own code produces them.

A number in prose (paragraphs, lists, tables, admonitions, math, and the ``alt=``/``caption=``
text of ``figure_html`` calls in ``exec="on"`` blocks; not code, not links) belongs to its
*section*: the text under the nearest heading above it. It is:
- *checked* if a ``>>>`` output in a block of the same section shows the same value at the
  written precision (``0.506`` in prose matches an output 0.506 or 0.5062, not 0.507); the block
  nearest to the number is tried first and recorded. An output elsewhere on the page does not
  count: the number that matches only another section's output is *unchecked*;
- an *input* if the section's code binds it to a name: ``name = value`` (also ``a, b = 1, 2``
  and ``name += value``), a keyword argument ``name=value``, ``for name in (v1, v2, ...)``, a
  positional argument (bound to the parameter the signature names), or the last position
  ``n - 1`` of ``range(n)``, ``np.arange(n)`` or ``encode(n, ...)`` ("positions 0 to 99").
  A number that only occurs somewhere in the code (``encode(100, 128)``, ``x[:20]``) is not an
  input: the code does not say what it means;
- also *checked* by an equality that a claim marker ``<!-- check: ... -->`` or an ``assert`` in the
  section states with the literal (``round(x, 2) == 6.28``): it fails unless the value is that;
- *exempt* if the line carries ``<!-- not-checked: NUMBER reason -->``, a short reason authors
  see in the source; keep these few.
Tolerance: a decimal number written with n digits means the value rounded to them (half a unit
in the last digit, scaled by an ``e`` exponent). A power (``2^-24``, ``10^6``, ``2**16``) is an
exact value, matched to the output's own precision (half a unit of the digits the output
prints). A percentage ``12.5%`` matches an output 0.125 (half a unit is 0.0005) or 12.5.

Ignored by rule, each because it is not a claim about a computed value:
- integers 0 to 9 written without a decimal point or ``%``: counts in running text ("the 2
  columns of a pair", "6 properties") are read as words and checked through the code around
  them; a digit that is a result (``6 of 8 pairs``) is written with its output in the section.
  (``1%``, ``5%`` and ``2^-24`` are scanned: the unit or the power makes them quantities.)
- years: a four-digit integer 1990 to 2029 written without a thousands separator and preceded by
  "in", "since", "of", "(", a month, a table rule "|" or a venue (NeurIPS, ICML, ...), or
  followed by ")", ";" or "|" ("Vaswani et al. (2017)", "in 2021", "ICML 2017"): a date, not a quantity; "1,999" or "2000 positions" are scanned;
- numbers naming a part of a document or a release: right after "chapter", "section",
  "equation", "table", "figure", "step", "part", "issue", "row", "exercise", "#", or a version
  right after "NumPy", "PyTorch", "torch", "Python", "version", "v";
- arXiv identifiers, list markers, footnote labels, link targets, inline code and digits inside
  names (float32, GPT-2, T5, ``O(n^2)``): labels, not quantities.
Agreement, not presence (issue 20): two equal numbers on one line need as many outputs (see
``_twins``), and a restatement in the answer or the summary is compared with what it restates
(``harness.agreement.restatements``), not with any value printed anywhere on the page.

Anything else is *unchecked*, and the test fails naming page, line and number.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from harness.agreement import neighbours, restatements, significant_digits, summary_sections, twins
from harness.page import NOT_CHECKED, Page, next_to, read
from harness.values import (HALF_UNIT_SLACK, OUTPUT_NUMBER, REL_TOL, Block, Count, End, Output,
                            blocks_of, constant, equality_outputs, matches, named_values,
                            output_half_unit)

# What harness.numbers exported before the split into values.py and agreement.py (tests and
# scripts import these from here).
__all__ = ["Block", "Count", "End", "Found", "HALF_UNIT_SLACK", "OUTPUT_NUMBER", "Output",
           "PageReport", "REL_TOL", "adjacency", "blocks_of", "constant", "equality_outputs",
           "matches", "named_values", "output_half_unit", "scan", "significant_digits",
           "summary_sections"]

NUMBER = re.compile(
    r"(?:(?<![\w.)\]^*/\-])(?P<neg>[-−])(?=\d)|(?<![\w.\-^*/])|(?<=\d-))(?<![A-Za-z]-)"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)"
    r"(?:(?P<sci>[eE][-+−]?\d+)|\s*(?:\*\*|\^)\s*\{?\s*(?P<pow>[-−]?\d+)\}?)?"
    r"(?P<pct>\s?%)?"
    r"(?![\w.]\w|\w)"
)
IGNORE_AFTER = re.compile(
    r"\b(?:chapters?|sections?|equations?|eq\.|tables?|figures?|steps?|parts?|issues?|rows? of table|"
    r"columns? of table|exercises?|#|numpy|pytorch|torch|python|version|v)"
    r"\s*(?:\d+\s*(?:,|and|to|-|–)\s*)*$",
    re.IGNORECASE,
)
YEAR_BEFORE = re.compile(r"(?:\b(?i:in|since|of|from|by)|\(|al\.,?|January|February|March|April|May|"
                         r"June|July|August|September|October|November|December|\||"
                         r"NeurIPS|ICML|ICLR|ACL|NAACL|EMNLP|JMLR|CVPR)\s*$")
YEAR_AFTER = re.compile(r"^\s*[);|]")
EXEMPT = NOT_CHECKED
SUMMARY_TITLES = {"summary", "in short", "recap"}


@dataclass
class Found:
    page: str
    line: int
    text: str
    value: float
    verdict: str = ""
    section: int = 0
    by: int = 0              # line of the output block (checked) or code line (input)
    where: str = "prose"     # prose, or caption for figure_html alt/caption text
    half: float = 0.0        # half a unit of the digits written
    why: str = ""            # why an otherwise bound number is unchecked
    neighbours: list = field(default_factory=list)   # values one unit away the check also shows
    neighbour: float = 0.0
    bound: str = ""
    paragraph: tuple = (0, 0)


@dataclass
class PageReport:
    page: str
    numbers: list = field(default_factory=list)

    def count(self, verdict):
        return sum(1 for n in self.numbers if n.verdict == verdict)


def _exponent(text: str) -> int:
    return int(text.replace("−", "-"))


def _value(m: re.Match) -> float:
    base = float(m.group("num").replace(",", ""))
    if m.group("neg"):
        base = -base
    if m.group("sci"):
        base *= 10.0 ** _exponent(m.group("sci")[1:])
    if m.group("pow"):
        base = float(base) ** _exponent(m.group("pow"))
    if m.group("pct"):
        base /= 100.0
    return base


def _half_unit(m: re.Match) -> float:
    """Half a unit in the last digit written; 0 for a power, which is exact."""
    if m.group("pow"):
        return 0.0
    num = m.group("num").replace(",", "")
    decimals = len(num.partition(".")[2])
    exponent = _exponent(m.group("sci")[1:]) if m.group("sci") else 0
    unit = 0.5 * 10.0 ** (exponent - decimals)
    if m.group("pct"):
        unit /= 100.0
    return unit


def _strip(line: str) -> str:
    line = re.sub(r"<!--.*?-->", " ", line)
    line = re.sub(r"`[^`]*`", " ", line)
    line = line.replace("{,}", ",")                  # TeX thousands separator: 62{,}832
    line = re.sub(r"\\[A-Za-z]+", " ", line)           # TeX commands; their numbers stay
    line = re.sub(r"\]\([^)]*\)", "]", line)          # link targets
    line = re.sub(r"\[\^[^\]]*\]", " ", line)         # footnote labels
    line = re.sub(r"<[^>]+>", " ", line)              # HTML tags
    line = re.sub(r"https?://\S+", " ", line)
    line = re.sub(r"arXiv:\s*\d{4}\.\d{4,5}(?:v\d+)?", " ", line)   # citation identifiers
    line = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", " ", line)                 # dates: 2026-11-25
    line = re.sub(r"^\s*(?:[-*+]|\d+\.)\s+", " ", line)  # list markers
    line = re.sub(r"^\s*#+\s*", " ", line)
    return line


def _is_ignored(m: re.Match, line: str) -> bool:
    digits = m.group("num").replace(",", "")
    before, after = line[: m.start()], line[m.end():]
    plain = not (m.group("sci") or m.group("pow") or m.group("pct")) and "." not in digits
    if plain and int(digits) < 10:
        return True
    if (plain and "," not in m.group("num") and len(digits) == 4 and 1990 <= int(digits) <= 2029
            and (YEAR_BEFORE.search(before) or YEAR_AFTER.match(after))):
        return True
    return bool(IGNORE_AFTER.search(before))


def scan(path, page: Page | None = None) -> PageReport:
    """The verdict on every number in the prose of ``path`` (or of the parsed ``page``)."""
    if page is None:
        page = read(path)
    path = page.path
    report = PageReport(str(path))
    by_section: dict[int, list] = {}
    inputs: dict[int, list] = {}
    block_inputs: dict[int, list] = {}
    for block in blocks_of(page):
        by_section.setdefault(block.section, []).append(block)
        code = "\n".join(src for _, src in block.sources)
        block_inputs[block.first] = named_values(code)
        inputs.setdefault(block.section, []).extend(block_inputs[block.first])
        for line, src in block.sources:
            if src.lstrip().startswith("assert"):
                block.outputs += equality_outputs(line, src)
    for marker in page.markers:
        block = Block(marker.first, marker.first, marker.section, "marker", [])
        block.outputs = equality_outputs(marker.first, marker.expr)
        by_section.setdefault(marker.section, []).append(block)
    adjacent, paragraph_of = adjacency(page)
    items = [(lineno, section, raw, "prose") for lineno, section, raw in page.prose
             if page.kind[lineno] != "comment"]
    items += [(line, section, caption, "caption") for line, section, caption in page.captions()]
    for lineno, section, raw, where in items:
        exempt = set()
        for e in EXEMPT.finditer(raw):
            exempt.update(x.strip() for x in re.split(r",\s+", e.group("nums")))
        line = _strip(raw)
        for m in NUMBER.finditer(line):
            found = Found(str(path), lineno, m.group(0).strip(), _value(m), section=section,
                          where=where)
            digits = m.group("num").replace(",", "")
            if m.group(0).strip() in exempt or digits in exempt:
                found.verdict = "exempt"
            elif _is_ignored(m, line):
                found.verdict = "ignored"
            else:
                half = _half_unit(m)
                # the words before it, the previous line's end included ("at" / "most 0.002")
                before = line[:m.start()]
                if where == "prose" and lineno > 1 and page.kind[lineno - 1] == "prose":
                    before = _strip(page.lines[lineno - 2]).rstrip() + " " + before
                end = bool(END_PHRASE.search(before))
                near = adjacent.get(lineno)
                pool = [b for b in by_section.get(section, []) if near is None or b.first in near]
                pool.sort(key=lambda b: min(abs(b.first - lineno), abs(b.last - lineno)))
                pool_inputs = [v for b in pool for v in block_inputs.get(b.first, [])]
                if near is None:
                    pool_inputs = inputs.get(section, [])
                bound = _bound_word(before)
                found.verdict, found.by = _evidence(found.value, half, bool(m.group("pct")),
                                                    pool, pool_inputs, end, bound)
                if found.verdict == "unchecked" and bound and _evidence(
                        found.value, half, bool(m.group("pct")), pool, pool_inputs, end)[0] \
                        != "unchecked":
                    found.why = "bound"
                    found.bound = bound
                if found.verdict != "unchecked" and half:
                    unit = 2 * half
                    found.neighbours = [v for v in (found.value - unit, found.value + unit)
                                        if v * found.value > 0 and _evidence(
                                            v, half, bool(m.group("pct")), pool, pool_inputs,
                                            end, bound)[0] != "unchecked"]
                found.paragraph = paragraph_of.get(lineno, (lineno, lineno))
            found.half = _half_unit(m)
            report.numbers.append(found)
    restatements(page, report, inputs)
    twins(report, by_section, page, inputs)
    neighbours(report)
    return report


LOWER = re.compile(r"(?:\bat\s+least|\bno\s+less\s+than|≥|\\ge(?:q)?)\s*(?:\\\()?\s*$", re.I)
UPPER = re.compile(r"(?:\bat\s+most|\bno\s+more\s+than|≤|\\le(?:q)?)\s*(?:\\\()?\s*$", re.I)


def _bound_word(before: str) -> str | None:
    if LOWER.search(before):
        return "at least"
    if UPPER.search(before):
        return "at most"
    return None


END_PHRASE = re.compile(r"(?:\bto|\bthrough|\bup to|[-–]|\.\.|\\dots,?|\\ldots,?)\s*$")


def _evidence(value: float, half: float, pct: bool, pool: list, pool_inputs: list,
              end: bool, bound: str | None = None) -> tuple:
    """("checked", block line) if an output of the pool shows the value at the precision
    written; ("input", 0) if a name of the pool's code holds it; ("unchecked", 0) otherwise.
    The last position of ``range(n)`` binds only a number after "to"; its ``n`` only one that
    is not (the range stops before it). A bound ("at least 0.98", "at most 0.26") is
    rounded to its safe side: the value shown must not fall short of it."""
    candidates = [(value, half)]
    if pct:                                   # 12.5% may be printed as 12.5
        candidates.append((value * 100, half * 100))
    for block in pool:
        for out in block.outputs:
            for v, h in candidates:
                if bound is None:
                    if matches(v, h, out):
                        return "checked", block.first
                elif h:                       # within one unit, on the safe side
                    gap = out.value - v if bound == "at least" else v - out.value
                    if -REL_TOL * abs(v) <= gap < 2 * h * (1 - 1e-9):
                        return "checked", block.first
                elif matches(v, h, out):
                    return "checked", block.first
    for v in pool_inputs:
        if (type(v) is End and not end) or (type(v) is Count and end):
            continue
        if math.isclose(value, v, rel_tol=REL_TOL, abs_tol=0) or value == v:
            return "input", 0
    return "unchecked", 0


def adjacency(page: Page) -> tuple:
    """line -> the first lines of the blocks and markers next to the line's paragraph
    (harness.page.next_to: the one adjacency every rule uses). A folded check's title line is
    bound by its own block, and a figure caption's line belongs to its own exec block."""
    elems = page.elements
    out, para = {}, {}
    for el in elems:                     # a folded check's title is bound by its own block
        if el.kind == "block" and el.title:
            for n in range(el.first - 1, 0, -1):
                if page.lines[n - 1].strip() == el.title:
                    out[n], para[n] = {el.first}, (n, n)
                    break
    for k, el in enumerate(elems):
        if el.kind not in ("paragraph", "block"):
            continue
        near = {elems[j].first for j in next_to(elems, k)}
        for n in range(el.first, el.last + 1):
            out[n] = near
            para[n] = (el.first, el.last)
    return out, para
