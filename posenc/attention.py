"""A toy single-head self-attention in NumPy, small enough to read in one sitting.

``Attention(X) = softmax(Q K^T / sqrt(d_k)) V`` with ``Q = X W_Q``, ``K = X W_K``, ``V = X W_V``
(Vaswani et al. 2017, equation 1). Used by the chapter "Why does a Transformer need positions?"
to show that, without positions, reordering the tokens only reorders the outputs.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_d_model, check_matrix



def embed(tokens, d_model: int, *, seed: int = 0, scale: float = 1.0) -> np.ndarray:
    """Toy word embeddings: each distinct word gets a fixed random vector.

    The vector depends only on the word, ``d_model`` and ``seed``, never on the sentence or on
    where the word stands, which is exactly the situation positional encodings fix.

    Parameters
    ----------
    tokens : sequence of str
        The words of a sentence.
    d_model : int
        Width of each vector; a positive even integer.
    seed : int, default 0
        Seed shared by all words.
    scale : float, default 1.0
        Standard deviation of the entries.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(tokens), d_model)``, float64.

    Examples
    --------
    >>> from posenc.attention import embed
    >>> x = embed(["dog", "bites", "dog"], 4)
    >>> x.shape, bool((x[0] == x[2]).all())
    ((3, 4), True)
    """
    d_model = check_d_model(d_model)
    if isinstance(tokens, str) or not all(isinstance(t, str) for t in tokens):
        raise TypeError("tokens must be a sequence of str, e.g. 'dog bites man'.split()")
    rows = [
        np.random.default_rng([seed, *t.encode("utf-8")]).normal(0.0, scale, d_model)
        for t in tokens
    ]
    return np.array(rows).reshape(len(rows), d_model)


def random_weights(d_model: int, d_k: int | None = None, *, seed: int = 0):
    """Random projection matrices ``(W_Q, W_K, W_V)``, each ``(d_model, d_k)``.

    Entries are normal with variance ``1 / d_model``, the usual initialisation scale.

    Examples
    --------
    >>> from posenc.attention import random_weights
    >>> w_q, w_k, w_v = random_weights(8, 4)
    >>> w_q.shape
    (8, 4)
    """
    d_model = check_d_model(d_model)
    d_k = d_model if d_k is None else d_k
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer)) or d_k <= 0:
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(0.0, d_model ** -0.5, (d_model, int(d_k))) for _ in range(3))


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along ``axis`` (``-inf`` entries get weight 0).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.attention import softmax
    >>> softmax(np.array([0.0, 0.0]))
    array([0.5, 0.5])
    """
    shifted = scores - np.max(scores, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x, w_q, w_k, w_v, *, causal: bool = False):
    """Single-head scaled dot-product self-attention.

    Parameters
    ----------
    x : array_like, shape (seq, d_model)
        One row per token.
    w_q, w_k, w_v : array_like, shape (d_model, d_k)
        Projections for queries, keys and values.
    causal : bool, default False
        If true, token ``t`` attends only to tokens ``0 .. t`` (a decoder's mask).

    Returns
    -------
    out : numpy.ndarray, shape (seq, d_k)
        Attention output, one row per token.
    weights : numpy.ndarray, shape (seq, seq)
        Attention weights; row ``t`` sums to 1.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.attention import embed, self_attention, random_weights
    >>> x = embed("the cat sat".split(), 4)
    >>> out, w = self_attention(x, *random_weights(4))
    >>> out.shape, np.allclose(w.sum(axis=1), 1.0)
    ((3, 4), True)

    See the chapter "Why does a Transformer need positions?" (docs/chapters/01-why-positions.md).
    """
    x = check_matrix(x, "x")
    w_q, w_k, w_v = (check_matrix(w, n) for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v")))
    for w, n in ((w_q, "w_q"), (w_k, "w_k"), (w_v, "w_v")):
        if w.shape[0] != x.shape[1]:
            raise ValueError(
                f"{n} must have {x.shape[1]} rows to match x of shape {x.shape}, got {w.shape}"
            )
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError(f"w_q and w_k must have the same width, got {w_q.shape} and {w_k.shape}")
    q, k, v = x @ w_q, x @ w_k, x @ w_v                 # (seq, d_k) each
    scores = q @ k.T / np.sqrt(q.shape[1])              # (seq, seq)
    if causal:
        scores = np.where(np.tri(len(x), dtype=bool), scores, -np.inf)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights
