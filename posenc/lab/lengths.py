"""Length generalization as the papers measure it (chapter "What does a trained model do with the
encoding?", issue 39): a start symbol as an axis, per-position accuracy out to 8x the training
length, and a task whose relevant distance grows with position.

This module holds its own runner, so that the lab's older records (which hash ``model.py``,
``tasks.py`` and ``run.py``) stay current: only the experiments that use it hash it too.

- ``bos=True`` puts one fixed start symbol (id ``vocab``, or ``vocab + 1`` for ``"reverse"``)
  in front of every sequence. The positions scored and the per-position lists are those of the
  symbols after it, so a record with and without it lines up position for position.
- ``"kback"`` is :func:`posenc.lab.tasks.batch`'s task. Without a start symbol a run here is the
  run of :func:`posenc.lab.run.run` for the same config, step for step (the model's weights, the
  batches and the evaluation sets are drawn the same way).
- ``"reverse"``: ``n`` symbols, a separator (id ``vocab``), then the same symbols in reverse
  order, teacher-forced as a decoder-only model is trained: the answer at output ``j`` is input
  symbol ``n - 1 - j``, which sits ``2 j + 1`` positions back, so the distance the model must
  look back grows with the position. It is the "reverse" task of Kazemnejad et al. (2023) as
  their code builds it (github.com/McGill-NLP/length-generalization, commit 40f8a44,
  ``scripts/dataset_builders/make_reverse_dataset.py``: uniformly drawn symbols, a separator,
  the symbols reversed), with 16 symbols where they draw from 100. The lengths in
  ``train_lengths`` and ``test_lengths`` are ``n``, the number of input symbols. Every output
  right under teacher forcing is the same event as greedy decoding reproducing the whole
  answer (decoding first goes wrong where a teacher-forced prediction is wrong), so the share
  of sequences with every output right (``"sequences"``) is their exact-match accuracy.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import torch
from torch import nn

from . import tasks
from .baseline import _expected_max_count
from .model import TinyTransformer
from .run import EVAL_SEED_OFFSET, Config

TASKS = ("kback", "reverse")
IGNORE = tasks.IGNORE
EVAL_POSITIONS = 256 * 48      # sequences x positions evaluated in one forward pass


@dataclass(frozen=True)
class LengthConfig(Config):
    """A :class:`~posenc.lab.run.Config` with a start-symbol switch and the ``"reverse"`` task.

    Examples
    --------
    >>> from posenc.lab.lengths import LengthConfig
    >>> LengthConfig(bos=True).bos, LengthConfig(task="reverse").task
    (True, 'reverse')
    """

    bos: bool = False

    def __post_init__(self):
        if not isinstance(self.task, str) or self.task not in TASKS:
            raise ValueError(f"task must be one of {TASKS}, got {self.task!r}")
        if not isinstance(self.bos, bool):
            raise ValueError(f"bos must be True or False, got {self.bos!r}")
        if self.task == "reverse" and self.scheme == "learned":
            raise ValueError("the learned table is not run on 'reverse' (no rows past L)")
        shared = {f.name: getattr(self, f.name) for f in dataclasses.fields(Config)}
        Config(**{**shared, "task": "kback"})           # the shared fields' own checks

    def train_run(self, progress=None) -> dict:
        """:func:`run` of this config (the lab's runner calls it).

        Examples
        --------
        >>> from posenc.lab.lengths import LengthConfig
        >>> m = LengthConfig(steps=2, log_every=1, eval_size=4, test_lengths=(8,)).train_run()
        >>> [step for step, _ in m["curve"]]
        [1, 2]
        """
        return run(self, progress)


def input_vocab(config: LengthConfig) -> int:
    """Input ids: the symbols, the separator of "reverse", the start symbol.

    Examples
    --------
    >>> from posenc.lab.lengths import LengthConfig, input_vocab
    >>> input_vocab(LengthConfig()), input_vocab(LengthConfig(bos=True, task="reverse"))
    (16, 18)
    """
    return config.vocab + (config.task == "reverse") + config.bos


def batch(config: LengthConfig, size: int, length: int, generator=None):
    """Symbols and targets of one batch: ``length`` symbols (kback) or ``length`` input symbols
    (reverse), with the start symbol in front when ``config.bos``.

    Examples
    --------
    >>> import torch
    >>> from posenc.lab.lengths import LengthConfig, batch
    >>> x, y = batch(LengthConfig(task="reverse", bos=True), 1, 3,
    ...              torch.Generator().manual_seed(0))
    >>> x.shape[1], y[0, :4].tolist() == [-100] * 4, y[0, 4:].tolist() == x[0, 1:4].flip(0).tolist()
    (7, True, True)
    """
    if config.task == "kback":
        x, y = tasks.batch("kback", size, length, vocab=config.vocab, k=config.k,
                           generator=generator)
    else:
        if isinstance(length, bool) or not isinstance(length, int) or length <= 0:
            raise ValueError(f"length must be a positive integer, got {length!r}")
        source = torch.randint(0, config.vocab, (size, length), generator=generator)
        answer = source.flip(1)
        sep = torch.full((size, 1), config.vocab)
        x = torch.cat([source, sep, answer[:, :-1]], dim=1)          # (size, 2 * length)
        y = torch.cat([torch.full_like(source, IGNORE), answer], dim=1)
    if config.bos:
        start = torch.full((size, 1), input_vocab(config) - 1)
        x = torch.cat([start, x], dim=1)
        y = torch.cat([torch.full((size, 1), IGNORE), y], dim=1)
    return x, y


def build(config: LengthConfig) -> TinyTransformer:
    """The untrained model (weights from ``torch.manual_seed(config.seed)``): one input id per
    symbol, the separator and the start symbol it uses.

    Examples
    --------
    >>> from posenc.lab.lengths import LengthConfig, build
    >>> build(LengthConfig(task="reverse", bos=True)).token.num_embeddings
    18
    """
    torch.manual_seed(config.seed)
    return TinyTransformer(
        input_vocab(config), config.vocab, config.scheme, d_model=config.d_model,
        n_heads=config.n_heads, n_layers=config.n_layers, causal=config.causal,
        max_len=config.max_len, d_pos=config.d_pos, scale_embedding=config.scale_embedding,
        norm=config.norm, init=config.init)


def evaluate(model: TinyTransformer, config: LengthConfig, length: int) -> dict:
    """Accuracy at one test length on the seed's evaluation set: overall, per scored position
    (kback: per symbol position, ``None`` before ``k``; reverse: per output position), and
    for kback the mean attention on the key ``k`` back (largest over layers and heads); for
    reverse the share of sequences with every output right.

    Examples
    --------
    >>> from posenc.lab.lengths import LengthConfig, build, evaluate
    >>> config = LengthConfig(eval_size=4, bos=True)
    >>> len(evaluate(build(config), config, 10)["per_position"])
    10
    """
    generator = torch.Generator().manual_seed(config.seed + EVAL_SEED_OFFSET + length)
    x, y = batch(config, config.eval_size, length, generator)
    chunk = max(1, min(config.eval_size, EVAL_POSITIONS // x.shape[1]))
    right, attention = [], None
    with torch.no_grad():
        for start in range(0, config.eval_size, chunk):
            logits, maps = model(x[start:start + chunk], return_attention=True)
            right.append(logits.argmax(-1) == y[start:start + chunk])
            if config.task == "kback":
                total = torch.stack([layer.sum(dim=0) for layer in maps])
                attention = total if attention is None else attention + total
    right = torch.cat(right).float()
    scored = y != IGNORE
    offset = int(config.bos) + (length if config.task == "reverse" else 0)
    per_position = [None if not scored[0, p] else round(float(right[:, p].mean()), 4)
                    for p in range(offset, x.shape[1])]
    out = {"accuracy": round(float(right[scored].mean()), 4), "per_position": per_position}
    if config.task == "reverse":
        whole = (right * scored).sum(dim=1) == scored.sum(dim=1)
        out["sequences"] = round(float(whole.float().mean()), 4)
        return out
    weights = attention / config.eval_size                # (layers, heads, seq, seq)
    b, k = int(config.bos), config.k
    out["attention_k_back"] = [None if p < k else round(float(weights[:, :, b + p, b + p - k].max()), 4)
                               for p in range(length)]
    return out


def _loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                       ignore_index=IGNORE)


def train(config: LengthConfig, progress=None) -> tuple[TinyTransformer, dict]:
    """Train as :func:`posenc.lab.run.train` does, on this module's batches.

    Examples
    --------
    >>> from posenc.lab.lengths import LengthConfig, train
    >>> _, m = train(LengthConfig(task="reverse", steps=2, log_every=1, eval_size=4,
    ...                           train_lengths=(4,), test_lengths=(8,)))
    >>> len(m["test"]["8"]["per_position"]), "sequences" in m["test"]["8"]
    (8, True)
    """
    model = build(config)
    params = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.0)
    generator = torch.Generator().manual_seed(config.seed)
    curve, grad_curve, window, grad_window, checkpoints = [], [], [], [], {}
    grad_max, started = 0.0, time.perf_counter()
    for step in range(1, config.steps + 1):
        pick = int(torch.randint(len(config.train_lengths), (1,), generator=generator))
        x, y = batch(config, config.batch, config.train_lengths[pick], generator)
        loss = _loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        grad = float(torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()
                                    if p.grad is not None)))
        optimizer.step()
        window.append(float(loss.detach()))
        grad_window.append(grad)
        grad_max = max(grad_max, grad)
        if step % config.log_every == 0 or step == config.steps:
            curve.append([step, round(sum(window) / len(window), 5)])
            grad_curve.append([step, round(sum(grad_window) / len(grad_window), 5)])
            window, grad_window = [], []
        if step in config.eval_at:
            checkpoints[str(step)] = {str(n): evaluate(model, config, n)
                                      for n in config.test_lengths}
        if progress is not None:
            progress(1)
    model.eval()
    metrics = {"params": params, "curve": curve, "grad_norm": grad_curve,
               "grad_norm_max": round(grad_max, 5), "loss_final": curve[-1][1],
               "test": {str(n): evaluate(model, config, n) for n in config.test_lengths},
               "seconds": round(time.perf_counter() - started, 2)}
    if checkpoints:
        metrics["checkpoints"] = checkpoints
    return model, metrics


def run(config: LengthConfig, progress=None) -> dict:
    """Train one model on one thread and return its metrics (:func:`train`).

    Examples
    --------
    >>> from posenc.lab.lengths import LengthConfig, run
    >>> m = run(LengthConfig(bos=True, steps=2, log_every=1, eval_size=4, test_lengths=(8,)))
    >>> len(m["test"]["8"]["per_position"]), m["test"]["8"]["per_position"][:3]
    (8, [None, None, None])
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return train(config, progress)[1]
    finally:
        torch.set_num_threads(threads)


def reverse_baseline(j: int, n: int, vocab: int = 16) -> float:
    """The order-blind baseline of "reverse" at output ``j`` of ``n``: a model that knows which
    input symbols are still to come (a multiset of ``n - j``) but not their order guesses the
    most frequent, right with probability ``E[largest count] / (n - j)``, exactly.

    Examples
    --------
    >>> from posenc.lab.lengths import reverse_baseline
    >>> reverse_baseline(3, 4), round(reverse_baseline(0, 4), 4)
    (1.0, 0.3372)
    """
    if not 0 <= j < n:
        raise ValueError(f"j must be in 0 .. n - 1 = {n - 1}, got {j}")
    return float(_expected_max_count(n - j, vocab) / (n - j))


def mean_reverse_baseline(start: int, stop: int, n: int, vocab: int = 16) -> float:
    """:func:`reverse_baseline` averaged over outputs ``start .. stop - 1`` of ``n``.

    Examples
    --------
    >>> from posenc.lab.lengths import mean_reverse_baseline
    >>> round(mean_reverse_baseline(0, 4, 4), 4)
    0.5657
    """
    return sum(reverse_baseline(j, n, vocab) for j in range(start, stop)) / (stop - start)


def expected_max_counts(n_max: int, vocab: int = 16) -> list:
    """E[largest count] of ``n`` symbols drawn uniformly from ``vocab``, for every ``n`` in
    ``0 .. n_max``, in float64. The number of sequences whose counts all stay at or below ``m``
    is ``n!`` times the coefficient of ``x^n`` in ``(sum_{j <= m} x^j / j!)^vocab`` (the
    counting of :mod:`posenc.lab.baseline`, written as a product of series), so one ``m`` gives
    every ``n`` at once; this keeps the 8x lengths fast.

    Examples
    --------
    >>> from posenc.lab.baseline import _expected_max_count
    >>> from posenc.lab.lengths import expected_max_counts
    >>> abs(expected_max_counts(20)[20] - float(_expected_max_count(20, 16))) < 1e-9
    True
    """
    import numpy as np
    from math import lgamma, log

    t = np.arange(n_max + 1)
    scale = np.array([lgamma(i + 1) for i in t]) - t * log(vocab)      # log(n! / vocab^n)
    total = np.zeros(n_max + 1)
    for m in range(n_max):
        series = np.array([np.exp(-lgamma(j + 1)) if j <= m else 0.0 for j in t])
        power = series.copy()
        for _ in range(vocab - 1):
            power = np.convolve(power, series)[:n_max + 1]
        at_most_m = np.minimum(np.exp(np.log(np.maximum(power, 1e-300)) + scale), 1.0)
        total += 1.0 - at_most_m
    return [float(v) for v in total]


def mean_kback_float(start: int, stop: int, vocab: int = 16, k: int = 3) -> float:
    """The order-blind baseline of kback averaged over positions ``max(start, k) .. stop - 1``
    (:func:`posenc.lab.baseline.mean_kback`, in float64).

    Examples
    --------
    >>> from posenc.lab.baseline import mean_kback
    >>> from posenc.lab.lengths import mean_kback_float
    >>> abs(mean_kback_float(24, 48) - mean_kback(24, 48)) < 1e-12
    True
    """
    start = max(start, k)
    counts = expected_max_counts(stop - 1, vocab)
    return sum(counts[p] / p for p in range(start, stop)) / (stop - start)


__all__ = ["TASKS", "LengthConfig", "batch", "build", "evaluate", "train", "run",
           "input_vocab", "reverse_baseline", "mean_reverse_baseline",
           "expected_max_counts", "mean_kback_float"]
