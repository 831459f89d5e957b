"""The wheel the site serves (hooks/downloads.py) installs offline and runs, as "Run it yourself"
tells readers; the files the page links to are checked in the built site by tests/site/browser/test_explorers.py.

The install goes into a fresh virtual environment made without pip (quick), by this
environment's pip (``pip --python``) with ``--no-index``: no network. The reader's first command
gives the environment their own NumPy and matplotlib (``--system-site-packages``); here a
``.pth`` file lends it this environment's packages instead, except posenc itself, so the posenc
that imports can only be the one from the wheel.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import numpy
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from hooks import downloads  # noqa: E402

PAGE = ROOT / "docs" / "run-it-yourself.md"


def page_commands() -> list[str]:
    block = re.search(r"```bash\n(.*?)```", PAGE.read_text(), re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    names = downloads.names()
    for name, value in names.items():
        commands = [line.replace(name, value) for line in commands]
    return [" ".join(line.split()) for line in commands]


def test_page_gives_three_offline_commands():
    commands = page_commands()
    assert len(commands) == 3, commands
    assert "--no-index" in commands[1] and downloads.names()["POSENC_WHEEL"] in commands[1]


def test_wheel_metadata_names_its_dependencies():
    wheel = downloads.build_dist() / downloads.names()["POSENC_WHEEL"]
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(f"posenc-{downloads.version()}.dist-info/METADATA").decode()
        assert "posenc/encoding.py" in z.namelist()
    requires = re.findall(r"^Requires-Dist: ([A-Za-z0-9_.-]+)[^;\n]*(?:; extra == \"(\w+)\")?",
                          meta, re.M)
    # NumPy only; matplotlib and mpmath come with the extras the page's command names
    assert [name for name, extra in requires if not extra] == ["numpy"], requires
    assert {("matplotlib", "plots"), ("mpmath", "precision"), ("torch", "torch")} <= \
        set(requires), requires


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths in the page's commands")
def test_wheel_installs_offline_and_runs(tmp_path):
    wheel = downloads.build_dist() / downloads.names()["POSENC_WHEEL"]
    (tmp_path / wheel.name).write_bytes(wheel.read_bytes())
    env = tmp_path / "posenc-env"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    target = Path(subprocess.check_output(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True).strip())
    lent = tmp_path / "lent"                          # this environment's packages, less posenc
    lent.mkdir()
    here = Path(sysconfig.get_paths()["purelib"])
    assert (here / "numpy").samefile(Path(numpy.__file__).parent)
    for entry in here.iterdir():
        if not entry.name.lower().startswith(("posenc", "__editable__")) and entry.suffix != ".pth":
            (lent / entry.name).symlink_to(entry)
    (target / "lent.pth").write_text(str(lent) + "\n")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_FIND_LINKS")}
    clean.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull)
    # The page's second command, with this environment's pip pointed at the new one.
    words = shlex.split(page_commands()[1])
    assert words[:2] == ["posenc-env/bin/pip", "install"]
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    *words[2:]], cwd=tmp_path, env=clean, check=True)
    # The third: Python with posenc imported, and a block pasted at its prompt.
    words = shlex.split(page_commands()[2])
    assert words[0] == "posenc-env/bin/python"
    block = ("import posenc.plots\n"
             "print(posenc.__file__)\n"
             "print(round(float(posenc.encode(50, 512)[10, 6]), 6))\n")
    result = subprocess.run([str(tmp_path / words[0]), *words[1:]], input=block, cwd=tmp_path,
                            env=clean, capture_output=True, text=True, check=True)
    assert len(result.stdout.split()) == 2, (result.stdout, result.stderr)
    where, value = result.stdout.split()
    assert Path(where).is_relative_to(target), f"posenc imported from {where}, not the wheel"
    assert value == "0.43308"                        # the home page's entry, sin(10 / 10000^(6/512))


def test_repo_url_only_when_configured(monkeypatch):
    monkeypatch.delenv("POSENC_REPO_URL", raising=False)
    assert downloads.on_config({"repo_url": None, "edit_uri": None})["repo_url"] is None
    monkeypatch.setenv("POSENC_REPO_URL", "https://example.org/posenc")
    config = downloads.on_config({"repo_url": None, "edit_uri": None})
    assert config["repo_url"] == "https://example.org/posenc" and config["edit_uri"].endswith("docs/")
