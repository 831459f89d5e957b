"""Figure for the chapter "What happens to the encoding inside attention?": the four terms of
the score."""

from __future__ import annotations

import numpy as np

from ._svg import DIVERGING, new_figure, styled


@styled
def four_terms(terms, tokens):
    """Heatmaps of the four score terms on one shared, symmetric colour scale.

    Parameters
    ----------
    terms : dict of str to array_like
        Exactly four ``(n, n)`` matrices, e.g. from :func:`posenc.attention_terms.score_terms`.
    tokens : sequence of str
        The ``n`` tokens, used to label rows (queries) and columns (keys).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plots.attention_terms import four_terms
    >>> z = np.zeros((2, 2))
    >>> fig = four_terms({"a": z, "b": z, "c": z, "d": z}, ["x", "y"])
    >>> len(fig.axes)   # four panels and a colour bar
    5
    """
    if not isinstance(terms, dict) or len(terms) != 4:
        raise ValueError("terms must be a dict of exactly four name -> (n, n) matrices")
    tokens = list(tokens)
    n = len(tokens)
    mats = {name: np.asarray(m, dtype=float) for name, m in terms.items()}
    for name, m in mats.items():
        if m.shape != (n, n):
            raise ValueError(f"term {name!r} must have shape {(n, n)} to match tokens, got {m.shape}")
        if not np.isfinite(m).all():
            raise ValueError(f"term {name!r} must be finite")
    limit = max(float(np.abs(m).max()) for m in mats.values()) or 1.0
    fig, axes = new_figure(2, 2, figsize=(6.6, 6.2))
    image = None
    for ax, (name, m) in zip(axes.flat, mats.items()):
        image = ax.imshow(m, cmap=DIVERGING, vmin=-limit, vmax=limit)
        ax.set_title(name, fontsize=10)
        ax.set_xticks(range(n), tokens, rotation=45, ha="right", fontsize=8)
        ax.set_yticks(range(n), tokens, fontsize=8)
    for ax in axes[1]:
        ax.set_xlabel("key token j")
    for ax in axes[:, 0]:
        ax.set_ylabel("query token i")
    fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.7, label="score term")
    return fig
