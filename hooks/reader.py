"""MkDocs hook: what a reader (and a screen reader, a search box, a search engine) gets per page.

- Every page has a description of its own: the front matter's ``description:``, else the
  page's "Answer." paragraph (or first paragraph) reduced to plain text, cut at a word near
  160 characters. The home page's ``<title>`` comes from its front matter ``title:``.
- The search dialog has an accessible name (Material's has none).
- The source code of a figure (the code block markdown-exec shows above a figure) and the
  figure's SVG are left out of the search index (``data-search-exclude``): searching "RoPE"
  should find prose, not plotting code.
- Notebook pages (mkdocs-jupyter) lose the ~590 KB of JupyterLab CSS inlined into each page,
  its empty MathJax script and its Mermaid loader (a CDN import); ``assets/notebook.css``
  (site-wide, 2 KB) styles the few classes the page uses; code cells take Material's colours.
- Reading time: ``page_minutes(path)`` runs ``main_line_minutes`` on the page's source file:
  ``reading_minutes`` (the prose words, code and math and HTML left out, at 200 words a minute,
  and a minute per figure) of the page's *main line*, the page without its folded blocks
  (``??? ...``; an open ``???+`` block is main line). A reader who lands on a page reads the main
  line and opens a fold by choice (issue 41: "a main line of at most 15 minutes"). A chapter page
  and the tour show it under their title, and the home page shows it after each link that
  carries the marker ``<!-- posenc:minutes PATH -->``: one computation on one text, so the two
  never disagree (the header once counted the markdown after hooks/checked.py had appended its
  listing: chapter 1 read 12 there, 10 on the home page).
"""

from __future__ import annotations

import html as htmllib
import math
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS_PER_MINUTE = 200
MINUTES_PER_FIGURE = 1
DESCRIPTION_CHARS = 160

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_DIALOG_NAMED = ('<div class="md-search" data-md-component="search" role="dialog" '
                       'aria-label="Search this site">')
MINUTES_MARKER = re.compile(r"<!-- posenc:minutes (\S+) -->")


# ------------------------------------------------------------------------------ plain text

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def _without_fences(markdown: str) -> str:
    """Markdown without its fenced code, indented fences (inside a fold) included."""
    kept, close = [], None
    for line in markdown.splitlines(keepends=True):
        if close is None:
            opening = _FENCE.match(line)
            if opening:
                fence = opening.group(1)
                close = re.compile(rf"[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
            else:
                kept.append(line)
        elif close.match(line):
            close = None
    return "".join(kept)


def _prose(markdown: str) -> str:
    """Markdown with code, front matter, HTML comments and tags removed. A tag is ``<`` then a
    letter or ``/``: a ``<`` in prose or math (``k < 0``) is text, not the start of a tag."""
    text = re.sub(r"\A---\n.*?\n---\n", "", markdown, flags=re.S)
    text = _without_fences(text)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"</?[A-Za-z][^<>]*>", "", text)
    return text


def plain(markdown: str) -> str:
    """One paragraph of Markdown as plain text: math keeps its symbols' names, links their text."""
    text = re.sub(r"\\\[(.*?)\\\]|\\\((.*?)\\\)", lambda m: _tex(m.group(1) or m.group(2)), markdown,
                  flags=re.S)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(?<!\w)[*_`]{1,3}(?=\S)|(?<=\S)[*_`]{1,3}(?!\w)", "", text)
    return " ".join(text.split())


