"""Misuse of posenc.torch_module's RoPE and ALiBi, from the outside read of 2026-12
(../shared/findings/outside-reads-2026-12.md, section posenc.torch_module, items torch-B1 ..
torch-B7, torch-M1 .. torch-M5): each case either raises an error that names the argument, or is
valid input that must run, or is a case no check can tell apart (named in the docstrings).
Compared with transformers 5.24.0 where the finding does."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

from posenc.torch_module import (RotaryEmbedding, SinusoidalPositionalEncoding, alibi_bias,
                                 apply_rotary)
from posenc.torch_module.rotary import ROPE_KEYS, rope_cos_sin

transformers = pytest.importorskip("transformers")
from transformers import LlamaConfig  # noqa: E402
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding  # noqa: E402


# ----------------------------------------------------------------------------------- torch-B1
def test_b1_other_axes_are_refused_where_the_shapes_show_it():
    """torch-B1: (batch, seq, heads, head_dim) q and k ran and were rotated by head index.
    Refused now where the shapes tell: grouped-query k, positions or a rotation as long as the
    heads axis, and (given num_heads) any call; the errors name transpose(1, 2) and axes=."""
    torch.manual_seed(0)
    b, s, h, d = 2, 6, 4, 16
    q, k = torch.randn(b, s, h, d), torch.randn(b, s, h, d)         # forgot .transpose(1, 2)
    rope = RotaryEmbedding(d, num_heads=h)
    for call in (lambda: rope(q, k), lambda: rope(q[:, :1], k[:, :1], offset=100)):
        with pytest.raises(ValueError, match=r"num_heads=4 .*transpose\(1, 2\).*axes='bshd'"):
            call()
    plain = RotaryEmbedding(d)
    with pytest.raises(ValueError, match=r"transpose\(1, 2\).*axes='bshd'"):
        plain(q, k[:, :, :2])                                        # grouped-query k
    q5 = torch.randn(b, 5, h, d)                                     # seq 5, heads 4
    with pytest.raises(ValueError, match=r"positions are for 5 tokens.*axes='bshd'"):
        plain(q5, q5, torch.arange(5).expand(b, 5))
    with pytest.raises(ValueError, match=r"rotation is for 5 tokens.*axes='bshd'"):
        plain(q5, q5, rotation=plain.rotation(seq=5))


@pytest.mark.parametrize("kind", ["offset", "positions", "rotation", "tensor offset"])
def test_b1_axes_bshd_rotates_as_the_transposed_call(kind):
    """torch-B1: axes="bshd" takes (batch, seq, heads, head_dim) as it is and returns it so,
    equal to transposing, rotating as (batch, heads, seq, head_dim) and transposing back;
    grouped-query k included."""
    torch.manual_seed(1)
    q, k = torch.randn(2, 5, 4, 16), torch.randn(2, 5, 2, 16)
    bhsd, bshd = RotaryEmbedding(16), RotaryEmbedding(16, axes="bshd", num_heads=4)
    ids = torch.tensor([[3, 4, 5, 6, 7], [0, 0, 1, 2, 3]])
    args = {"offset": ({"offset": 9}, {"offset": 9}),
            "positions": ({"positions": ids}, {"positions": ids}),
            "rotation": ({"rotation": bhsd.rotation(ids)}, {"rotation": bshd.rotation(ids)}),
            "tensor offset": ({"offset": torch.tensor([2, 7])},
                              {"offset": torch.tensor([2, 7])})}[kind]
    want = bhsd(q.transpose(1, 2), k.transpose(1, 2), **args[0])
    got = bshd(q, k, **args[1])
    assert got[0].shape == q.shape and got[1].shape == k.shape
    assert torch.equal(got[0], want[0].transpose(1, 2))
    assert torch.equal(got[1], want[1].transpose(1, 2))


def test_b1_the_case_no_shape_shows_stays_as_documented():
    """torch-B1's remaining case, named in the class Notes: as many key as query heads, an
    offset and no num_heads. It runs (rotated by head index); num_heads= catches it."""
    q = torch.randn(2, 6, 4, 16)
    RotaryEmbedding(16)(q, q)                                        # no error: the documented case
    assert "cannot be told from its shape" in " ".join(RotaryEmbedding.__doc__.split())
    with pytest.raises(ValueError, match="num_heads=4"):
        RotaryEmbedding(16, num_heads=4)(q, q)


# ----------------------------------------------------------------------------------- torch-B2
def test_b2_position_ids_of_only_0_and_1_pass():
    """torch-B2: position ids holding only 0 and 1 over 3 or more tokens were refused as "an
    attention mask": short prompts left-padded to a fixed length (positions as transformers
    5.24.0's generate computes them, generation/utils.py: cumsum - 1, padding set to 0), packed
    two-token documents, and the error's own remedy (cumsum - 1, clamped)."""
    rope = RotaryEmbedding(16)
    mask = torch.tensor([[0, 0, 1, 1], [0, 0, 0, 1]])
    generate_ids = (mask.long().cumsum(-1) - 1).masked_fill(mask == 0, 0)
    cases = [(generate_ids, torch.randn(2, 4, 4, 16)),
             ((mask.long().cumsum(-1) - 1).clamp(min=0), torch.randn(2, 4, 4, 16)),
             (torch.tensor([[0, 1, 0, 1, 0, 1]]), torch.randn(1, 4, 6, 16))]
    for ids, q in cases:
        got = rope(q, q, ids)[0]
        cos, sin = rope_cos_sin(ids, torch.tensor(rope.frequencies))
        want = apply_rotary(q, cos, sin)
        assert torch.equal(got, want)
    pe = SinusoidalPositionalEncoding(8, 16)
    x = torch.zeros(2, 4, 8)
    assert torch.equal(pe(x, generate_ids)[0, 3], pe(x)[0, 1])


