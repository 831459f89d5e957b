"""Word flips that passed every page check on the tour, Run it yourself and the sources ledger
(review-2026-12 r14f): each sentence is read here and its fact recomputed without posenc, so the
flip fails ("highest" -> "lowest", "backwards" -> "forwards", "or later" -> "or earlier",
"two package names" -> "three", "of any verdict" -> "of a loose verdict")."""

from __future__ import annotations

import tomllib
import types

import numpy as np
import yaml

from harness.says import flat, holds, says
from tests.site.test_prose_counts import ROOT

TOUR, RUN, LEDGER = (ROOT / "docs" / p for p in ("tour.md", "run-it-yourself.md", "sources-ledger.md"))
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def own_table(n: int, d: int) -> np.ndarray:
    angle = np.outer(np.arange(n), 10000.0 ** (-np.arange(0, d, 2) / d))
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table


def own_m(k: int, d: int) -> np.ndarray:
    """M_k of the notation page: PE(pos + k) = M_k PE(pos) for a column PE."""
    m = np.zeros((d, d))
    for j, w in enumerate(10000.0 ** (-np.arange(0, d, 2) / d)):
        c, s = np.cos(w * k), np.sin(w * k)
        m[2 * j:2 * j + 2, 2 * j:2 * j + 2] = [[c, s], [-s, c]]
    return m


def test_tour_step_5_row_times_m3_turns_backwards_and_scores_highest_three_back():
    text = flat(TOUR)
    for d in (2, 16, 64, 512):
        pe, m3 = own_table(300, d), own_m(3, d)
        backwards = np.allclose(pe[3:] @ m3, pe[:-3])
        says(text, r"side \(M_3\) turns backwards: \(PE(p)\,M_3 = PE(p - 3)\)", backwards)
        highest = ((pe @ m3 @ pe.T).argmax(axis=1)[3:] == np.arange(297)).all()
        says(text, "So every query from position 3 on scores highest against the key three back",
             highest)


def test_run_python_version_and_the_versioned_addresses():
    text = flat(RUN)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    says(text, "With Python 3.11 or later", project["requires-python"] == ">=3.11")
    from hooks import downloads
    config = types.SimpleNamespace(site_dir="site", use_directory_urls=True,
                                   plugins=types.SimpleNamespace(_current_plugin=None))
    served = [f.src_uri for f in downloads.on_files([], config)]
    versioned = [a for a in served if project["version"] in a]
    holds(text, r"except for the version in the (\w+) package names",
          lambda word: WORDS[word] == len(versioned), "run-it-yourself Downloads")


def test_ledger_untreated_spans_verdicts():
    claims = yaml.safe_load((ROOT / "docs" / "data" / "seed-claims.yml").read_text())["claims"]
    verdicts = {e["verdict"] for e in claims if not e["treated"]}
    says(flat(LEDGER), '"Untreated" counts the claims, of any verdict', len(verdicts) > 1)
