"""Pass 6 (r13g) of the torch modules' docstrings: each case fails on the code or text before
the fix (docs/data/findings.yml, source 'review-2026-12 r13g pass 6')."""

import inspect
import re

import numpy as np
import pytest
import torch

from posenc.torch_module import rope_cache, rotary, rotate, sinusoidal, table
from posenc.torch_module.checks import NotScriptable
from posenc.torch_module.hf import TransformersRotaryEmbedding
from posenc.torch_module.rotary import RotaryEmbedding
from posenc.torch_module.sinusoidal import SinusoidalPositionalEncoding


def flat(obj) -> str:
    return " ".join((obj if isinstance(obj, str) else inspect.getdoc(obj)).split())


ROPE = flat(RotaryEmbedding)
FROM = flat(RotaryEmbedding.from_rope_parameters)


# ---------------------------------------------------------------- code and content findings

def test_g1_a_first_call_without_tokens_runs():
    """A fresh module given seq 0 raised "cannot unpack non-iterable NoneType object" (the
    cache was not built for 0 positions); after any other call the same input ran."""
    q = torch.zeros(1, 2, 0, 8)
    rq, rk = RotaryEmbedding(8)(q, q)
    assert rq.shape == rk.shape == (1, 2, 0, 8)


def test_g2_k_with_no_heads_is_refused_naming_k():
    """k with 0 heads raised ZeroDivisionError "integer modulo by zero", naming nothing."""
    with pytest.raises(ValueError, match=r"^k's heads must divide q's .* got 0 and 2"):
        RotaryEmbedding(8)(torch.zeros(1, 2, 3, 8), torch.zeros(1, 0, 3, 8))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_g3_build_table_is_on_the_cpu_whatever_the_default_device(dtype):
    """build_table says "on the CPU"; under ``with torch.device("meta")`` its 16-bit tables
    were meta tensors (no values), its float32 and float64 ones on the CPU."""
    with torch.device("meta"):
        built = table.build_table(10, 4, dtype=dtype)
    assert built.device.type == "cpu"
    assert torch.equal(built, table.build_table(10, 4, dtype=dtype))
    assert "on the CPU" in flat(table.build_table)


def test_g4_no_cuda_claim_without_a_cuda_check():
    """The rotary module docstring said "Autograd, CPU and CUDA"; no test runs RotaryEmbedding
    on CUDA (tests/package/test_torch_module.py's CUDA case is the sinusoidal module's)."""
    assert "CUDA" not in flat(rotary)
    assert "Autograd, and ``torch.compile(fullgraph=True)`` in a decode loop" in flat(rotary)


def _scripting_error(cls, *args):
    class Plain(cls):
        def __prepare_scriptable__(self):
            return self
    try:
        torch.jit.script(Plain(*args))
    except Exception as error:          # noqa: BLE001 (the reason TorchScript gives)
        return str(error)
    return None


def test_g5_what_torchscript_cannot_compile_in_each_module():
    """NotScriptable said TorchScript "cannot compile keyword-only arguments or the table's
    NumPy builder": the learned module has neither (it fails on a module-level tuple in its
    input check), and the rotary and sinusoidal modules fail on their keyword-only arguments
    first."""
    from posenc.torch_module import LearnedPositionalEmbedding
    kw = "keyword-only arguments with defaults"
    assert kw in _scripting_error(RotaryEmbedding, 8)
    assert kw in _scripting_error(SinusoidalPositionalEncoding, 8, 16)
    learned = _scripting_error(LearnedPositionalEmbedding, 16, 8)
    assert kw not in learned and "python value of type 'tuple'" in learned
    doc = flat(NotScriptable)
    assert "keyword-only arguments or the table's NumPy builder" not in doc
    assert "(keyword-only arguments with defaults, or a module-level tuple)" in doc


def test_g6_start_is_an_int_with_tokens_or_padding_mask():
    """forward's start said "int or 0-d integer tensor" for every call; with tokens or
    padding_mask a 0-d tensor is refused."""
    pe = SinusoidalPositionalEncoding(4, 10)
    x = torch.zeros(1, 3, 4)
    assert torch.equal(pe(x, start=torch.tensor(2)), pe(x, start=2))
    with pytest.raises(TypeError, match="start must be a non-negative int with tokens"):
        pe(x, start=torch.tensor(2), padding_mask=torch.zeros(1, 3, dtype=torch.bool))
    doc = flat(SinusoidalPositionalEncoding.forward)
    assert "start : int or 0-d integer tensor (an int with ``tokens`` or ``padding_mask``)" in doc


