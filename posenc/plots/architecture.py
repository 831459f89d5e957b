"""Where the encoding enters a Transformer: one diagram for the home page and the tour."""

from __future__ import annotations

import numpy as np

from ..encoding import encode
from ._svg import DIVERGING, new_figure, styled


def _strip(ax, values, x, y, width, height):
    """Draw one vector as a row of coloured cells (values in [-1, 1])."""
    ax.imshow(np.asarray(values)[None, :], extent=(x, x + width, y, y + height), cmap=DIVERGING,
              vmin=-1, vmax=1, aspect="auto", interpolation="nearest", zorder=2)
    ax.add_patch(_rect(x, y, width, height, fill=False, lw=0.6))


def _rect(x, y, w, h, **kw):
    from matplotlib.patches import Rectangle
    kw.setdefault("ec", "#0b0c0d")
    return Rectangle((x, y), w, h, **kw)


def _arrow(ax, x, y0, y1):
    ax.annotate("", xy=(x, y1), xytext=(x, y0),
                arrowprops={"arrowstyle": "-|>", "lw": 1.0, "color": "#0b0c0d"})


@styled
def where_it_enters(words=("the", "cat", "sat"), d_model: int = 16, *, seed: int = 0):
    """Diagram of a Transformer's input: token embedding plus the positional encoding, then the
    layers, drawn with real numbers.

    Each token's embedding (a seeded random table, scaled like a trained one to about the
    encoding's size) and the encoding's row for its position are drawn as strips of coloured
    cells; their sum is what the first attention layer sees. This is the only place the
    original Transformer uses positions. See the home page and the tour.

    Parameters
    ----------
    words : sequence of str
        The tokens, in order; position ``pos`` is each one's index (2 to 6 words).
    d_model : int
        Width of the vectors drawn (even, 4 to 64).
    seed : int
        Seed of the random token embeddings.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.architecture import where_it_enters
    >>> fig = where_it_enters(("the", "cat", "sat"), d_model=16)
    >>> [t.get_text() for t in fig.axes[0].texts if t.get_text().startswith("pos =")]
    ['pos = 0', 'pos = 1', 'pos = 2']
    >>> where_it_enters(("a",))
    Traceback (most recent call last):
    ...
    ValueError: words must hold 2 to 6 tokens, got 1
    """
    words = [str(w) for w in words]
    if not 2 <= len(words) <= 6:
        raise ValueError(f"words must hold 2 to 6 tokens, got {len(words)}")
    if isinstance(d_model, bool) or not isinstance(d_model, (int, np.integer)) \
            or d_model % 2 or not 4 <= d_model <= 64:
        raise ValueError(f"d_model must be an even integer from 4 to 64, got {d_model!r}")
    n = len(words)
    rng = np.random.default_rng(seed)
    vocab = {w: rng.normal(0.0, 0.6, d_model) for w in dict.fromkeys(words)}
    tok = np.clip(np.array([vocab[w] for w in words]), -1, 1)
    pe = encode(n, int(d_model))
    total = np.clip(tok + pe, -1, 1)

    fig, ax = new_figure(figsize=(5.0, 6.2))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 15.4)
    ax.axis("off")
    left, gap = 2.9, 0.25
    width = (10 - left - gap * (n - 1)) / n
    xs = [left + j * (width + gap) for j in range(n)]
    mid = [x + width / 2 for x in xs]

    # Bottom up: words, embeddings, + PE, sum, the layers, the output.
    for x, m, w, j in zip(xs, mid, words, range(n)):
        ax.text(m, 0.55, w, ha="center", va="center", fontsize=12, weight="bold")
        ax.text(m, 0.0, f"pos = {j}", ha="center", va="center", fontsize=10)
        _arrow(ax, m, 0.9, 1.6)
        _strip(ax, tok[j], x, 1.7, width, 0.6)
        _strip(ax, pe[j], x, 3.4, width, 0.6)
        ax.text(m, 2.85, "+", ha="center", va="center", fontsize=16, weight="bold")
        _arrow(ax, m, 4.1, 4.9)
        _strip(ax, total[j], x, 5.0, width, 0.6)
        _arrow(ax, m, 5.7, 6.5)
        _arrow(ax, m, 12.2, 13.0)
        ax.text(m, 13.45, "output", ha="center", va="center", fontsize=10)
    ax.text(0, 2.0, "token\nembedding", va="center", fontsize=10)
    ax.text(0, 3.7, "positional\nencoding\nPE(pos)", va="center", fontsize=10, weight="bold",
            color="#D55E00")
    ax.text(0, 5.3, "sum: what\nlayer 1 sees", va="center", fontsize=10)

    box = {"fc": "none", "lw": 1.0}
    ax.add_patch(_rect(left - 0.1, 6.6, 10 - left + 0.1, 5.5, ls="--", **box))
    ax.add_patch(_rect(left + 0.1, 6.9, 10 - left - 0.3, 2.0, **box))
    ax.text((left + 10) / 2, 7.9, "self-attention:\nevery token scores every token",
            ha="center", va="center", fontsize=10)
    ax.add_patch(_rect(left + 0.1, 9.6, 10 - left - 0.3, 1.6, **box))
    ax.text((left + 10) / 2, 10.4, "feed-forward, token by token", ha="center", va="center",
            fontsize=10)
    ax.text(0, 9.35, "N layers:\nno positions\ninside", va="center", fontsize=10)
    _arrow(ax, (left + 10) / 2, 8.95, 9.55)
    ax.text(5.0, 14.6, "Transformer encoder: positions added once", ha="center", va="center",
            fontsize=11, weight="bold")
    return fig
