"""MkDocs hook: end every page with a note saying how many of its code examples the tests run.

The count comes from the same Sybil configuration pytest uses (conftest.py), so it is the number
of examples `make test` actually evaluates on that page. The home page also gets site totals in
place of the marker ``<!-- posenc:totals -->``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import conftest  # noqa: E402

TOTALS_MARKER = "<!-- posenc:totals -->"
_counts: dict[str, int] = {}


def _count(path: Path) -> int:
    return sum(1 for _ in conftest.markdown_sybil.parse(path).examples())


def on_files(files, config):
    _counts.clear()
    for f in files.documentation_pages():
        _counts[f.src_uri] = _count(Path(f.abs_src_path))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    n = _counts.get(page.file.src_uri)
    if n is None:
        n = _count(Path(page.file.abs_src_path))
    if TOTALS_MARKER in markdown:
        pages = sum(1 for c in _counts.values() if c)
        total = sum(_counts.values())
        text = (f"Right now the site has **{total} code examples on {pages} pages**, all run by "
                "the tests on every change.")
        record = ROOT / "docs" / "data" / "mutants.json"
        if record.exists():
            m = json.loads(record.read_text())
            text += (f" In the last recorded mutation check ({m['date']}, `make mutants`), "
                     f"**{m['killed']} of {m['total']} deliberate errors** planted in a copy of "
                     "`posenc` made the pages' tests fail.")
        markdown = markdown.replace(TOTALS_MARKER, text)
    if n:
        import posixpath
        here = posixpath.dirname(page.file.src_uri)
        link = posixpath.relpath("checks.md", here or ".")
        note = (f"Checked: this page's {n} code examples run on every change. "
                f"[How this site checks itself]({link})")
        markdown += f'\n\n<div class="posenc-checked" markdown>\n{note}\n</div>\n'
    return markdown
