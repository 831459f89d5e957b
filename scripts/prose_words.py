"""Count the site's prose words: the Markdown of docs/*.md and docs/chapters/*.md without
fenced code, HTML comments (claim markers) and doctest lines. Prints the total; ``-v`` also
prints each page. Issue 38: the prose must not grow, so tests/site/test_prose_budget.py holds the
total at or under PROSE_BUDGET and `.ci/run` prints it.

    .venv/bin/python scripts/prose_words.py [-v]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Prose words at 4c61ba9 (2026-12-06), before issue 38: new text is paid for by cuts.
PROSE_BUDGET = 56788


def prose_words(text: str) -> int:
    """Words of ``text`` outside fences, ``<!-- ... -->`` comments and ``>>>``/``...`` lines.

    >>> prose_words("Two words.\\n<!-- check: x -->\\n```python\\nx = 1\\n```\\n>>> x\\n")
    2
    """
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    kept, fenced = [], False
    for line in text.split("\n"):
        bare = line.strip()
        if bare.startswith("```"):
            fenced = not fenced
        elif not fenced and not bare.startswith((">>>", "...")):
            kept.append(line)
    return len(" ".join(kept).split())


def pages() -> list[Path]:
    docs = ROOT / "docs"
    return sorted([*docs.glob("*.md"), *(docs / "chapters").glob("*.md")])


def per_page() -> dict[str, int]:
    return {str(p.relative_to(ROOT)): prose_words(p.read_text()) for p in pages()}


def main() -> None:
    counts = per_page()
    if "-v" in sys.argv:
        for name, n in counts.items():
            print(f"{name:60s} {n:6d}")
    print(f"prose words: {sum(counts.values())} (budget {PROSE_BUDGET})")


if __name__ == "__main__":
    main()
