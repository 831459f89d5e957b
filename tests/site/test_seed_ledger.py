"""The ledger of the seed articles' claims (docs/data/seed-claims.yml) is well formed, every
check in it holds, and every place it names on the site exists."""

import contextlib
import io
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.site import seed_ledger as L

LEDGER = L.load()
CLAIMS = LEDGER["claims"]
FIELDS = {"id", "source", "quote", "verdict", "reason", "treated"}
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def test_entries_are_well_formed():
    problems = []
    for entry in CLAIMS:
        where = entry.get("id", entry)
        missing = FIELDS - entry.keys()
        extra = entry.keys() - FIELDS - {"check"}
        if missing or extra:
            problems.append(f"{where}: missing {sorted(missing)}, unknown {sorted(extra)}")
        if not isinstance(entry.get("verdict"), str) or entry["verdict"] not in L.VERDICTS:
            problems.append(f"{where}: verdict {entry.get('verdict')!r} not in {L.VERDICTS}")
        if entry.get("source") not in LEDGER["sources"]:
            problems.append(f"{where}: unknown source {entry.get('source')!r}")
        if not isinstance(entry.get("id"), str) or not entry["id"].startswith(
                f"{entry.get('source')}-"):
            problems.append(f"{where}: id must be a string starting with its source key")
        quote, reason = str(entry.get("quote", "")), str(entry.get("reason", ""))
        if not quote.strip() or len(quote.split()) > 20:
            problems.append(f"{where}: quote must be short (1 to 20 words)")
        if not reason.strip() or "\n" in reason.strip():
            problems.append(f"{where}: reason must be one line")
        if not isinstance(entry.get("treated"), str):
            problems.append(f"{where}: treated must be a string (\"\" when untreated)")
    assert not problems, "\n".join(problems)


def test_ids_are_unique():
    counts = Counter(entry["id"] for entry in CLAIMS)
    assert not [i for i, n in counts.items() if n > 1], "duplicate ids"


def test_every_source_has_its_seed_and_claims():
    assert len(CLAIMS) > 100
    per_source = Counter(entry["source"] for entry in CLAIMS)
    for key, source in LEDGER["sources"].items():
        assert per_source[key] > 0, f"no claims recorded for {key}"
        assert source["title"].strip()
        if SEEDS.is_dir():  # the seeds live outside the repository; check them when present
            assert (SEEDS / source["file"]).is_file(), source["file"]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed articles are not in this checkout")
def test_quotes_locate_their_claims():
    """Each piece of a quote (split at "...") occurs in its article, ignoring everything but
    letters and digits (the articles' math survives only as mangled text or TeX source)."""

    def letters(text):
        return re.sub(r"[^0-9a-zα-ωπ]", "", text.lower())

    articles = {key: letters((SEEDS / s["file"]).read_text(encoding="utf-8"))
                for key, s in LEDGER["sources"].items()}
    lost = [e["id"] for e in CLAIMS
            if any(letters(piece) not in articles[e["source"]]
                   for piece in e["quote"].split("...") if letters(piece))]
    assert not lost, f"quotes not found in their article: {lost}"


def test_checkable_verdicts_carry_a_check():
    """Every true, loose or wrong verdict is decided by code, not asserted."""
    unchecked = [e["id"] for e in CLAIMS
                 if e["verdict"] != "not applicable" and not str(e.get("check", "")).strip()]
    assert not unchecked, f"verdicts with no check: {unchecked}"


def test_checks_do_not_call_posenc():
    """docs/sources-ledger.md: each check is computed "independently of posenc"."""
    calling = [e["id"] for e in CLAIMS if "posenc" in str(e.get("check", ""))]
    assert not calling, f"checks that name posenc: {calling}"


FIGURE = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d*\.\d+(?:e-?\d+)?")


def test_reason_figures_are_the_checks():
    """A computed figure in a reason (a number with a decimal point or a thousands comma) is
    written in its check too, as a whole number (0.0001 is not held by `< 0.00011`), so the check
    holds the figure the reason states."""
    loose = []
    for entry in CLAIMS:
        if not entry.get("check"):
            continue
        reason = re.sub(r"section \d+\.\d+", "", entry["reason"])
        check = entry["check"].replace("_", "")
        missing = [f for f in FIGURE.findall(reason)   # the whole number, not a part of one
                   if not re.search(r"(?<![\d.])" + re.escape(f.replace(",", "")) + r"(?!\d)",
                                    check)]
        if missing:
            loose.append(f"{entry['id']}: {missing}")
    assert not loose, "figures in reasons that their checks do not hold:\n" + "\n".join(loose)


