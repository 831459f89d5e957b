"""The claim-word rule (harness.words) on small pages.

Every page of docs/ is judged by its own rules item (harness.collect), not here."""

from pathlib import Path

from harness.words import lint

def _lint(tmp_path, text):
    page = tmp_path / "p.md"
    page.write_text(text)
    found = {}
    for s in lint(page):
        found.setdefault(" ".join(s.text.split()[:2]), s)
    return found


def test_a_check_next_to_the_paragraph_must_name_the_word(tmp_path):
    found = _lint(tmp_path, (
        "# T\n\nThe new builder is faster than the old one.\n\n"
        "<!-- check: t_new < t_old  # faster -->\n\n"
        "The new builder is slower than the old one.\n\n"
        "<!-- check: t_new < t_old  # faster -->\n\n"
        "Every entry lies in the unit interval.\n\n"
        "```python\nassert (abs(table) <= 1).all()  # every entry\n```\n\n"
        "It is always positive. Later text.\n\n"
        "```pycon\n>>> bool(x.min() > 0)  # always\nTrue\n```\n\n"
        "The table above is only a sketch. <!-- no-claim: refers to the page layout -->\n\n"
        "It never wraps.\n\n```python\nx = 1\n```\n\n"
        "We only need one row. <!-- no-claim: ok -->\n\n"
        "A check far away never counts.\n\nA paragraph between.\n\n"
        "<!-- check: True  # never -->\n\n"
        "The values are above 2 and the code above prints them.\n\n"
        "```pycon\n>>> encode(3, 2)\nTraceback (most recent call last):\nValueError: x\n```\n\n"
        "It cannot take an odd width.\n"))
    assert found["The new"].verdict == "satisfied"
    assert found["The new"].words == ["faster"]
    flipped = [x for x in lint(tmp_path / "p.md") if x.words == ["slower"]][0]
    assert flipped.verdict == "flagged" and flipped.missing == ["slower"]   # the word flipped
    assert found["Every entry"].verdict == "satisfied"
    assert found["It is"].verdict == "satisfied"
    assert found["The table"].verdict == "exempt"
    assert found["It never"].verdict == "flagged"              # a block with no check
    assert found["We only"].verdict == "flagged"               # the reason is required
    assert found["A check"].verdict == "flagged"               # the marker is a paragraph away
    assert found["The values"].words == ["above"]              # "the code above" is no claim
    assert found["It cannot"].verdict == "flagged"             # the traceback does not name it
    page = tmp_path / "p.md"
    page.write_text(page.read_text().replace("encode(3, 2)", "encode(3, 2)  # cannot"))
    assert [x.verdict for x in lint(page) if x.words == ["cannot"]] == ["satisfied"]


