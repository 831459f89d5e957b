"""Pass-2 review p2f (December 2026) of the home page, the tour, Run it yourself and the
references: what their markers cannot bind.

- Home: under a causal mask a *sequence* of one repeated token gets one output at every
  position; a run of it after other tokens does not (its positions see different prefixes).
- Home: Run it yourself's three commands install the package and start Python; they do not
  run "any block" (that page lists the blocks that need PyTorch, transformers or a checkout).
- Run it yourself: ``posenc.lab.experiments`` reads the lab's records from ``docs/data/lab/``
  beside the package, so a block that uses it needs a checkout, not the wheel.
- References: the site cites papers that have no entry there (Chen, Peng, Sun, Kazemnejad,
  Wang); the page must not say that every citation on the site links to it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from hooks import reader
from tests.site.test_home_and_tour import sentences

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _causal_attention(x, w_q, w_k, w_v):
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(x.shape[1])
    scores = np.where(np.tri(len(x), dtype=bool), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    return (weights / weights.sum(axis=1, keepdims=True)) @ (x @ w_v)


def test_a_run_after_other_tokens_is_not_one_output():
    """The fact, in NumPy alone: five copies of one token give five equal rows; the same token
    three times after two others gives rows that differ."""
    rng = np.random.default_rng(0)
    the, cat = rng.normal(size=(2, 8))
    w = rng.normal(size=(3, 8, 8))
    same = _causal_attention(np.stack([the] * 5), *w)
    run = _causal_attention(np.stack([the, cat, the, the, the]), *w)
    assert np.allclose(np.ptp(same, axis=0), 0)
    assert not np.allclose(np.ptp(run[2:], axis=0), 0)


def repeated_token_sentences(markdown: str) -> list[str]:
    return [s for s in sentences(markdown) if "repeated token" in s]


def test_home_says_a_sequence_of_one_repeated_token():
    found = repeated_token_sentences((DOCS / "index.md").read_text(encoding="utf-8"))
    assert found and all("sequence of one repeated token" in s for s in found), found
    assert "run of one" in repeated_token_sentences(
        "Though a run of one repeated token gets the same output at every position.\n")[0]


def any_block_sentences(markdown: str) -> list[str]:
    return [s for s in sentences(markdown)
            if "run-it-yourself.md" in s and re.search(r"\b(any|every) (code )?block", s)]


def test_home_does_not_promise_any_block():
    assert not any_block_sentences((DOCS / "index.md").read_text(encoding="utf-8"))
    assert any_block_sentences("[Run it yourself](run-it-yourself.md) has the three commands "
                               "that install it and run any block on your machine.\n")


def test_lab_records_are_not_in_the_package(tmp_path):
    """A copy of the package alone (what the wheel installs) cannot read a lab verdict."""
    shutil.copytree(ROOT / "posenc", tmp_path / "posenc",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("from posenc.lab.experiments import verdict\n"
            "try:\n    verdict('past', 'rope-holds-past-L')\n"
            "except FileNotFoundError:\n    print('needs a checkout')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, env={"PATH": "", "PYTHONPATH": str(tmp_path)}, timeout=300)
    assert out.stdout.strip() == "needs a checkout", out.stderr[-2000:]


def test_run_it_yourself_lists_the_lab_readers_under_a_checkout():
    text = (DOCS / "run-it-yourself.md").read_text(encoding="utf-8")
    bullet = re.search(r"^- \*\*A checkout of the repository\*\*:(.*?)(?=^\S|^- )", text,
                       re.M | re.S).group(1)
    for name in ("the tour", "learned embeddings", "the trained-model lab", "Claims, checked",
                 "what came next", "docs/data/"):
        assert name in " ".join(bullet.split()), name


def cited_without_entry() -> set[str]:
    cited = set()
    for page in DOCS.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        cited |= set(re.findall(r"\b([A-Z][a-z]+) et al\.,? \(?(?:19|20)\d\d", text))
    return {name for name in cited if name.lower() not in reader.CITATIONS}


def test_references_do_not_claim_every_citation():
    missing = cited_without_entry()
    assert {"Chen", "Peng", "Kazemnejad"} <= missing, missing
    text = (DOCS / "references.md").read_text(encoding="utf-8")
    opening = " ".join(text.split("## ")[0].split())
    assert "Citations on this site link here" not in opening
    assert "Citations of these papers link here" in opening
    assert "chapters/15-what-came-next.md#a-dated-table-of-approaches" in opening
    table = (DOCS / "chapters/15-what-came-next.md").read_text(encoding="utf-8")
    table = table.split("## A dated table of approaches")[1].split("\n## ")[0]
    assert all(name in table for name in missing - {"Wang"}), missing


def test_sources_ledger_says_which_figures_are_held():
    """The figures a reason's check must hold are those with a decimal point or a thousands
    comma (tests/site/test_seed_ledger.py FIGURE): "1,024" is held, "44" is not, so "only decimal
    ones" undersold it. Its quotes run to 20 words: short, not "a few words"."""
    from tests.site import seed_ledger
    from tests.site.test_seed_ledger import FIGURE
    text = " ".join((DOCS / "sources-ledger.md").read_text(encoding="utf-8").split())
    assert FIGURE.findall("1,024 and 44") == ["1,024"]
    assert "(only decimal ones)" not in text and "a decimal point or a thousands comma" in text
    longest = max(len(e["quote"].split()) for e in seed_ledger.load()["claims"])
    assert longest > 5 and "a few words" not in text


def test_tour_step_4_does_not_bound_repeats_by_a_slow_lap():
    """The picture's slow hand is a sine alone, which repeats a value within a lap (x and
    pi - x): over positions 0 to 99 of (sin pos, sin 0.1 pos), 25 and 69, 44 apart, are among
    the five closest pairs, so "only until the slowest comes round itself" overstated it."""
    pos = np.arange(100)
    table = np.stack([np.sin(pos), np.sin(0.1 * pos)], axis=1)
    gaps = np.sqrt(((table[:, None] - table[None]) ** 2).sum(-1))
    i, j = np.triu_indices(100, 1)
    five = np.argsort(gaps[i, j])[:5]
    assert (25, 69) in {(int(i[n]), int(j[n])) for n in five}
    text = " ".join((DOCS / "tour.md").read_text(encoding="utf-8").split())
    assert "only until the slowest comes round" not in text
