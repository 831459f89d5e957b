"""A cross-reference to the API reference that names no documented object fails the strict build.

Two tiny MkDocs projects with the site's mkdocstrings configuration: one page renders
``posenc.layouts`` and links ``[`permutation`][posenc.layouts.permutation]`` (builds), the other
links a name that does not exist (must fail, naming it). A few seconds each.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("mkdocstrings")


def _plugins_block() -> str:
    """The mkdocstrings entry of the site's mkdocs.yml, verbatim."""
    text = (ROOT / "mkdocs.yml").read_text()
    block = re.search(r"^  - mkdocstrings:\n(?:^      .*\n|^\s*\n)+", text, flags=re.M)
    assert block, "mkdocs.yml has no mkdocstrings plugin entry"
    return block.group(0)


def _build(tmp_path: Path, page: str) -> subprocess.CompletedProcess:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: crossrefs\nstrict: true\nplugins:\n" + _plugins_block())
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


def test_a_resolved_reference_builds(tmp_path):
    done = _build(tmp_path, "# API\n\n::: posenc.layouts\n\nSee [`permutation`]"
                            "[posenc.layouts.permutation].\n")
    assert done.returncode == 0, done.stderr[-2000:]
    html = (tmp_path / "site" / "index.html").read_text()
    assert 'href="#posenc.layouts.permutation"' in html


def test_a_broken_reference_fails_the_strict_build(tmp_path):
    done = _build(tmp_path, "# API\n\n::: posenc.layouts\n\nSee [`nothing`]"
                            "[posenc.layouts.nothing].\n")
    assert done.returncode != 0
    assert "posenc.layouts.nothing" in done.stderr