def test_g7_a_stray_position_does_not_build_a_table_to_it():
    """p11t's open finding: one position id near 2**31 built a table of 2**31 rows (killed for
    memory at rotary_dim 8); 2**40 raised the allocator's error. The table now stops at
    max(max_len, TABLE_ROWS) positions; later positions get their own cos and sin."""
    rope = RotaryEmbedding(8)
    q = torch.randn(1, 1, 3, 8)
    ids = torch.tensor([[0, 1, 2**31 - 1]], dtype=torch.int32)
    rope(q, q, ids)
    assert rope.cache_nbytes == 0                                        # no table at all
    cos, sin = rope.cos_sin(ids)
    angles = np.outer([0, 1, 2**31 - 1], rope.frequencies)
    assert np.abs(cos[0].double().numpy() - np.cos(angles)).max() <= 2.0 ** -25
    assert np.abs(sin[0].double().numpy() - np.sin(angles)).max() <= 2.0 ** -25
    rope(q[:, :, :1], q[:, :, :1], offset=2**40)                         # an offset likewise
    assert rope.cache_nbytes == 0 and rope_cache.TABLE_ROWS == 2**20
    near = RotaryEmbedding(8, max_len=64)
    near(q, q, offset=2**20 - 3)                                         # fits: cached
    assert near.cache_nbytes == 2**20 * 4 * 8
    past = near(q, q, offset=2**20 - 2)[0]                               # past it: computed
    assert near.cache_nbytes == 2**20 * 4 * 8
    assert torch.equal(past, RotaryEmbedding(8, max_len=2**21)(q, q, offset=2**20 - 2)[0])
    assert "up to ``max(max_len, 2**20)`` (:data:`TABLE_ROWS`): a call with a later position" \
           in ROPE


# ------------------------------------------------- word flips that passed every test (UNBOUND)

transformers = pytest.importorskip("transformers")


def test_g8_the_cache_grows_by_at_least_an_eighth():
    """Flip "at least an eighth" -> "at most": one position past a 2048-row table gives 2304."""
    rope, q = RotaryEmbedding(8, max_len=2048), torch.zeros(1, 1, 1, 8)
    rope(q, q)
    rope(q, q, offset=2048)                               # needs 2049
    assert rope.cache_nbytes // (4 * 8) == 2048 + 2048 // 8
    assert "and by at least an eighth, rounded up likewise" in ROPE


def test_g9_compiled_calls_hold_no_data_dependent_length_check():
    """Flip "so there is no data-dependent length check" -> "a": a full graph past the table's
    end, with changing offsets, traces and equals the eager call."""
    rope = RotaryEmbedding(8, max_len=64)
    q = torch.randn(1, 2, 1, 8)
    f = torch.compile(lambda q, o: rope(q, q, offset=o)[0], fullgraph=True, backend="eager")
    for offset in (100, 5000, 5001):
        assert torch.equal(f(q, offset), RotaryEmbedding(8)(q, q, offset=offset)[0])
    assert "so there is no data-dependent length check in the graph" in ROPE


def test_g10_the_cache_never_shrinks_by_itself():
    """Flip "never shrinks" -> "always shrinks": a short call after a long one keeps it."""
    rope, q = RotaryEmbedding(8), torch.zeros(1, 1, 1, 8)
    rope(q, q, offset=9000)
    size = rope.cache_nbytes
    rope(q, q, offset=3)
    assert rope.cache_nbytes == size > 2048 * 4 * 8
    assert "It never shrinks by itself: :meth:`clear_cache` drops it" in ROPE


