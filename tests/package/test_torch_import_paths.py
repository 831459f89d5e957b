"""Issue 42: the torch modules were split (one concept per file); every public name keeps its old
import path. Each name the old modules held (defined there, or imported there from posenc) is
imported from its old module and must be the same object as the one in its new module."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("torch")

T = "posenc.torch_module."
OLD = {   # old module: {public name it held: the module that defines it now}
    T + "rotary": {
        "RotaryEmbedding": T + "rotary", "AXES": T + "rotary",
        "PAIRINGS": T + "rotate", "check_pairing": T + "rotate", "rope_cos_sin": T + "rotate",
        "expand_cos_sin": T + "rotate", "apply_rotary": T + "rotate",
        "GROWTH": T + "rope_cache", "ROUND": T + "rope_cache",
        "ROPE_KEYS": T + "rope_config", "check_position_ids": T + "rope_positions",
        "NotScriptable": T + "checks", "looks_like_attention_mask": T + "checks",
        "BASE": "posenc.encoding", "check_base": "posenc._checks",
        "paper_frequencies": "posenc.encoding",
    },
    T + "sinusoidal": {
        "SinusoidalPositionalEncoding": T + "sinusoidal", "FLOAT_DTYPES": T + "table",
        "build_table": T + "table", "NotScriptable": T + "checks",
        "check_dropout": T + "checks", "check_max_len": T + "checks",
        "looks_like_attention_mask": T + "checks", "BASE": "posenc.encoding",
        "ODD_POLICIES": "posenc.variants", "check_base": "posenc._checks",
        "check_layout": "posenc._checks", "check_spacing": "posenc.variants",
        "even_width": "posenc.variants",
    },
}
RENAMED = {"paper_frequencies": "frequencies"}         # imported under another name


@pytest.mark.parametrize("old", sorted(OLD))
def test_old_import_paths_give_the_same_objects(old):
    module = importlib.import_module(old)
    for name, new in OLD[old].items():
        there = getattr(importlib.import_module(new), RENAMED.get(name, name))
        assert getattr(module, name) is there, (old, name, new)
        exec(f"from {old} import {name}", {})                  # the statement users wrote


def test_the_moved_private_helpers_still_resolve_from_sinusoidal():
    """The compile plumbing and checkpoint loading moved out of sinusoidal.py (compile_ops.py,
    checkpoint.py); the module still holds the names it had, the same objects."""
    sinusoidal = importlib.import_module(T + "sinusoidal")
    for name, new in (("_checked", "compile_ops"), ("_in_graph_check", "compile_ops"),
                      ("_range_error", "compile_ops"), ("_shared_table", "compile_ops"),
                      ("_table_rows", "compile_ops"), ("_check_stored_table", "checkpoint"),
                      ("_tolerance", "checkpoint"), ("_which_convention", "checkpoint")):
        assert getattr(sinusoidal, name) is getattr(importlib.import_module(T + new), name)
