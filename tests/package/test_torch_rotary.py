"""posenc.torch_module.rotary and .alibi against transformers 5.24.0 (pinned in the test extra),
their own float64 reference (posenc.relative), and a KV-cache decode loop against the full
forward. Fast: small shapes; the torch.compile cases are in tests/package/test_torch_compile.py."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from posenc.relative import alibi_slopes as slopes64, rotate
from posenc.torch_module.alibi import alibi_bias, alibi_slopes
from posenc.torch_module.rotary import RotaryEmbedding, apply_rotary, rope_cos_sin

transformers = pytest.importorskip("transformers")
from transformers import LlamaConfig, PhiConfig  # noqa: E402
from transformers.models.bloom.modeling_bloom import build_alibi_tensor  # noqa: E402
from transformers.models.gptj import modeling_gptj  # noqa: E402
from transformers.models.llama.modeling_llama import (  # noqa: E402
    LlamaRotaryEmbedding, apply_rotary_pos_emb)
from transformers.models.phi.modeling_phi import PhiRotaryEmbedding  # noqa: E402

HEAD = 32
EPS32 = 2.0 ** -24

CONFIGS = {
    "default": {"rope_type": "default", "rope_theta": 10000.0},
    "linear": {"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0},
    "dynamic": {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0},
    "yarn": {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 8.0,
             "original_max_position_embeddings": 64},
    "yarn-deepseek": {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0,
                      "original_max_position_embeddings": 64, "mscale": 0.707,
                      "mscale_all_dim": 1.0, "beta_fast": 32, "beta_slow": 1},
    "llama3": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
               "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 64},
    "longrope": {"rope_type": "longrope", "rope_theta": 10000.0,
                 "original_max_position_embeddings": 64,
                 "short_factor": [1.0 + 0.05 * i for i in range(HEAD // 2)],
                 "long_factor": [1.0 + 0.5 * i for i in range(HEAD // 2)]},
    "yarn-untruncated": {"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0,
                         "original_max_position_embeddings": 64, "truncate": False,
                         "beta_fast": 32.0, "beta_slow": 1.0},          # gpt-oss's kind
    "partial": {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5},
}
MAX_POS = 256          # the model's max_position_embeddings (dynamic, longrope: 4x original)


def test_every_rope_type_has_a_test_case():
    """The rope types come from one registry (rope_config.ROPE_TYPES): a type added there fails
    here until CONFIGS holds a case of that name and type (test_hf_recipe.py's CASES too)."""
    from posenc.torch_module.rope_config import ROPE_TYPES
    from tests.package.test_hf_recipe import CASES
    missing = [kind for kind in ROPE_TYPES if CONFIGS.get(kind, {}).get("rope_type") != kind]
    assert not missing, f"rope types with no case in CONFIGS: {missing}"
    missing = [kind for kind in ROPE_TYPES if CASES.get(kind, ("", {}))[1].get("rope_type") != kind]
    assert not missing, f"rope types with no case in tests/package/test_hf_recipe.py's CASES: {missing}"


def _hf(params: dict, q, k, position_ids):
    """Llama's rotary embedding; Phi's for partial rotary (Llama's ignores the factor), which
    rotates the first rotary_ndims coordinates and passes the rest, as Phi's attention does."""
    partial = "partial_rotary_factor" in params
    config = (PhiConfig if partial else LlamaConfig)(
        hidden_size=HEAD * 4, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=MAX_POS, rope_parameters=dict(params))
    rope = (PhiRotaryEmbedding if partial else LlamaRotaryEmbedding)(config)
    cos, sin = rope(q, position_ids)
    r = cos.shape[-1]
    hq, hk = apply_rotary_pos_emb(q[..., :r], k[..., :r], cos, sin)
    return torch.cat([hq, q[..., r:]], -1), torch.cat([hk, k[..., r:]], -1), rope


def _tolerance(positions: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """transformers computes inverse frequencies in float32 (a power, then YaRN's blend: up to
    16 units of 2**-24 apart from float64's) and rounds each angle pos * omega to float32: an
    angle is off by up to about 17 pos 2**-24, a coordinate by that times the pair's length."""
    pos = positions.to(torch.float64)[:, None, :, None]          # (batch, 1, seq, 1)
    return (1e-6 + 24 * (pos + 1) * EPS32) * x.abs().amax(dim=-1, keepdim=True).to(torch.float64)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_equals_transformers_rope_types(name):
    params = CONFIGS[name]
    torch.manual_seed(0)
    q, k = torch.randn(2, 4, 12, HEAD), torch.randn(2, 2, 12, HEAD)      # GQA: 2 kv heads
    # a row from 0, and a row past max_position_embeddings (dynamic NTK grows its base there;
    # LongRoPE takes its long factors past the original length)
    position_ids = torch.stack([torch.arange(12), torch.arange(290, 302)])
    hq, hk, hf_rope = _hf(params, q, k, position_ids)
    seq_len = int(position_ids.max()) + 1
    ours = RotaryEmbedding.from_rope_parameters(params, HEAD, seq_len=seq_len,
                                                max_position_embeddings=MAX_POS)
    if name == "dynamic":                              # the base did grow
        assert not np.allclose(ours.frequencies, RotaryEmbedding(HEAD).frequencies)
    assert ours.attention_factor == pytest.approx(hf_rope.attention_scaling, rel=1e-12)
    omega_hf = hf_rope.inv_freq.to(torch.float64).numpy()
    assert np.allclose(ours.frequencies, omega_hf, rtol=16 * EPS32, atol=0)
    rq, rk = ours(q, k, position_ids)
    for a, b, x in ((rq, hq, q), (rk, hk, k)):
        assert ((a - b).abs().to(torch.float64) <= _tolerance(position_ids, x)).all()


def test_bfloat16_and_float16_as_transformers():
    """cos and sin are rounded to the input dtype before the products, as transformers does."""
    params = CONFIGS["yarn"]
    for dtype in (torch.bfloat16, torch.float16):
        torch.manual_seed(1)
        q, k = torch.randn(1, 2, 8, HEAD).to(dtype), torch.randn(1, 2, 8, HEAD).to(dtype)
        position_ids = torch.arange(8)[None]
        hq, hk, _ = _hf(params, q, k, position_ids)
        rq, rk = RotaryEmbedding.from_rope_parameters(params, HEAD)(q, k, position_ids)
        assert rq.dtype == dtype
        eps = torch.finfo(dtype).eps
        assert ((rq - hq).abs() <= 2 * eps * q.abs().amax()).all()


def test_adjacent_pairing_equals_gptj_partial_rotary():
    """GPT-J: rotate_every_two on the first rotary_dim coordinates, (batch, seq, heads, d)."""
    torch.manual_seed(2)
    rotary_dim, head = 16, 24
    q = torch.randn(2, 7, 3, head)                      # GPT-J's layout
    position_ids = torch.arange(3, 10)[None].expand(2, 7)
    table = modeling_gptj.create_sinusoidal_positions(64, rotary_dim)
    sincos = table[position_ids]
    sin, cos = torch.split(sincos, sincos.shape[-1] // 2, dim=-1)
    q_rot = modeling_gptj.apply_rotary_pos_emb(q[..., :rotary_dim], sin, cos)
    expected = torch.cat([q_rot, q[..., rotary_dim:]], dim=-1).transpose(1, 2)
    rope = RotaryEmbedding(head, rotary_dim=rotary_dim, pairing="gpt-j")
    ours, _ = rope(q.transpose(1, 2), q.transpose(1, 2), position_ids)
    assert torch.allclose(ours, expected, atol=1e-5, rtol=0)
    assert torch.equal(ours[..., rotary_dim:], q.transpose(1, 2)[..., rotary_dim:])


def test_equals_float64_reference_and_names_agree():
    """posenc.relative.rotate (NumPy, float64, one head) is the reference; 'llama' == 'halves'."""
    torch.manual_seed(3)
    x = torch.randn(1, 1, 9, 8, dtype=torch.float64)
    positions = np.arange(100_000, 100_009)
    rope = RotaryEmbedding(8, pairing="adjacent")
    ours, _ = rope(x, x, torch.from_numpy(positions)[None])
    ref = rotate(x[0, 0].numpy(), positions)
    assert np.abs(ours[0, 0].numpy() - ref).max() < 1e-6       # cos/sin rounded to float32
    a = RotaryEmbedding(8, pairing="llama")(x, x)[0]
    b = RotaryEmbedding(8, pairing="halves")(x, x)[0]
    assert torch.equal(a, b)


def test_autograd():
    x = torch.randn(1, 1, 3, 4, dtype=torch.float64, requires_grad=True)
    rope = RotaryEmbedding(4)
    assert torch.autograd.gradcheck(lambda t: rope(t, t, offset=5)[0], (x,))
    y = torch.randn(1, 1, 3, 4, dtype=torch.bfloat16, requires_grad=True)
    rope(y, y)[0].sum().backward()
    assert y.grad.dtype == torch.bfloat16


def test_cache_key_follows_frequencies_factor_and_length():
    """The bugs page's cache bug: a cache keyed on the length alone keeps stale cos/sin."""
    rope = RotaryEmbedding(8, max_len=4)
    x = torch.ones(1, 1, 2, 8)
    before = rope(x, x)[0]
    rope.frequencies = rope.frequencies / 2
    after = rope(x, x)[0]
    assert not torch.equal(before, after)
    assert torch.equal(after, RotaryEmbedding(8, frequencies=rope.frequencies)(x, x)[0])
    rope.attention_factor = 2.0
    assert torch.allclose(rope(x, x)[0], 2 * after)
    far = rope(x, x, offset=100)[0]                       # grows past max_len=4
    again = RotaryEmbedding(8, frequencies=rope.frequencies, attention_factor=2.0,
                            max_len=4096)(x, x, offset=100)[0]
    assert torch.equal(far, again)


def test_offsets_for_a_kv_cache():
    rope = RotaryEmbedding(8)
    x = torch.randn(3, 2, 1, 8)
    full = rope(x.expand(3, 2, 6, 8).contiguous(), x.expand(3, 2, 6, 8).contiguous())[0]
    assert torch.equal(rope(x, x, offset=5)[0], full[:, :, 5:])
    assert torch.equal(rope(x, x, offset=torch.tensor(5))[0], full[:, :, 5:])
    per_row = rope(x, x, offset=torch.tensor([5, 0, 2]))[0]
    assert torch.equal(per_row[1], full[1, :, :1]) and torch.equal(per_row[2], full[2, :, 2:3])


@pytest.mark.parametrize("bad, error, words", [
    (torch.ones(2, 6, dtype=torch.bool), TypeError, "attention mask"),
    (torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]]), ValueError, "attention mask"),
    (torch.arange(6.0)[None], TypeError, "integers"),
    (torch.arange(5)[None], ValueError, "(batch, seq)"),
    (3, TypeError, "offset="),
])
def test_misuse_names_the_fix(bad, error, words):
    rope = RotaryEmbedding(8)
    x = torch.zeros(2, 1, 6, 8)
    with pytest.raises(error, match=None) as info:
        rope(x, x, bad)
    assert words in str(info.value)


