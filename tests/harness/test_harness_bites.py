"""Prove the doc tests bite: change the formula in a copy of the package, run only the doc tests
of the pages, and expect them to fail on a wrong value (not on a crash).

`make mutants` runs the full set of mutants over every page (scripts/mutants.py); these two run
with every `make test`, on the two pages the foundation started with, to stay quick.
"""

from __future__ import annotations

import pytest

from tests.harness.mutation import Mutant, apply, copy_project, run_doc_tests

FIRST_PAGES = ("docs/index.md", "docs/chapters/01-why-positions.md")

MUTANTS = [
    Mutant("base 10000 -> 10001", "posenc/encoding.py", "BASE = 10000.0", "BASE = 10001.0"),
    # The pages build integer-position tables with the rotation builder, whose exact rows come
    # from phasors (sin + i cos): swapping their parts swaps sin and cos at position 0.
    Mutant("sin and cos swapped", "posenc/fast.py",
           "z.real = np.sin(theta)\n    z.imag = np.cos(theta)",
           "z.real = np.cos(theta)\n    z.imag = np.sin(theta)"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_doc_tests_fail_when_the_formula_changes(mutant, tmp_path):
    copy_project(tmp_path)
    apply(mutant, tmp_path)
    killed, _, report = run_doc_tests(tmp_path, pages=FIRST_PAGES)
    assert killed, f"doc tests did not fail under mutant {mutant.name!r}:\n{report[-2000:]}"
    assert "did not evaluate as expected" in report or "AssertionError" in report, report[-2000:]


def test_a_stale_mutant_is_an_error(tmp_path):
    copy_project(tmp_path)
    with pytest.raises(ValueError, match="update the mutant"):
        apply(Mutant("gone", "posenc/encoding.py", "text that is not there", "x"), tmp_path)


def test_every_harness_mutant_still_applies(tmp_path):
    """`make mutants` kills the harness mutants; here only check each still finds its text, so
    a refactor of the harness cannot quietly turn one into a no-op."""
    from tests.harness.mutation import HARNESS_MUTANTS

    copy_project(tmp_path)
    for mutant in HARNESS_MUTANTS:
        apply(mutant, tmp_path)
