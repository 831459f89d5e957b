"""What the lab's models take from posenc, fingerprinted: the sinusoid tables
(:func:`posenc.encoding.encode`), RoPE's frequencies (:func:`posenc.encoding.frequencies`) and
ALiBi's slopes (:func:`posenc.relative.alibi_slopes`), at every size a recorded config uses, cast
to float32 as ``posenc/lab/model.py`` casts them.

The records' code hash covers posenc/lab's files but not these modules, so
``tests/package/test_lab_inputs.py`` compares today's values with ``docs/data/lab-inputs.json``: a change
to what the lab trains with fails there until ``make lab`` records the runs again and this script
writes the file anew. Each entry holds two projections of the values onto fixed standard-normal
weights (NumPy's PCG64, seed 0), compared with a relative tolerance of 1e-9, so a last-bit
difference of one CPU's sine is not a change while a changed base, layout or slope is.

    python scripts/lab_inputs.py          # print the largest difference from the file
    python scripts/lab_inputs.py --write  # write the file (after make lab)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FILE = ROOT / "docs" / "data" / "lab-inputs.json"


def sizes() -> dict:
    """Every (length, width) of a sinusoid table, head width of RoPE and head count of ALiBi that
    a recorded config (posenc.lab's experiments and its language model) builds."""
    from posenc.lab import lm
    from posenc.lab.table_axes import EXPERIMENTS

    enc, freq, heads = set(), set(), set()

    def add(scheme, d_model, n_heads, d_pos, lengths):
        if scheme == "sinusoid":
            enc.update((n, d_model) for n in lengths)
        if scheme == "sinusoid-concat":
            enc.update((n, d_pos) for n in lengths)
        if scheme == "rope":
            freq.add(d_model // n_heads)
        if scheme.startswith("alibi"):
            heads.add(n_heads)

    for experiment in EXPERIMENTS.values():
        configs = experiment.configs
        for c in (configs.values() if isinstance(configs, dict) else configs):
            lengths = {*c.train_lengths, *c.test_lengths, *(c.eval_at or ()), c.max_len}
            add(c.scheme, c.d_model, c.n_heads, c.d_pos, sorted(lengths))
    for c in lm.CONFIGS.values():
        add(c.scheme, c.d_model, c.n_heads, 0, c.eval_lengths)
    return {"encode": sorted(enc), "frequencies": sorted(freq), "alibi_slopes": sorted(heads)}


def values() -> dict:
    """The float32 arrays the lab builds, by name, e.g. ``"encode(48, 32)"``."""
    from posenc.encoding import encode, frequencies
    from posenc.relative import alibi_slopes

    s = sizes()
    out = {f"encode({n}, {d})": encode(n, d) for n, d in s["encode"]}
    out.update({f"frequencies({h})": frequencies(h) for h in s["frequencies"]})
    out.update({f"alibi_slopes({h})": alibi_slopes(h) for h in s["alibi_slopes"]})
    return {k: np.asarray(v, dtype=np.float32).astype(np.float64) for k, v in out.items()}


def fingerprint() -> dict:
    """Two projections of each array onto fixed standard-normal weights."""
    out = {}
    for name, v in values().items():
        w = np.random.default_rng(0).standard_normal((2, v.size))
        out[name] = [float(x) for x in w @ v.ravel()]
    return out


def differences(recorded: dict, now: dict) -> dict:
    """Relative difference per name (inf where a name is in one but not the other)."""
    out = {}
    for name in sorted(set(recorded) | set(now)):
        if name not in recorded or name not in now:
            out[name] = float("inf")
            continue
        a, b = np.array(recorded[name]), np.array(now[name])
        out[name] = float(np.max(np.abs(a - b) / np.maximum(np.abs(a), 1.0)))
    return out


if __name__ == "__main__":
    if "--write" in sys.argv:
        FILE.write_text(json.dumps(fingerprint(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {FILE.relative_to(ROOT)}")
    else:
        d = differences(json.loads(FILE.read_text()), fingerprint())
        worst = max(d, key=d.get)
        print(f"{len(d)} arrays; largest relative difference {d[worst]:.3g} ({worst})")
