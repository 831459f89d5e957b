"""Variants of the sinusoidal table found in widely used code, as named options.

Three choices separate the tables that real codebases build:

* ``spacing``: the paper's ``omega_i = base ** (-2 i / d_model)`` or tensor2tensor's
  ``omega_i = exp(-ln(base) * i / (d_model/2 - 1))`` (also fairseq and code derived from it),
  which puts the slowest frequency at ``1 / base`` up to float64 rounding;
* ``layout``: interleaved (the paper) or concatenated ``[sin | cos]`` (tensor2tensor, fairseq);
  see :mod:`posenc.layouts`;
* ``offset``: the number added to every position; fairseq numbers the first real token
  ``padding_idx + 1``.

And one policy, for an odd ``d_model``, which the formula does not define: :func:`even_width`.
See the chapter "Which variants of the table will you meet?" (docs/chapters/12-variants.md).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._checks import check_base, check_d_model, check_dtype, check_layout, check_positions
from .encoding import BASE, table_for

SPACINGS = ("paper", "t2t")
ODD_POLICIES = ("refuse", "zero_pad", "drop_last")


def check_spacing(spacing, name: str = "spacing") -> str:
    """Return ``spacing`` if it is one of :data:`SPACINGS`; otherwise raise naming ``name``.

    Examples
    --------
    >>> from posenc.variants import check_spacing
    >>> check_spacing("t2t")
    't2t'
    >>> check_spacing("fairseq")
    Traceback (most recent call last):
    ...
    ValueError: spacing must be one of 'paper', 't2t', got 'fairseq'
    """
    if not isinstance(spacing, str) or spacing not in SPACINGS:
        allowed = ", ".join(repr(s) for s in SPACINGS)
        raise ValueError(f"{name} must be one of {allowed}, got {spacing!r}")
    return spacing


def frequencies(d_model: int, base: float = BASE, spacing: str = "paper") -> np.ndarray:
    """Angular frequencies of the ``d_model / 2`` pairs under either spacing.

    Counterpart: ``"t2t"`` is the spacing of ``M2M100SinusoidalPositionalEmbedding`` and
    Whisper's ``sinusoids`` in Hugging Face ``transformers``; checked through their tables in
    ``tests/package/test_conformance.py``.

    Parameters
    ----------
    d_model : int
        A positive even integer.
    base : float, default 10000
        Finite number greater than 1.
    spacing : {"paper", "t2t"}, default "paper"
        ``"paper"``: ``base ** (-2 i / d_model)``, ending at ``base ** (-(d_model - 2) / d_model)``.
        ``"t2t"``: ``exp(-ln(base) * i / max(d_model/2 - 1, 1))``, ending at ``1 / base``
        from ``d_model = 4`` (the ``max`` is tensor2tensor's guard for ``d_model = 2``: ``[1.]``).

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, float64.

    Examples
    --------
    >>> from posenc.variants import frequencies
    >>> frequencies(8, spacing="paper")
    array([1.   , 0.1  , 0.01 , 0.001])
    >>> frequencies(8, spacing="t2t")
    array([1.00000000e+00, 4.64158883e-02, 2.15443469e-03, 1.00000000e-04])
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    spacing = check_spacing(spacing)
    half = d_model // 2
    i = np.arange(half, dtype=np.float64)
    if spacing == "paper":
        return base ** (-2.0 * i / d_model)
    return np.exp(-np.log(base) * i / max(half - 1, 1))


def even_width(d_model: int, odd: str = "refuse") -> int:
    """The even width to build for ``d_model`` under an odd-width policy.

    Parameters
    ----------
    d_model : int
        A positive integer.
    odd : {"refuse", "zero_pad", "drop_last"}, default "refuse"
        What to do when ``d_model`` is odd. ``"refuse"`` raises ``ValueError`` (the formula pairs
        every sine with a cosine, so an odd width has no definition). ``"zero_pad"`` builds
        ``d_model - 1`` columns and appends a column of zeros (tensor2tensor, fairseq).
        ``"drop_last"`` builds ``d_model + 1`` columns and drops the last one.

    Returns
    -------
    int
        ``d_model`` itself when it is even; otherwise ``d_model - 1`` or ``d_model + 1``.

    Examples
    --------
    >>> from posenc.variants import even_width
    >>> even_width(8), even_width(7, "zero_pad"), even_width(7, "drop_last")
    (8, 6, 8)
    """
    if isinstance(d_model, bool) or not isinstance(d_model, numbers.Integral) or d_model <= 0:
        raise ValueError(f"d_model must be a positive integer, got {d_model!r}")
    if not isinstance(odd, str) or odd not in ODD_POLICIES:
        allowed = ", ".join(repr(p) for p in ODD_POLICIES)
        raise ValueError(f"odd must be one of {allowed}, got {odd!r}")
    d_model = int(d_model)
    if d_model % 2 == 0:
        return d_model
    if odd == "refuse":
        raise ValueError(
            f"d_model={d_model} is odd; the encoding pairs each sine with a cosine. Choose an "
            "even d_model, or pass odd='zero_pad' or odd='drop_last' to pick a convention"
        )
    if odd == "zero_pad":
        if d_model == 1:
            raise ValueError("odd='zero_pad' needs d_model >= 3 (d_model=1 would be all zeros)")
        return d_model - 1
    return d_model + 1


def encode_variant(pos, d_model: int, *, base: float = BASE, spacing: str = "paper",
                   layout: str = "interleaved", offset: float = 0, odd: str = "refuse",
                   dtype="float64") -> np.ndarray:
    """The sinusoidal table under a named convention.

    ``encode_variant(pos, d_model)`` with the defaults equals :func:`posenc.encode`.

    Counterpart: the tables of Hugging Face ``transformers`` models (Marian, Pegasus,
    ``M2M100SinusoidalPositionalEmbedding``, FSMT, Speech2Text, XGLM, Whisper), each reproduced
    by a choice of options in ``tests/package/test_conformance.py`` (chapter 12 lists them).

    Parameters
    ----------
    pos : int or array_like
        An int ``n`` for positions ``0 .. n - 1``, or a 1-D array of finite positions.
    d_model : int
        Width of the table; odd widths follow ``odd``.
    base : float, default 10000
    spacing : {"paper", "t2t"}, default "paper"
        See :func:`frequencies`.
    layout : {"interleaved", "concatenated"}, default "interleaved"
    offset : int or float, default 0
        Added to every position before the angles are taken (fairseq: ``padding_idx + 1``);
        a sum float64 would round is refused if whole or past 2**52.
    odd : {"refuse", "zero_pad", "drop_last"}, default "refuse"
        See :func:`even_width`.
    dtype : {"float64", "float32"}, default "float64"
        Computed in float64 and cast once.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), d_model)``.

    Examples
    --------
    >>> from posenc.variants import encode_variant
    >>> encode_variant([0], 5, layout="concatenated", odd="zero_pad")
    array([[0., 0., 1., 1., 0.]])
    >>> bool((encode_variant(4, 8, offset=2) == encode_variant([2, 3, 4, 5], 8)).all())
    True
    """
    positions = check_positions(pos)
    if isinstance(offset, (bool, np.bool_)) or not isinstance(offset, numbers.Real):
        raise TypeError(f"offset must be a finite real number, got {offset!r}")
    try:
        finite = math.isfinite(offset)
    except OverflowError:                                 # an int past float64's range
        finite = False
    if not finite:
        raise ValueError(f"offset must be finite in float64, got {offset!r:.40}")
    if isinstance(offset, numbers.Integral) and float(offset) != int(offset):   # 2**53 + 1
        raise ValueError(f"offset {offset!r} is not exact in float64 (past 2**53 not every "
                         "whole number is)")
    width = even_width(d_model, odd)
    layout = check_layout(layout)
    out_dtype = check_dtype(dtype)
    omega = frequencies(width, base, spacing)
    shifted = positions + float(offset)
    # whole numbers past 2**53 can round (2**53 + 1 gives 2**53), and past 2**52 float64 keeps
    # no fraction (2**53 - 0.5 gives 2**53): refuse rather than merge rows; two-sum gives the
    # sum's exact rounding error
    back = shifted - positions
    error = (positions - (shifted - back)) + (float(offset) - back)
    whole = (positions == np.floor(positions)) & (float(offset) == math.floor(offset))
    lost = np.flatnonzero((error != 0) & (whole | (np.abs(shifted) >= 2.0**52)))
    if lost.size:
        raise ValueError(
            f"offset {offset!r} added to position {positions[lost[0]].item():.17g} is not exact in "
            "float64 (past 2**53 not every whole number is, past 2**52 no fraction is); keep "
            "positions plus offset within 2**52, or whole and within 2**53"
        )
    table = table_for(shifted, omega, layout=layout)   # (n, width), float64
    if width < d_model:
        table = np.concatenate([table, np.zeros((len(positions), 1))], axis=1)
    return table[:, :d_model].astype(out_dtype)


def gram(table) -> np.ndarray:
    """All dot products between rows, ``table @ table.T``: what attention sees of a bare table.

    Two tables with the same Gram matrix differ by a fixed orthogonal map of their columns. A
    column permutation can be absorbed by relabelling a model's coordinates (LayerNorm commutes
    with it); a rotation, such as a shift of all positions, does not commute with LayerNorm.

    Examples
    --------
    >>> from posenc.variants import gram
    >>> from posenc import encode
    >>> g = gram(encode(3, 4))
    >>> g.shape, round(float(g[1, 1]), 12)
    ((3, 3), 2.0)
    """
    arr = np.asarray(table)
    if arr.ndim != 2 or arr.dtype.kind not in "iuf":
        raise ValueError(f"table must be a 2-D array of real numbers, got shape {arr.shape} "
                         f"and dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    return arr @ arr.T
