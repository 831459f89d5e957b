"""Review-2026-12 r13m (chapter 12 pass 8).

Sentences whose flipped word (not, later, neither, ...) left the page and every test passing in
a scratch copy: each phrase must be on the page exactly when a small computation says it. The
tables here are built with NumPy alone (no posenc), from the formulas the page states."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
CH12 = ROOT / "docs" / "chapters" / "12-variants.md"
D, N = 512, 512


def flat(path: Path) -> str:
    return " ".join(path.read_text().split())


def says(phrase: str, fact) -> None:
    assert (" ".join(phrase.split()) in flat(CH12)) == bool(fact), (phrase, fact)


def table(positions, d=D, spacing="paper"):
    """The paper's interleaved table (or the t2t spacing), float64."""
    i = np.arange(d // 2)
    omega = 10000.0 ** (-2 * i / d) if spacing == "paper" else 10000.0 ** (-i / (d // 2 - 1))
    angle = np.asarray(positions, dtype=float)[:, None] * omega
    out = np.empty((len(angle), d))
    out[:, 0::2], out[:, 1::2] = np.sin(angle), np.cos(angle)
    return out


def rotation(k, d=D):
    """R_k: each (sin, cos) pair of a row vector turned by k omega_i (row @ R_k)."""
    r = np.zeros((d, d))
    for i, a in enumerate(k * 10000.0 ** (-2 * np.arange(d // 2) / d)):
        r[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]
    return r


def layer_norm(h):
    centred = h - h.mean(axis=-1, keepdims=True)
    return centred / centred.std(axis=-1, keepdims=True)


PAPER = table(range(N))
SHIFTED = table(range(2, N + 2))          # fairseq's offset of 2


def test_the_t2t_spacing_is_not_interchangeable():
    """'They are not interchangeable under trained weights.': the t2t table is another table."""
    gap = np.abs(table(range(N), spacing="t2t") - PAPER).max()
    says("They are not interchangeable under trained weights.", gap > 0.5)


def test_the_offset_is_the_function_two_rows_later():
    """Row p of the offset table is the paper's row p + 2 (later), not p - 2."""
    later = np.allclose(SHIFTED[:-2], PAPER[2:], atol=1e-12)
    earlier = np.allclose(SHIFTED[2:], PAPER[:-2], atol=1e-12)
    says("the same function evaluated two rows later", later and not earlier)


def test_the_offset_is_not_a_relabelling():
    """A relabelling (permutation) of coordinates keeps each row's sorted entries; the offset
    does not, and R_2 does not commute with LayerNorm."""
    relabel = np.allclose(np.sort(SHIFTED, axis=1), np.sort(PAPER, axis=1))
    gap = np.abs(layer_norm(PAPER @ rotation(2)) - layer_norm(PAPER) @ rotation(2)).max()
    assert np.allclose(PAPER @ rotation(2), SHIFTED, atol=1e-12)
    says("It is not a relabelling of coordinates", not relabel)
    says("a rotation, unlike a permutation, does not commute with that", gap > 1)
    says("a rotation (the offset) keeps bare dot products but does not pass through LayerNorm",
         gap > 1 and np.abs(SHIFTED @ SHIFTED.T - PAPER @ PAPER.T).max() < 1e-9)


def test_a_swapped_offset_moves_each_token_two_positions_either_way():
    """Trained with offset 0 and run with 2, token p gets PE(p + 2); trained with 2 and run
    with 0, it gets PE(p), two positions before the PE(p + 2) it was trained with: 'away', not
    only 'later'."""
    run_with_2, trained_with_0 = SHIFTED[:-2], PAPER[:-2]
    run_with_0, trained_with_2 = PAPER[:-2], SHIFTED[:-2]
    later = np.allclose(run_with_2, table(np.arange(N - 2) + 2))
    earlier = np.allclose(run_with_0, table(np.arange(N - 2) + 2 - 2))
    assert later and earlier and not np.allclose(run_with_0, trained_with_2)
    assert not np.allclose(run_with_2, trained_with_0)
    says("where every token gets the vector that belongs two positions away", later and earlier)


def test_the_position_position_term_is_not_a_function_of_the_offset_alone():
    """With W_Q and W_K applied, PE_p W_Q W_K^T PE_q^T differs between (0, 1) and (5, 6)."""
    w = np.random.default_rng(1).normal(size=(2, D, 64)) / 8
    scores = (PAPER @ w[0]) @ (PAPER @ w[1]).T
    says("the position-position term is not a function of \\(q - p\\) alone",
         not np.isclose(scores[0, 1], scores[5, 6]))


def test_m2m100_and_xglm_grow_their_table_in_eager_mode_only():
    """transformers 5.24.0: M2M100's and XGLM's forward skip the growth while dynamo traces with
    a tensor cache_length (a compileable cache); a position past the table then fails. Eager,
    both grow. Tracing is played by patching is_torchdynamo_compiling."""
    from unittest import mock

    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from transformers.models.m2m_100 import modeling_m2m_100 as m2m
    from transformers.models.xglm import modeling_xglm as xglm

    def rows(compiling: bool, cache_length):
        out = []
        with mock.patch.object(m2m, "is_torchdynamo_compiling", lambda: compiling), \
                mock.patch.object(xglm, "is_torchdynamo_compiling", lambda: compiling):
            for build, call in (
                    (lambda: m2m.M2M100SinusoidalPositionalEmbedding(10, 8, 1),
                     lambda e: e(input_ids=torch.tensor([[5]]), cache_length=cache_length)),
                    (lambda: xglm.XGLMSinusoidalPositionalEmbedding(10, 8, 1),
                     lambda e: e(position_ids=torch.tensor([[20]]), cache_length=cache_length))):
                try:
                    out.append(call(build()).shape[-2])
                except IndexError:
                    out.append("IndexError")
        return out

    assert rows(False, 20) == rows(False, torch.tensor(20)) == rows(True, 20) == [1, 1]
    traced = rows(True, torch.tensor(20))
    says("M2M100, FSMT and XGLM grow their table in eager mode", traced == ["IndexError"] * 2)
    says("table rebuilt longer in eager mode", traced == ["IndexError"] * 2)


def marian_row(pos, d):
    """Marian's create_weight row (transformers 5.24.0): exponent 2 (j // 2) / d per column,
    sines of the even columns first (the extra one for an odd d), then the cosines."""
    angle = pos / np.power(10000, 2 * (np.arange(d) // 2) / d)
    return np.concatenate([np.sin(angle[0::2]), np.cos(angle[1::2])])


def test_marians_odd_width_rule_is_neither_policy():
    """d = 5: zero_pad (t2t or paper spacing, width 4 plus a zero) and drop_last (width 6 cut)."""
    row = marian_row(1.0, 5)
    policies = []
    for spacing in ("paper", "t2t"):
        four = table([1.0], 4, spacing)[0]
        policies.append(np.r_[four[0::2], four[1::2], 0.0])          # concatenated, zero_pad
        six = table([1.0], 6, spacing)[0]
        policies.append(np.r_[four, 0.0])                              # interleaved, zero_pad
        policies.append(np.r_[six[0::2], six[1::2][:2]])               # concatenated, drop_last
        policies.append(six[:5])                                       # interleaved, drop_last
    says("and neither of `posenc`'s two policies",
         not any(np.allclose(row, p) for p in policies))


def test_rows_zero_and_one_are_not_read_by_real_tokens():
    """fairseq's make_positions: cumsum of the non-padding mask, times the mask, plus
    padding_idx; real tokens start at padding_idx + 1 = 2, padding reads row 1."""
    tokens = np.array([[7, 8, 9, 1, 1], [1, 1, 7, 8, 9]])      # right and left padding, idx 1
    mask = tokens != 1
    positions = np.cumsum(mask, axis=1) * mask + 1
    says("rows 0 and 1 are not read by real tokens", positions[mask].min() == 2)


def test_rebuilding_does_not_move_the_rows():
    """fairseq's get_embedding in float32 (torch), built at two lengths: the shared rows agree
    bit for bit."""
    torch = pytest.importorskip("torch")

    def get_embedding(n, d, padding_idx=1):
        half = d // 2
        emb = torch.exp(torch.arange(half, dtype=torch.float) * -(np.log(10000) / (half - 1)))
        emb = torch.arange(n, dtype=torch.float).unsqueeze(1) * emb.unsqueeze(0)
        emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1)
        emb[padding_idx, :] = 0
        return emb

    says("Rebuilding does not move the rows it already had",
         all(torch.equal(get_embedding(n, 64)[:10], get_embedding(10, 64)) for n in (11, 1000)))


def rope(x, positions, pairing, base=10000.0):
    """Rotate each row's coordinate pairs: adjacent (2i, 2i + 1) or half (i, i + d/2)."""
    d = x.shape[-1]
    angle = np.asarray(positions, float)[:, None] * base ** (-2 * np.arange(d // 2) / d)
    c, s = np.cos(angle), np.sin(angle)
    a, b = (x[:, 0::2], x[:, 1::2]) if pairing == "adjacent" else (x[:, :d // 2], x[:, d // 2:])
    ra, rb = a * c - b * s, a * s + b * c
    out = np.empty_like(x)
    if pairing == "adjacent":
        out[:, 0::2], out[:, 1::2] = ra, rb
    else:
        out[:, :d // 2], out[:, d // 2:] = ra, rb
    return out


def test_rope_conversion_permutes_q_and_k_not_v():
    """One head of width 8: the within-head permutation of W_Q, W_K rows keeps the scores;
    without it the scores change (coordinates not paired in training); permuting W_V's rows
    with W_O left alone changes the head's output."""
    rng = np.random.default_rng(3)
    head, dim, n = 8, 16, 6
    x = rng.normal(size=(n, dim))
    w_q, w_k, w_v, w_o = rng.normal(size=(4, head, dim))
    perm = np.r_[0:head:2, 1:head:2]                     # interleaved -> concatenated
    pos = np.arange(n)

    def scores(wq, wk, pairing):
        return rope(x @ wq.T, pos, pairing) @ rope(x @ wk.T, pos, pairing).T

    adjacent = scores(w_q, w_k, "adjacent")
    assert np.allclose(adjacent, scores(w_q[perm], w_k[perm], "half"))
    says("each head then rotates coordinates that were not paired in training",
         not np.allclose(adjacent, scores(w_q, w_k, "half")))
    weights = np.exp(adjacent - adjacent.max(1, keepdims=True))
    weights /= weights.sum(1, keepdims=True)
    out = weights @ (x @ w_v.T) @ w_o
    says("and of their biases (not \\(W_V\\))",
         not np.allclose(out, weights @ (x @ w_v[perm].T) @ w_o))


def test_the_offset_table_does_not_store_positions_zero_and_one():
    """The offset-2 table holds positions 2 .. 513: no row is PE(0) or PE(1)."""
    stored = any(np.allclose(row, PAPER[k]) for row in SHIFTED for k in (0, 1))
    says("the fairseq-style table does not store positions 0 and 1", not stored)


def test_no_orthogonal_map_connects_the_t2t_tables():
    """An orthogonal map keeps the Gram matrix; the t2t one differs by more than 1."""
    t2t = table(range(2, N + 2), spacing="t2t")
    t2t = np.concatenate([t2t[:, 0::2], t2t[:, 1::2]], axis=1)
    gap = np.abs(t2t @ t2t.T - PAPER @ PAPER.T).max()
    says("so no orthogonal map, and no rotation or permutation, can connect the tables", gap > 1)


def test_rotate_first_then_permute():
    """R_2 then the column permutation gives the offset, concatenated table; the other order
    does not."""
    perm = np.r_[0:D:2, 1:D:2]
    want = np.concatenate([SHIFTED[:, 0::2], SHIFTED[:, 1::2]], axis=1)
    r = rotation(2)
    first = np.allclose((PAPER @ r)[:, perm], want, atol=1e-12)
    other = np.allclose(PAPER[:, perm] @ r, want, atol=1e-12)
    says("rotate first, then permute", first and not other)


def test_both_tables_are_written_out_from_their_source():
    """The page's NumPy copies follow transformers 5.24.0's create_weight (Marian) and
    get_embedding (M2M100); here the same formulas against the installed classes."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    marian = np.array([marian_row(p, 64) for p in range(64)], dtype=np.float32)
    theirs = MarianSinusoidalPositionalEmbedding(64, 64).create_weight().numpy()
    half = 32
    angle = np.arange(64)[:, None] * np.exp(np.arange(half) * -(np.log(10000) / (half - 1)))
    m2m = np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
    m2m[1] = 0
    hf_m2m = M2M100SinusoidalPositionalEmbedding.get_embedding(64, 64, 1).double().numpy()
    says("Both written out from their source",
         np.array_equal(marian, theirs) and np.allclose(m2m, hf_m2m, atol=1e-5))


# --------------------------------------------------------------------------- second flip batch
def test_both_translation_tables_put_the_sines_first():
    """Marian (create_weight) and M2M100 (get_embedding): column 0 of position 1 is sin(1)."""
    half = 4
    m2m = np.r_[np.sin(np.exp(np.arange(half) * -(np.log(10000) / (half - 1)))),
                np.cos(np.exp(np.arange(half) * -(np.log(10000) / (half - 1))))]
    says("(both put the sines first)",
         np.isclose(marian_row(1.0, 8)[0], np.sin(1.0)) and np.isclose(m2m[0], np.sin(1.0)))


def test_a_permutation_preserves_and_a_rotation_keeps_dot_products():
    perm = np.r_[0:D:2, 1:D:2]
    r = rotation(2)
    says("preserves dot products, so every similarity",
         np.allclose(PAPER[:, perm] @ PAPER[:, perm].T, PAPER @ PAPER.T))
    says("and rotations keep dot products.", np.allclose(r.T @ r, np.eye(D)))


def test_posenc_refuses_an_odd_width_by_default():
    from posenc.variants import encode_variant
    try:
        encode_variant(3, 7)
        refused = False
    except ValueError:
        refused = True
    says("`posenc` refuses by default", refused)


def test_a_padding_token_adds_nothing():
    """fairseq zeroes row padding_idx, so x + row = x for a padding token."""
    x = np.random.default_rng(4).normal(size=8)
    says("so a padding token adds nothing", np.array_equal(x + np.zeros(8), x))


def test_meta_weights_without_the_permutation_are_wrong():
    rng = np.random.default_rng(5)
    x, (w_q, w_k) = rng.normal(size=(6, 16)), rng.normal(size=(2, 8, 16))
    pos = np.arange(6)
    adjacent = rope(x @ w_q.T, pos, "adjacent") @ rope(x @ w_k.T, pos, "adjacent").T
    half = rope(x @ w_q.T, pos, "half") @ rope(x @ w_k.T, pos, "half").T
    says("*without* the permutation runs, and is wrong", not np.allclose(adjacent, half))


def test_the_conversion_needs_no_rebuilding():
    """R_2^T turns the stored offset rows back into the paper's, no sine evaluated."""
    says("conversion needs no rebuilding", np.allclose(SHIFTED @ rotation(2).T, PAPER, atol=1e-12))
