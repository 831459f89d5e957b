"""The sinusoidal module under torch.compile and at 10**6 x 512.

The compile matrix (tests/package/compile_matrix.py: float32/bfloat16/float16 x dtype given at
construction, by .to(), by .half() or only by the input x eager or compiled first call x
fullgraph on and off) runs in full under inductor in the slow tests (`make slow`,
POSENC_TEST_SLOW=1); a few of its cases run in every run on the eager backend, which traces the
same way (dynamo and fake tensors: where the NumPy table builder used to crash)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import compile_matrix

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                reason="needs PyTorch")
slow = pytest.mark.skipif(os.environ.get("POSENC_TEST_SLOW") != "1",
                          reason="slow (torch.compile, a 2 GB table): run `make slow`")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", [
    ("bfloat16", "to", "compiled", False),     # the reported crash: cast, then compile first
    ("float16", "half", "compiled", True),
    ("bfloat16", "input", "compiled", True),   # no table in the input's dtype when compiled
])
def test_compile_matrix_cheap_cases(case):
    import torch

    with torch._dynamo.config.patch(recompile_limit=32):      # shape changes: one case here
        compile_matrix.run_case(*case, backend="eager", shapes=case[1] == "input")


@slow
@pytest.mark.timeout(3600)      # 9 min 40 s on a loaded 2-core VM (2026-11-25), cold cache
def test_compile_matrix_under_inductor():
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "package" / "compile_matrix.py"), "inductor"],
                         capture_output=True, text=True, cwd=ROOT, timeout=3600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == len(compile_matrix.CASES), run.stdout[-2000:] + run.stderr[-4000:]
    for row in rows:                       # compile times, shown by pytest -s or -rP
        print(*row["case"], f"{row['seconds']:.1f} s" if row["seconds"] else row["error"])
    failed = [(row["case"], row["error"]) for row in rows if row["error"]]
    assert not failed, failed


def calls(torch, padding_idx=1):
    """Every way of passing positions, with valid input."""
    x = torch.randn(4, 100, 64)
    tokens = torch.randint(0, 6, (4, 100))
    return [
        ((x,), {"start": 7}),
        ((x,), {"start": torch.tensor(5)}),
        ((x, torch.randint(0, 512, (4, 100))), {}),
        ((x, torch.arange(100)), {}),
        ((x,), {"tokens": tokens}),
        ((x,), {"padding_mask": tokens == padding_idx}),
    ]


@slow
@pytest.mark.parametrize("backend", ["eager", "inductor"])
def test_fullgraph_compile_equals_eager_bit_for_bit(backend):
    import torch

    from posenc.torch_module import SinusoidalPositionalEncoding

    torch._dynamo.reset()
    # each way of passing positions is its own graph: allow them all
    with torch._dynamo.config.patch(recompile_limit=32):
        check_compiled(torch, SinusoidalPositionalEncoding, backend)


def check_compiled(torch, SinusoidalPositionalEncoding, backend):

    m = SinusoidalPositionalEncoding(64, max_len=512, padding_idx=1)
    compiled = torch.compile(m, backend=backend, fullgraph=True)
    for args, kwargs in calls(torch):
        assert torch.equal(compiled(*args, **kwargs), m(*args, **kwargs))
    # 16-bit input: the table is stored in bfloat16 (rounded once from float64) and the sum is
    # rounded once to bfloat16, in eager and under inductor alike
    m.table(torch.bfloat16)
    x = torch.randn(4, 100, 64, dtype=torch.bfloat16)
    assert torch.equal(compiled(x, start=3), m(x, start=3))
    assert torch.equal(compiled(torch.zeros_like(x), start=3)[0],
                       m.table(torch.bfloat16)[3:103])


@slow
def test_a_10_to_the_6_by_512_module_builds_within_2x_its_size():
    code = (
        "import resource, torch\n"
        "from posenc.torch_module import SinusoidalPositionalEncoding\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024\n"
        "m = SinusoidalPositionalEncoding(512, max_len=10**6)\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before\n"
        "out = m(torch.zeros(1, 3, 512), start=10**6 - 3)\n"
        "print(m.nbytes, peak, out.shape[1])\n"
    )
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root)
    nbytes, peak, rows = (int(v) for v in run.stdout.split())
    assert nbytes == 4 * 10**6 * 512 and rows == 3
    assert peak <= 2 * nbytes


@slow
@pytest.mark.parametrize("backend", ["eager", "inductor"])
@pytest.mark.parametrize("scheme", ["rope", "rope-yarn", "alibi"])
def test_decoder_with_a_kv_cache_compiles_fullgraph(scheme, backend):
    """Issue 31: a decoder written with posenc's RoPE or ALiBi compiles with fullgraph=True and
    decodes with a KV cache (prefill, then one token at a time: the cache grows, so the sizes
    go dynamic), equal to eager."""
    import torch

    from test_torch_rotary import _Decoder

    from posenc.torch_module import RotaryEmbedding

    torch._dynamo.reset()
    model = _Decoder(scheme=scheme.split("-")[0])
    if scheme == "rope-yarn":                 # frequencies and attention factor of a YaRN block
        model.rope = RotaryEmbedding.from_rope_parameters(
            {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0,
             "original_max_position_embeddings": 4}, head_dim=8)
    compiled = torch.compile(model, backend=backend, fullgraph=True)
    x = torch.randn(2, 10, 32)
    out, cache = compiled(x[:, :4])
    ref, ref_cache = model(x[:, :4])
    assert torch.allclose(out, ref, atol=1e-6)
    for t in range(4, 10):
        out, cache = compiled(x[:, t:t + 1], cache)
        ref, ref_cache = model(x[:, t:t + 1], ref_cache)
        assert torch.allclose(out, ref, atol=1e-6), t


@slow
def test_an_exported_program_loads_and_runs_without_posenc(tmp_path):
    """torch.export of the sinusoidal module with positions, and of RoPE: pure ATen ops (the
    range check is torch._assert_async), so a process that cannot import posenc loads it."""
    import torch

    from posenc.torch_module import RotaryEmbedding, SinusoidalPositionalEncoding

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.pe, self.rope = SinusoidalPositionalEncoding(8, 64), RotaryEmbedding(8)

        def forward(self, x, positions):
            q = self.pe(x, positions).unsqueeze(1)
            return self.rope(q, q, positions)[0]

    x, positions = torch.randn(2, 5, 8), torch.arange(5).expand(2, 5).contiguous()
    program = torch.export.export(Model(), (x, positions))
    torch.export.save(program, tmp_path / "model.pt2")
    torch.save((x, positions, Model()(x, positions)), tmp_path / "io.pt")
    code = ("import sys; sys.modules['posenc'] = None\n"
            "import torch\n"
            "program = torch.export.load('model.pt2')\n"
            "x, positions, expected = torch.load('io.pt')\n"
            "print(torch.equal(program.module()(x, positions), expected))\n"
            "try:\n"
            "    program.module()(x, positions + 60)\n"
            "except RuntimeError as error:\n"
            "    print('max_len=64' in str(error))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, env={k: v for k, v in os.environ.items()
                                            if k != "PYTHONPATH"})
    assert run.stdout.split() == ["True", "True"], run.stderr[-2000:]


def test_a_numpy_integer_offset_compiles_fullgraph():
    """torch-B4 (outside read 2026-12): a NumPy integer offset worked eagerly but failed under
    fullgraph=True ("Unsupported: repr() on tensor" in positions_for: dynamo sees a NumPy int
    as a 0-d ndarray, so it fell to the TypeError branch, whose repr cannot be traced)."""
    import numpy as np
    import torch

    from posenc.torch_module import RotaryEmbedding

    torch._dynamo.reset()
    rope = RotaryEmbedding(16)
    q = torch.randn(1, 2, 1, 16)
    f = torch.compile(lambda q, o: rope(q, q, offset=o)[0], fullgraph=True, backend="eager")
    want = rope(q, q, offset=7)[0]
    assert torch.equal(f(q, np.int64(7)), want)
    assert torch.equal(rope(q, q, offset=np.int32(7))[0], want)
