"""The re-read's findings (docs/data/findings.yml), rendered on the claims page: each names its
page, the old statement, a verdict, the reviewer's own figure and the fix, and each page it
names exists."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_every_finding_is_complete_and_names_a_page():
    findings = yaml.safe_load((ROOT / "docs" / "data" / "findings.yml").read_text())
    assert len(findings) >= 40, len(findings)
    chapters = {p.stem.split("-")[0] for p in (ROOT / "docs" / "chapters").glob("*.md")}
    for f in findings:
        assert all(str(f.get(k, "")).strip() for k in ("where", "old", "verdict", "evidence", "fix")), f
        m = re.match(r"ch(\d+b?)", f["where"])
        if m:
            assert m.group(1).zfill(2) in chapters, f["where"]
    html = (ROOT / "docs" / "errata.md").read_text()
    assert "{#what-we-got-wrong}" in html and "docs/data/findings.yml" in html


STATUSES = ("fixed", "open", "wontfix")
# A fix field that says the page was not changed cannot belong to a fixed finding (issue 29).
UNCHANGED = re.compile(r"not changed|left unchanged|page unchanged|listed for the \w+ helper|"
                       r"to do|todo", re.IGNORECASE)


def test_every_finding_has_a_status_and_a_fixed_one_says_what_changed():
    findings = yaml.safe_load((ROOT / "docs" / "data" / "findings.yml").read_text())
    for f in findings:
        assert f.get("status") in STATUSES, (f["where"], f.get("status"))
        if f["status"] == "fixed":
            assert not UNCHANGED.search(str(f["fix"])), (
                f"{f['where']}: marked fixed, but its fix says the page was not changed: "
                f"{f['fix']}")


def test_the_claims_page_computes_its_counts_from_the_statuses():
    page = (ROOT / "docs" / "errata.md").read_text()
    assert "all fixed" not in page
    assert "count = {k: sum(f[\"status\"] == k for f in findings)" in page
    assert "**Open.** " in page                 # how an open finding is shown


def test_every_page_link_of_the_generated_findings_list_names_a_page():
    """The claims page's findings list (its exec block, snapshot in tests/snapshots/exec.json)
    rewrites the links findings quote: a chapter's `](12-variants.md)` is ../chapters/...,
    not ../12-variants/ (which 404ed under the sub-path crawl, 2026-12-07)."""
    import json
    out = "".join(json.loads(Path("tests/snapshots/exec.json").read_text())["errata.md"])
    targets = set(re.findall(r"\]\(\.\./([\w/-]*?)/?(?:#[\w-]+)?\)", out))
    assert targets
    links = re.findall(r"\]\(([^)\s]*)\)", out)        # every link: a page or the web
    assert not [u for u in links if not u.startswith(("../", "http://", "https://"))]
    docs = Path("docs")
    missing = [t for t in targets if t and not (docs / f"{t}.md").exists()
               and not (docs / t / "index.md").exists()]
    assert not missing


def test_the_tie_share_the_table_docstring_gives_is_the_share_of_bit_patterns():
    """posenc.torch_module.table: "1 in 2**16 or 2**13 of those bit patterns, not a table's
    measured rate" (review-2026-12 rapi pass 1 measured 1 in 95,325 bfloat16 ties on a paper
    table, against the 1 in 2**16 the old text gave as a table's rate; p12f pass 6 scoped the
    float16 pattern to 2**-14 and up)."""
    import numpy as np
    import posenc.torch_module.table as table

    doc = " ".join(table.__doc__.split())
    assert "1 in 2**16 or 2**13 of those bit patterns, not a table's measured rate" in doc
    bits = np.arange(2 ** 20, dtype=np.uint32) | np.uint32(0x3F800000)   # every low 20 bits
    assert np.mean((bits & 0x1FFF) == 0x1000) == 2.0 ** -13     # float16 tie pattern
    assert np.mean((bits & 0xFFFF) == 0x8000) == 2.0 ** -16     # bfloat16 tie pattern


REFERENCE_LINK = re.compile(r"\[[^\]\n]*\]\[[^\]\n]*\]")


def test_no_finding_reads_as_a_reference_link():
    """A finding's text is Markdown on the claims page: "[Bug][NomicBert]" (a quoted issue
    title) outside a code span is a reference link that mkdocs-autorefs cannot resolve, and the
    strict build stops on its warning (it did, December 2026)."""
    findings = yaml.safe_load((ROOT / "docs" / "data" / "findings.yml").read_text())
    links = [(f["where"], m.group(0)) for f in findings for v in f.values() if isinstance(v, str)
             for m in REFERENCE_LINK.finditer(re.sub(r"`[^`\n]*`", "", v))]
    assert not links, links
    assert REFERENCE_LINK.search('the title "[Bug][NomicBert] Dynamic NTK"')
