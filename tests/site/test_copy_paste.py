"""What the copy button of a ">>>" block copies (docs/assets/copy.js) pastes at Python's
interactive prompt, as docs/run-it-yourself.md tells the reader to do ("Copy any block with its
copy button and paste it at the prompt"). The prompt reads a paste line by line and ends a
``for`` or ``def`` only at an empty line, so a copy that compiles as a file can still fail there
(tests/site/browser/test_reading.py compiles the copies as files). Runs copy.js itself in Node (Playwright's
own, or the system's), without a browser or a site build."""

import codeop
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^( *)```(?:pycon|python)[ \t]*\n(.*?)^\1```", re.M | re.S)
PLAIN = re.compile(r"^( *)```python[ \t]*\n(.*?)^\1```", re.M | re.S)   # no exec="on"
RUN_COPY_JS = """
globalThis.window = {};
globalThis.document = {addEventListener() {}};
require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map(window.posencCopy.runnable)));
});
"""


def _node() -> str:
    try:
        from playwright._impl._driver import compute_driver_executable
        node = str(compute_driver_executable()[0])
        if Path(node).is_file():
            return node
    except (ImportError, AttributeError, IndexError, TypeError):
        pass
    return shutil.which("node") or pytest.skip("no Node to run docs/assets/copy.js")


def _shown_blocks() -> list:
    """(page, text) of every fenced ">>>" block of docs/, dedented as the page shows it."""
    return [(page, text) for page, text in _fenced(FENCE) if text.startswith(">>> ")]


def _fenced(fence) -> list:
    """(page, text) of every block ``fence`` matches in docs/, dedented as the page shows it."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for m in fence.finditer(page.read_text(encoding="utf-8")):
            indent = m.group(1)
            text = "\n".join(line[len(indent):] if line.startswith(indent) else line
                             for line in m.group(2).split("\n"))
            found.append((page.relative_to(ROOT).as_posix(), text))
    return found


def copied(texts: list) -> list:
    """What copy.js's ``runnable`` makes of each shown text."""
    out = subprocess.run([_node(), "-e", RUN_COPY_JS, str(ROOT / "docs/assets/copy.js")],
                         input=json.dumps(texts), capture_output=True, text=True, check=True,
                         timeout=60)
    return json.loads(out.stdout)


def first_prompt_error(code: str):
    """Feed ``code`` to Python's interactive compiler one line at a time, as the prompt reads a
    paste (nothing is run); the first SyntaxError as text, or None."""
    pending = []
    for n, line in enumerate(code.split("\n"), 1):
        pending.append(line)
        try:
            done = codeop.compile_command("\n".join(pending), "<stdin>", "single")
        except SyntaxError as error:
            return f"line {n}: {error.msg}: {line!r}"
        if done is not None:
            pending = []
    return f"unfinished at the end: {pending[0]!r}" if any(pending) else None


def test_prompt_reader_needs_an_empty_line_after_a_loop():
    assert first_prompt_error("for k in range(2):\n    x = k\nx\n") is not None
    assert first_prompt_error("for k in range(2):\n    x = k\n\nx\n") is None
    assert first_prompt_error("for k in range(2):\n    x = k") is not None   # still waiting


def test_every_plain_python_block_pastes_at_the_prompt():
    """A block without prompts is copied as it stands (copy.js leaves it alone)."""
    failures = []
    for page, text in _fenced(PLAIN):
        if not text.startswith(">>> ") and first_prompt_error(text):
            failures.append((page, first_prompt_error(text)))
    assert not failures, failures


def test_every_copied_block_pastes_at_the_prompt():
    blocks = _shown_blocks()
    assert len(blocks) > 50, len(blocks)
    copies = copied([text for _, text in blocks])
    failures = [(page, first_prompt_error(code), code.splitlines()[0])
                for (page, _), code in zip(blocks, copies) if first_prompt_error(code)]
    assert not failures, "\n".join(map(str, failures[:10]))
    for code in copies:                      # and it still runs as a file
        compile(code, "<copy>", "exec")
