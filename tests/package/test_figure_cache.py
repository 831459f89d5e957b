"""posenc.plots._svg's figure cache: a hit returns the bytes a fresh render would, any change to
the figure is a miss, the key is the same in another process, and unpicklable figures render."""

from __future__ import annotations

import subprocess
import sys

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from posenc.plots import _svg
from posenc.plots._svg import new_figure, to_svg

ALT = "A test figure."


def draw(scale=1.0):
    fig, ax = new_figure()
    x = np.linspace(0, 6, 50)
    ax.plot(x, scale * np.sin(x), label="sin")
    ax.set_title("waves")
    ax.legend()
    return fig


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POSENC_FIGURE_CACHE", str(tmp_path))
    return tmp_path


def test_hit_is_the_fresh_render_without_drawing(cache, monkeypatch):
    fresh = to_svg(draw(), ALT)
    assert len(list(cache.glob("*.svg"))) == 1
    monkeypatch.setattr(Figure, "savefig", lambda *a, **k: pytest.fail("rendered on a hit"))
    assert to_svg(draw(), ALT) == fresh


def test_no_cache_unless_asked(tmp_path, monkeypatch):
    monkeypatch.delenv("POSENC_FIGURE_CACHE", raising=False)
    with_cache_off = to_svg(draw(), ALT)
    monkeypatch.setenv("POSENC_FIGURE_CACHE", str(tmp_path))
    assert to_svg(draw(), ALT) == with_cache_off         # the cache changes nothing it returns
    monkeypatch.setenv("POSENC_FIGURE_CACHE", "")
    assert _svg._cache_key(draw(), ALT) is None


@pytest.mark.parametrize("change", [
    lambda: (draw(scale=1.001), ALT),                                # data
    lambda: (draw(), "Another alt text."),                           # alt text
    lambda: (lambda f: (f.axes[0].set_xlabel("x"), f)[1])(draw()),   # a label
])
def test_any_change_is_a_miss(cache, change):
    base = _svg._cache_key(draw(), ALT)
    made = change()
    fig, alt = made if isinstance(made, tuple) else (made, ALT)
    assert _svg._cache_key(fig, alt) != base
    plt.close("all")


def test_rcparams_are_part_of_the_key(cache):
    base = _svg._cache_key(draw(), ALT)
    with plt.rc_context({"lines.linewidth": 3.0}):
        assert _svg._cache_key(draw(), ALT) != base
    plt.close("all")


def test_key_is_the_same_in_another_process(cache):
    code = ("import numpy as np; from tests.package.test_figure_cache import draw, ALT; "
            "from posenc.plots import _svg; "
            "print(_svg._cache_key(draw(), ALT))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.strip()
    assert other == _svg._cache_key(draw(), ALT) and len(other) == 64
    plt.close("all")


def test_key_ignores_figures_left_open_before(cache):
    # The key must not depend on what ran earlier: pyplot numbers figures by how many are open.
    first = _svg._cache_key(draw(), ALT)
    left_open = [plt.figure() for _ in range(3)]
    assert _svg._cache_key(draw(), ALT) == first
    for fig in left_open:
        plt.close(fig)


def test_unpicklable_figure_renders_uncached(cache):
    fig = draw()
    fig.axes[0].xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.0f}!"))
    assert _svg._cache_key(fig, ALT) is None
    assert "0!" in to_svg(fig, ALT)
    assert list(cache.glob("*.svg")) == []
