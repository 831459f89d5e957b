"""Which words carry a claim: the claim-word lists (more/less, always/never, the bound words, the
capped direction, same, order, negation, both and time classes), their inflections, and how the
words of a sentence and of a check's comments and names are read. harness.words binds them to
checks.

>>> claim_words("The error grows; the first row is the same.")
['first', 'grows', 'same']
>>> claim_words("It isn't periodic, and no row repeats without a shift.")
['no', 'not', 'without']
>>> claim_words("Both columns turn before the later one.")
['before', 'both', 'later']
>>> canonical("Shrank")
'shrinks'
"""

from __future__ import annotations

import re

from harness.not_yet import (BOTH_NOT_YET, DIRECTION_NOT_YET, NEGATION_NOT_YET, ORDER_NOT_YET,
                             SAME_NOT_YET, TIME_NOT_YET)
from harness.text import code_only

# Comparatives added with issue 20; each page binds them as it is reviewed (CONTRIBUTING.md).
EXTRA_WORDS: tuple = ("larger", "smaller", "fewer", "greater")
# Bound words (issue 38): a sample of word flips found "at most" and "at least" swapped on eight
# sentences with every test still passing. Each is a claim word like more/less.
BOUND_WORDS: tuple = ("at most", "at least", "no more than", "no less than", "within")
# Pages whose bound-word sentences are not all bound yet (2026-12-07: 114 sentences on 20
# pages). On these a sentence missing only a bound word is "transition", not "flagged";
# tests/harness/test_claim_words.py fails when a listed page has none left, so the list only shrinks.
BOUND_NOT_YET: frozenset = frozenset()      # empty since 2026-12-07: every page is bound
# Direction words (issue 38, session 11): reviewers flipped fast/slow, rises/falls, grows/shrinks,
# longer/shorter and found 19 false flips passing every check on two pages. Each is a claim word.
# Pages still binding them are capped in harness/not_yet.py (DIRECTION_NOT_YET).
DIRECTION_WORDS: tuple = ("rises", "falls", "grows", "shrinks", "fastest", "slowest", "longer",
                          "shorter")
# Sameness and order words (issue 38, session 13): reviewers' flips of same/different and
# first/last passed every test on most sentences they tried (session 12: 313 of 359 non-claim
# flips survived). Each is a claim word; pages still binding them are capped in harness/not_yet.py.
SAME_WORDS: tuple = ("same", "different")
ORDER_WORDS: tuple = ("first", "last")
# Negation words (issue 38, session 14): reviewers' flips of not/no/neither/without passed every
# test on most sentences they tried (session 13: 263 of 357 such flips survived). "no more than",
# "no less than" and "no single" stay words of their own (the longest match wins); "cannot" and
# "never" were claim words already. Contractions ("isn't") are forms of "not".
NEGATION_WORDS: tuple = ("not", "no", "neither", "without")
# Both/either and before/after/earlier/later (issue 38, session 14): the last of the reviewers'
# flip lists (one/both, before/after, earlier/later) outside the claim words.
BOTH_WORDS: tuple = ("both", "either")
TIME_WORDS: tuple = ("before", "after", "earlier", "later")
# Each capped class: its words and its caps (harness.not_yet).
CLASSES: dict = {"direction": (DIRECTION_WORDS, DIRECTION_NOT_YET),
                 "same": (SAME_WORDS, SAME_NOT_YET),
                 "order": (ORDER_WORDS, ORDER_NOT_YET),
                 "negation": (NEGATION_WORDS, NEGATION_NOT_YET),
                 "both": (BOTH_WORDS, BOTH_NOT_YET),
                 "time": (TIME_WORDS, TIME_NOT_YET)}


def bound_only(missing: list) -> bool:
    return bool(missing) and all(str(m).startswith(BOUND_WORDS) for m in missing)
WORDS = ("more", "less", "faster", "slower", "above", "below", "always", "never", "only",
         "every", "cannot", "no single", "exactly", "guaranteed", "unique", "better", "worse",
         "higher", "lower", "increases", "decreases") + EXTRA_WORDS + BOUND_WORDS
WORDS += DIRECTION_WORDS + SAME_WORDS + ORDER_WORDS + NEGATION_WORDS + BOTH_WORDS + TIME_WORDS
# Inflections that carry the same claim; each is matched as the word it belongs to.
FORMS = {"increase": "increases", "increased": "increases", "increasing": "increases",
         "decrease": "decreases", "decreased": "decreases", "decreasing": "decreases",
         "uniquely": "unique", "can't": "cannot",
         "rise": "rises", "rose": "rises", "rising": "rises", "risen": "rises",
         "fall": "falls", "fell": "falls", "falling": "falls",
         "grow": "grows", "grew": "grows", "growing": "grows", "grown": "grows",
         "shrink": "shrinks", "shrank": "shrinks", "shrinking": "shrinks", "shrunk": "shrinks",
         **{f"{v}n't": "not" for v in ("is", "are", "was", "were", "does", "do", "did", "has",
                                        "have", "had", "would", "could", "should", "need")},
         "won't": "not", "nor": "neither"}
