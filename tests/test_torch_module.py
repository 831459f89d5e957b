"""The PyTorch modules: exact tables, dtype safety, gradients, state_dict, errors, compile, CUDA."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import posenc  # noqa: E402
from posenc.torch_module import LearnedPositionalEmbedding, SinusoidalPositionalEncoding  # noqa: E402

from reference import exact_entry  # noqa: E402


def test_import_posenc_does_not_import_torch():
    code = ("import importlib, pkgutil, sys, posenc\n"
            "for m in pkgutil.iter_modules(posenc.__path__):\n"
            "    if m.name not in ('torch_module', 'plots'):\n"
            "        importlib.import_module('posenc.' + m.name)\n"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_matches_the_numpy_table_exactly(layout):
    module = SinusoidalPositionalEncoding(16, max_len=50, layout=layout)
    for dtype, np_dtype in ((torch.float64, "float64"), (torch.float32, "float32")):
        out = module(torch.zeros(3, 50, 16, dtype=dtype))
        expected = posenc.encode(50, 16, layout=layout, dtype=np_dtype)
        for row in out:
            assert np.array_equal(row.numpy(), expected)


def test_matches_an_independent_reference():
    module = SinusoidalPositionalEncoding(8, max_len=200)
    out = module(torch.zeros(1, 200, 8, dtype=torch.float64))[0]
    for pos, col in [(0, 0), (1, 1), (57, 2), (199, 7), (123, 5)]:
        assert abs(float(out[pos, col]) - float(exact_entry(pos, col, 8))) < 1e-14


def test_start_selects_later_positions():
    module = SinusoidalPositionalEncoding(8, max_len=20)
    x = torch.zeros(2, 4, 8, dtype=torch.float64)
    out = module(x, start=7)
    assert np.array_equal(out[1].numpy(), posenc.encode([7, 8, 9, 10], 8))
    # One token at a time gives the same rows as the whole sequence at once.
    steps = torch.cat([module(x[:, :1], start=s) for s in range(4)], dim=1)
    assert torch.equal(steps, module(x))


def test_gradients_reach_the_input_not_the_buffer():
    module = SinusoidalPositionalEncoding(8, max_len=10)
    x = torch.randn(2, 5, 8, requires_grad=True)
    (module(x) * 3.0).sum().backward()
    assert torch.equal(x.grad, torch.full_like(x, 3.0))
    assert not module.pe.requires_grad and module.pe.grad is None
    assert list(module.parameters()) == []


def test_learned_gradients_reach_only_the_rows_used():
    module = LearnedPositionalEmbedding(10, 4)
    x = torch.randn(2, 3, 4, requires_grad=True)
    module(x, start=2).sum().backward()
    grad = module.embedding.weight.grad
    assert torch.equal(grad[2:5], torch.full((3, 4), 2.0))       # two sequences in the batch
    assert torch.count_nonzero(grad[:2]) == 0 and torch.count_nonzero(grad[5:]) == 0
    assert torch.equal(x.grad, torch.ones_like(x))


def test_state_dict_leaves_out_the_sinusoidal_table():
    module = SinusoidalPositionalEncoding(8, max_len=10)
    assert list(module.state_dict()) == []
    assert sorted(dict(module.named_buffers())) == ["pe", "pe_odd"]
    fresh = SinusoidalPositionalEncoding(8, max_len=10)
    fresh.load_state_dict(module.state_dict())           # strict load of an empty dict works
    learned = LearnedPositionalEmbedding(10, 8)
    assert list(learned.state_dict()) == ["embedding.weight"]
    other = LearnedPositionalEmbedding(10, 8)
    other.load_state_dict(learned.state_dict())
    assert torch.equal(other.embedding.weight, learned.embedding.weight)


@pytest.mark.parametrize("cast", [
    lambda m: m.half(), lambda m: m.bfloat16(), lambda m: m.to(torch.bfloat16),
    lambda m: m.to("cpu", torch.float16), lambda m: m.double(), lambda m: m.float(),
])
def test_dtype_casts_never_degrade_the_table(cast):
    module = SinusoidalPositionalEncoding(16, max_len=100)
    before = module.pe.clone()
    cast(module).float()
    assert module.pe.dtype == torch.float64 and module.pe_odd.dtype == torch.float32
    assert torch.equal(module.pe, before)


def correctly_rounded(values, significant_bits, min_exponent):
    """Round float64 values to a binary format with the given precision, ties to even,
    written from the definition (frexp/ldexp on float64, where every step is exact)."""
    m, e = np.frexp(values)                       # values = m * 2**e, 0.5 <= |m| < 1
    e = np.maximum(e, min_exponent)               # below the normal range: fixed spacing
    step_exponent = e - significant_bits
    return np.ldexp(np.rint(np.ldexp(values, -step_exponent)), step_exponent)


@pytest.mark.parametrize("dtype, bits, min_exponent", [
    (torch.bfloat16, 8, -125), (torch.float16, 11, -13),
])
def test_half_precision_entries_are_correctly_rounded(dtype, bits, min_exponent):
    module = SinusoidalPositionalEncoding(64, max_len=3000).to(dtype)
    out = module(torch.zeros(1, 3000, 64, dtype=dtype))
    assert out.dtype == dtype
    exact = posenc.encode(3000, 64)
    expected = correctly_rounded(exact, bits, min_exponent)
    assert np.array_equal(out[0].double().numpy(), expected)
    # A plain float64 -> 16-bit cast in PyTorch rounds twice (through float32) and misses a few.
    plain = torch.from_numpy(exact).to(dtype).double().numpy()
    assert 0 < np.count_nonzero(plain != expected) < 20


def test_reference_rounding_is_right():
    # bfloat16 holds 1 + 2**-7 but not 1 + 2**-8 (a tie, goes to even 1.0) ...
    assert np.array_equal(correctly_rounded(np.array([1 + 2**-7, 1 + 2**-8, 1 + 3 * 2**-8]), 8, -125),
                          [1 + 2**-7, 1.0, 1 + 2**-6])
    # ... and it agrees with PyTorch wherever a single rounding is involved (float32 inputs).
    v = np.random.default_rng(0).uniform(-1, 1, 10000).astype(np.float32).astype(np.float64)
    for dtype, bits, lo in ((torch.bfloat16, 8, -125), (torch.float16, 11, -13)):
        assert np.array_equal(torch.from_numpy(v).to(dtype).double().numpy(),
                              correctly_rounded(v, bits, lo))


def test_a_naive_float32_buffer_is_degraded_for_good():
    class Naive(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("pe", torch.from_numpy(posenc.encode(100, 16, dtype="float32")))

    naive, ours = Naive().half().float(), SinusoidalPositionalEncoding(16, max_len=100).half().float()
    exact = torch.from_numpy(posenc.encode(100, 16))
    assert (naive.pe.double() - exact).abs().max().item() > 1e-4
    assert (ours(torch.zeros(1, 100, 16))[0].double() - exact).abs().max().item() < 3e-8


def test_to_empty_leaves_valid_tables():
    # Meta-device initialisation: build (or move) on "meta", then materialise with to_empty.
    # to_empty replaces every buffer by uninitialised memory; the tables must come back.
    exact = posenc.encode(10, 8)
    for module in (SinusoidalPositionalEncoding(8, max_len=10),
                   SinusoidalPositionalEncoding(8, max_len=10).to("meta")):
        module.to_empty(device="cpu")
        assert module.pe.dtype == torch.float64 and module.pe.device.type == "cpu"
        assert np.array_equal(module.pe.numpy(), exact)
        # pe_odd is within one float32 step of the table and rounds to it in float32 ...
        assert np.all(np.abs(module.pe_odd.double().numpy() - exact)
                      <= np.spacing(np.abs(exact).astype(np.float32)))
        out = module(torch.zeros(1, 10, 8, dtype=torch.bfloat16))[0]
        assert np.array_equal(out.double().numpy(), correctly_rounded(exact, 8, -125))


def test_follows_the_device_and_stays_float64():
    module = SinusoidalPositionalEncoding(8, max_len=10).to("meta")
    assert module.pe.device.type == "meta" and module.pe.dtype == torch.float64
    assert module.to(torch.float16).pe_odd.device.type == "meta"


def test_dropout_applies_in_training_only():
    module = SinusoidalPositionalEncoding(8, max_len=10, dropout=0.5)
    x = torch.ones(4, 10, 8)
    torch.manual_seed(0)
    train = module(x)
    zeros = (train == 0).float().mean().item()
    assert 0.3 < zeros < 0.7
    kept = train != 0
    assert torch.allclose(train[kept], (2 * module.eval()(x))[kept])
    assert torch.equal(module(x), module(x))           # eval: deterministic


def test_learned_module_basics():
    module = LearnedPositionalEmbedding(512, 768)
    assert sum(p.numel() for p in module.parameters()) == 512 * 768
    x = torch.zeros(2, 4, 768, dtype=torch.bfloat16)
    out = module(x, start=508)
    assert out.dtype == torch.bfloat16
    assert torch.equal(out[0].float(), module.embedding.weight[508:512].detach().bfloat16().float())


@pytest.mark.parametrize("factory", [
    lambda: SinusoidalPositionalEncoding(8, max_len=16),
    lambda: LearnedPositionalEmbedding(16, 8),
])
def test_refuses_positions_past_max_len(factory):
    module = factory()
    module(torch.zeros(1, 16, 8))                      # exactly max_len is fine
    with pytest.raises(ValueError, match=r"positions 0\.\.16 .*max_len=16.*max_len >= 17"):
        module(torch.zeros(1, 17, 8))
    with pytest.raises(ValueError, match=r"positions 15\.\.16"):
        module(torch.zeros(1, 2, 8), start=15)


@pytest.mark.parametrize("factory", [
    lambda: SinusoidalPositionalEncoding(8, max_len=16),
    lambda: LearnedPositionalEmbedding(16, 8),
])
@pytest.mark.parametrize("x, start, exc, words", [
    (torch.zeros(5, 8), 0, ValueError, r"\(batch, seq, d_model\).*unsqueeze"),
    (torch.zeros(2, 3, 5, 8), 0, ValueError, r"\(batch, seq, d_model\)"),
    (torch.zeros(2, 8, 3), 0, ValueError, r"d_model=8.*seq-first"),
    (torch.zeros(2, 3, 8, dtype=torch.int64), 0, TypeError, "floating point.*token ids"),
    (torch.zeros(2, 3, 8, dtype=torch.bool), 0, TypeError, "floating point"),
    (np.zeros((2, 3, 8)), 0, TypeError, "torch.Tensor"),
    (torch.zeros(2, 3, 8), -1, ValueError, "start must be >= 0"),
    (torch.zeros(2, 3, 8), 1.0, TypeError, "start"),
    (torch.zeros(2, 3, 8), True, TypeError, "start"),
])
def test_bad_input_is_refused(factory, x, start, exc, words):
    with pytest.raises(exc, match=words):
        factory()(x, start=start)


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"d_model": 7}, ValueError, "d_model.*even"),
    ({"d_model": 8.0}, TypeError, "d_model"),
    ({"max_len": 0}, ValueError, "max_len"),
    ({"max_len": 10.0}, TypeError, "max_len"),
    ({"dropout": 1.0}, ValueError, "dropout"),
    ({"dropout": "0.1"}, TypeError, "dropout"),
    ({"base": 1.0}, ValueError, "base"),
    ({"layout": "concat"}, ValueError, "layout"),
])
def test_bad_constructor_arguments(kwargs, exc, words):
    args = {"d_model": 8, "max_len": 10} | kwargs
    with pytest.raises(exc, match=words):
        SinusoidalPositionalEncoding(**args)


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"d_model": 7}, ValueError, "d_model.*even"),
    ({"max_len": -3}, ValueError, "max_len"),
    ({"init_std": 0.0}, ValueError, "init_std"),
    ({"init_std": "0.02"}, TypeError, "init_std"),
    ({"dropout": -0.1}, ValueError, "dropout"),
])
def test_bad_learned_constructor_arguments(kwargs, exc, words):
    args = {"d_model": 8, "max_len": 10} | kwargs
    with pytest.raises(exc, match=words):
        LearnedPositionalEmbedding(**args)


@pytest.mark.skipif(os.environ.get("POSENC_TEST_COMPILE") != "1",
                    reason="torch.compile costs about 9 s on a 2-core CPU, too slow for the default "
                           "suite; run with POSENC_TEST_COMPILE=1")
def test_torch_compile_traces_the_whole_forward():
    compile_ = getattr(torch, "compile", None)
    if compile_ is None:
        pytest.skip("torch.compile is not available in this torch build")
    module = SinusoidalPositionalEncoding(8, max_len=32)
    # The "eager" backend checks that TorchDynamo captures forward as a single graph
    # (fullgraph=True fails on any graph break) without paying for C++ code generation,
    # which takes tens of seconds on a small CPU and would blow the suite's time budget.
    compiled = compile_(module, backend="eager", fullgraph=True)
    x = torch.randn(2, 5, 8)
    t0 = time.perf_counter()
    out = compiled(x, start=3)
    if time.perf_counter() - t0 > 20:
        pytest.skip("torch.compile tracing took over 20 s on this machine")
    assert torch.equal(out, module(x, start=3))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("dtype, bits, min_exponent", [
    (torch.float16, 11, -13), (torch.bfloat16, 8, -125),
])
def test_on_cuda(dtype, bits, min_exponent):
    module = SinusoidalPositionalEncoding(32, max_len=128).cuda().to(dtype)
    assert module.pe.device.type == "cuda" and module.pe.dtype == torch.float64
    assert module.pe_odd.device.type == "cuda" and module.pe_odd.dtype == torch.float32
    # The rows added are the float64 table rounded once to the input's dtype, as documented:
    # compare with the rounding written from the definition, not with a plain PyTorch cast
    # (float64 -> float32 -> 16 bits rounds twice and misses a few entries).
    rows = module(torch.zeros(1, 100, 32, device="cuda", dtype=dtype), start=28)[0]
    assert rows.device.type == "cuda" and rows.dtype == dtype
    expected_rows = correctly_rounded(posenc.encode(range(28, 128), 32), bits, min_exponent)
    assert np.array_equal(rows.double().cpu().numpy(), expected_rows)
    # With real input the sum is rounded once more, by the device's own addition: compare with
    # the same addition applied to the expected rows (exactly representable in dtype).
    x = torch.randn(2, 100, 32, device="cuda", dtype=dtype)
    out = module(x, start=28)
    assert out.device.type == "cuda" and out.dtype == dtype
    assert torch.equal(out, x + torch.from_numpy(expected_rows).to("cuda", dtype))
    learned = LearnedPositionalEmbedding(128, 32).cuda()
    assert learned(x.float()).device.type == "cuda"


def test_clear_message_when_torch_is_missing(tmp_path):
    """In an environment without torch, importing the module says what to install."""
    import subprocess
    import sys
    from pathlib import Path

    blocker = tmp_path / "torch.py"
    blocker.write_text("raise ModuleNotFoundError(\"No module named 'torch'\", name='torch')\n")
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run([sys.executable, "-c", "import posenc.torch_module"],
                         cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": f"{tmp_path}:{root}", "PATH": "/usr/bin:/bin"})
    assert run.returncode != 0
    assert "pip install 'posenc[torch]'" in run.stderr