@pytest.mark.parametrize("entry", [e for e in CLAIMS if e.get("check")], ids=lambda e: e["id"])
def test_check_holds(entry):
    assert L.run_check(entry["check"]), f"{entry['id']}: check is falsy: {entry['check']}"


def test_treated_pages_and_sections_exist():
    docs = L.ROOT / "docs"
    problems, cache = [], {}
    for entry in CLAIMS:
        if not entry["treated"]:
            continue
        page, _, anchor = entry["treated"].partition("#")
        path = docs / page
        if not path.is_file():
            problems.append(f"{entry['id']}: no page {page}")
            continue
        if not anchor:
            problems.append(f"{entry['id']}: {page} needs a section anchor")
            continue
        if page not in cache:
            cache[page] = L.anchors(path)
        if anchor not in cache[page]:
            problems.append(f"{entry['id']}: no section #{anchor} in {page}")
    assert not problems, "\n".join(problems)


def test_anchors_follow_the_sites_slugs(tmp_path):
    """Anchors come out as the site's toc writes them: math and code reduced to their letters,
    repeated headings numbered, and a comment inside an exec="on" fence not taken for a heading
    (plain superfences would reject that fence and parse its code as Markdown)."""
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n"
        "## Two hands: \\(\\omega = 1\\) and \\(\\omega = 0.1\\)\n\n"
        "## `exp(-log(base) * 2i / d)` or `base ** (-2i / d)`?\n\n"
        '```python exec="on" html="true" source="above"\n# not a heading\nx = 1\n```\n\n'
        "## Summary\n\n## Summary\n\n### Tagged {#own-id}\n",
        encoding="utf-8")
    assert L.anchors(page) == {"title", "two-hands-omega-1-and-omega-01",
                               "exp-logbase-2i-d-or-base-2i-d", "summary", "summary_1",
                               "own-id"}


def _rendered_page() -> str:
    """What the exec="on" blocks of docs/sources-ledger.md print, run as the build runs them
    (from the repository root, each block in its own namespace)."""
    text = (L.ROOT / "docs" / "sources-ledger.md").read_text(encoding="utf-8")
    blocks = re.findall(r'^```python exec="on"[^\n]*\n(.*?)^```', text, re.M | re.S)
    assert len(blocks) == 3
    out = io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(L.ROOT)
        with contextlib.redirect_stdout(out):
            for code in blocks:
                exec(compile(code, "sources-ledger.md", "exec"), {})
    finally:
        os.chdir(cwd)
    return out.getvalue()


def test_page_links_reach_the_sections():
    """MkDocs does not rewrite or validate links in generated Markdown, so the page writes
    built addresses itself; each must lead to an existing page and heading."""
    rendered = _rendered_page()
    links = re.findall(r"\]\((\.\./[^)]*)\)", rendered)
    assert len(links) == sum(1 for e in CLAIMS if e["treated"])
    docs, cache, problems = L.ROOT / "docs", {}, []
    for link in links:
        path, _, anchor = link.removeprefix("../").partition("#")
        page = docs / (path.rstrip("/") + ".md" if path else "index.md")
        if not page.is_file():
            problems.append(f"{link}: no page {page.relative_to(docs)}")
            continue
        if page not in cache:                 # rendering a page with the site's extensions is slow
            cache[page] = L.anchors(page)
        if anchor not in cache[page]:
            problems.append(f"{link}: no section #{anchor}")
    assert not problems, "\n".join(problems)


def test_page_counts_match_the_ledger():
    rendered = _rendered_page()
    verdicts = Counter(entry["verdict"] for entry in CLAIMS)
    untreated = [e for e in CLAIMS if not e["treated"]]
    corrected = [e for e in CLAIMS if e["verdict"] in ("wrong", "loose") and e["treated"]]
    open_ = [e["id"] for e in untreated if e["verdict"] in ("wrong", "loose")]
    rows = {line.split("|")[1].strip(): line.rstrip(" |").split("|")[-1].strip()
            for line in rendered.splitlines() if line.startswith("| ")}
    want = {"claims": len(CLAIMS), **verdicts, "corrected here": len(corrected),
            "untreated": len(untreated)}
    assert {k: rows.get(k) for k in want} == {k: str(n) for k, n in want.items()}
    assert all(f"**{i}**" in rendered for i in open_)
    print(f"\nseed ledger: {len(CLAIMS)} claims; "
          + ", ".join(f"{v}: {verdicts[v]}" for v in L.VERDICTS)
          + f"; wrong or loose and treated on the site: {len(corrected)}; "
          f"untreated: {len(untreated)} (wrong or loose: {open_})")
