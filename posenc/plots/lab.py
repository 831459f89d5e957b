"""Figures for the chapter "What does a trained model do with the encoding?", drawn from the
lab's recorded runs (``docs/data/lab/*.json``, see :mod:`posenc.lab.record`)."""

from __future__ import annotations

import numpy as np

from ._svg import FOREGROUND, PALETTE, SEQUENTIAL, new_figure, styled


def _runs(record, labels):
    if not isinstance(record, dict) or "runs" not in record:
        raise ValueError("record must be a lab record (a dict with 'runs')")
    labels = list(labels or record["runs"])
    unknown = [l for l in labels if l not in record["runs"]]
    if unknown:
        raise ValueError(f"labels {unknown} are not runs of the record; "
                         f"it has {sorted(record['runs'])}")
    return labels


@styled
def learning_curves(record, labels=None, key: str = "curve", ylabel: str = "training loss"):
    """Training loss (or gradient norm, ``key="grad_norm"``) against step, one colour per
    label, one thin line per seed.

    Parameters
    ----------
    record : dict
        A lab record (:func:`posenc.lab.record.load`).
    labels : list of str, optional
        Which runs to draw; all by default.
    key : {"curve", "grad_norm"}
    ylabel : str

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc.plots.lab import learning_curves
    >>> rec = {"runs": {"a": [{"curve": [[1, 2.0], [2, 1.0]]}]}}
    >>> learning_curves(rec).axes[0].get_ylabel()
    'training loss'
    """
    labels = _runs(record, labels)
    fig, ax = new_figure(figsize=(6.4, 3.6))
    for colour, label in zip(PALETTE, labels):
        for i, metrics in enumerate(record["runs"][label]):
            steps, values = np.array(metrics[key]).T
            ax.plot(steps, values, color=colour, linewidth=1.2, alpha=0.8,
                    label=label if i == 0 else None)
    ax.set_yscale("log")
    ax.set_xlabel("training step")
    ax.set_ylabel(ylabel)
    ax.legend(frameon=False, fontsize=10)
    return fig


BASELINE = "order-blind baseline"


def _baseline(ax, xs, values):
    if values is not None:
        ax.plot(xs, values, color=FOREGROUND, linestyle=":", linewidth=1.6, label=BASELINE)


@styled
def accuracy_by_position(record, labels=None, length: int = 48, train_length: int = 24,
                         baseline=None):
    """Accuracy at each position of test sequences, mean over seeds with the range of seeds
    shaded, and the training length marked by a dashed line; ``baseline``, a callable of the
    position, draws the order-blind baseline (:mod:`posenc.lab.baseline`) as a dotted line.

    Examples
    --------
    >>> from posenc.plots.lab import accuracy_by_position
    >>> run = {"test": {"4": {"per_position": [None, 0.5, 1.0, 0.2]}}}
    >>> fig = accuracy_by_position({"runs": {"a": [run, run]}}, length=4, train_length=3)
    >>> fig.axes[0].get_xlabel()
    'position'
    """
    return _per_position(record, labels, length, train_length, "per_position",
                         "accuracy at the position", baseline)


@styled
def attention_back_by_position(record, labels=None, length: int = 48, train_length: int = 24,
                               k: int = 3):
    """Mean attention weight on the key ``k`` back (largest over layers and heads) at each
    position, mean over seeds with their range shaded, the training length marked.

    Examples
    --------
    >>> from posenc.plots.lab import attention_back_by_position
    >>> run = {"test": {"4": {"attention_k_back": [None, 0.5, 1.0, 0.2]}}}
    >>> fig = attention_back_by_position({"runs": {"a": [run]}}, length=4, train_length=3, k=1)
    >>> fig.axes[0].get_ylabel()
    'attention on the key 1 back'
    """
    return _per_position(record, labels, length, train_length, "attention_k_back",
                         f"attention on the key {k} back")


def _per_position(record, labels, length, train_length, key, ylabel, baseline=None):
    labels = _runs(record, labels)
    fig, ax = new_figure(figsize=(6.4, 3.6))
    pos = np.arange(length)
    answered = [p for p in pos if record["runs"][labels[0]][0]["test"][str(length)][key][p]
              is not None]
    _baseline(ax, answered, None if baseline is None else [float(baseline(p)) for p in answered])
    for colour, label in zip(PALETTE, labels):
        rows = np.array([[np.nan if v is None else v for v in m["test"][str(length)][key]]
                         for m in record["runs"][label]], dtype=float)   # (seeds, length)
        scored = ~np.isnan(rows).any(axis=0)            # positions with an answer
        pos, rows = np.arange(rows.shape[1])[scored], rows[:, scored]
        ax.plot(pos, rows.mean(axis=0), color=colour, linewidth=1.8, label=label)
        ax.fill_between(pos, rows.min(axis=0), rows.max(axis=0), color=colour, alpha=0.2,
                        linewidth=0)
    ax.axvline(train_length - 0.5, color=FOREGROUND, linestyle="--",
               linewidth=1.2)
    ax.text(train_length - 0.2, 0.5, f"trained on {train_length} positions", rotation=90,
            va="center", fontsize=10)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel("position")
    ax.set_ylabel(ylabel)
    ax.legend(frameon=False, fontsize=10, loc="lower left")
    return fig


