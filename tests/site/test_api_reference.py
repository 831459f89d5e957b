"""The API reference covers every public function and class of posenc, each with an example.

docs/api/*.md render modules with mkdocstrings (``::: posenc.module``); a function shows up there
only if its module is listed and it has a docstring. Docstring examples run with the doc tests
(conftest.py), so an entry's example cannot drift from the code.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "api"


def public_modules():
    """Dotted names of the package's modules that are not private (no leading underscore)."""
    for path in sorted((ROOT / "posenc").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if any(p.startswith("_") for p in parts[1:] if p != "__init__"):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def public_definitions(path):
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            yield node


def rendered_modules():
    names = set()
    for page in API.glob("*.md"):
        for name in re.findall(r"^::: (posenc[\w.]*)", page.read_text(), flags=re.M):
            parts = name.split(".")      # ::: posenc.m.Class renders (part of) posenc.m
            names.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return names


def test_every_public_module_has_a_reference_entry():
    rendered = rendered_modules()
    missing = [name for name, path in public_modules()
               if name not in rendered and any(public_definitions(path))]
    assert not missing, f"modules with public functions but no ::: entry in docs/api/: {missing}"


def test_every_public_function_and_class_has_an_example():
    missing = []
    for name, path in public_modules():
        for node in public_definitions(path):
            doc = ast.get_docstring(node) or ""
            if ">>>" not in doc:
                missing.append(f"{name}.{node.name}")
    assert not missing, f"public definitions without a >>> example in their docstring: {missing}"


def test_plot_helpers_exported_by_posenc_plots_are_listed():
    text = (API / "plots.md").read_text()
    from posenc import plots

    functions = [n for n in plots.__all__ if callable(getattr(plots, n))]
    for name in functions:
        assert name in text, f"posenc.plots.{name} is exported but not listed in docs/api/plots.md"


def test_reference_pages_are_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in API.glob("*.md"):
        assert f"api/{page.name}" in nav, f"docs/api/{page.name} is not in mkdocs.yml nav"
