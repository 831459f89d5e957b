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
(``_restatements``), not with any value printed anywhere on the page.

Anything else is *unchecked*, and the test fails naming page, line and number.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from harness.page import NOT_CHECKED, Page, parse, read

NUMBER = re.compile(
    r"(?:(?<![\w.)\]^*/\-])(?P<neg>[-−])(?=\d)|(?<![\w.\-^*/])|(?<=\d-))(?<![A-Za-z]-)"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)"
    r"(?:(?P<sci>[eE][-+−]?\d+)|\s*(?:\*\*|\^)\s*\{?\s*(?P<pow>[-−]?\d+)\}?)?"
    r"(?P<pct>\s?%)?"
    r"(?![\w.]\w|\w)"
)
OUTPUT_NUMBER = re.compile(r"(?<![\w])(?<!\d\.)[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.]\w)")
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
HALF_UNIT_SLACK = 1 + 1e-9
SUMMARY_TITLES = {"summary", "in short", "recap"}
REL_TOL = 1e-12


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
class Output:
    line: int
    text: str
    value: float
    half: float              # half a unit of the digits the output prints (0 for integers)


@dataclass
class Block:
    """A fence or a claim marker seen as a source of checked values: its outputs and its code."""
    first: int               # line of the opening fence, 1-based
    last: int
    section: int
    info: str
    body: list               # (line number, text) of the block's lines, stripped
    outputs: list = field(default_factory=list)     # Output
    sources: list = field(default_factory=list)     # (line, code)

    @property
    def exec_on(self) -> bool:
        return bool(re.search(r"\bexec\s*=\s*\"?(?:on|1|true)", self.info))


def blocks_of(page: Page) -> list:
    """Each fence of the page as a Block: a Python block split into sources and outputs."""
    blocks = []
    for fence in page.fences:
        body = [(n, text.strip()) for n, text in fence.body]
        block = Block(fence.first, fence.last, fence.section, fence.info, body)
        if fence.python:
            doctest = any(line.startswith(">>>") for _, line in body)
            for lineno, line in body:
                if line.startswith((">>>", "...")):
                    block.sources.append((lineno, line[4:]))
                elif doctest:
                    for o in OUTPUT_NUMBER.finditer(line):
                        try:
                            value = float(o.group())
                        except ValueError:
                            continue
                        block.outputs.append(Output(lineno, o.group(), value,
                                                    _output_half_unit(o.group())))
                else:
                    block.sources.append((lineno, line))
        blocks.append(block)
    return blocks


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


def _output_half_unit(text: str) -> float:
    """Half a unit of an output's last printed digit; an integer output is exact."""
    mantissa, _, exponent = text.lower().lstrip("+-").partition("e")
    if "." not in mantissa and not exponent:
        return 0.0
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


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


def _constant(node):
    """The number a constant expression (``512``, ``-0.5``, ``2**16``, ``1e-8``) stands for."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.Mult, ast.Div)):
            left, right = _constant(node.left), _constant(node.right)
            if left is None or right is None:
                return None
            try:
                return {ast.Pow: lambda a, b: a ** b, ast.Mult: lambda a, b: a * b,
                        ast.Div: lambda a, b: a / b}[type(node.op)](left, right)
            except (ArithmeticError, ValueError):
                return None
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


class End(float):
    """The last value of ``range(n)``: n - 1, bound only where the prose says "to n - 1"."""


class Count(float):
    """The n of ``range(n)``: a count ("n positions"), not bound after "to" (the range stops
    before it)."""


def _bound_values(node) -> list:
    """Numbers bound to a name by a literal: the value itself, or a tuple/list of them."""
    value = _constant(node)
    if value is not None:
        return [value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [v for elt in node.elts for v in _bound_values(elt)]
    return []


def _named_tree(tree) -> list:
    values = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            values += _bound_values(node.value)
        elif isinstance(node, ast.keyword) and node.arg:
            values += _bound_values(node.value)
        elif isinstance(node, ast.arguments):
            values += [v for d in node.defaults + [d for d in node.kw_defaults if d]
                       for v in _bound_values(d)]
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            values += _bound_values(node.iter)
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            stop_arg = None
            if name in ("range", "arange", "encode") and node.args:
                stop_arg = node.args[-1] if name != "encode" else node.args[0]
                if name != "encode" and len(node.args) > 2:
                    stop_arg = None
            for arg in node.args:
                found = _bound_values(arg)
                if arg is stop_arg and isinstance(_constant(arg), int):
                    values += [Count(v) for v in found]
                    values.append(End(_constant(arg) - 1))   # positions 0 to n - 1: arange(n)
                else:
                    values += found
    return values


_ASSIGN = re.compile(r"\b[A-Za-z_]\w*\s*(?:[-+*/]?=)(?!=)\s*([-+]?[\d_.]+(?:[eE][-+]?\d+)?)")


def named_values(code: str) -> list:
    """Numbers the code binds to names (see the module docstring); a regex when it won't parse."""
    try:
        return _named_tree(ast.parse(code))
    except SyntaxError:
        values = []
        for line in code.splitlines():
            try:
                values += _named_tree(ast.parse(line.strip()))
            except SyntaxError:
                for m in _ASSIGN.finditer(line):
                    try:
                        values.append(float(m.group(1).replace("_", "")))
                    except ValueError:
                        pass
        return values


