"""The strict site build (the first test here; under ``make test``, POSENC_BUILD=always) and
every link of the built site under its sub-path."""

from __future__ import annotations

from urllib.parse import urlparse

from browsing import ROOT, SUBPATH, site_pages


def test_strict_site_build(site_dir):
    """The site builds with --strict (warnings are errors; math, links and anchors checked by
    the build) and every page of the nav is there."""
    from mkdocs.config import load_config

    def pages(nav):
        for item in nav:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                yield from pages(value)
            elif isinstance(value, str) and not value.startswith(("http:", "https:")):
                yield value

    config = load_config(str(ROOT / "mkdocs.yml"))
    sources = list(pages(config.nav))
    assert len(sources) >= 18, sources
    for source in sources:
        stem = source.removesuffix(".md").removesuffix(".py").removesuffix(".ipynb")
        folder = "" if stem == "index" else stem.removesuffix("/index")   # api/index.md -> api/
        html = site_dir / folder / "index.html"
        assert html.exists(), f"{source} was not built ({html})"


def test_every_link_of_the_built_site_works_under_a_sub_path(site_dir, base_url):
    """Issue 41: crawl every page of the built folder from the sub-path it is served under:
    every internal link and resource answers 200 (anchors included: the target has the id),
    none leaves the sub-path, and nothing the page loads (scripts, styles, images, frames,
    fonts) comes from another host."""
    import urllib.error
    import urllib.request
    from html.parser import HTMLParser
    from urllib.parse import unquote, urljoin, urldefrag

    class Links(HTMLParser):
        def __init__(self):
            super().__init__()
            self.links, self.loads, self.ids, self.base = [], [], set(), None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "base" and a.get("href"):
                self.base = a["href"]
            if a.get("id"):
                self.ids.add(a["id"])
            if tag == "a" and a.get("href"):
                self.links.append(a["href"])
            for key in ("src", "data-src"):
                if a.get(key):
                    self.loads.append(a[key])
            if tag == "link" and a.get("href") and a.get("rel") not in ("canonical", "alternate"):
                self.loads.append(a["href"])

    def parse(url):
        with urllib.request.urlopen(url) as r:
            body = r.read().decode("utf-8", "replace")
        parser = Links()
        parser.feed(body)
        return parser

    parsed, broken, outside, loads_off_site = {}, [], [], []
    pages = [base_url + p for p in site_pages(site_dir)] + [base_url + "404.html"]
    for page in pages:
        parsed[page] = parse(page)
    checked = {}
    for page, found in parsed.items():
        here = urljoin(page, found.base) if found.base else page
        for ref, is_load in [(h, False) for h in found.links] + [(s, True) for s in found.loads]:
            target, anchor = urldefrag(urljoin(here, ref))
            host = urlparse(target)
            if host.scheme in ("mailto", "data", "javascript", "blob"):
                continue
            if host.netloc != urlparse(base_url).netloc:
                if is_load:
                    loads_off_site.append(f"{page}: {ref}")
                continue                      # a link to another site is not a request
            if not host.path.startswith(SUBPATH):
                outside.append(f"{page}: {ref}")
                continue
            if target not in checked:
                try:
                    with urllib.request.urlopen(target) as r:
                        checked[target] = r.status
                except urllib.error.HTTPError as e:
                    checked[target] = e.code
            if checked[target] != 200:
                broken.append(f"{page}: {ref} ({checked[target]})")
            elif anchor and target in parsed and unquote(anchor) not in parsed[target].ids:
                broken.append(f"{page}: {ref} (no id {anchor!r})")
    assert len(parsed) >= 19 and len(checked) >= 50, (len(parsed), len(checked))
    assert not broken, f"{len(broken)} broken internal links: {broken[:20]}"
    assert not outside, f"{len(outside)} links leave the sub-path {SUBPATH}: {outside[:20]}"
    assert not loads_off_site, f"resources from another host: {loads_off_site[:20]}"