def test_bad_arguments_name_themselves():
    for kwargs, name in (({"head_dim": 7}, "head_dim"), ({"head_dim": 8, "rotary_dim": 10},
                         "rotary_dim"), ({"head_dim": 8, "pairing": "zigzag"}, "pairing"),
                         ({"head_dim": 8, "frequencies": [1.0]}, "frequencies"),
                         ({"head_dim": 8, "attention_factor": 0}, "attention_factor")):
        with pytest.raises((ValueError, TypeError), match=name):
            RotaryEmbedding(**kwargs)
    with pytest.raises(ValueError, match="head_dim=8"):
        RotaryEmbedding(8)(torch.zeros(1, 6, 2, 4), torch.zeros(1, 6, 2, 4))


def test_alibi_equals_bloom_for_1_to_128_heads():
    """Same slopes; the bias differs from Bloom's by a constant along each query's row, so the
    softmax is the same; Bloom counts positions over the tokens that are not padding."""
    mask = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])
    for n in range(1, 129):
        assert torch.equal(alibi_slopes(n), torch.tensor(slopes64(n), dtype=torch.float32))
        bloom = build_alibi_tensor(mask, n, torch.float32).view(2, n, 1, 6)
        ours = alibi_bias(n, 6, padding_mask=mask == 0)
        keep = (mask == 1)[:, None, None, :] & (torch.arange(6)[None, :] <= torch.arange(6)[:, None])
        diff = ours - bloom
        spread = torch.where(keep, diff, -torch.inf).amax(-1) - \
            torch.where(keep, diff, torch.inf).amin(-1)
        real = keep.any(-1).expand_as(spread)
        assert (spread[real] <= 1e-5).all(), n
        causal = torch.ones(6, 6, dtype=torch.bool).tril()
        masked = ~causal | (mask == 0)[:, None, None, :]
        p_ours = torch.softmax(ours, -1)[:, :, 2:]
        p_bloom = torch.softmax((bloom.expand(2, n, 6, 6)).masked_fill(masked, -1e30), -1)
        assert torch.allclose(p_ours, p_bloom[:, :, 2:], atol=1e-6)


