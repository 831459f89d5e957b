"""The ledger of the seed articles' claims (docs/data/seed-claims.yml): loading, the namespace
its checks run in, and the heading anchors of the site's pages.

Each ledger entry may carry ``check``, a Python expression that must be truthy; it decides the
verdict and holds the figure quoted in the entry's reason. The helpers below recompute the
encoding from the paper's formula with NumPy and never call ``posenc``, so a check is an
independent witness, not a copy of the code under test.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import markdown
import mpmath as mp
import numpy as np
import yaml
from pymdownx import superfences

ROOT = Path(__file__).resolve().parents[2]
LEDGER = ROOT / "docs" / "data" / "seed-claims.yml"
VERDICTS = ("true", "loose", "wrong", "not applicable")


def load(path: Path = LEDGER) -> dict:
    """The ledger as ``{"sources": {key: {file, title}}, "claims": [entry, ...]}``."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# ----------------------------------------------------------------- namespace of the checks

def omega(d, base=10000.0):
    """Frequencies of the d/2 pairs, base ** (-2i/d), i = 0 .. d/2 - 1 (paper, section 3.5)."""
    return float(base) ** (-np.arange(0, d, 2) / d)


def wavelengths(d, base=10000.0):
    return 2 * np.pi / omega(d, base)


def pe(pos, d, base=10000.0):
    """Interleaved table: sine of pair i in column 2i, cosine in 2i + 1; one row per position."""
    pos = np.arange(pos, dtype=float) if np.ndim(pos) == 0 else np.asarray(pos, dtype=float)
    angles = pos[:, None] * omega(d, base)
    table = np.empty((len(pos), d))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table


def offset_dot(k, d, base=10000.0):
    """PE(p) . PE(p + k) = sum_i cos(omega_i k), for an array of offsets k."""
    return np.cos(np.multiply.outer(np.asarray(k, dtype=float), omega(d, base))).sum(axis=-1)


def min_gap(rows):
    """Smallest Euclidean distance between two different rows (or values)."""
    x = np.asarray(rows, dtype=float)
    x = x.reshape(len(x), -1)
    if x.shape[1] == 1:
        return float(np.diff(np.sort(x[:, 0])).min())
    sq = (x * x).sum(axis=1)
    d2 = sq[:, None] + sq[None, :] - 2 * (x @ x.T)
    np.fill_diagonal(d2, np.inf)
    i, j = np.unravel_index(np.argmin(d2), d2.shape)
    return float(np.linalg.norm(x[i] - x[j]))


def closest_pair(rows):
    """(a, b) with a < b, the two rows nearest each other."""
    x = np.asarray(rows, dtype=float)
    x = x.reshape(len(x), -1)
    d2 = ((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=-1)
    np.fill_diagonal(d2, np.inf)
    a, b = np.unravel_index(np.argmin(d2), d2.shape)
    return (int(min(a, b)), int(max(a, b)))


def digits(pos, width, radix=10):
    """Digits of each position, ones first, ``width`` columns (zeros pad the higher places)."""
    pos = np.arange(pos) if np.ndim(pos) == 0 else np.asarray(pos)
    return (pos[:, None] // radix ** np.arange(width)) % radix


def rotation(theta):
    """The 2x2 block that maps (sin a, cos a) to (sin(a + theta), cos(a + theta))."""
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, s], [-s, c]])


def shift_matrix(k, d, base=10000.0):
    """Block-diagonal M_k with PE(pos + k) = M_k PE(pos)."""
    m = np.zeros((d, d))
    for i, w in enumerate(omega(d, base)):
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = rotation(w * k)
    return m


def attention(x, w_q, w_k, w_v, causal=False):
    """One head of softmax(Q K^T / sqrt(d_k)) V; returns (output, weights)."""
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    s = q @ k.T / math.sqrt(k.shape[1])
    if causal:
        s = np.where(np.tril(np.ones_like(s)) > 0, s, -np.inf)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w


def cosine(a, b):
    a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def lab(experiment, check_id):
    """A verdict recorded by the lab (docs/data/lab/<experiment>.json, written by `make lab`):
    {"holds", "weakest", "per_seed", "statement", "op", "threshold"}. tests/package/test_lab.py keeps
    the records current and recomputes each verdict from the recorded runs."""
    import json
    record = json.loads((ROOT / "docs" / "data" / "lab" / f"{experiment}.json").read_text())
    for verdict in record["verdicts"]:
        if verdict["id"] == check_id:
            return verdict
    raise KeyError(f"{experiment} records no check {check_id!r}")


def namespace() -> dict:
    """Fresh globals for one check: NumPy, mpmath and the helpers above."""
    names = dict(np=np, math=math, mp=mp, pi=math.pi, rng=np.random.default_rng(0))
    for f in (omega, wavelengths, pe, offset_dot, min_gap, closest_pair, digits, rotation,
              shift_matrix, attention, cosine, lab):
        names[f.__name__] = f
    return names


def run_check(expression: str):
    """Evaluate one entry's check in a fresh namespace; returns its value."""
    return eval(compile(expression, "<ledger check>", "eval"), namespace())


# ----------------------------------------------------------------- anchors of the site's pages

def _markdown_extensions() -> tuple[list, dict]:
    """The site's markdown_extensions from mkdocs.yml (names and configs)."""

    class _Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml uses tags such as !ENV; their values do not matter for headings.
    _Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    names, configs = [], {}
    for item in config["markdown_extensions"]:
        if isinstance(item, dict):
            (name, options), = item.items()
            names.append(name)
            configs[name] = options or {}
        else:
            names.append(item)
    return names, configs


def _any_fence(language, inputs, options, attrs, md):
    options.update(inputs)
    return True


def anchors(page: Path) -> set[str]:
    """The ids the site gives the headings of ``page``: the page is rendered with the
    site's own markdown extensions and toc configuration (so its slugify, separator and
    de-duplication apply), and every heading id in the table of contents is returned."""
    names, configs = _markdown_extensions()
    # markdown-exec's fences (```python exec="on" ...) carry options that plain superfences
    # rejects, which would leave their code to be parsed as Markdown (a comment becoming a
    # heading). Accept every fence as code, as the plugin does at build time.
    configs = {**configs, "pymdownx.superfences": {
        **configs.get("pymdownx.superfences", {}),
        "custom_fences": [{"name": "*", "class": "highlight", "validator": _any_fence,
                           "format": superfences.fence_code_format}]}}
    md = markdown.Markdown(extensions=names, extension_configs=configs)
    md.convert(page.read_text(encoding="utf-8"))
    found: set[str] = set()

    def walk(tokens):
        for token in tokens:
            found.add(token["id"])
            walk(token["children"])

    walk(md.toc_tokens)
    # explicit ids written as attribute lists, e.g. "## Title {#my-id}" or "{ #my-id }"
    found.update(re.findall(r"\{[^}]*#([\w-]+)[^}]*\}", page.read_text(encoding="utf-8")))
    return found
