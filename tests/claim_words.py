"""Find the sentences whose claim lives in a word, and the check that binds each word.

A sentence of prose (paragraphs, lists, tables, admonitions; not code, not headings) that
contains a *claim word* (more/less, faster/slower, above/below, always/never, only, every,
cannot, no single, exactly, guaranteed, unique, better/worse, higher/lower,
increases/decreases) says something a check must be able to refute. It is *satisfied* when a
check next to its paragraph names the word:

- a check is a claim marker ``<!-- check: EXPRESSION -->`` (conftest.py evaluates it), an
  ``assert`` statement, a ``>>>`` line that compares (``<``, ``>``, ``==``, ``!=``, ``all(``,
  ``any(``, ``isclose``, ``allclose``, ``array_equal``, `` in ``) or whose output is a
  traceback (the example of a "cannot");
- *next to its paragraph*: in the markers right after the paragraph, or in the fenced block
  right before or right after it, in the same section (no heading in between);
- *names the word*: the word appears in the check's own text, as a word of a comment
  (``# faster``) or a part of a name (``never_equal``, ``is_faster``). So flipping the word in
  the prose ("faster" -> "slower") leaves the sentence without a check naming it, and flipping
  the comparison in the check makes the check fail: the word and the check are bound both ways.

A sentence where the word carries no checkable claim ("we only need the first row", "more on
this in chapter 9") is *exempt* when it carries ``<!-- no-claim: REASON -->`` (inside it or
right after its full stop); the reason is required and the test prints the count. Anything
else is *flagged*, and the test fails naming page, line, word and sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tests.prose_numbers import FENCE, HEADING, PYTHON_INFO

WORDS = ("more", "less", "faster", "slower", "above", "below", "always", "never", "only",
         "every", "cannot", "no single", "exactly", "guaranteed", "unique", "better", "worse",
         "higher", "lower", "increases", "decreases")
# Inflections that carry the same claim; each is matched as the word it belongs to.
FORMS = {"increase": "increases", "increased": "increases", "increasing": "increases",
         "decrease": "decreases", "decreased": "decreases", "decreasing": "decreases",
         "uniquely": "unique", "can't": "cannot"}
WORD = re.compile(r"(?<![\w-])(" + "|".join(
    sorted([w.replace(" ", r"\s+") for w in WORDS] + list(FORMS), key=len, reverse=True))
    + r")(?![\w-])", re.IGNORECASE)
MARKER = re.compile(r"^\s*<!--\s*check:(?P<expr>.*?)-->\s*$")
NO_CLAIM = re.compile(r"<!--\s*no-claim:(?P<why>.*?)-->")
# The title line of a collapsed check (``??? note "Check: what it checks"``): it names the
# block below it, which stays the check next to the paragraph above.
CHECK_TITLE = re.compile(r'^\?{3}\+?\s+\w+\s+"Check:[^"]*"\s*$')
COMPARES = re.compile(r"[<>]=?|[=!]=|\ball\(|\bany\(|isclose|allclose|array_equal|\bin\b")


def canonical(word: str) -> str:
    word = " ".join(word.lower().split())
    return FORMS.get(word, word)


def names(text: str, word: str) -> bool:
    """Does the check's text name the word (as a word of a comment, or a part of a name)?"""
    tokens = re.split(r"[^a-z']+", text.lower())
    if word == "no single":
        return "no single" in " ".join(tokens) or "no_single" in text.lower()
    forms = {word} | {f for f, w in FORMS.items() if w == word}
    return any(t in forms for t in tokens)


@dataclass
class Check:
    line: int
    text: str


@dataclass
class Element:
    kind: str                # paragraph, block, marker, heading
    first: int
    last: int
    section: int
    lines: list = field(default_factory=list)       # (line, text) for paragraphs
    checks: list = field(default_factory=list)      # Check, for blocks and markers
    said: set = field(default_factory=set)           # claim words an exec block prints


@dataclass
class Sentence:
    page: str
    line: int
    text: str
    words: list              # canonical claim words
    verdict: str = ""        # satisfied, restated, exempt, flagged
    missing: list = field(default_factory=list)
    section: int = 0
    reason: str = ""