def test_alibi_forms_and_cache_offset():
    full = alibi_bias(8, 5)
    assert torch.equal(alibi_bias(8, 2, 5), full[:, :, 3:])          # last 2 queries
    assert torch.equal(alibi_bias(8, 1, 5, offset=torch.tensor(4)), full[:, :, 4:])
    enc = alibi_bias(8, 4, causal=False)
    assert torch.equal(enc, enc.transpose(-1, -2)) and (enc <= 0).all()
    assert alibi_bias(3, 2, dtype=torch.bfloat16).dtype == torch.bfloat16
    assert torch.equal(alibi_slopes(torch.tensor(8)), alibi_slopes(8))
    with pytest.raises(TypeError, match="padding_mask"):
        alibi_bias(4, 3, padding_mask=torch.ones(1, 3))


class _Decoder(torch.nn.Module):
    """One attention layer with RoPE or ALiBi, and a KV cache: the test twin of chapter 16's."""

    def __init__(self, d=32, heads=4, scheme="rope"):
        super().__init__()
        torch.manual_seed(0)
        self.heads, self.scheme = heads, scheme
        self.qkv, self.out = torch.nn.Linear(d, 3 * d), torch.nn.Linear(d, d)
        self.rope = RotaryEmbedding(d // heads)

    def forward(self, x, cache=None):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        past = 0 if cache is None else cache[0].shape[2]
        if self.scheme == "rope":
            q, k = self.rope(q, k, offset=past)
        if cache is not None:
            k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
        if self.scheme == "rope":
            mask = torch.ones(s, past + s, dtype=torch.bool).tril(past)
            bias = torch.zeros(s, past + s).masked_fill(~mask, float("-inf"))
        else:
            bias = alibi_bias(self.heads, s, past + s)
        att = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5 + bias, -1)
        return self.out((att @ v).transpose(1, 2).reshape(b, s, d)), (k, v)


