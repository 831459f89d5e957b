"""The PyTorch modules: exact tables, correct rounding in every dtype, memory, state_dict,
devices, errors. torch is imported inside the tests, so collecting this file is cheap."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import posenc
from reference import exact_entry

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                reason="needs PyTorch")

# (dtype name, significant bits, smallest normal exponent as np.frexp counts it)
HALF = [("bfloat16", 8, -125), ("float16", 11, -13)]


def correctly_rounded(values, significant_bits, min_exponent):
    """Round float64 values to a binary format with the given precision, ties to even,
    written from the definition (frexp/ldexp on float64, where every step is exact)."""
    m, e = np.frexp(values)                       # values = m * 2**e, 0.5 <= |m| < 1
    e = np.maximum(e, min_exponent)               # below the normal range: fixed spacing
    step_exponent = e - significant_bits
    return np.ldexp(np.rint(np.ldexp(values, -step_exponent)), step_exponent)


def module(*args, **kwargs):
    from posenc.torch_module import SinusoidalPositionalEncoding

    return SinusoidalPositionalEncoding(*args, **kwargs)


def test_import_posenc_does_not_import_torch():
    code = ("import importlib, pkgutil, sys, posenc\n"
            "for m in pkgutil.iter_modules(posenc.__path__):\n"
            "    if m.name not in ('torch_module', 'plots'):\n"
            "        importlib.import_module('posenc.' + m.name)\n"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_collecting_the_torch_tests_does_not_import_torch():
    code = ("import sys, runpy\n"
            "sys.path.insert(0, 'tests/package')\n"
            "import pytest\n"
            "for f in ('test_torch_module', 'test_torch_positions', 'test_torch_compile'):\n"
            "    __import__(f)\n"
            "print('torch' in sys.modules)")
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_matches_the_numpy_table_exactly(layout):
    import torch

    m = module(16, max_len=50, layout=layout, dtype=torch.float64)
    for dtype, np_dtype in ((torch.float64, "float64"), (torch.float32, "float32")):
        out = m(torch.zeros(3, 50, 16, dtype=dtype))
        expected = posenc.encode(50, 16, layout=layout, dtype=np_dtype)
        for row in out:
            assert np.array_equal(row.numpy(), expected)


def test_matches_an_independent_reference():
    import torch

    m = module(8, max_len=200)
    out64 = m(torch.zeros(1, 200, 8, dtype=torch.float64))[0]
    out32 = m(torch.zeros(1, 200, 8))[0]
    for pos, col in [(0, 0), (1, 1), (57, 2), (199, 7), (123, 5)]:
        exact = exact_entry(pos, col, 8)
        assert abs(float(out64[pos, col]) - float(exact)) < 1e-14
        # float32: the nearest float32 to the exact value (no entry here is near a midpoint)
        assert float(out32[pos, col]) == float(np.float32(float(exact)))


@pytest.mark.parametrize("name, bits, min_exponent", HALF)
def test_half_precision_entries_are_correctly_rounded(name, bits, min_exponent):
    import torch

    dtype = getattr(torch, name)
    m = module(64, max_len=20000)
    out = m(torch.zeros(1, 20000, 64, dtype=dtype))[0]
    assert out.dtype == dtype
    exact = posenc.encode(20000, 64)
    expected = correctly_rounded(exact, bits, min_exponent)
    assert np.array_equal(out.double().numpy(), expected)
    # PyTorch's float64 -> 16-bit cast rounds twice (through float32) and misses some entries,
    # and so does casting the module's float32 table: the module does neither.
    plain = torch.from_numpy(exact).to(dtype).double().numpy()
    via32 = m.table(torch.float32).to(dtype).double().numpy()
    assert np.count_nonzero(plain != expected) > 0
    assert np.count_nonzero(via32 != expected) > 0


@pytest.mark.parametrize("name, bits, min_exponent", HALF)
def test_rounding_to_16_bits_near_every_kind_of_tie(name, bits, min_exponent):
    import torch
    from posenc.torch_module import round_to_16_bit

    rng = np.random.default_rng(1)
    # 16-bit midpoints at many scales (normal and, for float16, subnormal), then pushed a
    # little up or down, or left exactly on the tie, with both signs.
    exponent = rng.integers(-30, 1, 20000)
    mantissa = rng.integers(2 ** (bits - 1), 2**bits, 20000)
    tie = np.ldexp(2.0 * mantissa + 1, exponent - bits - 1)
    push = rng.choice([-1.0, 0.0, 1.0], 20000) * rng.choice([2.0**-40, 2.0**-30, 2.0**-26],
                                                             20000) * np.abs(tie)
    values = rng.choice([-1.0, 1.0], 20000) * (tie + push)
    ours = round_to_16_bit(values, getattr(torch, name)).double().numpy()
    assert np.array_equal(ours, correctly_rounded(values, bits, min_exponent))


@pytest.mark.parametrize("name, bits, min_exponent", HALF)
def test_ties_finds_exactly_the_midpoints(name, bits, min_exponent):
    import torch
    from posenc.torch_module import ties

    rng = np.random.default_rng(2)
    raw = rng.integers(0, 2**32, 300000, dtype=np.uint64).astype(np.uint32)
    raw &= np.uint32(0xBF7FFFFF)                  # |v| < 2: finite, in float16's range
    raw[::3] = (raw[::3] & np.uint32(0xFFFF0000)) | np.uint32(0x8000)    # bfloat16 pattern
    raw[1::3] = (raw[1::3] & np.uint32(0xFFFFE000)) | np.uint32(0x1000)  # float16 pattern
    v = raw.view(np.float32)
    # the definition: v / (half a 16-bit step) is an odd integer
    m, e = np.frexp(v.astype(np.float64))
    scaled = np.ldexp(v.astype(np.float64), -(np.maximum(e, min_exponent) - bits))
    expected = np.flatnonzero(scaled - np.floor(scaled) == 0.5)
    found = ties(v, getattr(torch, name))
    assert np.array_equal(found, expected) and found.size > 1000


def test_resident_memory_is_one_table_per_dtype_used():
    import torch

    m = module(64, max_len=1000)
    assert m.nbytes == 4 * 1000 * 64                       # float32: 4 bytes per entry
    m(torch.zeros(1, 3, 64, dtype=torch.bfloat16))
    assert m.nbytes == (4 + 2) * 1000 * 64                 # a bfloat16 table once it is used
    assert module(64, max_len=1000, dtype=torch.bfloat16).nbytes == 2 * 1000 * 64
    assert list(m.buffers()) == [] and list(m.parameters()) == []


@pytest.mark.parametrize("cast", ["half", "bfloat16", "double", "float"])
def test_dtype_casts_never_touch_the_table(cast):
    import torch

    m = module(16, max_len=100)
    before = m.table().clone()
    getattr(m, cast)()
    m.to(torch.bfloat16)
    assert m.table().dtype == torch.float32 and torch.equal(m.table(), before)
    out = m(torch.zeros(1, 100, 16, dtype=torch.bfloat16))[0]
    assert np.array_equal(out.double().numpy(), correctly_rounded(posenc.encode(100, 16), 8, -125))


def test_state_dict_is_empty_and_loads_strictly():
    import torch
    from posenc.torch_module import LearnedPositionalEmbedding

    m = module(8, max_len=10)
    assert list(m.state_dict()) == []
    module(8, max_len=10).load_state_dict(m.state_dict())
    learned = LearnedPositionalEmbedding(10, 8)
    assert list(learned.state_dict()) == ["embedding.weight"]
    other = LearnedPositionalEmbedding(10, 8)
    other.load_state_dict(learned.state_dict())
    assert torch.equal(other.embedding.weight, learned.embedding.weight)


class Tutorial:
    """The PyTorch tutorial's module, written from its description: seq-first, a persistent
    float32 buffer ``pe`` of shape (max_len, 1, d_model), angles in float32."""

    @staticmethod
    def make(d_model, max_len, base=10000.0, concatenated=False):
        import math

        import torch

        class PositionalEncoding(torch.nn.Module):
            def __init__(self):
                super().__init__()
                position = torch.arange(max_len).unsqueeze(1)
                div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(base) / d_model))
                pe = torch.zeros(max_len, 1, d_model)
                if concatenated:
                    pe[:, 0, :d_model // 2] = torch.sin(position * div_term)
                    pe[:, 0, d_model // 2:] = torch.cos(position * div_term)
                else:
                    pe[:, 0, 0::2] = torch.sin(position * div_term)
                    pe[:, 0, 1::2] = torch.cos(position * div_term)
                self.register_buffer("pe", pe)

            def forward(self, x):
                return x + self.pe[:x.size(0)]

        return PositionalEncoding()


def test_loads_a_tutorial_checkpoint_after_checking_its_table():
    import torch

    class Model(torch.nn.Module):
        def __init__(self, pos):
            super().__init__()
            self.pos_encoder = pos

    old = Model(Tutorial.make(64, 20000))
    new = Model(module(64, max_len=20000, batch_first=False))
    assert new.load_state_dict(old.state_dict(), strict=True).missing_keys == []
    x = torch.randn(30, 2, 64)
    assert torch.allclose(new.pos_encoder(x), old.pos_encoder(x), atol=1e-3)
    # a longer stored table is compared on the module's rows; batch-first (1, max_len, d)
    short = Model(module(64, max_len=100))
    short.load_state_dict({"pos_encoder.pe": old.pos_encoder.pe.transpose(0, 1)})


@pytest.mark.parametrize("tutorial, words", [
    (dict(base=1000.0), "none of"),
    (dict(concatenated=True), "layout='concatenated'"),
])
def test_a_table_built_another_way_is_reported(tutorial, words):
    import torch

    with pytest.raises(RuntimeError, match=rf"pe: the stored table is not this module's.*{words}"):
        module(64, max_len=200, batch_first=False).load_state_dict(
            Tutorial.make(64, 200, **tutorial).state_dict())
    with pytest.raises(RuntimeError, match=r"pe: expected a stored table of shape"):
        module(64, max_len=200).load_state_dict({"pe": torch.zeros(200, 2, 64)})


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_a_half_precision_checkpoint_loads(name):
    import torch

    dtype = getattr(torch, name)
    tutorial = Tutorial.make(64, 5000).to(dtype)        # as saved after .half() / in bfloat16
    new = module(64, max_len=5000, batch_first=False)
    assert new.load_state_dict(tutorial.state_dict(), strict=True).missing_keys == []
    # this module's own table rounded to that dtype loads too, batch-first
    own = module(64, max_len=5000).table(dtype)
    module(64, max_len=5000).load_state_dict({"pe": own[None]})


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_a_wrong_half_precision_table_is_refused_naming_its_dtype(name):
    import torch

    dtype = getattr(torch, name)
    table = module(64, max_len=300).table(dtype).clone()
    two_steps = torch.finfo(dtype).eps * 2          # two units in the last place near 1
    table[200, 7] += two_steps
    with pytest.raises(RuntimeError, match=rf"pe: the stored table \({name}\) is not this "
                       rf"module's table rounded to {name} .*position 200, column 7"):
        module(64, max_len=300).load_state_dict({"pe": table})
    base_1000 = Tutorial.make(64, 300, base=1000.0).to(dtype).state_dict()
    with pytest.raises(RuntimeError, match=rf"\({name}\).*rounded to {name}.*none of"):
        module(64, max_len=300, batch_first=False).load_state_dict(base_1000)


def test_a_seq_first_table_asks_for_the_layout():
    """Replacing the tutorial's seq-first module: the layout of x cannot be told from its shape
    when both axes fit, so a module built without batch_first refuses the checkpoint and names
    both choices (issue 31); with either choice made it loads silently."""
    import warnings

    old = Tutorial.make(64, 5000).state_dict()            # pe: (5000, 1, 64)
    with pytest.raises(RuntimeError, match=r"shape \(5000, 1, 64\), seq-first.*batch_first=False"
                       r" to keep x of shape \(seq, batch, 64\), or batch_first=True"):
        module(64, max_len=5000).load_state_dict(old)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                     # a layout chosen: no warning
        module(64, max_len=5000, batch_first=False).load_state_dict(old)
        module(64, max_len=5000, batch_first=True).load_state_dict(old)
        module(64, max_len=5000).load_state_dict({"pe": old["pe"].transpose(0, 1)})
    with pytest.warns(UserWarning, match=r"\(1, 5000, 64\), batch-first.*batch_first=False"):
        module(64, max_len=5000, batch_first=False).load_state_dict(
            {"pe": old["pe"].transpose(0, 1)})


def test_tutorial_positional_dropout_is_named():
    """PositionalEncoding(d_model, 0.1) is the tutorial's (d_model, dropout) call."""
    with pytest.raises(TypeError, match=r"got 0\.1; 0\.1 looks like the dropout of the PyTorch "
                       r"tutorial's PositionalEncoding\(d_model, dropout\).*dropout=0\.1"):
        module(64, 0.1)


