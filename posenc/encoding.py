"""The sinusoidal positional encoding of Vaswani et al. (2017), section 3.5.

For a position ``pos`` and a pair index ``i`` in ``0 .. d_model/2 - 1``::

    omega_i          = base ** (-2 i / d_model)
    PE[pos, 2 i]     = sin(pos * omega_i)
    PE[pos, 2 i + 1] = cos(pos * omega_i)

That is the paper's *interleaved* layout. The *concatenated* layout ``[sin ... | cos ...]`` holds
the same numbers in another column order, a fixed permutation. tensor2tensor and fairseq store
``[sin | cos]`` too but also space the frequencies differently, so their tables are not a
permutation of this one: see :mod:`posenc.variants`.

Angles and sines are evaluated in float64 and the table is cast once at the end, so up to
position one million a float32 entry is within half a float32 unit plus about 1e-10 of the exact
value (not within half a unit alone: near zero the float64 angle's rounding shows). A request of
integer positions (within 2**53) is built by rotation (``posenc.fast``): exact rows for a few
block starts and offsets, combined with the angle-addition formulas in float64, which is as
accurate and several times faster.
Derived in the chapter "How do the pieces make the formula?"; checked in "Does it keep its promises?".
"""

from __future__ import annotations

import numpy as np

from ._checks import check_base, check_d_model, check_dtype, check_layout, check_positions
from .fast import rotated_table

BASE = 10000.0
"""The paper's base: the longest wavelength approaches ``2 * pi * BASE``."""


