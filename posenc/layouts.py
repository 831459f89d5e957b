"""Converting a table between the interleaved and concatenated layouts.

Both layouts hold the same numbers; only the order of the columns differs, so every dot product
between two positions, and hence the Gram matrix, is the same up to rounding. The order matters when a table or
a checkpoint is moved between codebases. See the chapter "How do the pieces make the formula?".
"""

from __future__ import annotations

import numpy as np

from ._checks import check_d_model, check_layout


def permutation(d_model: int, source: str = "interleaved",
                target: str = "concatenated") -> np.ndarray:
    """Column order that turns a ``source``-layout table into a ``target``-layout one.

    ``table_target = table_source[:, permutation(d_model, source, target)]``.

    Parameters
    ----------
    d_model : int
        Width of the encoding; a positive even integer.
    source, target : {"interleaved", "concatenated"}
        The layouts to convert from and to.

    Returns
    -------
    numpy.ndarray
        Integer array of shape ``(d_model,)``.

    Examples
    --------
    >>> from posenc.layouts import permutation
    >>> permutation(6)
    array([0, 2, 4, 1, 3, 5])
    >>> permutation(6, "concatenated", "interleaved")
    array([0, 3, 1, 4, 2, 5])
    """
    d_model = check_d_model(d_model)
    source = check_layout(source, "source")
    target = check_layout(target, "target")
    inter_to_concat = np.concatenate([np.arange(0, d_model, 2), np.arange(1, d_model, 2)])
    if source == target:
        return np.arange(d_model)
    if source == "interleaved":
        return inter_to_concat
    return np.argsort(inter_to_concat)


def convert(table, source: str, target: str) -> np.ndarray:
    """Reorder the columns of ``table`` (shape ``(..., d_model)``) from one layout to another.

    Examples
    --------
    >>> from posenc.layouts import convert
    >>> from posenc import encode
    >>> t = encode(3, 8)
    >>> bool((convert(t, "interleaved", "concatenated") == encode(3, 8, layout="concatenated")).all())
    True
    """
    arr = np.asarray(table)
    if arr.ndim < 1:
        raise ValueError(f"table must have at least one dimension, got shape {arr.shape}")
    width = check_d_model(arr.shape[-1], "table.shape[-1] (d_model)")
    return arr[..., permutation(width, source, target)]