def test_torch_jit_script_fails_at_once_naming_what_works():
    import torch

    from posenc.torch_module import LearnedPositionalEmbedding
    from posenc.torch_module.rotary import RotaryEmbedding

    for m in (module(8, 16), LearnedPositionalEmbedding(8, 16), RotaryEmbedding(8),
              torch.nn.Sequential(torch.nn.Linear(8, 8), module(8, 16))):
        with pytest.raises(TypeError, match=r"does not support torch\.jit\.script.*"
                                            r"torch\.compile.*torch\.export"):
            torch.jit.script(m)


def test_strict_false_is_what_it_is_for_any_module():
    """strict=False forgives missing and unexpected keys; like a parameter of the wrong shape
    under nn.Module's own rules, a stored table that is not this module's is refused either
    way (silently dropping it would change the model's output)."""
    import torch

    class Model(torch.nn.Module):
        def __init__(self, pos):
            super().__init__()
            self.proj = torch.nn.Linear(64, 64)
            self.pos = pos

    old = Model(Tutorial.make(64, 100)).state_dict() | {"head.weight": torch.zeros(3)}
    new = Model(module(64, max_len=100, batch_first=False))
    keys = new.load_state_dict(old, strict=False)
    assert keys.unexpected_keys == ["head.weight"] and keys.missing_keys == []
    with pytest.raises(RuntimeError, match=r"Unexpected key\(s\) in state_dict: \"head.weight"):
        new.load_state_dict(old)
    del old["proj.weight"]
    assert new.load_state_dict(old, strict=False).missing_keys == ["proj.weight"]
    wrong = Model(Tutorial.make(64, 100, base=1000.0)).state_dict()
    wrong_shape = {**wrong, "proj.weight": torch.zeros(64, 3)}
    for strict in (True, False):
        with pytest.raises(RuntimeError, match=r"pos.pe: the stored table is not this module"):
            new.load_state_dict(wrong, strict=strict)
        with pytest.raises(RuntimeError, match=r"size mismatch for proj.weight"):
            new.load_state_dict(wrong_shape, strict=strict)


