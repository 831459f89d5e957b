"""Every public plot function draws under the site style (issue 41).

``@styled`` (posenc/plots/_svg.py) runs a function under ``style()``, so text, legends and
colour bars take the sentinel colour that the SVG turns into ``currentColor``. An artist made
outside it takes matplotlib's black, which vanishes in dark mode: ``@styled`` once sat on the
helper ``_label_place`` instead of ``clock_path``, and the tour's step-4 point labels were black.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import matplotlib.colors as mcolors
import numpy as np
import pytest

import posenc.plots
from posenc.plots._svg import FOREGROUND, styled

# The wrapper every @styled function is: the same code object for all of them.
STYLED_CODE = styled(lambda: None).__code__


def public_plot_functions():
    """(module, name, function) for each public function defined in a public posenc.plots module."""
    found = []
    for info in pkgutil.iter_modules(posenc.plots.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"posenc.plots.{info.name}")
        for name, func in vars(module).items():
            if (not name.startswith("_") and inspect.isfunction(func)
                    and func.__module__ == module.__name__):
                found.append((info.name, name, func))
    return found


def is_styled(func) -> bool:
    return func.__code__ is STYLED_CODE


FUNCTIONS = public_plot_functions()


def test_there_are_plot_functions_to_check():
    names = {name for _, name, _ in FUNCTIONS}
    assert {"clock_path", "sine_collisions", "attend_back", "heatmap"} <= names


@pytest.mark.parametrize("module, name, func", FUNCTIONS,
                         ids=[f"{m}.{n}" for m, n, _ in FUNCTIONS])
def test_public_plot_function_is_styled(module, name, func):
    assert is_styled(func), f"posenc.plots.{module}.{name} lacks @styled"


def test_the_styled_rule_bites():
    def bare():
        return None
    assert is_styled(styled(bare)) and not is_styled(bare)


def test_clock_path_text_follows_the_page_colour():
    """Every text of the tour's step-4 figure (point labels, legend, colour bar) is drawn in the
    sentinel colour, not in matplotlib's default black."""
    from posenc.plots.uniqueness import clock_path
    pos = np.arange(100)
    fig = clock_path(np.stack([np.sin(pos), np.sin(0.1 * pos)], axis=1), pair_=(14, 77))
    texts = [t for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_color"))
             if t.get_text()]
    assert len(texts) > 10
    wrong = {t.get_text(): t.get_color() for t in texts
             if mcolors.to_hex(t.get_color()) != FOREGROUND}
    assert not wrong
