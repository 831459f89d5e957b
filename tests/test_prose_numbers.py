"""Every number typed in the prose of a page is produced by that page's checked code."""

from pathlib import Path

import pytest

from tests.prose_numbers import scan

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_prose_numbers_are_checked(page):
    report = scan(page)
    bad = [f"{page.relative_to(ROOT)}:{n.line}: {n.text}" for n in report.numbers
           if n.verdict == "unchecked"]
    print(f"{page.relative_to(ROOT)}: checked={report.count('checked')} "
          f"inputs={report.count('input')} exempt={report.count('exempt')} "
          f"ignored={report.count('ignored')}")
    assert not bad, "numbers in prose with no check on the page:\n" + "\n".join(bad)


def test_scanner_flags_and_accepts(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "The gap is 0.506 and the length 2.302, the ratio 0.31, the count 4096.\n"
        "We use 512 dimensions. In 2017 chapter 12 said 7 things.\n"
        "A bound of 1e-8 holds for 4096 rows. <!-- not-checked: 4096 illustrative size -->\n"
        "Layers use float32 and GPT-2 has 1024 rows. In TeX \\(62{,}832\\) is one number.\n"
        "```pycon\n>>> d_model = 512\n>>> gap, length\n(0.5062, 2.3019)\n>>> 1e-8\n1e-08\n```\n"
    )
    verdicts = {(n.line, n.text): n.verdict for n in scan(page).numbers}
    assert verdicts[(1, "0.506")] == "checked"
    assert verdicts[(1, "2.302")] == "checked"
    assert verdicts[(1, "0.31")] == "unchecked"
    assert verdicts[(1, "4096")] == "unchecked"       # the exemption is on another line
    assert verdicts[(2, "512")] == "input"
    assert verdicts[(2, "2017")] == "ignored"
    assert verdicts[(2, "12")] == "ignored"
    assert verdicts[(3, "1e-8")] == "checked"
    assert verdicts[(3, "4096")] == "exempt"
    assert verdicts[(4, "1024")] == "unchecked"
    assert verdicts[(4, "62,832")] == "unchecked"
    page.write_text("Quoted: 40, 250 and 1,580 were claimed. <!-- not-checked: 40, 250, 1,580 quoted -->\n")
    assert [n.verdict for n in scan(page).numbers if n.text != "40"] == ["exempt", "exempt"]
    assert not any(n.text in ("32", "2") for n in scan(page).numbers)
