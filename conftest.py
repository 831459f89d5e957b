"""pytest configuration: the doc-test harness lives in ``harness/`` (see harness/collect.py).

Every Python block of every page in docs/ and of README.md, every claim marker, the page's
rules (prose numbers, claim words, code line lengths) and every docstring example in posenc/
are collected from one reading of each file.
"""

import os

# One thread per process for PyTorch's and the BLAS's kernels unless the caller says otherwise
# (scripts/cpu_matrix.py sets 1 or 2): `make test` runs two pytest workers on a 2-core machine,
# and two threads each left them spinning against each other (chapter 16: 21 s -> 8 s, chapters
# 7, 11 and 13 together: 15.4 s -> 10.4 s, 2026-11-27). Set before NumPy or torch is imported.
os.environ.setdefault("OMP_NUM_THREADS", "1")

from harness.collect import (DOC_PATTERNS, _half_unit, code_sybil, markdown_sybil,  # noqa: F401
                             pytest_collect_file, pytest_terminal_summary)


def pytest_collection_finish(session):
    """Move what collection imported and built (torch, transformers, every page's examples) out
    of the garbage collector's sight: pytest collects twice at the end of a run to report
    unraisable exceptions (and Python runs full collections as the run allocates): walking that
    heap took 0.2 s to over a second each time (0.19 s with torch and transformers alone)."""
    import gc

    gc.freeze()
