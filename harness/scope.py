"""A universal claim is checked over the domain the sentence states (issue 29).

Two rules, both judged per paragraph, with the adjacency of every rule (``harness.page.next_to``:
the markers and the block right before or after a paragraph, in the same section):

- **A check declares its domain.** A comment ``# domain: TEXT`` on a check says what it covers:
  ``# domain: widths 2 to 1024`` (a sample, by its bounds), or ``# domain: all`` /
  ``# domain: proved ...`` (every member, by exhaustion or by a bound the page proves). Each
  number of a sampled domain must be written in the paragraph (commas and spaces ignored), so a
  sentence cannot say "every width" next to a check that tried widths 2 to 1024 without saying
  so. Such a paragraph's universal sentences (every, all, any, never, no, always, ever, only)
  count as *scoped*.
- **A family is checked member by member.** A sentence that names a family ("half precision",
  "every width", "any base") and makes a claim (a universal word, a claim word or a number)
  either names each member itself (float16 *and* bfloat16), or states its range (a number), or
  sits next to a check whose ``# domain:`` names each member, or declares ``all``/``proved``.

What this cannot catch: a universal sentence next to a check that declares no domain (a sample
silently taken for the whole: the reviewer's question, not the harness's), and a domain whose
text does not match what the code covers (a reviewer reads the declaration against the code).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.page import NO_CLAIM, Page, read
from harness.text import prose_text, sentences
from harness.vocabulary import SCOPE_WORD as WORD
from harness.words import checks_next_to, elements

UNIVERSAL = re.compile(r"(?<![\w-])(every|all|any|never|no|always|ever|only)(?![\w-])",
                       re.IGNORECASE)
DOMAIN = re.compile(r"#[^\n]*?\bdomain:\s*(?P<text>[^#\n;]*)")
WHOLE = re.compile(r"^\s*(?:all\b|proved\b|every\b)", re.IGNORECASE)
NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
# family -> the words that name its members (each must be named) or None (a range: a number)
FAMILIES = {
    "half precision": ("float16", "bfloat16"),
    "half-precision": ("float16", "bfloat16"),
    "every width": None, "any width": None, "all widths": None,
    "every base": None, "any base": None, "all bases": None,
}
FAMILY = re.compile(r"(?<![\w-])(" + "|".join(re.escape(f) for f in FAMILIES) + r")(?![\w-])",
                    re.IGNORECASE)


@dataclass
class Scoped:
    page: str
    line: int
    text: str
    verdict: str        # scoped, family, flagged
    why: str = ""
    section: int = 0


def domains(check) -> list:
    return [m.group("text").strip() for line in check.text.splitlines()
            for m in [DOMAIN.search(line)] if m and m.group("text").strip()]


def _numbers(text: str) -> set:
    return {n.replace(",", "").rstrip(".") for n in NUMBER.findall(text)}


def _members(text: str, members) -> bool:
    words = set(re.findall(r"(?<![\w])[a-z0-9]+", text.lower()))
    return all(m in words for m in members)


def lint(path, page: Page | None = None) -> list:
    if page is None:
        page = read(path)
    path = page.path
    elems = elements(page)
    found = []
    # a check next to two paragraphs declares its domain for the one that states it
    said_by: dict = {}
    for k, el in enumerate(elems):
        if el.kind == "paragraph":
            text = prose_text(" ".join(r for _, r in el.lines), math=True)
            for c in checks_next_to(elems, k):
                nums, words, fams = said_by.setdefault(id(c), (set(), set(), []))
                nums |= _numbers(text)
                words |= set(re.findall(r"[a-z0-9]+", text.lower()))
                fams += [FAMILIES[f.lower()] for f in FAMILY.findall(text)]
    reported: set = set()
    for k, el in enumerate(elems):
        if el.kind != "paragraph":
            continue
        near = checks_next_to(elems, k)
        declared = [(c, d) for c in near for d in domains(c)]
        all_stated = True
        for c, d in declared:
            if WHOLE.match(d):
                continue
            said, prose_words, families = said_by[id(c)]
            if _numbers(d):              # a sample, by its bounds: the paragraph states them
                missing = sorted(_numbers(d) - said)
            else:                        # named members: said, or a family they complete
                named = [w for w in re.findall(r"[a-z0-9]+", d.lower()) if len(w) >= 4]
                missing = [w for w in named if w not in prose_words]
                if missing and any(m and _members(d, m) for m in families):
                    missing = []
            if missing:
                all_stated = False
                if (id(c), d) in reported:
                    continue
                reported.add((id(c), d))
                found.append(Scoped(str(path), c.line, f"the check at line {c.line} covers "
                                    f"'{d}'", "flagged",
                                    f"its paragraph does not state {', '.join(missing)}",
                                    el.section))
        for line, text in sentences(el):
            if NO_CLAIM.search(text):
                continue
            prose = " ".join(prose_text(text, math=True).split())
            fam = FAMILY.search(prose)
            universal = UNIVERSAL.search(prose)
            if fam:
                members = FAMILIES[fam.group(1).lower()]
                claims = universal or WORD.search(prose)
                if not claims:
                    continue
                ok = (_members(prose, members) if members else bool(NUMBER.search(prose)))
                ok = ok or any(WHOLE.match(d) or (members and _members(d, members))
                               for _, d in declared)
                found.append(Scoped(str(path), line, prose, "family" if ok else "flagged",
                                    "" if ok else (
                                        f"'{fam.group(1)}' is a family: name each member "
                                        f"({' and '.join(members)}) or check each, with "
                                        "# domain: naming them" if members else
                                        f"'{fam.group(1)}' is a family: state the range, or "
                                        "check it with # domain: all / proved"),
                                    el.section))
            elif universal and declared and all_stated:
                found.append(Scoped(str(path), line, prose, "scoped", section=el.section))
    return found