_LITERAL = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
_EQUALS = (re.compile(r"==\s*\(?\s*(" + _LITERAL + r")(?![\w.(])"),
           re.compile(r"(?<![\w.])(" + _LITERAL + r")\s*=="))
_EQUALS_LIST = re.compile(r"==\s*[\[(]((?:\s*" + _LITERAL + r"\s*,)+\s*(?:" + _LITERAL + r")?\s*)[\])]")
def equality_outputs(line: int, code: str) -> list:
    """Literals an assertion or a claim marker compares with ``==`` (``round(x, 2) == 6.28``):
    a check of that value as good as a printed output."""
    out = []
    texts = [m.group(1) for pattern in _EQUALS for m in pattern.finditer(code)]
    for m in _EQUALS_LIST.finditer(code):                 # == [5.6569, 8.0, 16.0]
        texts += re.findall(_LITERAL, m.group(1))
    for text in texts:
        out.append(Output(line, text, float(text), _output_half_unit(text)))
    out += _bound_powers(line, code)
    return out


def _bound_powers(line: int, code: str) -> list:
    """A power compared in a check (``err <= 2 ** -9``, ``n == 10 ** 6``): the exact value it
    states, bound as a check of that value (a prose ``2^-9`` next to it agrees with it)."""
    source = re.sub(r"^\s*assert\b", "", code.strip())
    try:
        tree = ast.parse(source.split("  #")[0].strip() or "0", mode="eval")
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                if isinstance(operand, ast.BinOp) and isinstance(operand.op, ast.Pow):
                    value = _constant(operand)
                    if isinstance(value, (int, float)):
                        out.append(Output(line, ast.unparse(operand), float(value), 0.0))
    return out


def _matches(found: Found, half: float, out: Output) -> bool:
    # A rounded number is matched to its own digits; an exact one (a power, half == 0) to the
    # digits the output prints.
    tol = (half if half else out.half) * HALF_UNIT_SLACK
    if not half and found.value != 0 and out.half * HALF_UNIT_SLACK >= abs(found.value):
        return False        # an output too coarse to tell it from 0 (0.0 beside 2^-24)
    if math.isclose(found.value, out.value, rel_tol=0, abs_tol=tol):
        return True
    return found.value != 0 and math.isclose(found.value, out.value, rel_tol=REL_TOL)


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
    _restatements(page, report, inputs)
    _twins(report, by_section, page, inputs)
    _neighbours(report)
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
                    if _matches(Found("", 0, "", v), h, out):
                        return "checked", block.first
                elif h:                       # within one unit, on the safe side
                    gap = out.value - v if bound == "at least" else v - out.value
                    if -REL_TOL * abs(v) <= gap < 2 * h * (1 - 1e-9):
                        return "checked", block.first
                elif _matches(Found("", 0, "", v), h, out):
                    return "checked", block.first
    for v in pool_inputs:
        if (type(v) is End and not end) or (type(v) is Count and end):
            continue
        if math.isclose(value, v, rel_tol=REL_TOL, abs_tol=0) or value == v:
            return "input", 0
    return "unchecked", 0


def _neighbours(report: PageReport) -> None:
    """Agreement, not presence: a number is bound only if its check tells it from the values
    one unit away in its last written digit. "positions 0 to 1023" next to a block that
    prints both 1023 and 1024 would pass as "0 to 1024" too: the number is *ambiguous* unless
    that neighbouring value is itself written in the same paragraph (then the twin rule and
    this one keep the two apart)."""
    by_paragraph: dict = {}
    for n in report.numbers:
        if n.verdict in ("checked", "input", "restated"):
            by_paragraph.setdefault(n.paragraph, []).append(n)
    for group in by_paragraph.values():
        for n in group:
            for v in n.neighbours:
                if not any(o is not n and math.isclose(o.value, v, rel_tol=REL_TOL, abs_tol=1e-300)
                           for o in group):
                    n.verdict, n.why = "unchecked", "neighbour"
                    n.neighbour = v
                    break




EXERCISE = re.compile(r"^\s*\*\*Exercise\b")


