"""Two successors of the additive encoding, in a few lines each: RoPE and ALiBi.

* Rotary position embedding (Su et al., "RoFormer", arXiv:2104.09864): rotate each pair of
  query and key coordinates by ``pos * omega_i``, with the paper's frequencies, so the score
  ``q(m) . k(n)`` depends on the positions only through ``n - m``.
* Attention with linear biases (Press, Smith and Lewis, ICLR 2022, arXiv:2108.12409): add
  ``-slope * (i - j)`` to the score of query ``i`` against key ``j <= i``, one slope per head.

See the chapter "What came next?" (docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_base, check_d_model, check_positions
from .encoding import BASE, frequencies
from .layouts import permutation

PAIRINGS = ("adjacent", "half")


def rotate(x, pos, *, base: float = BASE, pairing: str = "adjacent") -> np.ndarray:
    """Rotate the coordinate pairs of each row of ``x`` by ``pos * omega_i`` (RoPE).

    Parameters
    ----------
    x : array_like, shape (seq, d)
        Queries or keys, one row per token; ``d`` even.
    pos : int or array_like
        Positions of the rows: an int ``n`` for ``0 .. n - 1`` or a 1-D array of length ``seq``.
    base : float, default 10000
        Sets the frequencies ``omega_i = base ** (-2 i / d)``.
    pairing : {"adjacent", "half"}, default "adjacent"
        Which coordinates form pair ``i``: ``(2 i, 2 i + 1)`` as in the RoFormer paper, or
        ``(i, i + d / 2)``, the "rotate half" convention of many implementations.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, d)``, float64. Pair ``(a, b)`` becomes
        ``(a cos t - b sin t, a sin t + b cos t)`` with ``t = pos * omega_i``.

    Examples
    --------
    >>> rotate([[1.0, 0.0]], [1]).round(4)         # one pair, rotated by 1 radian
    array([[0.5403, 0.8415]])
    """
    arr = np.asarray(x)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"x must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"x must be 2-D (seq, d), got shape {arr.shape}")
    seq, d = arr.shape
    if d == 0 or d % 2:
        raise ValueError(f"x must have an even, positive number of columns to pair, got {d}")
    positions = check_positions(pos)
    if positions.shape != (seq,):
        raise ValueError(f"pos must give one position per row of x ({seq}), got {positions.size}")
    if not isinstance(pairing, str) or pairing not in PAIRINGS:
        allowed = ", ".join(repr(p) for p in PAIRINGS)
        raise ValueError(f"pairing must be one of {allowed}, got {pairing!r}")
    theta = np.multiply.outer(positions, frequencies(d, check_base(base)))   # (seq, d/2)
    cos, sin = np.cos(theta), np.sin(theta)
    arr = arr.astype(np.float64)
    if pairing == "adjacent":
        a, b = arr[:, 0::2], arr[:, 1::2]
    else:
        a, b = arr[:, : d // 2], arr[:, d // 2:]
    ra, rb = a * cos - b * sin, a * sin + b * cos
    out = np.empty_like(arr)
    if pairing == "adjacent":
        out[:, 0::2], out[:, 1::2] = ra, rb
    else:
        out[:, : d // 2], out[:, d // 2:] = ra, rb
    return out


def rope_permutation(n_heads: int, head_dim: int, source: str = "adjacent",
                     target: str = "half") -> np.ndarray:
    """Row order of ``W_Q`` and ``W_K`` that moves a checkpoint from one RoPE pairing to the other.

    ``w_target = w_source[rope_permutation(n_heads, head_dim, source, target)]`` for the query
    and key projections (rows are output features, grouped head by head, as in ``nn.Linear``).
    Within each head it is the interleaved-to-concatenated column order of
    :func:`posenc.layouts.permutation`; heads stay where they are. From ``"adjacent"`` to
    ``"half"`` it is the ``permute`` that Hugging Face's ``convert_llama_weights_to_hf.py``
    applies to Meta's Llama weights: ``w.view(n_heads, head_dim // 2, 2, dim).transpose(1, 2)``.

    Parameters
    ----------
    n_heads : int
        Number of heads (key/value heads for ``W_K`` under grouped-query attention).
    head_dim : int
        Width of one head; a positive even integer.
    source, target : {"adjacent", "half"}
        The pairings to convert from and to (see :func:`rotate`).

    Returns
    -------
    numpy.ndarray
        Integer array of shape ``(n_heads * head_dim,)``.

    Examples
    --------
    >>> rope_permutation(2, 4)                   # two heads of width 4
    array([0, 2, 1, 3, 4, 6, 5, 7])
    >>> rope_permutation(1, 4, "half", "adjacent")
    array([0, 2, 1, 3])

    See the chapter "Which variants of the table will you meet?" (docs/chapters/12-variants.md).
    """
    if isinstance(n_heads, bool) or not isinstance(n_heads, numbers.Integral) or n_heads <= 0:
        raise ValueError(f"n_heads must be a positive integer, got {n_heads!r}")
    for name, value in (("source", source), ("target", target)):
        if not isinstance(value, str) or value not in PAIRINGS:
            allowed = ", ".join(repr(p) for p in PAIRINGS)
            raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    head_dim = check_d_model(head_dim, "head_dim")
    layout = {"adjacent": "interleaved", "half": "concatenated"}
    within = permutation(head_dim, layout[source], layout[target])    # (head_dim,)
    return (np.arange(int(n_heads))[:, None] * head_dim + within[None, :]).ravel()


def alibi_slopes(n_heads: int) -> np.ndarray:
    """ALiBi's per-head slopes for a power-of-two number of heads: ``2 ** (-8 h / n_heads)``,
    ``h = 1 .. n_heads``.

    Examples
    --------
    >>> alibi_slopes(8) * 256                     # 1/2, 1/4, ..., 1/256
    array([128.,  64.,  32.,  16.,   8.,   4.,   2.,   1.])
    """
    if isinstance(n_heads, bool) or not isinstance(n_heads, numbers.Integral) or n_heads <= 0:
        raise ValueError(f"n_heads must be a positive integer, got {n_heads!r}")
    n = int(n_heads)
    if n & (n - 1):
        raise ValueError(
            f"n_heads must be a power of two for this recipe, got {n}; the ALiBi paper "
            "interpolates slopes for other head counts, which is not implemented here"
        )
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def alibi_bias(n_positions: int, slope: float) -> np.ndarray:
    """The causal ALiBi bias for one head: ``-slope * (i - j)`` for ``j <= i``, ``-inf`` above.

    Added to the ``(n_positions, n_positions)`` matrix of query-key scores before the softmax;
    the ``-inf`` entries are the causal mask.

    Examples
    --------
    >>> alibi_bias(3, 0.5)
    array([[ 0. , -inf, -inf],
           [-0.5,  0. , -inf],
           [-1. , -0.5,  0. ]])
    """
    if isinstance(n_positions, bool) or not isinstance(n_positions, numbers.Integral) \
            or n_positions <= 0:
        raise ValueError(f"n_positions must be a positive integer, got {n_positions!r}")
    if isinstance(slope, bool) or not isinstance(slope, numbers.Real) or not np.isfinite(slope) \
            or slope <= 0:
        raise ValueError(f"slope must be a positive finite number, got {slope!r}")
    i = np.arange(int(n_positions))
    distance = (i[:, None] - i[None, :]).astype(np.float64)        # i - j
    return np.where(distance >= 0, -float(slope) * distance + 0.0, -np.inf)   # + 0.0: no -0.
