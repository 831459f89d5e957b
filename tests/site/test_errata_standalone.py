"""Each errata entry from #each-dimension to #yarn-paper-vs-code runs on its own.

docs/errata.md says any entry can be copied on its own after the page's imports. The page's
doc tests run the blocks in one namespace with NumPy's legacy printing; a reader pasting one
entry into a fresh Python gets NumPy 2's default printing (np.float64(0.5)). This runs each
entry alone, in a fresh namespace, with the default printing, and compares the shown output.
"""
import doctest
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "errata.md"
IMPORTS = ("import math\nimport numpy as np\nimport posenc\n"
           "from posenc.distances import nearest_pairs\n")


def _entries():
    page = PAGE.read_text()
    part = page[page.index("{#each-dimension}"):page.index("## RoPE conventions")]
    for entry in re.split(r"\n### ", part):
        name = re.search(r"\{#([^}]+)\}", entry).group(1)
        blocks = re.findall(r"```pycon\n(.*?)```", entry, re.S)
        yield name, "\n".join(textwrap.dedent(b) for b in blocks)


ENTRIES = list(_entries())


def test_share_covered():
    names = [name for name, _ in ENTRIES]
    assert names[0] == "each-dimension" and names[-1] == "yarn-paper-vs-code"
    assert len(names) == 25


def run_alone(name, text):
    """Run an entry's examples in a fresh namespace (the page's imports only) with NumPy's
    default printing; (failures, report). tests/site/test_errata_review_p3l.py uses it too."""
    namespace = {}
    exec(IMPORTS, namespace)
    test = doctest.DocTestParser().get_doctest(text, namespace, name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report = []
    with np.printoptions(legacy=False):
        runner.run(test, out=report.append)
    return runner.failures, "".join(report)


@pytest.mark.parametrize("name,text", ENTRIES, ids=[n for n, _ in ENTRIES])
def test_entry_alone_with_default_printing(name, text):
    failures, report = run_alone(name, text)
    assert failures == 0, report


def test_seed_claims_name_one_article():
    """Each seed claim of this share is in one seed article (review-2026-12 p2p pass 2: the
    six entries said "the seed articles"; each phrase occurs in one of the four seeds)."""
    for name, _ in ENTRIES:
        page = PAGE.read_text()
        entry = page[page.index("{#%s}" % name):].split("\n### ", 1)[0]
        assert "Made in the seed articles" not in entry, name