@pytest.mark.parametrize("cast, name", [("half", "float16"), ("bfloat16", "bfloat16"),
                                        ("to", "bfloat16"), ("double", "float64")])
def test_a_cast_builds_the_table_for_its_dtype_rounded_once(cast, name):
    import torch
    from posenc.torch_module.table import build_table

    dtype = getattr(torch, name)
    m = module(64, max_len=3000)
    before = m.table().clone()
    m.to(dtype) if cast == "to" else getattr(m, cast)()
    assert set(m._tables) == {torch.float32, dtype}       # built at the cast, not at a call
    assert torch.equal(m._tables[dtype], build_table(3000, 64, dtype=dtype))
    assert torch.equal(m.table(), before)                 # the float32 table is untouched
    m.to("meta")
    assert all(t.is_meta for t in m._tables.values())
    m.to_empty(device="cpu")
    assert torch.equal(m._tables[dtype], build_table(3000, 64, dtype=dtype))


def test_meta_device_and_to_empty_leave_a_valid_table():
    import torch

    for m in (module(8, max_len=10), module(8, max_len=10, device="meta"),
              module(8, max_len=10).to("meta")):
        m.to_empty(device="cpu")
        out = m(torch.zeros(1, 10, 8))[0]
        assert np.array_equal(out.numpy(), posenc.encode(10, 8, dtype="float32"))


