"""MkDocs hook: end every page with a note saying how many code blocks it shows and how many
checks the tests run on it.

The counts come from the page model the tests use (harness.page): the blocks shown are the
Python blocks outside folds (``Page.visible_blocks``); the checks are every example the tests
evaluate on the page (one per code block, one per ``>>>`` statement, one per claim marker), and
tests/harness/test_harness.py checks that equals what Sybil collects. This hook needs no test
tool: a docs-only install builds the site. The home page also gets site totals in place of the
marker ``<!-- posenc:totals -->``.

The claim markers (``<!-- check: EXPR -->``: checks that would interrupt the reading, kept in
the page's source) are invisible in the rendered page, so each page also ends with one closed
fold that lists them, section by section, as the tests evaluate them (``claim_checks``).

It also names the page in a failing exec block's build warning (markdown-exec's own message
shows only the code).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness.page import read  # noqa: E402

TOTALS_MARKER = "<!-- posenc:totals -->"
_counts: dict[str, int] = {}
_current = {"page": ""}


class _NamePage(logging.Filter):
    """Prefix markdown-exec's warnings with the page being rendered."""

    def filter(self, record: logging.LogRecord) -> bool:
        if _current["page"] and isinstance(record.msg, str) \
                and not record.msg.startswith(_current["page"]):
            record.msg = f"{_current['page']}: {record.msg}"
        return True


for _name in ("mkdocs.plugins.markdown_exec._internal.formatters.base",
              "mkdocs.plugins.markdown_exec"):
    logging.getLogger(_name).addFilter(_NamePage())


def _count(path: Path) -> int:
    return read(path).example_count()


def _shown(path: Path) -> int:
    return len(read(path).visible_blocks())


def claim_checks(path: Path) -> str:
    """Markdown for one closed fold listing the page's claim markers, grouped by the section
    they sit in, each as written in the source (expression and its comment); "" if none
    (tests/site/test_site_hooks.py).
    """
    model = read(path)
    if not model.markers:
        return ""
    out, section = [], None
    for marker in model.markers:
        if marker.section != section:
            section = marker.section
            title = re.sub(r"\s*\{[^}]*\}\s*$", "", model.title(section)).strip()
            out += ([""] if out else []) + [f"# {title}"]
        raw = [line.strip() for line in model.lines[marker.first - 1:marker.last]]
        text = "\n".join(raw)
        text = text[text.index("check:") + len("check:"):text.rindex("-->")].strip()
        first, *rest = text.splitlines()
        out.append(first)
        out += [f"    {line}" for line in rest]
    n = len(model.markers)
    body = "\n".join(f"    {line}" if line else "" for line in out)
    return (f'\n\n<div id="claim-checks" markdown>\n\n??? note "The {n} claim check'
            f'{"s" if n != 1 else ""} behind this page\'s sentences"\n\n'
            "    Each line is a Python expression the tests evaluate on this page, after the "
            "code above it; a false one fails the page. In the page's source each sits right "
            "after the paragraph it checks, as `<!-- check: ... -->`.\n\n"
            f"    ```python\n{body}\n    ```\n\n</div>\n")


REVIEWS = ROOT / "docs" / "data" / "reviews"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


_loaded: dict = {}


def _review_records(records: Path) -> list:
    """The parsed records of ``records``, read once per build (``on_files`` clears them)."""
    if records not in _loaded:
        import yaml
        files = sorted(records.glob("*.yml")) if records.is_dir() else []
        _loaded[records] = [yaml.safe_load(f.read_text()) for f in files]
    return _loaded[records]


def review_note(page: str, records: Path = REVIEWS) -> str:
    """One sentence on how ``page`` (``docs/...`` path) was reviewed in depth, summed per pass
    over the review records in ``records`` (``docs/data/reviews/*.yml``, one per reviewer:
    ``pass``, ``month``, and per page ``claims``, ``found``, ``major``, ``fixed``, and optionally
    its own ``pass`` where one reviewer's pages stand at different passes); "" when no
    record names the page (tests/site/test_site_hooks.py)."""
    passes: dict[int, dict] = {}
    for rec in _review_records(records):
        for entry in rec.get("pages", []):
            if entry["page"] != page:
                continue
            n = int(entry.get("pass", rec["pass"]))
            p = passes.setdefault(n, {"claims": 0, "found": 0, "major": 0, "fixed": 0,
                                      "months": set()})
            for k in ("claims", "found", "major", "fixed"):
                p[k] += int(entry.get(k, 0))
            p["months"].add(str(rec["month"]))
    if not passes:
        return ""
    parts = []
    for n, p in sorted(passes.items()):
        year, month = max(p["months"]).split("-")
        major = f", {p['major']} major" if p["major"] else ""
        parts.append(f"pass {n} ({MONTHS[int(month) - 1]} {year}): {p['claims']} claims "
                     f"examined, {p['found']} problem{'s' * (p['found'] != 1)} found{major}, "
                     f"{p['fixed']} fixed or answered")
    return ("Reviewed in depth by readers who did not write it, "
            f"{len(passes)} pass{'es' * (len(passes) != 1)}: " + "; ".join(parts) + ".")


def on_files(files, config):
    _counts.clear()
    _loaded.clear()
    for f in files.documentation_pages():
        _counts[f.src_uri] = _count(Path(f.abs_src_path))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    _current["page"] = f"docs/{page.file.src_uri}"
    n = _counts.get(page.file.src_uri)
    if n is None:
        n = _count(Path(page.file.abs_src_path))
    if TOTALS_MARKER in markdown:
        pages = sum(1 for c in _counts.values() if c)
        total = sum(_counts.values())
        text = (f"Right now the site has **{total} code examples and checks on {pages} pages**, "
                "all run by the tests on every change.")
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
        shown = _shown(Path(page.file.abs_src_path))
        blocks = f"{shown} code block{'s' if shown != 1 else ''}"
        checks = f"{n} check{'s' if n != 1 else ''}"
        listed = claim_checks(Path(page.file.abs_src_path))
        hidden = " and [listed below](#claim-checks)" if listed else ""
        what = (f"the {blocks} shown on this page and its {checks} in all (folded ones "
                f"included{hidden})" if shown
                else f"the {checks} behind this page's numbers and figures")
        note = f"Checked: {what} run on every change. [How this site checks itself]({link})"
        reviewed = review_note(f"docs/{page.file.src_uri}")
        if reviewed:
            note += f"\n\n{reviewed}"
        markdown += listed
        markdown += f'\n\n<div class="posenc-checked" markdown>\n{note}\n</div>\n'
    return markdown
