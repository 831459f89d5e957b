"""The doc-test harness: one reading of each page (page.py), its rules (numbers.py, words.py,
lines.py, judged together by rules.py) and the Sybil configuration that runs pages and
docstrings under pytest (collect.py, the only module that needs the test tools)."""
