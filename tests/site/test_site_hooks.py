"""The build hooks: TeX becomes MathML or fails the strict build; pages get their check counts."""

import logging
from pathlib import Path
from types import SimpleNamespace

from hooks import checked, mathml


def _page(src_uri="x.md", path=None, toc=None):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri, abs_src_path=path), toc=toc)


def test_math_in_headings_becomes_mathml_in_the_table_of_contents():
    child = SimpleNamespace(title="Odd \\(d_{\\text{model}}\\)", children=[])
    top = SimpleNamespace(title="Plain", children=[child])
    mathml.on_page_content("<p>x</p>", _page(toc=SimpleNamespace(items=[top])), None, None)
    assert top.title == "Plain"
    assert child.title.startswith("Odd <math") and "\\(" not in child.title


def test_inline_and_display_math_become_mathml():
    html = ('<p><span class="arithmatex">\\(a &lt; b\\)</span></p>'
            '<div class="arithmatex">\\[\\frac{1}{2}\\]</div>')
    out = mathml.on_page_content(html, _page(), None, None)
    assert "arithmatex" not in out
    assert out.count("<math") == 2
    assert '<mo>&#x0003C;</mo>' in out and "<mfrac>" in out
    assert 'display="block"' in out
    # display formulas are kept out of the search index (their MathML is symbol soup there)
    assert out.count("data-search-exclude") == 1 and '<div class="posenc-math" data-search' in out


def test_function_names_get_a_thin_space_before_their_argument():
    def inline(tex):
        html = f'<span class="arithmatex">\\({tex}\\)</span>'
        return mathml.on_page_content(html, _page(), None, None)

    thin = '<mspace width="0.1667em"></mspace>'
    assert f"<mi>cos</mi>{thin}<mi>b</mi>" in inline("\\cos b")
    assert f"</msup>{thin}<mi>x</mi>" in inline("\\cos^2 x")
    assert f"<mn>2</mn>{thin}<mi>sin</mi>" in inline("2\\sin a")
    for tex in ("\\sin(a + b)", "\\cos = 1", "\\sin\\left(\\frac{a}{b}\\right)", "\\operatorname{PE}(x)"):
        assert thin not in inline(tex), tex


