"""Mutation testing of the doc tests: change the package in a copy, run only the pages' tests.

Used by tests/test_harness_bites.py (two mutants, every test run) and scripts/mutants.py (the
whole set, `make mutants`). A mutant names the exact text it replaces, so one that no longer
applies is reported as an error instead of silently testing nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str            # file relative to the repository root
    old: str             # exact text, must occur exactly once
    new: str
    why: str = ""        # what claim it breaks


def copy_project(dest: Path) -> None:
    for name in ("posenc", "docs", "hooks"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copy(ROOT / name, dest / name)


def apply(mutant: Mutant, dest: Path) -> None:
    target = dest / mutant.path
    source = target.read_text()
    found = source.count(mutant.old)
    if found != 1:
        raise ValueError(f"mutant {mutant.name!r}: expected the text once in {mutant.path}, "
                         f"found it {found} times; update the mutant")
    target.write_text(source.replace(mutant.old, mutant.new))


def run_doc_tests(dest: Path, stop_at_first: bool = True, timeout: float = 600,
                  pages: tuple[str, ...] = ("docs",)):
    """Run the doc tests of ``pages`` (default: all of docs/) in ``dest``;
    return (killed, seconds, report)."""
    env = {**os.environ, "PYTHONPATH": str(dest), "MPLBACKEND": "Agg"}
    where = subprocess.run([sys.executable, "-c", "import posenc; print(posenc.__file__)"],
                           cwd=dest, env=env, capture_output=True, text=True, check=True)
    if not where.stdout.strip().startswith(str(dest)):
        raise RuntimeError(f"the copy in {dest} was not the posenc imported: {where.stdout}")
    cmd = [sys.executable, "-m", "pytest", *pages, "-q", "-p", "no:cacheprovider"]
    if stop_at_first:
        cmd.append("-x")
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=dest, env=env, capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - start
    report = run.stdout + run.stderr
    if run.returncode not in (0, 1):
        raise RuntimeError(f"doc tests could not run (exit {run.returncode}):\n{report[-3000:]}")
    return run.returncode == 1, seconds, report