@styled
def attention_maps(record, labels=None, train_length: int = 24):
    """The recorded attention map of each label (seed 0: the layer and head that attend most
    to the key k back), with the training length marked on both axes.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plots.lab import attention_maps
    >>> run = {"attention": {"layer": 0, "head": 1, "map": np.eye(4).tolist()}}
    >>> fig = attention_maps({"runs": {"a": [run]}}, train_length=2)
    >>> fig.axes[0].get_title()
    'a (layer 1, head 2)'
    """
    labels = [l for l in _runs(record, labels) if "attention" in record["runs"][l][0]]
    if not labels:
        raise ValueError("no run of the record holds an attention map")
    fig, axes = new_figure(1, len(labels), figsize=(3.2 * len(labels), 3.4), squeeze=False)
    for ax, label in zip(axes[0], labels):
        att = record["runs"][label][0]["attention"]
        image = ax.imshow(np.array(att["map"]), cmap=SEQUENTIAL, vmin=0, vmax=1,
                          interpolation="nearest")
        for line in (ax.axvline, ax.axhline):
            line(train_length - 0.5, color="#D55E00", linewidth=1, linestyle="--")
        ax.set_title(f"{label} (layer {att['layer'] + 1}, head {att['head'] + 1})", fontsize=10)
        ax.set_xlabel("key position")
    axes[0][0].set_ylabel("query position")
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8)
    return fig


@styled
def accuracy_by_steps(record, labels=None, length: int = 24, start: int = 0, stop=None,
                      baseline=None):
    """Accuracy over positions ``start .. stop - 1`` of the test length ``length`` after each
    recorded number of training steps (the ``checkpoints`` of a run, then its end), one colour
    per label, one line per seed; ``baseline``, a number, draws the order-blind baseline.

    Examples
    --------
    >>> from posenc.plots.lab import accuracy_by_steps
    >>> def at(a):
    ...     return {"4": {"per_position": [None, a, a, a]}}
    >>> run = {"checkpoints": {"10": at(0.2)}, "test": at(0.9), "curve": [[20, 0.1]]}
    >>> accuracy_by_steps({"runs": {"a": [run]}}, length=4).axes[0].get_xlabel()
    'training steps'
    """
    labels = _runs(record, labels)
    fig, ax = new_figure(figsize=(6.4, 3.6))
    stop = length if stop is None else stop

    def mean(test):
        values = [v for v in test[str(length)]["per_position"][start:stop] if v is not None]
        return sum(values) / len(values)

    for colour, label in zip(PALETTE, labels):
        for i, m in enumerate(record["runs"][label]):
            points = sorted((int(step), mean(test))
                            for step, test in m.get("checkpoints", {}).items())
            points.append((m["curve"][-1][0], mean(m["test"])))
            steps, acc = zip(*points)
            ax.plot(steps, acc, "o-", color=colour, linewidth=1.2, markersize=3, alpha=0.8,
                    label=label if i == 0 else None)
    if baseline is not None:
        ax.axhline(float(baseline), color=FOREGROUND, linestyle=":", linewidth=1.6,
                   label=BASELINE)
    ax.set_xscale("log")
    ax.set_xlabel("training steps")
    ax.set_ylabel("accuracy")
    ax.set_ylim(-0.02, 1.05)
    ax.legend(frameon=False, fontsize=9)
    return fig


@styled
def accuracy_by_length(record, labels=None, trained=(16, 32), baseline=None):
    """Accuracy against test length, one colour per label, one dot per seed, trained lengths
    marked; ``baseline``, a callable of the length, draws the order-blind baseline dotted.

    Examples
    --------
    >>> from posenc.plots.lab import accuracy_by_length
    >>> runs = {"a": [{"test": {"8": {"accuracy": 0.9}, "16": {"accuracy": 1.0}}}]}
    >>> accuracy_by_length({"runs": runs}, trained=(16,)).axes[0].get_xlabel()
    'test length'
    """
    labels = _runs(record, labels)
    fig, ax = new_figure(figsize=(6.4, 3.6))
    for colour, label in zip(PALETTE, labels):
        runs = record["runs"][label]
        lengths = sorted(int(L) for L in runs[0]["test"])
        acc = np.array([[m["test"][str(L)]["accuracy"] for L in lengths] for m in runs])
        ax.plot(lengths, acc.mean(axis=0), color=colour, linewidth=1.8, label=label)
        for row in acc:
            ax.plot(lengths, row, "o", color=colour, markersize=3, alpha=0.7)
    if baseline is not None:
        lengths = sorted(int(L) for L in record["runs"][labels[0]][0]["test"])
        _baseline(ax, lengths, [float(baseline(L)) for L in lengths])
    for L in trained:
        ax.axvline(L, color=FOREGROUND, linestyle="--", linewidth=1)
    ax.set_xlabel("test length")
    ax.set_ylabel("accuracy")
    ax.set_ylim(-0.02, 1.05)
    ax.legend(frameon=False, fontsize=10)
    return fig
