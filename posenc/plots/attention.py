"""Figures for the chapter "Why does a Transformer need positions?"."""

from __future__ import annotations

import numpy as np

from ._svg import SEQUENTIAL, new_figure, styled


@styled
def attention_weights(panels):
    """Side-by-side heatmaps of attention weights, one panel per sentence.

    Parameters
    ----------
    panels : sequence of (title, tokens, weights)
        ``weights`` is a ``(len(tokens), len(tokens))`` array with rows summing to 1:
        row = the query token, column = the token it attends to.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plots.attention import attention_weights
    >>> w = np.full((2, 2), 0.5)
    >>> fig = attention_weights([("a", ["x", "y"], w)])
    >>> len(fig.axes)   # one panel and its colour bar
    2
    """
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one (title, tokens, weights) triple")
    fig, axes = new_figure(1, len(panels), figsize=(3.2 * len(panels) + 0.8, 3.2), squeeze=False)
    image = None
    for ax, (title, tokens, weights) in zip(axes[0], panels):
        weights = np.asarray(weights, dtype=float)
        if weights.shape != (len(tokens), len(tokens)):
            raise ValueError(
                f"weights for {title!r} must have shape {(len(tokens), len(tokens))}, "
                f"got {weights.shape}"
            )
        image = ax.imshow(weights, cmap=SEQUENTIAL, vmin=0.0, vmax=1.0)
        ax.set_xticks(range(len(tokens)), tokens, rotation=45, ha="right")
        ax.set_yticks(range(len(tokens)), tokens)
        ax.set_xlabel("attends to (key)")
        ax.set_title(title)
        for (r, c), value in np.ndenumerate(weights):
            ax.text(c, r, f"{value:.2f}", ha="center", va="center", fontsize=7,
                    color="white" if value < 0.55 else "black")
    axes[0][0].set_ylabel("query token")
    fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label="attention weight")
    return fig
