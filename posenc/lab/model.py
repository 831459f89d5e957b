"""A tiny Transformer whose position scheme is one argument (chapter "What does a trained model
do with the encoding?").

Pre-norm blocks by default (LayerNorm, then multi-head attention, then a two-layer MLP, each
added back to the residual stream); ``norm="post"`` gives the paper's post-norm blocks (the sum,
then LayerNorm). No dropout. The position scheme (an entry of :mod:`posenc.lab.schemes`)
decides where positions enter:

- ``"none"``: no positions (NoPE); with ``causal=False`` the model cannot see order at all;
- ``"index"`` and ``"index/L"``: the raw index ``pos``, or ``pos / L`` for a sequence of length
  ``L``, times a fixed vector of alternating signs ``(+1, -1, +1, ...)``;
- ``"index-same"``: the raw index added to every entry, as chapter 2 states it. In a pre-norm
  model every LayerNorm subtracts the vector's mean, so this is the no-position model (equal in
  exact arithmetic, to float rounding in practice); in a post-norm model the first sum reaches
  attention before any LayerNorm, so there the index is visible. The alternating signs of
  ``"index"`` keep the size of every entry and survive a LayerNorm in either placement;
- ``"sinusoid"``: the paper's table (:func:`posenc.encoding.encode`) added to the tokens;
- ``"sinusoid-concat"``: a table of width ``d_pos`` concatenated to token vectors of width
  ``d_model - d_pos``, so the residual stream keeps width ``d_model``;
- ``"learned"``: a trained table of ``max_len`` rows added to the tokens;
- ``"rope"``: queries and keys rotated by ``pos * omega_i`` per head (RoPE, the adjacent-pairs
  convention of :func:`posenc.relative.rotate`);
- ``"alibi"``: ``-slope_h * |i - j|`` added to head ``h``'s scores
  (:func:`posenc.relative.alibi_slopes`).

Where this departs from the paper by default: pre-norm, no dropout, token vectors drawn from
N(0, 1) (``init="normal"``, PyTorch's default) with no ``sqrt(d_model)`` factor, and tiny sizes.
``init="t2t"`` draws them with standard deviation ``d_model ** -0.5`` as the paper's code
(tensor2tensor) does, and ``scale_embedding=True`` multiplies them by ``sqrt(d_model)``.
"""

from __future__ import annotations

import math
import numbers

import torch
from torch import nn

from .schemes import REGISTRY

SCHEMES = tuple(REGISTRY)            # the names of posenc.lab.schemes' entries, in its order
READOUTS = ("token", "mean")
NORMS = ("pre", "post")
INITS = ("normal", "t2t")


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def check_scheme(scheme) -> str:
    """``scheme`` if it is a name in the registry (:data:`SCHEMES`), else a ``ValueError``
    naming it.

    Examples
    --------
    >>> from posenc.lab.model import check_scheme
    >>> check_scheme("rope")
    'rope'
    """
    if not isinstance(scheme, str) or scheme not in REGISTRY:
        allowed = ", ".join(repr(s) for s in REGISTRY)
        raise ValueError(f"scheme must be one of {allowed}, got {scheme!r}")
    return scheme


_rope = REGISTRY["rope"].rotate      # its older address (tests/test_lab.py)


class _Attention(nn.Module):
    """Multi-head self-attention with optional causal mask, RoPE or ALiBi."""

    def __init__(self, d_model: int, n_heads: int, scheme: str, causal: bool):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.scheme, self.causal = scheme, causal
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        REGISTRY[scheme].setup_attention(self)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        batch, seq, d_model = x.shape                                    # (batch, seq, d_model)
        q, k, v = self.qkv(x).split(d_model, dim=-1)
        q, k, v = (t.view(batch, seq, self.n_heads, self.head_dim).transpose(1, 2)
                   for t in (q, k, v))                                   # (batch, heads, seq, head_dim)
        pos = torch.arange(seq)
        q, k = REGISTRY[self.scheme].queries_keys(q, k, pos)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)      # (batch, heads, seq, seq)
        scores = REGISTRY[self.scheme].scores(self, scores, pos)
        if self.causal:
            scores = scores.masked_fill(pos[None, :] > pos[:, None], float("-inf"))
        weights = scores.softmax(dim=-1)
        y = (weights @ v).transpose(1, 2).reshape(batch, seq, d_model)
        return self.out(y), weights


class _Block(nn.Module):
    """Pre-norm block: x + attention(LN(x)), then x + MLP(LN(x)); post-norm block (the paper's):
    LN(x + attention(x)), then LN(x + MLP(x))."""

    def __init__(self, d_model: int, n_heads: int, scheme: str, causal: bool, norm: str = "pre"):
        super().__init__()
        self.post = norm == "post"
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = _Attention(d_model, n_heads, scheme, causal)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(),
                                 nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        if self.post:
            a, weights = self.attn(x)
            x = self.ln1(x + a)
            return self.ln2(x + self.mlp(x)), weights
        a, weights = self.attn(self.ln1(x))
        x = x + a
        return x + self.mlp(self.ln2(x)), weights


