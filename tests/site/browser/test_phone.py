"""Chapters read on a 390 px phone: the share of code on the main line, the gap to the first
figure, closed folds per screen."""

from __future__ import annotations

import pytest

from browsing import Watched


# ------------------------------------------------------------------------- reading on a phone

# A chapter's main line is what a reader sees with every folded box ("Check: ...", "Code for
# this figure") closed. On a 390 px phone, at most this share of its height may be code.
CODE_SHARE_MAX = 0.15
# From a section heading to the first figure or explorer under it, at most this many pixels on a
# 390 px phone, for the chapter's first figure (its key picture follows the section's opening).
FIRST_FIGURE_GAP_MAX = 700

PHONE_LAYOUT = """() => {
    const art = document.querySelector('.md-content__inner');
    art.querySelectorAll('details').forEach(d => d.open = false);
    const folded = e => !!e.closest('details:not([open])');
    const height = art.getBoundingClientRect().height;
    let code = 0;
    for (const b of art.querySelectorAll('div.highlight, .language-pycon')) {
        if (b.parentElement.closest('div.highlight, .language-pycon') || folded(b)) continue;
        code += b.getBoundingClientRect().height;
    }
    const wide = [];
    const page = document.documentElement.scrollWidth - window.innerWidth;
    if (page > 0) wide.push('the page, by ' + page + ' px');
    for (const e of art.querySelectorAll('.md-typeset__scrollwrap, table, .posenc-figure, .posenc-explorer, pre, .posenc-math')) {
        if (folded(e) || e.closest('.md-sidebar')) continue;
        if (e.scrollWidth > e.clientWidth + 1)
            wide.push(e.tagName.toLowerCase() + ' by ' + (e.scrollWidth - e.clientWidth) + ' px: ' + e.textContent.trim().slice(0, 40));
    }
    let gap = null, heading = null;
    for (const h of art.querySelectorAll('h2')) {
        for (let n = h.nextElementSibling; n && n.tagName !== 'H2'; n = n.nextElementSibling) {
            if (folded(n)) continue;
            if (n.matches('.posenc-figure, figure, .posenc-explorer') || n.querySelector('.posenc-figure, .posenc-explorer')) {
                gap = Math.round(n.getBoundingClientRect().top - h.getBoundingClientRect().bottom);
                heading = h.textContent.replace('¶', '').trim();
                break;
            }
        }
        if (gap !== null) break;
    }
    return {height: Math.round(height), code: Math.round(code), wide, gap, heading};
}"""


@pytest.fixture(scope="module")
def phone_chapters(browser, base_url, site_dir) -> dict:
    """{chapter folder: (PHONE_LAYOUT, FOLD_TOPS)}: each chapter loaded once on a 390 x 844 px
    phone for the two tests that read it (a page load is most of their time); both scripts
    close every fold first, so their order does not matter."""
    chapters = sorted(p.parent.name for p in site_dir.glob("chapters/*/index.html"))
    assert len(chapters) >= 15, chapters
    w = Watched(browser.new_context(viewport={"width": 390, "height": 844}))
    found = {}
    for chapter in chapters:
        w.page.goto(f"{base_url}chapters/{chapter}/", wait_until="load")
        found[chapter] = (w.page.evaluate(PHONE_LAYOUT), w.page.evaluate(FOLD_TOPS))
    w.close()
    w.check()
    return found


def test_chapters_read_on_a_phone(phone_chapters):
    """On a 390 px phone, every chapter's main line (folded boxes closed) is at most 15% code,
    nothing in it scrolls sideways (tables, figures, explorers, code, formulas), and its first
    figure comes within FIRST_FIGURE_GAP_MAX pixels of its section's heading. Prints each
    chapter's figures."""
    problems = []
    for name, (r, _) in phone_chapters.items():
        chapter = f"chapters/{name}/"
        share = r["code"] / r["height"]
        print(f"{chapter}: code {share:.1%} of {r['height']} px; first figure "
              f"{r['gap']} px below '{r['heading']}'; sideways: {r['wide'] or 'none'}")
        if share > CODE_SHARE_MAX:
            problems.append(f"{chapter}: code is {share:.1%} of the main line (> {CODE_SHARE_MAX:.0%})")
        problems += [f"{chapter}: scrolls sideways: {what}" for what in r["wide"]]
        if r["gap"] is None or r["gap"] > FIRST_FIGURE_GAP_MAX:
            problems.append(f"{chapter}: first figure {r['gap']} px below its heading "
                            f"'{r['heading']}' (> {FIRST_FIGURE_GAP_MAX})")
    assert not problems, "\n".join(problems)


# At most this many closed folds in any phone screen (844 px at 390 px wide) of a chapter's main
# line (the Exercises and everything after them left out). Chapters still above it (issue 32):
# each must still break the rule, so that a chapter brought under it leaves the list.
FOLDS_PER_SCREEN_MAX = 1
FOLDS_NOT_YET: set[str] = set()   # every chapter meets it (issue 32)
FOLD_TOPS = """() => {
    const art = document.querySelector('.md-content__inner');
    art.querySelectorAll('details').forEach(d => d.open = false);
    const end = [...art.querySelectorAll('h2')].find(h => /^Exercises/.test(h.textContent.trim()));
    const stop = end ? end.getBoundingClientRect().top + scrollY : Infinity;
    return [...art.querySelectorAll('details')].filter(d => !d.parentElement.closest('details'))
        .map(d => d.getBoundingClientRect().top + scrollY).filter(y => y < stop);
}"""


def test_folds_per_phone_screen(phone_chapters):
    """On a 390 x 844 px phone, no screen of a chapter's main line holds more than
    FOLDS_PER_SCREEN_MAX closed folds (checks gathered after their paragraph, not one per
    sentence). Prints each chapter's worst screen."""
    over, fixed = [], []
    for chapter, (_, tops) in phone_chapters.items():
        worst = max((sum(1 for u in tops if t <= u < t + 844) for t in tops), default=0)
        print(f"{chapter}: {len(tops)} folds in the main line, at most {worst} in one screen")
        if worst > FOLDS_PER_SCREEN_MAX and chapter not in FOLDS_NOT_YET:
            over.append(f"{chapter}: {worst} folds in one phone screen")
        if worst <= FOLDS_PER_SCREEN_MAX and chapter in FOLDS_NOT_YET:
            fixed.append(f"{chapter}: now at most {worst}; take it off FOLDS_NOT_YET")
    assert not over and not fixed, "\n".join(over + fixed)