@pytest.mark.parametrize("mask", [
    [[0, 0, 1, 1], [1, 1, 1, 1]],        # padding="longest": one row unpadded
    [[0, 0, 1, 1, 1], [0, 0, 0, 1, 1]],  # every row padded by two or more
    [[1, 1], [0, 1]],                    # torch-M1: two tokens, one row unpadded
])
def test_b2_m1_attention_masks_are_still_refused(mask):
    """torch-B2 / torch-M1: the masks that no position-id recipe gives (a row of 1s, or
    0, 0, ..., 1, 1) are refused, by RoPE and the sinusoidal module; M1's two-token mask was
    silent (the old check needed 3 tokens). A mask every row of which is a valid position-id
    row ([0, 0, 0, 1]) cannot be told apart (checks.looks_like_attention_mask)."""
    mask = torch.tensor(mask)
    b, s = mask.shape
    q = torch.randn(b, 2, s, 8)
    with pytest.raises(ValueError, match="looks like an attention mask"):
        RotaryEmbedding(8)(q, q, mask)
    with pytest.raises(ValueError, match="looks like an attention mask"):
        SinusoidalPositionalEncoding(8, 16)(torch.zeros(b, s, 8), mask)


def test_b2_negative_positions_name_the_clamp():
    """torch-B2: the remedy the old error gave (cumsum - 1) failed with a bare "positions must
    be >= 0"; the error now says how padding got to -1 and what to add."""
    mask = torch.tensor([[0, 1, 1]])
    with pytest.raises(ValueError, match=r"got -1 .*clamp\(min=0\)"):
        RotaryEmbedding(8)(torch.randn(1, 1, 3, 8), torch.randn(1, 1, 3, 8), mask.cumsum(-1) - 1)


# ----------------------------------------------------------------------------------- torch-B3
LLAMA31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
           "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}


def _hf_inv_freq(head_dim=128, **config):
    heads = 2
    cfg = LlamaConfig(hidden_size=head_dim * heads, num_attention_heads=heads, **config)
    return LlamaRotaryEmbedding(cfg).inv_freq.to(torch.float64).numpy()


