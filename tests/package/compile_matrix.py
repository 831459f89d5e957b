"""The compile matrix for ``SinusoidalPositionalEncoding``: every order of choosing a dtype,
making the first call and compiling. Used by tests/package/test_torch_compile.py, in-process for a
cheap subset and in a child process (``python tests/package/compile_matrix.py BACKEND``) for all of it:
a kernel that indexes past the table would end that process, not the test run.

Each case builds ``Embedding -> SinusoidalPositionalEncoding``, with the dtype given

* ``ctor``: at construction (``dtype=``),
* ``to``: by ``model.to(dtype)``,
* ``half``: by ``model.half()`` (float16 only),
* ``input``: nowhere: the module keeps its float32 table and sees ``dtype`` input,

then calls it eager-first or compiled-first, under ``fullgraph`` on or off, and checks the
compiled output equals eager bit for bit (default start, start 7 as an int and as a tensor,
positions, a padding mask), that a position past ``max_len`` raises the
module's ``ValueError``, and that calls with other batch and sequence sizes (dynamic shapes)
with ``positions`` and ``padding_mask`` still equal eager.
"""

from __future__ import annotations

import json
import sys
import time

DTYPES = ("float32", "bfloat16", "float16")
HOWS = {"float32": ("ctor", "to"), "bfloat16": ("ctor", "to", "input"),
        "float16": ("ctor", "to", "half", "input")}
CASES = [(dtype, how, first, fullgraph) for dtype in DTYPES for how in HOWS[dtype]
         for first in ("eager", "compiled") for fullgraph in (False, True)]


def run_case(dtype_name, how, first, fullgraph, backend="inductor", shapes=True):
    """Run one case; return the seconds the first compiled call took (compiling included).
    Raises AssertionError (or the compiler's error) when the case fails."""
    import torch
    from torch import nn

    from posenc.torch_module import SinusoidalPositionalEncoding

    dtype = getattr(torch, dtype_name)

    class Model(nn.Module):
        def __init__(self, **kwargs):
            super().__init__()
            self.emb = nn.Embedding(100, 64, dtype=kwargs.pop("emb_dtype", None))
            self.pe = SinusoidalPositionalEncoding(64, max_len=512, **kwargs)

        def forward(self, ids, positions=None, **kwargs):
            return self.pe(self.emb(ids), positions, **kwargs)

    torch._dynamo.reset()
    torch.manual_seed(0)
    if how == "ctor":
        model = Model(dtype=dtype, emb_dtype=dtype)
    elif how == "input":
        model = Model(emb_dtype=dtype)
    else:
        model = Model()
        model = model.half() if how == "half" else model.to(dtype)
    ids = torch.randint(0, 100, (2, 40))
    if first == "eager":
        model(ids)
    compiled = torch.compile(model, backend=backend, fullgraph=fullgraph)
    began = time.perf_counter()
    out = compiled(ids)
    seconds = time.perf_counter() - began
    assert out.dtype == dtype, (out.dtype, dtype)
    assert torch.equal(out, model(ids))
    for start in (7, torch.tensor(7)):      # a start past 0, as an int and as a 0-d tensor
        assert torch.equal(compiled(ids, start=start), model(ids, start=start))
    positions = torch.randint(0, 512, (2, 40))
    assert torch.equal(compiled(ids, positions), model(ids, positions))
    pads = ids < 10
    assert torch.equal(compiled(ids, padding_mask=pads), model(ids, padding_mask=pads))
    for call in (lambda: compiled(ids, start=480),
                 lambda: compiled(ids, positions + 100),
                 lambda: compiled(ids, start=torch.tensor(500))):
        try:
            call()
        except ValueError as error:
            assert "fit a table of max_len=512 rows" in str(error), error
        else:
            raise AssertionError("a position past max_len was not refused")
    # Shape changes (issue 31): a second input shape makes dynamo mark the sizes of x dynamic;
    # the first call with positions (or a padding mask) after that compares symbolic sizes with
    # their static ones. Training on varying batches, then evaluating a left-padded batch.
    if shapes:
        torch._dynamo.reset()
        compiled = torch.compile(model, backend=backend, fullgraph=fullgraph)
        for batch, seq in ((2, 40), (3, 24)):
            ids = torch.randint(0, 100, (batch, seq))
            assert torch.equal(compiled(ids), model(ids))
        ids = torch.randint(0, 100, (5, 31))
        positions = torch.randint(0, 512, (5, 31))
        assert torch.equal(compiled(ids, positions), model(ids, positions))
        assert torch.equal(compiled(ids, positions[0]), model(ids, positions[0]))
        pads = ids < 10
        assert torch.equal(compiled(ids, padding_mask=pads), model(ids, padding_mask=pads))
    return seconds


def main(backend: str) -> None:
    import torch

    with torch._dynamo.config.patch(recompile_limit=32):
        for case in CASES:
            try:
                seconds, error = run_case(*case, backend=backend), None
            except Exception as exc:          # report it; the test says which case failed
                seconds, error = None, f"{type(exc).__name__}: {str(exc)[:300]}"
            print(json.dumps({"case": case, "seconds": seconds, "error": error}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "inductor")