def test_unknown_macro_and_broken_tex_are_warnings(caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs.hooks.mathml"):
        mathml.on_page_content('<span class="arithmatex">\\(\\nosuchmacro x\\)</span>', _page(), None, None)
        mathml.on_page_content('<span class="arithmatex">\\(\\frac{1}{\\)</span>', _page(), None, None)
    messages = [r.getMessage() for r in caplog.records]
    assert any("unknown TeX macro" in m and "nosuchmacro" in m for m in messages)
    assert any("cannot convert" in m for m in messages)


def test_checked_note_counts_the_examples(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# P\n\n```pycon\n>>> 1 + 1\n2\n>>> 2 + 2\n4\n```\n\n"
                    '??? note "Check: x"\n\n    ```python\n    x = 1\n    ```\n')
    out = checked.on_page_markdown(page.read_text(), _page("p.md", str(page)), None, None)
    # Only what a reader sees counts as shown: the folded block is a check, not an example.
    assert "the 1 code block shown on this page and its 3 checks in all" in out
    hidden = tmp_path / "h.md"
    hidden.write_text('# H\n\n??? note "Check: x"\n\n    ```python\n    x = 1\n    ```\n')
    out = checked.on_page_markdown(hidden.read_text(), _page("h.md", str(hidden)), None, None)
    assert "the 1 check behind this page's numbers and figures run" in out
    assert "code block" not in out
    assert "[How this site checks itself](checks.md)" in out
    nested = checked.on_page_markdown(page.read_text(), _page("chapters/p.md", str(page)), None, None)
    assert "[How this site checks itself](../checks.md)" in nested


def test_claim_markers_are_listed_in_a_closed_fold_at_the_end(tmp_path):
    """Claim markers are invisible in the rendered page; the hook lists every one, by section,
    as written (expression and comment), in one closed fold before the footer, and the footer
    points to it. A page without markers gets no such fold."""
    page = tmp_path / "m.md"
    page.write_text("# M\n\n```pycon\n>>> x = 2\n```\n\nTwo.\n\n<!-- check: x == 2  # two -->\n\n"
                    "## Odd { #odd }\n\nThree.\n\n<!-- check: x + 1\n     == 3\n     # three -->\n")
    out = checked.on_page_markdown(page.read_text(), _page("m.md", str(page)), None, None)
    fold = out[out.index('<div id="claim-checks" markdown>'):out.index('<div class="posenc-checked"')]
    assert '??? note "The 2 claim checks behind this page\'s sentences"' in fold
    assert "    ```python\n    # M\n    x == 2  # two\n\n    # Odd\n    x + 1\n        == 3\n" \
        "        # three\n    ```" in fold
    assert "checks in all (folded ones included and [listed below](#claim-checks))" in out
    plain = tmp_path / "p.md"
    plain.write_text("# P\n\n```pycon\n>>> 1\n1\n```\n")
    out = checked.on_page_markdown(plain.read_text(), _page("p.md", str(plain)), None, None)
    assert "claim-checks" not in out and "(folded ones included)" in out


def test_home_page_totals(tmp_path):
    page = tmp_path / "index.md"
    page.write_text("Totals: <!-- posenc:totals -->\n")
    checked._counts.clear()
    checked._counts.update({"index.md": 0, "a.md": 4, "b.md": 6})
    out = checked.on_page_markdown(page.read_text(), _page("index.md", str(page)), None, None)
    assert "10 code examples and checks on 2 pages" in out


def test_site_config_is_strict_unless_serving(monkeypatch):
    from mkdocs.config import load_config

    root = Path(__file__).resolve().parents[2]
    monkeypatch.delenv("POSENC_STRICT", raising=False)
    assert load_config(str(root / "mkdocs.yml")).strict is True
    monkeypatch.setenv("POSENC_STRICT", "false")
    assert load_config(str(root / "mkdocs.yml")).strict is False


def test_figures_are_byte_identical_across_builds():
    """Two renderings of the same figure give the same SVG bytes (no dates, fixed hash salt)."""
    import posenc
    from posenc.plots import figure_html
    from posenc.plots.encoding import heatmap
    from posenc.plots.attention import attention_weights

    def render():
        w = posenc.encode(4, 4)[:, :4] ** 2
        w = w / w.sum(axis=1, keepdims=True)
        return (figure_html(heatmap(posenc.encode(30, 16)), alt="a")
                + figure_html(attention_weights([("t", list("abcd"), w)]), alt="b"))

    assert render() == render()


def test_review_note_is_summed_from_the_records(tmp_path):
    """Issue 38: each page's footer says how it was reviewed, computed from the records in
    docs/data/reviews/, not typed."""
    (tmp_path / "a.yml").write_text(
        "reviewer: a\npass: 1\nmonth: 2026-12\nreport: reviews/2026-12/a.md\npages:\n"
        "  - {page: docs/x.md, claims: 80, found: 7, major: 1, fixed: 6}\n"
        "  - {page: docs/y.md, claims: 20, found: 0, major: 0, fixed: 0}\n")
    (tmp_path / "b.yml").write_text(
        "reviewer: b\npass: 2\nmonth: 2026-12\nreport: reviews/2026-12/b.md\npages:\n"
        "  - {page: docs/x.md, claims: 81, found: 1, major: 0, fixed: 1}\n")
    note = checked.review_note("docs/x.md", tmp_path)
    assert note == ("Reviewed in depth by readers who did not write it, 2 passes: pass 1 "
                    "(December 2026): 80 claims examined, 7 problems found, 1 major, 6 fixed "
                    "or answered; pass 2 (December 2026): 81 claims examined, 1 problem found, "
                    "1 fixed or answered.")
    assert checked.review_note("docs/y.md", tmp_path).endswith(
        "1 pass: pass 1 (December 2026): 20 claims examined, 0 problems found, 0 fixed or "
        "answered.")
    assert checked.review_note("docs/z.md", tmp_path) == ""


def test_review_records_name_real_pages_and_reports():
    import yaml
    root = Path(__file__).resolve().parents[2]
    for f in sorted((root / "docs" / "data" / "reviews").glob("*.yml")):
        rec = yaml.safe_load(f.read_text())
        assert rec["pass"] in range(1, 16) and str(rec["month"]).count("-") == 1, f.name
        assert (root / rec["report"]).exists(), (f.name, rec["report"])
        for e in rec["pages"]:
            assert (root / e["page"]).exists(), (f.name, e["page"])
            assert 0 <= e["major"] <= e["found"] and 0 <= e["fixed"] <= e["found"], (f.name, e)
            assert e["claims"] > 0, (f.name, e)
            assert e.get("pass", rec["pass"]) in range(1, 16), (f.name, e)
