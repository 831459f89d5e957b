"""Every "because" is an experiment: find the sentences that name a cause, and what binds each.

A sentence of prose (paragraphs, lists, tables, admonitions; not code, not headings) that
contains a *cause word* (because, since, which/that/this/here is why, the (same, main,
structural, ...) reason, due to,
owing to, thanks to, comes/came from, caused by, the cause, explains/explained, so that,
as a result, hence, therefore, thus) says *why* something happens. The check that shows *that*
it happens does not show why. The sentence must be bound in one of three ways:

- **bound** to a *cause check*: a check next to its paragraph (``harness.page.next_to``, the
  adjacency of every rule: the markers and the block right before or after it, same section)
  whose comment reads ``# cause: LABEL``. LABEL names the cause in the sentence's own words
  (every word of four letters or more in LABEL appears in the sentence, compared on its first
  five letters), and the check compares (``<`` or ``>``): it varies or removes the named cause
  and shows that most of the effect goes, and that the other candidates move it less, e.g.
  ``assert drop_range > 0.5 * total and drop_range > drop_spacing  # cause: unused range``.
  One cause check per causal sentence; a cause check whose label no causal sentence next to
  it says fails, so rewording the cause in the prose fails.
- **sourced**: ``<!-- cause: source -->`` after the sentence, and the sentence links the paper,
  code or thread that states the cause (an ``http`` link, or a link into references.md,
  sources-ledger.md or bugs-that-shipped.md).
- **derived**: ``<!-- cause: derived -->`` after the sentence, and the derivation is on the
  page: the sentence carries the math (``\\(...\\)``), its paragraph or the paragraph next to it
  holds displayed algebra (``\\[...\\]``), or the sentence links the chapter or section that
  derives it.

A question claims nothing. ``<!-- no-claim: REASON -->`` is accepted on a causal sentence only
when REASON says it is a question or a quotation (the words "question" or "quot..."). Anything
else is *flagged*: the page's rules item fails, naming page, line, the cause word and the
sentence. ``pytest`` prints the totals (bound, sourced, derived) at the end of every run.

What this cannot catch: whether the check really ablates the cause its label names (a reviewer
reads the label against the code), or a causal claim made without any of these words ("X makes
Y", "X, so Y").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.page import CAUSE_MARKER, NO_CLAIM, Page, read
from harness.text import code_only, prose_text, sentences
from harness.words import checks_next_to, elements

CAUSE = re.compile(
    r"(?<![\w-])(because|since(?!\s+(?:\d|then\b|the\s+(?:paper|release|start)\b))"
    r"|(?:which|that|this|here)\s+is\s+why|(?:the|one|an?|another)\s+(?:[a-z]+\s+)?reasons?"
    r"|reasons?\s+(?:is|are|was)"
    r"|due\s+to|owing\s+to|thanks\s+to|(?:comes?|came)\s+from|caused\s+by|the\s+(?:same\s+)?cause"
    r"|explains|explained|so\s+that|as\s+a\s+result|hence|therefore|thus)(?![\w-])",
    re.IGNORECASE)
LABEL = re.compile(r"#\s*cause:\s*(?P<label>[^#\n;]*)")
SOURCE_LINK = re.compile(r"\]\((?:https?://|[^)]*(?:references|sources-ledger|bugs-that-shipped)"
                         r"\.md)")
PAGE_LINK = re.compile(r"\]\((?!https?://)[^)]*(?:\.md|#)[^)]*\)")
COMPARES = re.compile(r"[<>]")
EXEMPT_WHY = re.compile(r"question|quot", re.IGNORECASE)


@dataclass
class Causal:
    page: str
    line: int
    text: str
    words: list
    verdict: str = ""        # bound, sourced, derived, exempt, transition, flagged
    missing: str = ""
    section: int = 0


def cause_words(prose: str) -> list:
    return sorted({" ".join(m.group(0).lower().split()) for m in CAUSE.finditer(prose)})


def label_words(label: str) -> list:
    return [w for w in re.findall(r"[a-z0-9]+", label.lower()) if len(w) >= 4]


def says(sentence: str, label: str) -> bool:
    """Does the sentence say every word of four letters or more of the cause check's label?"""
    stems = {w[:5] for w in re.findall(r"[a-z0-9]+", sentence.lower())}
    words = label_words(label)
    return bool(words) and all(w[:5] in stems for w in words)


def labels(check) -> list:
    """The cause labels a check states (``# cause: LABEL``); only a comparing check counts."""
    found = []
    for line in check.text.splitlines():
        m = LABEL.search(line)
        if m and m.group("label").strip():
            found.append(m.group("label").strip())
    return found


