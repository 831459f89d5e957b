"""What the browser tests share (tests/site/browser/): the built site, Chromium, a watched page,
and reading the numbers an explorer shows. The fixtures that hold them are in conftest.py.

Under ``make test`` the strict site build runs once per test run (tests/site/browser/conftest.py,
``site_dir``: a lock and a marker with the run's id), in whichever of these modules first needs
the site; ``test_site_build.py`` holds its test.

No browser is ever downloaded (never ``playwright install``): if ``chromium`` is missing and we
are root, Debian's package is installed, as ``make install`` does; otherwise the tests skip with
a loud reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse


from harness.collect import _half_unit

ROOT = Path(__file__).resolve().parents[3]
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
    to save time, `python -m pytest tests/site/browser/` and scripts/screenshots.py take them."""
    if os.environ.get("POSENC_SCREENSHOTS", "1") == "0":
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if not hasattr(target, "goto"):                   # an element: clear of the sticky header
        target.evaluate("e => e.scrollIntoView({block: 'center'})")
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"), **({"full_page": True} if hasattr(target, "goto") else {}))


def site_pages(site_dir: Path) -> list[str]:
    """Every page of the site a reader sees (not the package index under download/)."""
    pages = sorted(p.parent.relative_to(site_dir).as_posix()
                   for p in site_dir.glob("**/index.html")
                   if p.parent.name != "search" and 'class="md-content__inner' in p.read_text())
    assert len(pages) >= 18, pages
    return ["" if p == "." else p + "/" for p in pages]
