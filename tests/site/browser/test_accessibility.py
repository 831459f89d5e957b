"""axe-core on the built pages at both widths (a sample and the pages that differ from main;
POSENC_AXE_ALL=1: every page), and each page's metadata."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

from browsing import EXPLORE, ROOT, site_pages, Watched


# ------------------------------------------------------------------------------ accessibility

AXE_VERSION = "4.14.1"           # keep in step with AXE_VERSION in the Makefile
AXE = ROOT / ".cache" / f"axe-core-{AXE_VERSION}" / "axe.min.js"


def axe_source() -> str:
    """axe-core from the npm registry (`npm pack`), kept in .cache/ (git-ignored) for the test
    run only: it is never part of the site. `make test` fetches it first; so does this."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            reason = "NO NPM: axe-core could not be fetched; the accessibility test did NOT run."
            warnings.warn(reason)
            pytest.skip(reason)
        import tarfile
        AXE.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "pack", "-q", f"axe-core@{AXE_VERSION}"], cwd=AXE.parent, check=True,
                       capture_output=True, timeout=300)
        tgz = AXE.parent / f"axe-core-{AXE_VERSION}.tgz"
        with tarfile.open(tgz) as archive:
            AXE.write_bytes(archive.extractfile("package/axe.min.js").read())
        tgz.unlink()
    return AXE.read_text()


AXE_VIEW = """async ([urls, rules, contrasted]) => {
    // Colour contrast is by far the slowest rule (every code token is a node); colours come
    // from the site's CSS alone, so it runs on a sample of pages that hold every kind of text.
    const options = url => {
        const o = rules ? {runOnly: {type: 'rule', values: rules}} : {};
        o.resultTypes = ['violations'];
        if (!rules && !contrasted.some(c => url.endsWith('/' + c))) o.rules = {'color-contrast': {enabled: false}};
        return o;
    };
    const serious = v => ['serious', 'critical'].includes(v.impact);
    const report = (url, r) => r.violations.filter(serious).map(v =>
        `${url}: ${v.id} (${v.impact}) x${v.nodes.length}: ${v.nodes[0].target.join(' ')}`);
    // The whole first page (header, navigation, search dialog, footer), then every page's
    // article swapped into it, with its explorers mounted.
    const found = report(urls[0], await axe.run(document, options(urls[0])));
    const here = document.querySelector('.md-content__inner');
    for (const url of urls.slice(1)) {
        const doc = new DOMParser().parseFromString(await (await fetch(url)).text(), 'text/html');
        here.innerHTML = doc.querySelector('.md-content__inner').innerHTML;
        window.posencExplorers.mountAll();
        // What Material's scripts do to a page they load: tables wrapped in a scrolling box,
        // code blocks that scroll made focusable; then reader.js names the wide boxes.
        for (const t of here.querySelectorAll('table:not([class])')) {
            const outer = document.createElement('div'), inner = document.createElement('div');
            outer.className = 'md-typeset__scrollwrap'; inner.className = 'md-typeset__table';
            t.replaceWith(outer); outer.append(inner); inner.append(t);
        }
        for (const c of here.querySelectorAll('pre > code'))
            if (c.scrollWidth > c.clientWidth) c.tabIndex = 0;
        window.posencFocusWide();
        found.push(...report(url, await axe.run(here, options(url))));
    }
    return found; }"""


PHONE_RULES = ["scrollable-region-focusable", "target-size", "meta-viewport", "region",
               "landmark-unique", "nested-interactive", "aria-hidden-focus"]
# Pages on which colour contrast is checked (at 1280 px): prose, links, every code token
# colour, tables, admonitions, figures, the explorers, the notebook and the API reference.
CONTRAST_SAMPLE = ["explore/", "", "chapters/07-why-pair-sine-with-cosine/", "notebooks/playground/",
                   "api/build/", "references/"]


def changed_pages(built: list[str], root: Path = ROOT, base: str | None = None) -> list[str]:
    """The pages of ``built`` whose source in docs/ differs from ``base`` (POSENC_AXE_BASE,
    default main): changed since the branch left it, committed or not, or new. Empty when git
    or the base is missing, and on main itself (CI's clean clone: the sample alone)."""
    base = base or os.environ.get("POSENC_AXE_BASE", "main")

    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              check=True, timeout=30).stdout.split()

    try:
        [fork] = git("merge-base", "HEAD", base)
        names = git("diff", "--name-only", fork, "--", "docs")
        names += git("ls-files", "--others", "--exclude-standard", "docs")
    except (OSError, ValueError, subprocess.SubprocessError):
        return []
    found = set()
    for name in names:
        stem = name.removeprefix("docs/").rsplit(".", 1)[0]
        page = "" if stem == "index" else stem.removesuffix("/index") + "/"
        if name.endswith((".md", ".py")) and page in built:
            found.add(page)
    return sorted(found)


