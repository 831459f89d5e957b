"""One training run of the lab: a :class:`Config` goes in, metrics come out (chapter "What does a
trained model do with the encoding?").

The run is deterministic for a given ``seed`` on one thread: the model's initial weights come
from ``torch.manual_seed(seed)`` and every batch from a ``torch.Generator`` seeded with ``seed``;
the evaluation sets from a second generator, so every scheme of one seed is tested on the same
sequences. :func:`run` computes on one thread and restores the thread count afterwards.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import time
from dataclasses import dataclass, field

import torch
from torch import nn

from . import tasks
from .model import INITS, NORMS, TinyTransformer, check_scheme

EVAL_SEED_OFFSET = 1_000_003


@dataclass(frozen=True)
class Config:
    """Everything that decides a run.

    Examples
    --------
    >>> from posenc.lab.run import Config
    >>> Config(scheme="alibi", steps=10).train_lengths
    (24,)
    """

    task: str = "kback"
    scheme: str = "sinusoid"
    causal: bool = True
    k: int = 3
    vocab: int = 16
    d_model: int = 32
    n_heads: int = 2
    n_layers: int = 2
    d_pos: int = 16
    max_len: int = 64
    scale_embedding: bool = False
    norm: str = "pre"
    init: str = "normal"
    train_lengths: tuple = (24,)
    test_lengths: tuple = (24, 48)
    steps: int = 600
    batch: int = 32
    lr: float = 3e-3
    eval_size: int = 256
    log_every: int = 25
    seed: int = 0
    attention_length: int = 0     # record mean attention maps at this test length (0: none)
    eval_at: tuple = ()           # also evaluate after these steps (before ``steps``)

    def __post_init__(self):
        tasks.check_task(self.task)
        check_scheme(self.scheme)
        for name in ("k", "vocab", "d_model", "n_heads", "n_layers", "d_pos", "max_len", "steps",
                     "batch", "eval_size", "log_every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        for name in ("train_lengths", "test_lengths"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not value or any(
                    isinstance(v, bool) or not isinstance(v, numbers.Integral) or v <= 0
                    for v in value):
                raise ValueError(f"{name} must be a non-empty tuple of positive integers, "
                                 f"got {value!r}")
        if not isinstance(self.eval_at, tuple) or any(
                isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 0 < v < self.steps
                for v in self.eval_at):
            raise ValueError(f"eval_at must be a tuple of steps between 1 and steps - 1, "
                             f"got {self.eval_at!r}")
        if self.norm not in NORMS:
            raise ValueError(f"norm must be one of {NORMS}, got {self.norm!r}")
        if self.init not in INITS:
            raise ValueError(f"init must be one of {INITS}, got {self.init!r}")
        if not isinstance(self.lr, numbers.Real) or not math.isfinite(self.lr) or self.lr <= 0:
            raise ValueError(f"lr must be a positive finite number, got {self.lr!r}")
        if self.scheme == "learned":
            longest = max(self.train_lengths + self.test_lengths)
            if longest > self.max_len:
                raise ValueError(f"max_len={self.max_len} is shorter than the longest length "
                                 f"{longest} in train_lengths/test_lengths")

    def as_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v)
                for k, v in dataclasses.asdict(self).items()}


def build(config: Config) -> TinyTransformer:
    """The untrained model of a config (weights from ``torch.manual_seed(config.seed)``).

    Examples
    --------
    >>> from posenc.lab.run import Config, build
    >>> build(Config(scheme="learned")).pos_table.weight.shape      # max_len rows
    torch.Size([64, 32])
    """
    torch.manual_seed(config.seed)
    return TinyTransformer(
        config.vocab, tasks.n_outputs(config.task, config.vocab), config.scheme,
        d_model=config.d_model, n_heads=config.n_heads, n_layers=config.n_layers,
        causal=config.causal, max_len=config.max_len, d_pos=config.d_pos,
        readout="token" if config.task == "kback" else "mean",
        scale_embedding=config.scale_embedding, norm=config.norm, init=config.init)


def _loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                       ignore_index=tasks.IGNORE)


def evaluate(model: TinyTransformer, config: Config, length: int) -> dict:
    """Accuracy at one test length, overall and per position (kback), on the seed's eval set.

    Examples
    --------
    >>> from posenc.lab.run import Config, build, evaluate
    >>> config = Config(eval_size=4)
    >>> len(evaluate(build(config), config, 10)["per_position"])
    10
    """
    generator = torch.Generator().manual_seed(config.seed + EVAL_SEED_OFFSET + length)
    x, y = tasks.batch(config.task, config.eval_size, length, vocab=config.vocab, k=config.k,
                       generator=generator)
    with torch.no_grad():
        logits, maps = model(x, return_attention=True)
    right = (logits.argmax(-1) == y).float()
    if config.task != "kback":
        return {"accuracy": round(float(right.mean()), 4)}
    scored = y != tasks.IGNORE
    per_position = [None if not scored[0, p] else round(float(right[:, p].mean()), 4)
                    for p in range(length)]
    # weight on the key k back, averaged over the eval set, largest over layers and heads
    weights = torch.stack([layer.mean(dim=0) for layer in maps])   # (layers, heads, seq, seq)
    back = [None if p < config.k else round(float(weights[:, :, p, p - config.k].max()), 4)
            for p in range(length)]
    return {"accuracy": round(float(right[scored].mean()), 4), "per_position": per_position,
            "attention_k_back": back}


def train(config: Config, progress=None) -> tuple[TinyTransformer, dict]:
    """Train a model; return it with its metrics (see :func:`run`). ``progress``, if given, is
    called with 1 after every step.

    Examples
    --------
    >>> from posenc.lab.run import Config, train
    >>> model, metrics = train(Config(steps=2, log_every=1, eval_size=4, test_lengths=(8,)))
    >>> len(metrics["grad_norm"])
    2
    """
    model = build(config)
    params = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.0)
    generator = torch.Generator().manual_seed(config.seed)
    curve, grad_curve, window, grad_window, checkpoints = [], [], [], [], {}
    grad_max, loss_max, started = 0.0, 0.0, time.perf_counter()
    for step in range(1, config.steps + 1):
        pick = int(torch.randint(len(config.train_lengths), (1,), generator=generator))
        x, y = tasks.batch(config.task, config.batch, config.train_lengths[pick],
                           vocab=config.vocab, k=config.k, generator=generator)
        loss = _loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        grad = float(torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()
                                    if p.grad is not None)))
        optimizer.step()
        window.append(float(loss.detach()))
        grad_window.append(grad)
        grad_max = max(grad_max, grad)
        if step > config.steps // 10:
            loss_max = max(loss_max, float(loss.detach()))
        if step % config.log_every == 0 or step == config.steps:
            curve.append([step, round(sum(window) / len(window), 5)])
            grad_curve.append([step, round(sum(grad_window) / len(grad_window), 5)])
            window, grad_window = [], []
        if step in config.eval_at:     # no randomness drawn: training continues unchanged
            with torch.no_grad():
                checkpoints[str(step)] = {str(length): evaluate(model, config, length)
                                          for length in config.test_lengths}
        if progress is not None:
            progress(1)
    model.eval()
    with torch.no_grad():
        x, _ = tasks.batch(config.task, config.eval_size, config.train_lengths[-1],
                           vocab=config.vocab, k=config.k,
                           generator=torch.Generator().manual_seed(config.seed))
        embedded = model.embed(x)
    metrics = {
        "params": params,
        "curve": curve,
        "grad_norm": grad_curve,
        "grad_norm_max": round(grad_max, 5),
        "loss_final": curve[-1][1],
        "loss_max_late": round(loss_max, 5),
        "input_rms": round(float(embedded.pow(2).mean().sqrt()), 5),
        "test": {str(length): evaluate(model, config, length) for length in config.test_lengths},
        "seconds": round(time.perf_counter() - started, 2),
    }
    if checkpoints:
        metrics["checkpoints"] = checkpoints
    if config.attention_length:
        metrics["attention"] = attention(model, config, config.attention_length)
    return model, metrics


def attention(model: TinyTransformer, config: Config, length: int) -> dict:
    """The mean attention map over the seed's eval set of the layer and head that put the most
    weight on the key ``k`` back at trained positions: ``{"layer", "head", "map"}``.

    Examples
    --------
    >>> from posenc.lab.run import Config, attention, build
    >>> att = attention(build(Config()), Config(eval_size=4), 6)
    >>> len(att["map"]), sorted(att)
    (6, ['head', 'layer', 'map'])
    """
    generator = torch.Generator().manual_seed(config.seed + EVAL_SEED_OFFSET + length)
    x, _ = tasks.batch(config.task, config.eval_size, length, vocab=config.vocab, k=config.k,
                       generator=generator)
    with torch.no_grad():
        _, maps = model(x, return_attention=True)
    weights = torch.stack([layer.mean(dim=0) for layer in maps])   # (layers, heads, seq, seq)
    trained = range(config.k, min(max(config.train_lengths), length))
    back = torch.stack([weights[:, :, p, p - config.k] for p in trained]).mean(dim=0)
    layer, head = divmod(int(back.argmax()), weights.shape[1])
    return {"layer": layer, "head": head,
            "map": [[round(float(w), 3) for w in row] for row in weights[layer, head]]}


def run(config: Config, progress=None) -> dict:
    """Train one model on one thread and return its metrics.

    Returns
    -------
    dict
        ``curve`` and ``grad_norm`` ([step, mean over the last ``log_every`` steps]),
        ``grad_norm_max``, ``loss_final``, ``loss_max_late`` (largest batch loss after the first
        tenth of training), ``input_rms`` (size of the input to the first block), ``params``,
        ``test`` ({length: {"accuracy", "per_position", "attention_k_back"}}: for kback the
        accuracy at each position, and the mean attention weight on the key ``k`` back, the
        largest over layers and heads), ``seconds``; with
        ``attention_length``, ``attention``; with ``eval_at``, ``checkpoints``
        ({step: the ``test`` metrics after that step}).

    Examples
    --------
    >>> from posenc.lab.run import Config, run
    >>> m = run(Config(steps=4, log_every=2, eval_size=8, test_lengths=(24,)))
    >>> [step for step, _ in m["curve"]], sorted(m["test"])
    ([2, 4], ['24'])
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return train(config, progress)[1]
    finally:
        torch.set_num_threads(threads)
