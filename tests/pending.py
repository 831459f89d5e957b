"""The ledger of claims not yet bound to a check: a ratchet, not an exemption.

``tests/pending/numbers.txt`` and ``tests/pending/words.txt`` list, one a line, the prose numbers
and claim-word sentences that were unchecked when the binding rules arrived. The tests accept
an entry that is listed and fail on everything else: a new unchecked number or sentence, and a
listed entry that no longer occurs (fixed or edited: delete its line). An entry names the page,
the section title and the exact text (the number as written, the whole sentence), so changing a
listed number's digits or flipping a listed sentence's word makes a new, unlisted claim and
fails. The tests print how many entries are left; the goal is none.

Regenerate after fixing pages: ``.venv/bin/python -m tests.pending`` (it only ever removes
entries unless ``--add`` is given).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUMBERS = ROOT / "tests" / "pending" / "numbers.txt"
WORDS = ROOT / "tests" / "pending" / "words.txt"
HEADER = "# {what} not yet bound to a check (see tests/pending.py). Only remove lines.\n"


def section_title(path: Path, section: int) -> str:
    from tests.prose_numbers import split_page

    headings = split_page(path.read_text()).headings
    return "(top)" if section == 0 else headings[section - 1][1]


def _rel(path) -> str:
    return str(Path(path).resolve().relative_to(ROOT))


def number_keys(path: Path) -> Counter:
    from tests.prose_numbers import scan

    return Counter(f"{_rel(path)} | {section_title(path, n.section)} | {n.text}"
                   for n in scan(path).numbers if n.verdict == "unchecked")


def word_keys(path: Path) -> Counter:
    from tests.claim_words import lint

    return Counter(f"{_rel(path)} | {section_title(path, s.section)} | {s.text}"
                   for s in lint(path) if s.verdict == "flagged")


def load(ledger: Path) -> Counter:
    if not ledger.exists():
        return Counter()
    return Counter(line.rstrip("\n") for line in ledger.read_text().splitlines()
                   if line.strip() and not line.startswith("#"))


def compare(found: Counter, listed: Counter, page: Path):
    """(new, stale) for one page: unlisted keys found, listed keys of this page not found."""
    prefix = _rel(page) + " | "
    mine = Counter({k: v for k, v in listed.items() if k.startswith(prefix)})
    return list((found - mine).elements()), list((mine - found).elements())


def write(ledger: Path, keys: Counter, what: str) -> None:
    ledger.write_text(HEADER.format(what=what) + "".join(k + "\n" for k in sorted(keys.elements())))


def main(argv) -> int:
    pages = sorted((ROOT / "docs").rglob("*.md"))
    for ledger, keys, what in ((NUMBERS, number_keys, "Prose numbers"),
                               (WORDS, word_keys, "Claim-word sentences")):
        found = sum((keys(p) for p in pages), Counter())
        kept = found if "--add" in argv else found & load(ledger)
        write(ledger, kept, what)
        print(f"{ledger.relative_to(ROOT)}: {sum(kept.values())} entries "
              f"({sum((found - kept).values())} found but not listed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
