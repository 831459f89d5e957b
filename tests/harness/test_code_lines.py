"""Code on the pages is read without sideways scrolling (harness.lines): every source line a
reader sees in a code block of docs/ or README.md is at most 80 characters. Each page's rules
item (harness.collect) applies the rule; here the counter is checked on a small page.
"""

from __future__ import annotations

from harness.lines import LIMIT, shown_source_lines
from harness.page import parse


def test_the_line_counter_sees_what_a_reader_sees():
    page = '''text

```pycon
>>> x = 1
>>> print("an output line that is long " * 5)
an output line that is long an output line that is long an output line that is long an
```

    ```python
    y = 2  # a shown line inside an admonition, long enough to pass the limit of eighty chars
    print(y, "padding that makes this hidden line longer than eighty chars")  # markdown-exec: hide
    ```

```python exec="on"
print("never shown" * 20)
```
'''
    lines = list(shown_source_lines(parse(page)))
    assert [n for n, _ in lines] == [4, 5, 10]
    assert [len(line) > LIMIT for _, line in lines] == [False, False, True]