def test_the_table_follows_the_input_device():
    import torch

    m = module(8, max_len=10, device="meta")
    assert m.table().device.type == "meta"
    assert m(torch.zeros(1, 4, 8, device="meta")).device.type == "meta"
    m(torch.zeros(1, 4, 8))
    assert m.table().device.type == "cpu"


DDP_SCRIPT = """
import os, sys
import torch
import torch.distributed as dist
from posenc.torch_module import SinusoidalPositionalEncoding

if not dist.is_available():
    print("unavailable"); sys.stdout.flush(); os._exit(0)
dist.init_process_group("gloo", init_method="file://" + sys.argv[1], rank=0, world_size=1)
net = torch.nn.Sequential(torch.nn.Linear(8, 8), SinusoidalPositionalEncoding(8, max_len=10))
ddp = torch.nn.parallel.DistributedDataParallel(net)
assert [b for b in ddp.module.buffers()] == []          # broadcast_buffers has no work
ddp(torch.zeros(2, 5, 8)).sum().backward()
print("ok")
sys.stdout.flush()
# Gloo's process-group destructor can wait forever on its worker threads (seen under the CPU
# matrix): the check is done, so leave without running destructors.
os._exit(0)
"""


def test_ddp_has_nothing_to_broadcast(tmp_path):
    # In a child process with a time limit: a hang in gloo's teardown must not stall the suite.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", DDP_SCRIPT, str(tmp_path / "store")], env=env,
                         capture_output=True, text=True, timeout=180)
    if run.stdout.strip() == "unavailable":
        pytest.skip("torch.distributed is not available")
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