def test_a_check_naming_a_word_its_paragraph_no_longer_says_fails(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nIt can take an odd width.\n\n<!-- check: x < 3  # cannot -->\n")
    stale = [s for s in lint(page) if s.verdict == "flagged"]
    assert any("names 'cannot'" in s.text for s in stale)


def test_an_exempt_sentence_does_not_keep_a_check_alive(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nAdd some number to each entry.\n\n"
                    "```pycon\n>>> bool(x < 3)    # every entry\nTrue\n```\n\n"
                    "Every later layer sees it. <!-- no-claim: a consequence in words -->\n")
    assert any("names 'every'" in s.text for s in lint(page) if s.verdict == "flagged")


def test_a_multi_line_marker_names_its_words(tmp_path):
    found = _lint(tmp_path, "# T\n\nNo single column separates them.\n\n"
                            "<!-- check: all(gap(c) < 0.1\n    for c in cols)  # no single -->\n")
    assert found["No single"].verdict == "satisfied"


def test_a_collapsed_check_is_still_next_to_its_paragraph(tmp_path):
    """A check folded into ``??? note "Check: ..."`` binds the paragraph above it; its title is
    not prose. A paragraph between them still breaks the binding."""
    block = '??? note "Check: every value"\n\n    ```pycon\n    >>> bool(x.min() > 0)  # always\n    True\n    ```\n\n'
    found = _lint(tmp_path, "# T\n\nIt is always positive.\n\n" + block)
    assert found["It is"].verdict == "satisfied"
    assert not [s for s in found.values() if "every" in s.words]
    found = _lint(tmp_path, "# T\n\nIt is always positive.\n\nA paragraph between.\n\n" + block)
    assert found["It is"].verdict == "flagged"


def test_the_answer_needs_its_own_check(tmp_path):
    """No exempt zone: an answer's word is not satisfied by the same word checked below; a
    marker right after the answer (evaluated at the end of the page) binds it."""
    page = tmp_path / "p.md"
    text = ("# T\n\nIt is always positive.\n\n## Proof\n\n"
            "The value is always positive.\n\n<!-- check: x > 0  # always -->\n")
    page.write_text(text)
    assert [s.verdict for s in lint(page)] == ["flagged", "satisfied"]
    page.write_text(text.replace("positive.\n\n## Proof", "positive.\n\n"
                                 "<!-- check: x > 0  # always -->\n\n## Proof"))
    assert [s.verdict for s in lint(page)] == ["satisfied", "satisfied"]


def test_a_word_flipped_to_a_non_claim_word_fails(tmp_path):
    """"only" flipped to "also" leaves a check stating "only" (in a comment or a name) that its
    paragraph no longer says; a called function's name states nothing."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nIt depends also on the offset.\n\n"
                    "<!-- check: only_offset  # the offset -->\n")
    assert any("names 'only'" in s.text for s in lint(page))
    page.write_text("# T\n\n## A\n\nThe curve turns at 6.\n\n"
                    "<!-- check: first_increase(curve) == 6 -->\n")
    assert not [s for s in lint(page) if s.verdict == "flagged"]


def test_a_question_claims_nothing(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nIs it always positive? Predict it.\n")
    assert lint(page) == []


def test_each_sentence_needs_its_own_check(tmp_path):
    """Two sentences of a paragraph saying "more" need two checks naming it: flipping one
    sentence's word to the other's is caught."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\nA is more than B. C is more than D.\n\n"
                    "```pycon\n>>> a > b   # more\nTrue\n```\n")
    assert [s.verdict for s in lint(page)] == ["satisfied", "flagged"]


def test_a_check_stating_a_word_twice_needs_two_sentences(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nA is more than B. C is less than D.\n\n"
                    "<!-- check: a > b  # more -->\n<!-- check: c > d  # more -->\n")
    assert any("2 checks next to the paragraph" in s.text for s in lint(page))


def test_a_check_stating_a_direction_binds_it(tmp_path):
    """A definition's direction ("at least 0.001 apart") is bound by a check that states it:
    flipping the prose to "at most" leaves the check's direction unsaid."""
    page = tmp_path / "p.md"
    text = ("# T\n\nTwo positions count as distinct when they are at least 0.001 apart.\n\n"
            "<!-- check: [ok(s) for s in (0.0009, 0.0011)] == [False, True]  "
            "# at least 0.001 -->\n")
    page.write_text(text)
    assert [s for s in lint(page) if s.verdict == "flagged"] == []
    page.write_text(text.replace("are at least 0.001", "are at most 0.001"))
    flagged = [s for s in lint(page) if s.verdict == "flagged"]
    # the direction rule flags it, and (since issue 38) the bound-word rule too
    assert any("at least 0.001" in f.text for f in flagged), flagged
    page.write_text(text.replace("count as distinct", "are distinct, at least 0.001 apart,"))
    assert [s for s in lint(page) if s.verdict == "flagged"] == []   # said twice, stated once


def test_bound_words_are_claim_words(tmp_path):
    """Issue 38: "at most" and "at least" swapped in eight sentences left every test passing.
    A bound word needs a check next to its paragraph that states it, and a check stating one
    needs a sentence saying it."""
    found = _lint(tmp_path, (
        "# T\n\nThe error is at most 0.5 units.\n\n"
        "<!-- check: err <= 0.5  # at most -->\n\n"
        "The gap is at least 0.5 units.\n\n"
        "<!-- check: gap >= 0.5  # at most -->\n\n"
        "The rows agree within 1e-6.\n\n"
        "<!-- check: d < 1e-6  # within -->\n\n"
        "The sum is no more than 2.\n\n"
        "```python\nassert total <= 2  # no more than\n```\n"))
    assert found["The error"].verdict == "satisfied"
    assert found["The gap"].verdict == "flagged"          # the check states the other bound
    assert found["The rows"].verdict == "satisfied"
    assert found["The sum"].verdict == "satisfied"


