"""rope_permutation against Hugging Face's Llama conversion, re-derived, and against scores."""

import numpy as np
import pytest

from posenc.relative import rope_permutation, rotate


def hf_permute(w, n_heads):
    """convert_llama_weights_to_hf.py: w.view(n_heads, dim1 // n_heads // 2, 2, dim2)
    .transpose(1, 2).reshape(dim1, dim2), written with NumPy."""
    dim1, dim2 = w.shape
    return w.reshape(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(0, 2, 1, 3).reshape(dim1, dim2)


@pytest.mark.parametrize("n_heads, head_dim, dim", [(1, 8, 8), (4, 16, 64), (8, 4, 48)])
def test_matches_hugging_face_permute(n_heads, head_dim, dim):
    w = np.random.default_rng(0).normal(size=(n_heads * head_dim, dim))
    assert np.array_equal(w[rope_permutation(n_heads, head_dim)], hf_permute(w, n_heads))


def test_round_trip_and_identity():
    fwd = rope_permutation(3, 8)
    back = rope_permutation(3, 8, "half", "adjacent")
    assert np.array_equal(fwd[back], np.arange(24))
    assert np.array_equal(rope_permutation(3, 8, "half", "half"), np.arange(24))


def test_scores_survive_the_conversion():
    rng = np.random.default_rng(1)
    n_heads, head_dim, dim = 3, 8, 24
    x = rng.normal(size=(7, dim))
    w_q, w_k = rng.normal(size=(2, n_heads * head_dim, dim))
    perm = rope_permutation(n_heads, head_dim)
    for h in range(n_heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        meta = rotate((x @ w_q.T)[:, cols], 7) @ rotate((x @ w_k.T)[:, cols], 7).T
        hf = (rotate((x @ w_q[perm].T)[:, cols], 7, pairing="half")
              @ rotate((x @ w_k[perm].T)[:, cols], 7, pairing="half").T)
        assert np.allclose(meta, hf)


@pytest.mark.parametrize("kwargs, match", [
    ({"n_heads": 0, "head_dim": 8}, "n_heads"),
    ({"n_heads": 2, "head_dim": 7}, "head_dim"),
    ({"n_heads": 2, "head_dim": 8, "source": "gptj"}, "source"),
    ({"n_heads": 2, "head_dim": 8, "target": None}, "target"),
])
def test_bad_input_names_the_argument(kwargs, match):
    with pytest.raises((TypeError, ValueError), match=match):
        rope_permutation(**kwargs)
