"""Fingerprint of what the lab's models compute, to compare two versions of the code bit for bit.

Written for issue 42 (session 14, 2026-12-08), when the if/elif chains of posenc/lab/model.py
became the scheme registry posenc/lab/schemes.py: run it on the code before a refactor and on
the code after, and compare the two files (``cmp``); equal files mean every model below starts
from the same weights and takes the same steps to the last bit, so the records in
docs/data/lab/ need no re-training. It fingerprints

- every distinct config of every lab experiment (seed 0 and 1) and of the language model: the
  initial weights (sha256 of every parameter and buffer, in registration order), the loss of
  every one of a few AdamW steps as ``float.hex``, and the logits after them;
- the same for every scheme with every model option (norm, init, scale_embedding, causal,
  readout) at a tiny width;
- the full metrics of a short :func:`posenc.lab.run.train` (and ``train_run`` of the length
  experiments, :func:`posenc.lab.lm.train`) per scheme, ``seconds`` aside;
- the exception type and message of each of a list of bad arguments.

    python scripts/lab_fingerprint.py OUT.json          # about 2 minutes on one core
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from posenc.lab import lengths, lm, run  # noqa: E402
from posenc.lab.model import SCHEMES, TinyTransformer  # noqa: E402
from posenc.lab.table_axes import EXPERIMENTS  # noqa: E402

STEPS = 4


def _sha(tensor: torch.Tensor) -> str:
    return hashlib.sha256(tensor.detach().contiguous().numpy().tobytes()).hexdigest()[:16]


def weights(model: torch.nn.Module) -> list:
    """[name, shape, sha256] of every parameter and buffer, in registration order."""
    named = list(model.named_parameters()) + list(model.named_buffers())
    return [[name, list(t.shape), _sha(t)] for name, t in named]


def steps(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor, seq_out: bool) -> dict:
    """Losses (float.hex) of STEPS AdamW steps on one batch, then the logits' sha256."""
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.0)
    losses = []
    for _ in range(STEPS):
        logits = model(x)
        flat = logits.reshape(-1, logits.shape[-1])
        loss = torch.nn.functional.cross_entropy(flat, y.reshape(-1) if seq_out else y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss.detach()).hex())
    with torch.no_grad():
        logits, maps = model(x, return_attention=True)
    return {"losses": losses, "logits": _sha(logits), "maps": [_sha(m) for m in maps]}


def variants() -> dict:
    out = {}
    options = itertools.product(SCHEMES, ("pre", "post"), ("normal", "t2t"), (False, True),
                                (True, False), ("token", "mean"))
    for scheme, norm, init, scale, causal, readout in options:
        key = f"{scheme}|{norm}|{init}|scale={scale}|causal={causal}|{readout}"
        torch.manual_seed(7)
        model = TinyTransformer(6, 5, scheme, d_model=16, n_heads=2, n_layers=2, causal=causal,
                                max_len=12, d_pos=6, readout=readout, scale_embedding=scale,
                                norm=norm, init=init)
        g = torch.Generator().manual_seed(3)
        x = torch.randint(0, 6, (3, 10), generator=g)
        y = torch.randint(0, 5, (3, 10) if readout == "token" else (3,), generator=g)
        out[key] = {"weights": weights(model), "children": [n for n, _ in model.named_children()],
                    **steps(model, x, y, readout == "token")}
    return out


