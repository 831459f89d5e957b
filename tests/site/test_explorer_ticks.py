"""The explorers' plot labels do not overlap, on a phone or a desktop (outside reads, explore-1).

At 390 px the offset explorer's y tick "−32" sat on its x tick "−50" in the bottom-left corner:
the tick labels are 22 px of a viewBox scaled down about twofold. Each explorer that draws an SVG
plot is mounted alone in a bare page (its script, core.js and explorers.css, no site build), and
the bounding boxes of every pair of its text labels must be disjoint.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "docs" / "assets" / "explorers"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def page_html(explorer: str) -> str:
    css = (ASSETS / "explorers.css").read_text(encoding="utf-8")
    scripts = "".join(f"<script>{(ASSETS / name).read_text(encoding='utf-8')}</script>"
                      for name in ("core.js", f"{explorer}.js"))
    return (f"<!doctype html><html><head><meta name='viewport' content='width=device-width'>"
            f"<style>body{{margin:16px;font-family:sans-serif}}{css}</style></head><body>"
            f"<article class='md-typeset'><div class='posenc-explorer' data-explorer='{explorer}'>"
            f"</div></article>{scripts}</body></html>")


def overlapping_labels(boxes: list[dict]) -> list[tuple]:
    found = []
    for n, a in enumerate(boxes):
        for b in boxes[n + 1:]:
            if (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
                    and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]):
                found.append((a["text"], b["text"]))
    return found


def test_the_overlap_rule_bites():
    a = {"x": 0, "y": 0, "w": 10, "h": 10, "text": "a"}
    assert overlapping_labels([a, dict(a, x=5, text="b")]) == [("a", "b")]
    assert overlapping_labels([a, dict(a, x=11, text="b")]) == []


@pytest.fixture(scope="module")
def browser():
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("no chromium on this machine")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=FLAGS)
        yield b
        b.close()


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("explorer", ["offset"])   # the one plot with tick labels
def test_plot_labels_do_not_overlap(browser, explorer, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_content(page_html(explorer))
    page.wait_for_selector(".posenc-plot text")
    boxes = page.evaluate("""() => [...document.querySelectorAll('.posenc-plot text')].map(t => {
        const r = t.getBoundingClientRect();
        return {x: r.x, y: r.y, w: r.width, h: r.height, text: t.textContent};
    }).filter(b => b.w > 0)""")
    page.close()
    assert len(boxes) >= 8
    assert not overlapping_labels(boxes), overlapping_labels(boxes)