def frequencies(d_model: int, base: float = BASE) -> np.ndarray:
    """Angular frequencies ``omega_i = base ** (-2 i / d_model)`` of the ``d_model / 2`` pairs.

    Counterpart: the inverse frequencies of RoPE models in Hugging Face ``transformers``
    (``LlamaRotaryEmbedding.compute_default_rope_parameters``, ``rope_theta`` as ``base``),
    checked in ``tests/package/test_conformance.py``.

    Parameters
    ----------
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1; sets the slowest frequency.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, float64, falling geometrically from ``omega_0 = 1``.

    Examples
    --------
    >>> from posenc.encoding import frequencies
    >>> frequencies(8)
    array([1.   , 0.1  , 0.01 , 0.001])

    See the chapter "How do the pieces make the formula?" (docs/chapters/08-building-the-formula.md).
    """
    d_model = check_d_model(d_model)
    base = check_base(base)
    i = np.arange(d_model // 2, dtype=np.float64)
    return base ** (-2.0 * i / d_model)


def wavelengths(d_model: int, base: float = BASE) -> np.ndarray:
    """Wavelengths ``2 * pi / omega_i``, in positions, of the ``d_model / 2`` pairs.

    Parameters
    ----------
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(d_model // 2,)``, float64, from ``2 * pi`` up to
        ``2 * pi * base ** ((d_model - 2) / d_model)``, which is less than ``2 * pi * base``.

    Examples
    --------
    >>> from posenc.encoding import wavelengths
    >>> wavelengths(4, base=100.0)
    array([ 6.28318531, 62.83185307])
    """
    return 2.0 * np.pi / frequencies(d_model, base)


def angles(pos, d_model: int, base: float = BASE) -> np.ndarray:
    """The angles ``pos * omega_i``, in float64, one row per position and one column per pair.

    Parameters
    ----------
    pos : int or array_like
        An int ``n`` for positions ``0 .. n - 1``, or a 1-D array of finite positions.
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), d_model // 2)``, float64.

    Examples
    --------
    >>> from posenc.encoding import angles
    >>> angles([0, 1, 2], 4, base=100.0)
    array([[0. , 0. ],
           [1. , 0.1],
           [2. , 0.2]])
    """
    positions = check_positions(pos)
    return np.multiply.outer(positions, frequencies(d_model, base))


def encode(pos, d_model: int, *, base: float = BASE, layout: str = "interleaved",
           dtype="float64") -> np.ndarray:
    """The sinusoidal positional encoding table.

    Counterpart: DistilBERT's ``create_sinusoidal_embeddings`` in Hugging Face ``transformers``
    (interleaved) and Marian's table (concatenated), equal to this float32 table at 1,024 rows;
    longer tables differ at rare entries by up to 2**-24 (chapter 12); checked in
    ``tests/package/test_conformance.py``.

    Parameters
    ----------
    pos : int or array_like
        An int ``n`` for positions ``0 .. n - 1``, or a 1-D array of finite positions
        (integers within 2**53 in magnitude, or real numbers; negative allowed).
    d_model : int
        Width of the encoding; a positive even integer.
    base : float, default 10000
        Finite number greater than 1.
    layout : {"interleaved", "concatenated"}, default "interleaved"
        ``"interleaved"`` puts ``sin`` at column ``2 i`` and ``cos`` at ``2 i + 1`` (the paper);
        ``"concatenated"`` puts all sines first, then all cosines (the layout of tensor2tensor,
        whose frequencies differ: see :func:`posenc.variants.encode_variant`).
    dtype : {"float64", "float32"}, default "float64"
        Output dtype. The table is always computed in float64 and cast once.
        A request of integers within 2**53 goes through :func:`posenc.fast.rotated_table`
        (exact rows for a few block starts and offsets, combined by rotation); any other is
        evaluated directly. Both are within half a float32 unit plus about 1e-10 of the exact
        value up to position one million.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(positions), d_model)``.

    Raises
    ------
    TypeError, ValueError
        For a bad ``pos``, ``d_model``, ``base``, ``layout`` or ``dtype``; the message names the
        argument and the allowed values.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.encoding import encode
    >>> encode(2, 4)
    array([[0.        , 1.        , 0.        , 1.        ],
           [0.84147098, 0.54030231, 0.00999983, 0.99995   ]])
    >>> encode([1], 4, layout="concatenated")
    array([[0.84147098, 0.00999983, 0.54030231, 0.99995   ]])
    >>> from posenc.variants import encode_variant          # tensor2tensor's frequencies
    >>> t2t = encode_variant([100], 512, spacing="t2t", layout="concatenated")
    >>> bool(np.allclose(t2t, encode([100], 512, layout="concatenated")))
    False

    See the chapter "How do the pieces make the formula?" (docs/chapters/08-building-the-formula.md).
    """
    positions = check_positions(pos)
    omega = frequencies(d_model, base)
    return table_for(positions, omega, layout=layout, dtype=dtype)


def table_for(positions, omega, *, layout: str = "interleaved", dtype="float64") -> np.ndarray:
    """The table ``sin / cos(pos * omega_i)`` for given float64 positions and frequencies.

    :func:`encode` and the variants in :mod:`posenc.variants` share this builder: a request of
    integers within 2**53 goes through the rotation builder of :mod:`posenc.fast` (faster, and as
    accurate as direct float64 evaluation), any other through the direct formula. Either way the
    result is rounded once to ``dtype``. The path is chosen per request: one fractional position
    sends every row to the direct formula, which can change an integer row's last bit.

    Parameters
    ----------
    positions : numpy.ndarray
        1-D float64 positions, already checked (see :func:`posenc._checks.check_positions`).
    omega : numpy.ndarray
        1-D float64 frequencies, one per (sin, cos) pair.
    layout : {"interleaved", "concatenated"}, default "interleaved"
    dtype : {"float64", "float32"}, default "float64"

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.encoding import table_for
    >>> table_for(np.array([0.0, 0.5]), np.array([1.0]))
    array([[0.        , 1.        ],
           [0.47942554, 0.87758256]])
    """
    layout = check_layout(layout)
    out_dtype = check_dtype(dtype)
    if positions.size and np.all(positions == np.floor(positions)) \
            and np.abs(positions).max() <= 2.0**53:
        # Integers within 2**53 (int64 and the rotation plan hold them): the rotation builder,
        # as accurate as the direct path and faster. Larger floats are evaluated directly.
        return rotated_table(positions.astype(np.int64), omega, layout=layout, dtype=out_dtype)
    theta = np.multiply.outer(positions, omega)  # (n, d_model/2), float64
    table = np.empty((theta.shape[0], theta.shape[1] * 2), dtype=out_dtype)
    half = theta.shape[1]
    if layout == "interleaved":
        sin_cols, cos_cols = slice(0, None, 2), slice(1, None, 2)
    else:
        sin_cols, cos_cols = slice(0, half), slice(half, None)
    table[:, sin_cols] = np.sin(theta)          # one rounding from float64 to out_dtype
    table[:, cos_cols] = np.cos(theta)
    return table
