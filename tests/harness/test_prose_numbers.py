"""The prose-number rule (harness.numbers) on small pages: what it binds and what it flags.

Every page of docs/ is judged by its own rules item (harness.collect), not here."""

from pathlib import Path

from harness.numbers import scan

def _verdicts(page):
    return {(n.line, n.text): n.verdict for n in scan(page).numbers}


def test_scanner_flags_and_accepts(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "# Title\n"
        "The gap is 0.506 and the length 4.302, the ratio 0.31, the count 4096.\n"
        "We use 512 dimensions. In 2017 chapter 12 said 7 things; 1,999 and 2000 rows.\n"
        "A bound of 1e-8 holds for 4096 rows. <!-- not-checked: 4096 illustrative size -->\n"
        "Layers use float32 and GPT-2 has 1024 rows. In TeX \\(62{,}832\\) is one number.\n"
        "A unit 2^-24 and 10^6 steps, 12.5% and 1% and 3 of them, 0.5069 here.\n"
        "| a table row | 0.507 | 4.302 |\n"
        "```pycon\n>>> d_model = 512\n>>> gap, length\n(0.5062, 4.3019)\n>>> 1e-8\n1e-08\n"
        ">>> 2.0 ** -24, 10 ** 6, 0.125, 0.01, 3\n(5.960464477539063e-08, 1000000, 0.125, 0.01, 3)\n"
        ">>> 0.5064\n0.5064\n```\n"
    )
    v = _verdicts(page)
    assert v[(2, "0.506")] == "checked"
    assert v[(2, "4.302")] == "checked"
    assert v[(2, "0.31")] == "unchecked"
    assert v[(2, "4096")] == "unchecked"       # the exemption is on another line
    assert v[(3, "512")] == "input"
    assert v[(3, "2017")] == "ignored"         # a year: "In 2017"
    assert v[(3, "12")] == "ignored"           # chapter 12
    assert v[(3, "1,999")] == "unchecked"      # not a year: it has a thousands separator
    assert v[(3, "2000")] == "unchecked"       # not a year: a count of rows
    assert v[(4, "1e-8")] == "checked"
    assert v[(4, "4096")] == "exempt"
    assert v[(5, "1024")] == "unchecked"
    assert v[(5, "62,832")] == "unchecked"
    assert v[(6, "2^-24")] == "checked"
    assert v[(6, "10^6")] == "checked"
    assert v[(6, "12.5%")] == "checked"
    assert v[(6, "1%")] == "checked"           # a percentage is a quantity, even a single digit
    assert v[(6, "3")] == "ignored"            # a single digit in running text
    # 0.5069 is not 0.5064 to the digits written (a whole unit would accept it)
    assert v[(6, "0.5069")] == "unchecked"
    assert v[(7, "0.507")] == "unchecked"      # 0.5062 rounds to 0.506; a whole unit accepts it
    assert v[(7, "4.302")] == "checked"        # table rows are prose
    page.write_text("Quoted: 40, 250 and 1,580 were claimed. <!-- not-checked: 40, 250, 1,580 quoted -->\n")
    assert [n.verdict for n in scan(page).numbers if n.text != "40"] == ["exempt", "exempt"]
    assert not any(n.text in ("32", "2") for n in scan(page).numbers)


def test_powers_are_exact_and_relative_matches_are_tight(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\nA unit 2^-24 and 2^-23, 10^6 and 10^5, 1.01 and 101.\n"
                    "```pycon\n>>> 2.0 ** -24, 10 ** 6, 1.0, 100\n"
                    "(5.960464477539063e-08, 1000000, 1.0, 100)\n```\n")
    v = _verdicts(page)
    assert v[(2, "2^-24")] == "checked"
    assert v[(2, "2^-23")] == "unchecked"      # 2^-23 is within 0.5 of 2^-24, not equal to it
    assert v[(2, "10^5")] == "unchecked"
    assert v[(2, "1.01")] == "unchecked"       # 1% off 1.0
    assert v[(2, "101")] == "unchecked"        # 1% off 100


