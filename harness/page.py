"""One reading of a Markdown page: the model every page rule, the Sybil configuration and the
site's hooks share.

``read(path)`` (or ``parse(text, path)``) splits a page once into

- ``lines``: the raw lines; ``kind[n]`` says what line ``n`` (1-based) is: ``fence`` (a fenced
  block, delimiters included), ``comment`` (inside a multi-line HTML comment), ``heading``,
  ``blank`` or ``prose``;
- ``headings``: (line, level, title); the *section* of a line is the number of headings at or
  above it (0 is the text before the first heading);
- ``fences``: every fenced block (any language) with its info string, its body with the fence's
  indentation removed, and whether it is Python, a ``>>>`` doctest, an ``exec="on"`` block;
- ``markers``: ``<!-- check: EXPR -->`` comments on their own line(s), outside fences (the
  claim markers), with ``<!-- no-claim: ... -->`` and ``<!-- not-checked: ... -->`` found per
  line;
- ``elements``: the page as paragraphs, blocks, markers and headings in order, and
  ``next_to``: which of them are *next to* a paragraph, the one definition every rule uses
  (a paragraph's sentences and its text without code are in harness.text);
- ``captions``: the ``alt=``/``caption=`` strings of ``figure_html`` calls in exec blocks.

There is one fence reader and one marker reader here; ``tests/harness/test_harness.py`` keeps a
deliberately independent reader to check this one.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

OPEN_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# The info string of a Python fence: python, py, pycon, python3, with attributes, or the
# attribute-list form ``{ .python title="x" }``.
PYTHON_INFO = re.compile(r"^[ \t]*(?:\{[ \t]*\.)?(?P<language>python3?|py|pycon)(?![\w-])")
EXEC_ON = re.compile(r"\bexec\s*=\s*\"?(?:on|1|true)")
HTML_ON = re.compile(r"\bhtml\s*=\s*\"?(?:on|1|true)")
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.*?)\s*#*\s*$")
CHECK_MARKER = re.compile(r"^[ \t]*<!--[ \t]*check:(?P<expr>(?:(?!-->).)*?)-->[ \t]*$",
                          re.MULTILINE | re.DOTALL)
NO_CLAIM = re.compile(r"<!--\s*no-claim:(?P<why>.*?)-->")
# How a causal sentence is bound when no cause check names it (harness.causes):
# ``<!-- cause: source -->`` (the sentence links the paper, code or thread that states it) or
# ``<!-- cause: derived -->`` (algebra on the page, or on the page the sentence links, shows it).
CAUSE_MARKER = re.compile(r"<!--\s*cause:\s*(?P<kind>[\w-]*)(?P<why>.*?)-->")
NUM_TOKEN = r"[\d.eE+\-−%]+(?:,\d{3})*"
NOT_CHECKED = re.compile(r"<!--\s*not-checked:\s*(?P<nums>" + NUM_TOKEN + r"(?:,\s+" + NUM_TOKEN
                         + r")*)\s+(?P<why>.*?)-->")
# The title line of a collapsed check (``??? note "Check: what it checks"``) or of a folded
# figure (``??? example "Picture: what it shows"``): it names the block below it, which stays
# the check next to the paragraph above.
# A collapsible box (``??? note "..."``, ``???+ ...``): what it holds is folded away.
FOLD_OPEN = re.compile(r"^[ \t]*\?{3}\+?\s")
EXERCISE = re.compile(r"^\s*\*\*Exercise\b")
CHECK_TITLE = re.compile(r'^\s*\?{3}\+?\s+\w+\s+"(?:Check|Picture):[^"]*"\s*$')


@dataclass
class Fence:
    first: int               # line of the opening fence, 1-based
    last: int                # line of the closing fence (the last line if unclosed)
    indent: str
    info: str
    body: list               # (line, text) with the fence's indentation removed
    start: int               # character offsets: the opening fence's first character,
    body_start: int          # the body's first character,
    end: int                 # and the end of the closing fence
    section: int = 0

    @property
    def python(self) -> bool:
        return bool(PYTHON_INFO.match(self.info))

    @property
    def doctest(self) -> bool:
        return self.python and self.source.lstrip().startswith(">>>")

    @property
    def exec_on(self) -> bool:
        return bool(EXEC_ON.search(self.info))

    @property
    def html(self) -> bool:
        return bool(HTML_ON.search(self.info))

    @property
    def source(self) -> str:
        return "".join(text + "\n" for _, text in self.body)


@dataclass
class Marker:
    first: int
    last: int
    expr: str                # the expression, whitespace runs joined
    start: int
    end: int
    section: int = 0
    deferred: bool = False   # in the answer: evaluated after the page's last block


@dataclass
class Element:
    kind: str                # paragraph, block, marker, heading
    first: int
    last: int
    section: int
    lines: list = field(default_factory=list)       # (line, raw text) of a paragraph
    fence: Fence | None = None
    marker: Marker | None = None
    title: str = ""          # a block's collapsed-check title (``??? note "Check: ..."``)


@dataclass
class Page:
    path: str
    text: str
    lines: list
    kind: list                                       # kind[n] for line n (index 0 unused)
    section: list                                    # section[n] for line n
    headings: list = field(default_factory=list)     # (line, level, title)
    fences: list = field(default_factory=list)
    markers: list = field(default_factory=list)
    elements: list = field(default_factory=list)

    def title(self, section: int) -> str:
        return "(top)" if section == 0 else self.headings[section - 1][2]

    def where(self, line: int) -> str:
        """``page:line (section "title")`` for failure messages."""
        return f'{self.path}:{line} (section "{self.title(self.section[line])}")'

    @property
    def prose(self):
        """(line, section, raw) of every line outside fences."""
        return [(n, self.section[n], self.lines[n - 1]) for n in range(1, len(self.lines) + 1)
                if self.kind[n] != "fence"]

    @property
    def answer_sections(self) -> set:
        """The answer (the text under the page's title, before the next heading)."""
        if self.headings and self.headings[0][1] == 1:
            return {1}
        return set()

    @property
    def summary_sections(self) -> set:
        return {k for k, (_, _, title) in enumerate(self.headings, start=1)
                if title.lower().rstrip(".") in ("summary", "in short", "recap")}

    def captions(self):
        """(line, section, text) of the string pieces of ``alt=``/``caption=`` in figure_html
        calls of exec blocks."""
        found = []
        for fence in self.fences:
            if not (fence.python and fence.exec_on):
                continue
            try:
                tree = ast.parse(fence.source)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and getattr(
                        node.func, "id", getattr(node.func, "attr", "")) == "figure_html":
                    for kw in node.keywords:
                        if kw.arg in ("alt", "caption"):
                            for piece in ast.walk(kw.value):
                                if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                                    line = fence.body[piece.lineno - 1][0]
                                    found.append((line, fence.section, piece.value))
        return found

    def folded(self, line: int) -> bool:
        """Whether line ``line`` (1-based) sits inside a collapsible ``???`` box: each line
        with less indentation above it is a container; one of them opens the fold."""
        def indent(raw):
            return len(raw) - len(raw.lstrip(" \t"))

        width = indent(self.lines[line - 1])
        for n in range(line - 1, 0, -1):
            raw = self.lines[n - 1]
            if not raw.strip() or self.kind[n] == "fence":
                continue
            if indent(raw) < width:
                if FOLD_OPEN.match(raw):
                    return True
                width = indent(raw)
                if width == 0:
                    return False
        return False

    def visible_blocks(self) -> list:
        """The Python blocks a reader sees without opening anything: not in a fold, not an
        ``exec="on"`` block (its code, if shown at all, is behind a "Code for this figure" tab)."""
        return [f for f in self.fences if f.python and not f.exec_on and not self.folded(f.first)]

    def example_count(self) -> int:
        """How many examples the tests run on this page: one per code block, one per ``>>>``
        statement of a doctest block, one per claim marker (``tests/harness/test_harness.py`` checks
        this equals what Sybil collects)."""
        import doctest

        n = sum(1 for m in self.markers if not m.deferred)
        for fence in self.fences:
            if fence.python:
                if fence.doctest:
                    n += len(doctest.DocTestParser().get_examples(fence.source))
                else:
                    n += 1
        n += len(re.findall(r"<!--\s*(?:clear-namespace|skip:)", "\n".join(
            line for k, line in enumerate(self.lines, start=1) if self.kind[k] != "fence")))
        return n


def _strip_indent(line: str, indent: str) -> str:
    if line.startswith(indent):
        return line[len(indent):]
    return line.lstrip(" \t") if not line[:len(indent)].strip() else line


def parse(text: str, path: str = "<page>") -> Page:
    return _parse(text, str(path))


@functools.lru_cache(maxsize=64)
def _parse(text: str, path: str) -> Page:
    lines = text.splitlines()
    offsets, pos = [], 0
    for raw in text.splitlines(keepends=True):
        offsets.append(pos)
        pos += len(raw)
    offsets.append(pos)
    page = Page(path, text, lines, ["blank"] * (len(lines) + 1), [0] * (len(lines) + 1))
    section, n, in_comment = 0, 0, False
    while n < len(lines):
        raw = lines[n]
        m = OPEN_FENCE.match(raw) if not in_comment else None
        if m:
            fence_chars = m.group("fence")
            close = re.compile(r"^[ \t]*" + re.escape(fence_chars[0]) + "{" + str(len(fence_chars))
                               + r",}[ \t]*$")
            k = n + 1
            while k < len(lines) and not close.match(lines[k]):
                k += 1
            last = min(k, len(lines) - 1)
            body = [(j + 1, _strip_indent(lines[j], m.group("indent"))) for j in range(n + 1, k)]
            end = offsets[last] + len(lines[last]) if k < len(lines) else len(text)
            page.fences.append(Fence(n + 1, last + 1, m.group("indent"), m.group("info"), body,
                                     offsets[n], offsets[min(n + 1, len(lines))], end, section))
            for j in range(n, last + 1):
                page.kind[j + 1], page.section[j + 1] = "fence", section
            n = last + 1
            continue
        h = HEADING.match(raw) if not in_comment else None
        if in_comment:
            page.kind[n + 1] = "comment"
            in_comment = "-->" not in raw
        elif h:
            page.headings.append((n + 1, len(h.group("hashes")), h.group("title")))
            section = len(page.headings)
            page.kind[n + 1] = "heading"
        elif not raw.strip():
            page.kind[n + 1] = "blank"
        elif raw.lstrip().startswith("<!--") and "-->" not in raw:
            page.kind[n + 1] = "comment"
            in_comment = True
        else:
            page.kind[n + 1] = "prose"
        page.section[n + 1] = section
        n += 1
    spans = [(f.start, f.end) for f in page.fences]
    for m in CHECK_MARKER.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        first = text.count("\n", 0, m.start()) + 1
        if m.group(0).startswith("\n"):
            first += 1
        last = first + m.group(0).strip("\n").count("\n")
        page.markers.append(Marker(first, last, " ".join(m.group("expr").split()), m.start(),
                                   m.end(), page.section[first]))
    for marker in page.markers:
        marker.deferred = marker.section in page.answer_sections
    page.elements = _elements(page)
    return page


def read(path) -> Page:
    return parse(Path(path).read_text(), str(path))


def _elements(page: Page) -> list:
    out, para, title = [], None, ""
    markers = {m.first: m for m in page.markers}
    fences = {f.first: f for f in page.fences}
    n = 1
    while n <= len(page.lines):
        raw = page.lines[n - 1]
        kind = page.kind[n]
        if kind == "fence" or kind == "heading" or n in markers or kind in ("blank", "comment") \
                or CHECK_TITLE.match(raw):
            if para is not None:
                out.append(para)
                para = None
        if kind == "fence":
            f = fences[n]
            out.append(Element("block", f.first, f.last, f.section, fence=f, title=title))
            title = ""
            n = f.last + 1
            continue
        if n in markers:
            m = markers[n]
            out.append(Element("marker", m.first, m.last, m.section, marker=m))
            n = m.last + 1
            continue
        if CHECK_TITLE.match(raw):
            title = raw.strip()
        elif kind in ("heading", "prose"):
            title = ""
        if kind == "heading":
            out.append(Element("heading", n, n, page.section[n]))
        elif kind == "prose" and not CHECK_TITLE.match(raw):
            if para is None:
                para = Element("paragraph", n, n, page.section[n])
            para.lines.append((n, raw))
            para.last = n
        n += 1
    if para is not None:
        out.append(para)
    return out


def next_to(elements: list, k: int) -> list:
    """The indices of the elements *next to* element ``k``, the one adjacency every rule uses
    (numbers, claim words, causes, scope): the run of markers right before it and the block
    right before that run, the run of markers right after it and the block right after that
    run, all in its own section (no heading in between); a block is next to itself. An exercise
    (a paragraph opening with ``**Exercise``) is bound by its solution: every block and marker
    up to the next exercise or heading. ``elements`` is ``page.elements`` or a list of views of
    it with the same ``kind``, ``section`` and ``lines``."""
    el, out = elements[k], []
    if el.kind == "block":
        out.append(k)
    j = k - 1
    while j >= 0 and elements[j].kind == "marker" and elements[j].section == el.section:
        out.append(j)
        j -= 1
    if j >= 0 and elements[j].kind == "block" and elements[j].section == el.section:
        out.append(j)
    j = k + 1
    while j < len(elements) and elements[j].kind == "marker" and elements[j].section == el.section:
        out.append(j)
        j += 1
    if j < len(elements) and elements[j].kind == "block" and elements[j].section == el.section:
        out.append(j)
    if el.kind == "paragraph" and EXERCISE.match(el.lines[0][1]):
        for j in range(k + 1, len(elements)):
            later = elements[j]
            if later.kind == "heading" or (later.kind == "paragraph"
                                           and EXERCISE.match(later.lines[0][1])):
                break
            if later.kind in ("block", "marker") and j not in out:
                out.append(j)
    return out


def pages(root) -> list:
    """The Markdown pages the rules apply to: docs/**/*.md."""
    return sorted(Path(root, "docs").rglob("*.md"))