def test_b3_a_transformers_4_rope_scaling_block_is_read_with_its_rope_theta():
    """torch-B3: a transformers-4 config.json keeps rope_theta beside rope_scaling; posenc took
    10000 silently for Llama 3.1's block. transformers 5.24.0 moves the top-level rope_theta
    into the block; posenc takes it as rope_theta= and refuses the block without one."""
    with pytest.raises(ValueError, match="rope_theta: the block has none"):
        RotaryEmbedding.from_rope_parameters(LLAMA31, head_dim=128)
    ours = RotaryEmbedding.from_rope_parameters(LLAMA31, head_dim=128, rope_theta=500000.0)
    hf = _hf_inv_freq(rope_theta=500000.0, max_position_embeddings=131072,
                      rope_scaling=dict(LLAMA31))
    assert ours.base == 500000.0
    assert np.allclose(ours.frequencies, hf, rtol=2**-20, atol=0)
    inside = RotaryEmbedding.from_rope_parameters({**LLAMA31, "rope_theta": 500000.0}, 128,
                                                  rope_theta=10000.0)     # the block's wins
    assert np.array_equal(inside.frequencies, ours.frequencies)
    old = RotaryEmbedding.from_rope_parameters({"type": "linear", "factor": 4.0}, 64,
                                               rope_theta=10000.0)       # transformers 4 "type"
    assert np.allclose(old.frequencies, _hf_inv_freq(64, rope_scaling={"type": "linear",
                                                                       "factor": 4.0}),
                       rtol=2**-20, atol=0)


@pytest.mark.parametrize("block, words", [
    ({"rope_type": "yarn", "rope_theta": 1e4, "factor": 4.0,
      "orginal_max_position_embeddings": 1024}, "'orginal_max_position_embeddings': not a key"),
    ({"rope_theta": 1e4, "factor": 4.0}, r"rope_type: the block has \['factor'\] but no"),
    ({"rope_type": "llama3", "rope_theta": 5e5, "factor": 8.0,
      "original_max_position_embeddings": 8192}, "'high_freq_factor', 'low_freq_factor': "),
    ({"rope_type": "linear", "rope_theta": 1e4}, "'factor': rope_type 'linear' needs it"),
    ({"rope_type": "default", "rope_theta": 1e4, "mrope_section": [2, 2]}, "'mrope_section'"),
])
def test_b3_unknown_and_missing_keys_raise_naming_the_key(block, words):
    """torch-B3: a misspelt key was ignored (the length fell back to max_position_embeddings),
    a factor without rope_type was read as default and dropped, llama3's freq factors fell back
    to 1 and 4. transformers 5.24.0 warns on the first two and raises KeyError on the third;
    posenc raises on all, naming the key."""
    with pytest.raises(ValueError, match=words):
        RotaryEmbedding.from_rope_parameters(block, head_dim=64, max_position_embeddings=4096)


