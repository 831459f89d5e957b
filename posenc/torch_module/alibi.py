"""ALiBi in torch: the attention bias ``-m_h * (i - j)`` of Press, Smith and Lewis (2021).

For any head count, causal (decoder) and symmetric (encoder) forms, queries at an offset (the
new tokens after a KV cache) and a padding mask. The slopes are those of
:func:`posenc.relative.alibi_slopes` (the float64 reference), rounded once to float32.

See the chapter "How do positions behave in a running model?"
(docs/chapters/16-positions-in-a-running-model.md).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import torch

from ..relative import alibi_slopes as _alibi_slopes


def alibi_slopes(n_heads: int, *, device=None) -> torch.Tensor:
    """The ``n_heads`` slopes as a float32 tensor (the paper's rule for any head count).

    Examples
    --------
    >>> from posenc.torch_module.alibi import alibi_slopes
    >>> alibi_slopes(4)
    tensor([0.2500, 0.0625, 0.0156, 0.0039])
    """
    if isinstance(n_heads, torch.Tensor) and n_heads.dim() == 0 and \
            not n_heads.dtype.is_floating_point and n_heads.dtype != torch.bool:
        n_heads = int(n_heads)
    if isinstance(n_heads, (bool, np.bool_)) or not isinstance(n_heads, numbers.Integral) \
            or n_heads <= 0:
        _alibi_slopes(n_heads)                        # raises the reference's error
    # The reference's rule (posenc.relative.alibi_slopes) in torch float64, so that a compiled
    # graph holds no NumPy; equal to it rounded to float32 (tests/package/test_torch_rotary.py).
    n = int(n_heads)
    p = 1 << (n.bit_length() - 1)                     # largest power of two <= n
    exponents = torch.cat([torch.arange(1, p + 1, dtype=torch.float64) / p,
                           (2 * torch.arange(n - p, dtype=torch.float64) + 1) / (2 * p)])
    return torch.pow(2.0, -8.0 * exponents).to(device=device, dtype=torch.float32)


def alibi_bias(n_heads, q_len: int, k_len: int | None = None, *, offset=None,
               causal: bool = True, padding_mask: torch.Tensor | None = None,
               attention_mask: torch.Tensor | None = None,
               dtype: torch.dtype = torch.float32, device=None) -> torch.Tensor:
    """The additive attention bias, ``(batch or 1, n_heads, q_len, k_len)``.

    Query ``i`` sits at position ``offset + i`` and key ``j`` at ``j``; the bias is
    ``-m_h * (pos_q - pos_k)`` (causal: keys after the query get the dtype's lowest value, as
    ``transformers`` masks) or ``-m_h * |pos_q - pos_k|`` (``causal=False``, an encoder).
    With ``padding_mask`` (``(batch, k_len)``, ``True`` at padding) or ``attention_mask``
    (transformers' convention: 1 at tokens, 0 at padding) positions count only the tokens that
    are not padding, as Bloom's ``build_alibi_tensor`` does, the queries are the last ``q_len``
    keys, and padding keys are masked.

    A ``padding_mask`` that is transformers' mask not inverted (``attention_mask.bool()``) is
    caught where it shows: a row padded at every key warns; the last key padded in every row
    raises when there are cached keys (``q_len < k_len``: the newest token cannot be padding)
    and warns otherwise (a batch whose rows are all right-padded looks the same; pass
    ``attention_mask=`` to say which convention, and the warning goes).

    Counterpart: Bloom's ``build_alibi_tensor`` (``transformers``), which adds ``m_h * j``:
    the same scores after softmax, because the two differ by ``m_h * pos_q``, constant along
    each query's row; checked for 1 to 128 heads in ``tests/package/test_torch_rotary.py``.

    Parameters
    ----------
    n_heads : int or torch.Tensor
        A head count, or the ``(n_heads,)`` slopes themselves.
    q_len, k_len : int
        New queries, and keys including the cache (default ``q_len``).
    offset : int or 0-d integer tensor, optional
        Position of the first query; default ``k_len - q_len`` (the tokens already cached).
    causal : bool, default True
    padding_mask : torch.Tensor, optional
        Bool, ``(batch, k_len)``, ``True`` at padding.
    attention_mask : torch.Tensor, optional
        Bool or integer, ``(batch, k_len)``, 1 (``True``) at tokens, 0 at padding: Hugging
        Face's ``attention_mask``; instead of ``padding_mask``.
    dtype : torch.dtype, default torch.float32

    Examples
    --------
    >>> from posenc.torch_module.alibi import alibi_bias
    >>> alibi_bias(1, 3)[0, 0]                   # slope 1/256, causal
    tensor([[ 0.0000e+00, -3.4028e+38, -3.4028e+38],
            [-3.9062e-03,  0.0000e+00, -3.4028e+38],
            [-7.8125e-03, -3.9062e-03,  0.0000e+00]])
    >>> alibi_bias(1, 1, 3)[0, 0] * 256          # one new token after two cached
    tensor([[-2., -1.,  0.]])
    """
    if isinstance(n_heads, torch.Tensor) and n_heads.dim() == 1 and \
            n_heads.dtype.is_floating_point:
        slopes = n_heads.to(device=device if device is not None else n_heads.device,
                            dtype=torch.float32)
    else:
        slopes = alibi_slopes(n_heads, device=device)
    for name, value in (("q_len", q_len), ("k_len", k_len)):
        if value is not None and (not isinstance(value, (numbers.Integral, torch.SymInt)) or
                                  isinstance(value, (bool, np.bool_)) or value <= 0):
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    k_len = q_len if k_len is None else k_len
    if offset is None and k_len < q_len:          # the queries are the last q_len keys
        raise ValueError(f"k_len (the keys, the cache included) must be at least q_len (the new "
                         f"queries), got q_len={q_len}, k_len={k_len}: swapped? Pass offset= "
                         f"for queries that are not the last q_len keys")
    if not isinstance(causal, bool):
        raise TypeError(f"causal must be True or False, got {causal!r}")
    if dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        raise TypeError(f"dtype must be a floating dtype, got {dtype!r}")
    dev = slopes.device
    explicit = attention_mask is not None
    if explicit:
        if padding_mask is not None:
            raise ValueError("pass padding_mask (True at padding) or attention_mask (1 at "
                             "tokens), not both")
        if not isinstance(attention_mask, torch.Tensor) or attention_mask.is_floating_point() \
                or attention_mask.dim() != 2 or attention_mask.shape[1] != k_len:
            got = (f"{attention_mask.dtype} of shape {tuple(attention_mask.shape)}"
                   if isinstance(attention_mask, torch.Tensor) else type(attention_mask).__name__)
            raise TypeError(f"attention_mask must be a bool or integer tensor of shape (batch, "
                            f"k_len={k_len}), 1 at tokens, got {got}")
        padding_mask = attention_mask == 0
    if padding_mask is not None:
        if offset is not None:
            raise ValueError("pass offset or padding_mask, not both: with padding_mask the "
                             "queries are the last q_len keys")
        if not isinstance(padding_mask, torch.Tensor) or padding_mask.dtype != torch.bool \
                or padding_mask.dim() != 2 or padding_mask.shape[1] != k_len:
            got = (f"{padding_mask.dtype} of shape {tuple(padding_mask.shape)}"
                   if isinstance(padding_mask, torch.Tensor) else type(padding_mask).__name__)
            raise TypeError(f"padding_mask must be a bool tensor of shape (batch, k_len="
                            f"{k_len}), True at padding, got {got}")
        keep = ~padding_mask.to(dev)
        if not torch.compiler.is_compiling() and padding_mask.numel() and \
                bool(padding_mask.all(dim=-1).any()):
            rows = padding_mask.all(dim=-1).nonzero().flatten().tolist()
            warnings.warn(f"padding_mask is True at every key of row(s) {rows}: their queries "
                          "attend to every key alike, later ones included. padding_mask is True "
                          "at padding; from Hugging Face's attention_mask (1 at tokens) pass "
                          "padding_mask=attention_mask == 0, or attention_mask=", stacklevel=2)
        if not explicit and not torch.compiler.is_compiling() and padding_mask.numel() and \
                bool(padding_mask[:, -1].all()):
            message = ("padding_mask is True at the last key of every row: is it Hugging "
                       "Face's attention_mask (1 at tokens) not inverted? padding_mask is True "
                       "at padding: pass padding_mask=attention_mask == 0, or attention_mask=")
            if q_len < k_len:
                raise ValueError(message + f" (with {k_len - q_len} cached keys the last key "
                                 "is the newest token, which cannot be padding)")
            warnings.warn(message + " (if every row is right-padded, pass attention_mask= "
                          "to say so)", stacklevel=2)
        pos_k = torch.cumsum(keep.to(torch.int64), dim=-1) - 1            # (batch, k_len)
        pos_q = pos_k[:, k_len - q_len:]                                  # (batch, q_len)
    else:
        if offset is None:
            offset = k_len - q_len
        if isinstance(offset, torch.Tensor):
            if offset.dim() != 0 or offset.dtype.is_floating_point or offset.dtype == torch.bool:
                raise TypeError(f"offset must be an int or a 0-d integer tensor, got {offset!r}")
            offset = offset.to(dev)
        elif not isinstance(offset, (numbers.Integral, torch.SymInt)) or \
                isinstance(offset, (bool, np.bool_)):
            raise TypeError(f"offset must be an int or a 0-d integer tensor, got {offset!r}")
        pos_k = torch.arange(k_len, device=dev).unsqueeze(0)              # (1, k_len)
        pos_q = (torch.arange(q_len, device=dev) + offset).unsqueeze(0)   # (1, q_len)
    ahead = (pos_k.unsqueeze(-2) - pos_q.unsqueeze(-1)).to(torch.float32)   # j - i: (b, q, k)
    signed = 0.0 - ahead.abs() if not causal else ahead                      # +0.0 at j = i
    bias = (slopes.view(1, -1, 1, 1) * signed.unsqueeze(1)).to(dtype)       # (b, h, q, k)
    lowest = torch.finfo(dtype).min
    if causal:
        bias = bias.masked_fill((ahead > 0).unsqueeze(1), lowest)
    if padding_mask is not None:
        bias = bias.masked_fill(~keep[:, None, None, :], lowest)
    return bias
