"""The claims page's second half (#padding-idx to the end), as review-2026-12 p3l pass 3 left it.

- every entry of the page has a row in the index table (the three lab entries had none);
- each seed claim of this half names the one seed article it is in, in the entry and its row;
- each entry of this half runs on its own with NumPy's default printing, as the page's intro
  promises (#float16 printed ``np.True_``);
- wording the review found wrong where no page check binds the word stays gone.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "errata.md"
WHY = "review-2026-12 p3l pass 3: "

OLD = [
    ("unless trained weights cancel both", WHY + "#no-easy-way: with the product cancelled and "
     "the two single-position terms opposite (not zero), every pair 3 apart scores the same"),
    ("positions or angles held in float16", WHY + "#float16: angles held in float16 keep 2048 "
     "and 2049 apart (d_model 64: first equal neighbouring rows at 8543); positions merge them"),
    ("agree on these accuracies", WHY + "lab intro: post-norm learned reaches 0.0843 (the entry "
     "says at most 0.082), post-norm RoPE 0.8758 (the entry says at least 0.971); the verdicts "
     "agree, the accuracies do not"),
    (r"Made in a seed article, of \(\omega_i", WHY + "#wavelength-divisor: seed 003 gives the "
     "name to the term 10000^{2i/d}, the divisor, and then sets it equal to omega_i"),
    ("the last bits of `sin` and `cos` favour", WHY + "#circle-collisions: an unchecked claim "
     "about machines' math libraries, cut"),
    ("For integer positions and one frequency, two", WHY + "#circle-collisions: at a frequency "
     "that is a rational multiple of pi (pi / 2: positions 0 and 4) positions do collide; the "
     "check and the pi-is-irrational argument are for frequency 1"),
]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def second_half():
    page = PAGE.read_text()
    part = page[page.index("{#padding-idx}"):page.index("## What we got wrong")]
    for entry in re.split(r"\n### ", part):
        name = re.search(r"\{#([^}]+)\}", entry).group(1)
        yield name, entry


ENTRIES = list(second_half())


@pytest.mark.parametrize("phrase, finding", OLD, ids=[p[:30] for p, _ in OLD])
def test_old_wording_stays_gone(phrase, finding):
    assert flat(phrase) not in flat(PAGE.read_text()), finding


def test_every_entry_has_a_row_in_the_table():
    text = PAGE.read_text()
    table = text[text.index('<div class="posenc-claims"'):text.index("</div>")]
    rows = set(re.findall(r"^\| \[.*?\]\(#([\w-]+)\)", table, flags=re.M))
    entries = set(re.findall(r"^### .*\{#([\w-]+)\}", text, flags=re.M)) - {"what-we-got-wrong"}
    assert entries - rows == set(), sorted(entries - rows)


def test_seed_claims_of_this_half_name_one_article():
    """Each seed claim from #base-repeat on is in one of the four seeds (grep over shared/seeds:
    #shuffle, #zero-and-six, #circle-collisions, #dot-decays in 001; #no-easy-way,
    #learned-better, #rope-solves in 004; #ten-twenty, #shift-float32 in 003)."""
    text = PAGE.read_text()
    table = text[text.index('<div class="posenc-claims"'):text.index("</div>")]
    for name, entry in ENTRIES:
        assert "Made in the seed articles" not in entry, name
        row = re.search(r"^\|.*\(#%s\).*$" % re.escape(name), table, flags=re.M).group(0)
        assert not row.endswith("| seed articles |"), row


@pytest.mark.parametrize("name,entry", ENTRIES, ids=[n for n, _ in ENTRIES])
def test_entry_alone_with_default_printing(name, entry):
    from test_errata_standalone import run_alone

    text = "\n".join(textwrap.dedent(b) for b in re.findall(r"```pycon\n(.*?)```", entry, re.S))
    failures, report = run_alone(name, text)
    assert failures == 0, report