def test_b3_rope_keys_are_transformers_keys(monkeypatch):
    """ROPE_KEYS (what from_rope_parameters accepts per rope_type) is what transformers
    5.24.0's _validate_*_rope_parameters require and allow, read from its code path."""
    from transformers.modeling_rope_utils import RotaryEmbeddingConfigMixin

    seen = {}

    def record(rope_type, received_keys, required_keys, optional_keys=None, ignore_keys=None):
        seen[rope_type] = (set(required_keys), set(optional_keys or ()))

    config = LlamaConfig(hidden_size=64, num_attention_heads=2, max_position_embeddings=64)
    monkeypatch.setattr(RotaryEmbeddingConfigMixin, "_check_received_keys",
                        staticmethod(record))
    for kind in ROPE_KEYS:
        params = {"rope_type": kind, "factor": 2.0, "original_max_position_embeddings": 32,
                  "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                  "short_factor": [1.0] * 16, "long_factor": [1.0] * 16}
        getattr(config, f"_validate_{kind}_rope_parameters")(params)
    monkeypatch.undo()
    common = {"rope_type", "rope_theta", "partial_rotary_factor"}
    for kind, (required, optional) in ROPE_KEYS.items():
        assert (required | common) - {"rope_type"} == \
            (seen[kind][0] | {"rope_theta", "partial_rotary_factor"}) - {"rope_type"}, kind
        assert optional | {"rope_theta"} == seen[kind][1] | {"rope_theta"}, kind


# ----------------------------------------------------------------------------------- torch-B5
def test_b5_hugging_face_mask_not_inverted_is_caught():
    """torch-B5: padding_mask=attention_mask.bool() (not inverted) was silent when every row
    had a pad: real tokens masked, pads attended. Now it warns (no cached keys) or raises (with
    cached keys); attention_mask= takes transformers' mask as it is."""
    attention_mask = torch.tensor([[0, 1, 1, 1], [0, 0, 1, 1]])
    with pytest.warns(UserWarning, match="last key of every row.*attention_mask="):
        alibi_bias(4, 4, padding_mask=attention_mask.bool())
    with pytest.raises(ValueError, match="newest token, which cannot be padding"):
        alibi_bias(4, 1, 4, padding_mask=attention_mask.bool())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        right = alibi_bias(4, 4, padding_mask=attention_mask == 0)
        assert torch.equal(alibi_bias(4, 4, attention_mask=attention_mask), right)
        assert torch.equal(alibi_bias(4, 4, attention_mask=attention_mask.bool()), right)
        right_padded = torch.tensor([[1, 1, 0, 0], [1, 0, 0, 0]])          # said explicitly
        explicit = alibi_bias(4, 4, attention_mask=right_padded)
    with pytest.warns(UserWarning, match="if every row is right-padded"):
        assert torch.equal(explicit, alibi_bias(4, 4, padding_mask=right_padded == 0))
    with pytest.raises(ValueError, match="not both"):
        alibi_bias(4, 4, padding_mask=attention_mask == 0, attention_mask=attention_mask)
    with pytest.raises(TypeError, match="attention_mask must be"):
        alibi_bias(4, 4, attention_mask=attention_mask.float())


# ----------------------------------------------------------------------------------- torch-B6
def _mib(rope):
    return rope.cache_nbytes / 2**20


def test_b6_the_cache_holds_one_float32_table_of_4_rotary_dim_bytes_a_position():
    """torch-B6: after a float32 and a bfloat16 step at position 131071, one RotaryEmbedding(128)
    held 288 MiB (four tensors per dtype, grown to a power of two); the minimum, float32 cos and
    sin, is 64 MiB. Now one float32 table for every dtype: 4 * rotary_dim bytes per position."""
    rope = RotaryEmbedding(128)
    q = torch.randn(1, 1, 1, 128)
    rope(q, q, offset=131071)
    rope(q.bfloat16(), q.bfloat16(), offset=131071)
    assert _mib(rope) == 64.0
    positions = rope._cache[next(iter(rope._cache))][0].shape[0]
    assert rope.cache_nbytes / positions == 4 * 128                     # bytes per position
    rope.clear_cache()
    assert rope.cache_nbytes == 0
    half = RotaryEmbedding(128, rotary_dim=64)                           # partial rotary
    half(q, q, offset=4095)
    assert half.cache_nbytes == 4 * 64 * 4096


def test_b6_a_decode_loop_grows_the_cache_by_an_eighth_at_least_and_at_most():
    """torch-B6: the cache grew to the next power of two (up to twice what was asked). Now to
    the position asked, and by at least an eighth of its length, rounded up to 64 positions:
    never more than 9/8 of the length asked plus 64, and a decode loop from max_len to 20000
    rebuilds it 19 times (0 while it fits)."""
    rope = RotaryEmbedding(8, max_len=2048)
    q = torch.randn(1, 1, 1, 8)
    lengths = []
    for t in range(0, 20000, 7):
        rope(q, q, offset=t)
        length = rope._cache[next(iter(rope._cache))][0].shape[0]
        assert t + 1 <= length <= max(2048, (t + 1) * 9 / 8 + 64)
        if not lengths or lengths[-1] != length:
            lengths.append(length)
    assert len(lengths) - 1 == 19
    fresh = RotaryEmbedding(8, max_len=20096)                           # same values, grown
    assert torch.equal(rope(q, q, offset=19999)[0], fresh(q, q, offset=19999)[0])


def test_b6_the_cache_gives_the_bits_it_gave_before():
    """The one float32 table, cast per call, gives each dtype the bits the per-dtype tables
    gave: cos and sin rounded to float32, then to the input's dtype (as transformers does)."""
    rope = RotaryEmbedding(32)
    for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64):
        q = torch.randn(2, 3, 5, 32).to(dtype)
        cos, sin = rope_cos_sin(torch.arange(40, 45), torch.tensor(rope.frequencies))
        want = apply_rotary(q, cos.to(dtype), sin.to(dtype))
        assert torch.equal(rope(q, q, offset=40)[0], want), dtype
        assert torch.equal(rope(q, q, torch.arange(40, 45))[0], want), dtype


