"""posenc needs NumPy only; the PyTorch module NumPy and torch. matplotlib (``posenc[plots]``)
and mpmath (``posenc[precision]``) are extras: importing posenc or posenc.torch_module never
imports them, and a part that needs a missing one says which extra installs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CODE = """
import importlib, os, pkgutil, sys
for name in filter(None, os.environ["BLOCKED"].split(",")):
    sys.modules[name] = None            # as if not installed: import and find_spec fail
import posenc
try:
    import posenc.torch_module
except ModuleNotFoundError as exc:
    if exc.name != "torch":
        raise
loaded = sorted({m.split(".")[0] for m, module in sys.modules.items() if module is not None}
                & {"matplotlib", "mpmath", "PIL"})
print("loaded", loaded)
for info in pkgutil.walk_packages(posenc.__path__, "posenc."):
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as exc:
        print(info.name, "|", exc.name, "|", exc)
"""


def run(blocked):
    """Run CODE with ``blocked`` packages made unimportable (as if not installed)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                             check=True, cwd=tmp, env={"PYTHONPATH": str(ROOT),
                                                       "BLOCKED": ",".join(blocked),
                                                       "PATH": "/usr/bin:/bin"})
    return out.stdout.splitlines()


def test_importing_posenc_and_the_module_loads_no_plotting_or_precision_package():
    assert run([])[0] == "loaded []"


def test_without_the_extras_each_optional_part_names_its_extra():
    lines = run(["matplotlib", "mpmath"])
    assert lines[0] == "loaded []"
    failed = {name: (package, message) for name, package, message in
              (line.split(" | ") for line in lines[1:])}
    assert {"posenc.plots", "posenc.rounding", "posenc.precision", "posenc.omega_forms"} \
        <= set(failed)
    extras = {"matplotlib": "plots", "mpmath": "precision", "torch": "torch"}
    for name, (package, message) in failed.items():
        assert f"pip install 'posenc[{extras[package]}]'" in message, (name, message)


def test_without_torch_the_module_and_the_lab_name_the_torch_extra():
    lines = run(["torch"])
    failed = {name: message for name, _, message in (line.split(" | ") for line in lines[1:])}
    assert {"posenc.torch_module", "posenc.lab"} <= set(failed), failed
    for name, message in failed.items():
        assert "pip install 'posenc[torch]'" in message, (name, message)
