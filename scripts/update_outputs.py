"""Rewrite the ``>>>`` outputs of a page from what its code prints now (issue 20's update mode).

Usage: python scripts/update_outputs.py PAGE [PAGE ...] [--check]

Runs the page's Python blocks in order in one namespace, as its doc tests do (NumPy's legacy
print mode; an ``exec="on"`` block in a fresh namespace of its own; ``<!-- clear-namespace -->``
starts a new one), and compares each ``>>>`` example's output with the text under it, using
the doc tests' own checker (a written float is the value rounded to the digits shown, so
``0.841`` for 0.84147 is not rewritten). An output that disagrees is replaced by what the code
printed, at full length: round it in the code if the page should show fewer digits. Tracebacks
are left alone. ``--check`` only prints the outputs that would change and exits 1 if any would.

The rewritten page still has to pass its rules: a prose number that restated the old output
now fails until the sentence says the new value, which is the point.
"""

from __future__ import annotations

import argparse
import contextlib
import doctest
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from harness.collect import OPTIONFLAGS, ExactChecker  # noqa: E402
from harness.page import read  # noqa: E402


def _run(source: str, namespace: dict) -> str:
    """What the interactive prompt prints for one example (an expression's repr included)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<example>", "single"), namespace)
    return out.getvalue()


def updates(path) -> list:
    """(first line, last line, indent, old text, new text) of each output that disagrees."""
    page = read(path)
    checker = ExactChecker()
    found = []
    printoptions = np.get_printoptions()
    np.set_printoptions(legacy="1.25")
    try:
        namespace: dict = {"__name__": "__main__"}
        clears = [n for n, line in enumerate(page.lines, start=1)
                  if "<!-- clear-namespace" in line and page.kind[n] != "fence"]
        for fence in page.fences:
            if not fence.python:
                continue
            if any(c < fence.first for c in clears):
                namespace = {"__name__": "__main__"}
                clears = [c for c in clears if c > fence.first]
            if fence.exec_on:
                continue
            if not fence.doctest:
                exec(compile(fence.source, str(path), "exec"), namespace)
                continue
            for ex in doctest.DocTestParser().get_examples(fence.source):
                if ex.exc_msg is not None or ex.want.startswith("Traceback"):
                    continue
                got = _run(ex.source, namespace)
                if checker.check_output(ex.want, got, OPTIONFLAGS):
                    continue
                first = fence.body[0][0] + ex.lineno + ex.source.count("\n")
                last = first + ex.want.count("\n") - 1
                found.append((first, last, fence.indent, ex.want, got))
    finally:
        np.set_printoptions(**printoptions)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--check", action="store_true", help="print, do not rewrite")
    args = parser.parse_args(argv)
    changed = 0
    for name in args.pages:
        path = Path(name)
        found = updates(path)
        changed += len(found)
        for first, last, _, old, new in found:
            print(f"{path}:{first}: {old.strip()!r} -> {new.strip()!r}")
        if found and not args.check:
            lines = path.read_text().splitlines(keepends=True)
            for first, last, indent, _, new in reversed(found):
                if not new.strip():
                    continue             # no output now: a person decides what to show
                lines[first - 1:last] = [indent + line + "\n" for line in new.splitlines()]
            path.write_text("".join(lines))
    print(f"{changed} output(s) {'differ' if args.check else 'rewritten'}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