@pytest.mark.parametrize("scheme", ["rope", "alibi"])
def test_decode_loop_equals_full_forward(scheme):
    model = _Decoder(scheme=scheme)
    x = torch.randn(2, 9, 32)
    full, _ = model(x)
    out, cache = model(x[:, :4])                                    # prefill
    steps = [out]
    for t in range(4, 9):                                           # one token at a time
        out, cache = model(x[:, t:t + 1], cache)
        steps.append(out)
    assert torch.allclose(torch.cat(steps, 1), full, atol=1e-6)


def test_cos_sin_angles_are_float64():
    """At position 10**6 a float32 angle is off by up to 2**-5 rad; ours by float32 rounding of
    the cosine only."""
    cos, _ = rope_cos_sin(torch.tensor([10**6]), torch.tensor([1.0], dtype=torch.float64))
    assert abs(float(cos[0, 0]) - np.cos(1e6)) < 1e-7
    x = torch.ones(1, 1, 1, 2)
    assert torch.allclose(apply_rotary(x, cos[None], cos[None] * 0), cos[None, None] * x)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_apply_rotary_is_apply_rotary_pos_emb_bit_for_bit(dtype):
    """Given transformers' cos and sin, the same products and sums: the same bits."""
    torch.manual_seed(4)
    q, k = torch.randn(2, 4, 10, HEAD).to(dtype), torch.randn(2, 2, 10, HEAD).to(dtype)
    config = LlamaConfig(hidden_size=HEAD * 4, num_attention_heads=4, num_key_value_heads=2)
    cos, sin = LlamaRotaryEmbedding(config)(q, torch.arange(10)[None] + 300)
    hq, hk = apply_rotary_pos_emb(q, k, cos, sin)
    half = HEAD // 2
    assert torch.equal(apply_rotary(q, cos[..., :half], sin[..., :half]), hq)
    assert torch.equal(apply_rotary(k, cos[..., :half], sin[..., :half]), hk)


