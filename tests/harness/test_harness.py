"""The doc-test harness sees every Python block, and a wrong number on a page fails.

A page can only be trusted if the collector cannot silently skip one of its blocks, so this test
finds Python-looking fences with its own, deliberately broad pattern and checks that Sybil
collected an example inside each of them.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from sybil.example import SybilFailure

from harness import collect

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Any fence (``` or ~~~, any indentation, inside lists or quotes) whose info string mentions a
# Python-ish language, in any of the spellings Markdown tools accept.
PYTHONISH_FENCE = re.compile(
    r"^(?P<indent>[ \t>*+\-\d.)]*)(?P<fence>`{3,}|~{3,})[ \t]*\{?[ \t]*\.?"
    r"(?:python3?|py3?|pycon|ipython3?|ipy)\b",
    re.IGNORECASE,
)


def pythonish_blocks(text: str):
    """(first line, last line) of every Python-looking fenced block, 1-based."""
    lines = text.splitlines()
    blocks, n = [], 0
    while n < len(lines):
        m = PYTHONISH_FENCE.match(lines[n])
        if m:
            fence = m.group("fence")
            end = n + 1
            while end < len(lines) and not lines[end].strip().startswith(fence):
                end += 1
            blocks.append((n + 1, end + 1))
            n = end
        n += 1
    return blocks


def collected_lines(path: Path):
    document = collect.code_sybil.parse(path)
    return [example.line for example in document.examples()]


def uncollected(path: Path):
    lines = collected_lines(path)
    return [(first, last) for first, last in pythonish_blocks(path.read_text())
            if not any(first <= line <= last for line in lines)]


def doc_pages():
    pages = sorted(p for p in DOCS.rglob("*.md"))
    assert pages, "no Markdown pages found under docs/"
    return pages + [ROOT / "README.md"]


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_fence_is_collected(page):
    missing = uncollected(page)
    assert not missing, f"{page.relative_to(ROOT)}: Python fences not run by Sybil at lines {missing}"


def test_every_page_is_matched_by_the_sybil_patterns():
    patterns = collect.DOC_PATTERNS
    for page in doc_pages():
        rel = page.relative_to(ROOT)
        assert any(rel.match(p) for p in patterns), f"{rel} is not matched by {patterns}"


DECORATED = textwrap.dedent('''\
    # every spelling a page might use

    ```python
    a = 1
    ```

    ```py
    b = 2
    ```

    ```pycon
    >>> a + b
    3
    ```

    ```python title="example.py" hl_lines="1"
    c = 3
    ```

    ``` { .python linenums="1" }
    d = 4
    ```

    ```python exec="on" html="true"
    print(a + b + c + d)
    ```

    !!! note
        ```pycon
        >>> a
        1
        ```

    === "Tab"

        ```py
        e = 5
        ```

    ~~~python
    f = 6
    ~~~
    ''')


def test_decorated_fences_are_collected(tmp_path):
    page = tmp_path / "decorated.md"
    page.write_text(DECORATED)
    blocks = pythonish_blocks(DECORATED)
    assert len(blocks) == 9
    assert uncollected(page) == []


def test_guard_notices_a_fence_the_parser_skips(tmp_path):
    page = tmp_path / "skipped.md"
    page.write_text("```ipython\nx = 1\n```\n")
    assert uncollected(page) == [(1, 3)]


def _run(page: Path):
    document = collect.code_sybil.parse(page)
    examples = list(document.examples())
    collect._setup(document.namespace)
    for example in examples:
        example.evaluate()
    return examples


def test_a_wrong_number_on_a_page_fails(tmp_path):
    good = tmp_path / "good.md"
    good.write_text("```pycon\n>>> import math\n>>> round(math.sin(1.0), 3)\n0.841\n```\n")
    assert len(_run(good)) == 2
    bad = tmp_path / "bad.md"
    bad.write_text("```pycon\n>>> import math\n>>> round(math.sin(1.0), 3)\n0.842\n```\n")
    with pytest.raises(Exception, match="0.842"):
        _run(bad)


@pytest.mark.parametrize("shown", ["0.841", "0.8415", "0.8414709848", "8.41e-1", "0.84147098480789",
                                   "0.8414709848078966"])
def test_a_shown_output_is_exactly_what_python_prints(tmp_path, shown):
    """No rounding tolerance (issue 29): a reader who pastes the block sees the page's text.
    Python prints sin(1) as 0.8414709848078965; every other spelling fails, the last digit
    included."""
    page = tmp_path / "shown.md"
    page.write_text(f"```pycon\n>>> import math\n>>> math.sin(1.0)\n{shown}\n```\n")
    with pytest.raises(Exception):
        _run(page)
    page.write_text("```pycon\n>>> import math\n>>> math.sin(1.0)\n0.8414709848078965\n```\n")
    _run(page)


def test_numpy_scalars_print_plainly(tmp_path):
    page = tmp_path / "scalar.md"
    page.write_text("```pycon\n>>> import numpy as np\n>>> np.float64(0.25) * 2\n0.5\n```\n")
    assert len(_run(page)) == 2


def test_failing_code_block_fails(tmp_path):
    page = tmp_path / "raises.md"
    page.write_text("```python title=\"x\"\nassert 1 + 1 == 3\n```\n")
    with pytest.raises(AssertionError):
        _run(page)


def test_claim_markers_are_evaluated_in_the_page_namespace(tmp_path):
    page = tmp_path / "marker.md"
    page.write_text("```python\nx = 3\n```\n\nThree is more than two.\n\n"
                    "<!-- check: x > 2 -->\n\n"
                    "  <!-- check: x <\n  4 -->\n\n"
                    "```markdown\n<!-- check: x > 100 -->\n```\n")
    examples = _run(page)
    assert [e.line for e in examples] == [1, 7, 9]      # the fenced marker is text


@pytest.mark.parametrize("marker, message", [
    ("x < 2", r"marker\.md:7: claim check is false \(value False\)\n.*x < 2"),
    ("y > 2", r"marker\.md:7: claim check raised NameError: .*'y'"),
    ("x > ", r"marker\.md:7: claim check raised SyntaxError"),
])
def test_a_false_claim_marker_fails_naming_page_line_and_expression(tmp_path, marker, message):
    page = tmp_path / "marker.md"
    page.write_text(f"```python\nx = 3\n```\n\nThree is less than two.\n\n<!-- check: {marker} -->\n")
    with pytest.raises(SybilFailure, match=message):
        _run(page)


def test_an_exception_example_checks_its_message(tmp_path):
    good = tmp_path / "good.md"
    good.write_text("```pycon\n>>> int('x')\nTraceback (most recent call last):\n...\n"
                    "ValueError: invalid literal for int() with base 10: 'x'\n```\n")
    _run(good)
    bad = tmp_path / "bad.md"
    bad.write_text("```pycon\n>>> int('x')\nTraceback (most recent call last):\n...\n"
                   "ValueError: the argument names a different thing\n```\n")
    with pytest.raises(Exception, match="different thing"):
        _run(bad)


def test_an_integer_output_is_exact(tmp_path):
    for want, got in (("3", "3.4"), ("2", "2.4"), ("(3, 7)", "(3.4, 7)")):
        page = tmp_path / "int.md"
        page.write_text(f"```pycon\n>>> print({got!r})\n{want}\n```\n")
        with pytest.raises(Exception):
            _run(page)


def test_every_docstring_example_is_collected():
    """pytest collects one example per ``>>>`` line of the docstrings in posenc/ (Sybil's
    doctest parser makes each statement an example), so none is silently dropped."""
    import subprocess
    import sys

    package = ROOT / "posenc"
    expected = sum(1 for path in package.rglob("*.py")
                   for line in path.read_text().splitlines() if line.lstrip().startswith(">>> "))
    assert expected > 50
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "-p", "no:cacheprovider", str(package)],
                         cwd=ROOT, capture_output=True, text=True)
    collected = sum(int(m.group(1)) for m in re.finditer(r"^posenc/\S+\.py: (\d+)$", run.stdout,
                                                        re.MULTILINE))
    assert collected == expected, run.stdout[-2000:]


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_page_model_counts_what_sybil_collects(page):
    """The site's per-page example count (hooks/checked.py, from harness.page without Sybil)
    equals what the Sybil configuration collects."""
    from harness.page import read

    assert read(page).example_count() == len(collected_lines(page))


def test_the_site_hooks_import_no_test_tool():
    """A docs-only install builds the site: the hooks import neither conftest, sybil nor pytest."""
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, '.'); import hooks.checked, hooks.mathml, "
            "hooks.figure_cache, hooks.reader, hooks.downloads; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('conftest', 'sybil', 'pytest', '_pytest')))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", run.stdout


def test_an_exec_block_runs_in_a_fresh_namespace(tmp_path):
    """As at build time: an exec="on" block cannot see the page's earlier names."""
    page = tmp_path / "exec.md"
    page.write_text('```python\nx = 1\n```\n\n```python exec="on"\nprint(x)\n```\n')
    with pytest.raises(NameError):
        _run(page)
    page.write_text('```python\nx = 1\n```\n\n```python exec="on"\nx = 2\nprint(x)\n```\n\n'
                    '<!-- check: x == 1 -->\n')
    _run(page)


