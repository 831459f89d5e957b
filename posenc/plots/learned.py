"""Figure for the chapter "What do learned positional embeddings change?": Gram matrices."""

from __future__ import annotations

import numpy as np

from ._svg import DIVERGING, new_figure, styled


@styled
def gram_panels(panels):
    """Side-by-side heatmaps of position-by-position similarity matrices.

    Each panel is scaled to its own largest absolute value, so the *pattern* is comparable even
    when the magnitudes are not.

    Parameters
    ----------
    panels : dict of str to array_like
        Title -> square ``(n, n)`` matrix, e.g. cosine similarities between table rows.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plots.learned import gram_panels
    >>> fig = gram_panels({"a": np.eye(3), "b": np.ones((4, 4))})
    >>> [ax.get_title() for ax in fig.axes[:2]]
    ['a', 'b']
    """
    if not isinstance(panels, dict) or not panels:
        raise ValueError("panels must be a non-empty dict of title -> square matrix")
    mats = {}
    for title, m in panels.items():
        m = np.asarray(m, dtype=float)
        if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] == 0:
            raise ValueError(f"panel {title!r} must be a non-empty square matrix, got shape {m.shape}")
        if not np.isfinite(m).all():
            raise ValueError(f"panel {title!r} must be finite")
        mats[title] = m
    fig, axes = new_figure(1, len(mats), figsize=(3.3 * len(mats), 3.3), squeeze=False)
    for ax, (title, m) in zip(axes[0], mats.items()):
        limit = float(np.abs(m).max()) or 1.0
        image = ax.imshow(m, cmap=DIVERGING, vmin=-limit, vmax=limit, interpolation="nearest")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("position j")
        fig.colorbar(image, ax=ax, shrink=0.75)
    axes[0][0].set_ylabel("position i")
    return fig
