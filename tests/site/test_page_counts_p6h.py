"""Small counts and statements that the page checks did not bind (review-2026-12 p6h pass 6).

harness/numbers.py skips integers 0 to 9 and number words, and a formula or a word in prose is
not compared with anything. p6h flipped such words on chapter 5, the sources ledger and
run-it-yourself ("three numbers" to "four", "eight closest pairs" to "seven", "close to -1" to
"1", "an odd multiple" to "even", "the crest at pi/2" to "pi/3", "2/99" to "2/100" in the
Summary, "2/(n-1)" to "1/(n-1)" in Exercise 3, "four source articles" to "five", "three commands"
to "two", "the two extras" to "three") and every page check still passed. Each is computed here
in plain Python or NumPy, so a flip fails.
"""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig

import numpy as np
import pytest
import yaml

from tests.site.test_prose_counts import ROOT, as_number

CH05 = "docs/chapters/05-is-one-sine-enough.md"
RUN = "docs/run-it-yourself.md"
LEDGER_PAGE = "docs/sources-ledger.md"


def page(path: str) -> str:
    return re.sub(r"\s+", " ", (ROOT / path).read_text())


def three_commands() -> list[str]:
    block = re.search(r"```bash\n(.*?)```", (ROOT / RUN).read_text(), re.S)[1]
    return [line for line in block.splitlines() if line.strip()]


def ch05_measures() -> int:
    """The frequency comparison prints, after omega, the median step, the last rising position
    and the closest pair with its distance: the measures the sentence counts."""
    line = re.search(r"^1\.0 .*$", (ROOT / CH05).read_text(), re.M)[0]
    return len(re.findall(r"\(\d+, \d+\) \S+|\S+", line)[1:])


def ch05_exercise2_pairs() -> int:
    return int(re.search(r"nearest_pairs\(single_sine\(np\.arange\(1000\)\), count=(\d+)\)",
                         (ROOT / CH05).read_text())[1])


def mirrored(word: str) -> bool:
    """sin a = sin b when a + b is an odd multiple of pi (not an even one), for any a."""
    a = np.linspace(0.1, 3.0, 30)
    odd = all(np.allclose(np.sin(a), np.sin(k * np.pi - a)) for k in (1, 3, 5))
    even = all(np.allclose(np.sin(a), np.sin(k * np.pi - a)) for k in (2, 4, 6))
    return {"odd": odd and not even, "even": even and not odd}.get(word, False)


def crest(n: str) -> bool:
    grid = np.linspace(0, np.pi, 100_001)
    return abs(grid[np.argmax(np.sin(grid))] - np.pi / int(n)) < 1e-4


def bound(numerator: str, n_values: int | None = None) -> bool:
    """n values in [-1, 1] have two at most numerator/(n - 1) apart, and evenly spaced values
    reach it: true for numerator 2 only."""
    ok = True
    for n in ((n_values,) if n_values else (2, 10, 100)):
        limit = int(numerator) / (n - 1)
        rng = np.random.default_rng(n)
        ok &= all(np.diff(np.sort(rng.uniform(-1, 1, n))).min() <= limit for _ in range(200))
        ok &= abs(np.diff(np.linspace(-1, 1, n)).min() - limit) < 1e-12
    return bool(ok)


COUNTS = [
    (CH05, r"Compare the two over positions 0 to 99 by (\w+) numbers", ch05_measures),
    (CH05, r"For each of the (\w+) closest pairs", ch05_exercise2_pairs),
    (RUN, r"then (\w+) commands install it", lambda: len(three_commands())),
    (RUN, r"^## (\w+) commands", lambda: len(three_commands())),
    (RUN, r"installs the wheel with the (\w+) extras the chapters use",
     lambda: len(re.search(r"\[([\w,]+)\]", three_commands()[1])[1].split(","))),
    (LEDGER_PAGE, r"written from (\w+) source articles",
     lambda: len(yaml.safe_load((ROOT / "docs/data/seed-claims.yml").read_text())["sources"])),
]

HOLDS = [
    (CH05, r"differ by just 0\.000235, both close to (-?\d)",
     lambda v: round(np.sin(11)) == round(np.sin(55)) == int(v)),
    (CH05, r"when \\\(a \+ b\\\) is an (\w+) multiple of \\\(\\pi\\\)", mirrored),
    (CH05, r"short of the crest at \\\(\\pi/(\d+)\\\)", crest),
    (CH05, r"100 values in \\\(\[-1, 1\]\\\) have a pair at most \\\((\d+)/99\\\) apart",
     lambda numerator: bound(numerator, 100)),
    (CH05, r"\\\(n\\\) values in \\\(\[-1, 1\]\\\) always have two within \\\((\d+)/\(n-1\)\\\)",
     bound),
    (RUN, r"mpmath of `python3` itself, not (a virtual environment)'s", lambda _: True),
]


def _id(entry) -> str:
    return entry[0].split("/")[-1][:6] + ":" + re.sub(r"[^A-Za-z0-9 ]", "", entry[1])[:30]


@pytest.mark.parametrize("entry", COUNTS, ids=_id)
def test_small_count_agrees(entry):
    path, pattern, value = entry
    found = re.findall(pattern, page(path) if not pattern.startswith("^") else
                       (ROOT / path).read_text(), re.M)
    assert found, f"{path}: the sentence {pattern!r} is gone; update this test with it"
    for group in found:
        assert as_number(group) == value(), (path, pattern, group, value())


@pytest.mark.parametrize("entry", HOLDS, ids=_id)
def test_small_statement_holds(entry):
    path, pattern, holds = entry
    found = re.findall(pattern, page(path))
    assert found, f"{path}: the sentence {pattern!r} is gone; update this test with it"
    for match in found:
        assert holds(*(match if isinstance(match, tuple) else (match,))), (path, pattern, match)


def test_a_venv_made_from_a_venv_does_not_see_its_packages(tmp_path):
    """run-it-yourself: `python3 -m venv --system-site-packages` sees the packages of the base
    installation (sys.base_prefix), not those of a virtual environment python3 belongs to, so
    "the NumPy, matplotlib and mpmath you already have" held only outside one."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("this Python is not a virtual environment")
    ours = sysconfig.get_paths()["purelib"]
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(env)], check=True)
    python = env / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    seen = subprocess.run([str(python), "-c", "import sys; print('\\n'.join(sys.path))"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    assert ours not in seen
    assert sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix}
                               )["purelib"] in seen
