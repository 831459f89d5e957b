"""Drive the lab widget's JavaScript (docs/assets/lab/) in Debian's Chromium, without the site.

A temporary folder holds ``assets/lab/`` (model.js, worker.js) and TensorFlow.js from
``.cache/`` (hooks/lab_widget.py fetches it) and a blank page; a local server serves it. Used by
tests/site/browser/test_lab_widget.py and scripts/lab_widget.py (which records the widget's runs in
docs/data/lab-widget.json).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ASSETS = ROOT / "docs" / "assets" / "lab"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

RUN_IN_WORKER = """settings => new Promise((resolve, reject) => {
  const worker = new Worker('assets/lab/worker.js');
  worker.onmessage = e => {
    if (e.data.type === 'done') { worker.terminate(); resolve(e.data.result); }
    if (e.data.type === 'error') { worker.terminate(); reject(new Error(e.data.message)); }
  };
  worker.onerror = e => reject(new Error(e.message));
  worker.postMessage({settings});
})"""


def vendor_ready() -> bool:
    import sys
    sys.path.insert(0, str(ROOT))
    from hooks import lab_widget
    return lab_widget.cached()


@contextlib.contextmanager
def served():
    """URL of a blank page beside a copy of assets/lab/ with TensorFlow.js in vendor/."""
    from hooks import lab_widget

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    with tempfile.TemporaryDirectory() as tmp:
        lab = Path(tmp) / "assets" / "lab"
        shutil.copytree(ASSETS, lab)
        shutil.copytree(lab_widget.CACHE, lab / "vendor")
        (Path(tmp) / "index.html").write_text(
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>lab</title></head>'
            '<body><script src="assets/lab/vendor/tf.es2017.min.js"></script>'
            '<script src="assets/lab/vendor/tf-backend-wasm.es2017.min.js"></script>'
            '<script src="assets/lab/model.js"></script><script>'
            'tf.wasm.setWasmPaths(new URL("assets/lab/vendor/", location.href).href);'
            'tf.setBackend("wasm").then(() => { PosencLab.fastTransposedMatMul("wasm");'
            ' self.labReady = true; });</script></body></html>')
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                 functools.partial(Quiet, directory=tmp))
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/"
        finally:
            server.shutdown()


@contextlib.contextmanager
def blank_page(browser):
    """A page of ``browser`` on the served folder, TensorFlow.js's WebAssembly backend ready."""
    with served() as url:
        p = browser.new_page()
        try:
            p.set_default_timeout(600_000)
            p.goto(url)
            p.wait_for_function("() => self.labReady === true")
            p.browser_version = browser.version
            yield p
        finally:
            p.close()


@contextlib.contextmanager
def page():
    """A blank page in a browser of its own (Debian's chromium; never `playwright install`).
    Inside pytest use blank_page with the browser fixture (tests/site/browser/conftest.py): one Playwright per
    process."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=FLAGS)
        try:
            with blank_page(browser) as p:
                yield p
        finally:
            browser.close()


def train(p, **settings) -> dict:
    """One run in a Web Worker, as the widget starts it: its result (config, curve, test,
    baseline, unseen, seconds, backend)."""
    return p.evaluate(RUN_IN_WORKER, settings)