def test_dropout_applies_in_training_only():
    import torch

    m = module(8, max_len=10, dropout=0.5)
    x = torch.ones(4, 10, 8)
    torch.manual_seed(0)
    train = m(x)
    zeros = (train == 0).float().mean().item()
    assert 0.3 < zeros < 0.7
    kept = train != 0
    assert torch.allclose(train[kept], (2 * m.eval()(x))[kept])
    assert torch.equal(m(x), m(x))                        # eval: deterministic


def test_gradients_reach_the_input_only():
    import torch

    m = module(8, max_len=10)
    x = torch.randn(2, 5, 8, requires_grad=True)
    (m(x) * 3.0).sum().backward()
    assert torch.equal(x.grad, torch.full_like(x, 3.0))
    assert not m.table().requires_grad


def test_learned_module_basics():
    import torch
    from posenc.torch_module import LearnedPositionalEmbedding

    m = LearnedPositionalEmbedding(512, 768)
    assert sum(p.numel() for p in m.parameters()) == 512 * 768
    x = torch.zeros(2, 4, 768, dtype=torch.bfloat16)
    out = m(x, start=508)
    assert out.dtype == torch.bfloat16
    assert torch.equal(out[0].float(), m.embedding.weight[508:512].detach().bfloat16().float())
    x = torch.randn(2, 3, 4, requires_grad=True)
    learned = LearnedPositionalEmbedding(10, 4)
    learned(x, start=2).sum().backward()
    grad = learned.embedding.weight.grad
    assert torch.equal(grad[2:5], torch.full((3, 4), 2.0))
    assert torch.count_nonzero(grad[:2]) == 0 and torch.count_nonzero(grad[5:]) == 0


@pytest.mark.parametrize("which", ["sinusoidal", "learned"])
def test_refuses_positions_past_max_len(which):
    import torch
    from posenc.torch_module import LearnedPositionalEmbedding

    m = module(8, max_len=16) if which == "sinusoidal" else LearnedPositionalEmbedding(16, 8)
    m(torch.zeros(1, 16, 8))                              # exactly max_len is fine
    with pytest.raises(ValueError, match=r"positions 0\.\.16 .*max_len=16.*max_len >= 17"):
        m(torch.zeros(1, 17, 8))
    with pytest.raises(ValueError, match=r"positions 15\.\.16"):
        m(torch.zeros(1, 2, 8), start=15)


BAD_X = [
    ("torch.zeros(5, 8)", 0, ValueError, r"\(batch, seq, d_model.*\).*unsqueeze"),
    ("torch.zeros(2, 3, 5, 8)", 0, ValueError, r"\(batch, seq, d_model"),
    ("torch.zeros(2, 8, 3)", 0, ValueError, r"d_model=8.*transposed"),
    ("torch.zeros(2, 3, 6)", 0, ValueError, r"d_model=8\), got shape \(2, 3, 6\); the last "
     r"axis of x is its embedding width, 6: build the module with d_model=6$"),
    ("torch.zeros(2, 3, 8, dtype=torch.int64)", 0, TypeError, "floating point.*token ids"),
    ("torch.zeros(2, 3, 8, dtype=torch.bool)", 0, TypeError, "floating point"),
    ("np.zeros((2, 3, 8))", 0, TypeError, "torch.Tensor"),
    ("torch.zeros(2, 3, 8)", -1, ValueError, "start must be >= 0"),
    ("torch.zeros(2, 3, 8)", 1.0, TypeError, "start"),
    ("torch.zeros(2, 3, 8)", True, TypeError, "start"),
]


