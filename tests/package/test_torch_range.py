"""The `torch` extra names a range, and CI tests both of its ends (issue 31).

`make test` and every other CI leg run on .venv's torch, installed from the Makefile's `TORCH`;
`make torch-range` (CI's `torch` leg, scripts/torch_range.sh) installs posenc[torch] beside each
version of `TORCH_RANGE` in a second venv and runs the torch tests there. These tests tie the
three places together, so that widening the range in pyproject.toml without testing its new end
fails here.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def torch_range() -> SpecifierSet:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    (requirement,) = extras["torch"]
    name, spec = re.fullmatch(r"(torch)\s*([<>=!~].*)", requirement).groups()
    return SpecifierSet(spec)


def make_variable(name: str) -> str:
    return re.search(rf"^{name}\s*\?=\s*(.+)$", (ROOT / "Makefile").read_text(), re.M).group(1)


def test_the_extra_is_a_range_with_both_ends():
    spec = torch_range()
    operators = sorted(s.operator for s in spec)
    assert operators == ["<", ">="], f"the torch extra must be a range >=LOW,<HIGH, got {spec}"


def test_ci_tests_the_lower_end_in_venv():
    spec = torch_range()
    low = Version(next(s.version for s in spec if s.operator == ">="))
    pinned = Version(make_variable("TORCH").removeprefix("torch=="))
    assert pinned in spec, (pinned, spec)
    assert (pinned.major, pinned.minor) == (low.major, low.minor), (
        f".venv's torch {pinned} is not the range's lower end {low}")


def test_ci_tests_the_newest_end_and_another_version():
    spec = torch_range()
    high = Version(next(s.version for s in spec if s.operator == "<"))
    versions = [Version(v) for v in make_variable("TORCH_RANGE").split()]
    assert len(versions) >= 2 and all(v in spec for v in versions), (versions, spec)
    newest = versions[0]
    # The newest release below <MAJOR.MINOR is a MAJOR.(MINOR-1).x release.
    assert (newest.major, newest.minor) == (high.major, high.minor - 1), (
        f"TORCH_RANGE's first version {newest} is not the newest minor below {high}")
    pinned = Version(make_variable("TORCH").removeprefix("torch=="))
    assert pinned not in versions                      # versions other than .venv's


def test_ci_runs_the_range_leg():
    run = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^leg torch make torch-range$", run, re.M), "CI must run make torch-range"
    script = (ROOT / "scripts" / "torch_range.sh").read_text()
    assert "pip_install \"torch==$version\"" in script
    assert "left torch $got" in script                  # posenc[torch] must keep that torch
