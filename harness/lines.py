"""Code on the pages is read without sideways scrolling: every source line a reader sees in a
code block is at most 80 characters.

Counted: every line of a fenced block as shown, measured from the fence's own indentation
(inside an admonition, say). Not counted: the printed output of a ``>>>`` block (it wraps on the
page, assets/posenc.css), lines the page hides (``# markdown-exec: hide``) and blocks
markdown-exec runs without showing their source.
"""

from __future__ import annotations

import re

from harness.page import Page

LIMIT = 80
PROMPT = re.compile(r"(>>>|\.\.\.)( |$)")


def shown_source_lines(page: Page):
    """(line number, line) of each source line a reader sees in a fenced block."""
    for fence in page.fences:
        if 'exec="on"' in fence.info and "source=" not in fence.info:
            continue
        doctest = bool(fence.body) and fence.body[0][1].startswith(">>>")
        for number, line in fence.body:
            if line.rstrip().endswith("# markdown-exec: hide"):
                continue
            if doctest and not PROMPT.match(line):
                continue                              # printed output: wraps on the page
            yield number, line


def long_lines(page: Page) -> list:
    return [(n, line.rstrip()) for n, line in shown_source_lines(page) if len(line.rstrip()) > LIMIT]