def _block_checks(body) -> list:
    """The checks in a fenced Python block: asserts, comparing or raising ``>>>`` lines."""
    checks, n = [], 0
    while n < len(body):
        lineno, line = body[n]
        if line.startswith(">>> "):
            text, k = line[4:], n + 1
            while k < len(body) and body[k][1].startswith("..."):
                text += "\n" + body[k][1][4:]
                k += 1
            output = [t for _, t in body[k:k + 1]]
            raises = bool(output) and output[0].startswith("Traceback")
            if COMPARES.search(_code(text)) or raises or text.lstrip().startswith("assert"):
                checks.append(Check(lineno, text))
            n = k
            continue
        code = line[4:] if line.startswith("... ") else line
        if code.lstrip().startswith("assert"):
            text, depth, k = code, _depth(code), n + 1
            while k < len(body) and (depth > 0 or text.rstrip().endswith("\\")):
                more = body[k][1]
                text += "\n" + more
                depth += _depth(more)
                k += 1
            checks.append(Check(lineno, text))
            n = k
            continue
        n += 1
    return checks


def _code(text: str) -> str:
    return re.sub(r"#.*", "", re.sub(r"(\"[^\"]*\"|'[^']*')", "''", text))


def _depth(text: str) -> int:
    code = _code(text)
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")


def elements(text: str) -> list:
    lines = text.splitlines()
    out, section, n, para = [], 0, 0, None
    in_comment = False

    def close():
        nonlocal para
        if para is not None:
            out.append(para)
            para = None

    while n < len(lines):
        raw = lines[n]
        m = FENCE.match(raw)
        if m and not in_comment:
            close()
            fence, first, body = m.group("fence"), n + 1, []
            n += 1
            while n < len(lines) and not lines[n].strip().startswith(fence):
                body.append((n + 1, lines[n].strip()))
                n += 1
            block = Element("block", first, n + 1, section)
            if PYTHON_INFO.match(m.group("info")):
                block.checks = _block_checks(body)
                if re.search(r"\bexec\s*=\s*\"?(?:on|1|true)", m.group("info")):
                    # an exec="on" block prints its own prose: what it prints, it says
                    block.said = set(claim_words(" ".join(t for _, t in body)))
            out.append(block)
            n += 1
            continue
        if in_comment:
            in_comment = "-->" not in raw
            n += 1
            continue
        marker = MARKER.match(raw)
        if marker:
            close()
            out.append(Element("marker", n + 1, n + 1, section,
                               checks=[Check(n + 1, marker.group("expr"))]))
        elif raw.lstrip().startswith("<!--") and "-->" not in raw:
            close()
            start, expr = n + 1, raw
            if re.match(r"\s*<!--\s*check:", raw):
                while n + 1 < len(lines) and "-->" not in lines[n]:
                    n += 1
                    expr += "\n" + lines[n]
                inner = re.sub(r"^\s*<!--\s*check:|-->\s*$", "", expr)
                out.append(Element("marker", start, n + 1, section, checks=[Check(start, inner)]))
            else:
                in_comment = True
        elif HEADING.match(raw):
            close()
            section += 1
            out.append(Element("heading", n + 1, n + 1, section))
        elif not raw.strip() or CHECK_TITLE.match(raw):
            close()
        else:
            if para is None:
                para = Element("paragraph", n + 1, n + 1, section)
            para.lines.append((n + 1, raw))
            para.last = n + 1
        n += 1
    close()
    return out


def _prose(text: str, math: bool = False) -> str:
    text = re.sub(r"<!--(?!\s*no-claim:).*?-->", " ", text)
    # A cross-reference to the API page, [`encode`][posenc.encoding.encode], reads as its code.
    text = re.sub(r"\[(`[^`]*`)\]\[[\w.]+\]", r"\1", text)
    text = re.sub(r"`[^`]*`", " ", text)
    if not math:
        text = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"<(?!!--)[^>]+>", " ", text)
    return text


# "above"/"below" claim a comparison only when a value follows ("above 2", "below the peak",
# "below \(2\pi\)"); otherwise they point at the page ("the table above", "printed below.").
_TARGET = re.compile(r"\s*(?:\d|\\\(|[-−]\s*\d|(?:zero|one|two|half|the|its|a|an|that|any|every|all|"
                     r"their|it|this|some|rounding|machine)\b)", re.IGNORECASE)


def claim_words(text: str) -> list:
    """The canonical claim words of a sentence (math kept for the above/below rule)."""
    words = set()
    for m in WORD.finditer(text):
        word = canonical(m.group(0))
        if word in ("above", "below") and not _TARGET.match(text[m.end():]):
            continue
        words.add(word)
    return sorted(words)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[*_\"'<\\]|$)")