_SUB = dict(zip("0123456789aeijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉ₐₑᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))


def _subscript(m: re.Match) -> str:
    index = m.group(1) or m.group(2)
    return "".join(_SUB[c] for c in index) if all(c in _SUB for c in index) else "_" + index


def _tex(tex: str) -> str:
    tex = re.sub(r"\\(text|operatorname|mathrm)\{([^}]*)\}", r"\2", tex)
    tex = re.sub(r"\\(omega|pi|sin|cos|top|cdot|dots|ldots|times|le|ge|approx)(?![A-Za-z])",
                 lambda m: {"omega": "ω", "pi": "π", "top": "ᵀ", "cdot": "·", "dots": "…",
                            "ldots": "…", "times": "×", "le": "≤", "ge": "≥",
                            "approx": "≈"}.get(m.group(1), m.group(1)), tex)
    tex = re.sub(r"_\{([A-Za-z0-9]+)\}|_([A-Za-z0-9])", _subscript, tex)
    tex = re.sub(r"\\[,;!: ]|\\left|\\right", " ", tex)
    tex = re.sub(r"[{}\\]", "", tex)
    return " ".join(tex.split())


def answer_paragraph(markdown: str) -> str | None:
    """The paragraph that starts with **Answer.**, as Markdown, or None."""
    m = re.search(r"^\*\*Answer\.\*\*(.*?)(?:\n\s*\n|\Z)", markdown, flags=re.S | re.M)
    return m.group(1).strip() if m else None


def first_paragraph(markdown: str) -> str:
    for block in re.split(r"\n\s*\n", _prose(markdown)):
        block = block.strip()
        if block and not block.startswith(("#", "|", "!!!", "???", "-", "*", "<", "\\[", ">")):
            return block
    return ""


def describe(markdown: str) -> str:
    text = plain(answer_paragraph(markdown) or first_paragraph(markdown))
    if len(text) <= DESCRIPTION_CHARS:
        return text
    cut = text[:DESCRIPTION_CHARS].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def words(markdown: str) -> int:
    text = re.sub(r"\\\[.*?\\\]", " ", _prose(markdown), flags=re.S)
    return len(re.findall(r"[A-Za-z0-9][\w'’-]*", text))


def reading_minutes(markdown: str) -> int:
    figures = len(re.findall(r"figure_html\(", markdown))
    return max(1, math.ceil(words(markdown) / WORDS_PER_MINUTE + MINUTES_PER_FIGURE * figures))


_FOLD = re.compile(r"^([ \t]*)\?\?\?(?!\+)")


def main_line(markdown: str) -> str:
    """The page without its folded blocks: a ``??? kind "title"`` line and every line after it
    that is blank or indented deeper, nested folds and their code included. ``???+`` (open by
    default), ``!!!`` boxes and a ``???`` inside a code fence stay."""
    kept, fold, fence = [], None, None
    for line in markdown.splitlines(keepends=True):
        if fold is not None:
            if not line.strip() or len(line) - len(line.lstrip(" \t")) > fold:
                continue
            fold = None
        if fence is None:
            folded = _FOLD.match(line)
            if folded:
                fold = len(folded.group(1))
                continue
            opening = _FENCE.match(line)
            if opening:
                mark = opening.group(1)
                fence = re.compile(rf"[ \t]*{re.escape(mark[0])}{{{len(mark)},}}[ \t]*$")
        elif fence.match(line):
            fence = None
        kept.append(line)
    return "".join(kept)


def main_line_minutes(markdown: str) -> int:
    """Reading time of the main line: ``reading_minutes`` of the page without its folds."""
    return reading_minutes(main_line(markdown))


def page_minutes(src_uri: str) -> int:
    """Reading time of the page ``docs/SRC_URI``, from its source file: the one computation
    behind a page's "N min read" and the home page's "(N min)", the main line's minutes."""
    return main_line_minutes((ROOT / "docs" / src_uri).read_text(encoding="utf-8"))


def shows_minutes(src_uri: str) -> bool:
    """Pages that show their reading time under the title: the chapters and the tour."""
    return src_uri.startswith("chapters/") or src_uri == "tour.md"


# ------------------------------------------------------------------------------ HTML

def name_search_dialog(html: str) -> str:
    if SEARCH_DIALOG not in html:
        raise ValueError("hooks/reader.py: Material's search dialog markup changed; update SEARCH_DIALOG")
    return html.replace(SEARCH_DIALOG, SEARCH_DIALOG_NAMED, 1)


_FIGURE_SOURCE = re.compile(r'<div class="highlight"(?=>(?:(?!<div).)*?</div>\s*'
                            r'(?:<div class="[^"]*">\s*)?<figure class="posenc-figure\b)', re.S)
_FIGURE = re.compile(r'(<figure class="posenc-figure\b[^"]*")>')


_DIV = re.compile(r"<div\b|</div>")


def _tabbed_figure_sources(html: str) -> str:
    """A figure's code in a tab beside it (markdown-exec ``source="tabbed-..."``): the code
    blocks of every tabbed set that holds a figure."""
    out, at = [], 0
    for start in [m.start() for m in re.finditer(r'<div class="tabbed-set\b', html)]:
        if start < at:
            continue                                  # nested in a set already handled
        depth, end = 0, len(html)
        for m in _DIV.finditer(html, start):
            depth += 1 if m.group() == "<div" else -1
            if depth == 0:
                end = m.end()
                break
        block = html[start:end]
        if "posenc-figure" in block:
            block = block.replace('<div class="highlight">', '<div class="highlight" data-search-exclude>')
        out += [html[at:start], block]
        at = end
    return "".join(out) + html[at:]


def exclude_figures_from_search(html: str) -> str:
    html = _tabbed_figure_sources(html)
    html = _FIGURE_SOURCE.sub('<div class="highlight" data-search-exclude', html)
    return _FIGURE.sub(r"\1 data-search-exclude>", html)


_STYLE = re.compile(r"<style[^>]*>.*?</style>\s*", re.S)
_JUPYTER_SCRIPTS = [
    re.compile(r'<script src="">\s*</script>\s*', re.S),                               # MathJax, empty
    re.compile(r'<!-- MathJax configuration -->\s*<script type="text/x-mathjax-config">.*?</script>\s*', re.S),
    re.compile(r'<script type="module">(?:(?!</script>).)*?mermaid.*?</script>\s*', re.S),  # CDN import
]


def trim_notebook(html: str) -> str:
    """Drop the inline JupyterLab CSS (keeping <style> inside SVG figures), the empty MathJax
    script and the Mermaid loader; code cells get Material's colours. The site-wide
    ``assets/notebook.css`` (2 KB, every rule under ``.jupyter-wrapper``) styles what is left."""
    def outside_svg(m):
        before = html[:m.start()]
        inside = before.rfind("<svg") > before.rfind("</svg>")
        return m.group(0) if inside else ""
    html = _STYLE.sub(outside_svg, html)
    for pattern in _JUPYTER_SCRIPTS:
        html = pattern.sub("", html)
    return html.replace('<div class="highlight-ipynb', '<div class="highlight highlight-ipynb')


# ------------------------------------------------------------------------------ citations

# Citations as the chapters write them, each linked to its entry on the references page (which
# links to the paper). A citation is the author part followed, within a few characters, by the
# year; in chapter 15's table, the arXiv identifier.
CITATIONS = {
    "vaswani": (r"Vaswani et al\.", "2017", "1706.03762"),
    "gehring": (r"Gehring, Auli, Grangier, Yarats, Dauphin", "2017", "1705.03122"),
    "shaw": (r"Shaw, Uszkoreit, Vaswani", "2018", "1803.02155"),
    "devlin": (r"Devlin et al\.", "2019", "1810.04805"),
    "radford": (r"Radford et al\.", "2019", None),
    "dai": (r"Dai, Yang, Yang, Carbonell, Le, Salakhutdinov", "2019", "1901.02860"),
    "raffel": (r"Raffel et al\.", "2020", "1910.10683"),
    "su": (r"Su et al\.|Su, Lu, Pan, Murtadha, Wen, Liu", "2021", "2104.09864"),
    "press": (r"Press et al\.|Press, Smith(?:,| and) Lewis", "2022", "2108.12409"),
    "haviv": (r"Haviv\s+et al\.", "2022", "2203.16634"),
}
_SKIP = {"a", "code", "pre", "script", "style", "math", "h1", "h2", "h3", "h4", "h5", "h6", "title"}
_TAG = re.compile(r"(<[^>]+>)")


def _citation_pattern():
    parts = []
    for key, (authors, year, arxiv) in CITATIONS.items():
        parts.append(rf"(?P<{key}>(?:{authors})(?=[^<]{{0,40}}?{year}))")
        if arxiv:
            parts.append(rf"(?P<{key}_arxiv>arXiv:{re.escape(arxiv)})")
    return re.compile("|".join(parts))


_CITATION = _citation_pattern()


def link_citations(html: str, references: str) -> tuple[str, set[str]]:
    """Wrap each citation outside links, code, math and headings in a link to
    ``references#key``; returns the HTML and the keys cited."""
    cited, out, stack = set(), [], []
    for piece in _TAG.split(html):
        if piece.startswith("<"):
            m = re.match(r"<(/?)([a-zA-Z0-9]+)", piece)
            if m and not piece.endswith("/>"):
                name = m.group(2).lower()
                if m.group(1):
                    if name in stack:
                        while stack and stack.pop() != name:
                            pass
                elif name in _SKIP:
                    stack.append(name)
            out.append(piece)
        elif stack or not piece.strip():
            out.append(piece)
        else:
            def link(m):
                key = m.lastgroup.removesuffix("_arxiv")
                cited.add(key)
                return f'<a class="posenc-cite" href="{references}#{key}">{m.group(0)}</a>'
            out.append(_CITATION.sub(link, piece))
    return "".join(out), cited


# ------------------------------------------------------------------------------ MkDocs events

def on_config(config):
    """Without a site_url (POSENC_SITE_URL unset) MkDocs writes no canonical links and an empty
    sitemap; Material's instant navigation needs the sitemap, so it is turned off rather than
    left to fail."""
    if not config.get("site_url") and "navigation.instant" in config.theme.get("features", []):
        config.theme["features"] = [f for f in config.theme["features"] if f != "navigation.instant"]
    return config


def on_page_markdown(markdown, page, config, files):
    meta = page.meta
    if not meta.get("description") and page.file.src_uri.endswith((".py", ".ipynb")):
        import jupytext                               # a notebook: its first Markdown cell
        cells = [c.source for c in jupytext.read(page.file.abs_src_path).cells
                 if c.cell_type == "markdown"]
        meta["description"] = describe(re.sub(r"^#.*\n", "", cells[0], flags=re.M)) if cells else ""
    if not meta.get("description"):
        meta["description"] = describe(markdown)
    if shows_minutes(page.file.src_uri):
        minutes = page_minutes(page.file.src_uri)     # the source file, as the home page's list
        meta["reading_minutes"] = minutes
        up = "../" * page.file.src_uri.count("/")
        line = (f"{minutes} min read · [notation]({up}notation.md) · "
                f"[references]({up}references.md)\n{{: .posenc-meta }}")
        markdown = re.sub(r"^(# .*\n)", lambda m: m.group(1) + "\n" + line + "\n", markdown, count=1,
                          flags=re.M)

    def minutes_of(m):
        return f'<span class="posenc-minutes">({page_minutes(m.group(1))} min)</span>'
    return MINUTES_MARKER.sub(minutes_of, markdown)


def on_page_content(html, page, config, files):
    if page.file.src_uri == "references.md":
        return exclude_figures_from_search(html)
    depth = page.url.count("/")
    html, _ = link_citations(html, "../" * depth + "references/")
    # Here, not in on_post_page: the search plugin indexes the page before that.
    return name_empty_headers(exclude_figures_from_search(html))


def name_empty_headers(html: str) -> str:
    """A table's empty corner header (a Markdown table whose first header cell is blank) gets
    a name for screen readers: an empty <th> tells them nothing (axe: empty-table-header)."""
    return re.sub(r"<th([^>]*)></th>", r'<th\1><span class="posenc-sr">row</span></th>', html)


def on_post_page(output, page, config):
    output = name_search_dialog(output)
    if getattr(page, "nb_url", None):
        output = trim_notebook(output)
    return output


def relative_404(html: str, site_path: str | None) -> str:
    """404.html is served at any depth. Its root-absolute links become relative, and when the
    site's path is known (site_url) a <base> makes them resolve from the site's root. Links that
    MkDocs wrote with that path ("/posenc/tour/") lose it too, or the <base> would double it."""
    if site_path and site_path != "/":
        html = re.sub(r'((?:href|src)=")' + re.escape(site_path), r"\1", html)
    html = re.sub(r'((?:href|src)=")/(?!/)', r"\1", html)
    html = html.replace('href="."', 'href="./"')
    if site_path:
        html = html.replace("<head>", f'<head>\n<base href="{site_path}">', 1)
    return html


def on_post_build(config):
    from urllib.parse import urlsplit
    path = Path(config.site_dir) / "404.html"
    if path.exists():
        site = config.get("site_url")
        path.write_text(relative_404(path.read_text(), urlsplit(site).path if site else None))

