"""The notebook playground runs from top to bottom without an error, with this checkout's posenc.

The site build executes it (mkdocs-jupyter, ``allow_errors: false``), and every run's browser tests
read its outputs on the built page (tests/site/browser/test_explorers.py::test_notebook_page_renders_and_downloads:
the two heatmaps, the Gram line, nothing on stderr). This second execution, under pytest with a
probe of which posenc the kernel imports, runs in the slow leg (make slow, CI; POSENC_TEST_SLOW=1).
"""

from __future__ import annotations

import os
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.py"))


def test_there_is_a_notebook():
    assert NOTEBOOKS, "docs/notebooks/ holds no percent-format notebook"


@pytest.mark.skipif(os.environ.get("POSENC_TEST_SLOW") != "1",
                    reason="the build executes the notebook and the browser tests read it; the "
                           "slow leg (make slow, CI) runs it again here; set POSENC_TEST_SLOW=1")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_without_error(path, monkeypatch):
    notebook = jupytext.read(path)
    assert notebook.metadata["kernelspec"]["language"] == "python"
    # The kernel is a new process: make it import this checkout's posenc, not an installed one.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    probe = "import posenc, pathlib; print('posenc from', pathlib.Path(posenc.__file__).parents[1])"
    notebook.cells.append(nbformat.v4.new_code_cell(probe))
    client = NotebookClient(notebook, timeout=60, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(ROOT)}})
    client.execute()           # raises CellExecutionError on the first failing cell
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "same Gram matrix (all dot products): True" in text
    svgs = [o for o in outputs if "text/html" in o.get("data", {}) and "<svg" in o["data"]["text/html"]]
    assert len(svgs) == 2, "the two heatmaps should be displayed as inline SVG"
    assert f"posenc from {ROOT}\n" in text, "the kernel imported another copy of posenc"
    stderr = [o for o in outputs if o.output_type == "stream" and o.get("name") == "stderr"]
    assert not stderr, f"the notebook wrote to stderr (warnings?): {stderr}"
