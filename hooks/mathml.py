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

# TeX sets a thin space between a function name and its argument (\cos b is "cos b", not
# "cosb"); latex2mathml writes <mi>cos</mi><mi>b</mi> and MathML adds no space between them.
FUNCTION = re.compile(r"<mi>(?:sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|arcsin|arccos|arctan"
                      r"|exp|log|ln|lg|arg|det|dim|ker|deg|gcd)</mi>")
TAG = re.compile(r"<(/?)([a-z]+)[^>]*?(/?)>")
# A factor right before the name: a letter, a number, a script or a closing bracket.
PRODUCT_BEFORE = re.compile(r"(?:</mi>|</mn>|</msub>|</msup>|</msubsup>|&#x00029;</mo>)$")
THIN_SPACE = '<mspace width="0.1667em"></mspace>'


def _end_of_function(mathml: str, start: int, end: int) -> int:
    r"""Where the function token ending at ``end`` stops: after the enclosing ``msub``/``msup``
    when the name is its base (``\cos^2 x``), else at ``end``."""
    if not re.search(r"<(msub|msup|msubsup)>$", mathml[:start]):
        return end
    depth = 1
    for tag in TAG.finditer(mathml, end):
        if tag.group(3):                              # <mspace/>: neither opens nor closes
            continue
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.end()
    return end


def _space_functions(mathml: str) -> str:
    r"""Insert a thin space after a function name followed by its argument; none before a
    bracket or an operator (\sin(x), \sin\left(x\right), \cos = ...)."""
    out, last = [], 0
    for m in FUNCTION.finditer(mathml):
        if m.start() < last:
            continue
        begin = m.start()
        base = re.search(r"<(msub|msup|msubsup)>$", mathml[:begin])
        if base:
            begin = base.start()
        if PRODUCT_BEFORE.search(mathml[last:begin]):   # 2\cos b: "2 cos b", as in TeX
            out.append(mathml[last:begin] + THIN_SPACE)
            last = begin
        stop = _end_of_function(mathml, m.start(), m.end())
        after = mathml[stop:]
        if after.startswith(("<mo", "</", "<mspace")) or re.match(r"<mrow><mo[^>]*fence=", after):
            continue
        out.append(mathml[last:stop] + THIN_SPACE)
        last = stop
    out.append(mathml[last:])
    return "".join(out)


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
    mathml = _space_functions(mathml)
    label = html.escape(source, quote=True)
    mathml = mathml.replace("<math ", f'<math alttext="{label}" ', 1)
    if display:
        # Display formulas stay out of the search index: their MathML reads as symbol soup in a
        # result snippet, and the prose around them says what they say.
        return f'<div class="posenc-math" data-search-exclude>{mathml}</div>'
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
