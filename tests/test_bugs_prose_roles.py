"""Sentences of docs/bugs-that-shipped.md held against an independent computation, each number in
its role and each descriptive word by what it names.

The page's rules bind a prose number by its presence anywhere in its section and leave words such
as "largest", "slowest", "large" or "turns" unbound: swapping 559 and 6094 between the two casts,
0.88 and 1.96 between the two ranges, 113 and 1125, or 0.3333 and 0.5182, and writing "smallest
gap", "fastest pair", "28% too small", "a linear blend in the wavelength" or "keeps `inv_freq` in
bfloat16", each left every check of the page passing (review-2026-12 p10a pass 10). Each test reads
its sentence from the page, so a flip of the word or a swap of the numbers fails here. No posenc
code is used: NumPy, and transformers 5.24.0 where the sentence is about transformers.
"""
import math
import re
from pathlib import Path

import numpy as np
import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "bugs-that-shipped.md"


def prose() -> str:
    return re.sub(r"\s+", " ", PAGE.read_text())


def stated(pattern: str):
    m = re.search(pattern, prose())
    assert m, pattern
    return m


def freq(d, base):
    return base ** (-np.arange(0, d, 2) / d)


def llama3_scaled(d=128, base=500000.0, factor=8.0, low=1.0, high=4.0, original=8192):
    """Llama-3.1's scaled frequencies in float64, from transformers 5.24.0's llama3 rule."""
    omega = freq(d, base)
    turns = original * omega / (2 * np.pi)
    smooth = np.clip((turns - low) / (high - low), 0.0, 1.0)
    return smooth * omega + (1 - smooth) * omega / factor