def _compares(check) -> bool:
    return bool(COMPARES.search(code_only(check.text).replace("->", "")))


def _display_math(el) -> bool:
    return el is not None and el.kind == "paragraph" and any(
        "\\[" in raw or "$$" in raw for _, raw in el.lines)


def lint(path, page: Page | None = None, transition: dict | None = None) -> list:
    """The verdict on every causal sentence of ``path`` (or of the parsed ``page``)."""
    if page is None:
        page = read(path)
    path = page.path
    allowed = (TRANSITION if transition is None else transition).get(_key(path), ())
    elems = elements(page)
    found: list = []
    used: set = set()                    # (id of a check, label) already binding a sentence
    for k, el in enumerate(elems):
        if el.kind != "paragraph":
            continue
        near = checks_next_to(elems, k)
        own_labels = [(c, lab) for c in near for lab in labels(c)]
        mine = []
        for line, text in sentences(el):
            marker = CAUSE_MARKER.search(text)
            why = NO_CLAIM.search(text)
            bare = NO_CLAIM.sub(" ", CAUSE_MARKER.sub(" ", text))
            prose = " ".join(prose_text(bare).split())
            words = cause_words(prose)
            if not words:
                if marker:
                    found.append(Causal(str(path), line, prose, [], "flagged",
                                        "a cause marker on a sentence with no cause word",
                                        el.section))
                continue
            if prose.rstrip("*_)\"' ").endswith("?"):
                continue                 # a question claims nothing
            s = Causal(str(path), line, prose, words, section=el.section)
            mine.append(s)
            found.append(s)
            if why:
                reason = why.group("why").strip()
                if EXEMPT_WHY.search(reason):
                    s.verdict = "exempt"
                else:
                    s.verdict, s.missing = "flagged", (
                        "a no-claim marker on a causal sentence is only for a question or a "
                        "quotation (say which)")
                continue
            if marker:
                kind = marker.group("kind").lower()
                if kind == "source":
                    ok = bool(SOURCE_LINK.search(bare))
                    s.verdict = "sourced" if ok else "flagged"
                    s.missing = "" if ok else ("<!-- cause: source --> but the sentence links "
                                               "no paper, code or thread")
                elif kind == "derived":
                    ok = ("\\(" in bare or PAGE_LINK.search(bare) or _display_math(el)
                          or _display_math(elems[k - 1] if k else None)
                          or _display_math(elems[k + 1] if k + 1 < len(elems) else None))
                    s.verdict = "derived" if ok else "flagged"
                    s.missing = "" if ok else ("<!-- cause: derived --> but no math in the "
                                               "sentence or next to it, and no link to a "
                                               "chapter that derives it")
                else:
                    s.verdict, s.missing = "flagged", (f"unknown cause marker kind {kind!r}: "
                                                       "use source or derived")
        # cause checks: each binds one causal sentence of the paragraph that says its label
        for c, lab in own_labels:
            if (id(c), lab) in used:
                continue
            for s in mine:
                if not s.verdict and says(s.text, lab):
                    if _compares(c):
                        s.verdict = "bound"
                    else:
                        s.verdict, s.missing = "flagged", (
                            f"the cause check at line {c.line} ('{lab}') compares nothing: "
                            "show the effect going with the cause, and the other candidates "
                            "moving it less (< or >)")
                    used.add((id(c), lab))
                    break
        for s in mine:
            if not s.verdict:
                if any(s.text.startswith(prefix) for prefix in allowed):
                    s.verdict = "transition"
                else:
                    s.verdict, s.missing = "flagged", (
                        "no cause check next to the paragraph names this cause "
                        "(# cause: LABEL), and no <!-- cause: source|derived --> marker")
    # a cause check next to no sentence that says its label: the prose's cause changed
    for k, el in enumerate(elems):
        for c in el.checks:
            for lab in labels(c):
                if (id(c), lab) not in used:
                    used.add((id(c), lab))
                    found.append(Causal(str(path), c.line,
                                        f"the cause check at line {c.line} names '{lab}'", [],
                                        "flagged", "no causal sentence next to it says this "
                                        "cause", el.section))
    return found


def _key(path) -> str:
    path = str(path).replace("\\", "/")
    i = path.rfind("docs/")
    return path[i:] if i >= 0 else path


# Causal sentences not yet bound, by page (docs/...) and the sentence's first words, counted as
# "transition" in the totals. It held the 96 sentences the pages had when the rule landed (issue
# 29) and is empty since every one was bound; it may only shrink.
TRANSITION: dict = {}