def test_pages_on_the_bound_transition_list_still_need_it():
    """BOUND_NOT_YET only shrinks: a listed page with no unbound bound word must leave it."""
    from harness.words import BOUND_NOT_YET
    root = Path(__file__).resolve().parents[2] / "docs"
    for name in sorted(BOUND_NOT_YET):
        page = root / name if (root / name).exists() else root / "chapters" / name
        assert page.exists(), name
        left = [s for s in lint(page) if s.verdict == "transition"]
        assert left, f"{name}: every bound word is bound now; remove it from BOUND_NOT_YET"


def test_a_direction_before_a_comma_is_the_same_direction(tmp_path):
    """'at most 1,' in prose and '# at most 1' in a check are one phrase (r0309's report)."""
    from harness.words import directions
    assert directions("the entry is at most 1, the scale") == ["at most 1"]
    assert directions("at least 1,000 positions") == ["at least 1,000"]


SHARED = ("# T\n\nEvery row is finite.\n\n"
          "```pycon\n>>> every_row_finite = bool(2 > 1)\n>>> every_row_finite\nTrue\n"
          ">>> bool(3 > 2)  # every entry set\nTrue\n```\n\n"
          "The scheme adds the index to every entry.\n")


def test_a_block_between_two_paragraphs_counts_once_per_sentence():
    """A block next to two paragraphs that both say "every": flipping one of them (every ->
    some) must fail, though the other paragraph still says the word (CI's prose sample,
    2026-12-07: errata:983, chapter 16:114). A name printed again is one statement."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        page = Path(d) / "p.md"
        page.write_text(SHARED)
        assert not [s for s in lint(page) if s.verdict == "flagged"]
        for old, new in (("Every row", "Some row"), ("to every entry", "to some entry")):
            page.write_text(SHARED.replace(old, new))
            assert [s for s in lint(page) if s.verdict == "flagged"], new


def test_a_no_claim_marker_exempts_its_list_item_only(tmp_path):
    """A list was one sentence to the rules, so a no-claim marker in its last item exempted the
    claim words of every item (chapter 7's "depends on the offset alone only under conditions",
    2026-12-07): each item is a sentence of its own."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\nThree cases:\n\n- A is only B.\n"
                    "- C has three more terms. <!-- no-claim: counts terms, compares nothing -->\n")
    flagged = [s for s in lint(page) if s.verdict == "flagged"]
    assert [s.words for s in flagged] == [["only"]]


def test_a_folded_picture_stays_the_check_next_to_its_paragraph(tmp_path):
    """A figure folded under ``??? example "Picture: ..."`` (the tour's steps 2, 3, 6, 7) is the
    block next to the paragraph above it, as a ``"Check: ..."`` fold is; any other title is a
    paragraph of its own and the figure's asserts no longer reach the prose."""
    def verdicts(title):
        page = tmp_path / "p.md"
        page.write_text(f"# T\n\nEvery entry lies in the unit interval.\n\n??? example \"{title}\"\n\n"
                        "    ```python exec=\"on\" html=\"true\"\n"
                        "    assert (abs(table) <= 1).all()  # every entry\n    ```\n")
        return [s.verdict for s in lint(page) if s.words == ["every"]]
    assert verdicts("Picture: the table") == verdicts("Check: the table") == ["satisfied"]
    other = verdicts("The picture: the table")
    assert other and set(other) == {"flagged"}


