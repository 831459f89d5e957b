"""Issue 42: the torch modules were split (one concept per file); every public name keeps its old
import path. Each name below is imported from the module it was defined in before the split and
must be the same object as the one in its new module."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("torch")

MOVED = {   # old module: {name: new module}
    "posenc.torch_module.rotary": {
        "ROPE_KEYS": "posenc.torch_module.rope_config",
    },
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_import_paths_give_the_same_objects(old):
    module = importlib.import_module(old)
    for name, new in MOVED[old].items():
        assert getattr(module, name) is getattr(importlib.import_module(new), name), (old, name)
        exec(f"from {old} import {name}", {})                  # the statement users wrote


def test_the_package_exports_are_unchanged():
    import posenc.torch_module as package
    for name in package.__all__:
        assert getattr(package, name) is not None, name
