"""Every docstring example of posenc runs when pasted into a fresh interpreter, and prints
exactly what it shows there (NumPy's default print options, no rounding tolerance).

The doc tests (conftest.py) run each ``>>>`` example with its module's globals, so an example
that forgets ``import numpy as np`` still passes there and fails for a reader who pastes it.
Here every example (modules, functions, classes, methods, properties, in every module under
posenc/, present and future) runs in an empty namespace: its own imports or nothing. A module
that needs an optional package (torch, matplotlib, mpmath) is skipped when it is missing.

The rule for anyone adding to posenc: a ``>>>`` example starts with the imports it uses
(``import numpy as np``, ``from posenc.x import f``), as a reader would type them.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import posenc


def module_names():
    yield "posenc"
    for info in pkgutil.walk_packages(posenc.__path__, "posenc."):
        yield info.name


def checker():
    """The doc tests' checker: a float written must be the value rounded to the digits shown."""
    from harness.collect import OPTIONFLAGS, ExactChecker

    return ExactChecker(), OPTIONFLAGS


@pytest.mark.parametrize("name", sorted(module_names()))
def test_docstring_examples_run_in_a_fresh_namespace(name):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name in ("torch", "matplotlib", "mpmath"):
            pytest.skip(f"{name} needs {exc.name}")
        raise
    tests = doctest.DocTestFinder(recurse=True).find(module, name, globs={})
    tests = [t for t in tests if t.examples]
    if not tests:
        pytest.skip(f"{name} has no examples")
    check, flags = checker()
    runner = doctest.DocTestRunner(checker=check, optionflags=flags)
    # NumPy's default print options, as a plain `python -m doctest` run and a reader's fresh
    # NumPy 2 print (np.float64(0.5), not 0.5): examples print Python scalars (float(), bool(),
    # round()), so what the docstring shows is what every reader gets, exactly (issue 29).
    saved = np.get_printoptions()
    np.set_printoptions(legacy=False)
    failed = []
    try:
        for test in tests:
            test.globs = {}                   # a fresh interpreter: nothing defined
            result = runner.run(test, out=lambda text: failed.append(text))
            assert result.attempted
    finally:
        np.set_printoptions(**saved)
        if "matplotlib.pyplot" in __import__("sys").modules:
            __import__("matplotlib.pyplot").pyplot.close("all")
    assert not failed, "\n".join(failed)[:6000]


# Methods landed before this rule, waiting for their owner (the lab helper) to add examples.
# Remove an entry when it gets one: the test fails while a listed name has an example.
PENDING = {"posenc/lab/model.py: embed", "posenc/lab/model.py: forward",
           "posenc/lab/run.py: as_dict"}


def test_every_public_function_class_and_method_has_an_example():
    """Public: a module under posenc/ with no underscore in its path, a function or class in it
    with no leading underscore, and such a class's methods and properties."""
    import ast
    from pathlib import Path

    root = Path(posenc.__file__).parent
    missing = []
    for path in sorted(root.rglob("*.py")):
        if any(p.startswith("_") and p != "__init__.py" for p in path.relative_to(root).parts):
            continue
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or node.name.startswith("_"):
                continue
            members = [node] + [m for m in node.body if isinstance(node, ast.ClassDef)
                                and isinstance(m, ast.FunctionDef) and not m.name.startswith("_")]
            for member in members:
                if ">>>" not in (ast.get_docstring(member) or ""):
                    missing.append(f"{path.relative_to(root.parent)}: {member.name}")
    new = sorted(set(missing) - PENDING)
    assert not new, f"public definitions without a >>> example: {new}"
    done = sorted(PENDING - set(missing))
    assert not done, f"these have an example now: remove them from PENDING: {done}"
