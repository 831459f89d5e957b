"""What the home page and the tour say in prose that their markers cannot bind (outside reads
of December 2026: index-1, index-2, tour-3, tour-4; review rtour).

- "Attend 3 back" holds from position 3 on: queries 0 to 2 have no key three back (their
  argmax is key 0), so a sentence that makes every query or position attend k back says where
  it starts.
- The sine-ambiguity figure's points, (sin x, cos x) and (sin(pi - x), cos(pi - x)), are mirror
  images across the horizontal axis, not opposite points of the circle.
- The home page's "where the encoding enters" names the paper's sqrt(d_model) factor on the
  embeddings and its dropout on the sum (Vaswani et al. 2017, sections 3.4 and 5.4).
- A page that states its reading time in its title or description states at least what the
  site's own reading-time function gives it.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from hooks import reader

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
ATTEND_PAGES = ["index.md", "tour.md", "chapters/07-why-pair-sine-with-cosine.md"]
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20}


def sentences(markdown: str) -> list[str]:
    text = re.sub(r"^#.*$", "", reader._prose(markdown), flags=re.M)     # headings are not sentences
    return [" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def unscoped_attend_back(markdown: str) -> list[str]:
    every = re.compile(r"\b(every|each) (query|position)\b[^.]*\battend", re.IGNORECASE)
    return [s for s in sentences(markdown) if every.search(s) and " from " not in s]


@pytest.mark.parametrize("src", ATTEND_PAGES)
def test_attend_back_sentences_say_where_they_start(src):
    assert not unscoped_attend_back((DOCS / src).read_text(encoding="utf-8"))


def test_attend_back_is_false_for_the_first_queries():
    """The fact behind the rule, in NumPy alone: W_Q = M_3 sends queries 0 to 2 to key 0."""
    d, n = 64, 200
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    angle = np.outer(np.arange(n), omega)
    pe = np.empty((n, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle)
    m3 = np.zeros((d, d))
    for j, w in enumerate(omega):
        c, s = np.cos(3 * w), np.sin(3 * w)
        m3[2 * j:2 * j + 2, 2 * j:2 * j + 2] = [[c, s], [-s, c]]
    best = ((pe @ m3) @ pe.T).argmax(axis=1)
    assert best[:3].tolist() == [0, 0, 0] and (best[3:] == np.arange(n - 3)).all()


def test_the_attend_back_rule_bites():
    assert unscoped_attend_back("One weight matrix makes every query attend 3 back.\n")
    assert not unscoped_attend_back("It makes every query from position 3 on attend 3 back.\n")


def sine_pair_alts(markdown: str) -> list[str]:
    alts = [re.sub(r'"\s*(?:#[^\n]*)?\n\s*"', "", m)            # join "..." "..." parts
            for m in re.findall(r'alt="(.*?)",\s*(?:#[^\n]*)?\n\s*caption=', markdown, re.S)]
    return [a for a in alts if "pi minus" in a]


@pytest.mark.parametrize("src", ["tour.md", "chapters/07-why-pair-sine-with-cosine.md"])
def test_sine_pair_alt_text_says_mirror_images(src):
    alts = sine_pair_alts((DOCS / src).read_text(encoding="utf-8"))
    assert alts and all("opposite sides" not in a and "mirror images" in a for a in alts), alts


def test_home_names_the_papers_scale_and_dropout():
    text = " ".join(sentences((DOCS / "index.md").read_text(encoding="utf-8")))
    entering = [s for s in re.split(r"(?<=[.])\s", text) if "into the first layer" in s]
    assert entering and all("sqrt" in s and "dropout" in s for s in entering), entering


def stated_minutes(markdown: str) -> list[int]:
    head = re.match(r"\A---\n(.*?)\n---\n", markdown, re.S)
    title = re.search(r"^# (.*)$", markdown, re.M)
    text = ((head.group(1) if head else "") + "\n" + (title.group(1) if title else "")).lower()
    found = re.findall(r"\b(\d+|" + "|".join(NUMBERS) + r")[- ]minutes?\b", text)
    return [int(n) if n.isdigit() else NUMBERS[n] for n in found]


@pytest.mark.parametrize("src", ["index.md", "tour.md"])
def test_a_stated_reading_time_is_the_computed_one(src):
    markdown = (DOCS / src).read_text(encoding="utf-8")
    assert all(n >= reader.page_minutes(src) for n in stated_minutes(markdown))


def test_the_reading_time_rule_bites():
    assert stated_minutes("---\ndescription: X in ten minutes.\n---\n# The ten-minute tour\n") == [10, 10]
    assert stated_minutes("# The tour\n") == []


def test_explore_page_is_for_readers():
    """explore-1/2: the Explore page opens with what it offers, not an "Answer." to no question,
    and leaves how to embed an explorer to CONTRIBUTING.md ("Interactive explorers")."""
    markdown = (DOCS / "explore.md").read_text(encoding="utf-8")
    assert "**Answer.**" not in markdown
    assert not re.findall(r"`[^`\n]*data-explorer[^`\n]*`", markdown)      # no embedding how-to
    assert 'data-explorer="clock"' in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def nav_labels() -> list[str]:
    labels, inside = [], False
    for line in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        if line.startswith("nav:"):
            inside = True
        elif inside and re.match(r"\S", line):
            break
        elif inside and (m := re.match(r"  - ([^:]+):", line)):
            labels.append(m.group(1))
    return labels


def shared_phrases(labels: list[str]) -> list[tuple]:
    def bigrams(label):
        w = re.findall(r"[a-z]+", label.lower())
        return set(zip(w, w[1:]))
    return [(a, b) for n, a in enumerate(labels) for b in labels[n + 1:] if bigrams(a) & bigrams(b)]


def test_navigation_labels_tell_apart():
    """nav-1: "Try it yourself (notebook)" beside "Run it yourself" read alike in a phone's
    drawer; no two top-level labels share a two-word phrase."""
    labels = nav_labels()
    assert "Run it yourself" in labels and not shared_phrases(labels), shared_phrases(labels)
    assert shared_phrases(["Try it yourself (notebook)", "Run it yourself"])


def notation_pointers() -> list[tuple[str, str]]:
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    return re.findall(r"^\\\((.*?)\\\)[^\n]*\n:[^\n]*?See \[[^\]]*\]\(([^)#]*)", text, re.M)


def test_notation_points_to_a_page_that_uses_the_symbol():
    """Review rtour: d_model pointed to chapter 1 and omega_i to chapter 6, neither of which
    writes the symbol; each entry's "See" page must write it."""
    pointers = notation_pointers()
    assert len(pointers) >= 8
    missing = [(sym, page) for sym, page in pointers
               if sym not in (DOCS / page).read_text(encoding="utf-8")]
    assert not missing, missing