def test_a_number_is_checked_only_by_its_own_section(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "# Title\n\n## One\n\nThe value is 0.75 and the size 300.\n\n"
        "```pycon\n>>> 3 / 4\n0.75\n```\n\n"
        "## Two\n\nHere 0.75 again, and the size 300 too.\n\n"
        "```python\nsize = 300\nprint(127 / 128 - 0.5)\n```\n\n"
        "Here 127 and 128 appear.\n\n## Summary\n\nIn short 0.75, and 0.25 too, 300 and 30.\n")
    v = _verdicts(page)
    assert v[(5, "0.75")] == "checked"
    assert v[(5, "300")] == "unchecked"        # bound to a name in section Two, not here
    assert v[(14, "0.75")] == "unchecked"      # printed only in section One
    assert v[(14, "300")] == "input"           # size = 300
    assert v[(21, "127")] == "unchecked"       # an operand, not a name's value
    assert v[(21, "128")] == "unchecked"
    assert v[(25, "0.75")] == "restated"       # the summary repeats a checked number
    assert v[(25, "0.25")] == "unchecked"
    assert v[(25, "300")] == "restated"        # three digits, bound to a name in section Two
    assert v[(25, "30")] == "unchecked"        # two digits: too easily a coincidence


def test_figure_captions_and_alt_text_are_scanned(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "# T\n\n```pycon\n>>> 21 * 3\n63\n```\n\n"
        '```python exec="on" html="true"\nfrom posenc.plots import figure_html\n'
        'print(figure_html(fig, alt="Every 20 columns, 63 in all",\n'
        '                  caption=f"{n} rows and 64 columns"))\n```\n')
    found = {(n.text, n.where): n.verdict for n in scan(page).numbers}
    assert found[("63", "caption")] == "checked"
    assert found[("20", "caption")] == "unchecked"
    assert found[("64", "caption")] == "unchecked"


def test_equal_numbers_on_a_line_need_as_many_outputs(tmp_path):
    """Agreement, not presence: "78 and 79" turned into "79 and 79" fails when 79 is printed
    once; a number said twice that the code names (an input) or prints twice passes."""
    page = tmp_path / "p.md"
    text = ("# T\n\n## A\n\nThe closest pair is 78 and 79.\n\n"
            "```pycon\n>>> pair\n(78, 79)\n```\n")
    page.write_text(text)
    assert {n.text: n.verdict for n in scan(page).numbers} == {"78": "checked", "79": "checked"}
    page.write_text(text.replace("78 and 79.", "79 and 79."))
    assert [n.verdict for n in scan(page).numbers] == ["unchecked", "unchecked"]
    page.write_text(text.replace("78 and 79.", "79 and 79.").replace("(78, 79)", "(79, 79)"))
    assert [n.verdict for n in scan(page).numbers] == ["checked", "checked"]
    # values far apart, so only this rule (not the neighbour rule) can tell 0.3 from 0.7
    page.write_text("# T\n\n## A\n\nThe gaps are 0.7 and 0.7.\n\n```pycon\n>>> gaps\n(0.3, 0.7)\n```\n")
    assert [(n.verdict, n.why) for n in scan(page).numbers] == [("unchecked", "twin")] * 2
    page.write_text("# T\n\n## A\n\nA 64 by 64 map, 64 wide.\n\n```pycon\n>>> d = 64\n>>> d\n64\n```\n")
    assert all(n.verdict == "checked" for n in scan(page).numbers if n.text == "64")


def test_a_restatement_is_compared_with_what_it_restates(tmp_path):
    """The answer may repeat a number bound in another section's prose, or print-exact with four
    digits; a value that only coincides with some output elsewhere is not a restatement."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\nIt is 0.9894 and 512 rows and 513 too, and 0.99.\n\n## A\n\n"
                    "A table of 512 rows.\n\n```pycon\n>>> n_rows = 512\n>>> x, n_rows + 1\n"
                    "(0.9894, 513)\n```\n")
    v = {n.text: n.verdict for n in scan(page).numbers if n.line == 3}
    assert v == {"0.9894": "restated", "512": "restated", "513": "unchecked",
                 "0.99": "unchecked"}


def test_a_number_is_bound_by_the_blocks_next_to_its_paragraph(tmp_path):
    """Agreement, not presence: an output two paragraphs away does not bind a number."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\nThe gap is 0.506.\n\nAnother paragraph.\n\n"
                    "```pycon\n>>> gap\n0.5062\n```\n\nIt is 0.506 again.\n")
    assert [n.verdict for n in scan(page).numbers] == ["unchecked", "checked"]


