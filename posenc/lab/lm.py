"""A byte-level language model on real text, past its training length (chapter "What does a
trained model do with the encoding?", section "A language model on real text").

The lab's :class:`~posenc.lab.model.TinyTransformer` (causal, one output per position) reads
the vendored tragedies (:mod:`posenc.lab.corpus`) as bytes and predicts the next byte. It is
trained on windows of ``length`` bytes drawn at random from the ten training plays, then
evaluated on the held-out play as Press et al. (2022) evaluate: the text is cut into
non-overlapping windows of ``W`` bytes, every byte of a window is predicted from the bytes before
it in that window (the first from one byte), and the loss is averaged over the window. That average
at ``W = length, 2 length, 4 length, 8 length`` is what their Figure 1 plots (as a perplexity,
``exp(loss)``) against ``W``. :func:`evaluate` also keeps the loss at each position of the
``8 length`` windows, averaged over the windows: a causal model's prediction at position ``p``
sees positions ``0 .. p`` only, so this one curve shows where the window average comes from.

The learned table has no rows past ``length``: it is evaluated at ``W = length`` only.

Every run is deterministic for its ``seed`` on one thread (weights from
``torch.manual_seed(seed)``, training windows from a ``torch.Generator``); the evaluation
windows are the same for every run.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import math
import numbers
import time
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from . import corpus, schemes
from .model import TinyTransformer, check_scheme

SCHEMES = ("sinusoid", "rope", "alibi", "none", "learned")
RATIOS = (1, 2, 4, 8)
CODE = ("model.py", "lm.py", "corpus.py")     # the code that produces an LM run
LAB = Path(__file__).resolve().parent          # where code_hash reads CODE and the schemes


@dataclass(frozen=True)
class LMConfig:
    """Everything that decides one language-model run.

    Examples
    --------
    >>> from posenc.lab.lm import LMConfig
    >>> LMConfig(scheme="alibi").eval_lengths
    (64, 128, 256, 512)
    >>> LMConfig(scheme="learned").eval_lengths     # no rows past the training length
    (64,)
    """

    scheme: str = "sinusoid"
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    length: int = 64
    steps: int = 600
    batch: int = 32
    lr: float = 3e-3
    warmup: int = 100
    eval_bytes: int = 32768        # held-out bytes scored at each window length
    log_every: int = 50
    seed: int = 0

    def __post_init__(self):
        check_scheme(self.scheme)
        for name in ("d_model", "n_heads", "n_layers", "length", "steps", "batch", "warmup",
                     "eval_bytes", "log_every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not isinstance(self.lr, numbers.Real) or not math.isfinite(self.lr) or self.lr <= 0:
            raise ValueError(f"lr must be a positive finite number, got {self.lr!r}")
        if self.eval_bytes % (self.length * RATIOS[-1]):
            raise ValueError(f"eval_bytes must be a multiple of {RATIOS[-1]} x length, "
                             f"got {self.eval_bytes}")

    @property
    def eval_lengths(self) -> tuple:
        """The window lengths scored: 1, 2, 4 and 8 times ``length`` (the learned table, which
        has no rows past ``length``, at ``length`` only).

        Examples
        --------
        >>> from posenc.lab.lm import LMConfig
        >>> LMConfig().eval_lengths, LMConfig(scheme="learned").eval_lengths
        ((64, 128, 256, 512), (64,))
        """
        ratios = RATIOS[:1] if self.scheme == "learned" else RATIOS
        return tuple(r * self.length for r in ratios)

    def as_dict(self) -> dict:
        """The config as a plain dict (what a record stores).

        Examples
        --------
        >>> from posenc.lab.lm import LMConfig
        >>> d = LMConfig(seed=2).as_dict()
        >>> d["seed"], d["scheme"], d["length"]
        (2, 'sinusoid', 64)
        """
        return dataclasses.asdict(self)


def build(config: LMConfig) -> TinyTransformer:
    """The untrained model of a config (weights from ``torch.manual_seed(config.seed)``).

    Examples
    --------
    >>> from posenc.lab.lm import LMConfig, build
    >>> sum(p.numel() for p in build(LMConfig()).parameters())
    116608
    """
    torch.manual_seed(config.seed)
    return TinyTransformer(corpus.VOCAB, corpus.VOCAB, config.scheme, d_model=config.d_model,
                           n_heads=config.n_heads, n_layers=config.n_layers, causal=True,
                           max_len=config.length)


def _tensor(part: str) -> torch.Tensor:
    return torch.frombuffer(bytearray(corpus.split(part)), dtype=torch.uint8).long()


def _lr(config: LMConfig, step: int) -> float:
    """Linear warm-up over ``warmup`` steps, then a cosine decay to a tenth at the last step."""
    if step <= config.warmup:
        return config.lr * step / config.warmup
    done = (step - config.warmup) / max(1, config.steps - config.warmup)
    return config.lr * (0.1 + 0.45 * (1 + math.cos(math.pi * done)))


def evaluate(model: TinyTransformer, config: LMConfig, text: torch.Tensor | None = None,
             batch: int = 16) -> dict:
    """Loss (nats per byte) on the first ``eval_bytes + 1`` held-out bytes, cut into
    non-overlapping windows at each of ``config.eval_lengths``.

    Returns ``{"window_loss": {W: mean loss over every position of every window},
    "per_position": [mean loss at position p of the longest windows, p = 0 .. W - 1]}``.

    Examples
    --------
    >>> from posenc.lab.lm import LMConfig, build, evaluate
    >>> config = LMConfig(scheme="alibi", length=8, eval_bytes=128)
    >>> out = evaluate(build(config), config)
    >>> sorted(out["window_loss"]), len(out["per_position"])
    (['16', '32', '64', '8'], 64)
    """
    text = _tensor("validation") if text is None else text
    data = text[:config.eval_bytes + 1]
    out, per_position = {}, None
    model.eval()
    with torch.no_grad():
        for width in config.eval_lengths:
            x = data[:-1].view(-1, width)                        # (windows, width)
            y = data[1:].view(-1, width)
            losses = []
            for i in range(0, len(x), batch):
                logits = model(x[i:i + batch])
                losses.append(nn.functional.cross_entropy(
                    logits.transpose(1, 2), y[i:i + batch], reduction="none"))
            loss = torch.cat(losses)                             # (windows, width)
            out[str(width)] = round(float(loss.mean()), 5)
            per_position = loss.mean(dim=0)
    return {"window_loss": out, "per_position": [round(float(v), 4) for v in per_position]}


def train(config: LMConfig, progress=None) -> tuple[TinyTransformer, dict]:
    """Train one model; return it with its metrics (see :func:`run`). ``progress``, if given,
    is called with 1 after every step.

    Examples
    --------
    >>> from posenc.lab.lm import LMConfig, train
    >>> config = LMConfig(scheme="rope", length=8, steps=3, warmup=1, log_every=1, eval_bytes=64)
    >>> model, metrics = train(config)
    >>> [step for step, _ in metrics["curve"]]
    [1, 2, 3]
    """
    model = build(config)
    params = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.0)
    text = _tensor("train")
    generator = torch.Generator().manual_seed(config.seed)
    offsets = torch.arange(config.length + 1)
    curve, window, started = [], [], time.perf_counter()
    model.train()
    for step in range(1, config.steps + 1):
        for group in optimizer.param_groups:
            group["lr"] = _lr(config, step)
        starts = torch.randint(len(text) - config.length, (config.batch,), generator=generator)
        chunk = text[starts[:, None] + offsets]                 # (batch, length + 1)
        logits = model(chunk[:, :-1])
        loss = nn.functional.cross_entropy(logits.transpose(1, 2), chunk[:, 1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        window.append(float(loss.detach()))
        if step % config.log_every == 0 or step == config.steps:
            curve.append([step, round(sum(window) / len(window), 5)])
            window = []
        if progress is not None:
            progress(1)
    trained = round(time.perf_counter() - started, 2)
    metrics = {"params": params, "curve": curve, "loss_final": curve[-1][1]}
    metrics.update(evaluate(model, config))
    metrics["seconds"] = {"train": trained, "total": round(time.perf_counter() - started, 2)}
    return model, metrics


def run(config: LMConfig, progress=None) -> dict:
    """Train one model on one thread and return its metrics: ``params``, ``curve`` ([step,
    mean training loss over the last ``log_every`` steps]), ``loss_final``, ``window_loss``
    and ``per_position`` (:func:`evaluate`), ``seconds``.

    Examples
    --------
    >>> from posenc.lab.lm import LMConfig, run
    >>> m = run(LMConfig(scheme="none", length=8, steps=2, warmup=1, eval_bytes=64))
    >>> sorted(m["window_loss"])
    ['16', '32', '64', '8']
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return train(config, progress)[1]
    finally:
        torch.set_num_threads(threads)