class TinyTransformer(nn.Module):
    """A 1-4 layer Transformer for the lab's synthetic tasks.

    Parameters
    ----------
    vocab : int
        Number of input symbols.
    n_out : int
        Number of output classes.
    scheme : str
        One of :data:`SCHEMES` (see the module docstring).
    d_model, n_heads, n_layers : int
        Width, heads per layer (dividing ``d_model``), blocks.
    causal : bool
        Mask future positions.
    max_len : int
        Rows of the learned table (``scheme="learned"``); longer inputs raise ``ValueError``.
    d_pos : int
        Width of the concatenated sinusoid (``scheme="sinusoid-concat"``), even, below ``d_model``.
    readout : {"token", "mean"}
        One output per position, or one per sequence from the mean over positions.
    scale_embedding : bool
        Multiply token vectors by ``sqrt(d_model)`` as the paper does.
    norm : {"pre", "post"}
        LayerNorm before each sublayer (default) or after the residual sum (the paper's).
    init : {"normal", "t2t"}
        Token table drawn from N(0, 1), or from N(0, 1 / d_model) as in tensor2tensor.

    Examples
    --------
    >>> import torch
    >>> from posenc.lab.model import TinyTransformer
    >>> _ = torch.manual_seed(0)
    >>> model = TinyTransformer(vocab=8, n_out=8, scheme="rope", d_model=16, n_heads=2)
    >>> model(torch.zeros(3, 5, dtype=torch.long)).shape       # (batch, seq, n_out)
    torch.Size([3, 5, 8])
    """

    def __init__(self, vocab: int, n_out: int, scheme: str, *, d_model: int = 32,
                 n_heads: int = 2, n_layers: int = 2, causal: bool = True, max_len: int = 64,
                 d_pos: int = 16, readout: str = "token", scale_embedding: bool = False,
                 norm: str = "pre", init: str = "normal"):
        super().__init__()
        vocab, n_out = _positive_int(vocab, "vocab"), _positive_int(n_out, "n_out")
        d_model, n_heads = _positive_int(d_model, "d_model"), _positive_int(n_heads, "n_heads")
        n_layers, max_len = _positive_int(n_layers, "n_layers"), _positive_int(max_len, "max_len")
        self.scheme = check_scheme(scheme)
        if d_model % n_heads or (d_model // n_heads) % 2:
            raise ValueError(f"n_heads must divide d_model into even head widths, got "
                             f"d_model={d_model}, n_heads={n_heads}")
        if readout not in READOUTS:
            raise ValueError(f"readout must be one of {READOUTS}, got {readout!r}")
        if norm not in NORMS:
            raise ValueError(f"norm must be one of {NORMS}, got {norm!r}")
        if init not in INITS:
            raise ValueError(f"init must be one of {INITS}, got {init!r}")
        d_token = REGISTRY[scheme].token_width(d_model, n_heads, d_pos)
        self.d_model, self.d_pos, self.max_len = d_model, d_pos, max_len
        self.causal, self.readout = bool(causal), readout
        self.scale = math.sqrt(d_model) if scale_embedding else 1.0
        self.token = nn.Embedding(vocab, d_token)
        if init == "t2t":         # tensor2tensor: standard deviation d_model ** -0.5
            with torch.no_grad():
                self.token.weight.normal_(0.0, d_model ** -0.5)
        REGISTRY[scheme].setup(self)                                   # learned: pos_table
        signs = torch.ones(d_model)
        signs[1::2] = -1.0
        self.register_buffer("signs", signs, persistent=False)        # (+1, -1, +1, ...)
        self.blocks = nn.ModuleList(_Block(d_model, n_heads, scheme, self.causal, norm)
                                    for _ in range(n_layers))
        self.norm = norm
        self.ln_f = nn.LayerNorm(d_model) if norm == "pre" else nn.Identity()
        self.head = nn.Linear(d_model, n_out)

    def embed(self, tokens: torch.Tensor) -> torch.Tensor:
        """Token vectors with the position scheme's input term: (batch, seq, d_model)."""
        seq = tokens.shape[1]
        x = self.token(tokens) * self.scale                              # (batch, seq, d_token)
        return REGISTRY[self.scheme].embed(self, x, torch.arange(seq))

    def forward(self, tokens: torch.Tensor, return_attention: bool = False):
        """Logits, (batch, seq, n_out) or (batch, n_out); with ``return_attention`` also the
        attention weights of every layer, each (batch, heads, seq, seq)."""
        if not isinstance(tokens, torch.Tensor) or tokens.dim() != 2:
            raise ValueError("tokens must be a 2-D tensor (batch, seq) of symbol ids")
        seq = tokens.shape[1]
        if seq == 0:
            raise ValueError("tokens must hold at least one position")
        x = self.embed(tokens)             # learned: a ValueError past max_len
        maps = []
        for block in self.blocks:
            x, weights = block(x)
            maps.append(weights)
        x = self.ln_f(x)
        if self.readout == "mean":
            x = x.mean(dim=1)
        logits = self.head(x)
        return (logits, maps) if return_attention else logits
