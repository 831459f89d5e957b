"""scripts/update_outputs.py: the optional update mode that rewrites stale ``>>>`` outputs."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "update_outputs.py"
PAGE = ("# T\n\n```pycon\n>>> import numpy as np\n>>> x = np.sin(1.0)\n>>> round(x, 3)\n0.900\n"
        ">>> x\n0.841\n```\n\n??? note \"Check\"\n\n    ```pycon\n    >>> 2 + 2\n    5\n    ```\n")


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_check_mode_names_each_stale_output_and_changes_nothing(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(PAGE)
    run = _run(str(page), "--check")
    assert run.returncode == 1
    assert "p.md:7: '0.900' -> '0.841'" in run.stdout and "'5' -> '4'" in run.stdout
    # a shown output is what Python prints (no rounding tolerance): 0.841 for x is stale too
    assert "p.md:9: '0.841' -> '0.8414709848078965'" in run.stdout
    assert page.read_text() == PAGE


def test_update_mode_rewrites_the_stale_outputs_only(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(PAGE)
    assert _run(str(page)).returncode == 0
    text = page.read_text()
    assert ">>> round(x, 3)\n0.841\n>>> x\n0.8414709848078965\n" in text
    assert "    >>> 2 + 2\n    4\n" in text
    assert _run(str(page), "--check").returncode == 0
