"""pytest configuration: the doc-test harness lives in ``harness/`` (see harness/collect.py).

Every Python block of every page in docs/ and of README.md, every claim marker, the page's
rules (prose numbers, claim words, code line lengths) and every docstring example in posenc/
are collected from one reading of each file.
"""

from harness.collect import (DOC_PATTERNS, _half_unit, code_sybil, markdown_sybil,  # noqa: F401
                             pytest_collect_file, pytest_terminal_summary)


def pytest_collection_finish(session):
    """Move what collection imported and built (torch, transformers, every page's examples) out
    of the garbage collector's sight: pytest collects twice at the end of a run to report
    unraisable exceptions (and Python runs full collections as the run allocates): walking that
    heap took 0.2 s to over a second each time (0.19 s with torch and transformers alone)."""
    import gc

    gc.freeze()
