"""Prose mutation check: change what the prose claims, and see whether the page's tests fail.

Usage: python scripts/prose_mutants.py [--numbers 60] [--words 30] [--seed N] [--no-doctests]
Draws a fresh random sample on every run (the seed is printed; ``--seed`` repeats a run) from
every page of docs/: chapters, their Answer and Summary, exercises and solutions, figure
captions, errata, the sources ledger and the home page. Each mutant changes one thing in one
page:
- a *number*: the last digit of a quantity in the prose (one the number rule does not ignore:
  not a year, a chapter number or a single digit) becomes the next digit (9 becomes 8);
- a *word*: a claim word in a sentence (exempt sentences included) is flipped to its opposite
  (more -> less, larger -> smaller, never -> always, only -> also, every -> some, ...).
It then judges the mutated page as ``pytest PAGE`` does: first the page's rules (harness.rules,
in this process: fast), then, if they pass, the page's doc tests in a copy of the project. A
mutant is killed when either fails. Survivors are printed with their sentence; a flip that
changes no claim is set aside: a flip in a sentence carrying a no-claim marker (whose reason a
reviewer accepted) is listed with its reason and left out of the share; any other (a quoted
word) is for a person to set aside. Exits 1 when the share killed is below --min-numbers
(0.95) or --min-words (0.90); CI runs a smaller sample with lower floors.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness import numbers, rules, words  # noqa: E402
from harness.page import parse  # noqa: E402

FLIPS = {"more": "less", "less": "more", "faster": "slower", "slower": "faster",
         "above": "below", "below": "above", "always": "never", "never": "always",
         "only": "also", "every": "some", "cannot": "can", "no single": "a single",
         "exactly": "roughly", "guaranteed": "likely", "unique": "shared", "better": "worse",
         "worse": "better", "higher": "lower", "lower": "higher", "increases": "decreases",
         "decreases": "increases", "larger": "smaller", "smaller": "larger",
         "largest": "smallest", "smallest": "largest", "most": "least", "least": "most",
         "greater": "smaller", "fewer": "more", "longer": "shorter", "shorter": "longer",
         "earlier": "later", "later": "earlier", "slowest": "fastest", "fastest": "slowest",
         "rises": "falls", "falls": "rises", "grows": "shrinks", "shrinks": "grows",
         "highest": "lowest", "lowest": "highest", "best": "worst", "worst": "best",
         "all": "some", "none": "some", "first": "last", "last": "first", "same": "different",
         "different": "same", "before": "after", "after": "before",
         # negation (issue 38, session 14): the word goes, or turns into its opposite
         "not": "", "no": "some", "neither": "either", "nor": "or", "without": "with",
         "both": "either", "either": "both",
         **{f"{v}n't": v for v in ("is", "are", "was", "were", "does", "do", "did", "has", "have",
                                   "had", "would", "could", "should", "need")}, "won't": "will",
         # bound words (issue 38)
         "at most": "at least", "at least": "at most", "no more than": "no less than",
         "no less than": "no more than", "within": "outside"}


def _flip(word: str, old: str) -> str:
    new = FLIPS.get(old.lower(), FLIPS.get(word.lower(), FLIPS.get(words.canonical(word), "?")))
    if old[0].isupper() and new:
        new = new[0].upper() + new[1:]
    return new


def number_mutants(pages, rng, count):
    candidates = []
    for page in pages:
        for n in numbers.scan(page).numbers:
            if n.verdict not in ("ignored",):
                candidates.append((page, n))
    out = []
    rng.shuffle(candidates)
    for page, n in candidates:
        if len(out) == count:
            break
        lines = page.read_text().splitlines()
        raw = lines[n.line - 1]
        spots = [m for m in re.finditer(re.escape(n.text), raw)
                 if not raw[:m.start()].endswith(tuple("0123456789.,")) and
                 not raw[m.end():m.end() + 1].isdigit()]
        if not spots:
            continue
        m = spots[0]
        mant = re.match(r"[-−]?[\d,.]+", n.text).group(0)
        last = max(k for k, ch in enumerate(n.text) if ch.isdigit() and k < len(mant))
        d = int(n.text[last])
        new = n.text[:last] + (str(d + 1) if d < 9 else "8") + n.text[last + 1:]
        lines[n.line - 1] = raw[:m.start()] + new + raw[m.end():]
        out.append(dict(kind="number", page=page, line=n.line, old=n.text, new=new,
                        orig=page.read_text(),
                        verdict=n.verdict, sentence=raw.strip(), text="\n".join(lines) + "\n"))
    return out


def word_mutants(pages, rng, count):
    candidates = []
    for page in pages:
        for s in words.lint(page):
            if s.text.startswith("the check at line") or re.match(r"\d+ checks next to", s.text):
                continue                 # a message about a check, not a sentence
            if s.verdict == "transition":
                continue                 # counted in harness/not_yet.py as not yet bound
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
            hit = next((m for m in words.WORD.finditer(raw)
                        if words.canonical(m.group(0)) == w), None)
            if hit and (page, lineno, w) not in used:
                used.add((page, lineno, w))
                old = hit.group(0)
                new = _flip(w, old)
                lines[lineno - 1] = raw[:hit.start()] + new + raw[hit.end():]
                out.append(dict(kind="word", page=page, line=lineno, old=old, new=new,
                                orig=page.read_text(),
                                verdict=s.verdict, reason=s.reason, sentence=s.text,
                                text="\n".join(lines) + "\n"))
                break
    return out


_BASELINE: dict = {}


def static_verdict(mutant) -> str:
    """The page rules of the mutated page, in this process: the first failure the unmutated page
    does not have, or ''."""
    rel = str(mutant["page"].relative_to(ROOT))
    if rel not in _BASELINE:
        _BASELINE[rel] = set(rules.failures(parse(mutant["orig"], rel)))
    found = [f for f in rules.failures(parse(mutant["text"], rel)) if f not in _BASELINE[rel]]
    return found[0] if found else ""


def run_doc_tests(dest: Path, rel: str) -> str:
    env = {"PYTHONPATH": str(dest), "MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                          rel], cwd=dest, env=env, capture_output=True, text=True, timeout=600)
    if run.returncode == 1:
        caught = re.search(r"FAILED (\S+)", run.stdout)
        return "doc tests: " + (caught.group(1) if caught else "failed")
    if run.returncode != 0:
        raise RuntimeError(run.stdout[-2000:] + run.stderr[-2000:])
    return ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numbers", type=int, default=60)
    parser.add_argument("--words", type=int, default=30)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--min-numbers", type=float, default=0.95,
                        help="exit 1 when fewer number mutants than this share are killed")
    parser.add_argument("--min-words", type=float, default=0.90,
                        help="exit 1 when fewer word mutants than this share are killed")
    parser.add_argument("--no-doctests", action="store_true",
                        help="judge by the page rules only (a survivor may still be caught by "
                             "the page's doc tests)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 6)
    print(f"seed {seed}", flush=True)
    rng = random.Random(seed)
    pages = sorted((ROOT / "docs").rglob("*.md"))
    mutants = number_mutants(pages, rng, args.numbers) + word_mutants(pages, rng, args.words)
    start = time.perf_counter()
    tally = {"number": [0, 0], "word": [0, 0]}
    survivors, set_aside = [], []
    with tempfile.TemporaryDirectory(prefix="posenc-prose-") as tmp:
        dest = Path(tmp)
        if not args.no_doctests:
            for name in ("posenc", "docs", "hooks", "tests", "harness"):
                shutil.copytree(ROOT / name, dest / name,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            for name in ("conftest.py", "pyproject.toml"):
                shutil.copy(ROOT / name, dest / name)
        for mutant in mutants:
            rel = str(mutant["page"].relative_to(ROOT))
            caught = static_verdict(mutant)
            if caught:
                caught = "page rules: " + caught.split(": ", 1)[1][:90]
            elif not args.no_doctests:
                original = (dest / rel).read_text()
                (dest / rel).write_text(mutant["text"])
                try:
                    caught = run_doc_tests(dest, rel)
                finally:
                    (dest / rel).write_text(original)
            # a no-claim sentence, or a bound word on a page still on harness.words.BOUND_NOT_YET
            aside = (mutant["kind"] == "word" and mutant["verdict"] in ("exempt", "transition")
                     and not caught)
            if aside:
                set_aside.append(mutant)
            else:
                tally[mutant["kind"]][0] += bool(caught)
                tally[mutant["kind"]][1] += 1
            line = (f"{'killed  ' if caught else 'SURVIVED'} {mutant['kind']:6} {rel}:"
                    f"{mutant['line']} {mutant['old']!r} -> {mutant['new']!r} "
                    f"(was {mutant['verdict']})")
            if aside:
                line = line.replace("SURVIVED", "set aside")
            print(line + (f"  by {caught}" if caught else ""), flush=True)
            if not caught and not aside:
                survivors.append((line, mutant))
    print(f"\n{len(survivors)} survivors:")
    for line, mutant in survivors:
        print(f"  {line}\n      {mutant['sentence'][:300]}"
              + (f"\n      no-claim: {mutant['reason']}" if mutant.get("reason") else ""))
    if set_aside:
        print(f"\n{len(set_aside)} word flips set aside: the sentence carries a no-claim marker "
              "(its word claims nothing, the marker's reason says why), or is within its page's "
              "cap of sentences not yet bound (harness/not_yet.py); they are not in the share "
              "below:")
        for mutant in set_aside:
            why = (f"no-claim: {mutant['reason']}" if mutant["verdict"] == "exempt"
                   else "within its page's cap (harness/not_yet.py)")
            print(f"  {mutant['page'].relative_to(ROOT)}:{mutant['line']} {mutant['old']!r} -> "
                  f"{mutant['new']!r}  {why}")
    for kind, (killed, total) in tally.items():
        share = f"{100 * killed / total:.0f}%" if total else "-"
        print(f"{kind}s: {killed}/{total} killed ({share})")
    print(f"{time.perf_counter() - start:.0f} s")
    low = [kind for kind, floor in (("number", args.min_numbers), ("word", args.min_words))
           if tally[kind][1] and tally[kind][0] < floor * tally[kind][1]]
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
