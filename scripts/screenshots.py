"""Screenshot built pages in headless Chromium, light and dark, and report what a reader would hit.

Usage: python scripts/screenshots.py [page ...]   (pages relative to site/, default: all chapters)
Writes PNGs to artifacts/screenshots/ and prints, per page: console errors, requests that left
the machine, MathML elements, figures, and raw TeX left unrendered. Exits 1 if any page has a
console error, an outside request or raw TeX.
Needs `site/` (make docs), Debian's chromium and the playwright Python package.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
OUT = ROOT / "artifacts" / "screenshots"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def serve(directory: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(pages: list[str]) -> int:
    if not pages:
        pages = ["index.html"] + sorted(
            str(p.relative_to(SITE)) for p in (SITE / "chapters").glob("*/index.html"))
    OUT.mkdir(parents=True, exist_ok=True)
    server = serve(SITE)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    failed = False
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=FLAGS)
        for scheme in ("light", "dark"):
            for width, tag in ((1280, "desktop"), (390, "phone")):
                ctx = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
                for page_path in pages:
                    page = ctx.new_page()
                    errors, outside = [], []
                    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                    page.on("pageerror", lambda e: errors.append(str(e)))
                    page.on("request", lambda r: outside.append(r.url)
                            if urlparse(r.url).hostname not in ("127.0.0.1", None) and
                            not r.url.startswith("data:") else None)
                    page.goto(base + page_path, wait_until="networkidle")
                    stats = page.evaluate("""() => ({
                        math: document.querySelectorAll('math').length,
                        figures: document.querySelectorAll('.posenc-figure svg').length,
                        rawTex: (document.querySelector('.md-content').innerText.match(/\\\\[a-zA-Z]+\\{/g) || []).length,
                    })""")
                    name = page_path.replace("/index.html", "").replace("/", "_").replace(".html", "")
                    page.screenshot(path=str(OUT / f"{name}-{scheme}-{tag}.png"), full_page=True)
                    bad = bool(errors or outside or stats["rawTex"])
                    failed |= bad
                    if scheme == "light" and tag == "desktop" or bad:
                        print(f"{'FAIL' if bad else 'ok  '} {page_path} [{scheme}/{tag}] math={stats['math']} "
                              f"figures={stats['figures']} rawTeX={stats['rawTex']} "
                              f"console_errors={errors} outside_requests={outside}")
                    page.close()
                ctx.close()
        browser.close()
    server.shutdown()
    print(f"screenshots in {OUT.relative_to(ROOT)}/")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