def test_direction_words_are_claim_words(tmp_path):
    """Issue 38 (session 11): rises/falls, grows/shrinks, fastest/slowest, longer/shorter are
    claim words. Flipping one next to a check that states it fails; a sentence past its page's
    cap (harness/not_yet.py) is flagged like any other."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nThe error grows with the position.\n\n"
                    "<!-- check: err[-1] > err[0]  # grows -->\n")
    assert [s.verdict for s in lint(page)] == ["satisfied"]
    page.write_text(page.read_text().replace("error grows", "error shrinks"))
    assert "flagged" in [s.verdict for s in lint(page)]
    page.write_text("# T\n\n## A\n\nThe loss rose past the training length.\n")
    assert [s.verdict for s in lint(page)] == ["flagged"]


def test_same_and_order_words_are_claim_words(tmp_path):
    """Issue 38 (session 13): same/different and first/last are claim words. A sentence binds
    one with a check naming it; flipping it (same -> different, first -> last) leaves it without
    one; past its page's cap (harness/not_yet.py) an unbound one is flagged."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nThe two tables are the same.\n\n"
                    "<!-- check: np.array_equal(a, b)  # the same -->\n\n"
                    "The first row is all zeros.\n\n"
                    "<!-- check: not table[0].any()  # first row -->\n")
    assert [(s.words, s.verdict) for s in lint(page)] == [(["same"], "satisfied"),
                                                           (["first"], "satisfied")]
    for old, new in (("the same.", "different."), ("The first", "The last")):
        flipped = page.read_text().replace(old, new)
        (tmp_path / "q.md").write_text(flipped)
        assert "flagged" in [s.verdict for s in lint(tmp_path / "q.md")], new
    page.write_text("# T\n\n## A\n\nThe last column differs; the first does not.\n")
    assert [s.verdict for s in lint(page)] == ["flagged"]


def test_negation_both_and_time_words_are_claim_words(tmp_path):
    """Issue 38 (session 14): not/no/neither/without (with "isn't" and "nor" as forms),
    both/either and before/after/earlier/later are claim words. A deleted "not" or a flipped
    word leaves the check naming it without its sentence, or the sentence without its check."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nThe table isn't periodic.\n\n"
                    "<!-- check: period is None  # not periodic -->\n\n"
                    "Both columns cross zero before position 4.\n\n"
                    "<!-- check: crossings.max() < 4  # both, before -->\n")
    assert [(s.words, s.verdict) for s in lint(page)] == [(["not"], "satisfied"),
                                                           (["before", "both"], "satisfied")]
    for old, new in (("isn't", "is"), ("Both", "Either"), ("before", "after")):
        (tmp_path / "q.md").write_text(page.read_text().replace(old, new, 1))
        assert "flagged" in [s.verdict for s in lint(tmp_path / "q.md")], new
    page.write_text("# T\n\n## A\n\nNo row repeats, neither early nor later.\n")
    assert [(s.words, s.verdict) for s in lint(page)] == [(["later", "neither", "no"],
                                                            "flagged")]


def test_a_sentence_missing_words_of_two_classes_needs_room_in_both(tmp_path, monkeypatch):
    import harness.words as W
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nThe first error grows.\n")
    for caps, verdict in (({"direction": 1, "order": 1}, "transition"),
                          ({"direction": 1, "order": 0}, "flagged"),
                          ({"direction": 0, "order": 1}, "flagged")):
        for c, n in caps.items():
            monkeypatch.setitem(W.CLASSES, c, (W.CLASSES[c][0], {"p.md": n}))
        assert [s.verdict for s in lint(page)] == [verdict], caps


def test_caps_match_the_pages():
    """Each capped class (harness.words.CLASSES: direction, same, order) only shrinks: a page's
    cap in harness/not_yet.py is the number of its sentences still lacking a check naming a word
    of the class (scripts/not_yet_caps.py recounts them). Bind one and lower the cap; a new
    unbound one fails (past the cap, it is flagged)."""
    import importlib.util
    from harness.words import CLASSES
    spec = importlib.util.spec_from_file_location(
        "not_yet_caps", Path(__file__).resolve().parents[2] / "scripts" / "not_yet_caps.py")
    caps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(caps)
    found = caps.counts()
    for c, (_, cap) in CLASSES.items():
        assert dict(found[c]) == cap, c


def test_predict_first_is_an_instruction(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\n**Exercise 1 (predict first).** Compute the norm.\n\n"
                    "Predict first, then run it. The first row is zero.\n")
    assert [s.words for s in lint(page)] == [["first"]]


def test_a_library_argument_name_states_no_claim_word(tmp_path):
    """torch's batch_first names an argument, not an order: a check passing it binds no
    'first', and states none its paragraph must say."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\n## A\n\nThe module takes the batch axis.\n\n"
                    "<!-- check: layer.batch_first is False -->\n\n"
                    "The first row is zero.\n\n<!-- check: layer.batch_first is False -->\n")
    verdicts = [(s.words, s.verdict) for s in lint(page)]
    assert verdicts == [(["first"], "flagged")], verdicts
