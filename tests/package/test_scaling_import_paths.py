"""Issue 42: posenc/scaling.py (652 lines, seven methods) became the package posenc/scaling/, one
method a module. Every name the old module held (defined there, or imported there from posenc),
but for the standard library's and NumPy's, is still imported from ``posenc.scaling`` and is the
same object as the one in its new module."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

S = "posenc.scaling."
# The names of posenc/scaling.py before the split (commit 82bbe75): {name: its module now}
OLD = {
    "position_interpolation": S + "interpolation",
    "ntk_base": S + "ntk", "ntk_frequencies": S + "ntk", "_scaled_base": S + "ntk",
    "RAMPS": S + "yarn", "correction_pair": S + "yarn", "yarn_ramp": S + "yarn",
    "yarn_frequencies": S + "yarn", "yarn_attention_factor": S + "yarn",
    "_check_ramp": S + "yarn", "_check_truncate": S + "yarn", "_mscale": S + "yarn",
    "longrope_uses_long": S + "longrope", "longrope_frequencies": S + "longrope",
    "longrope_attention_factor": S + "longrope", "_check_factor_list": S + "longrope",
    "llama3_frequencies": S + "llama3",
    "dynamic_ntk_base": S + "dynamic_ntk", "dynamic_ntk_frequencies": S + "dynamic_ntk",
    "xpos_zeta": S + "xpos", "xpos_scales": S + "xpos",
    "_check_real": S + "_args", "_check_length": S + "_args",
    "BASE": "posenc.encoding", "frequencies": "posenc.encoding",
    "check_base": "posenc._checks", "check_d_model": "posenc._checks",
    "check_positions": "posenc._checks",
}


@pytest.mark.parametrize("name", sorted(OLD))
def test_old_import_path_gives_the_same_object(name):
    new = getattr(importlib.import_module(OLD[name]), name)
    exec(f"from posenc.scaling import {name} as old", namespace := {})   # what users wrote
    assert namespace["old"] is new, (name, OLD[name])


def test_every_public_name_of_the_package_was_a_name_of_the_old_module():
    """Nothing new leaks into ``posenc.scaling`` (a submodule's helper, a stray import): its
    public names are the old module's, plus its submodules."""
    scaling = importlib.import_module("posenc.scaling")
    modules = {m.rsplit(".", 1)[1] for m in OLD.values() if m.startswith(S)}
    # "@py_builtins" and "@pytest_ar" appear when pytest's assertion rewriting imported the
    # package as a test module (the portable leg's file orders): not names of Python code
    public = {n for n in vars(scaling)
              if n.isidentifier() and not n.startswith("_") and n != "annotations"}
    assert public - modules == {n for n in OLD if not n.startswith("_")}


def test_the_package_re_exports_every_name_its_modules_define():
    """The package docstring says so: a name added to a method's module must be re-exported."""
    scaling = importlib.import_module("posenc.scaling")
    for path in Path(scaling.__file__).parent.glob("[!_]*.py"):
        module = importlib.import_module(S + path.stem)
        defined = {node.name if hasattr(node, "name") else node.targets[0].id
                   for node in ast.parse(path.read_text()).body
                   if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Assign))}
        assert defined and all(getattr(scaling, n) is getattr(module, n) for n in defined), path


def test_no_scaling_module_passes_400_lines():
    package = Path(importlib.import_module("posenc.scaling").__file__).parent
    sizes = {p.name: len(p.read_text().splitlines()) for p in package.glob("*.py")}
    assert len(sizes) == 9 and max(sizes.values()) <= 400, sizes
