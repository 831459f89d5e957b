"""The explorers on the static site, driven in headless Chromium and checked against posenc:
sliders moved, read-outs compared with the package to the precision displayed; screenshots,
the notebook page, the downloads and the explore page's weight."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

import posenc

from browsing import (ARTIFACTS, EXPLORE, EXPLORERS, ROOT, assert_shown, numbers, open_explore,
                      out, set_input, shot, shown, Watched)


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
    one hooks/downloads.py builds (tests/site/test_downloads.py installs it offline)."""
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