def sentences(para: Element):
    """(line, text) of the sentences of a paragraph; a no-claim comment opening a sentence
    belongs to the sentence before it."""
    pieces, offsets = [], []
    for lineno, raw in para.lines:
        offsets.append((sum(len(p) + 1 for p in pieces), lineno))
        pieces.append(raw.strip())
    # comments other than no-claim go first: their text ("et al. (2022)") is no sentence
    joined = re.sub(r"<!--(?!\s*no-claim:).*?-->", lambda m: " " * len(m.group(0)),
                    " ".join(pieces))
    out, start = [], 0
    for m in list(SENTENCE_END.finditer(joined)) + [None]:
        end = m.start() if m else len(joined)
        text = joined[start:end]
        line = max(l for off, l in offsets if off <= max(start, 0))
        lead = NO_CLAIM.match(text.lstrip())
        if lead and out:
            out[-1] = (out[-1][0], out[-1][1] + " " + lead.group(0))
            text = text.lstrip()[lead.end():]
        if text.strip():
            out.append((line, text))
        start = m.end() if m else len(joined)
    return out


def comment_words(check: Check) -> set:
    """Claim words a check names in its comments (``# faster``): each must be said next to it."""
    comments = " ".join(line.partition("#")[2] for line in check.text.splitlines())
    return {canonical(m.group(0)) for m in WORD.finditer(comments)}


def lint(path: Path) -> list:
    elems = elements(path.read_text())
    found = []
    said: dict[int, set] = {}            # id of a check -> claim words of its paragraphs
    checks: dict[int, Check] = {}
    for k, el in enumerate(elems):
        if el.kind != "paragraph":
            continue
        near = []
        j = k + 1
        while j < len(elems) and elems[j].kind == "marker":
            near += elems[j].checks
            j += 1
        if j < len(elems) and elems[j].kind == "block" and elems[j].section == el.section:
            near += elems[j].checks
        if k > 0 and elems[k - 1].kind == "block" and elems[k - 1].section == el.section:
            near += elems[k - 1].checks
        paragraph_words = set()
        for line, text in sentences(el):
            why = NO_CLAIM.search(text)
            prose = _prose(NO_CLAIM.sub(" ", text))
            words = claim_words(_prose(NO_CLAIM.sub(" ", text), math=True))
            if not why:                  # an exempt sentence's words bind no check
                paragraph_words.update(words)
            if not words:
                continue
            s = Sentence(str(path), line, " ".join(prose.split()), words, section=el.section)
            if why:
                s.verdict, s.reason = "exempt", why.group("why").strip()
                if len(s.reason.split()) < 2:
                    s.verdict = "flagged"
                    s.missing = ["(a no-claim comment needs a reason)"]
            else:
                s.missing = [w for w in words if not any(names(c.text, w) for c in near)]
                s.verdict = "flagged" if s.missing else "satisfied"
            found.append(s)
        for c in near:
            checks[id(c)] = c
            said.setdefault(id(c), set()).update(paragraph_words)
    section_of = {}
    for el in elems:                     # checks next to no paragraph name nothing it says
        for c in el.checks:
            checks.setdefault(id(c), c)
            said.setdefault(id(c), set()).update(el.said)
            section_of[id(c)] = el.section
    _answer_restates(elems, found)
    for key, c in checks.items():
        for word in sorted(comment_words(c) - said.get(key, set())):
            found.append(Sentence(str(path), c.line, f"the check at line {c.line} names "
                                  f"{word!r}, which its paragraph does not say", [word],
                                  verdict="flagged", missing=[word],
                                  section=section_of.get(key, 0)))
    return found


def _answer_restates(elems, found) -> None:
    """The answer (the text under the page's title) restates what the sections check: its
    sentence is *restated* when each of its words is satisfied in a sentence elsewhere."""
    headings = [el for el in elems if el.kind == "heading"]
    if not headings:
        return
    answer = headings[0].section
    checked = {w for s in found if s.verdict == "satisfied" and s.section != answer
               for w in s.words}
    for s in found:
        if s.section == answer and s.verdict == "flagged" and set(s.missing) <= checked \
                and s.missing and not s.missing[0].startswith("("):
            s.verdict, s.missing = "restated", []
