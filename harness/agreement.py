"""Agreement, not presence (issue 20): a number bound by a check must also be told apart by it.
A check that shows the neighbouring value too leaves the number ambiguous (``neighbours``); a
restatement in the answer or the summary is compared with what it restates (``restatements``);
two equal numbers on one line need as many outputs (``twins``)."""

from __future__ import annotations

import math
import re

from typing import TYPE_CHECKING

from harness.page import Page
from harness.values import REL_TOL, blocks_of, matches

if TYPE_CHECKING:
    from harness.numbers import PageReport

def neighbours(report: PageReport) -> None:
    """Agreement, not presence: a number is bound only if its check tells it from the values
    one unit away in its last written digit. "positions 0 to 1023" next to a block that
    prints both 1023 and 1024 would pass as "0 to 1024" too: the number is *ambiguous* unless
    that neighbouring value is itself written in the same paragraph (then the twin rule and
    this one keep the two apart)."""
    by_paragraph: dict = {}
    for n in report.numbers:
        if n.verdict in ("checked", "input", "restated"):
            by_paragraph.setdefault(n.paragraph, []).append(n)
    for group in by_paragraph.values():
        for n in group:
            for v in n.neighbours:
                if not any(o is not n and math.isclose(o.value, v, rel_tol=REL_TOL, abs_tol=1e-300)
                           for o in group):
                    n.verdict, n.why = "unchecked", "neighbour"
                    n.neighbour = v
                    break




def summary_sections(page: Page) -> set:
    """The answer (the text under the page's title) and the sections titled Summary."""
    return page.answer_sections | page.summary_sections


def restatements(page: Page, report: PageReport, inputs: dict) -> None:
    """A number in the answer or the summary that repeats, at the same precision, a number
    bound in the prose of another section of the page is *restated*; so is one of four or more
    significant digits written exactly as an output of another section prints it. A restated
    number is compared with what it restates: "513" in the answer does not restate 512, and
    matching any value printed anywhere on the page is not enough."""
    summaries = summary_sections(page)
    bound = [(n.value, n.half, n.section) for n in report.numbers
             if n.verdict == "checked" or (n.verdict == "input" and n.section not in summaries)]
    outputs = [(out, block.section) for block in blocks_of(page) for out in block.outputs]
    def restates(value, n):
        return any(math.isclose(value, v, rel_tol=REL_TOL, abs_tol=0) and half == n.half
                   and section != n.section for v, half, section in bound)

    for n in report.numbers:
        if n.verdict == "unchecked" and n.section in summaries and restates(n.value, n):
            n.verdict = "restated"
            # "0 to 99" restates 99; if 98 is also said elsewhere, "0 to 98" would pass too
            n.neighbours = [v for v in (n.value - 2 * n.half, n.value + 2 * n.half)
                            if n.half and v * n.value > 0 and restates(v, n)]
        elif (n.verdict == "unchecked" and n.section in summaries
              and significant_digits(n.text) >= 4
              and any(section != n.section
                      and out.text.lstrip("+-") == n.text.replace(",", "").lstrip("-−")
                      for out, section in outputs)):
            n.verdict = "restated"       # 0.9894 printed as 0.9894: four digits, no coincidence




def twins(report: PageReport, by_section: dict, page: Page, inputs: dict) -> None:
    """Agreement, not presence: two equal numbers written on one line (outside math) that are
    checked by outputs need as many outputs showing the value. "neighbours 78 and 79" with one
    79 printed cannot become "79 and 79". A value the section's code binds to a name may be said
    twice."""
    groups: dict = {}
    for n in report.numbers:
        if n.verdict != "checked":
            continue
        groups.setdefault((n.line, n.where, n.text), []).append(n)
    for (line, _, text), found in groups.items():
        if len(found) < 2 or found[0].where != "prose":
            continue
        raw = re.sub(r"\\\(.*?\\\)", " ", page.lines[found[0].line - 1])   # math: 64 x 64
        if len(re.findall(r"(?<![\w.,])" + re.escape(text) + r"(?![\w]|[.,]\d)", raw)) < 2:
            continue
        probe = found[0]
        value, half = probe.value, probe.half
        if any(math.isclose(value, v, rel_tol=REL_TOL) for v in inputs.get(probe.section, [])):
            continue                     # a value the code names: saying it twice is no guess
        outs = [o for b in by_section.get(probe.section, []) for o in b.outputs
                if matches(probe.value, half, o)]
        if len(outs) < len(found):
            for n in found:
                n.verdict = "unchecked"
                n.why = "twin"


def significant_digits(text: str) -> int:
    mantissa = re.split(r"[eE^%]|\*\*", text.replace(",", ""))[0]
    return len(mantissa.replace(".", "").lstrip("0-+"))
