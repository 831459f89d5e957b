"""The explorers on the static site, driven in headless Chromium and checked against posenc.

The first test is the strict site build itself, into ``site/``: always under ``make test``
(``POSENC_BUILD=always``), otherwise only when ``site/`` is older than a source file. The others
serve that site on 127.0.0.1, open pages in Debian's Chromium
through Playwright, moves the sliders, reads the numbers the explorers display and compares each
with the package, to the precision displayed. Any console error, uncaught exception or request
to another host fails the test. Screenshots land in ``artifacts/browser/`` for a human to look at.

No browser is ever downloaded (never ``playwright install``): if ``chromium`` is missing and we
are root, Debian's package is installed, as ``make install`` does; otherwise the tests skip with
a loud reason.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from urllib.parse import urlparse

import matplotlib
import numpy as np
import pytest

import posenc
from conftest import _half_unit

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
ARTIFACTS = ROOT / "artifacts" / "browser"
SOURCES = ["docs", "overrides", "hooks", "posenc", "mkdocs.yml"]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
EXPLORERS = ["pair", "matrix", "offset", "clock"]
EXPLORE = "explore/"
# The site is built and served under a sub-path, as on GitHub Pages (https://USER.github.io/REPO/):
# every browser test, the downloads and the in-page lab included, runs from it, and the server
# answers 404 outside it (issue 41).
SUBPATH = "/posenc/"


# ------------------------------------------------------------------------------ browser, site

def find_chromium() -> str | None:
    """Debian's chromium; installed with apt-get when missing and we are root (as CI is)."""
    path = shutil.which("chromium")
    if path is None and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run("apt-get update && apt-get install -y chromium", shell=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1200)
        path = shutil.which("chromium")
    return path


def newest_source_mtime() -> float:
    newest = 0.0
    for name in SOURCES:
        path = ROOT / name
        files = [path] if path.is_file() else (p for p in path.rglob("*") if p.is_file())
        for f in files:
            if "__pycache__" not in f.parts:
                newest = max(newest, f.stat().st_mtime)
    return newest


# Under pytest-xdist (`make test`: -n 2 --dist loadfile) this module runs on one worker, build
# first, while the other worker takes the unit and doc tests (loadfile also keeps each page's
# examples together and in order, as Sybil needs).


@pytest.fixture(scope="module")
def site_dir() -> Path:
    # tests/test_lab_widget.py uses this fixture too, maybe on the other xdist worker: one build
    # per test run (a marker holds the run's id), the other module waiting on a lock for it.
    import fcntl

    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    marker = ROOT / ".cache" / "site-built-by"
    marker.parent.mkdir(exist_ok=True)
    with open(ROOT / ".cache" / "site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists() and marker.read_text() == run and (SITE / EXPLORE / "index.html").exists():
            return SITE
        marker.unlink(missing_ok=True)
        site = _build_site()
        marker.write_text(run)
        return site


def _build_site() -> Path:
    built = SITE / EXPLORE / "index.html"
    fresh = built.exists() and built.stat().st_mtime >= newest_source_mtime()
    # A site built without POSENC_SITE_URL has no sitemap, so no instant navigation to test.
    fresh = fresh and f"<loc>http://127.0.0.1:8000{SUBPATH}" in (SITE / "sitemap.xml").read_text()
    if fresh and os.environ.get("POSENC_BUILD") != "always":
        return SITE                                   # `make docs` output, newer than every source
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", MPLBACKEND="Agg")
    env.setdefault("POSENC_SITE_URL", f"http://127.0.0.1:8000{SUBPATH}")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--clean",
                             "--site-dir", str(SITE)],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return SITE


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


@pytest.fixture(scope="module")
def base_url(site_dir):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def translate_path(self, path):
            # only SUBPATH is the site; "/posenc" alone redirects to "/posenc/"
            bare = urlparse(path).path
            if bare + "/" == SUBPATH:
                return str(site_dir)
            if not bare.startswith(SUBPATH):
                return str(site_dir / "does-not-exist" / "outside-the-sub-path")
            return super().translate_path(path[len(SUBPATH) - 1:])

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=str(site_dir)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{SUBPATH}"
    server.shutdown()


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


@pytest.fixture(scope="module")
def browser():
    executable = find_chromium()
    if executable is None:
        reason = ("NO BROWSER: `chromium` is not on PATH and could not be installed (needs root "
                  "and apt-get: `apt-get install chromium`). The explorers were NOT tested.")
        warnings.warn(reason)                         # shows in the summary even without -rs
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=FLAGS)
        yield chromium
        chromium.close()


class Watched:
    """A page whose console errors, uncaught exceptions and outside requests are recorded."""

    def __init__(self, context):
        self.context, self.errors, self.outside = context, [], []
        context.set_default_timeout(10_000)
        context.route("**/*", self._route)
        self.page = context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _route(self, route):
        url = urlparse(route.request.url)
        if url.hostname == "127.0.0.1" and url.path.endswith("/sitemap.xml"):
            # Material's instant navigation only follows links listed in the sitemap, whose URLs
            # carry site_url's port (localhost:8000); this server has a random port, so point the
            # sitemap here, as it would be on a site served where site_url says.
            # Without POSENC_SITE_URL the sitemap's URLs are paths ("/explore/"): make them
            # this server's URLs too, as a site built with its site_url would have them.
            response = route.fetch()
            here = f"{url.scheme}://{url.netloc}/"
            found = re.search(r"<loc>(\w+://[^/]+/|/)", response.text())
            body = response.text().replace(f"<loc>{found.group(1)}", f"<loc>{here}") if found else response.text()
            route.fulfill(response=response, body=body)
        elif url.hostname == "127.0.0.1":
            route.continue_()
        else:                                         # never let it leave the machine
            self.outside.append(route.request.url)
            route.abort()

    def close(self):
        self.context.unroute_all(behavior="ignoreErrors")
        self.context.close()

    def check(self):
        assert not self.errors, f"console errors: {self.errors}"
        assert not self.outside, f"requests that tried to leave 127.0.0.1: {self.outside}"