def configs() -> dict:
    out = {}
    seen = set()
    for name, experiment in sorted(EXPERIMENTS.items()):
        for label in experiment.configs:
            for seed in (0, 1):
                config = experiment.config(label, seed)
                if config in seen:
                    continue
                seen.add(config)
                model = (lengths.build if isinstance(config, lengths.LengthConfig)
                         else run.build)(config)
                length = config.train_lengths[0]
                g = torch.Generator().manual_seed(seed)
                if isinstance(config, lengths.LengthConfig):
                    x, y = lengths.batch(config, 4, length, generator=g)
                    seq_out = True
                else:
                    from posenc.lab import tasks
                    x, y = tasks.batch(config.task, 4, length, vocab=config.vocab, k=config.k,
                                       generator=g)
                    seq_out = config.task == "kback"
                if seq_out:
                    keep = y != -100
                    y = torch.where(keep, y, torch.zeros_like(y))
                out[f"{name}|{label}|{seed}"] = {"weights": weights(model),
                                                 **steps(model, x, y, seq_out)}
    for scheme, config in lm.CONFIGS.items():
        model = lm.build(config)
        g = torch.Generator().manual_seed(0)
        chunk = torch.randint(0, 128, (2, 65), generator=g)
        out[f"lm|{scheme}"] = {"weights": weights(model),
                               **steps(model, chunk[:, :-1], chunk[:, 1:], True)}
    return out


def _no_seconds(metrics):
    if isinstance(metrics, dict):
        return {k: _no_seconds(v) for k, v in metrics.items() if k != "seconds"}
    return metrics


def trains() -> dict:
    out = {}
    for scheme in SCHEMES:
        config = run.Config(scheme=scheme, steps=6, log_every=1, eval_size=8,
                            test_lengths=(24, 48), attention_length=12, eval_at=(3,))
        out[f"run|{scheme}"] = _no_seconds(run.train(config)[1])
        if scheme != "learned":
            config = lengths.LengthConfig(task="reverse", scheme=scheme, bos=True, steps=4,
                                          log_every=1, eval_size=4, test_lengths=(8, 16))
            out[f"lengths|{scheme}"] = _no_seconds(config.train_run())
    for scheme in lm.SCHEMES:
        config = lm.LMConfig(scheme=scheme, length=8, steps=3, warmup=1, log_every=1,
                             eval_bytes=64)
        out[f"lm-train|{scheme}"] = _no_seconds(lm.train(config)[1])
    return out


BAD = [dict(scheme="t5"), dict(scheme=None), dict(scheme="alibi", n_heads=6, d_model=24),
       dict(scheme="sinusoid-concat", d_pos=7), dict(scheme="sinusoid-concat", d_pos=32),
       dict(scheme="sinusoid-concat", d_pos=0), dict(scheme="rope", n_heads=3),
       dict(scheme="alibi", n_heads=3, d_model=18), dict(scheme="rope", readout="x"),
       dict(scheme="alibi", n_heads=3, d_model=18, readout="x"),
       dict(scheme="sinusoid-concat", d_pos=7, norm="x"), dict(scheme="learned", max_len=0)]


def errors() -> dict:
    out = {}
    for kwargs in BAD:
        try:
            TinyTransformer(8, 8, **kwargs)
            out[repr(kwargs)] = "no error"
        except Exception as error:              # noqa: BLE001: the message is what we compare
            out[repr(kwargs)] = f"{type(error).__name__}: {error}"
    model = TinyTransformer(8, 8, "learned", max_len=5)
    for bad in (torch.zeros(2, 6, dtype=torch.long), torch.zeros(2, 0, dtype=torch.long)):
        try:
            model(bad)
        except Exception as error:              # noqa: BLE001
            out[f"learned forward {tuple(bad.shape)}"] = f"{type(error).__name__}: {error}"
    for scheme in SCHEMES:
        try:
            run.Config(scheme=scheme, test_lengths=(24, 80))
            out[f"Config {scheme} 80"] = "no error"
        except Exception as error:              # noqa: BLE001
            out[f"Config {scheme} 80"] = f"{type(error).__name__}: {error}"
    return out


def main(path: str) -> None:
    torch.set_num_threads(1)
    result = {"schemes": list(SCHEMES), "errors": errors(), "variants": variants(),
              "configs": configs(), "trains": trains()}
    Path(path).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"{path}: {sum(len(v) for v in result.values())} entries")


if __name__ == "__main__":
    main(sys.argv[1])
