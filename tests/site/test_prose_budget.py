"""Issue 38: the site's prose must not grow; new text is paid for by cuts."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("prose_words", ROOT / "scripts" / "prose_words.py")
prose = importlib.util.module_from_spec(spec)
spec.loader.exec_module(prose)


def test_the_prose_stays_within_its_budget():
    total = sum(prose.per_page().values())
    assert total <= prose.PROSE_BUDGET, (
        f"{total} prose words, over the budget of {prose.PROSE_BUDGET}: pay for new text with "
        "cuts (scripts/prose_words.py -v lists each page)")


def test_the_count_skips_code_markers_and_doctests():
    text = "One two three.\n\n<!-- check: a < b  # more -->\n\n```python\nx = 1\n```\n\n>>> x\n1\n"
    assert prose.prose_words(text) == 4          # the printed "1" is prose to this counter
    assert prose.prose_words("```python\nwords in code\n```\n") == 0