# ----------------------------------------------------------------------------------- torch-B7
@pytest.mark.parametrize("kind", ["yarn", "longrope"])
def test_b7_factor_below_1_is_read_as_transformers_reads_it(kind):
    """torch-B7: YaRN and LongRoPE with factor < 1 raised; transformers 5.24.0 accepts them
    (with a warning) and uses attention factor 1.0."""
    params = {"rope_type": kind, "factor": 0.5, "original_max_position_embeddings": 64,
              "rope_theta": 10000.0}
    if kind == "longrope":
        params.update(short_factor=[1.0 + 0.1 * i for i in range(32)],
                      long_factor=[2.0] * 32)
    ours = RotaryEmbedding.from_rope_parameters(params, 64, max_position_embeddings=32)
    cfg = LlamaConfig(hidden_size=128, num_attention_heads=2, max_position_embeddings=32,
                      rope_parameters=dict(params))
    hf = LlamaRotaryEmbedding(cfg)
    assert ours.attention_factor == hf.attention_scaling == 1.0
    assert np.allclose(ours.frequencies, hf.inv_freq.double().numpy(), rtol=2**-20, atol=0)
    with pytest.raises(ValueError, match="factor must be a positive number"):
        RotaryEmbedding.from_rope_parameters({**params, "factor": 0.0}, 64)


# ------------------------------------------------------------------------------ torch-M3, M4
def test_m3_apply_rotary_shape_errors_name_the_argument():
    """torch-M3 / torch-9: cos and sin for fewer pairs than the head were read as partial
    rotary silently (off by 4.7); transformers-layout [cos | cos] and a seq mismatch failed as
    raw broadcast errors. Partial rotary is now explicit (rotary_dim=)."""
    x = torch.randn(1, 2, 5, 16)
    cos, sin = rope_cos_sin(torch.arange(5), torch.tensor([1.0, 0.1, 0.01, 0.001]))
    with pytest.raises(ValueError, match="for partial rotary pass rotary_dim=8"):
        apply_rotary(x, cos, sin)
    partial = apply_rotary(x, cos, sin, rotary_dim=8)
    assert torch.equal(partial[..., 8:], x[..., 8:])
    cos8, sin8 = rope_cos_sin(torch.arange(5), torch.tensor(RotaryEmbedding(16).frequencies))
    with pytest.raises(ValueError, match=r"\[cos \| cos\] layout\? pass cos\[..., :8\]"):
        apply_rotary(x, torch.cat([cos8, cos8], -1), torch.cat([sin8, sin8], -1))
    with pytest.raises(ValueError, match=r"x is \(batch, seq, heads, head_dim\)\?"):
        apply_rotary(torch.randn(1, 5, 2, 16), cos8, sin8)
    with pytest.raises(ValueError, match="rotary_dim must be 2 \\* cos.shape"):
        apply_rotary(x, cos, sin, rotary_dim=6)


def test_m4_q_and_k_of_different_dtypes_are_refused():
    """torch-M4: a float16 q with a float32 k ran without a dtype check."""
    q = torch.randn(1, 2, 3, 8)
    with pytest.raises(TypeError, match="q and k must have the same dtype, got torch.float16 "
                                        "and torch.float32"):
        RotaryEmbedding(8)(q.half(), q)


