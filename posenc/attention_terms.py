"""The attention score of ``x_i + PE_i`` and ``x_j + PE_j`` split into four terms.

With ``M = W_Q W_K^T`` the unscaled score is ``(x_i + PE_i) M (x_j + PE_j)^T``, which expands to

* content-content   ``x_i  M x_j^T``
* content-position  ``x_i  M PE_j^T``
* position-content  ``PE_i M x_j^T``
* position-position ``PE_i M PE_j^T``

(Vaswani et al. 2017 add the encoding to the embeddings, section 3.5; the expansion is plain
distributivity.) See the chapter "What happens to the encoding inside attention?"
(docs/chapters/10-inside-attention.md).
"""

from __future__ import annotations

import numpy as np

from ._checks import check_matrix

TERMS = ("content-content", "content-position", "position-content", "position-position")



def score_terms(x, pe, w_q, w_k) -> dict[str, np.ndarray]:
    """The four ``(seq, seq)`` terms of the unscaled score ``(X + PE) W_Q W_K^T (X + PE)^T``.

    Parameters
    ----------
    x : array_like, shape (seq, d_model)
        Token embeddings.
    pe : array_like, shape (seq, d_model)
        Positional encodings of the same tokens.
    w_q, w_k : array_like, shape (d_model, d_k)
        Query and key projections.

    Returns
    -------
    dict
        ``{name: matrix}`` for the names in :data:`TERMS`; entry ``[i, j]`` is query ``i``
        against key ``j``. The four matrices sum to the full score.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.attention_terms import score_terms
    >>> from posenc import encode
    >>> from posenc.attention import embed, random_weights
    >>> x, pe = embed(["a", "b", "c"], 4), encode(3, 4)
    >>> w_q, w_k, _ = random_weights(4)
    >>> terms = score_terms(x, pe, w_q, w_k)
    >>> full = (x + pe) @ w_q @ ((x + pe) @ w_k).T
    >>> bool(np.allclose(sum(terms.values()), full))
    True
    """
    x, pe = check_matrix(x, "x"), check_matrix(pe, "pe")
    w_q, w_k = check_matrix(w_q, "w_q"), check_matrix(w_k, "w_k")
    if pe.shape != x.shape:
        raise ValueError(f"pe must have the shape of x, {x.shape}, got {pe.shape}")
    for w, name in ((w_q, "w_q"), (w_k, "w_k")):
        if w.shape[0] != x.shape[1]:
            raise ValueError(f"{name} must have {x.shape[1]} rows to match x, got shape {w.shape}")
    if w_q.shape != w_k.shape:
        raise ValueError(f"w_q and w_k must have the same shape, got {w_q.shape} and {w_k.shape}")
    m = w_q @ w_k.T                                     # (d_model, d_model)
    return {
        "content-content": x @ m @ x.T,
        "content-position": x @ m @ pe.T,
        "position-content": pe @ m @ x.T,
        "position-position": pe @ m @ pe.T,
    }


def diagonal_spread(matrix) -> float:
    """How far a square matrix is from depending only on ``j - i``.

    Returns the largest, over all diagonals ``j - i = k``, of ``max - min`` along that diagonal:
    0 for a Toeplitz matrix (every diagonal constant), positive otherwise.

    Examples
    --------
    >>> from posenc.attention_terms import diagonal_spread
    >>> diagonal_spread([[1.0, 2.0], [3.0, 1.0]])
    0.0
    >>> diagonal_spread([[1.0, 2.0], [3.0, 5.0]])
    4.0
    """
    m = check_matrix(matrix, "matrix")
    if m.shape[0] != m.shape[1] or m.shape[0] == 0:
        raise ValueError(f"matrix must be square and non-empty, got shape {m.shape}")
    n = m.shape[0]
    return float(max(np.ptp(np.diagonal(m, k)) for k in range(-(n - 1), n)))
