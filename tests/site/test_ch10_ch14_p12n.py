"""Chapters 10 and 14: sentences whose flipped word left the pages and every test passing
(review-2026-12 p12n, passes 5 and 6). Each phrase must be on the page exactly when a small
computation says it (tables written here in NumPy / torch, not with posenc's encoder)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from harness.says import flat as text, says

ROOT = Path(__file__).resolve().parents[2]
CH10 = ROOT / "docs" / "chapters" / "10-inside-attention.md"
CH14 = ROOT / "docs" / "chapters" / "14-learned-embeddings.md"
WORDS = {2: "two", 4: "four", 5: "five", 7: "seven", 8: "eight"}


def table(n: int, d: int) -> np.ndarray:
    pos = np.arange(n)[:, None]
    w = 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.zeros((n, d))
    out[:, 0::2], out[:, 1::2] = np.sin(pos * w), np.cos(pos * w)
    return out


def toy():
    from posenc.attention import embed   # the page's toy words; weights drawn here

    d = 16
    rng = np.random.default_rng(0)       # the page's random_weights(16, seed=0)
    w_q, w_k = (rng.normal(0.0, d ** -0.5, (d, d)) for _ in range(2))
    return embed, d, w_q @ w_k.T


def terms(x, pe, m):
    return {"cc": x @ m @ x.T, "cp": x @ m @ pe.T, "pc": pe @ m @ x.T, "pp": pe @ m @ pe.T}


def test_ch10_plus_and_minus_three_differ_under_weights():
    _, d, m = toy()
    pp = table(64, d) @ m @ table(64, d).T
    differ = not np.isclose(pp[5, 8], pp[8, 5])
    page = text(CH10)
    says(page, r"and the offset \(+3\) and \(-3\) differ too", differ)
    dots = table(64, d) @ table(64, d).T
    says(page, r"an even one, the same for \(q - p = 3\) and \(q - p = -3\)",
         np.isclose(dots[5, 8], dots[8, 5]))


def test_ch10_the_two_copies_of_the_differ_in_the_query_position_terms():
    embed, d, m = toy()
    tokens = "the cat sat on the mat".split()
    t = terms(embed(tokens, d), table(6, d), m)
    differs = {k: not np.allclose(v[0], v[4]) for k, v in t.items()}
    assert differs == {"cc": False, "cp": False, "pc": True, "pp": True}
    says(text(CH10), r"the two terms with \(PE_p\) differ; content-position does not",
         differs["pc"] and differs["pp"] and not differs["cp"])


def test_ch10_exercise_1_content_position_is_the_same_whatever_word():
    embed, d, m = toy()
    pe = table(6, d)
    a = terms(embed("the cat sat on the mat".split(), d), pe, m)["cp"][:5, 5]
    b = terms(embed("the cat sat on the hat".split(), d), pe, m)["cp"][:5, 5]
    says(text(CH10), "(content-position) is the same whatever word stands there",
         np.allclose(a, b))


def test_ch10_exercise_2_all_diagonals_but_the_corners_change():
    d, n = 16, 64
    tab = table(n, d)
    m = np.zeros((d, d))
    m[0, 0] = 1.0
    s = tab @ m @ tab.T
    still = [o for o in range(1 - n, n) if np.ptp(np.diagonal(s, o)) <= 1e-12]
    assert still == [1 - n, n - 1]           # the corners, a single entry each
    says(text(CH10), f"All diagonals but the {WORDS[len(still)]} corner ones "
         "(a single entry each) change", True)


def test_ch10_exercise_3_largest_before_smallest_after():
    embed, d, m = toy()
    x, pe = embed("the cat sat on the mat".split(), d), table(6, d)
    before = {k: np.abs(v).mean() for k, v in terms(x, pe, m).items()}
    after = {k: np.abs(v).mean() for k, v in terms(x * np.sqrt(d), pe, m).items()}
    ok = max(before, key=before.get) == "pp" == min(after, key=after.get)
    says(text(CH10), "Before scaling, the position-position term was the largest of the four; "
         "after it, the smallest", ok)


def test_ch14_lab_five_seeds_and_sooner():
    from posenc.lab.experiments import verdict

    page = text(CH14)
    ins = [verdict("past", f"{s}-in-distribution") for s in ("learned", "sinusoid")]
    n = {len(v["per_seed"]) for v in ins}
    assert len(n) == 1
    says(page, f"both reached accuracy 1.0 in each of {WORDS[n.pop()]} seeds",
         all(v["weakest"] == 1.0 for v in ins))
    gaps = verdict("learned", "learned-not-slower")["per_seed"]
    says(page, "one logging interval (25 steps) sooner in every seed",
         all(g == -25 for g in gaps))


torch = pytest.importorskip("torch")


def test_ch14_exercises_rows_past_eight_untouched():
    torch.manual_seed(0)
    emb = torch.nn.Embedding(16, 8)
    start = emb.weight.detach().clone()
    opt = torch.optim.SGD(emb.parameters(), lr=0.1)
    for _ in range(5):
        opt.zero_grad()
        (torch.randn(4, 8, 8) + emb.weight[:8]).pow(2).sum().backward()
        opt.step()
    unmoved = [j for j in range(16) if torch.equal(emb.weight[j], start[j])]
    page = text(CH14)
    says(page, f"Prediction: {len(unmoved)} rows unchanged", unmoved == list(range(8, 16)))
    says(page, f"to its last {WORDS[len(unmoved)]} tokens", unmoved == list(range(8, 16)))
    says(page, "One step moves rows 0 to 7 and leaves rows 8 to 15 alone",
         unmoved == list(range(8, 16)))


def test_ch14_table_new_learned_rows_untrained():
    # a longer learned table's extra row is whatever the initialiser drew
    rows = [(torch.manual_seed(s), torch.nn.Embedding(513, 8).weight[-1])[1] for s in (0, 1)]
    says(text(CH14), "error; new rows would be untrained", not torch.equal(*rows))


def test_review_record_page_pass_overrides_record_pass(tmp_path):
    """p12n reviewed chapter 10 as its pass 5 and chapter 14 as its pass 6 in one record."""
    from hooks import checked

    (tmp_path / "r.yml").write_text(
        "reviewer: r\npass: 5\nmonth: 2026-12\nreport: x.md\npages:\n"
        "  - {page: docs/a.md, claims: 10, found: 1, major: 0, fixed: 1}\n"
        "  - {page: docs/b.md, pass: 6, claims: 20, found: 2, major: 0, fixed: 2}\n")
    checked._loaded.clear()
    assert "pass 5 (December 2026): 10 claims" in checked.review_note("docs/a.md", tmp_path)
    assert "pass 6 (December 2026): 20 claims" in checked.review_note("docs/b.md", tmp_path)
    checked._loaded.clear()
