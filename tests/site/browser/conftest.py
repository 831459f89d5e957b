"""The browser tests' fixtures: the site built once per run, served under a sub-path, one
Chromium per module, and watched pages (helpers in browsing.py)."""

from __future__ import annotations

import functools
import http.server
import os
import threading
import warnings
from pathlib import Path
from urllib.parse import urlparse

import pytest

from browsing import (EXPLORE, FLAGS, ROOT, SITE, SUBPATH, Watched, _build_site, find_chromium,
                      open_explore)

# Under pytest-xdist (`make test`: -n 2 --dist loadfile) each module of this folder runs whole on
# one worker (loadfile also keeps each page's examples together and in order, as Sybil needs).
# The strict build runs once per test run: the first module to need the site builds it, and a
# module on the other worker waits on a lock for it (test_site_build.py holds its test).


@pytest.fixture(scope="module")
def site_dir() -> Path:
    # Every module here asks for it, maybe on either xdist worker: one build per test run (a
    # marker holds the run's id), the other modules waiting on a lock for it.
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


