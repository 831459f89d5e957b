"""Find the numbers typed in a page's prose and check that the page's own code produces them.

A number in prose (paragraphs, lists, tables, admonitions and math; not code, not links) is:
- *checked* if a ``>>>`` output on the same page shows the same value at the written precision
  (``0.506`` in prose matches an output 0.506 or 0.5062, not 0.507);
- an *input* if it appears in the code of the page (``d_model = 8`` typed in a block and then
  named in the prose is a definition the code uses, not a claim);
- *exempt* if the line carries ``<!-- not-checked: NUMBER reason -->``, a short reason authors
  see in the source; keep these few;
- ignored by rule: single digits, years (1950-2035), numbers right after "chapter", "section",
  "equation", "table", "figure", "step", "part" or "issue", version numbers right after
  "NumPy", "PyTorch", "Python" or "version", arXiv identifiers, list markers, footnote labels, and
  digits inside names (float32, GPT-2, T5, O(n^2) in code).
Anything else is *unchecked*, and the test fails naming page, line and number.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
PYTHON_INFO = re.compile(r"^\s*\{?\s*\.?(python3?|py|pycon)\b")
NUMBER = re.compile(
    r"(?<![\w.\-^*/])(?<![A-Za-z]-)"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)"
    r"(?:(?P<sci>[eE][-+−]?\d+)|\s*(?:\*\*|\^)\s*(?P<pow>[-−]?\d+))?"
    r"(?P<pct>%)?"
    r"(?![\w.]\w|\w)"
)
IGNORE_AFTER = re.compile(
    r"\b(?:chapters?|sections?|equations?|eq\.|tables?|figures?|steps?|parts?|issues?|rows?|"
    r"columns? of table|exercises?|#|numpy|pytorch|torch|python|version|v)"
    r"\s*(?:\d+\s*(?:,|and|to|-|–)\s*)*$",
    re.IGNORECASE,
)
NUM_TOKEN = r"[\d.eE+\-−]+(?:,\d{3})*"
EXEMPT = re.compile(r"<!--\s*not-checked:\s*(?P<nums>" + NUM_TOKEN + r"(?:,\s+" + NUM_TOKEN + r")*)"
                    r"\s+(?P<why>.*?)-->")
HALF_UNIT_SLACK = 1 + 1e-9


@dataclass
class Found:
    page: str
    line: int
    text: str
    value: float
    verdict: str = ""


@dataclass
class PageReport:
    page: str
    numbers: list = field(default_factory=list)

    def count(self, verdict):
        return sum(1 for n in self.numbers if n.verdict == verdict)


def _value(m: re.Match) -> float:
    base = float(m.group("num").replace(",", ""))
    if m.group("sci"):
        base *= 10.0 ** int(m.group("sci")[1:].replace("−", "-"))
    if m.group("pow"):
        base = base ** int(m.group("pow").replace("−", "-"))
    if m.group("pct"):
        base /= 100.0
    return base


def _half_unit(m: re.Match) -> float:
    num = m.group("num").replace(",", "")
    decimals = len(num.partition(".")[2])
    exponent = int(m.group("sci")[1:].replace("−", "-")) if m.group("sci") else 0
    unit = 0.5 * 10.0 ** (exponent - decimals)
    if m.group("pct"):
        unit /= 100.0
    return unit


def split_page(text: str):
    """Return (prose lines with their numbers, output numbers, code-source numbers)."""
    prose, outputs, sources = [], [], []
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        m = FENCE.match(lines[n])
        if m:
            fence, is_python = m.group("fence"), bool(PYTHON_INFO.match(m.group("info")))
            body = []
            n += 1
            while n < len(lines) and not lines[n].strip().startswith(fence):
                body.append(lines[n].strip())
                n += 1
            if is_python:
                for line in body:
                    if line.startswith((">>>", "...")):
                        sources.append(line[4:])
                    elif any(b.startswith(">>>") for b in body):
                        outputs.append(line)
                    else:
                        sources.append(line)
            n += 1
            continue
        prose.append((n + 1, lines[n]))
        n += 1
    return prose, outputs, sources


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
    line = re.sub(r"^\s*(?:[-*+]|\d+\.)\s+", " ", line)  # list markers
    line = re.sub(r"^\s*#+\s*", " ", line)
    return line


def _numbers_in(lines):
    values = []
    for line in lines:
        for m in NUMBER.finditer(line):
            try:
                values.append(_value(m))
            except (OverflowError, ValueError):
                pass
    return values


def scan(path: Path) -> PageReport:
    text = path.read_text()
    prose, outputs, sources = split_page(text)
    out_values = _numbers_in(outputs)
    src_values = _numbers_in(sources)
    report = PageReport(str(path))
    in_comment = False
    for lineno, raw in prose:
        if "<!--" in raw and "-->" not in raw:
            in_comment = True
        if in_comment:
            in_comment = "-->" not in raw
            continue
        exempt = set()
        for e in EXEMPT.finditer(raw):
            exempt.update(x.strip() for x in re.split(r",\s+", e.group("nums")))
        line = _strip(raw)
        for m in NUMBER.finditer(line):
            found = Found(str(path), lineno, m.group(0).strip(), _value(m))
            before = line[: m.start()]
            digits = m.group("num").replace(",", "")
            if m.group(0).strip() in exempt or digits in exempt:
                found.verdict = "exempt"
            elif (not m.group("sci") and not m.group("pow") and "." not in digits
                  and (int(digits) < 10 or 1950 <= int(digits) <= 2035)):
                found.verdict = "ignored"
            elif IGNORE_AFTER.search(before):
                found.verdict = "ignored"
            else:
                half = _half_unit(m) * HALF_UNIT_SLACK
                if any(math.isclose(found.value, v, rel_tol=0, abs_tol=half) or
                       (found.value != 0 and math.isclose(found.value, v, rel_tol=1e-12))
                       for v in out_values):
                    found.verdict = "checked"
                elif any(found.value == v for v in src_values):
                    found.verdict = "input"
                else:
                    found.verdict = "unchecked"
            report.numbers.append(found)
    return report
