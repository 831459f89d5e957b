"""MkDocs hook: turn the TeX that pymdownx.arithmatex leaves in pages into MathML at build time.

No JavaScript, no CDN, no fonts fetched: the browser renders MathML itself. A formula that does
not parse, or that uses a macro latex2mathml does not know (it would show as raw ``\\foo``), is
logged as a warning, so ``mkdocs build --strict`` fails.
"""

from __future__ import annotations

import html
import logging
import re

from latex2mathml.converter import convert

log = logging.getLogger("mkdocs.hooks.mathml")

# arithmatex's generic mode: inline <span class="arithmatex">\( ... \)</span>,
# display <div class="arithmatex">\[ ... \]</div>.
INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.+?)\\\)</span>', re.DOTALL)
BLOCK = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.+?)\\\]</div>', re.DOTALL)
UNKNOWN_MACRO = re.compile(r">\s*(\\[A-Za-z]+)\s*<")


def _convert(tex: str, display: bool, where: str) -> str:
    source = html.unescape(tex).strip()
    try:
        mathml = convert(source, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises several private exception types
        log.warning("%s: cannot convert TeX %r to MathML: %s", where, source, exc or type(exc).__name__)
        return f"<code>{html.escape(source)}</code>"
    unknown = UNKNOWN_MACRO.findall(mathml)
    if unknown:
        log.warning("%s: unknown TeX macro(s) %s in %r", where, ", ".join(unknown), source)
    label = html.escape(source, quote=True)
    mathml = mathml.replace("<math ", f'<math alttext="{label}" ', 1)
    if display:
        return f'<div class="posenc-math">{mathml}</div>'
    return mathml


# In the table of contents a heading's math arrives as plain text: \( ... \)
TOC_INLINE = re.compile(r"\\\((?P<tex>.+?)\\\)", re.DOTALL)


def _toc_math(items, where: str) -> None:
    """Render TeX in table-of-contents titles as MathML too (Material prints titles unescaped)."""
    for item in items:
        item.title = TOC_INLINE.sub(lambda m: _convert(m.group("tex"), False, where), item.title)
        _toc_math(item.children, where)


def on_page_content(html_text: str, page, config, files) -> str:
    where = page.file.src_uri
    html_text = BLOCK.sub(lambda m: _convert(m.group("tex"), True, where), html_text)
    if page.toc:
        _toc_math(page.toc.items, where)
    return INLINE.sub(lambda m: _convert(m.group("tex"), False, where), html_text)