def test_a_shared_rotation_equals_the_lookup():
    rope = RotaryEmbedding(8, rotary_dim=6, pairing="adjacent")
    q = torch.randn(2, 3, 4, 8)
    position_ids = torch.tensor([[0, 1, 2, 3], [9, 10, 11, 12]])
    shared = rope.rotation(position_ids, dtype=q.dtype)
    assert torch.equal(rope(q, q, rotation=shared)[0], rope(q, q, position_ids)[0])
    with pytest.raises(ValueError, match="rotation is for 4 tokens"):
        rope(q[:, :, :2], q[:, :, :2], rotation=shared)


def test_fullgraph_position_ids_after_calls_without_them():
    """Practitioner review: compile, call with offsets only on two batch sizes (the batch goes
    symbolic), then decode a left-padded batch with position_ids. The first call with them
    used to raise "positions must have shape (batch, seq) = (3, 1), ... got (3, 1)": a static
    size tested with ``in (1, batch)`` against a symbolic batch."""
    torch._dynamo.reset()
    rope = RotaryEmbedding(8)

    def rotate_q(q, positions=None):
        return rope(q, q, positions)[0]

    compiled = torch.compile(rotate_q, backend="eager", fullgraph=True)
    for batch, seq, with_ids in [(2, 5, False), (3, 7, False), (3, 1, True), (3, 4, True)]:
        q = torch.randn(batch, 2, seq, 8)
        ids = torch.arange(seq).expand(batch, seq) + 4 if with_ids else None
        assert torch.equal(compiled(q, ids), rotate_q(q, ids)), (batch, seq)


@pytest.mark.parametrize("params, words", [
    ({"rope_type": "dynamic", "factor": 2.0}, "max_position_embeddings="),
    ({"rope_type": "llama3", "factor": 8.0}, "original_max_position_embeddings"),
    ({"rope_type": "yarn", "original_max_position_embeddings": 32}, "'factor'"),
    ({"rope_type": "longrope", "original_max_position_embeddings": 32,
      "short_factor": [1.0] * 4, "long_factor": [2.0] * 4}, "max_position_embeddings="),
])
def test_rope_parameters_missing_a_length_name_it(params, words):
    """Practitioner review: a block that needs the model's lengths, built without them, used to
    fail with "unsupported operand type(s) for /: 'NoneType' and 'int'" (yarn, longrope) or
    "original_length must be a positive integer, got None", a name the caller never used."""
    with pytest.raises(ValueError, match=f"rope_type '{params['rope_type']}'") as error:
        RotaryEmbedding.from_rope_parameters(params, head_dim=8, rope_theta=10000.0)
    assert words in str(error.value)


def test_alibi_more_queries_than_keys_is_refused():
    """Practitioner review: alibi_bias(4, 10, 5) (q_len and k_len swapped) used to return a
    (1, 4, 10, 5) bias whose first five queries had every key masked, and with a padding mask a
    bias of the wrong shape, both silently."""
    for kwargs in ({}, {"padding_mask": torch.zeros(2, 5, dtype=torch.bool)}):
        with pytest.raises(ValueError, match="k_len .* must be at least q_len .* q_len=10, k_len=5"):
            alibi_bias(4, 10, 5, **kwargs)
    assert alibi_bias(4, 10, 5, offset=3).shape == (1, 4, 10, 5)     # explicit: as asked


