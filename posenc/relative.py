"""Two successors of the additive encoding, in a few lines each: RoPE and ALiBi.

* Rotary position embedding (Su et al., "RoFormer", arXiv:2104.09864): rotate each pair of
  query and key coordinates by ``pos * omega_i``, with the paper's frequencies, so the score
  ``q(m) . k(n)`` depends on the positions only through ``n - m``.
* Attention with linear biases (Press, Smith and Lewis, ICLR 2022, arXiv:2108.12409): add
  ``-slope * (i - j)`` to the score of query ``i`` against key ``j <= i``, one slope per head
  (or ``-slope * |i - j|`` to every key in a bidirectional encoder).

What running models add (position offsets for a KV cache, partial rotary, ALiBi for any head
count) is derived in "How do positions behave in a running model?"
(docs/chapters/16-positions-in-a-running-model.md). See also the chapter "Where does it fall short,
and what came next?" (docs/chapters/15-what-came-next.md).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import check_base, check_d_model, check_positions
from .encoding import BASE, frequencies
from .layouts import permutation

PAIRINGS = ("adjacent", "half")


def rotate(x, pos, *, base: float = BASE, pairing: str = "adjacent", offset: int = 0,
           rotary_dim: int | None = None) -> np.ndarray:
    """Rotate the coordinate pairs of each row of ``x`` by ``pos * omega_i`` (RoPE).

    Counterpart: ``pairing="half"`` is Hugging Face Llama's ``apply_rotary_pos_emb``
    (``rotate_half``); ``"adjacent"`` is Meta's complex-number ``apply_rotary_emb``; checked in
    ``tests/package/test_conformance.py``.

    Parameters
    ----------
    x : array_like, shape (seq, d)
        Queries or keys, one row per token; ``d`` even unless ``rotary_dim`` is given.
    pos : int or array_like
        Positions of the rows: an int ``n`` for ``0 .. n - 1`` or a 1-D array of length ``seq``.
    base : float, default 10000
        Sets the frequencies ``omega_i = base ** (-2 i / rotary_dim)``.
    pairing : {"adjacent", "half"}, default "adjacent"
        Which coordinates form pair ``i``: ``(2 i, 2 i + 1)`` as in the RoFormer paper, or
        ``(i, i + rotary_dim / 2)``, the "rotate half" convention of many implementations.
    offset : int, default 0
        Added to every position: the number of tokens already in a KV cache, so that the new
        rows of an incremental decoding step are rotated by their true positions
        ``offset .. offset + seq - 1`` (with ``pos`` an int ``seq``).
    rotary_dim : int, optional
        Partial rotary: rotate only the first ``rotary_dim`` columns (a positive even number
        at most ``d``) and pass the others through unchanged; the frequencies run over the
        rotary width, ``omega_i = base ** (-2 i / rotary_dim)``. Default: all ``d`` columns.

    Returns
    -------
    numpy.ndarray
        Shape ``(seq, d)``, float64. Pair ``(a, b)`` becomes
        ``(a cos t - b sin t, a sin t + b cos t)`` with ``t = (pos + offset) * omega_i``.

    Examples
    --------
    >>> from posenc.relative import rotate
    >>> rotate([[1.0, 0.0]], [1]).round(4)         # one pair, rotated by 1 radian
    array([[0.5403, 0.8415]])
    >>> bool((rotate([[1.0, 0.0]], 1, offset=1) == rotate([[1.0, 0.0]], [1])).all())
    True
    >>> rotate([[1.0, 0.0, 5.0]], [1], rotary_dim=2).round(4)   # third column passes through
    array([[0.5403, 0.8415, 5.    ]])

    See the chapters "Where does it fall short, and what came next?"
    (docs/chapters/15-what-came-next.md) and "How do positions behave in a running model?"
    (docs/chapters/16-positions-in-a-running-model.md).
    """
    arr = np.asarray(x)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"x must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"x must be 2-D (seq, d), got shape {arr.shape}")
    seq, d = arr.shape
    if rotary_dim is None:
        if d == 0 or d % 2:
            raise ValueError(f"x must have an even, positive number of columns to pair, got {d}")
        width = d
    else:
        width = check_d_model(rotary_dim, "rotary_dim")
        if width > d:
            raise ValueError(f"rotary_dim must be at most the width of x ({d}), got {width}")
    if isinstance(offset, (bool, np.bool_)) or not isinstance(offset, numbers.Integral):
        raise TypeError(f"offset must be an integer (tokens already cached), got {offset!r}")
    if offset < 0:
        raise ValueError(f"offset must be >= 0 (tokens already cached), got {offset}")
    offset = int(offset)                       # a NumPy integer would wrap in the sums below
    positions = check_positions(pos)
    if positions.shape != (seq,):
        raise ValueError(f"pos must give one position per row of x ({seq}), got {positions.size}")
    if offset > 2**53 or (positions.size and offset + int(np.ceil(positions.max())) > 2**53):
        raise ValueError(f"offset {offset} puts positions beyond 2**53, which float64 cannot "
                         "represent")
    shifted = positions + float(offset)
    if np.any(shifted - float(offset) != positions):
        raise ValueError(f"offset {offset} rounds the fractional positions of pos (float64's "
                         "spacing is 1 at 2**52)")
    positions = shifted
    if not isinstance(pairing, str) or pairing not in PAIRINGS:
        allowed = ", ".join(repr(p) for p in PAIRINGS)
        raise ValueError(f"pairing must be one of {allowed}, got {pairing!r}")
    theta = np.multiply.outer(positions, frequencies(width, check_base(base)))   # (seq, width/2)
    cos, sin = np.cos(theta), np.sin(theta)
    arr = arr.astype(np.float64)
    rot = arr[:, :width]                                                  # (seq, width)
    if pairing == "adjacent":
        a, b = rot[:, 0::2], rot[:, 1::2]
    else:
        a, b = rot[:, : width // 2], rot[:, width // 2:]
    ra, rb = a * cos - b * sin, a * sin + b * cos
    out = arr.copy()                                    # columns past rotary_dim pass through
    if pairing == "adjacent":
        out[:, 0:width:2], out[:, 1:width:2] = ra, rb
    else:
        out[:, : width // 2], out[:, width // 2: width] = ra, rb
    return out


def rope_permutation(n_heads: int, head_dim: int, source: str = "adjacent",
                     target: str = "half", *, rotary_dim: int | None = None) -> np.ndarray:
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
    rotary_dim : int, optional
        Partial rotary, as in :func:`rotate`: only each head's first ``rotary_dim`` rows move.

    Returns
    -------
    numpy.ndarray
        Integer array of shape ``(n_heads * head_dim,)``.

    Examples
    --------
    >>> from posenc.relative import rope_permutation
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
    width = head_dim if rotary_dim is None else check_d_model(rotary_dim, "rotary_dim")
    if width > head_dim:
        raise ValueError(f"rotary_dim must be at most head_dim ({head_dim}), got {width}")
    layout = {"adjacent": "interleaved", "half": "concatenated"}
    within = np.concatenate([permutation(width, layout[source], layout[target]),
                             np.arange(width, head_dim)])              # (head_dim,)
    return (np.arange(int(n_heads))[:, None] * head_dim + within[None, :]).ravel()


def alibi_slopes(n_heads: int) -> np.ndarray:
    """ALiBi's per-head slopes, for any number of heads.

    Counterpart: the slopes in Bloom's ``build_alibi_tensor`` and MPT's
    ``build_mpt_alibi_tensor`` (Hugging Face ``transformers``), checked for 14 head counts from
    1 to 112 in ``tests/package/test_conformance.py``.

    For a power of two ``n``, the geometric sequence ``2 ** (-8 h / n)``, ``h = 1 .. n``. For
    other head counts the rule of the ALiBi authors' code (``get_slopes``), which Bloom's
    ``build_alibi_tensor`` follows: take the ``p`` slopes of the largest power of two
    ``p <= n_heads``, then append the first ``n_heads - p`` of every other slope of ``2 p``
    heads, ``2 ** (-8 h / (2 p))`` for ``h = 1, 3, 5, ...``. The appended slopes fall between
    the first ones, so the list is not sorted: the head at index ``p`` (counting from 0) gets
    ``2 ** (-4 / p)``, the steepest.

    Parameters
    ----------
    n_heads : int
        Number of attention heads, a positive integer.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_heads,)``, float64, in head order.

    Examples
    --------
    >>> from posenc.relative import alibi_slopes
    >>> alibi_slopes(8) * 256                     # 1/2, 1/4, ..., 1/256
    array([128.,  64.,  32.,  16.,   8.,   4.,   2.,   1.])
    >>> alibi_slopes(6) * 256                     # 4 heads' slopes, then 1/2 and 1/8
    array([ 64.,  16.,   4.,   1., 128.,  32.])

    See the chapter "How do positions behave in a running model?"
    (docs/chapters/16-positions-in-a-running-model.md).
    """
    if isinstance(n_heads, (bool, np.bool_)) or not isinstance(n_heads, numbers.Integral) \
            or n_heads <= 0:
        raise ValueError(f"n_heads must be a positive integer, got {n_heads!r}")
    n = int(n_heads)
    p = 1 << (n.bit_length() - 1)                       # largest power of two <= n
    first = 2.0 ** (-8.0 * np.arange(1, p + 1) / p)
    extra = 2.0 ** (-8.0 * np.arange(1, 2 * (n - p), 2) / (2 * p))
    return np.concatenate([first, extra])


def alibi_bias(n_positions: int, slope: float, *, causal: bool = True) -> np.ndarray:
    """The ALiBi bias for one head: ``-slope * (i - j)`` for ``j <= i``, ``-inf`` above.

    Counterpart: Bloom's ``build_alibi_tensor`` adds ``slope * j`` instead, which differs from
    the causal bias by ``slope * i`` in each query row and gives the same softmax (checked in
    ``tests/package/test_conformance.py``).

    Added to the ``(n_positions, n_positions)`` matrix of query-key scores before the softmax;
    the ``-inf`` entries are the causal mask. With ``causal=False`` (a bidirectional encoder)
    every key is visible and the bias is symmetric, ``-slope * |i - j|``.

    Parameters
    ----------
    n_positions : int
        Sequence length, a positive integer.
    slope : float
        The head's slope, a positive finite number (see :func:`alibi_slopes`).
    causal : bool, default True
        Mask the keys after the query (decoder) or not (encoder).

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, n_positions)``, float64.

    Examples
    --------
    >>> from posenc.relative import alibi_bias
    >>> alibi_bias(3, 0.5)
    array([[ 0. , -inf, -inf],
           [-0.5,  0. , -inf],
           [-1. , -0.5,  0. ]])
    >>> alibi_bias(3, 0.5, causal=False)
    array([[ 0. , -0.5, -1. ],
           [-0.5,  0. , -0.5],
           [-1. , -0.5,  0. ]])
    """
    if isinstance(n_positions, (bool, np.bool_)) or not isinstance(n_positions, numbers.Integral) \
            or n_positions <= 0:
        raise ValueError(f"n_positions must be a positive integer, got {n_positions!r}")
    if isinstance(slope, (bool, np.bool_)) or not isinstance(slope, numbers.Real) \
            or not np.isfinite(slope) or slope <= 0:
        raise ValueError(f"slope must be a positive finite number, got {slope!r}")
    if not isinstance(causal, (bool, np.bool_)):
        raise TypeError(f"causal must be True or False, got {causal!r}")
    i = np.arange(int(n_positions))
    distance = (i[:, None] - i[None, :]).astype(np.float64)        # i - j
    if not causal:
        return -float(slope) * np.abs(distance) + 0.0                # + 0.0: no -0.
    return np.where(distance >= 0, -float(slope) * distance + 0.0, -np.inf)