@pytest.fixture
def watched(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    w = Watched(context)
    yield w
    w.close()
    w.check()


@pytest.fixture(scope="module")
def explore_page(browser, base_url):
    """One explore page shared by the tests that only move sliders (a page load costs ~2 s)."""
    w = Watched(browser.new_context(viewport={"width": 1280, "height": 900}))
    open_explore(w, base_url)
    yield w
    w.close()
    w.check()


@pytest.fixture
def explore(explore_page):
    yield explore_page.page
    explore_page.check()                              # errors are charged to the test that caused them


def open_explore(w: Watched, base_url: str):
    w.page.goto(base_url + EXPLORE, wait_until="load")
    w.page.wait_for_function("document.querySelectorAll('.posenc-explorer[data-mounted]').length === 4")
    return w.page


# ------------------------------------------------------------------------------ reading numbers

def plain_number(text: str) -> str:
    """A read-out as written for people (true minus, 1.234 × 10⁻⁴) back to Python's syntax."""
    text = text.strip().replace("\u2212", "-")
    m = re.fullmatch(r"([-+]?[\d.]+)\s*\u00d7\s*10\s*([-+]?\d+)", text)
    return f"{m.group(1)}e{m.group(2)}" if m else text


def assert_shown(text: str, value: float, what: str = ""):
    """``text`` is ``value`` correctly rounded to the digits shown."""
    text = plain_number(text)
    shown = float(text)
    tolerance = _half_unit(text.lstrip("+-")) * (1 + 1e-9)
    assert abs(shown - value) <= tolerance, f"{what}: shows {text}, posenc gives {value!r}"


def _scope(page, root):
    """An explorer: a CSS selector matching one, or a Locator."""
    return page.locator(root) if isinstance(root, str) else root


def set_input(page, root, name: str, value):
    handle = _scope(page, root).locator(f"[data-in='{name}']")
    if handle.evaluate("el => el.tagName") == "SELECT":
        handle.select_option(str(value))
    else:
        handle.evaluate("(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }",
                        str(value))
    assert handle.input_value() == str(value), f"{name} did not take the value {value}"


def out(page, root, name: str) -> str:
    return _scope(page, root).locator(f"[data-out='{name}']").inner_text().strip()


def shown(page, root, name: str) -> str:
    """What a control shows beside its slider: a number box's value, or an output's text."""
    handle = _scope(page, root).locator(f"[data-show='{name}']")
    return handle.input_value() if handle.evaluate("el => el.tagName") == "INPUT" else handle.inner_text()


def numbers(text: str) -> list[str]:
    text = text.replace("\u2212", "-")
    return text.replace("(", " ").replace(")", " ").replace("[", " ").replace("]", " ").replace(",", " ").split()


def shot(target, name: str):
    """Save a screenshot for a human to look at; `make test` turns them off (POSENC_SCREENSHOTS=0)
    to save time, `python -m pytest tests/test_browser.py` and scripts/screenshots.py take them."""
    if os.environ.get("POSENC_SCREENSHOTS", "1") == "0":
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if not hasattr(target, "goto"):                   # an element: clear of the sticky header
        target.evaluate("e => e.scrollIntoView({block: 'center'})")
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"), **({"full_page": True} if hasattr(target, "goto") else {}))


# ------------------------------------------------------------------------------ the explorers

@pytest.mark.parametrize("a, b, d_model, exponent", [(3, 7, 8, 4), (0, 200, 64, 4), (17, 18, 12, 1), (150, 5, 30, 5)])
def test_pair_shows_what_posenc_computes(explore, a, b, d_model, exponent):
    page, root = explore, ".posenc-explorer[data-explorer='pair']"
    for name, value in (("a", a), ("b", b), ("d_model", d_model), ("base", exponent)):
        set_input(page, root, name, value)
    base = 10.0 ** exponent
    assert shown(page, root, "base") == str(int(base))
    pe = posenc.encode([a, b], d_model, base=base)
    omega = posenc.frequencies(d_model, base)
    assert_shown(out(page, root, "dot"), pe[0] @ pe[1], "dot product")
    assert_shown(out(page, root, "cosine"), pe[0] @ pe[1] / np.linalg.norm(pe[0]) / np.linalg.norm(pe[1]), "cosine")
    assert_shown(out(page, root, "distance"), np.linalg.norm(pe[0] - pe[1]), "distance")
    rows = page.locator(f"{root} tbody tr").evaluate_all("rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert len(rows) == d_model
    for j, (dim, i, fn, w, va, vb, diff) in enumerate(rows):
        assert (int(dim), int(i), fn) == (j, j // 2, "cos" if j % 2 else "sin")
        assert_shown(w, omega[j // 2], f"omega of dimension {j}")
        assert_shown(va, pe[0, j], f"PE(A)[{j}]")
        assert_shown(vb, pe[1, j], f"PE(B)[{j}]")
        assert_shown(diff, pe[0, j] - pe[1, j], f"difference at {j}")


def _puor(value: float):
    return [round(255 * c) for c in matplotlib.colormaps["PuOr"]((value + 1) / 2)[:3]]


@pytest.mark.parametrize("n, d_model, exponent, layout", [(50, 64, 4, "interleaved"), (30, 16, 2, "concatenated"),
                                                          (200, 256, 4, "concatenated")])
def test_matrix_reads_out_posenc_values(explore, n, d_model, exponent, layout):
    page, root = explore, ".posenc-explorer[data-explorer='matrix']"
    for name, value in (("n", n), ("d_model", d_model), ("base", exponent), ("layout", layout)):
        set_input(page, root, name, value)
    table = posenc.encode(n, d_model, base=10.0 ** exponent, layout=layout)
    canvas = page.locator(f"{root} canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    for pos, dim in ((n - 1, 0), (n // 3, d_model // 2 + 1), (1, d_model - 1)):
        x = box["x"] + (dim + 0.5) * box["width"] / d_model
        y = box["y"] + (pos + 0.5) * box["height"] / n
        page.mouse.move(x, y)
        assert (int(out(page, root, "pos")), int(out(page, root, "dim"))) == (pos, dim)
        assert_shown(out(page, root, "value"), table[pos, dim], f"PE[{pos}, {dim}]")
    page.mouse.move(0, 0)                             # no pointer and no focus: no cursor drawn
    page.evaluate("document.activeElement.blur()")
    # The colour drawn in each cell is matplotlib's PuOr at its value, as in the site's figures.
    size = canvas.evaluate("c => [c.width, c.height]")
    for pos, dim in ((n - 1, 0), (n // 3, d_model // 2 + 1), (1, d_model - 1), (n // 2, d_model // 3)):
        pixel = [int((dim + 0.5) * size[0] / d_model), int((pos + 0.5) * size[1] / n)]
        rgb = canvas.evaluate("(c, p) => [...c.getContext('2d').getImageData(p[0], p[1], 1, 1).data].slice(0, 3)",
                              pixel)
        assert max(abs(p - q) for p, q in zip(rgb, _puor(table[pos, dim]))) <= 4, (pos, dim, rgb)
    # Keyboard: the heatmap takes focus and the arrow keys move the read-out.
    canvas.focus()
    start = int(out(page, root, "pos")), int(out(page, root, "dim"))
    for key in ("ArrowDown", "ArrowDown", "ArrowLeft"):
        page.keyboard.press(key)
    pos, dim = start[0] + 2, start[1] - 1
    assert (int(out(page, root, "pos")), int(out(page, root, "dim"))) == (pos, dim)
    assert_shown(out(page, root, "value"), table[pos, dim], f"PE[{pos}, {dim}] by keyboard")


@pytest.mark.parametrize("ref, d_model, exponent, k", [(100, 64, 4, 5), (0, 8, 4, -50), (999, 128, 2, 37)])
def test_offset_shows_sum_of_cosines(explore, ref, d_model, exponent, k):
    page, root = explore, ".posenc-explorer[data-explorer='offset']"
    for name, value in (("ref", ref), ("d_model", d_model), ("base", exponent), ("k", k)):
        set_input(page, root, name, value)
    base = 10.0 ** exponent
    pe = posenc.encode([ref, ref + k, ref - k], d_model, base=base)
    assert_shown(out(page, root, "plus"), pe[0] @ pe[1], "PE(ref).PE(ref+k)")
    assert_shown(out(page, root, "minus"), pe[0] @ pe[2], "PE(ref).PE(ref-k)")
    assert_shown(out(page, root, "cos"), np.cos(posenc.frequencies(d_model, base) * k).sum(), "sum of cos")
    assert out(page, root, "gap").startswith("below 1e-9")
    # The plotted dots do not move with the reference position, and are symmetric in k.
    dots = lambda: page.locator(f"{root} .posenc-plot__dots circle").evaluate_all(
        "cs => cs.map(c => Number(c.getAttribute('cy')))")
    here = dots()
    assert len(here) == 101 and np.allclose(here, here[::-1], atol=0.11)
    set_input(page, root, "ref", 1000 - ref)
    assert np.allclose(dots(), here, atol=0.11)


@pytest.mark.parametrize("d_model, i, pos, k, exponent", [(16, 1, 2, 3, 4), (128, 63, 100, -50, 5), (4, 0, 0, 50, 1)])
def test_clock_rotation_matches_posenc(explore, d_model, i, pos, k, exponent):
    page, root = explore, ".posenc-explorer[data-explorer='clock']"
    for name, value in (("d_model", d_model), ("i", i), ("pos", pos), ("k", k), ("base", exponent)):
        set_input(page, root, name, value)
    assert page.locator(f"{root} [data-in='i']").get_attribute("max") == str(d_model // 2 - 1)
    base = 10.0 ** exponent
    omega = posenc.frequencies(d_model, base)[i]
    pe = posenc.encode([pos, pos + k], d_model, base=base)
    assert_shown(out(page, root, "omega"), omega, "omega_i")
    assert_shown(out(page, root, "angle"), omega * k, "omega_i k")
    for name, expected in (("now", pe[0, 2 * i:2 * i + 2]), ("then", pe[1, 2 * i:2 * i + 2]),
                           ("rotated", pe[1, 2 * i:2 * i + 2])):
        shown = numbers(out(page, root, name))
        assert len(shown) == 2
        for text, value in zip(shown, expected):
            assert_shown(text, value, name)
    phi = omega * k
    matrix = [np.cos(phi), np.sin(phi), -np.sin(phi), np.cos(phi)]
    for text, value in zip(numbers(out(page, root, "matrix")), matrix, strict=True):
        assert_shown(text, value, "rotation matrix")


def test_sliders_work_with_the_keyboard(explore):
    page, root = explore, ".posenc-explorer[data-explorer='pair']"
    set_input(page, root, "d_model", 8)
    set_input(page, root, "base", 4)
    slider = page.locator(f"{root} [data-in='a']")
    label = page.locator(f"{root} label[for='{slider.get_attribute('id')}']")
    assert label.inner_text() == "position A"
    slider.focus()
    page.keyboard.press("Home")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert slider.input_value() == "5"
    assert shown(page, root, "a") == "5"
    page.keyboard.press("Tab")                        # the number box beside it
    page.keyboard.press("Tab")                        # on to position B
    page.keyboard.press("End")
    assert shown(page, root, "b") == "200"
    pe = posenc.encode([5, 200], 8)
    assert_shown(out(page, root, "dot"), pe[0] @ pe[1], "dot after keyboard input")


def test_explorer_works_after_instant_navigation(watched, base_url):
    page = watched.page
    # Material intercepts a link only once it has fetched sitemap.xml (after "load"); a click
    # before that is a full page load. Wait for the network to go quiet first.
    page.goto(base_url, wait_until="networkidle")
    page.evaluate("window.__sameDocument = true")
    page.locator(".md-nav__link[href$='explore/']").first.click()
    page.wait_for_function("document.querySelectorAll('.posenc-explorer[data-mounted]').length === 4")
    assert page.evaluate("window.__sameDocument === true"), "navigation reloaded the page: not instant"
    root = ".posenc-explorer[data-explorer='clock']"
    set_input(page, root, "k", 7)
    assert_shown(out(page, root, "angle"), posenc.frequencies(16)[1] * 7, "omega_i k after navigation")
    # Away and back again, and through the history: each explorer is mounted exactly once.
    page.locator(".md-nav__link[href$='chapters/01-why-positions/']").first.click()
    page.wait_for_function("!document.querySelector('.posenc-explorer')")
    page.go_back()
    page.wait_for_function("document.querySelectorAll('.posenc-explorer[data-mounted]').length === 4")
    assert page.evaluate("window.__sameDocument === true")
    counts = page.locator(".posenc-explorer").evaluate_all(
        "els => els.map(e => e.querySelectorAll(':scope > .posenc-controls').length)")
    assert counts == [1, 1, 1, 1]
    shot(page.locator(".posenc-explorer[data-explorer='pair']"), "after-instant-navigation-pair")


def test_any_page_can_host_any_explorer_twice(watched, base_url):
    page = watched.page
    page.goto(base_url + "chapters/01-why-positions/", wait_until="load")
    page.evaluate("""() => {
        const here = document.querySelector('.md-content article');
        for (const name of ['matrix', 'clock', 'clock']) {
            const div = document.createElement('div');
            div.className = 'posenc-explorer';
            div.dataset.explorer = name;
            here.append(div);
        }
        window.posencExplorers.mountAll();
        window.posencExplorers.mountAll();           // a second call must not mount again
    }""")
    clocks = ".posenc-explorer[data-explorer='clock']"
    assert page.locator(f"{clocks} .posenc-controls").count() == 2
    ids = page.locator("[data-in]").evaluate_all("els => els.map(e => e.id)")
    assert len(ids) == len(set(ids)), "two explorers on one page share an element id"
    first, second = page.locator(clocks).nth(0), page.locator(clocks).nth(1)
    set_input(page, first, "k", -20)
    assert_shown(out(page, first, "angle"), posenc.frequencies(16)[1] * -20, "first clock")
    assert_shown(out(page, second, "angle"), posenc.frequencies(16)[1] * 3, "second clock, untouched")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_and_phone_width(browser, base_url, scheme):
    """Light and dark mode, desktop and phone (390 px): nothing overflows; screenshots to look at."""
    w = Watched(browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900}))
    page = open_explore(w, base_url)
    assert page.evaluate("document.querySelector('[data-md-color-scheme]').dataset.mdColorScheme") == \
        {"light": "default", "dark": "slate"}[scheme]
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        tag = f"{scheme}-{'phone' if width < 500 else 'desktop'}"
        overflow = page.evaluate("""() => [...document.querySelectorAll('.posenc-explorer')]
            .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                      || e.scrollWidth > e.clientWidth + 1).map(e => e.dataset.explorer)""")
        assert not overflow, f"explorers wider than the {width}px screen: {overflow}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"explore-{tag}")
        for name in EXPLORERS if tag in ("light-desktop", "dark-phone") else []:
            explorer = page.locator(f".posenc-explorer[data-explorer='{name}']")
            if name == "matrix":
                explorer.evaluate("e => e.scrollIntoView({block: 'center'})")
                canvas = explorer.locator("canvas").bounding_box()
                page.mouse.move(canvas["x"] + canvas["width"] * 0.3, canvas["y"] + canvas["height"] * 0.4)
            shot(explorer, f"{name}-{tag}")
    w.close()
    w.check()


def test_notebook_page_renders_and_downloads(watched, base_url):
    page = watched.page
    page.goto(base_url + "notebooks/playground/", wait_until="load")
    assert page.locator("h1").first.inner_text().startswith("Notebook playground")
    assert page.locator(".jupyter-wrapper svg[role='img']").count() == 2, "the two heatmaps"
    assert "same Gram matrix (all dot products): True" in page.locator(".jupyter-wrapper").inner_text()
    stderr = "[data-mime-type='application/vnd.jupyter.stderr'], .jp-OutputArea-output.jp-mod-stderr"
    assert page.locator(".jupyter-wrapper").locator(stderr).count() == 0, "the notebook wrote to stderr"
    source = (ROOT / "docs" / "notebooks" / "playground.py").read_text()
    link = page.locator("a.posenc-download")          # the labelled .ipynb button
    assert "Download notebook (.ipynb)" in link.inner_text()
    response = page.request.get(page.evaluate("a => a.href", link.element_handle()))
    import jupytext
    assert response.ok and jupytext.writes(jupytext.reads(response.text(), fmt="ipynb"), fmt="py:percent") \
        == jupytext.writes(jupytext.reads(source, fmt="py:percent"), fmt="py:percent")
    link = page.locator("a.posenc-download-py")
    response = page.request.get(page.evaluate("a => a.href", link.element_handle()))
    assert response.ok and response.text() == source
    shot(page, "notebook-light-desktop")


def test_run_it_yourself_downloads_are_served(watched, base_url, site_dir):
    """Every file "Run it yourself" links to is in the built site and served; the wheel is the
    one hooks/downloads.py builds (tests/test_downloads.py installs it offline)."""
    from hooks import downloads
    page = watched.page
    page.goto(base_url + "run-it-yourself/", wait_until="load")
    hrefs = page.locator("a[href*='download/']").evaluate_all("as => as.map(a => a.href)")
    names = downloads.names()
    wanted = [names["POSENC_WHEEL"], names["POSENC_SDIST"], "playground.ipynb", "playground.py",
              "simple/posenc/"]
    for name in wanted:
        assert any(h.endswith("download/" + name) for h in hrefs), (name, hrefs)
    for href in hrefs:
        response = page.request.get(href)
        assert response.ok and len(response.body()) > 300, href
    wheel = site_dir / "download" / names["POSENC_WHEEL"]
    assert wheel.read_bytes() == (downloads.build_dist() / wheel.name).read_bytes()
    assert page.locator("code", has_text="POSENC_").count() == 0, "a token was not replaced"


def test_page_weight(watched, base_url, site_dir):
    """Bytes a reader downloads for the explore page; the explorers themselves stay small."""
    page, sizes = watched.page, {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())) if r.ok else None)
    open_explore(watched, base_url)
    page.wait_for_load_state("networkidle")
    assets = site_dir / "assets" / "explorers"
    own = {p.name: p.stat().st_size for p in sorted(assets.iterdir())}
    assert all(size < 12_000 for size in own.values()), own      # core.js: controls + notation
    assert sum(own.values()) < 40_000, own
    lines = [f"{size:>9,d}  {url.removeprefix(base_url)}" for url, size in sorted(sizes.items())]
    lines.append(f"{sum(sizes.values()):>9,d}  total for {EXPLORE} (explorers' own files: {sum(own.values()):,d})")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "page-weight.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------ reading every page

def site_pages(site_dir: Path) -> list[str]:
    """Every page of the site a reader sees (not the package index under download/)."""
    pages = sorted(p.parent.relative_to(site_dir).as_posix()
                   for p in site_dir.glob("**/index.html")
                   if p.parent.name != "search" and 'class="md-content__inner' in p.read_text())
    assert len(pages) >= 18, pages
    return ["" if p == "." else p + "/" for p in pages]


# For each page: swapped into one loaded page (its stylesheets and scripts), then measured.
READER_VIEW = """async urls => {
    const here = document.querySelector('.md-content__inner');
    const problems = [], matrices = [], copies = [];
    const add = (url, what) => problems.push(url + ': ' + what);
    for (const url of urls) {
        const text = await (await fetch(url)).text();
        const doc = new DOMParser().parseFromString(text, 'text/html');
        here.innerHTML = doc.querySelector('.md-content__inner').innerHTML;
        await document.fonts.ready;
        // Math: set in the self-hosted MATH font, which has loaded.
        const maths = [...here.querySelectorAll('math')];
        if (maths.length) {
            const family = getComputedStyle(maths[0]).fontFamily;
            if (!family.startsWith('"posenc math"')) add(url, 'math font-family is ' + family);
            const face = [...document.fonts].find(f => f.family.replace(/"/g, '') === 'posenc math');
            if (!face || face.status !== 'loaded') add(url, 'math font not loaded: ' + (face && face.status));
        }
        // A bracket around a matrix of two or more rows is at least two text lines tall.
        for (const table of here.querySelectorAll('mtable')) {
            if (table.querySelectorAll(':scope > mtr').length < 2) continue;
            // Two lines of the text the formula sits in (an admonition's text is smaller).
            const line = parseFloat(getComputedStyle(table.closest('math').parentElement.closest('p, li, dd, td, div')).lineHeight);
            for (const mo of [table.previousElementSibling, table.nextElementSibling]) {
                if (!mo || mo.tagName !== 'mo') continue;
                const ratio = mo.getBoundingClientRect().height / line;
                matrices.push(ratio);
                if (ratio < 2) add(url, `bracket ${ratio.toFixed(2)} lines tall around ` + table.textContent.slice(0, 30));
            }
        }
        // No formula is wider than the text column: an inline one would run off the screen, a
        // display one would need sideways scrolling (it may scroll, but should be split instead).
        const edge = here.getBoundingClientRect().right;
        for (const m of here.querySelectorAll('math:not([display=block])'))
            if (!m.closest('.posenc-math, pre, table, .md-typeset__scrollwrap') && m.getBoundingClientRect().right > edge + 1)
                add(url, 'inline math wider than the column: ' + m.textContent.slice(0, 60));
        for (const e of here.querySelectorAll('.posenc-math'))
            if (e.scrollWidth > e.clientWidth + 1) add(url, 'display math scrolls: ' + e.textContent.slice(0, 60));
        // Display formulas: nothing reaches outside the box that clips them.
        for (const box of here.querySelectorAll('.posenc-math')) {
            const edge = box.getBoundingClientRect();
            const out = [...box.querySelectorAll('math, math *')].filter(e => {
                const r = e.getBoundingClientRect();
                return r.height && (r.top < edge.top - 0.5 || r.bottom > edge.bottom + 0.5); });
            if (out.length) add(url, 'formula clipped: ' + box.textContent.slice(0, 40));
        }
        // Figure text, as drawn: at least 11 px on a desktop, 9 px on a phone (the notebook's
        // figures included: 13.3 px and 9.9 px since its own CSS gives them the full column).
        const least = window.innerWidth < 760 ? 9 : 11;
        for (const svg of here.querySelectorAll('.posenc-figure svg')) {
            const shown = svg.getBoundingClientRect();
            if (!shown.width) continue;
            const scale = shown.width / svg.viewBox.baseVal.width;
            const small = [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale)
                .filter(px => px < least - 0.05);
            if (small.length) add(url, `figure text ${Math.min(...small).toFixed(1)}px (< ${least}) in ` + svg.getAttribute('aria-label').slice(0, 40));
            if (shown.right > here.getBoundingClientRect().right + 1) add(url, 'figure wider than the column');
        }
        // The page itself never scrolls sideways; nor does a ">>>" block (output wraps).
        const wide = document.documentElement.scrollWidth - window.innerWidth;
        if (wide > 0) add(url, `page scrolls ${wide}px sideways`);
        // What the copy button of each ">>>" block copies (Material copies the text of the
        // nearest [data-copy] ancestor of the code; assets/copy.js sets it).
        window.posencCopy.prepare(here);
        for (const code of here.querySelectorAll('.highlight pre > code')) {
            if (!code.textContent.startsWith('>>> ')) continue;
            const pre = code.parentElement;
            if (pre.scrollWidth > pre.clientWidth + 1) add(url, 'a >>> block scrolls sideways: ' + code.textContent.slice(0, 50));
            const holder = code.closest('[data-copy]');
            copies.push([url, code.textContent, holder ? holder.getAttribute('data-copy') : code.innerText]);
        }
    }
    return {problems, matrices, copies};
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_every_page_reads_well(browser, base_url, site_dir, width):
    """On a phone and a desktop, on every page: math is set in the self-hosted OpenType MATH font
    and its brackets stretch (a 2x2 matrix's bracket is at least two text lines tall), no formula
    is wider than the text column (inline ones would run off a phone's screen, display ones would
    scroll) and none is clipped, figure text is at least 11 px (desktop) or 9 px (phone), the copy button
    of every ">>>" block copies Python, and the page never scrolls sideways. Each page's article is swapped into
    one loaded page, so the whole site takes a few seconds."""
    w = Watched(browser.new_context(viewport={"width": width, "height": 800}))
    w.page.goto(base_url, wait_until="load")
    found = w.page.evaluate(READER_VIEW, [base_url + p for p in site_pages(site_dir)])
    w.close()
    w.check()
    assert len(found["matrices"]) >= 4, "no 2x2 matrix found on the site (chapter 7 has several)"
    assert not found["problems"], "\n".join(found["problems"])
    # The copy button of every ">>>" block copies Python: no prompt, no printed output.
    assert len(found["copies"]) > 50, len(found["copies"])
    for url, shown, copied in found["copies"]:
        sources = [line[4:] for line in shown.splitlines() if line.startswith((">>> ", "... "))]
        assert copied.split() == " ".join(sources).split(), (url, shown, copied)
        compile(copied, url, "exec")


def test_copy_button_copies_runnable_code(browser, base_url):
    """Click the copy button of the home page's first ">>>" block, paste into Python: it runs."""
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    w = Watched(context)
    w.page.goto(base_url, wait_until="load")
    block = w.page.locator(".highlight:has(.gp)").first
    shown = block.locator("code").inner_text()
    block.hover()
    block.locator("button.md-code__button[data-md-type='copy']").click()
    copied = w.page.evaluate("navigator.clipboard.readText()")
    w.close()
    w.check()
    assert ">>>" in shown and ">>>" not in copied, copied
    result = subprocess.run([sys.executable, "-c", copied], cwd=ROOT, capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg"), timeout=60)
    assert result.returncode == 0, f"the copied code fails:\n{copied}\n{result.stderr}"


def test_number_boxes_targets_and_announcements(explore):
    """Each slider has a number box beside it: typing a value moves the slider and the read-outs.
    Sliders, boxes and selects are at least 24 px tall (WCAG 2.5.8); every explorer has a polite
    live region; the offset plot labels both axes and draws its line above the dots."""
    page, root = explore, ".posenc-explorer[data-explorer='offset']"
    box = page.locator(f"{root} [data-show='k']")
    box.fill("-12")
    box.dispatch_event("change")
    assert page.locator(f"{root} [data-in='k']").input_value() == "-12"
    pe = posenc.encode([100, 88], 64)
    set_input(page, root, "ref", 100)
    set_input(page, root, "d_model", 64)
    set_input(page, root, "base", 4)
    box.fill("-12")
    box.dispatch_event("change")
    assert_shown(out(page, root, "plus"), pe[0] @ pe[1], "after typing k = -12")
    box.fill("999")                                   # out of range: clamped to the slider's max
    box.dispatch_event("change")
    assert shown(page, root, "k") == "50"
    small = page.evaluate("""() => [...document.querySelectorAll(
            '.posenc-explorer input, .posenc-explorer select')]
        .map(e => [e.dataset.in || e.dataset.show, e.getBoundingClientRect().height])
        .filter(([, h]) => h < 24)""")
    assert not small, f"controls under 24 px tall: {small}"
    live = page.evaluate("""() => [...document.querySelectorAll('.posenc-explorer')]
        .map(e => e.querySelectorAll('[aria-live]').length)""")
    assert all(live), f"an explorer without a live region: {live}"
    page.wait_for_function("document.querySelector(\"[data-explorer='offset'] [data-out='said']\")"
                           ".textContent.includes('Offset k')")
    labels = page.locator(f"{root} svg text.posenc-plot__label").all_text_contents()
    assert labels == ["offset k", "dot product"]
    order = page.locator(f"{root} svg > *").evaluate_all("es => es.map(e => e.getAttribute('class'))")
    assert order.index("posenc-plot__line") > order.index("posenc-plot__dots")
    heads = page.locator(".posenc-explorer[data-explorer='pair'] th").all_inner_texts()
    assert len(set(heads)) == len(heads) and sum("A" in h for h in heads) == 2, heads


def test_pair_table_fits_a_phone(browser, base_url):
    w = Watched(browser.new_context(viewport={"width": 390, "height": 844}))
    open_explore(w, base_url)
    page = w.page
    set_input(page, ".posenc-explorer[data-explorer='pair']", "d_model", 64)
    wide = page.evaluate("""() => { const s = document.querySelector(
        "[data-explorer='pair'] .posenc-scroll"); return [s.scrollWidth, s.clientWidth]; }""")
    assert wide[0] <= wide[1] + 1, f"pair table scrolls sideways on a phone: {wide}"
    # Rows out of sight are announced: the hint says how many rows and that the box scrolls.
    for d_model in (8, 64):
        set_input(page, ".posenc-explorer[data-explorer='pair']", "d_model", d_model)
        tall = page.evaluate("""() => { const s = document.querySelector(
            "[data-explorer='pair'] .posenc-scroll"); return s.scrollHeight > s.clientHeight + 1; }""")
        hint = out(page, ".posenc-explorer[data-explorer='pair']", "rows")
        assert hint.startswith(f"{d_model} rows") and ("scroll" in hint) == tall, (d_model, tall, hint)
    assert tall, "64 rows fit a phone's box without scrolling?"
    w.close()
    w.check()


PHONE = {"width": 390, "height": 844}


# What a reader who lands on a page with a phone sees without scrolling (issue 41): the home
# page's link to the tour, and chapter 7's Answer with why it matters to attention.
FIRST_SCREEN = {"": ".md-content a[href$='/tour/']",          # hrefs: absolute once loaded
                "chapters/07-why-pair-sine-with-cosine/":
                    ".md-content p:has-text('Attention can use this')"}


@pytest.mark.parametrize("path", FIRST_SCREEN)
def test_a_landing_page_answers_on_a_phones_first_screen(browser, base_url, path):
    """The element lies inside the first 390 x 844 screen, in light and in dark mode."""
    for scheme in ("light", "dark"):
        w = Watched(browser.new_context(viewport=PHONE, color_scheme=scheme))
        w.page.goto(base_url + path, wait_until="load")
        link = w.page.locator(FIRST_SCREEN[path]).first
        box = link.bounding_box()
        assert w.page.evaluate("window.scrollY") == 0
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (scheme, box)
        shot(w.page, f"{path.split('/')[-2] if path else 'home'}-{scheme}-phone")
        # The measure bites: a heading's worth of text above the Answer pushes the link below.
        w.page.evaluate("""() => document.querySelector('.md-content h1').insertAdjacentHTML(
            'afterend', '<p>' + 'words '.repeat(200) + '</p>')""")
        assert link.bounding_box()["y"] + box["height"] > PHONE["height"]
        w.close()
        w.check()


LEGIBLE = 3.0        # WCAG's least contrast for large text and for graphics
FIGURE_PAGES = ["", "tour/", "chapters/05-is-one-sine-enough/", "chapters/06-many-clocks/",
                "chapters/07-why-pair-sine-with-cosine/"]


def _luminance(rgb) -> float:
    def channel(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(float(v)) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, other) -> float:
    hi, lo = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def figure_text_contrast(page, black: bool = False) -> list:
    """(text, fill, contrast) for every text of every figure on the page, folds opened: the
    text's fill against what lies under it on screen, the median colour of its box in a
    screenshot of the figure taken with its texts hidden (the page's background, or a heatmap's
    cell under an annotation). ``black``: draw every text in matplotlib's default black."""
    import io
    from PIL import Image

    page.evaluate("""() => { document.querySelectorAll('details').forEach(d => d.open = true);
        document.querySelectorAll('.tabbed-labels > label').forEach(l => {
            if (l.textContent.trim() === 'Figure') document.getElementById(l.htmlFor).checked = true; }); }""")
    found = []
    figures = page.locator(".posenc-figure svg >> visible=true")     # a phone's, of two layouts
    for n in range(figures.count()):
        svg = figures.nth(n)
        svg.scroll_into_view_if_needed()
        texts = svg.evaluate("""(s, black) => { const o = s.getBoundingClientRect();
            return [...s.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
                if (black) t.style.fill = '#000000';
                const r = t.getBoundingClientRect();
                return [t.textContent.trim(), getComputedStyle(t).fill, r.x - o.x, r.y - o.y,
                        r.width, r.height]; }); }""", black)
        svg.evaluate("s => s.querySelectorAll('text').forEach(t => t.style.visibility = 'hidden')")
        shown = Image.open(io.BytesIO(svg.screenshot())).convert("RGB")
        svg.evaluate("s => s.querySelectorAll('text').forEach(t => t.style.visibility = '')")
        pixels = np.asarray(shown)
        for text, fill, x, y, width, height in texts:
            box = pixels[max(int(y), 0):int(y + height) + 1, max(int(x), 0):int(x + width) + 1]
            if not box.size or not fill.startswith("rgb"):
                continue
            under = np.median(box.reshape(-1, 3), axis=0)
            r, g, b, *alpha = (float(v) for v in re.findall(r"[\d.]+", fill))
            a = alpha[0] if alpha else 1.0
            drawn = [a * v + (1 - a) * u for v, u in zip((r, g, b), under)]
            found.append((text, fill, round(contrast(drawn, under), 2)))
    return found


def test_figure_labels_are_legible_in_dark_mode(browser, base_url):
    """Issue 41 / tour-5 (c): in dark mode every text of every figure on the home page, the tour
    and chapters 5-7 (the clock-path figures among them, folded ones opened) contrasts at least
    3:1 with what it is drawn on. A label in matplotlib's fixed black on the dark page (the
    tour's step-4 point labels, when @styled sat on the wrong function) is about 1.3:1. The
    tour's step-4 figure is photographed."""
    w = Watched(browser.new_context(viewport=PHONE, color_scheme="dark"))
    found = {}
    for path in FIGURE_PAGES:
        w.page.goto(base_url + path, wait_until="load")
        assert w.page.evaluate(
            "document.querySelector('[data-md-color-scheme]').dataset.mdColorScheme") == "slate"
        if path == "tour/":
            shot(w.page.locator(".posenc-figure >> visible=true").nth(1), "tour-step4-dark-phone")
        found[path] = figure_text_contrast(w.page)
    w.close()
    w.check()
    assert all(len(texts) > 10 for texts in found.values()), {p: len(t) for p, t in found.items()}
    faint = [(path, text, fill, ratio) for path, texts in found.items()
             for text, fill, ratio in texts if ratio < LEGIBLE]
    assert not faint, faint


def test_the_contrast_check_bites(browser, base_url):
    """The same measure on the tour with every figure text in black, as the old step-4 labels:
    the labels on the dark page fail."""
    w = Watched(browser.new_context(viewport=PHONE, color_scheme="dark"))
    w.page.goto(base_url + "tour/", wait_until="load")
    found = figure_text_contrast(w.page, black=True)
    w.close()
    w.check()
    assert sum(ratio < LEGIBLE for *_, ratio in found) > 0.8 * len(found) > 50, found


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


# ------------------------------------------------------------------------- reading on a phone

# A chapter's main line is what a reader sees with every folded box ("Check: ...", "Code for
# this figure") closed. On a 390 px phone, at most this share of its height may be code.
CODE_SHARE_MAX = 0.15
# From a section heading to the first figure or explorer under it, at most this many pixels on a
# 390 px phone, for the chapter's first figure (its key picture follows the section's opening).
FIRST_FIGURE_GAP_MAX = 700

PHONE_LAYOUT = """() => {
    const art = document.querySelector('.md-content__inner');
    art.querySelectorAll('details').forEach(d => d.open = false);
    const folded = e => !!e.closest('details:not([open])');
    const height = art.getBoundingClientRect().height;
    let code = 0;
    for (const b of art.querySelectorAll('div.highlight, .language-pycon')) {
        if (b.parentElement.closest('div.highlight, .language-pycon') || folded(b)) continue;
        code += b.getBoundingClientRect().height;
    }
    const wide = [];
    const page = document.documentElement.scrollWidth - window.innerWidth;
    if (page > 0) wide.push('the page, by ' + page + ' px');
    for (const e of art.querySelectorAll('.md-typeset__scrollwrap, table, .posenc-figure, .posenc-explorer, pre, .posenc-math')) {
        if (folded(e) || e.closest('.md-sidebar')) continue;
        if (e.scrollWidth > e.clientWidth + 1)
            wide.push(e.tagName.toLowerCase() + ' by ' + (e.scrollWidth - e.clientWidth) + ' px: ' + e.textContent.trim().slice(0, 40));
    }
    let gap = null, heading = null;
    for (const h of art.querySelectorAll('h2')) {
        for (let n = h.nextElementSibling; n && n.tagName !== 'H2'; n = n.nextElementSibling) {
            if (folded(n)) continue;
            if (n.matches('.posenc-figure, figure, .posenc-explorer') || n.querySelector('.posenc-figure, .posenc-explorer')) {
                gap = Math.round(n.getBoundingClientRect().top - h.getBoundingClientRect().bottom);
                heading = h.textContent.replace('¶', '').trim();
                break;
            }
        }
        if (gap !== null) break;
    }
    return {height: Math.round(height), code: Math.round(code), wide, gap, heading};
}"""


@pytest.fixture(scope="module")
def phone_chapters(browser, base_url, site_dir) -> dict:
    """{chapter folder: (PHONE_LAYOUT, FOLD_TOPS)}: each chapter loaded once on a 390 x 844 px
    phone for the two tests that read it (a page load is most of their time); both scripts
    close every fold first, so their order does not matter."""
    chapters = sorted(p.parent.name for p in site_dir.glob("chapters/*/index.html"))
    assert len(chapters) >= 15, chapters
    w = Watched(browser.new_context(viewport={"width": 390, "height": 844}))
    found = {}
    for chapter in chapters:
        w.page.goto(f"{base_url}chapters/{chapter}/", wait_until="load")
        found[chapter] = (w.page.evaluate(PHONE_LAYOUT), w.page.evaluate(FOLD_TOPS))
    w.close()
    w.check()
    return found


def test_chapters_read_on_a_phone(phone_chapters):
    """On a 390 px phone, every chapter's main line (folded boxes closed) is at most 15% code,
    nothing in it scrolls sideways (tables, figures, explorers, code, formulas), and its first
    figure comes within FIRST_FIGURE_GAP_MAX pixels of its section's heading. Prints each
    chapter's figures."""
    problems = []
    for name, (r, _) in phone_chapters.items():
        chapter = f"chapters/{name}/"
        share = r["code"] / r["height"]
        print(f"{chapter}: code {share:.1%} of {r['height']} px; first figure "
              f"{r['gap']} px below '{r['heading']}'; sideways: {r['wide'] or 'none'}")
        if share > CODE_SHARE_MAX:
            problems.append(f"{chapter}: code is {share:.1%} of the main line (> {CODE_SHARE_MAX:.0%})")
        problems += [f"{chapter}: scrolls sideways: {what}" for what in r["wide"]]
        if r["gap"] is None or r["gap"] > FIRST_FIGURE_GAP_MAX:
            problems.append(f"{chapter}: first figure {r['gap']} px below its heading "
                            f"'{r['heading']}' (> {FIRST_FIGURE_GAP_MAX})")
    assert not problems, "\n".join(problems)


# At most this many closed folds in any phone screen (844 px at 390 px wide) of a chapter's main
# line (the Exercises and everything after them left out). Chapters still above it (issue 32):
# each must still break the rule, so that a chapter brought under it leaves the list.
FOLDS_PER_SCREEN_MAX = 1
FOLDS_NOT_YET: set[str] = set()   # every chapter meets it (issue 32)
FOLD_TOPS = """() => {
    const art = document.querySelector('.md-content__inner');
    art.querySelectorAll('details').forEach(d => d.open = false);
    const end = [...art.querySelectorAll('h2')].find(h => /^Exercises/.test(h.textContent.trim()));
    const stop = end ? end.getBoundingClientRect().top + scrollY : Infinity;
    return [...art.querySelectorAll('details')].filter(d => !d.parentElement.closest('details'))
        .map(d => d.getBoundingClientRect().top + scrollY).filter(y => y < stop);
}"""


def test_folds_per_phone_screen(phone_chapters):
    """On a 390 x 844 px phone, no screen of a chapter's main line holds more than
    FOLDS_PER_SCREEN_MAX closed folds (checks gathered after their paragraph, not one per
    sentence). Prints each chapter's worst screen."""
    over, fixed = [], []
    for chapter, (_, tops) in phone_chapters.items():
        worst = max((sum(1 for u in tops if t <= u < t + 844) for t in tops), default=0)
        print(f"{chapter}: {len(tops)} folds in the main line, at most {worst} in one screen")
        if worst > FOLDS_PER_SCREEN_MAX and chapter not in FOLDS_NOT_YET:
            over.append(f"{chapter}: {worst} folds in one phone screen")
        if worst <= FOLDS_PER_SCREEN_MAX and chapter in FOLDS_NOT_YET:
            fixed.append(f"{chapter}: now at most {worst}; take it off FOLDS_NOT_YET")
    assert not over and not fixed, "\n".join(over + fixed)