def test_g11_rounded_once_to_float32_then_to_the_input_dtype():
    """Flip "rounded once to float32" -> "twice": a bfloat16 cos is float64 -> float32 ->
    bfloat16 (as transformers' cast), which differs from float64 rounded once to bfloat16 at
    some entries."""
    rope = RotaryEmbedding(8)
    positions = [6985, 49043, 79133, 84269]                # float32 lands on a bfloat16 tie
    cos = rope.cos_sin(torch.tensor(positions), torch.bfloat16)[0]
    exact = np.cos(np.outer(positions, rope.frequencies))
    assert torch.equal(cos, torch.from_numpy(exact).float().to(torch.bfloat16))
    assert not torch.equal(cos, table.round_to_16_bit(exact, torch.bfloat16))
    assert "their cosines and sines rounded once to float32 (then to the input's dtype" \
           in flat(rotary)


def test_g12_a_value_in_the_block_wins_over_the_one_beside_it():
    """Flip "wins over" -> "loses to": both transformers 5.24.0 and posenc take the block's."""
    block = {"rope_type": "default", "rope_theta": 500000.0}
    config = transformers.LlamaConfig(rope_theta=10000.0, rope_parameters=dict(block))
    assert config.rope_parameters["rope_theta"] == 500000.0
    assert RotaryEmbedding.from_rope_parameters(dict(block), 8, rope_theta=10000.0).base == 500000.0
    assert "a value in the block wins over the one passed beside it" in FROM


def test_g13_an_odd_partial_width_rotates_one_coordinate_more():
    """Flip "one coordinate more" -> "fewer": GPT-NeoX at int(16 * 0.3125) = 5 rotates 6."""
    from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding
    config = transformers.GPTNeoXConfig(hidden_size=32, num_attention_heads=2, rotary_pct=0.3125)
    assert config.rope_parameters["partial_rotary_factor"] == 0.3125
    cos, _ = GPTNeoXRotaryEmbedding(config)(torch.zeros(1), torch.arange(2)[None])
    assert cos.shape[-1] == 6
    with pytest.raises(ValueError, match="an odd number .transformers rotates 6, with frequencies "
                                         "over 5"):
        RotaryEmbedding.from_rope_parameters(dict(config.rope_parameters), 16)
    assert "an odd width (transformers rotates one coordinate more)" in FROM


def _dynamic_llama():
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    params = {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0}
    config = transformers.LlamaConfig(hidden_size=32, num_attention_heads=2,
                                      max_position_embeddings=128, rope_parameters=params)
    return LlamaRotaryEmbedding(config), params


def test_g14_dynamic_resets_on_a_call_shorter_than_the_original_length():
    """Flip "a call shorter than the original length resets it" -> "longer": after 300, a call
    of 200 (longer than 128) keeps 300; one of 100 resets to 128."""
    hf, _ = _dynamic_llama()
    for length, kept in ((300, 300), (200, 300), (100, 128)):
        hf(torch.zeros(1), torch.arange(length)[None])
        assert hf.max_seq_len_cached == kept, length
    assert "until a call shorter than the original length resets it" in FROM


def test_g15_give_dynamic_the_longest_length_not_the_current_one():
    """Flip "pass that length, not the current one" -> "the current length, not that one":
    after 300 then 200, transformers' frequencies are those of seq_len 300."""
    hf, params = _dynamic_llama()
    for length in (300, 200):
        hf(torch.zeros(1), torch.arange(length)[None])
    read = {n: RotaryEmbedding.from_rope_parameters(dict(params), 16, seq_len=n,
                                                    max_position_embeddings=128).frequencies
            for n in (300, 200)}
    assert np.allclose(hf.inv_freq.numpy(), read[300], rtol=1e-6)
    assert not np.allclose(hf.inv_freq.numpy(), read[200], rtol=1e-6)
    assert "so to give its frequencies pass that length, not the current one" in FROM


def test_g16_transformers_computes_cos_sin_once_per_forward():
    """Flip "once per forward" -> "once per layer": a 3-layer Llama calls rotary_emb once."""
    config = transformers.LlamaConfig(vocab_size=16, hidden_size=16, intermediate_size=16,
                                      num_hidden_layers=3, num_attention_heads=2)
    model = transformers.LlamaModel(config)
    calls = []
    model.rotary_emb.register_forward_hook(lambda *_: calls.append(1))
    model(torch.zeros(1, 4, dtype=torch.long))
    assert len(calls) == 1
    assert "(transformers likewise computes cos/sin once per forward)" in \
           flat(RotaryEmbedding.rotation)


