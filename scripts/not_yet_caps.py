"""Recount harness/not_yet.py's caps from the pages: per capped class of claim words
(direction, same, order, negation, both, time; harness.words.CLASSES), how many sentences of
each page still lack a check naming the word. Run after binding sentences (or when a class joins
the claim words):

    python scripts/not_yet_caps.py          # print the counts
    python scripts/not_yet_caps.py --write  # and rewrite the caps in harness/not_yet.py

tests/harness/test_claim_words.py holds each cap equal to its page's count, so a cap only moves with
the page: binding a sentence lowers it, a new unbound sentence fails the page's rules."""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness import not_yet, words  # noqa: E402


def counts() -> dict:
    """{class: {page name: sentences left}} with every cap lifted."""
    class Lifted(dict):
        def get(self, key, default=None):
            return 10 ** 9
    lifted = {c: Lifted() for c in words.CLASSES}
    saved = dict(words.CLASSES)
    try:
        for c, (ws, _) in saved.items():
            words.CLASSES[c] = (ws, lifted[c])
        out = {c: collections.Counter() for c in saved}
        for page in sorted((ROOT / "docs").rglob("*.md")):
            for s in words.lint(page):
                if s.verdict == "transition":
                    for c in words.class_of(s.missing):
                        out[c][page.name] += 1
        return out
    finally:
        words.CLASSES.update(saved)


NAMES = {"direction": "DIRECTION_NOT_YET", "same": "SAME_NOT_YET", "order": "ORDER_NOT_YET",
         "negation": "NEGATION_NOT_YET", "both": "BOTH_NOT_YET", "time": "TIME_NOT_YET"}


def write(found: dict) -> None:
    path = ROOT / "harness" / "not_yet.py"
    text = path.read_text()
    for c, name in NAMES.items():
        body = "".join(f'    "{k}": {v},\n' for k, v in sorted(found[c].items()))
        text = re.sub(rf"{name}: dict = \{{[^}}]*\}}", f"{name}: dict = {{\n{body}}}", text)
    path.write_text(text)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    found = counts()
    for c in NAMES:
        print(f"{c}: {sum(found[c].values())} sentences on {len(found[c])} pages")
    if ap.parse_args().write:
        write(found)
