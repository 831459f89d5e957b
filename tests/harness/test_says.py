"""harness.says, the review tests' shared helper, fails both ways."""

import pytest

from harness.says import holds, paragraphs, says, section, stated


def test_says_requires_the_phrase_exactly_when_the_fact_holds():
    says("the error is the same at every width", "the  same", True)
    says("the error differs", "the same", False)
    with pytest.raises(AssertionError):
        says("the error is the same", "the same", False)      # said, but false
    with pytest.raises(AssertionError):
        says("the error differs", "the same", True)           # true, but not said


def test_section_and_paragraphs_read_prose_only(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nOne  two.\n<!-- check: x -->\n\n```python\ny = 1\n```\n\n"
                    '??? note "Check: z"\n\n    hidden\n\nThree.\n\n## B\n\nFour.\n')
    assert section(page, "A") == "## A One two. Three."
    assert section(page, "B") == "## B Four."
    assert "One two." in paragraphs(page) and "y = 1" not in " ".join(paragraphs(page))
    # a fence inside a comment must not pair with a real one and drop the prose between
    page.write_text('# T\n\nOne.\n<!-- check: s.split("```")[0] -->\n\n```python\ny = 1\n'
                    '```\n\nTwo.\n\n```python\nz = 2\n```\n\nThree.\n')
    assert [p for p in paragraphs(page) if p] == ["# T", "One.", "Two.", "Three."]
    assert stated("abc 12", r"\d+").group(0) == "12"
    with pytest.raises(AssertionError):
        stated("abc", r"\d+")


def test_holds_needs_the_sentence_and_the_fact():
    holds("the error falls at 6 and at 12", r"falls at (\d+)", lambda k: int(k) % 6 == 0)
    with pytest.raises(AssertionError):
        holds("the error falls at 7", r"falls at (\d+)", lambda k: int(k) % 6 == 0)
    with pytest.raises(AssertionError):
        holds("the error rises at 6", r"falls at (\d+)", lambda k: True)     # gone