@pytest.mark.parametrize("which", ["sinusoidal", "learned"])
@pytest.mark.parametrize("x, start, exc, words", BAD_X)
def test_bad_input_is_refused(which, x, start, exc, words):
    import torch
    from posenc.torch_module import LearnedPositionalEmbedding

    m = module(8, max_len=16) if which == "sinusoidal" else LearnedPositionalEmbedding(16, 8)
    with pytest.raises(exc, match=words):
        m(eval(x, {"torch": torch, "np": np}), start=start)


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"d_model": 7}, ValueError, "d_model=7 is odd"),
    ({"d_model": 8.0}, TypeError, "d_model"),
    ({"d_model": 0}, ValueError, "d_model"),
    ({"max_len": 0}, ValueError, "max_len"),
    ({"max_len": 10.0}, TypeError, "max_len"),
    ({"dropout": 1.0}, ValueError, "dropout"),
    ({"dropout": "0.1"}, TypeError, "dropout"),
    ({"base": 1.0}, ValueError, "base"),
    ({"layout": "concat"}, ValueError, "layout"),
    ({"spacing": "fairseq"}, ValueError, "spacing"),
    ({"odd": "pad"}, ValueError, "odd"),
    ({"offset": 0.5}, TypeError, "offset"),
    ({"padding_idx": -1}, ValueError, "padding_idx"),
    ({"padding_idx": 1.0}, TypeError, "padding_idx"),
    ({"batch_first": 1}, TypeError, "batch_first"),
    ({"dtype": "float32"}, TypeError, "dtype"),
])
def test_bad_constructor_arguments(kwargs, exc, words):
    args = {"d_model": 8, "max_len": 10} | kwargs
    with pytest.raises(exc, match=words):
        module(**args)


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"d_model": 0}, ValueError, "d_model must be a positive integer"),
    ({"d_model": 8.0}, TypeError, "d_model"),
    ({"max_len": -3}, ValueError, "max_len"),
    ({"init_std": 0.0}, ValueError, "init_std"),
    ({"init_std": "0.02"}, TypeError, "init_std"),
    ({"dropout": -0.1}, ValueError, "dropout"),
])
def test_bad_learned_constructor_arguments(kwargs, exc, words):
    from posenc.torch_module import LearnedPositionalEmbedding

    args = {"d_model": 8, "max_len": 10} | kwargs
    with pytest.raises(exc, match=words):
        LearnedPositionalEmbedding(**args)


@pytest.mark.parametrize("name, bits, min_exponent",
                         [("float32", 24, -125)] + HALF)
def test_on_cuda(name, bits, min_exponent):
    import torch

    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    dtype = getattr(torch, name)
    m = module(32, max_len=4096).cuda()                   # .cuda() moves the table
    assert m.table().device.type == "cuda"
    x = torch.zeros(1, 4000, 32, device="cuda", dtype=dtype)
    rows = m(x, start=96)[0]                              # other dtypes: built there
    assert rows.device.type == "cuda" and m.table(dtype).device.type == "cuda"
    expected = correctly_rounded(posenc.encode(range(96, 4096), 32), bits, min_exponent)
    assert np.array_equal(rows.double().cpu().numpy(), expected)
    x = torch.randn(2, 4000, 32, device="cuda", dtype=dtype)
    assert torch.equal(m(x, start=96), x + torch.from_numpy(expected).to("cuda", dtype))
    pos = torch.randint(0, 4096, (2, 4000), device="cuda")
    assert torch.equal(m(x, pos), x + m.table(dtype)[pos])


def test_clear_message_when_torch_is_missing(tmp_path):
    """In an environment without torch, importing the module says what to install."""
    from pathlib import Path

    blocker = tmp_path / "torch.py"
    blocker.write_text("raise ModuleNotFoundError(\"No module named 'torch'\", name='torch')\n")
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-c", "import posenc.torch_module"],
                         cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": f"{tmp_path}:{root}", "PATH": "/usr/bin:/bin"})
    assert run.returncode != 0
    assert "pip install 'posenc[torch]'" in run.stderr
