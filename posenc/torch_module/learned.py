"""``LearnedPositionalEmbedding``: a trainable ``nn.Embedding`` table (BERT and GPT-2 style),
added from ``start`` as :class:`~posenc.torch_module.SinusoidalPositionalEncoding` adds its table
(but built with ``max_len`` first).

See the chapter "What do learned positional embeddings change?" (docs/chapters/14-learned-embeddings.md).
"""

from __future__ import annotations

import numbers

import torch
from torch import nn

from .checks import check_dropout as _check_dropout
from .checks import NotScriptable, check_input
from .checks import check_max_len as _check_max_len


class LearnedPositionalEmbedding(NotScriptable, nn.Module):
    """Add a trainable position table to batch-first embeddings: ``dropout(x + P[start:start+seq])``.

    Parameters
    ----------
    max_len : int
        Number of rows (positions 0 .. max_len - 1). A learned table has no row for a later
        position, so longer input raises ``ValueError``.
    d_model : int
        Width of the embeddings, any positive integer (a learned table has no sine-cosine pairs).
    dropout : float, default 0.0
        Dropout probability applied to the sum.
    init_std : float, default 0.02
        Standard deviation of the normal initialisation of the rows.

    Examples
    --------
    >>> import torch
    >>> from posenc.torch_module.learned import LearnedPositionalEmbedding
    >>> module = LearnedPositionalEmbedding(max_len=512, d_model=768)
    >>> sum(p.numel() for p in module.parameters())
    393216
    >>> module(torch.zeros(1, 3, 768)).shape
    torch.Size([1, 3, 768])
    """

    def __init__(self, max_len: int, d_model: int, *, dropout: float = 0.0,
                 init_std: float = 0.02) -> None:
        super().__init__()
        self.max_len = _check_max_len(max_len)
        if isinstance(d_model, bool) or not isinstance(d_model, numbers.Integral):
            raise TypeError(f"d_model must be a positive integer, got {d_model!r}")
        if d_model <= 0:
            raise ValueError(f"d_model must be a positive integer, got {d_model!r}")
        self.d_model = int(d_model)
        if isinstance(init_std, bool) or not isinstance(init_std, numbers.Real):
            raise TypeError(f"init_std must be a positive number, got {init_std!r}")
        if not init_std > 0:
            raise ValueError(f"init_std must be a positive number, got {init_std!r}")
        self.dropout = nn.Dropout(_check_dropout(dropout))
        self.embedding = nn.Embedding(self.max_len, self.d_model)
        nn.init.normal_(self.embedding.weight, mean=0.0, std=float(init_std))

    def forward(self, x: torch.Tensor, start: int = 0) -> torch.Tensor:
        """``x + P[start:start + seq]``: ``x`` of shape ``(batch, seq, d_model)``; ``start`` is
        the position of ``x[:, 0]``.

        Examples
        --------
        >>> import torch
        >>> from posenc.torch_module import LearnedPositionalEmbedding
        >>> module = LearnedPositionalEmbedding(max_len=16, d_model=4)
        >>> x = torch.zeros(2, 3, 4)
        >>> torch.equal(module(x, start=5)[1], module.embedding.weight[5:8])
        True
        """
        start = check_input(x, self.d_model, self.max_len, start)
        pos = torch.arange(start, start + x.shape[1], device=x.device)   # (seq,)
        return self.dropout(x + self.embedding(pos).to(x.dtype))         # (batch, seq, d_model)

    def extra_repr(self) -> str:
        """The arguments shown by ``repr(module)``.

        Examples
        --------
        >>> from posenc.torch_module import LearnedPositionalEmbedding
        >>> LearnedPositionalEmbedding(512, 768).extra_repr()
        'max_len=512, d_model=768'
        """
        return f"max_len={self.max_len}, d_model={self.d_model}"
