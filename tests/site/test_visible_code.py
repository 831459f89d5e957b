"""The code a reader sees stands on its own.

A page's doc tests run every block in one namespace, folds included, so a visible block that
uses a name defined only inside a closed fold ("Check: ...") passes there and fails for a reader
who copies the visible code. Here, for every page, the *visible* Python blocks (not inside a
``???`` fold, not ``exec="on"`` blocks, which already run alone) run alone, in order, in a
fresh namespace, and each ``>>>`` output must be exactly what the page shows (the doc tests'
checker).

And a fold may not change a name that the visible code defined and reads again later (it
would silently change what the reader's code means, as a fold that re-bound ``pos`` from 0-99
to 0-999 did). A name used only after a fold defines it fails the run itself.

One page at a time, in-process, each in its own namespace (the doc tests' print options).
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import re
from pathlib import Path

import numpy as np
import pytest

from harness import page as model
from harness.collect import OPTIONFLAGS, ExactChecker

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
CLEAR = re.compile(r"<!--\s*clear-namespace\s*-->")
# Pages whose visible code does not yet stand alone: none since issue 32. A page added here
# must fail (strict), so the list only shrinks.
NOT_YET: set = set()


def pieces(page):
    """('visible' | 'folded', fence) for each Python fence that is not an exec block, and
    ('clear', line) for each clear-namespace comment, in page order."""
    out = []
    for fence in page.fences:
        if fence.python and not fence.exec_on:
            out.append((fence.first, "folded" if page.folded(fence.first) else "visible", fence))
    for n, raw in enumerate(page.lines, start=1):
        if page.kind[n] != "fence" and CLEAR.search(raw):
            out.append((n, "clear", None))
    return [(kind, f) for _, kind, f in sorted(out, key=lambda t: t[0])]


def names(source: str, doctest_block: bool):
    """(assigned, read first) names of a block: what it assigns (assignments, loop targets, defs;
    imports left out: importing a module again changes nothing), and what a statement reads
    that neither it nor an earlier statement of the block assigns."""
    if doctest_block:
        source = "".join(e.source for e in doctest.DocTestParser().get_examples(source))
    bound, read = set(), set()
    for statement in ast.parse(source).body:
        loads, stores = set(), set()
        for node in ast.walk(statement):
            if isinstance(node, ast.Name):
                (loads if isinstance(node.ctx, ast.Load) else stores).add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                stores.add(node.name)
            elif isinstance(node, ast.arg):              # a parameter is the function's own
                stores.add(node.arg)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        read |= loads - stores - bound
        bound |= stores
    return bound, read


def assigned(fence) -> set:
    """The names a block assigns, imports left out."""
    source = fence.source
    if fence.doctest:
        source = "".join(e.source for e in doctest.DocTestParser().get_examples(source))
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
    return out


def run_visible(page) -> list:
    """Run the page's visible blocks alone; return the failures."""
    failures = []
    namespace = {"__name__": "__main__"}
    runner = doctest.DocTestRunner(checker=ExactChecker(), optionflags=OPTIONFLAGS)
    saved = np.get_printoptions()
    np.set_printoptions(legacy="1.25")
    try:
        for kind, fence in pieces(page):
            if kind == "clear":
                namespace = {"__name__": "__main__"}
                continue
            if kind == "folded":
                continue
            where = f"{page.path}:{fence.first}"
            if fence.doctest:
                test = doctest.DocTestParser().get_doctest(fence.source, namespace, where,
                                                           page.path, fence.first)
                out = []
                result = runner.run(test, out=out.append, clear_globs=False)
                namespace = test.globs
                if result.failed:
                    failures.append(f"{where}: run alone, the visible block fails:\n"
                                    + "".join(out)[:2000])
            else:
                try:
                    with contextlib.redirect_stdout(io.StringIO()):
                        exec(compile(fence.source, where, "exec"), namespace)
                except Exception as error:
                    failures.append(f"{where}: run alone, the visible block raises "
                                    f"{type(error).__name__}: {error}")
    finally:
        np.set_printoptions(**saved)
        import matplotlib.pyplot as plt

        plt.close("all")
    return failures


def fold_rebinds(page) -> list:
    """A fold that assigns a name the visible code defined, and a later visible block that reads
    it (before assigning it again): the fold changed what the reader's code means."""
    found, visible, changed = [], set(), {}
    for kind, fence in pieces(page):
        if kind == "clear":
            visible, changed = set(), {}
            continue
        try:
            bound, read = names(fence.source, fence.doctest)
        except SyntaxError:
            continue
        if kind == "folded":
            bound = {n for n in bound if n in assigned(fence)}
            for name in bound & visible:
                changed[name] = fence.first
            continue
        for name in sorted(read & changed.keys()):
            found.append(f"{page.path}:{fence.first}: visible code reads `{name}`, which the "
                         f"fold at line {changed[name]} changed")
        for name in bound:
            changed.pop(name, None)
        visible |= bound
    return found


def mark(path):
    name = path.relative_to(ROOT).as_posix()
    marks = [pytest.mark.xfail(strict=True, reason="not yet fixed")] if name in NOT_YET else []
    return pytest.param(path, id=name, marks=marks)


@pytest.mark.parametrize("path", [mark(p) for p in PAGES])
def test_visible_code_runs_alone(path):
    page = model.read(path)
    if not any(kind == "visible" for kind, _ in pieces(page)):
        pytest.skip("no visible code")
    problems = fold_rebinds(page) + run_visible(page)
    assert not problems, "\n".join(problems)


def test_the_fold_reader_sees_folds():
    """The reader of folds tells a fold's block from a visible one, nested folds and
    admonitions that do not fold included."""
    text = "\n".join([
        "Text.", "", "```python", "a = 1", "```", "",
        '??? note "Check: x"', "", "    ```python", "    b = a", "    ```", "",
        '!!! note "Open"', "", "    ```python", "    c = 2", "    ```", "",
        '??? success "Solution"', "", '    !!! tip "Inner"', "",
        "        ```python", "        d = 3", "        ```", "",
        "```python", "print(b)", "```", "",
        '??? note "Check: y"', "", "    ```python", "    a = 5", "    ```", "",
        "```python", "print(a)", "```", ""])
    page = model.parse(text, "<t>")
    kinds = [kind for kind, _ in pieces(page)]
    assert kinds == ["visible", "folded", "visible", "folded", "visible", "folded", "visible"]
    assert fold_rebinds(page) == ["<t>:37: visible code reads `a`, which the fold at line 33 changed"]
    assert run_visible(page) and "NameError" in run_visible(page)[0]
