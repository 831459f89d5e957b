"""Prose mutation check: change what the prose claims, and see whether the page's tests fail.

Usage: python scripts/prose_mutants.py [--numbers 40] [--words 15] [--seed 1]
Works in a temporary copy of the project. Each mutant changes one thing in one page:
- a *number*: the last digit of a real quantity in the prose (a number the scan does not ignore:
  not a year, a chapter number or a single digit) becomes the next digit (9 becomes 8);
- a *word*: a claim word in a sentence the claim-word lint sees is flipped (more -> less,
  faster -> slower, never -> always, only -> also, every -> some, cannot -> can, ...).
It then runs that page's tests: the prose-number scan and the claim-word lint of the page, and
the page's own doc tests (blocks and claim markers). A mutant is killed when any of them fails.
The report says, for each kill, which test failed and, for numbers, whether the original was
bound to a check (checked, restated, input) or only listed in tests/pending/numbers.txt.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.claim_words import WORD, canonical, lint  # noqa: E402
from tests.prose_numbers import NUMBER, _strip, scan  # noqa: E402

FLIPS = {"more": "less", "less": "more", "faster": "slower", "slower": "faster",
         "above": "below", "below": "above", "always": "never", "never": "always",
         "only": "also", "every": "some", "cannot": "can", "no single": "a single",
         "exactly": "roughly", "guaranteed": "likely", "unique": "shared", "better": "worse",
         "worse": "better", "higher": "lower", "lower": "higher", "increases": "decreases",
         "decreases": "increases"}


def number_mutants(pages, rng, count):
    candidates = []
    for page in pages:
        lines = page.read_text().splitlines()
        for n in scan(page).numbers:
            if n.verdict in ("ignored", "exempt") or n.where != "prose":
                continue
            candidates.append((page, n))
    out = []
    for page, n in rng.sample(candidates, min(count, len(candidates))):
        lines = page.read_text().splitlines()
        raw = lines[n.line - 1]
        # the number as written in the raw line (the scan strips markup, offsets differ)
        spots = [m for m in re.finditer(re.escape(n.text), raw)
                 if not raw[:m.start()].endswith(tuple("0123456789.,")) and
                 not raw[m.end():m.end() + 1].isdigit()]
        if not spots:
            continue
        m = spots[0]
        digits = [k for k, ch in enumerate(n.text) if ch.isdigit()]
        # last digit of the mantissa (not of an exponent)
        mant = re.match(r"[\d,.]+", n.text).group(0)
        last = max(k for k in digits if k < len(mant))
        d = int(n.text[last])
        new_digit = str(d + 1) if d < 9 else "8"
        new = n.text[:last] + new_digit + n.text[last + 1:]
        lines[n.line - 1] = raw[:m.start()] + new + raw[m.end():]
        out.append(dict(kind="number", page=page, line=n.line, old=n.text, new=new,
                        verdict=n.verdict, text="\n".join(lines) + "\n"))
    return out


def word_mutants(pages, rng, count):
    candidates = []
    for page in pages:
        for s in lint(page):
            for w in s.words:
                candidates.append((page, s, w))
    rng.shuffle(candidates)
    out, used = [], set()
    for page, s, w in candidates:
        if len(out) == count:
            break
        lines = page.read_text().splitlines()
        for lineno in range(s.line, min(s.line + 6, len(lines) + 1)):
            raw = lines[lineno - 1]
            hit = next((m for m in WORD.finditer(raw) if canonical(m.group(0)) == w), None)
            if hit and (page, lineno, w) not in used:
                used.add((page, lineno, w))
                old = hit.group(0)
                new = FLIPS[w]
                if old[0].isupper():
                    new = new[0].upper() + new[1:]
                lines[lineno - 1] = raw[:hit.start()] + new + raw[hit.end():]
                out.append(dict(kind="word", page=page, line=lineno, old=old, new=new,
                                verdict=s.verdict, text="\n".join(lines) + "\n"))
                break
    return out


def run_page(dest: Path, rel: str):
    """Fast tests first (scan, lint), then the page's doc tests; return the first failure."""
    env = {"PYTHONPATH": str(dest), "MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"}
    page_id = rel.removeprefix("docs/")
    steps = [[sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
              f"tests/test_prose_numbers.py::test_prose_numbers_are_checked[{page_id}]",
              f"tests/test_claim_words.py::test_claim_words_are_checked[{page_id}]"],
             [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", rel]]
    for cmd in steps:
        run = subprocess.run(cmd, cwd=dest, env=env, capture_output=True, text=True, timeout=600)
        if run.returncode == 1:
            caught = re.search(r"FAILED (\S+)", run.stdout)
            return caught.group(1) if caught else "failed"
        if run.returncode != 0:
            raise RuntimeError(run.stdout[-2000:] + run.stderr[-2000:])
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numbers", type=int, default=40)
    parser.add_argument("--words", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pages = sorted((ROOT / "docs").rglob("*.md"))
    mutants = number_mutants(pages, rng, args.numbers) + word_mutants(pages, rng, args.words)
    killed = 0
    with tempfile.TemporaryDirectory(prefix="posenc-prose-") as tmp:
        dest = Path(tmp)
        for name in ("posenc", "docs", "hooks", "tests"):
            shutil.copytree(ROOT / name, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for name in ("conftest.py", "pyproject.toml"):
            shutil.copy(ROOT / name, dest / name)
        for mutant in mutants:
            rel = str(mutant["page"].relative_to(ROOT))
            original = (dest / rel).read_text()
            (dest / rel).write_text(mutant["text"])
            try:
                caught = run_page(dest, rel)
            finally:
                (dest / rel).write_text(original)
            killed += bool(caught)
            print(f"{'killed  ' if caught else 'SURVIVED'} {mutant['kind']:6} {rel}:{mutant['line']} "
                  f"{mutant['old']!r} -> {mutant['new']!r} (was {mutant['verdict']})"
                  f"{'  by ' + caught if caught else ''}", flush=True)
    print(f"{killed}/{len(mutants)} prose mutants killed")
    return 0 if killed == len(mutants) else 1


if __name__ == "__main__":
    sys.exit(main())