def test_g17_cos_and_sin_are_cast_before_the_products():
    """Flip "cast to x.dtype before the products" -> "after": bfloat16 x gives the bits of
    bfloat16 cos and sin multiplied in bfloat16, not those of float32 products rounded once."""
    torch.manual_seed(0)
    x = torch.randn(1, 1, 64, 8).bfloat16()
    cos, sin = rotate.rope_cos_sin(torch.arange(64), torch.tensor(RotaryEmbedding(8).frequencies))
    got = rotate.apply_rotary(x, cos, sin)
    c, s = (torch.cat([t, t], -1).bfloat16() for t in (cos, sin))
    before = x * c + torch.cat([-x[..., 4:], x[..., :4]], -1) * s
    c32, s32 = (torch.cat([t, t], -1) for t in (cos, sin))
    after = (x.float() * c32 + torch.cat([-x[..., 4:], x[..., :4]], -1).float() * s32).bfloat16()
    assert torch.equal(got, before) and not torch.equal(got, after)
    assert "cast to ``x.dtype`` before the products" in flat(rotate.apply_rotary)


HF = flat(TransformersRotaryEmbedding)


def test_g18_transformers_float32_error_grows_with_the_position():
    """Flip "whose error grows with the position" -> "shrinks": transformers' float32 cos is
    further from float64's at positions 130048 to 131071 than at 0 to 1023."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    hf = LlamaRotaryEmbedding(transformers.LlamaConfig(hidden_size=256, num_attention_heads=2))
    omega = RotaryEmbedding(128).frequencies
    gaps = []
    for start in (0, 130048):
        positions = torch.arange(start, start + 1024)
        cos = hf(torch.zeros(1), positions[None])[0][0, :, :64].double().numpy()
        gaps.append(np.abs(cos - np.cos(np.outer(positions.numpy(), omega))).max())
    assert gaps[1] > 100 * gaps[0]
    assert "transformers in float32, whose error grows with the position" in HF


def test_g19_dynamic_goes_back_on_a_call_shorter_than_max_position_embeddings():
    """Flip "when a call is shorter than ``max_position_embeddings``" -> "longer" (the hf
    docstring's form of g14's rule): posenc's drop-in follows transformers' 300, 200, 100."""
    hf, params = _dynamic_llama()
    ours = TransformersRotaryEmbedding(hf.config)
    for length in (300, 200, 100):
        positions = torch.arange(length)[None]
        hf(torch.zeros(1), positions), ours(torch.zeros(1), positions)
        assert ours.max_seq_len_cached == hf.max_seq_len_cached, length
    assert ours.max_seq_len_cached == 128
    assert "(and goes back to the original frequencies when a call is shorter than " \
           "``max_position_embeddings``)" in HF


def test_g20_an_uninverted_mask_raises_with_cached_keys_and_warns_without():
    """Flip "raises when there are cached keys ... and warns otherwise" -> "warns when ...":
    attention_mask.bool() given as padding_mask, one new token after 3 cached: ValueError; the
    same mask over 4 new tokens: a warning."""
    from posenc.torch_module.alibi import alibi_bias
    mask = torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1]]).bool()         # transformers' 1 at tokens
    with pytest.raises(ValueError, match="with 3 cached keys the last key is the newest token"):
        alibi_bias(2, 1, 4, padding_mask=mask)
    with pytest.warns(UserWarning, match="not inverted"):
        alibi_bias(2, 4, 4, padding_mask=mask)
    assert "the last key padded in every row raises when there are cached keys" in \
           flat(alibi_bias)


def test_g21_bloom_and_posenc_differ_by_the_query_position_term():
    """Flip "differ by ``m_h * pos_q``" -> "``m_h * pos_k``": Bloom's bias minus posenc's, at
    the keys a query sees, is m_h times the query's position, the same along the row."""
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    from posenc.torch_module.alibi import alibi_bias, alibi_slopes
    heads, n = 4, 6
    bloom = build_alibi_tensor(torch.ones(1, n), heads, torch.float32).view(1, heads, 1, n)
    ours = alibi_bias(heads, n)
    slopes = alibi_slopes(heads).view(1, heads, 1, 1)
    seen = torch.ones(n, n).tril().bool()
    diff = (bloom - ours)[..., seen]                       # (1, heads, seen keys)
    pos_q = torch.arange(n).view(n, 1).expand(n, n)[seen].float()
    assert torch.allclose(diff, slopes.view(1, heads, 1) * pos_q, atol=1e-6)
    assert "because the two differ by ``m_h * pos_q``, constant along each query's row" in \
           flat(alibi_bias)


