"""Figures for the chapter "Does it keep its promises?": similarity and distance by offset."""

from __future__ import annotations

import numbers

import numpy as np

from .._checks import check_base, check_d_model
from ..encoding import BASE, encode
from ..similarity import cosine_similarity_matrix, offset_cosine
from ._svg import DIVERGING, PALETTE, new_figure, styled


def _count(n, name: str, minimum: int) -> int:
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {n!r}")
    if n < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {n}")
    return int(n)


@styled
def similarity_vs_offset(d_models=(64, 128, 512), max_offset: int = 200, base: float = BASE):
    """Cosine similarity ``sum_i cos(omega_i k) / (d_model/2)`` against the offset ``k``.

    The same curve is the dot product divided by ``d_model / 2``, so widths can share an axis.

    Parameters
    ----------
    d_models : sequence of int
    max_offset : int, default 200
        Offsets ``0 .. max_offset`` are drawn (at integers, the only offsets that occur).
    base : float, default 10000

    Examples
    --------
    >>> from posenc.plots.similarity import similarity_vs_offset
    >>> fig = similarity_vs_offset((16,), max_offset=20)
    >>> fig.axes[0].get_xlabel()
    'offset k (positions)'
    """
    d_models = [check_d_model(d, "d_models entry") for d in d_models]
    if not d_models:
        raise ValueError("d_models must hold at least one width")
    max_offset = _count(max_offset, "max_offset", 1)
    base = check_base(base)
    k = np.arange(max_offset + 1)
    fig, ax = new_figure(figsize=(6.4, 3.6))
    for colour, d in zip(PALETTE, d_models):
        ax.plot(k, offset_cosine(k, d, base), color=colour, lw=1.2, label=f"d_model = {d}")
    ax.axhline(0.0, color="0.7", lw=0.6)
    ax.set_xlabel("offset k (positions)")
    ax.set_ylabel("cosine similarity of PE(p), PE(p + k)")
    ax.legend()
    return fig


@styled
def similarity_matrix(table, *, first_pos: int = 0, title: str | None = None):
    """Heatmap of the cosine similarity between every pair of rows of ``table``.

    Examples
    --------
    >>> from posenc.plots.similarity import similarity_matrix
    >>> from posenc.encoding import encode
    >>> fig = similarity_matrix(encode(10, 16))
    >>> fig.axes[0].get_xlabel()
    'position'
    """
    sim = cosine_similarity_matrix(table)
    n = sim.shape[0]
    fig, ax = new_figure(figsize=(5.0, 4.2))
    ext = (first_pos - 0.5, first_pos + n - 0.5, first_pos + n - 0.5, first_pos - 0.5)
    image = ax.imshow(sim, cmap=DIVERGING, vmin=-1.0, vmax=1.0, extent=ext,
                      interpolation="nearest")
    ax.set_xlabel("position")
    ax.set_ylabel("position")
    if title:
        ax.set_title(title)
    fig.colorbar(image, ax=ax, label="cosine similarity")
    return fig


@styled
def distance_from_origin(d_model: int = 128, n_positions: int = 2000, base: float = BASE):
    """Distance ``|PE(p) - PE(0)|`` against ``p``, with the largest possible distance marked.

    Examples
    --------
    >>> from posenc.plots.similarity import distance_from_origin
    >>> fig = distance_from_origin(16, 50)
    >>> fig.axes[0].get_ylabel()
    'distance to PE(0)'
    """
    d_model = check_d_model(d_model)
    n_positions = _count(n_positions, "n_positions", 2)
    base = check_base(base)
    table = encode(n_positions, d_model, base=base)
    dist = np.linalg.norm(table - table[0], axis=1)
    fig, ax = new_figure(figsize=(6.4, 3.4))
    ax.plot(np.arange(n_positions), dist, color=PALETTE[0], lw=0.8)
    ax.axhline(np.sqrt(2 * d_model), color="0.5", ls="--", lw=1.0)
    ax.text(0.0, np.sqrt(2 * d_model) * 0.97, "largest possible: sqrt(2 d_model)", va="top",
            fontsize=8, color="0.4")
    ax.set_xlabel("position p")
    ax.set_ylabel("distance to PE(0)")
    ax.set_ylim(0, np.sqrt(2 * d_model) * 1.05)
    ax.set_title(f"d_model = {d_model}")
    return fig