def adjacency(page: Page) -> tuple:
    """line -> the first lines of the blocks and markers next to the line's paragraph: the
    block (or run of markers) right before it and the markers and the block right after it, in
    the same section. A figure caption's line belongs to its own exec block, which counts."""
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
        near = set()
        if el.kind == "block":
            near.add(el.first)
        j = k - 1
        while j >= 0 and elems[j].kind == "marker" and elems[j].section == el.section:
            near.add(elems[j].first)
            j -= 1
        if j >= 0 and elems[j].kind == "block" and elems[j].section == el.section:
            near.add(elems[j].first)
        j = k + 1
        while j < len(elems) and elems[j].kind == "marker" and elems[j].section == el.section:
            near.add(elems[j].first)
            j += 1
        if j < len(elems) and elems[j].kind == "block" and elems[j].section == el.section:
            near.add(elems[j].first)
        if el.kind == "paragraph" and EXERCISE.match(el.lines[0][1]):
            # an exercise is bound by its solution: every block up to the next exercise
            for later in elems[k + 1:]:
                if later.kind == "heading" or (later.kind == "paragraph"
                                               and EXERCISE.match(later.lines[0][1])):
                    break
                if later.kind in ("block", "marker"):
                    near.add(later.first)
        for n in range(el.first, el.last + 1):
            out[n] = near
            para[n] = (el.first, el.last)
    return out, para


def summary_sections(page: Page) -> set:
    """The answer (the text under the page's title) and the sections titled Summary."""
    return page.answer_sections | page.summary_sections


def _restatements(page: Page, report: PageReport, inputs: dict) -> None:
    """A number in the answer or the summary that repeats, at the same precision, a number
    bound in the prose of another section of the page is *restated*; so is one of four or more
    significant digits written exactly as an output of another section prints it. A restated
    number is compared with what it restates: "513" in the answer does not restate 512, and
    matching any value printed anywhere on the page is not enough."""
    summaries = summary_sections(page)
    bound = [(n.value, n.half, n.section) for n in report.numbers
             if n.verdict == "checked" or (n.verdict == "input" and n.section not in summaries)]
    outputs = [(out, block.section) for block in blocks_of(page) for out in block.outputs]
    def restates(value, n):
        return any(math.isclose(value, v, rel_tol=REL_TOL, abs_tol=0) and half == n.half
                   and section != n.section for v, half, section in bound)

    for n in report.numbers:
        if n.verdict == "unchecked" and n.section in summaries and restates(n.value, n):
            n.verdict = "restated"
            # "0 to 99" restates 99; if 98 is also said elsewhere, "0 to 98" would pass too
            n.neighbours = [v for v in (n.value - 2 * n.half, n.value + 2 * n.half)
                            if n.half and v * n.value > 0 and restates(v, n)]
        elif (n.verdict == "unchecked" and n.section in summaries
              and significant_digits(n.text) >= 4
              and any(section != n.section
                      and out.text.lstrip("+-") == n.text.replace(",", "").lstrip("-−")
                      for out, section in outputs)):
            n.verdict = "restated"       # 0.9894 printed as 0.9894: four digits, no coincidence




def _twins(report: PageReport, by_section: dict, page: Page, inputs: dict) -> None:
    """Agreement, not presence: two equal numbers written on one line (outside math) that are
    checked by outputs need as many outputs showing the value. "neighbours 78 and 79" with one
    79 printed cannot become "79 and 79". A value the section's code binds to a name may be said
    twice."""
    groups: dict = {}
    for n in report.numbers:
        if n.verdict != "checked":
            continue
        groups.setdefault((n.line, n.where, n.text), []).append(n)
    for (line, _, text), found in groups.items():
        if len(found) < 2 or found[0].where != "prose":
            continue
        raw = re.sub(r"\\\(.*?\\\)", " ", page.lines[found[0].line - 1])   # math: 64 x 64
        if len(re.findall(r"(?<![\w.,])" + re.escape(text) + r"(?![\w]|[.,]\d)", raw)) < 2:
            continue
        probe = found[0]
        value, half = probe.value, probe.half
        if any(math.isclose(value, v, rel_tol=REL_TOL) for v in inputs.get(probe.section, [])):
            continue                     # a value the code names: saying it twice is no guess
        outs = [o for b in by_section.get(probe.section, []) for o in b.outputs
                if _matches(probe, half, o)]
        if len(outs) < len(found):
            for n in found:
                n.verdict = "unchecked"
                n.why = "twin"


def significant_digits(text: str) -> int:
    mantissa = re.split(r"[eE^%]|\*\*", text.replace(",", ""))[0]
    return len(mantissa.replace(".", "").lstrip("0-+"))
