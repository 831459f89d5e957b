"""The figure of the lab's language model (chapter "What does a trained model do with the
encoding?", section "A language model on real text"), drawn from its record
(``docs/data/lab/lm.json``, see :mod:`posenc.lab.lm_record`)."""

from __future__ import annotations

import math

import numpy as np

from ._svg import FOREGROUND, PALETTE, new_figure, styled

# Five schemes told apart by colour and by dash: the palette without its sky blue (too close to
# its blue for the sinusoid and the learned table side by side) and yellow (too pale on white).
COLOURS = [PALETTE[k] for k in (0, 1, 2, 3, 5)]
DASHES = ["-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2))]


@styled
def loss_by_position(record, labels=None, bin_width: int = 16):
    """Left: loss (nats per byte) at each position of the held-out windows, averaged over bins
    of ``bin_width`` positions, mean over seeds with the seeds' range shaded, the training length
    marked by a dashed line. Right: perplexity (``exp`` of the loss averaged over whole
    windows) against the window length, as Press et al. (2022) draw it in their Figure 1, one
    thin line per seed.

    Parameters
    ----------
    record : dict
        The language model's record (:func:`posenc.lab.lm_record.load`).
    labels : list of str, optional
        Which schemes to draw; all by default.
    bin_width : int
        Positions averaged into one point of the left panel.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.lm import loss_by_position
    >>> run = {"per_position": [2.0] * 8, "window_loss": {"2": 2.0, "4": 2.1, "8": 2.2}}
    >>> rec = {"lm_configs": {"a": {"length": 2}}, "runs": {"a": [run, run]}}
    >>> [ax.get_xlabel() for ax in loss_by_position(rec, bin_width=2).axes]
    ['position in the window', 'window length (bytes)']
    """
    if not isinstance(record, dict) or "runs" not in record or "lm_configs" not in record:
        raise ValueError("record must be the language model's record (with 'runs', 'lm_configs')")
    if isinstance(bin_width, bool) or not isinstance(bin_width, int) or bin_width <= 0:
        raise ValueError(f"bin_width must be a positive integer, got {bin_width!r}")
    labels = list(labels or record["runs"])
    unknown = [label for label in labels if label not in record["runs"]]
    if unknown:
        raise ValueError(f"labels {unknown} are not runs of the record; "
                         f"it has {sorted(record['runs'])}")
    length = record["lm_configs"][labels[0]]["length"]
    fig, (left, right) = new_figure(1, 2, figsize=(9.6, 3.8), width_ratios=(2, 1))
    if len(labels) > len(COLOURS):
        raise ValueError(f"at most {len(COLOURS)} labels can be told apart, got {len(labels)}")
    for colour, dashes, label in zip(COLOURS, DASHES, labels):
        runs = record["runs"][label]
        rows = np.array([m["per_position"] for m in runs], dtype=float)     # (seeds, positions)
        bins = rows.shape[1] // bin_width
        binned = rows[:, :bins * bin_width].reshape(len(runs), bins, bin_width).mean(axis=2)
        centre = np.arange(bins) * bin_width + (bin_width - 1) / 2
        left.plot(centre, binned.mean(axis=0), color=colour, linewidth=1.8, label=label,
                  linestyle=dashes)
        left.fill_between(centre, binned.min(axis=0), binned.max(axis=0), color=colour,
                          alpha=0.2, linewidth=0)
        for m in runs:
            widths = sorted(int(w) for w in m["window_loss"])
            right.plot(widths, [math.exp(m["window_loss"][str(w)]) for w in widths],
                       color=colour, linewidth=1.2, marker="o", markersize=3, alpha=0.8,
                       linestyle=dashes)
    left.axvline(length - 0.5, color=FOREGROUND, linestyle="--", linewidth=1.2)
    left.text(length + 4, 0.97, f"trained on {length}", rotation=90, va="top", fontsize=10,
              transform=left.get_xaxis_transform())
    left.set_xlabel("position in the window")
    left.set_ylabel("loss (nats per byte)")
    left.legend(frameon=False, fontsize=10, loc="lower center", bbox_to_anchor=(0.5, 1.0),
                ncol=len(labels))
    right.axvline(length, color=FOREGROUND, linestyle="--", linewidth=1.2)
    right.set_xscale("log", base=2)
    widths = sorted({int(w) for label in labels for m in record["runs"][label]
                     for w in m["window_loss"]})
    right.set_xticks(widths, [str(w) for w in widths])
    right.minorticks_off()
    right.set_xlabel("window length (bytes)")
    right.set_ylabel("perplexity over the window")
    return fig
