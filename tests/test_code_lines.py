"""Code on the pages is read without sideways scrolling: every source line a reader sees in a
code block of docs/ (or README.md) is at most 80 characters.

Counted: every line of a fenced block as shown, measured from the fence's own indentation
(inside an admonition, say). Not counted: the printed output of a ``>>>`` block (it wraps on the
page, assets/posenc.css), lines the page hides (``# markdown-exec: hide``) and blocks markdown-exec
runs without showing their source. Lines that were longer when this test arrived are listed in
``tests/pending/long-lines.txt`` (page | line); a listed line that is gone must be deleted from
the list, so it only shrinks.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "tests" / "pending" / "long-lines.txt"
LIMIT = 80
FENCE = re.compile(r"^(?P<indent>[ \t>]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
PROMPT = re.compile(r"(>>>|\.\.\.)( |$)")


def shown_source_lines(text: str):
    """(line number, line) of each source line a reader sees in a fenced block."""
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        m = FENCE.match(lines[n])
        if not m:
            n += 1
            continue
        indent, fence, info = len(m.group("indent")), m.group("fence"), m.group("info")
        end = n + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        body = [(k + 1, lines[k][indent:]) for k in range(n + 1, end)]
        hidden = 'exec="on"' in info and "source=" not in info
        doctest = bool(body) and body[0][1].startswith(">>>")
        for number, line in body if not hidden else []:
            if line.rstrip().endswith("# markdown-exec: hide"):
                continue
            if doctest and not PROMPT.match(line):
                continue                              # printed output: wraps on the page
            yield number, line
        n = end + 1


def long_lines(path: Path) -> Counter:
    rel = path.relative_to(ROOT).as_posix()
    return Counter(f"{rel} | {line.rstrip()}" for _, line in shown_source_lines(path.read_text())
                   if len(line.rstrip()) > LIMIT)


def pages():
    return sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]


def listed() -> Counter:
    if not LEDGER.exists():
        return Counter()
    return Counter(line.rstrip("\n") for line in LEDGER.read_text().splitlines()
                   if line.strip() and not line.startswith("#"))


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_code_lines_fit_80_characters(page):
    found = long_lines(page)
    rel = page.relative_to(ROOT).as_posix()
    pending = Counter({k: v for k, v in listed().items() if k.startswith(rel + " | ")})
    new, stale = found - pending, pending - found
    assert not new, f"{rel}: code lines over {LIMIT} characters:\n" + "\n".join(new)
    assert not stale, (f"{rel}: fixed or changed, delete from {LEDGER.name}:\n" + "\n".join(stale))


def test_the_line_counter_sees_what_a_reader_sees():
    page = '''text

```pycon
>>> x = 1
>>> print("an output line that is long " * 5)
an output line that is long an output line that is long an output line that is long an
```

    ```python
    y = 2  # a shown line inside an admonition, long enough to pass the limit of eighty chars
    print(y, "padding that makes this hidden line longer than eighty chars")  # markdown-exec: hide
    ```

```python exec="on"
print("never shown" * 20)
```
'''
    lines = list(shown_source_lines(page))
    assert [n for n, _ in lines] == [4, 5, 10]
    assert [len(line) > LIMIT for _, line in lines] == [False, False, True]


if __name__ == "__main__":                            # rewrite the ledger from the pages
    keys = sum((long_lines(p) for p in pages()), Counter())
    LEDGER.write_text(f"# Code lines over {LIMIT} characters (tests/test_code_lines.py). Only remove "
                      "lines.\n" + "".join(f"{k}\n" for k in sorted(keys.elements())))
    print(f"{sum(keys.values())} long lines in {LEDGER.relative_to(ROOT)}")
