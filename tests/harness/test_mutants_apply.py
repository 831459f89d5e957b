"""Every mutant of the mutation legs still applies: its text occurs exactly once in its file.
A refactor that moves or rewrites a mutated line fails here, in `make test`, instead of in CI's
mutants leg (session 11: a reviewer's rewrite of posenc.scaling's NTK base left one mutant
pointing at a line that no longer existed)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import mutants  # noqa: E402
from tests.harness.mutation import HARNESS_MUTANTS  # noqa: E402


@pytest.mark.parametrize("mutant", [*mutants.MUTANTS, *HARNESS_MUTANTS], ids=lambda m: m.name)
def test_the_mutant_text_occurs_once(mutant):
    assert (ROOT / mutant.path).read_text().count(mutant.old) == 1, mutant.path