def test_g22_a_mask_row_needs_two_or_more_0s_then_two_or_more_1s():
    """Flip "two or more 0s, then two or more 1s" -> "one or more": one 0 or one 1 passes as
    position ids (packed documents, a left-padded two-token prompt)."""
    from posenc.torch_module.checks import looks_like_attention_mask as mask_like
    assert mask_like(torch.tensor([[0, 0, 1, 1]]))
    for row in ([0, 1, 1, 1], [0, 0, 0, 1], [0, 1]):
        assert not mask_like(torch.tensor([row])), row
    assert "(two or more 0s, then two or more 1s)" in flat(mask_like)


def test_g23_growth_constant_at_least_an_eighth():
    """Flip "by at least ``1 / GROWTH``" -> "at most" (GROWTH's docstring; g8's rule): a
    position far past the table grows it to that position, more than an eighth."""
    rope, q = RotaryEmbedding(8, max_len=64), torch.zeros(1, 1, 1, 8)
    rope(q, q)
    rope(q, q, offset=1000)
    assert rope.cache_nbytes // (4 * 8) == 1024 > 64 + 64 // rope_cache.GROWTH
    assert "and by at least ``1 / GROWTH`` of its length" in " ".join(
        inspect.getsource(rope_cache).split())


def test_g24_sixteen_bit_tables_take_2_bytes_per_entry():
    """Flip "2 in float16 and bfloat16" -> "4"."""
    pe = SinusoidalPositionalEncoding(8, 16)
    assert [pe.table(d).element_size() for d in (torch.float32, torch.float16,
                                                 torch.bfloat16)] == [4, 2, 2]
    assert "(4 bytes per entry in float32, 2 in float16 and bfloat16)" in \
           flat(SinusoidalPositionalEncoding)


def test_g25_rounding_twice_is_wrong_only_at_float32_ties():
    """Flip "wrong only where" -> "wrong except where": over 200000 x 8 cosines, the entries
    where float64 -> float32 -> bfloat16 differs from one rounding are all float32 ties (6 of
    the ties), and most ties round right."""
    rope = RotaryEmbedding(16)
    exact = np.cos(np.outer(np.arange(200000), rope.frequencies))
    twice = torch.from_numpy(exact).float().to(torch.bfloat16).reshape(-1)
    once = table.round_to_16_bit(exact, torch.bfloat16).reshape(-1)
    wrong = set((twice != once).nonzero().flatten().tolist())
    at_ties = set(table.ties(exact.astype(np.float32), torch.bfloat16).tolist())
    assert wrong and wrong <= at_ties and len(wrong) < len(at_ties)
    assert "Rounding twice is wrong only where the float32 value lands exactly halfway" in \
           flat(table)


def test_g26_longrope_takes_its_long_factors_past_the_original_length():
    """Flip "takes its long factors past" -> "short": past original_max_position_embeddings the
    drop-in's frequencies are the paper's divided by long_factor, short_factor's otherwise."""
    params = {"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1.0] * 4,
              "long_factor": [4.0] * 4, "original_max_position_embeddings": 32}
    config = transformers.LlamaConfig(hidden_size=16, num_attention_heads=2,
                                      max_position_embeddings=128, rope_parameters=params)
    ours = TransformersRotaryEmbedding(config)
    paper = RotaryEmbedding(8).frequencies
    assert np.allclose(ours._rope_for(33).frequencies, paper / 4.0)
    assert np.allclose(ours._rope_for(32).frequencies, paper)
    assert "``longrope`` takes its long factors past ``original_max_position_embeddings`` and " \
           "its short ones otherwise" in HF
