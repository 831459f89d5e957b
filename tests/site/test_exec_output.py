"""What the ``exec="on"`` blocks print into the pages (tables, text) is compared with a snapshot.

markdown-exec runs each such block at build time in a fresh namespace and puts what it prints
into the page; pytest runs it too, but only checks that it does not raise. Here each block that
prints Markdown (not ``html="true"``, whose output is a figure drawn by a tested plot function)
runs the same way, and its output must equal the snapshot in ``tests/snapshots/exec.json``: a
change in the package that changes a printed table fails here, and a person looks at the diff.
Update after a deliberate change: ``POSENC_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest
tests/site/test_exec_output.py``. Blocks whose output depends on the machine or the day are listed in
MACHINE_DEPENDENT with the reason; they are checked by the page's own comparisons instead.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import textwrap
from pathlib import Path

import pytest

from harness.page import read

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "tests" / "snapshots" / "exec.json"
MACHINE_DEPENDENT = {
    "numpy_kernels()": "names this machine's NumPy kernels and prints their errors; the block's "
                       "own assert bounds them on every kernel level CI tests",
    "get_cpu_capability()": "names the torch CPU kernels of the machine that built the page and "
                            "says what its transformers build computed there (chapter 16's "
                            "own checks bound the claim on every kernel level)",
    "time.perf_counter()": "a timing measured while the site builds, printed with machine and date",
    "bench-builders.json": "the recorded benchmark: a file of measurements, printed as recorded",
    "bench-torch.json": "the recorded benchmark of the torch module, printed as recorded",
    "def headings(page)": "the sources ledger quotes the current headings of the pages it links, "
                          "so any heading edit changes it; tests/site/test_seed_ledger.py checks that "
                          "each entry's page and section exist",
}
# Residuals below 1e-12 are rounding noise that differs between machines: compared as "~0".
NOISE = re.compile(r"(?<![\w.])[-+]?\d(?:\.\d+)?e-(?:1[3-9]|[2-9]\d|\d{3})\b")


def normalize(text: str) -> str:
    return NOISE.sub("~0", text)


def exec_blocks(page: Path):
    """(index, source) of the Markdown-printing exec="on" blocks of a page."""
    out = []
    for fence in read(page).fences:
        if fence.python and fence.exec_on and not fence.html:
            out.append(textwrap.dedent(fence.source.rstrip("\n")))
    return out


def pages_with_exec():
    return [p for p in sorted((ROOT / "docs").rglob("*.md")) if exec_blocks(p)]


def run_block(source: str) -> str:
    buffer = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(buffer):
            exec(compile(source, "<exec block>", "exec"), {"__name__": "__main__"})
    finally:
        os.chdir(cwd)
    return buffer.getvalue()


@pytest.mark.parametrize("page", pages_with_exec(), ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_exec_output_matches_the_snapshot(page):
    import numpy as np

    key = str(page.relative_to(ROOT / "docs"))
    snapshots = json.loads(SNAPSHOTS.read_text()) if SNAPSHOTS.exists() else {}
    options = np.get_printoptions()
    np.set_printoptions(legacy="1.25")
    try:
        outputs = [None if any(s in src for s in MACHINE_DEPENDENT) else normalize(run_block(src))
                   for src in exec_blocks(page)]
    finally:
        np.set_printoptions(**options)
    if os.environ.get("POSENC_UPDATE_SNAPSHOTS"):
        snapshots[key] = outputs
        SNAPSHOTS.parent.mkdir(exist_ok=True)
        SNAPSHOTS.write_text(json.dumps(snapshots, indent=1, sort_keys=True) + "\n")
    assert key in snapshots, f"no snapshot for {key}: run with POSENC_UPDATE_SNAPSHOTS=1"
    assert len(snapshots[key]) == len(outputs), (
        f"{key} has {len(outputs)} Markdown-printing exec blocks, the snapshot "
        f"{len(snapshots[key])}: update the snapshot (see the module docstring)")
    for k, (got, want) in enumerate(zip(outputs, snapshots[key])):
        assert got == want, f"{key}: exec block {k + 1} prints something new:\n{got}\n---\nsnapshot:\n{want}"
