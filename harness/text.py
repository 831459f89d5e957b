"""A paragraph as text: its sentences, its words without code or markup, and code without
its strings and comments. Every prose rule (numbers, claim words, causes, scope) reads sentences
and text through these, so the rules agree on what a sentence is and what it says."""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.page import Element

# A sentence ends at . ! or ? followed by a capital, a bracket, a quote, markup or the end.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[*_\"'<\\]|$)")
LIST_ITEM = re.compile(r"(?:[-*+]|\d+[.)])\s")
# Markers that belong to the sentence before them when they open the next one.
SENTENCE_MARKER = re.compile(r"(?:\s*<!--\s*(?:no-claim|cause):.*?-->)+")


@dataclass
class _Cut:                              # a sentence boundary that no regex matched
    begin: int
    stop: int

    def start(self):
        return self.begin

    def end(self):
        return self.stop




def sentences(para: Element):
    """(line, text) of the sentences of a paragraph; a no-claim comment opening a sentence
    belongs to the sentence before it."""
    pieces, offsets = [], []
    for lineno, raw in para.lines:
        offsets.append((sum(len(p) + 1 for p in pieces), lineno))
        pieces.append(raw.strip())
    # comments other than no-claim and cause go first: their text ("et al. (2022)") is no
    # sentence
    joined = re.sub(r"<!--(?!\s*(?:no-claim|cause):).*?-->", lambda m: " " * len(m.group(0)),
                    " ".join(pieces))
    # a list item starts a sentence (its marker's no-claim must not exempt the whole list)
    items = [_Cut(off - 1, off) for (off, _), piece in zip(offsets, pieces)
             if off and LIST_ITEM.match(piece)]
    cuts = sorted(list(SENTENCE_END.finditer(joined)) + items, key=lambda m: m.start())
    out, start = [], 0
    for m in cuts + [None]:
        if m and m.start() < start:
            continue
        end = m.start() if m else len(joined)
        text = joined[start:end]
        line = max(l for off, l in offsets if off <= max(start, 0))
        lead = SENTENCE_MARKER.match(text.lstrip())
        if lead and out:
            out[-1] = (out[-1][0], out[-1][1] + " " + lead.group(0))
            text = text.lstrip()[lead.end():]
        if text.strip():
            out.append((line, text))
        start = m.end() if m else len(joined)
    return out


def prose_text(text: str, math: bool = False) -> str:
    """Prose without comments (but no-claim markers), code spans, math (unless ``math``), link
    targets and HTML tags: the words a rule reads."""
    text = re.sub(r"<!--(?!\s*no-claim:).*?-->", " ", text)
    # A cross-reference to the API page, [`encode`][posenc.encoding.encode], reads as its code.
    text = re.sub(r"\[(`[^`]*`)\]\[[\w.]+\]", r"\1", text)
    text = re.sub(r"`[^`]*`", " ", text)
    if not math:
        text = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"<(?!!--)[^>]+>", " ", text)
    return text


def code_only(text: str) -> str:
    """Code without its string literals and comments (what a check compares, not what it says)."""
    return re.sub(r"#.*", "", re.sub(r"(\"[^\"]*\"|'[^']*')", "''", text))
