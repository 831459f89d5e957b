"""Mutation testing of the doc tests: change the package in a copy, run only the pages' tests.

Used by tests/harness/test_harness_bites.py (two mutants, every test run) and scripts/mutants.py
(the whole set, `make mutants`). A mutant names the exact text it replaces, so one that no longer
applies is reported as an error instead of silently testing nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str            # file relative to the repository root
    old: str             # exact text, must occur exactly once
    new: str
    why: str = ""        # what claim it breaks


def copy_project(dest: Path) -> None:
    for name in ("posenc", "docs", "hooks", "tests", "harness", "scripts"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("conftest.py", "pyproject.toml", "README.md", "mkdocs.yml"):
        shutil.copy(ROOT / name, dest / name)


def apply(mutant: Mutant, dest: Path) -> None:
    target = dest / mutant.path
    source = target.read_text()
    found = source.count(mutant.old)
    if found != 1:
        raise ValueError(f"mutant {mutant.name!r}: expected the text once in {mutant.path}, "
                         f"found it {found} times; update the mutant")
    target.write_text(source.replace(mutant.old, mutant.new))


def run_doc_tests(dest: Path, stop_at_first: bool = True, timeout: float = 600,
                  pages: tuple[str, ...] = ("docs",)):
    """Run the doc tests of ``pages`` (default: all of docs/) in ``dest``;
    return (killed, seconds, report)."""
    env = {**os.environ, "PYTHONPATH": str(dest), "MPLBACKEND": "Agg"}
    where = subprocess.run([sys.executable, "-c", "import posenc; print(posenc.__file__)"],
                           cwd=dest, env=env, capture_output=True, text=True, check=True)
    if not where.stdout.strip().startswith(str(dest)):
        raise RuntimeError(f"the copy in {dest} was not the posenc imported: {where.stdout}")
    cmd = [sys.executable, "-m", "pytest", *pages, "-q", "-p", "no:cacheprovider"]
    if stop_at_first:
        cmd.append("-x")
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=dest, env=env, capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - start
    report = run.stdout + run.stderr
    if run.returncode not in (0, 1):
        raise RuntimeError(f"doc tests could not run (exit {run.returncode}):\n{report[-3000:]}")
    return run.returncode == 1, seconds, report


# Mutants of the harness itself: each loosens a check the harness promises, and the harness's
# own tests (HARNESS_TESTS) must notice. scripts/mutants.py runs them after the package mutants.
HARNESS_TESTS = ("tests/harness/test_harness.py", "tests/harness/test_prose_numbers.py",
                 "tests/harness/test_claim_words.py", "tests/harness/test_causes.py",
                 "tests/harness/test_scope.py")
HARNESS_MUTANTS = [
    Mutant("docstring examples not collected", "harness/collect.py",
           "pytest_collect_file = (markdown_sybil + docstring_sybil).pytest()",
           "pytest_collect_file = markdown_sybil.pytest()",
           "every >>> example in posenc's docstrings runs"),
    Mutant("exception details ignored", "harness/collect.py",
           "OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE",
           "OPTIONFLAGS = (doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE\n"
           "               | doctest.IGNORE_EXCEPTION_DETAIL)",
           "a traceback example checks the error's message"),
    Mutant("outputs compared to the digits written", "harness/collect.py",
           "    evaluator = DocTestEvaluator(optionflags)",
           "    from sybil.evaluators.doctest import NUMBER\n"
           "    evaluator = DocTestEvaluator(optionflags | NUMBER)",
           "a shown output is exactly what Python prints"),
    Mutant("claim markers not collected", "harness/collect.py",
           "CODE_PARSERS = [FenceParser(), ClaimMarkerParser(), SkipParser(), ClearNamespaceParser()]",
           "CODE_PARSERS = [FenceParser(), SkipParser(), ClearNamespaceParser()]",
           "<!-- check: ... --> markers are evaluated"),
    Mutant("scan: whole-unit tolerance", "harness/values.py",
           "HALF_UNIT_SLACK = 1 + 1e-9", "HALF_UNIT_SLACK = 2 + 1e-9",
           "a prose number is the value rounded to the digits written"),
    Mutant("scan: 1% relative match", "harness/values.py",
           "REL_TOL = 1e-12", "REL_TOL = 0.01", "no relative slack beyond rounding"),
    Mutant("scan: table rows skipped", "harness/numbers.py",
           '             if page.kind[lineno] != "comment"]',
           '             if page.kind[lineno] != "comment" and not raw.lstrip().startswith("|")]',
           "numbers in tables are scanned"),
    Mutant("scan: any block of the section checks", "harness/numbers.py",
           "pool = [b for b in by_section.get(section, []) if near is None or b.first in near]",
           "pool = list(by_section.get(section, []))",
           "a number is checked only by a block next to its paragraph"),
    Mutant("numbers: a check that shows the neighbouring value too binds", "harness/numbers.py",
           "    neighbours(report)\n    return report", "    return report",
           "a number its check cannot tell from its neighbour is ambiguous"),
    Mutant("numbers: a restatement may restate its neighbour", "harness/agreement.py",
           "n.neighbours = [v for v in (n.value - 2 * n.half, n.value + 2 * n.half)",
           "n.neighbours = [v for v in ()",
           "a restatement is compared with what it restates, not its neighbour"),
    Mutant("numbers: a bound rounds either way", "harness/numbers.py",
           "                bound = _bound_word(before)",
           "                bound = None",
           "a bound after at least/at most is rounded to its safe side"),
    Mutant("words: one check serves every sentence of a paragraph", "harness/words.py",
           "        _one_check_per_sentence(found, mine, near, k, el, path, owner)\n", "",
           "each sentence saying a word needs its own check"),
    Mutant("numbers: equal numbers on a line share one output", "harness/agreement.py",
           "        if len(outs) < len(found):", "        if False:",
           "two equal numbers on a line need two outputs (agreement, not presence)"),
    Mutant("numbers: any short output restates", "harness/agreement.py",
           "significant_digits(n.text) >= 4", "significant_digits(n.text) >= 1",
           "a restatement is compared with what it restates"),
    Mutant("answer markers not evaluated", "harness/collect.py",
           "found = _deferred(example, page) + broken", "found = broken",
           "the answer's claim markers run at the end of the page"),
    Mutant("noise: any number of digits printed", "harness/rules.py",
           "NOISE_DIGITS = 12", "NOISE_DIGITS = 99", "a full-precision float printed fails"),
    Mutant("words: a check's names state nothing", "harness/vocabulary.py",
           "            stated |= {canonical(p) for p in parts if canonical(p) in WORDS}",
           "            pass",
           "flipping a word to a non-claim word leaves the check's word unsaid"),
    Mutant("causes: a cause check need not name the cause", "harness/causes.py",
           "                if not s.verdict and says(s.text, lab):",
           "                if not s.verdict:",
           "a cause check binds only the sentence that says its cause"),
    Mutant("causes: a source marker needs no link", "harness/causes.py",
           "ok = bool(SOURCE_LINK.search(bare))", "ok = True",
           "a sourced cause links its source"),
    Mutant("words: a check's direction need not be said", "harness/words.py",
           "            if len(stating) > spoken.count(d) and (",
           "            if False and (",
           "a definition's direction (at least 0.001) is bound to the check that states it"),
    Mutant("scope: a sampled domain need not be stated", "harness/scope.py",
           "                missing = sorted(_numbers(d) - said)",
           "                missing = []",
           "a check's declared sample is stated by its paragraph"),
    Mutant("scope: a family need not be named member by member", "harness/scope.py",
           "ok = (_members(prose, members) if members else bool(NUMBER.search(prose)))",
           "ok = True",
           "half precision is float16 and bfloat16, each checked"),
    Mutant("numbers: a float in a code span is never read", "harness/rules.py",
           "                if float(x) not in held:", "                if False:",
           "a figure in backticks is a value of the page's code"),
    Mutant("words: a direction word needs no check", "harness/words.py",
           "        if involved and all(room[c] > 0 for c in involved):", "        if involved:",
           "a direction, same or order word is a claim word past its page's cap"),
    Mutant("lint: a check need not name the word", "harness/words.py",
           "s.missing = [w for w in words if not any(names(c.text, w) for c in near)]",
           "s.missing = [] if near else list(words)",
           "flipping a claim word leaves it without a check"),
]