def axe_pages(site_dir: Path) -> list[str]:
    """Every page with POSENC_AXE_ALL=1 (CI's browser leg); otherwise (`make test`, a bare
    `pytest`) CONTRAST_SAMPLE, which holds every kind of content and all of the page chrome,
    plus every page whose source differs from main (changed_pages)."""
    built = site_pages(site_dir)
    if os.environ.get("POSENC_AXE_ALL"):
        return built
    return CONTRAST_SAMPLE + [p for p in changed_pages(built) if p not in CONTRAST_SAMPLE]


def test_changed_pages_are_the_edited_sources(tmp_path):
    """changed_pages names a page edited (committed or not) or added since main, maps docs/ paths
    to the site's pages, and names nothing on main itself or without git."""
    git = lambda *a: subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c",
                                     "user.email=t@t", *a], check=True, capture_output=True)
    for name in ("index.md", "api/index.md", "chapters/01-a.md", "chapters/02-b.md", "notes.txt"):
        (tmp_path / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / name).write_text("x\n")
    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-q", "-m", "base")
    built = ["", "api/", "chapters/01-a/", "chapters/02-b/", "chapters/03-c/"]
    assert changed_pages(built, tmp_path) == []
    git("checkout", "-q", "-b", "topic")
    for name in ("index.md", "api/index.md", "chapters/01-a.md", "notes.txt"):
        (tmp_path / "docs" / name).write_text("y\n")
    git("commit", "-q", "-am", "edit")
    (tmp_path / "docs" / "chapters" / "02-b.md").write_text("uncommitted\n")
    (tmp_path / "docs" / "chapters" / "03-c.md").write_text("new\n")
    assert changed_pages(built, tmp_path) == sorted(built)
    assert changed_pages(built, tmp_path, base="no-such-branch") == []
    assert changed_pages(built, tmp_path / "docs" / "nowhere") == []


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_nothing_serious(browser, base_url, site_dir, width):
    """axe-core reports no serious or critical violation (WCAG 2.x A/AA and best practices) on
    any page, on a desktop and on a phone, in the light scheme; the page chrome is checked once
    in full, each page's article in turn (swapped into one loaded page, as above). Colour
    contrast runs on CONTRAST_SAMPLE at 1280 px; the phone run takes the width-bound rules.
    Which pages: axe_pages (every page in CI; the sample and the changed pages in `make test`,
    as every page costs about four minutes on the loaded 2-core machine)."""
    source = axe_source()
    w = Watched(browser.new_context(viewport={"width": width, "height": 800}))
    w.page.goto(base_url + EXPLORE, wait_until="load")
    w.page.add_script_tag(content=source)
    pages = axe_pages(site_dir)
    urls = [base_url + EXPLORE] + [base_url + p for p in pages if p != EXPLORE]
    # Colours and names do not change with the width: the phone run takes the rules that do.
    rules = None if width > 500 else PHONE_RULES
    found = w.page.evaluate(AXE_VIEW, [urls, rules, CONTRAST_SAMPLE])
    w.close()
    w.check()
    assert not found, "axe-core, serious or critical:\n" + "\n".join(found)


def test_metadata_per_page(site_dir):
    """Each page has its own <title> and description; no canonical link or sitemap entry points
    at localhost unless the build was told so (POSENC_SITE_URL); the 404 page uses relative
    asset paths; the search index skips figure source code."""
    import json
    titles, descriptions = {}, {}
    for page in site_pages(site_dir):
        html = (site_dir / page / "index.html").read_text()
        titles[page] = re.search(r"<title>([^<]*)</title>", html).group(1)
        descriptions[page] = re.search(r'<meta name="description" content="([^"]*)"', html).group(1)
    assert len(set(titles.values())) == len(titles), titles
    assert titles[""] != "posenc" and len(set(descriptions.values())) == len(descriptions), descriptions
    if "localhost" not in os.environ.get("POSENC_SITE_URL", ""):
        assert "localhost" not in (site_dir / "sitemap.xml").read_text()
    missing = (site_dir / "404.html").read_text()
    assert 'href="/assets' not in missing and 'src="/assets' not in missing
    assert "Page not found" in missing and "references/" in missing
    index = json.loads((site_dir / "search" / "search_index.json").read_text())
    figure_code = [d["location"] for d in index["docs"]    # API examples and notebooks may show it
                   if re.search(r"\bfig = ", d["text"])        # not "config = "
                   and not d["location"].startswith(("api/", "notebooks/"))]
    assert not figure_code, f"figure source code is indexed: {figure_code}"