def llama3_config():
    from transformers import LlamaConfig
    return LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                       max_position_embeddings=131072, rope_theta=500000.0,
                       rope_scaling={"rope_type": "llama3", "factor": 8.0,
                                     "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                     "original_max_position_embeddings": 8192})


def test_each_cast_gets_its_own_first_whole_radian():
    import torch
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    m = stated(r"first a whole radian off at position (\d+) after `\.to\(torch\.bfloat16\)` "
               r"and at (\d+) after `\.half\(\)`")
    exact = np.multiply.outer(np.arange(131072.0), llama3_scaled())
    first = {}
    for dtype in (torch.bfloat16, torch.float16):
        inv = LlamaRotaryEmbedding(llama3_config()).to(dtype).inv_freq.float()
        angles = (torch.arange(131072)[:, None].float() * inv).double().numpy()
        first[dtype] = int(np.argmax(np.abs(angles - exact).max(axis=1) >= 1.0))
    assert (int(m.group(1)), int(m.group(2))) == (first[torch.bfloat16], first[torch.float16])


def test_a_bfloat16_load_keeps_the_buffer_in_the_type_stated():
    import tempfile
    import torch
    from transformers import LlamaConfig, LlamaModel
    m = stated(r"Loading with `dtype=torch\.bfloat16` keeps `inv_freq` in (\w+)")
    tiny = LlamaConfig(hidden_size=64, intermediate_size=32, num_hidden_layers=1,
                       num_attention_heads=2, num_key_value_heads=2, vocab_size=16)
    with tempfile.TemporaryDirectory() as folder:
        LlamaModel(tiny).save_pretrained(folder)
        loaded = LlamaModel.from_pretrained(folder, dtype=torch.bfloat16)
    assert str(loaded.rotary_emb.inv_freq.dtype) == f"torch.{m.group(1)}"


def test_the_two_ranges_keep_their_own_largest_cosine_error():
    m = stated(r"largest cosine error over the first (\d+) positions is (\d+(?:\.\d+)?), and "
               r"over the (\d+) positions Llama 2 was trained on it is (\d+(?:\.\d+)?)")
    omega = freq(128, 10000.0)
    pos = np.arange(int(m.group(3)))
    exact = np.multiply.outer(pos, omega)
    half = np.multiply.outer(pos.astype(np.float16), omega.astype(np.float16)).astype(float)
    error = np.abs(np.cos(half) - np.cos(exact))
    assert float(m.group(2)) == round(float(error[:int(m.group(1))].max()), 2)
    assert float(m.group(4)) == round(float(error.max()), 2)


def test_the_llama3_tables_part_at_the_positions_stated():
    m = stated(r"within 0\.1 radian of the scaled ones before position (\d+) and first differ "
               r"by a full radian at position (\d+)")
    gap = freq(128, 500000.0) - llama3_scaled()
    drift = np.abs(np.multiply.outer(np.arange(4096), gap)).max(axis=1)
    assert (int(m.group(1)), int(m.group(2))) == (int(np.argmax(drift > 0.1)),
                                                  int(np.argmax(drift > 1.0)))


def test_the_llama3_blend_is_linear_in_the_variable_named():
    """transformers' smooth factor, read back from its frequencies, against turns and wavelength."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    m = stated(r"a linear blend in the (number of turns|wavelength|frequency)")
    omega = freq(128, 500000.0)
    scaled = ROPE_INIT_FUNCTIONS["llama3"](llama3_config(), "cpu")[0].double().numpy()
    s = (scaled - omega / 8) / (omega - omega / 8)
    blended = (s > 1e-6) & (s < 1 - 1e-6)
    assert blended.sum() >= 3
    variables = {"number of turns": 8192 * omega / (2 * np.pi), "wavelength": 2 * np.pi / omega}

    def affine_residual(x):
        fit = np.polyfit(x[blended], s[blended], 1)
        return float(np.abs(np.polyval(fit, x[blended]) - s[blended]).max())
    assert m.group(1) in variables, m.group(1)
    assert affine_residual(variables[m.group(1)]) < 1e-5
    others = [affine_residual(x) for name, x in variables.items() if name != m.group(1)]
    assert all(r > 1e-3 for r in others), others


def dynamic_module():
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                         max_position_embeddings=2048, rope_theta=10000.0,
                         rope_scaling={"rope_type": "dynamic", "factor": 2.0})
    return LlamaRotaryEmbedding(config), config


def slowest_ratio_after(*lengths):
    import torch
    rope, _ = dynamic_module()
    start = rope.inv_freq.clone()
    for n in lengths:
        _ = rope(torch.zeros(1, 1, 128), torch.arange(n)[None])
    return round(float(rope.inv_freq[-1] / start[-1]), 4)


def test_the_input_between_gets_the_ratio_stated_not_its_own():
    m = stated(r"the 3000-token input gets (\d+(?:\.\d+)?), not (\d+(?:\.\d+)?)")
    assert float(m.group(1)) == slowest_ratio_after(4096, 3000)
    assert float(m.group(2)) == slowest_ratio_after(3000)
    m = stated(r"a 100-token prompt is rotated with its (slowest|fastest) pair at (\d+(?:\.\d+)?)")
    enlarged = 10000.0 * (2.0 * 4096 / 2048 - 1.0) ** (128 / 126)   # the base for 4096
    pair = {"slowest": -1, "fastest": 0}[m.group(1)]
    ratio = freq(128, enlarged)[pair] / freq(128, 10000.0)[pair]
    assert float(m.group(2)) == round(float(ratio), 4)


def test_the_cached_key_gap_is_largest_where_stated():
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    m = stated(r"differ by (\d+(?:\.\d+)?) radians in pair (\d+), the (largest|smallest) gap, "
               r"and by only (\d+(?:\.\d+)?) in the (slowest|fastest) pair")
    _, config = dynamic_module()
    at = {n: ROPE_INIT_FUNCTIONS["dynamic"](config, "cpu", seq_len=n)[0].double().numpy()
          for n in (2049, 4096)}
    gap = np.abs(2048 * (at[2049] - at[4096]))
    pick = {"largest": int(gap.argmax()), "smallest": int(gap.argmin())}[m.group(3)]
    assert (float(m.group(1)), int(m.group(2))) == (round(float(gap[pick]), 1), pick)
    end = {"slowest": -1, "fastest": 0}[m.group(5)]
    assert float(m.group(4)) == round(float(gap[end]), 2)


def test_ignoring_the_fields_makes_the_coordinates_larger_by_the_percent_stated():
    m = stated(r"the rotated coordinates come out (\d+)% too (large|small)")
    default, asked = 0.1 * math.log(16) + 1.0, 1.0
    assert int(m.group(1)) == round(100 * abs(default - asked) / asked)
    assert m.group(2) == ("large" if default > asked else "small")


def test_the_pair_unchanged_by_a_dropped_base_is_the_one_named():
    m = stated(r"with 10000 for 500000 on a 128-wide head the (fastest|slowest) pair is unchanged "
               r"and the (slowest|fastest) turns (\d+) times too fast")
    ratio = freq(128, 10000.0) / freq(128, 500000.0)
    end = {"fastest": 0, "slowest": -1}
    assert ratio[end[m.group(1)]] == 1.0
    assert int(m.group(3)) == round(float(ratio[end[m.group(2)]])) and m.group(3) != "1"


def bloom_slopes(n):
    import torch
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    return build_alibi_tensor(torch.ones(1, 2), n, torch.float64)[:, 0, 1].numpy()


def test_the_old_mlx_slope_named_is_the_steepest():
    m = stated(r"for 12 heads its (steepest|gentlest) slope is (\d+(?:\.\d+)?) where the rule "
               r"gives (\d+(?:\.\d+)?)")
    old = 2.0 ** (-8.0 * np.arange(1, 13) / 12)
    pick = {"steepest": np.max, "gentlest": np.min}[m.group(1)]
    assert (float(m.group(2)), float(m.group(3))) == (round(float(pick(old)), 2),
                                                      round(float(pick(bloom_slopes(12))), 2))


def test_the_rule_for_other_head_counts_is_bloom_s():
    """The sentence's rule: the p slopes of the largest power of two p under n, then the first
    n - p odd-numbered slopes of 2p heads (all of them would give 2p slopes, not n)."""
    text = stated(r"For other counts the authors' code, and Bloom's, takes [^.]*\.").group(0)
    assert "first \\(n - p\\)" in text, text
    which = re.search(r"the (largest|smallest) power of two \\\(p\\\) (under|over)", text)
    assert which, text
    for n in (3, 5, 6, 12, 20, 24, 40, 96, 100):
        p = 2 ** (math.floor if which.group(1) == "largest" else math.ceil)(math.log2(n))
        rule = np.concatenate([2.0 ** (-8.0 * np.arange(1, p + 1) / p),
                               2.0 ** (-8.0 * np.arange(1, 2 * p + 1, 2) / (2 * p))[:n - p]])
        assert np.allclose(rule, bloom_slopes(n), rtol=1e-6), n


def test_the_old_mlx_slopes_differ_in_the_counts_stated():
    m = stated(r"head by head all (\d+) slopes differ, and even as sets (\d+) of the 12 old "
               r"slopes are not among the rule's")
    old, rule = 2.0 ** (-8.0 * np.arange(1, 13) / 12), bloom_slopes(12)
    assert int(m.group(1)) == int((~np.isclose(old, rule)).sum())
    assert int(m.group(2)) == sum(not np.isclose(rule, o).any() for o in old)


def test_the_head_width_exponent_speeds_up_the_pair_named():
    m = stated(r"for a head of 256 with 64 rotated \(base 10000000\), the (slowest|fastest) "
               r"rotated pair turns (\S+) times too fast")
    right = freq(64, 1e7)
    wrong = 1e7 ** (-2 * np.arange(32) / 256)
    ratio = wrong / right
    pair = {"slowest": -1, "fastest": 0}[m.group(1)]
    assert m.group(2) == f"{ratio[pair]:.1e}" and ratio[pair] > 1.5, (m.group(2), ratio[pair])


def test_a_served_length_below_the_trained_one_gives_the_multiplier_stated():
    m = stated(r"shrinks the base: (\d+(?:\.\d+)?) for (\d+);")
    assert float(m.group(1)) == round(2.0 * int(m.group(2)) / 2048 - 1.0, 2)


def test_each_library_pairs_the_coordinates_stated():
    import torch
    from transformers.models.gptj import modeling_gptj as gptj
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb
    m = stated(r"GPT-J pairs coordinates \\\((.+?)\\\); GPT-NeoX and transformers' Llama pair "
               r"\\\((.+?)\\\)")
    names = {"(2i, 2i+1)": 1, "(i, i + d/2)": 32}        # partner of coordinate 0, width 64
    e0 = torch.zeros(1, 1, 1, 64)
    e0[..., 0] = 1.0
    sin, cos = torch.split(gptj.create_sinusoidal_positions(8, 64)[[5]], 32, dim=-1)
    turned = gptj.apply_rotary_pos_emb(e0, sin[None], cos[None])
    gptj_partner = int(torch.nonzero(turned.flatten())[1])
    angle = torch.full((1, 1, 64), 5.0 * 1.0)
    llama, _ = apply_rotary_pos_emb(e0.transpose(1, 2), e0.transpose(1, 2), angle.cos(),
                                    angle.sin())
    llama_partner = int(torch.nonzero(llama.flatten())[1])
    assert (names[m.group(1)], names[m.group(2)]) == (gptj_partner, llama_partner)


def test_a_matrix_product_under_cpu_autocast_comes_out_in_the_type_stated():
    import torch
    m = stated(r"the same float32 inputs multiplied as a matrix, as in the code "
               r"transformers#29285 fixed, come out in (\w+)")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = torch.ones(3, 1) @ torch.ones(1, 4)
    assert str(out.dtype) == f"torch.{m.group(1)}"


def test_the_reset_happens_below_the_trained_length_only():
    m = stated(r"restores the original ones when an input is (shorter than|no longer than|at most) "
               r"the trained length")
    at_length, below = slowest_ratio_after(4096, 2048), slowest_ratio_after(4096, 2047)
    assert below == 1.0 and at_length != 1.0
    assert m.group(1) == "shorter than"


def test_each_row_of_a_batch_gets_the_row_named():
    import torch
    m = stated(r"each row of a batch gets its (longest|shortest) row's")
    rope, _ = dynamic_module()
    rows = torch.zeros(2, 4096, dtype=torch.long)
    rows[0], rows[1, :100] = torch.arange(4096), torch.arange(100)
    start = rope.inv_freq.clone()
    _ = rope(torch.zeros(2, 1, 128), rows)
    got = round(float(rope.inv_freq[-1] / start[-1]), 4)
    assert got == {"longest": slowest_ratio_after(4096), "shortest": 1.0}[m.group(1)]
    assert slowest_ratio_after(4096) != 1.0


def test_deepseek_v3_scales_its_softmax_by_the_power_stated():
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import yarn_apply_mscale
    m = stated(r"also multiplies its softmax scale by (the square of )?the `mscale_all_dim` term")
    term = 0.1 * math.log(16) + 1.0
    got = yarn_apply_mscale({"rope_type": "yarn", "factor": 16.0, "mscale_all_dim": 1.0}, 1.0)
    power = 2 if m.group(1) else 1
    assert abs(got - term ** power) < 1e-12, (got, term, power)


def test_the_head_width_pair_offset_leaves_the_share_stated_alone():
    m = stated(r"a coordinate that should pass through is rotated, and (half|a quarter|a third) "
               r"of the rotary block is left alone")
    head, rotary = 256, 64
    x = np.random.default_rng(1).normal(size=head)
    i = np.arange(rotary // 2)
    angle = 5000 * 1e7 ** (-2 * i / head)
    out = x.copy()
    a, b = x[i], x[i + head // 2]
    out[i] = a * np.cos(angle) - b * np.sin(angle)
    out[i + head // 2] = a * np.sin(angle) + b * np.cos(angle)
    untouched = int(np.isclose(out[:rotary], x[:rotary]).sum())
    assert untouched / rotary == {"half": 1 / 2, "a quarter": 1 / 4, "a third": 1 / 3}[m.group(1)]


def test_phimoe_ignores_the_factor_list_named():
    import torch
    from transformers import PhimoeConfig
    from transformers.models.phimoe import modeling_phimoe
    m = stated(r"PhiMoE's rotary module ignores the (long|short) factors")
    short, long_ = [1.0] * 8, [float(f) for f in range(1, 9)]
    moe = PhimoeConfig(hidden_size=32, num_attention_heads=2, num_key_value_heads=2,
                       max_position_embeddings=131072, original_max_position_embeddings=4096,
                       rope_parameters={"rope_type": "longrope", "rope_theta": 10000.0,
                                        "short_factor": short, "long_factor": long_,
                                        "short_mscale": 1.0, "long_mscale": 1.0})
    rotary = modeling_phimoe.PhimoeRotaryEmbedding(moe)
    cos, sin = rotary(torch.zeros(1, 1, 16), torch.tensor([[5000]]))   # past the switch
    turn = (cos + 1j * sin)[0, 0, :8].numpy()
    used = {name: np.allclose(turn / abs(turn), np.exp(1j * 5000 * freq(16, 10000.0)
                                                       / np.array(f)), atol=1e-2)
            for name, f in (("short", short), ("long", long_))}
    ignored = "long" if used["short"] and not used["long"] else "short"
    assert m.group(1) == ignored, used


def test_the_length_keyed_caches_are_as_many_as_stated():
    import pathlib
    import transformers
    m = stated(r"its (\w+) length-keyed caches are encoders'")
    files = (pathlib.Path(transformers.__file__).parent / "models").glob("*/modeling_*.py")
    count = sum("cached_sequence_length" in f.read_text() for f in files)
    words = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
    assert words[m.group(1)] == count


def test_the_llama3_pair_counts_and_slowdown_are_the_ones_stated():
    m = stated(r"(\d+) of the 64 pairs keep their frequency and (\d+) are slowed by (\d+)")
    ratio = freq(128, 500000.0) / llama3_scaled()
    assert (int(m.group(1)), int(m.group(2))) == (int(np.isclose(ratio, 1).sum()),
                                                  int(np.isclose(ratio, 8).sum()))
    assert int(m.group(3)) == round(float(ratio.max()))


def test_the_partial_rotary_frequencies_end_near_the_value_stated():
    m = stated(r"Its frequencies are \\\(\\text\{base\}\^\{-2i/\\text\{rotary\\_dim\}\}\\\), from 1 "
               r"down to nearly \\\((.+?)\\\)")
    ends = {"1/\\text{base}": lambda b: 1 / b, "1/\\sqrt{\\text{base}}": lambda b: b ** -0.5}
    for base, rotary in ((10000.0, 64), (1e7, 64), (10000.0, 32)):
        slowest = freq(rotary, base)[-1]
        assert 1 <= slowest / ends[m.group(1)](base) < 2, (base, rotary)


def test_a_yarn_block_without_factor_is_treated_as_stated():
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    m = stated(r"A YaRN block without `factor` (is refused|falls back to the ratio) when the "
               r"configuration is built; an explicit `\"factor\": null` (falls back to the ratio|"
               r"is refused)")

    def build(**fields):
        return LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                           max_position_embeddings=131072, rope_theta=1000000.0,
                           rope_scaling={"rope_type": "yarn",
                                         "original_max_position_embeddings": 32768, **fields})
    with pytest.raises(KeyError):
        build()
    inv = ROPE_INIT_FUNCTIONS["yarn"](build(factor=None), "cpu")[0]
    assert round(float(freq(128, 1e6)[-1] / inv[-1]), 4) == 4.0      # 131072 / 32768
    assert (m.group(1), m.group(2)) == ("is refused", "falls back to the ratio")


def test_the_rounded_angle_is_at_the_position_and_pair_stated():
    m = stated(r"At position (\d+), pair (\d+) of a 128-wide Llama 2 head, the exact angle "
               r"(\d+(?:\.\d+)?) becomes (\d+)")
    at, pair = int(m.group(1)), int(m.group(2))
    omega = freq(128, 10000.0)
    exact = at * omega[pair]
    half = float(np.float16(at) * np.float16(omega[pair]))
    assert (float(m.group(3)), float(m.group(4))) == (round(exact, 2), half)