def test_the_page_rules_are_an_item_of_the_page(tmp_path):
    """pytest on one page runs its rules: an unchecked number fails that page's own tests,
    naming page, line and section, in a test whose id is that line."""
    import subprocess
    import sys

    docs = tmp_path / "docs"
    docs.mkdir()
    import os
    import shutil

    shutil.copytree(ROOT / "harness", tmp_path / "harness",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    page = docs / "p.md"
    page.write_text("# T\n\n## Part\n\nThe value is 0.75, the count 4242.\n\n"
                    "```pycon\n>>> 3 / 4\n0.75\n```\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "docs/p.md"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert run.returncode == 1, run.stdout[-2000:]
    assert "docs/p.md:5 (section \"Part\"): number '4242'" in run.stdout, run.stdout[-2000:]
    # the failing test's id names the failing line, not the page's last (issue 42)
    assert "FAILED docs/p.md::sybil:docs,line:5,column:1" in run.stdout, run.stdout[-2000:]
    page.write_text(page.read_text().replace(", the count 4242", ""))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "docs/p.md"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "2 passed" in run.stdout


def test_printed_noise_fails_unless_exact(tmp_path):
    from harness.page import parse
    from harness.rules import noise_failures

    noisy = parse("```pycon\n>>> 10000 ** (-510 / 512)\n0.0001036632928437698\n```\n", "p.md")
    assert len(noise_failures(noisy)) == 1
    for fine in ("```pycon\n>>> round(w, 6)\n0.000104\n```\n",
                 "```pycon\n>>> 2.0 ** -53   # exact\n1.1102230246251565e-16\n```\n"):
        assert noise_failures(parse(fine, "p.md")) == []


def test_an_answer_marker_runs_after_the_last_block(tmp_path):
    """The answer comes before the code that computes it: its markers run with the page's rules
    item, in the namespace the whole page built, and fail naming page and line."""
    page = tmp_path / "answer.md"
    page.write_text("# T\n\nIt is three.\n\n<!-- check: x == 3 -->\n\n## A\n\n```python\nx = 3\n```\n")
    document = collect.markdown_sybil.parse(page)
    collect._setup(document.namespace)
    for example in document.examples():
        example.evaluate()
    page.write_text(page.read_text().replace("x == 3", "x == 4"))
    document = collect.markdown_sybil.parse(page)
    collect._setup(document.namespace)
    with pytest.raises(SybilFailure, match=r"answer\.md:5 .*claim check is false"):
        for example in document.examples():
            example.evaluate()


def test_a_colon_must_introduce_something_the_reader_sees(tmp_path):
    """Issue 41: a sentence ending with ':' whose check moved into a marker points at nothing."""
    from harness.colons import dangling
    from harness.page import read
    page = tmp_path / "p.md"
    page.write_text("# T\n\nIt holds for all of them:\n\n<!-- check: True -->\n\n## Next\n\n"
                    "Shown here:\n\n```python\nx = 1\n```\n\nA list:\n\n- one\n\n"
                    "Folded:\n\n??? note \"Check: x\"\n\n    ```python\n    x = 2\n    ```\n\n"
                    "A colon: mid-sentence\nand the paragraph goes on.\n\nAt the end:\n")
    assert [n for n, _ in dangling(read(page))] == [3, 30]


def test_pages_on_the_colon_transition_list_still_need_it():
    from harness.colons import COLON_NOT_YET, dangling
    from harness.page import read
    root = Path(__file__).resolve().parents[2] / "docs" / "chapters"
    for name in sorted(COLON_NOT_YET):
        assert dangling(read(root / name)), f"{name}: no dangling colon left; remove it from COLON_NOT_YET"


def test_no_environment_variable_switches_a_rule_off():
    """The rules read no environment: a variable that turns one off would pass every page
    silently (issue 42: HARNESS_ADJ and HARNESS_SENT did). Only the Sybil configuration may read
    the environment (the figure cache, the plotting backend). The package docstring names every
    rule module."""
    import harness
    for path in sorted((ROOT / "harness").glob("*.py")):
        if path.name in ("collect.py", "__init__.py"):
            continue
        text = path.read_text()
        assert "os.environ" not in text and "getenv" not in text, path.name
        assert path.name in harness.__doc__, f"harness/__init__.py does not name {path.name}"


def test_no_rule_imports_another_modules_private_name():
    """Issue 42: what two rules share lives in page.py or text.py under a public name."""
    for path in sorted((ROOT / "harness").glob("*.py")):
        text = path.read_text()
        assert not re.search(r"from harness\.\w+ import[^\n]*\b_\w", text), path.name
        assert not re.search(r"\b(?:numbers|words|causes|scope|page|text|values|agreement)\._\w",
                             text), path.name


def test_every_rule_reads_next_to_from_page():
    """Issue 42: one meaning of "next to a paragraph". The number rule's adjacency and the claim
    words' (which causes and scope use) are both harness.page.next_to, on every page: a marker
    right before a paragraph binds its numbers and its words alike."""
    from harness import numbers, words
    from harness.page import next_to, parse, read

    for path in sorted(DOCS.rglob("*.md")):
        page = read(path)
        views = words.elements(page)
        adjacent, _ = numbers.adjacency(page)
        for k, el in enumerate(page.elements):
            if el.kind != "paragraph":
                continue
            near = next_to(page.elements, k)
            assert adjacent[el.first] == {page.elements[j].first for j in near}, (path, el.first)
            assert words.checks_next_to(views, k) == [c for j in near for c in views[j].checks]
    page = parse("# T\n\n## A\n\n<!-- check: x < 2 -->\n\nIt is less than 2.\n", "p.md")
    k = next(k for k, el in enumerate(page.elements) if el.kind == "paragraph")
    assert [page.elements[j].kind for j in next_to(page.elements, k)] == ["marker"]