def test_built_on_the_meta_device_then_to_empty():
    """Practitioner review: a model built under ``with torch.device("meta")``, then
    ``to_empty(device="cpu")`` and a checkpoint load (the large-model recipe), used to fail on
    its first call with "Cannot copy out of meta tensor; no data!"."""
    with torch.device("meta"):
        rope = RotaryEmbedding.from_rope_parameters(CONFIGS["yarn"], head_dim=8)
    rope = rope.to_empty(device="cpu")
    q = torch.randn(1, 2, 5, 8)
    want = RotaryEmbedding.from_rope_parameters(CONFIGS["yarn"], head_dim=8)(q, q)[0]
    assert torch.equal(rope(q, q)[0], want)


def test_export_with_a_dynamic_length_from_2():
    """Practitioner review: torch.export with position ids and a dynamic seq (min 2, so that a
    short prompt fits) used to fail with "Constraints violated (S)! ... Not all values of S ...
    satisfy the generated guard 3 <= ...": the mask check tested ``seq >= 3`` before asking
    whether it was tracing."""

    class Rotate(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rope = RotaryEmbedding(8)

        def forward(self, q, position_ids):
            return self.rope(q, q, position_ids)[0]

    seq = torch.export.Dim("seq", min=2, max=64)
    q, ids = torch.randn(2, 2, 5, 8), torch.arange(5).expand(2, 5) + 3
    program = torch.export.export(Rotate(), (q, ids), dynamic_shapes=({2: seq}, {1: seq}))
    q2, ids2 = torch.randn(2, 2, 2, 8), torch.tensor([[7, 8], [0, 1]])
    assert torch.equal(program.module()(q2, ids2), Rotate()(q2, ids2))


def test_a_float32_rotation_keeps_bfloat16_q_and_k():
    """Practitioner review: rope(q, k, rotation=rope.rotation(seq=5)) with bfloat16 q and k (the
    rotation left in its default float32) returned float32 q and k, against "their shapes and
    dtypes"; now the same bits as a rotation built in bfloat16."""
    rope = RotaryEmbedding(8)
    q, k = torch.randn(2, 4, 5, 8).bfloat16(), torch.randn(2, 2, 5, 8).bfloat16()
    got = rope(q, k, rotation=rope.rotation(seq=5, offset=3))
    want = rope(q, k, rotation=rope.rotation(seq=5, offset=3, dtype=torch.bfloat16))
    assert got[0].dtype == got[1].dtype == torch.bfloat16
    assert torch.equal(got[0], want[0]) and torch.equal(got[1], want[1])


def test_alibi_warns_when_a_row_is_all_padding():
    """Practitioner review: Hugging Face's attention_mask (1 at tokens) passed as
    padding_mask=attention_mask.bool() ran silently; a row without padding then had every key
    masked, so its queries attended to all keys alike, later ones included."""
    attention_mask = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])
    with pytest.warns(UserWarning, match=r"row\(s\) \[1\].*padding_mask=attention_mask == 0"):
        alibi_bias(2, 5, padding_mask=attention_mask.bool())
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        alibi_bias(2, 5, padding_mask=attention_mask == 0)               # the right way: quiet


def test_new_frequencies_replace_the_cached_table():
    """Practitioner review: dynamic NTK sets new frequencies as the length grows (as the docs
    say); each set left its table in the cache, 200 tables (300 MiB at head_dim 64) after 200
    decode steps, against "one float32 cos/sin pair per device and dtype"."""
    params = {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0}
    rope = RotaryEmbedding.from_rope_parameters(params, head_dim=8, max_position_embeddings=4)
    q = torch.randn(1, 2, 1, 8)
    for length in range(5, 25):
        rope.frequencies = RotaryEmbedding.from_rope_parameters(
            params, head_dim=8, max_position_embeddings=4, seq_len=length).frequencies
        got = rope(q, q, offset=length - 1)[0]
        assert torch.equal(got, RotaryEmbedding(8, frequencies=rope.frequencies)(
            q, q, offset=length - 1)[0])
    rope(q.bfloat16(), q.bfloat16())                       # another dtype: cast from the same
    assert len(rope._cache) == 1
