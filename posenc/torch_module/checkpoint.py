"""Loading an old checkpoint into the sinusoidal module: a stored ``pe`` table is checked
against the module's own, and a mismatch names the convention it matches.

Registered by :class:`~posenc.torch_module.sinusoidal.SinusoidalPositionalEncoding` as its
``load_state_dict`` pre-hook. See the chapter "What must a PyTorch module for the encoding get
right?" (docs/chapters/11-a-pytorch-module.md).
"""

from __future__ import annotations

import warnings

import torch

from .table import build_table


def _tolerance(pos: torch.Tensor, ours: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """How far a stored table may be from the exact one at position ``pos`` (entries ``ours``).

    A float32-built table's angle is off by about ``pos * 2**-24`` (times a few), plus the
    entry's own rounding. A table stored in float16 or bfloat16 was rounded once more to that
    dtype (often from such a float32 table, so twice): one unit in its last place at the
    entry's magnitude more."""
    tol = 1e-5 + 8 * pos * 2.0**-24
    if dtype in (torch.float16, torch.bfloat16):
        info = torch.finfo(dtype)
        _, exponent = torch.frexp(ours.abs().clamp(min=info.smallest_normal))
        tol = tol + info.eps * torch.pow(2.0, exponent.to(torch.float64) - 1)
    return tol


def _check_stored_table(module, state_dict, prefix, local_metadata, strict, missing_keys,
                        unexpected_keys, error_msgs) -> None:
    """load_state_dict pre-hook: take a stored ``pe`` table (tutorial style: ``(max_len, 1,
    d_model)`` seq-first, ``(1, max_len, d_model)`` or ``(max_len, d_model)``, in any float
    dtype) out of the state dict after checking it against the module's own table."""
    key = prefix + "pe"
    if key not in state_dict:
        return
    stored = state_dict.pop(key)
    if not isinstance(stored, torch.Tensor) or stored.dim() not in (2, 3) or \
            (stored.dim() == 3 and 1 not in stored.shape[:2]) or \
            stored.shape[-1] != module.d_model or not stored.dtype.is_floating_point:
        error_msgs.append(
            f"{key}: expected a stored table of shape (max_len, 1, {module.d_model}), "
            f"(1, max_len, {module.d_model}) or (max_len, {module.d_model}), got "
            f"{tuple(getattr(stored, 'shape', ()))}")
        return
    shape = tuple(stored.shape)
    if stored.dim() == 3 and shape[0] > 1 and shape[1] == 1 and module.batch_first and \
            not getattr(module, "_layout_chosen", True):
        # Replacing a seq-first module: the input layout cannot be told from x, so ask.
        error_msgs.append(
            f"{key}: the stored table has shape {shape}, seq-first (the PyTorch tutorial's "
            f"layout, for x of shape (seq, batch, {module.d_model})). Say which layout the "
            f"code calling this module passes: build it with batch_first=False to keep x of "
            f"shape (seq, batch, {module.d_model}), or batch_first=True if the code now "
            f"passes (batch, seq, {module.d_model}).")
        return
    elif stored.dim() == 3 and shape[0] == 1 and shape[1] > 1 and not module.batch_first:
        warnings.warn(
            f"{key}: the stored table has shape {shape}, batch-first (for x of shape (batch, "
            f"seq, {module.d_model})), and this module is batch_first=False: it takes x of "
            f"shape (seq, batch, {module.d_model}). Code written for the old module must "
            f"transpose x, or build this one with batch_first=True.", UserWarning, stacklevel=2)
    dtype = stored.dtype
    stored = stored.reshape(-1, module.d_model).detach().to("cpu", torch.float64)
    n = min(stored.shape[0], module.max_len)
    ours = module._build(torch.float64)[:n]
    pos = torch.arange(n, dtype=torch.float64)[:, None] + abs(module.offset)
    bad = (stored[:n] - ours).abs() > _tolerance(pos, ours, dtype)
    if not bool(bad.any()):
        return
    p, c = (int(v) for v in torch.nonzero(bad)[0])
    name = str(dtype).removeprefix("torch.")
    if dtype in (torch.float16, torch.bfloat16):
        rounded = float(module._build(dtype)[p, c])
        has = (f"this module's entry is {float(ours[p, c]):.6g}, {rounded:.6g} rounded to "
               f"{name}")
        what = f"({name}) is not this module's table rounded to {name}"
    else:
        has, what = f"this module has {float(ours[p, c]):.6g}", "is not this module's"
    guess = _which_convention(stored[:min(n, 64)], module, dtype)
    error_msgs.append(
        f"{key}: the stored table {what} (base={module.base:g}, "
        f"spacing={module.spacing!r}, layout={module.layout!r}, offset={module.offset}): "
        f"position {p}, column {c} holds {float(stored[p, c]):.6g}, {has}. {guess}")


def _which_convention(stored: torch.Tensor, module, dtype: torch.dtype) -> str:
    n = stored.shape[0]
    for spacing in ("paper", "t2t"):
        for layout in ("interleaved", "concatenated"):
            for offset in (0, 1, 2):
                table = build_table(n, module.d_model, dtype=torch.float64, base=module.base,
                                    spacing=spacing, layout=layout, offset=offset,
                                    odd=module.odd)
                pos = torch.arange(n, dtype=torch.float64)[:, None] + offset
                if bool(((stored - table).abs() <= _tolerance(pos, table, dtype)).all()):
                    return (f"It matches spacing={spacing!r}, layout={layout!r}, "
                            f"offset={offset}: build the module with those.")
    return ("It matches none of spacing 'paper'/'t2t', layout 'interleaved'/'concatenated', "
            "offset 0-2 at this base: check base and d_model.")
