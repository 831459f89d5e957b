"""The scope rule (harness.scope) on small pages: a check's declared domain is stated by its
paragraph, and a family ("half precision") is named or checked member by member."""

from harness import scope


def _verdicts(tmp_path, text):
    page = tmp_path / "p.md"
    page.write_text(text)
    return [(s.verdict, s.text) for s in scope.lint(page)]


def test_a_sampled_domain_must_be_stated_by_its_paragraph(tmp_path):
    check = "\n<!-- check: all(ok(d) for d in range(2, 1025, 2))  # every; domain: widths 2 to 1024 -->\n"
    stated = _verdicts(tmp_path, "# T\n\nEvery even width from 2 to 1024 passes." + check)
    assert [v for v, _ in stated] == ["scoped"]
    unstated = _verdicts(tmp_path, "# T\n\nEvery even width passes." + check)
    assert [v for v, _ in unstated] == ["flagged"]
    assert "does not state 1024, 2" in scope.lint(tmp_path / "p.md")[0].why
    proved = check.replace("domain: widths 2 to 1024", "domain: all (proved above)")
    assert [v for v, _ in _verdicts(tmp_path, "# T\n\nEvery even width passes." + proved)] == [
        "scoped"]


def test_a_family_is_named_or_checked_member_by_member(tmp_path):
    found = _verdicts(tmp_path, (
        "# T\n\nBuilding in half precision is always worse.\n\n"
        "Building in float16 or bfloat16 is always worse.\n\n"
        "Building in half precision is always worse.\n\n"
        "<!-- check: a < b  # always worse; domain: float16, bfloat16 -->\n\n"
        "Any width works.\n\n"
        "Any width from 2 to 64 works.\n\n"
        "We store it in half precision.\n"))
    assert [v for v, _ in found] == ["flagged", "family", "flagged", "family"]


def test_the_page_rules_report_a_scope_failure(tmp_path):
    from harness.page import parse
    from harness.rules import failures
    page = parse("# T\n\nBuilding in half precision is always worse.\n",
                 str(tmp_path / "docs" / "p.md"))
    assert any("scope:" in f and "p.md:3" in f for f in failures(page))
