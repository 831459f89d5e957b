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
- *next to its paragraph*: as ``harness.page.next_to`` defines it for every rule (the markers
  and the block right before or right after the paragraph, in the same section);
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

from harness.page import NO_CLAIM, Page, next_to, read
from harness.text import code_only, prose_text, sentences
from harness.vocabulary import (BOUND_NOT_YET, BOUND_WORDS, CLASSES, DIRECTION,  # noqa: F401
                                DIRECTION_WORDS, EXTRA_WORDS, FORMS, ORDER_WORDS, SAME_WORDS,
                                SCOPE_WORD, WORD, WORDS, bound_only, canonical, claim_words,
                                class_of, comment_words, directions, names, stated_directions)

COMPARES = re.compile(r"[<>]=?|[=!]=|\ball\(|\bany\(|isclose|allclose|array_equal|\bin\b")


@dataclass
class Check:
    line: int
    text: str


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
            if COMPARES.search(code_only(text)) or raises or text.lstrip().startswith("assert"):
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


def _depth(text: str) -> int:
    code = code_only(text)
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")


class _View:
    """An element of the page model with the checks it holds and the words it prints."""

    def __init__(self, el):
        self.kind, self.first, self.last, self.section = el.kind, el.first, el.last, el.section
        self.lines, self.checks, self.said = el.lines, [], set()
        self.element = el
        if el.fence is not None and el.fence.python:
            body = [(n, text.strip()) for n, text in el.fence.body]
            self.checks = _block_checks(body)
            if el.fence.exec_on:
                # an exec="on" block prints its own prose: what it prints, it says
                self.said = set(claim_words(" ".join(t for _, t in body)))
            # a folded check's title ("Check: always rising up to 16") says nothing for the
            # paragraph: flipping the paragraph's word must fail even when the title keeps it
        elif el.marker is not None:
            self.checks = [Check(el.marker.first, el.marker.expr)]


def elements(page: Page) -> list:
    return [_View(el) for el in page.elements]


def checks_next_to(elems, k) -> list:
    """The checks of the elements next to paragraph ``k`` (harness.page.next_to)."""
    return [c for j in next_to(elems, k) for c in elems[j].checks]


def _key(check: Check, word: str):
    """What a check's statement of ``word`` is: its comment (each comment its own statement),
    or the names that say it (``every_one_tested = ...`` and the line that prints
    ``every_one_tested`` are one statement, not two)."""
    comments = " ".join(line.partition("#")[2] for line in check.text.splitlines())
    if canonical(word) in {canonical(m.group(0)) for m in WORD.finditer(comments)}:
        return ("comment", id(check))
    code = code_only(" ".join(line.partition("#")[0] for line in check.text.splitlines()))
    return ("names", frozenset(
        n for n in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?!\w|\s*\()", code)
        if canonical(word) in {canonical(p) for p in n.lower().split("_")}))


def _distinct(checks: list, word: str) -> list:
    """The checks that state ``word``, each statement counted once (see ``_key``)."""
    out, seen = [], set()
    for c in checks:
        if _key(c, word) not in seen:
            seen.add(_key(c, word))
            out.append(c)
    return out


def _one_check_per_sentence(found: list, mine: list, near: list, k: int, el, path,
                            owner) -> None:
    """Per sentence, not per paragraph: as many checks naming a word as sentences saying it, so
    flipping one sentence's word to one another sentence of the paragraph says fails.
    ``owner(check, word)`` is the paragraph a shared check's statement of the word counts for."""
    said_in = {}
    for s in mine:
        if s.verdict != "exempt":
            for w in s.words:
                said_in.setdefault(w, []).append(s)
    for w in {w for c in near for w in comment_words(c)}:
        stating = _distinct([c for c in near
                             if w in comment_words(c) and owner(c, w) == k], w)
        if len(stating) > len(said_in.get(w, [])):
            found.append(Sentence(
                str(path), stating[0].line,
                f"{len(stating)} checks next to the paragraph at line {el.first} state "
                f"{w!r}, which {len(said_in.get(w, []))} of its sentences say: one "
                f"sentence each", [w], verdict="flagged", missing=[w], section=el.section))
    for w, group in said_in.items():
        naming = len(_distinct([c for c in near if names(c.text, w)
                                and owner(c, w) in (k, None)], w))
        if len(group) > naming:
            for s in [s for s in group if s.verdict == "satisfied"][naming:]:
                s.verdict = "flagged"
                s.missing = [f"{w} (said by {len(group)} sentences of the paragraph, "
                             f"named by {naming} check(s) next to it: one each)"]