def test_a_number_the_check_cannot_tell_from_its_neighbour_is_ambiguous(tmp_path):
    """A block that prints 1023 and 1024 binds neither "0 to 1023" nor "0 to 1024" ... unless the
    paragraph writes both, when the twin rule keeps them apart."""
    page = tmp_path / "p.md"
    page.write_text("# T\n\nPositions 0 to 1023.\n\n```pycon\n>>> last, n\n(1023, 1024)\n```\n")
    [n] = [n for n in scan(page).numbers if n.text == "1023"]
    assert (n.verdict, n.why) == ("unchecked", "neighbour")
    page.write_text("# T\n\nPositions 0 to 1023, 1024 rows.\n\n"
                    "```pycon\n>>> last, n\n(1023, 1024)\n```\n")
    assert {n.text: n.verdict for n in scan(page).numbers
            if n.verdict != "ignored"} == {"1023": "checked", "1024": "checked"}


def test_the_last_position_of_a_range_binds_only_after_to(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nPositions 0 to 1023 of 1024, not 0 to 1024.\n\n"
                    "```python\nx = f(np.arange(1024))\n```\n")
    found = [(n.text, n.verdict) for n in scan(page).numbers if n.verdict != "ignored"]
    assert found == [("1023", "input"), ("1024", "input"), ("1024", "unchecked")]


def test_a_bound_is_rounded_to_its_safe_side(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nAt least 0.99 and at most 0.26; at least 0.98 and at most 0.27.\n\n"
                    "```pycon\n>>> low, high\n(0.9851, 0.2634)\n```\n")
    assert [(n.text, n.verdict) for n in scan(page).numbers] == [
        ("0.99", "unchecked"), ("0.26", "unchecked"), ("0.98", "checked"), ("0.27", "checked")]


def test_a_restatement_that_could_restate_its_neighbour_is_ambiguous(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nUp to 99.\n\n## A\n\nPositions 0 to 99 and 98.\n\n"
                    "```pycon\n>>> last, other\n(99, 98)\n```\n")
    [n] = [n for n in scan(page).numbers if n.line == 3]
    assert (n.verdict, n.why) == ("unchecked", "neighbour")


def test_a_bound_split_across_lines_is_still_a_bound(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nThe gap is at\nmost 0.002 here.\n\n```pycon\n>>> gap\n0.002002\n```\n")
    [n] = [n for n in scan(page).numbers if n.text == "0.002"]
    assert (n.verdict, n.why) == ("unchecked", "bound")


def test_negative_numbers_and_the_second_end_of_a_range_are_scanned(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# T\n\nOffsets from -100 to 100, dimensions 64-65, on 2026-11-25.\n\n"
                    "```pycon\n>>> lo, hi, dims\n(-100, 100, [64, 65])\n```\n")
    found = [(n.text, n.value, n.verdict) for n in scan(page).numbers if n.verdict != "ignored"]
    assert found == [("-100", -100.0, "checked"), ("100", 100.0, "checked"),
                     ("64", 64.0, "checked"), ("65", 65.0, "checked")]


def test_a_float_in_a_code_span_is_a_value_of_the_page_code(tmp_path):
    """issue 29 / findings: chapter 13's `pos * 6e-8` hid a wrong figure in backticks."""
    from harness.page import parse
    from harness.rules import code_span_failures

    held = "# T\n\nExpect up to `pos * 6e-8`.\n\n```python\nbound = 6e-8\n```\n"
    assert code_span_failures(parse(held, "p.md")) == []
    hidden = "# T\n\nExpect up to `pos * 6e-8`.\n\n```python\nbound = 8e-8\n```\n"
    found = code_span_failures(parse(hidden, "p.md"))
    assert len(found) == 1 and "'6e-8'" in found[0]
    assert code_span_failures(parse("# T\n\nSet `d_model = 512`.\n", "p.md")) == []


def test_a_power_is_not_checked_by_an_output_too_coarse_to_show_it(tmp_path):
    """Chapter 12's `2^{-24}` was bound by a `[0.0, 0.0, 0.0]` printed next to it: 0.0 at one
    decimal is 0 +- 0.05, which every small power falls in (review-2026-12 p3f pass 3)."""
    page = tmp_path / "p.md"
    page.write_text("# T\nThe largest difference is 2^-24.\n"
                    "```pycon\n>>> [0.0, 0.0]\n[0.0, 0.0]\n```\n")
    assert _verdicts(page)[(2, "2^-24")] == "unchecked"