# ----------------------------------------------------------------------------------- torch-M5
def test_m5_dynamic_follows_transformers_when_given_the_longest_length_seen():
    """torch-M5: transformers' dynamic NTK keeps the longest length seen between calls (until
    one shorter than the original length resets it); posenc is stateless, so the docstring of
    from_rope_parameters says to pass that longest length. Checked: after a call at 200
    positions, transformers 5.24.0 gives a call at 150 the frequencies of seq_len=200."""
    params = {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0}
    cfg = LlamaConfig(hidden_size=64, num_attention_heads=2, max_position_embeddings=128,
                      rope_parameters=dict(params))
    hf = LlamaRotaryEmbedding(cfg)
    x = torch.zeros(1, 1, 8)
    hf(x, torch.arange(200)[None])
    hf(x, torch.arange(150)[None])
    inv = hf.inv_freq.double().numpy()

    def ours(seq_len):
        return RotaryEmbedding.from_rope_parameters(params, 32, max_position_embeddings=128,
                                                    seq_len=seq_len).frequencies
    assert np.allclose(ours(200), inv, rtol=2**-20, atol=0)
    assert not np.allclose(ours(150), inv, rtol=2**-20, atol=0)
    assert "longest length seen" in " ".join(RotaryEmbedding.from_rope_parameters.__doc__.split())


# ------------------------------------------------------------------- torch-9, torch-10, M2
README = " ".join((__import__("pathlib").Path(__file__).resolve().parents[2] / "README.md")
                  .read_text().split())


def test_9_the_readme_names_each_misuse_that_runs_and_each_runs():
    """torch-9: the README said bad input raises, naming the argument; (batch, seq, heads,
    head_dim) RoPE input ran silently. It now names the three misuses no check can tell from
    the shapes and values, and each does run (so the sentence is true); num_heads= catches the
    first."""
    assert "Four misuses cannot be told from the shapes and values, and run" in README
    for words in ("num_heads=", 'axes="bshd"', "`[0, 0, 0, 1]`", "batch_first=False"):
        assert words in README, words
    q = torch.randn(2, 6, 4, 16)                                     # (batch, seq, heads, d)
    RotaryEmbedding(16)(q, q, offset=3)
    with pytest.raises(ValueError, match="num_heads"):
        RotaryEmbedding(16, num_heads=4)(q, q, offset=3)
    mask = torch.tensor([[0, 0, 0, 1], [0, 0, 1, 1]])[:1]          # a mask, also positions
    RotaryEmbedding(16)(torch.randn(1, 2, 4, 16), torch.randn(1, 2, 4, 16), mask)
    SinusoidalPositionalEncoding(8, 16)(torch.zeros(100, 8, 8))      # torch-M2: seq-first


def test_10_the_readme_says_which_module_rounds_once():
    """torch-10: "It keeps one table per input dtype, each entry rounded once" followed the RoPE
    example, but RotaryEmbedding rounds bfloat16 twice (via float32, as transformers does). The
    README now names the module of each; checked: the sinusoidal module's bfloat16 entries are
    float64 rounded once, RotaryEmbedding's differ from that at some entries."""
    from posenc.torch_module.table import round_to_16_bit

    assert "`SinusoidalPositionalEncoding` keeps one table per input dtype, each entry " \
           "rounded once" in README
    assert "so bfloat16 and float16 are rounded twice, as in transformers" in README
    pos = np.arange(8192)
    omega = RotaryEmbedding(128).frequencies
    cos64 = np.cos(np.outer(pos, omega))
    once = round_to_16_bit(cos64, torch.bfloat16)
    rope = RotaryEmbedding(128).cos_sin(torch.from_numpy(pos), torch.bfloat16)[0]
    assert int((rope != once).sum()) > 0                             # rounded twice somewhere
    pe = SinusoidalPositionalEncoding(128, 8192)
    table = pe(torch.zeros(1, 8192, 128, dtype=torch.bfloat16))[0]
    from posenc import encode
    assert torch.equal(table, round_to_16_bit(encode(8192, 128), torch.bfloat16))
