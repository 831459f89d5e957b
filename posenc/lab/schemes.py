"""The registry of the lab's position schemes: one entry per scheme, a new scheme one more.

Chapter "What does a trained model do with the encoding?" trains the model with them. An entry
is a subclass of :class:`Scheme` marked with :func:`register`: what it adds to the token vectors
(:meth:`Scheme.embed`), what it does to queries and keys (:meth:`Scheme.queries_keys`) and to
the attention scores (:meth:`Scheme.scores`), and the tables it sets up.
:class:`~posenc.lab.model.TinyTransformer` reads :data:`REGISTRY` and nothing else about a
scheme, so a new scheme is one entry here; ``posenc.lab.model.SCHEMES`` lists the names in the
order of this file.

A record's hash reads of this file the code outside the entries and the entries of the schemes
its experiment trains (:func:`source`), so a new entry leaves every record current.
"""

from __future__ import annotations

import ast
import numbers
from pathlib import Path

import torch
from torch import nn

from ..encoding import encode, frequencies
from ..relative import alibi_slopes

REGISTRY: dict = {}          # name -> the entry's instance, in the order of this file


class Scheme:
    """What a position scheme does; each hook's default is to do nothing (no positions).

    Examples
    --------
    >>> import torch
    >>> from posenc.lab.schemes import REGISTRY, Scheme
    >>> isinstance(REGISTRY["alibi"], Scheme), REGISTRY["alibi"].name
    (True, 'alibi')
    >>> x = torch.zeros(1, 3, 4)
    >>> torch.equal(Scheme().embed(None, x, torch.arange(3)), x)
    True
    """

    name = ""

    def token_width(self, d_model: int, n_heads: int, d_pos) -> int:
        """Width of the token vectors, after checking the arguments this scheme reads.

        Examples
        --------
        >>> from posenc.lab.schemes import REGISTRY
        >>> [REGISTRY[s].token_width(32, 2, 16) for s in ("rope", "sinusoid-concat")]
        [32, 16]
        """
        return d_model

    def setup(self, model: nn.Module) -> None:
        """Add the scheme's tables to the model (after its token table, before its blocks).

        Examples
        --------
        >>> import torch
        >>> from posenc.lab.model import TinyTransformer
        >>> _ = torch.manual_seed(0)
        >>> TinyTransformer(8, 8, "learned", max_len=10).pos_table.weight.shape
        torch.Size([10, 32])
        """

    def embed(self, model: nn.Module, x: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        """The input to the first block: token vectors ``x`` (batch, seq, d_token) with the
        positions ``pos`` (seq,) added or concatenated, (batch, seq, d_model).

        Examples
        --------
        >>> import torch
        >>> from posenc.lab.model import TinyTransformer
        >>> from posenc.lab.schemes import REGISTRY
        >>> model = TinyTransformer(8, 8, "index", d_model=4, n_heads=1)
        >>> REGISTRY["index"].embed(model, torch.zeros(1, 3, 4), torch.arange(3))[0]
        tensor([[ 0.,  0.,  0.,  0.],
                [ 1., -1.,  1., -1.],
                [ 2., -2.,  2., -2.]])
        """
        return x

    def setup_attention(self, attention: nn.Module) -> None:
        """Add the scheme's buffers to one attention layer.

        Examples
        --------
        >>> from posenc.lab.model import TinyTransformer
        >>> TinyTransformer(8, 8, "alibi", n_heads=2).blocks[0].attn.slopes.tolist()
        [0.0625, 0.00390625]
        """

    def queries_keys(self, q: torch.Tensor, k: torch.Tensor, pos: torch.Tensor) -> tuple:
        """Queries and keys (batch, heads, seq, head_dim) before their dot products.

        Examples
        --------
        >>> import torch
        >>> from posenc.lab.schemes import REGISTRY
        >>> q = torch.ones(1, 1, 2, 2)
        >>> REGISTRY["rope"].queries_keys(q, q, torch.arange(2))[0][0, 0, 0].tolist()
        [1.0, 1.0]
        """
        return q, k

    def scores(self, attention: nn.Module, scores: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        """Attention scores (batch, heads, seq, seq) before the mask and the softmax.

        Examples
        --------
        >>> import torch
        >>> from posenc.lab.model import TinyTransformer
        >>> from posenc.lab.schemes import REGISTRY
        >>> attn = TinyTransformer(8, 8, "alibi", n_heads=2).blocks[0].attn
        >>> REGISTRY["alibi"].scores(attn, torch.zeros(1, 2, 2, 2), torch.arange(2))[0, 0].tolist()
        [[0.0, -0.0625], [-0.0625, 0.0]]
        """
        return scores


def register(cls: type) -> type:
    """Enter a :class:`Scheme` subclass in :data:`REGISTRY` under its ``name``.

    Examples
    --------
    >>> from posenc.lab.schemes import Scheme, register
    >>> register(type("Again", (Scheme,), {"name": "rope"}))
    Traceback (most recent call last):
    ...
    ValueError: name must be a new scheme's, got 'rope' (registered already)
    """
    if not isinstance(cls.name, str) or not cls.name or cls.name in REGISTRY:
        raise ValueError(f"name must be a new scheme's, got {cls.name!r}"
                         + (" (registered already)" if cls.name in REGISTRY else ""))
    REGISTRY[cls.name] = cls()
    return cls


def _entry(node: ast.stmt) -> str | None:
    """The scheme name of a registered class in this file's syntax tree, else None."""
    if not (isinstance(node, ast.ClassDef)
            and any(isinstance(d, ast.Name) and d.id == "register" for d in node.decorator_list)):
        return None
    for item in node.body:
        if (isinstance(item, ast.Assign) and [t.id for t in item.targets
                                              if isinstance(t, ast.Name)] == ["name"]):
            return item.value.value
    raise ValueError(f"the registered class {node.name} has no name = '...' line")


def source(names, path: Path = Path(__file__)) -> str:
    """The code of the registry file ``path`` that the schemes ``names`` run: all of it but the
    entries (decorated with :func:`register`) of other schemes. What a record's hash reads of
    this file; comments and layout aside.

    Examples
    --------
    >>> from posenc.lab.schemes import source
    >>> [line for line in source(["rope"]).splitlines() if line.startswith("class _")]
    ['class _Rope(Scheme):']
    >>> source(["rope", "none"]) == source(["none", "rope"])
    True
    """
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    found = {_entry(node) for node in tree.body} - {None}
    missing = sorted(set(names) - found)
    if missing:
        raise ValueError(f"names must be schemes registered in {Path(path).name}, got {missing}")
    tree.body = [node for node in tree.body if _entry(node) in (None, *names)]
    return ast.unparse(tree)


# ----------------------------------------------------------------- the entries


@register
class _NoPE(Scheme):
    """No positions (NoPE)."""

    name = "none"


@register
class _Index(Scheme):
    """The raw index times the alternating signs (+1, -1, +1, ...)."""

    name = "index"

    def embed(self, model, x, pos):
        return x + pos[:, None].float() * model.signs


@register
class _IndexSame(Scheme):
    """The raw index added to every entry."""

    name = "index-same"

    def embed(self, model, x, pos):
        return x + pos[:, None].float()


@register
class _IndexOverL(Scheme):
    """The index over the sequence's length times the alternating signs."""

    name = "index/L"

    def embed(self, model, x, pos):
        return x + (pos[:, None].float() / x.shape[1]) * model.signs


@register
class _Sinusoid(Scheme):
    """The paper's table added to the tokens."""

    name = "sinusoid"

    def embed(self, model, x, pos):
        return x + torch.tensor(encode(x.shape[1], model.d_model), dtype=x.dtype)


@register
class _SinusoidConcat(Scheme):
    """A table of width d_pos concatenated to token vectors of width d_model - d_pos."""

    name = "sinusoid-concat"

    def token_width(self, d_model, n_heads, d_pos):
        if isinstance(d_pos, bool) or not isinstance(d_pos, numbers.Integral) or d_pos <= 0:
            raise ValueError(f"d_pos must be a positive integer, got {d_pos!r}")
        if d_pos % 2 or d_pos >= d_model:
            raise ValueError(f"d_pos must be even and below d_model={d_model}, got {d_pos}")
        return d_model - d_pos

    def embed(self, model, x, pos):
        seq = x.shape[1]
        table = torch.tensor(encode(seq, model.d_pos), dtype=x.dtype)
        return torch.cat([x, table.expand(x.shape[0], seq, model.d_pos)], dim=-1)


@register
class _Learned(Scheme):
    """A trained table of max_len rows added to the tokens."""

    name = "learned"

    def setup(self, model):
        model.pos_table = nn.Embedding(model.max_len, model.d_model)

    def embed(self, model, x, pos):
        if len(pos) > model.max_len:
            raise ValueError(f"tokens has {len(pos)} positions, past the learned table's "
                             f"max_len={model.max_len}")
        return x + model.pos_table(pos)


@register
class _Rope(Scheme):
    """Queries and keys rotated by pos * omega_i per head (adjacent pairs)."""

    name = "rope"

    @staticmethod
    def rotate(x, pos):
        """Rotate pairs (2i, 2i+1) of the last axis of x (batch, heads, seq, head_dim) by
        pos * omega_i."""
        omega = torch.tensor(frequencies(x.shape[-1]), dtype=x.dtype)      # (head_dim/2,)
        theta = pos.to(x.dtype)[:, None] * omega[None, :]                  # (seq, head_dim/2)
        cos, sin = torch.cos(theta), torch.sin(theta)
        a, b = x[..., 0::2], x[..., 1::2]
        out = torch.empty_like(x)
        out[..., 0::2] = a * cos - b * sin
        out[..., 1::2] = a * sin + b * cos
        return out

    def queries_keys(self, q, k, pos):
        return self.rotate(q, pos), self.rotate(k, pos)


@register
class _Alibi(Scheme):
    """-slope_h * |i - j| added to head h's scores."""

    name = "alibi"

    def token_width(self, d_model, n_heads, d_pos):
        if n_heads & (n_heads - 1):
            raise ValueError(f"n_heads must be a power of two for ALiBi's slopes, got {n_heads}")
        return d_model

    def setup_attention(self, attention):
        slopes = torch.tensor(alibi_slopes(attention.n_heads), dtype=torch.float32)
        attention.register_buffer("slopes", slopes, persistent=False)

    def scores(self, attention, scores, pos):
        distance = (pos[:, None] - pos[None, :]).abs().to(scores.dtype)
        return scores - attention.slopes[:, None, None] * distance