def lint(path, page: Page | None = None) -> list:
    """The verdict on every claim-word sentence of ``path`` (or of the parsed ``page``)."""
    if page is None:
        page = read(path)
    path = page.path
    elems = elements(page)
    found = []
    said: dict[int, set] = {}            # id of a check -> claim words of its paragraphs
    checks: dict[int, Check] = {}
    sharers: dict[int, int] = {}
    paragraphs: list = []                # (paragraph, directions it says, checks next to it)
    spoken_by: dict[int, list] = {}      # id of a check -> directions its paragraphs say
    near_paras: dict[int, list] = {}    # id of a check -> the paragraphs it is next to
    all_checks: dict[int, Check] = {}
    says: dict[int, dict] = {}           # paragraph -> claim word -> sentences saying it
    for k, el in enumerate(elems):
        if el.kind == "paragraph":
            for c in checks_next_to(elems, k):
                sharers[id(c)] = sharers.get(id(c), 0) + 1
                near_paras.setdefault(id(c), []).append(k)
                all_checks[id(c)] = c
            says[k] = {}
            for line, text in sentences(el):
                prose = prose_text(NO_CLAIM.sub(" ", text))
                if NO_CLAIM.search(text) or prose.strip().rstrip("*_)\"'").endswith("?"):
                    continue
                for w in claim_words(prose_text(NO_CLAIM.sub(" ", text), math=True)):
                    says[k][w] = says[k].get(w, 0) + 1

    owners: dict = {}                    # claim word -> {id of a check: its paragraph}

    def owner(c, w):
        # A block between two paragraphs is next to both. For the count of one check per
        # sentence, each of its statements of a word goes to one of them: the first that still
        # has a sentence saying the word left unbound (else the first), in line order, so a
        # flipped sentence cannot lean on a check its neighbour paragraph also counts (CI's
        # prose sample, 2026-12-07: errata:983, ch16:114 and more survived that way).
        if w not in owners:
            stating = [x for x in all_checks.values() if w in comment_words(x)]
            own = {}
            for x in stating:
                if len(near_paras[id(x)]) == 1:
                    own.setdefault(near_paras[id(x)][0], set()).add(_key(x, w))
            room = {j: says[j].get(w, 0) - len(own.get(j, ())) for j in says}
            got, by_key = {}, {}
            for x in sorted(stating, key=lambda x: x.line):
                ks = near_paras[id(x)]
                if len(ks) == 1:
                    got[id(x)] = ks[0]
                    continue
                key = _key(x, w)
                if key not in by_key:
                    by_key[key] = next((j for j in ks if room[j] > 0), ks[0])
                    room[by_key[key]] -= 1
                got[id(x)] = by_key[key]
            owners[w] = got
        return owners[w].get(id(c))
    for k, el in enumerate(elems):
        if el.kind != "paragraph":
            continue
        near = checks_next_to(elems, k)
        paragraph_words = set()
        mine = []
        for line, text in sentences(el):
            why = NO_CLAIM.search(text)
            prose = prose_text(NO_CLAIM.sub(" ", text))
            words = claim_words(prose_text(NO_CLAIM.sub(" ", text), math=True))
            if not why:                  # an exempt sentence's words bind no check
                paragraph_words.update(words)
            if not words:
                continue
            if prose.strip().rstrip("*_)\"'").endswith("?"):
                continue                 # a question claims nothing
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
            mine.append(s)
        _one_check_per_sentence(found, mine, near, k, el, path, owner)
        # directions: as many sentences saying "at least 0.001" as checks next to it state it
        spoken = [d for line, text in sentences(el) if not NO_CLAIM.search(text)
                  for d in directions(prose_text(text, math=True))]
        paragraphs.append((el, spoken, near))
        for c in near:
            spoken_by.setdefault(id(c), []).extend(spoken)
        for c in near:
            checks[id(c)] = c
            said.setdefault(id(c), set()).update(paragraph_words)
    for el, spoken, near in paragraphs:
        for d in {d for c in near for d in stated_directions(c)}:
            stating = [c for c in near if d in stated_directions(c)]
            # a block between two paragraphs states it for one of them: the one that says it
            if len(stating) > spoken.count(d) and (
                    spoken.count(d) or not any(d in spoken_by[id(c)] for c in stating)):
                found.append(Sentence(
                    str(path), stating[0].line,
                    f"{len(stating)} check(s) next to the paragraph at line {el.first} state "
                    f"{d!r}, which {spoken.count(d)} of its sentences say: one sentence each",
                    [d], verdict="flagged", missing=[d], section=el.section))
    section_of = {}
    for el in elems:                     # checks next to no paragraph name nothing it says
        for c in el.checks:
            checks.setdefault(id(c), c)
            said.setdefault(id(c), set()).update(el.said)
            section_of[id(c)] = el.section
    for key, c in checks.items():
        for word in sorted(comment_words(c) - said.get(key, set())):
            found.append(Sentence(str(path), c.line, f"the check at line {c.line} names "
                                  f"{word!r}, which its paragraph does not say", [word],
                                  verdict="flagged", missing=[word],
                                  section=section_of.get(key, 0)))
    if Path(path).name in BOUND_NOT_YET:
        for s in found:
            if s.verdict == "flagged" and bound_only(s.missing):
                s.verdict = "transition"
    room = {c: caps.get(Path(path).name, 0) for c, (_, caps) in CLASSES.items()}
    for s in found:                      # at most the page's cap per class, in line order
        if s.verdict != "flagged":
            continue
        involved = class_of(s.missing)
        if involved and all(room[c] > 0 for c in involved):
            s.verdict = "transition"
            for c in involved:
                room[c] -= 1
    return found