def _code(path: Path) -> str:
    """A module's code without its docstrings (its syntax tree): editing prose leaves it."""
    return _tree(path.read_text(encoding="utf-8"))


def _tree(text: str) -> str:
    """Python source without its docstrings, as its syntax tree."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, include_attributes=False)


def code_hash(configs: dict) -> str:
    """sha256 of the code that trains an LM run (model, this module, the corpus module, and of
    :mod:`posenc.lab.schemes` the entries of the configs' schemes and the code outside the
    entries: their syntax trees without docstrings, so editing prose leaves it), the vendored
    corpus and the configs ``{label: LMConfig}``.

    Examples
    --------
    >>> from posenc.lab.lm import CONFIGS, code_hash
    >>> len(code_hash(CONFIGS))
    64
    """
    digest = hashlib.sha256()
    for name in CODE:
        digest.update(_code(LAB / name).encode())
    used = sorted({config.scheme for config in configs.values()})
    digest.update(_tree(schemes.source(used, LAB / "schemes.py")).encode())
    digest.update(corpus.digest().encode())
    digest.update(json.dumps({k: c.as_dict() for k, c in configs.items()},
                             sort_keys=True).encode())
    return digest.hexdigest()


CONFIGS = {s: LMConfig(scheme=s) for s in SCHEMES}
SEEDS = (0, 1, 2)