WORD = re.compile(r"(?<![\w-])(" + "|".join(
    sorted([w.replace(" ", r"\s+") for w in WORDS] + list(FORMS), key=len, reverse=True))
    + r")(?![\w-])", re.IGNORECASE)
# The words before session 13's classes: the scope rule (harness.scope) still reads a family
# sentence as a claim by these alone, so binding the later classes' sentences cannot move its
# verdicts.
_LATER = SAME_WORDS + ORDER_WORDS + NEGATION_WORDS + BOTH_WORDS + TIME_WORDS
SCOPE_WORD = re.compile(r"(?<![\w-])(" + "|".join(
    sorted([w.replace(" ", r"\s+") for w in WORDS if w not in _LATER]
           + [f for f, w in FORMS.items() if w not in _LATER], key=len, reverse=True))
    + r")(?![\w-])", re.IGNORECASE)

def canonical(word: str) -> str:
    word = " ".join(word.lower().split())
    return FORMS.get(word, word)


# Library arguments whose names contain a claim word and say nothing (torch's batch_first and
# norm_first): a check that passes one states no "first".
ARGUMENT_NAMES = re.compile(r"\b(?:batch|norm)_first\b")


def names(text: str, word: str) -> bool:
    """Does the check's text name the word (as a word of a comment, or a part of a name)?"""
    tokens = re.split(r"[^a-z']+", ARGUMENT_NAMES.sub(" ", text.lower()))
    if " " in word:                      # a phrase: said in a comment, or a name at_most_...
        return (f" {word} " in f" {' '.join(tokens)} "
                or "_".join(word.split()) in text.lower())
    forms = {word} | {f for f, w in FORMS.items() if w == word}
    return any(t in forms for t in tokens)


# "above"/"below" claim a comparison only when a value follows ("above 2", "below the peak",
# "below \(2\pi\)"); otherwise they point at the page ("the table above", "printed below.").
_TARGET = re.compile(r"\s*(?:\d|\\\(|[-−]\s*\d|(?:zero|one|two|half|the|its|a|an|that|any|every|all|"
                     r"their|it|this|some|rounding|machine)\b)", re.IGNORECASE)


def claim_words(text: str) -> list:
    """The canonical claim words of a sentence (math kept for the above/below rule)."""
    words = set()
    for m in WORD.finditer(text):
        word = canonical(m.group(0))
        if word in ("above", "below") and not _TARGET.match(text[m.end():]):
            continue
        if word == "first" and re.search(r"predict\W{0,3}$", text[:m.start()], re.IGNORECASE):
            continue                     # "(predict first)": an exercise's instruction
        words.add(word)
    return sorted(words)




def comment_words(check) -> set:
    """Claim words a check states, in its comments (``# faster``) or as a part of a name
    (``never_equal``): each must be said next to it, so flipping the prose's word to one the
    check does not state (never -> always, only -> also) fails."""
    comments = " ".join(line.partition("#")[2] for line in check.text.splitlines())
    stated = {canonical(m.group(0)) for m in WORD.finditer(comments)}
    code = code_only(" ".join(line.partition("#")[0] for line in check.text.splitlines()))
    for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?!\w|\s*\()", ARGUMENT_NAMES.sub(" ", code)):
        parts = name.lower().split("_")                                   # not calls
        if len(parts) > 1:
            stated |= {canonical(p) for p in parts if canonical(p) in WORDS}
    return stated


# A bound's direction ("at least 0.001 apart", "at most half a unit"): not a claim word on its
# own (a sentence may say it without a check), but a check that states one in a comment
# (``# at least 0.001``) binds it: each check stating it needs a sentence of its paragraph
# saying it, so flipping the prose's direction (at least -> at most) fails.
DIRECTION = re.compile(r"(?<![\w-])(at\s+least|at\s+most|no\s+more\s+than|no\s+less\s+than)\s+"
                       r"(\d[\d.,]*|one|two|three|four|half|a|an)(?![\w-])", re.IGNORECASE)


def directions(text: str) -> list:
    """The direction phrases of a text, each with the word after it: ``at least 0.001``."""
    return [" ".join(m.group(1).lower().split()) + " " + m.group(2).lower().rstrip(".,")
            for m in DIRECTION.finditer(text)]


def stated_directions(check) -> list:
    comments = " ".join(line.partition("#")[2] for line in check.text.splitlines())
    return directions(comments)


def class_of(missing: list) -> set:
    """The capped classes a flagged sentence's missing words belong to; empty when one of them
    belongs to none (such a sentence is flagged whatever the caps)."""
    out = set()
    for m in missing:
        word = str(m).split(" (")[0]
        hit = [c for c, (ws, _) in CLASSES.items() if word in ws]
        if not hit:
            return set()
        out.add(hit[0])
    return out
