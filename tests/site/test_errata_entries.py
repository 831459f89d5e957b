"""Each entry of the claims page (docs/errata.md) runs on its own, and says whether the claim
changes a model's output.

The page runs top to bottom with the doc tests; here each ``###`` entry runs alone, in a fresh
namespace holding only the page's opening import block, so an entry cannot lean on a name an
entry above it made (a reader jumps to one entry from the table). Every entry, including those
added later, also carries a line ``**Changes a model's output?** Yes ...`` or ``No ...``.
"""

from __future__ import annotations

import doctest
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "errata.md"
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,})[ \t]*(?:\{[ \t]*\.)?(?P<lang>pycon|python|py)"
                   r"\b[^\n]*\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S)
ENTRY = re.compile(r"^### (?P<title>.*?)(?:\{#(?P<anchor>[\w-]+)\})?[ \t]*$", re.M)
OUTPUT = re.compile(r"\*\*Changes a model's output\?\*\* (Yes|No)\b")


def sections():
    """The page's opening text (before the first ``##``) and each ``###`` entry's text."""
    text = PAGE.read_text()
    preamble = text[:text.index("\n## ")]
    starts = [m for m in ENTRY.finditer(text)]
    entries = []
    for m, nxt in zip(starts, starts[1:] + [None]):
        end = nxt.start() if nxt else len(text)
        body = text[m.end():end]
        body = re.split(r"^## ", body, flags=re.M)[0]          # stop at the next group
        entries.append((m.group("anchor") or m.group("title"), body))
    return preamble, entries


def blocks(text):
    return [(m.group("lang"), textwrap.dedent(m.group("body"))) for m in FENCE.finditer(text)]


def run(code_blocks, namespace, name):
    from harness.collect import OPTIONFLAGS, ExactChecker

    runner = doctest.DocTestRunner(checker=ExactChecker(), optionflags=OPTIONFLAGS)
    failures = []
    for lang, body in code_blocks:
        if lang == "pycon" or body.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(body, namespace, name, str(PAGE), 0)
            runner.run(test, out=failures.append, clear_globs=False)
            namespace.update(test.globs)              # DocTest ran in a copy
        else:
            exec(compile(body, f"{PAGE}:{name}", "exec"), namespace)
    return failures


PREAMBLE, ENTRIES = sections()


def test_the_opening_block_only_imports():
    for _, body in blocks(PREAMBLE):
        lines = [line.removeprefix(">>> ").strip() for line in body.splitlines() if line.strip()]
        assert all(line.startswith(("import ", "from ")) for line in lines), lines


@pytest.mark.parametrize("name, body", ENTRIES, ids=[name for name, _ in ENTRIES])
def test_entry_runs_on_its_own(name, body):
    code = blocks(body)
    if not code:
        pytest.skip("no code in this entry")
    saved = np.get_printoptions()
    np.set_printoptions(legacy="1.25")
    try:
        namespace: dict = {}
        assert not run(blocks(PREAMBLE), namespace, "preamble")
        failures = run(code, namespace, name)
    finally:
        np.set_printoptions(**saved)
    assert not failures, "".join(failures)[:4000]


@pytest.mark.parametrize("name, body", ENTRIES, ids=[name for name, _ in ENTRIES])
def test_entry_says_whether_the_claim_changes_a_models_output(name, body):
    assert len(OUTPUT.findall(body)) == 1, (
        f"#{name}: add one line **Changes a model's output?** Yes/No, and why")
