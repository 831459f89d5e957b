"""Prove the doc tests bite: change the formula in a copy of the package, run only the doc tests
of the pages, and expect them to fail on a wrong value (not on a crash).

Each mutation names the exact text it replaces; if the code moves on, the mutation no longer
applies and this test fails, so it cannot silently stop testing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MUTATIONS = {
    "base 10000 -> 10001": ("posenc/encoding.py", "BASE = 10000.0", "BASE = 10001.0"),
    # The pages build integer-position tables, which go through the rotation builder: its sine
    # columns receive the cosines instead.
    "sin and cos swapped": (
        "posenc/fast.py",
        "table[rows, sin_cols] = tile[:m].real",
        "table[rows, sin_cols] = tile[:m].imag",
    ),
}


def _copy_project(dest: Path) -> None:
    for name in ("posenc", "docs"):
        shutil.copytree(ROOT / name, dest / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copy(ROOT / name, dest / name)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_doc_tests_fail_when_the_formula_changes(name, tmp_path):
    path, old, new = MUTATIONS[name]
    _copy_project(tmp_path)
    target = tmp_path / path
    source = target.read_text()
    assert source.count(old) == 1, f"mutation {name!r} no longer applies to {path}"
    target.write_text(source.replace(old, new))

    env = {**os.environ, "PYTHONPATH": str(tmp_path), "MPLBACKEND": "Agg"}
    where = subprocess.run([sys.executable, "-c", "import posenc; print(posenc.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.strip().startswith(str(tmp_path)), "the mutated copy was not imported"

    run = subprocess.run([sys.executable, "-m", "pytest", "docs", "-x", "-q", "-p", "no:cacheprovider"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    report = run.stdout + run.stderr
    assert run.returncode == 1, f"doc tests did not fail under mutant {name!r}:\n{report[-2000:]}"
    assert "did not evaluate as expected" in report or "AssertionError" in report, report[-2000:]
