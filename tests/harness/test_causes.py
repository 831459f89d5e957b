"""The cause rule (harness.causes) on small pages: a sentence that names a cause is bound to a
cause check, a source or a derivation, or it fails.

Every page of docs/ is judged by its own rules item (harness.collect), not here."""

from harness import causes
from harness.page import parse
from harness.rules import failures


def _lint(tmp_path, text, name="p.md"):
    page = tmp_path / name
    page.write_text(text)
    found = {}
    for s in causes.lint(page, transition={}):
        found.setdefault(" ".join(s.text.split()[:2]), s)
    return found


ABLATION = ("```python\nfull, no_range, no_spacing = 0.0202, 0.0084, 0.0055\n"
            "drop_range, drop_spacing = full - no_range, no_range - no_spacing\n"
            "assert drop_range > drop_spacing  # cause: unused part of the range\n```\n")


def test_a_causal_sentence_needs_a_cause_check_naming_its_cause(tmp_path):
    found = _lint(tmp_path, (
        "# T\n\nThe minimum is small because the sine leaves an unused part of its range.\n\n"
        + ABLATION +
        "\nThe minimum is small because the sine spends its range unevenly.\n\n"
        "```python\nassert 0.0055 < 0.0084\n```\n\n"
        "Why is it small? Nobody knows.\n\n"
        "The score is even because it is a sum of squares.\n\n"
        "It grows since the sum has more terms. <!-- no-claim: obvious -->\n\n"
        "They chose it \"because it may extrapolate\". <!-- no-claim: a quotation -->\n"))
    assert found["The minimum"].verdict == "bound"
    unbound = [s for s in causes.lint(tmp_path / "p.md", transition={})
               if "unevenly" in s.text][0]
    assert unbound.verdict == "flagged"                    # the check names another cause
    assert "Why is" not in found                            # a question claims nothing
    assert found["The score"].verdict == "flagged"          # no check, no marker
    assert found["It grows"].verdict == "flagged"           # no-claim only for quotes/questions
    assert found["They chose"].verdict == "exempt"


def test_rewording_the_cause_in_the_prose_fails_both_ways(tmp_path):
    page = "# T\n\nThe minimum is small because the sine leaves an unused part of its range.\n\n"
    found = _lint(tmp_path, page + ABLATION)
    assert found["The minimum"].verdict == "bound"
    reworded = page.replace("leaves an unused part of its range", "spends its range unevenly")
    verdicts = [s for s in causes.lint(_write(tmp_path, reworded + ABLATION), transition={})]
    assert [s.verdict for s in verdicts] == ["flagged", "flagged"]   # sentence and stale check
    assert "no causal sentence next to it" in verdicts[1].missing


def test_a_cause_check_must_compare_and_sit_next_to_the_paragraph(tmp_path):
    page = ("# T\n\nThe minimum is small because the sine leaves an unused part of its range.\n\n"
            "```python\nshare = 0.6  # cause: unused part of the range\n```\n")
    assert _lint(tmp_path, page)["The minimum"].verdict == "flagged"    # compares nothing
    far = ("# T\n\nThe minimum is small because the sine leaves an unused part of its range.\n\n"
           "A paragraph between.\n\n" + ABLATION)
    assert _lint(tmp_path, far)["The minimum"].verdict == "flagged"


def test_one_cause_check_per_causal_sentence(tmp_path):
    two = ("# T\n\nThe minimum is small because the sine leaves an unused part of its range. "
           "The maximum is large because the sine leaves an unused part of its range.\n\n"
           + ABLATION)
    verdicts = sorted(s.verdict for s in causes.lint(_write(tmp_path, two), transition={}))
    assert verdicts == ["bound", "flagged"]


def test_source_and_derived_markers_need_what_they_name(tmp_path):
    found = _lint(tmp_path, (
        "# T\n\nThey chose it because it may extrapolate ([paper](https://arxiv.org/abs/1)). "
        "<!-- cause: source -->\n\n"
        "It is slow because of the cache. <!-- cause: source -->\n\n"
        "The norm is fixed since \\(\\sin^2 + \\cos^2 = 1\\). <!-- cause: derived -->\n\n"
        "The norm is fixed since every pair is on a circle. <!-- cause: derived -->\n\n"
        "It is shifted because of the offset ([chapter 7](07-x.md#rot)). "
        "<!-- cause: derived -->\n\n"
        "It is a plain sentence. <!-- cause: derived -->\n\n"
        "It moves because of X. <!-- cause: guess -->\n"))
    assert found["They chose"].verdict == "sourced"
    assert found["It is"].verdict == "flagged"               # no link
    assert found["The norm"].verdict == "derived"
    norms = [s for s in causes.lint(tmp_path / "p.md", transition={}) if "circle" in s.text]
    assert norms[0].verdict == "flagged"                     # no math, no link
    verdicts = {s.text.split(".")[0]: s.verdict for s in causes.lint(tmp_path / "p.md",
                                                                       transition={})}
    assert verdicts["It is shifted because of the offset ([chapter 7])"] == "derived"
    assert verdicts["It is a plain sentence"] == "flagged"   # a marker with no cause word
    assert verdicts["It moves because of X"] == "flagged"    # unknown kind


def test_display_math_next_to_the_paragraph_is_a_derivation(tmp_path):
    found = _lint(tmp_path, (
        "# T\n\nThe distance follows from the dot product, because the lengths are fixed: "
        "<!-- cause: derived -->\n\n\\[ |a - b|^2 = |a|^2 + |b|^2 - 2 a \\cdot b \\]\n"))
    assert found["The distance"].verdict == "derived"


def test_cause_words_found_and_not_found():
    assert causes.cause_words("It fails because of X") == ["because"]
    assert causes.cause_words("which is why it works, since the sum is even") == [
        "since", "which is why"]
    assert causes.cause_words("in use since 2017") == []
    assert causes.cause_words("scaled so that it fits; the reason is plain") == [
        "so that", "the reason"]
    assert causes.cause_words("a causal model explains nothing") == ["explains"]
    # chapter 6 "For the same reason it is local", chapter 8 "which is one reason that is
    # possible": both escaped the rule (outside read 2026-12, ch06-2 and ch08-2)
    assert causes.cause_words("For the same reason it fails") == ["the same reason"]
    assert causes.cause_words("which is one reason that is possible") == ["one reason"]
    assert causes.cause_words("Explain the value.") == []     # an exercise's instruction
    # chapter 6 "for a sharper reason", chapter 7 "a structural reason": an adjective before
    # "reason" escaped the rule (review-2026-12 p3e pass 3)
    assert causes.cause_words("It does worse for a sharper reason") == ["a sharper reason"]
    assert causes.cause_words("There is also a structural reason.") == ["a structural reason"]


def test_the_page_rules_report_an_unbound_cause_with_page_and_line(tmp_path):
    page = parse("# T\n\nIntro.\n\nThe score is even because it is a sum of squares.\n",
                 str(tmp_path / "docs" / "p.md"))
    found = [f for f in failures(page) if "cause (because) not bound" in f]
    assert len(found) == 1 and "p.md:5" in found[0]


def test_the_transition_list_only_exempts_what_it_lists(tmp_path):
    path = _write(tmp_path, "# T\n\nThe score is even because it is a sum of squares.\n")
    listed = {causes._key(path): ("The score is even",)}
    assert [s.verdict for s in causes.lint(path, transition=listed)] == ["transition"]
    assert [s.verdict for s in causes.lint(path, transition={})] == ["flagged"]


def _write(tmp_path, text):
    page = tmp_path / "q.md"
    page.write_text(text)
    return page
