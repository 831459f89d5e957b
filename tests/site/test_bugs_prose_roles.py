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

from harness.says import flat, stated as stated_in

PAGE = Path(__file__).resolve().parents[2] / "docs" / "bugs-that-shipped.md"


def prose() -> str:
    return flat(PAGE)


def stated(pattern: str):
    return stated_in(prose(), pattern)


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
    m = stated(r"At position (\d+), pair (\d+) of a 128-wide Llama 2 head, .*?the exact angle "
               r"(\d+(?:\.\d+)?) becomes (\d+)")
    at, pair = int(m.group(1)), int(m.group(2))
    omega = freq(128, 10000.0)
    exact = at * omega[pair]
    half = float(np.float16(at) * np.float16(omega[pair]))
    assert (float(m.group(3)), float(m.group(4))) == (round(exact, 2), half)


# --- review-2026-12 p12a pass 11: words the page's checks did not read -------------------------
# Each flip below left the page test, tests/site/test_bugs_*.py and tests/site/test_old_wording.py passing on a
# scratch copy of the page: "In bfloat16 the numbers from 1024 to 2048 are spaced 1 apart", "rounded
# to a half radian", "the cosines are those of bfloat16", a wrong module in the list of six,
# "restores the bfloat16 frequencies", "enlarges the base when the input is shorter", and others
# listed in reviews/2026-12/p12a.md. Each test reads its sentence and recomputes (NumPy, or
# transformers 5.24.0 where the sentence is about transformers; no posenc).

def spacing(dtype_name, x):
    """Distance from x to the next number of the named half-precision type."""
    import torch
    dtype = {"float16": torch.float16, "bfloat16": torch.bfloat16}[dtype_name]
    value = torch.tensor(float(x), dtype=dtype)
    return float(torch.nextafter(value, torch.tensor(float("inf"), dtype=dtype)) - value)


def test_the_spacing_and_the_rounding_are_those_of_the_type_named():
    m = stated(r"In (b?float16) the numbers from (\d+) to (\d+) are spaced (\d+) apart, so an angle "
               r"near (\d+) is rounded to a (whole|half) radian")
    kind, lo, hi, gap, near = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
    assert {spacing(kind, x) for x in range(lo, hi)} == {float(gap)}
    assert spacing(kind, hi) != gap and lo <= near < hi
    assert {"whole": 1.0, "half": 0.5}[m.group(6)] == spacing(kind, near)


def test_autocast_leaves_the_cosines_of_the_type_named():
    import torch
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    m = stated(r"Under `torch\.autocast` on the CPU the cosines are those of (\w+), bit for bit")
    rope = LlamaRotaryEmbedding(llama3_config())
    ids = torch.arange(0, 131072, 61)[None]
    with torch.autocast("cpu", dtype=torch.bfloat16):
        under, _ = rope(torch.zeros(1, 1, 128), ids)
    by_type = {name: torch.cat([(ids[..., None].to(t) * rope.inv_freq.to(t))] * 2, -1).cos().float()
               for name, t in (("float32", torch.float32), ("bfloat16", torch.bfloat16))}
    assert torch.equal(under, by_type[m.group(1)]), m.group(1)
    assert not torch.equal(by_type["float32"], by_type["bfloat16"])


MODULE_FOLDERS = {"Wav2Vec2-Conformer": "wav2vec2_conformer", "Wav2Vec2-BERT": "wav2vec2_bert",
                  "SeamlessM4T": "seamless_m4t", "CLVP": "clvp", "MusicFlamingo": "musicflamingo",
                  "EfficientLoFTR": "efficientloftr"}


def test_the_modules_that_keep_the_old_pipeline_are_the_ones_listed():
    """Every rotary module of 5.24.0 that builds its positions in `inv_freq`'s type (my own scan:
    type_as of an inv_freq, or an arange/tensor given an inv_freq's dtype), and no other."""
    import pathlib
    import transformers
    m = stated(r"that pipeline survives in the rotary modules that type the positions as `inv_freq`: "
               r"([^.(]+?) \(checked below\)")
    names = [n.strip() for n in re.split(r",| and ", m.group(1)) if n.strip()]
    assert all(n in MODULE_FOLDERS for n in names), names
    typed = re.compile(r"type_as\((self\.)?\w*inv_freq\w*\)|dtype=(self\.)?\w*inv_freq\w*\.dtype")
    root = pathlib.Path(transformers.__file__).parent / "models"
    found = {f.parent.name for f in root.glob("*/modeling_*.py") if typed.search(f.read_text())}
    assert sorted(MODULE_FOLDERS[n] for n in names) == sorted(found), (names, found)


def test_a_rebuilt_rotary_module_has_frequencies_of_the_type_named():
    import torch
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    m = stated(r"Building the rotary module again restores the (\w+) frequencies")
    cast = LlamaRotaryEmbedding(llama3_config()).to(torch.bfloat16)
    rebuilt = LlamaRotaryEmbedding(llama3_config())
    assert cast.inv_freq.dtype == torch.bfloat16
    assert str(rebuilt.inv_freq.dtype) == f"torch.{m.group(1)}"
    assert np.allclose(rebuilt.inv_freq.double().numpy(), llama3_scaled(), rtol=1e-6)


def test_dynamic_ntk_enlarges_the_base_on_the_side_stated():
    m = stated(r"Dynamic NTK enlarges the base when the input is (longer|shorter) than the trained "
               r"length \\\(L\\\), and leaves it alone otherwise")
    slowest = {n: slowest_ratio_after(n) for n in (100, 2047, 2048, 2049, 3000, 4096)}
    longer = all(slowest[n] < 1 for n in (2049, 3000, 4096))
    shorter_alone = all(slowest[n] == 1.0 for n in (100, 2047, 2048))
    assert longer and shorter_alone, slowest
    assert m.group(1) == "longer"


def test_the_module_recomputes_for_the_inputs_stated():
    m = stated(r"recomputes the frequencies when an input is (longer|shorter) than the length they "
               r"were computed for")
    assert slowest_ratio_after(3000, 3500) == slowest_ratio_after(3500) != slowest_ratio_after(3000)
    assert slowest_ratio_after(3000, 2500) == slowest_ratio_after(3000)   # kept, not recomputed
    assert m.group(1) == "longer"


def test_the_whole_radian_step_needs_the_rounded_frequency():
    """Cause of the example: the float16 product alone rounds 1044.27 to 1044; the step to 1045
    comes from the frequency, rounded before the product (old text named only the spacing)."""
    m = stated(r"At position (\d+), pair (\d+) of a 128-wide Llama 2 head, the frequency is rounded "
               r"first, (\d\.\d+) to (\d\.\d+), so the exact angle (\d+\.\d+) becomes (\d+), not (\d+),")
    at, pair = int(m.group(1)), int(m.group(2))
    w = freq(128, 10000.0)[pair]
    assert float(m.group(3)) == round(float(w), 4)
    assert float(m.group(4)) == float(np.float16(w))
    assert float(m.group(6)) == float(np.float16(at) * np.float16(w))       # both rounded
    assert float(m.group(7)) == float(np.float16(at * w))                   # the product alone
    assert float(m.group(6)) != float(m.group(7))
    assert abs(at * w - float(m.group(7))) <= 0.5 < abs(at * w - float(m.group(6)))


def test_the_ratio_needs_the_fields_stated():
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    m = stated(r"an explicit `attention_factor` (wins|is ignored); otherwise, when (both|either) "
               r"`mscale` (?:and|or) `mscale_all_dim` (?:are|is) set, the factor is")

    def factor(**fields):
        config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                             max_position_embeddings=65536, rope_theta=10000.0,
                             rope_scaling={"rope_type": "yarn", "factor": 16.0,
                                           "original_max_position_embeddings": 4096, **fields})
        return ROPE_INIT_FUNCTIONS["yarn"](config, "cpu")[1]
    default = 0.1 * math.log(16) + 1.0
    one_field = [factor(mscale=0.707), factor(mscale_all_dim=0.707)]
    both = factor(mscale=0.707, mscale_all_dim=1.0)
    ratio = (0.1 * 0.707 * math.log(16) + 1.0) / default
    assert all(abs(f - default) < 1e-12 for f in one_field) and abs(both - ratio) < 1e-12
    explicit = factor(mscale=0.707, mscale_all_dim=1.0, attention_factor=1.1)
    assert explicit == 1.1
    assert (m.group(1), m.group(2)) == ("wins", "both")


def test_the_sticky_cache_serves_the_frequencies_named():
    m = stated(r"after one long input, a shorter input is rotated with (the long input's|its own) "
               r"frequencies")
    sticky = slowest_ratio_after(4096, 3000)      # transformers keeps the table between the two
    assert sticky == slowest_ratio_after(4096) != slowest_ratio_after(3000)
    assert m.group(1) == "the long input's"


def test_each_decoding_step_past_both_lengths_does_what_is_stated_to_the_base():
    import torch
    m = stated(r"each decoding step past both the trained length and the longest input after the last "
               r"reset (changes|keeps) the base")
    rope, _ = dynamic_module()
    _ = rope(torch.zeros(1, 1, 128), torch.arange(2048)[None])          # a 2048-token prompt
    seen = [rope.inv_freq.clone()]
    for p in (2048, 2049, 2050):                                         # three decoding steps
        _ = rope(torch.zeros(1, 1, 128), torch.tensor([[p]]))
        seen.append(rope.inv_freq.clone())
    changed = [not torch.equal(a, b) for a, b in zip(seen, seen[1:])]
    assert changed == [True, True, True]
    assert m.group(1) == "changes"


def heads_axis_rotation(x, base=10000.0):
    """x: (sequence, heads, width); rotate each token's heads as if the head index were the
    position (the xFormers/OpenLM bug), pairs (2i, 2i+1)."""
    seq, heads, width = x.shape
    w = freq(width, base)
    z = x[..., 0::2] + 1j * x[..., 1::2]
    z = z * np.exp(1j * np.arange(heads)[None, :, None] * w[None, None, :])
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def test_along_the_head_axis_the_tokens_of_a_head_share_the_rotation_stated():
    m = stated(r"In a head, all tokens then get (the same rotation|different rotations), so the score "
               r"between two tokens (does not depend|depends) on where they are")
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6, 4, 16))
    out = heads_axis_rotation(x)
    h = 2
    angle = lambda t: np.angle((out[t, h, 0::2] + 1j * out[t, h, 1::2])
                               / (x[t, h, 0::2] + 1j * x[t, h, 1::2]))
    same = all(np.allclose(angle(t), angle(0)) for t in range(6))
    moved = max(abs(out[0, h] @ out[t, h] - x[0, h] @ x[t, h]) for t in range(6))
    assert same and moved < 1e-12
    assert (m.group(1), m.group(2)) == ("the same rotation", "does not depend")


def test_a_stale_key_changes_the_score_at_the_same_offset():
    m = stated(r"two key-query pairs at the same offset get (different|the same) scores depending on "
               r"which side of the switch the key was cached")
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 16))
    w, short, long_ = freq(16, 10000.0), np.ones(8), np.linspace(1.0, 8.0, 8)

    def turned(x, p, factors):
        return (x[0::2] + 1j * x[1::2]) * np.exp(1j * p * w / factors)

    def score(qp, kp, key_factors):
        return float(np.real(np.vdot(turned(k, kp, key_factors), turned(q, qp, long_))))
    consistent = score(5000, 4000, long_)      # key rotated after the switch
    stale = score(5000, 4000, short)           # same offset, key cached before it
    assert abs(stale - consistent) > 0.1
    assert m.group(1) == "different"


def test_the_power_of_two_rule_and_the_old_mlx_formula_are_the_ones_written():
    m = stated(r"For \\\(n\\\) heads the ALiBi slopes are \\\(2\^\{-(\d+)h/n\}\\\), \\\(h = 1, \\dots, "
               r"n\\\), when \\\(n\\\) is a power of two")
    for n in (1, 2, 4, 8, 16, 32, 64):
        written = 2.0 ** (-int(m.group(1)) * np.arange(1, n + 1) / n)
        assert np.allclose(written, bloom_slopes(n), rtol=1e-6), n
    old = stated(r"The old MLX layer used \\\(2\^\{-(\d+)h/n\}\\\) for any \\\(n\\\)")
    assert int(old.group(1)) == 8        # mlx#3071: x = (2**8) ** (1 / num_heads), x ** -h


def test_the_position_named_holds_bloom_s_slopes():
    import torch
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    m = stated(r"`build_alibi_tensor` returns slope times key position, so position (\d+) holds the "
               r"slopes")
    alibi = build_alibi_tensor(torch.ones(1, 3), 12, torch.float64)[:, 0, :].numpy()
    rule = np.concatenate([2.0 ** (-np.arange(1, 9)), 2.0 ** (-np.arange(1, 17, 2) / 2)[:4]])
    holds = [p for p in range(3) if np.allclose(alibi[:, p], rule, rtol=1e-6)]
    assert holds == [int(m.group(1))], holds


def test_the_score_is_scaled_in_the_direction_stated():
    m = stated(r"the RoPE part of each score \\\(1\.2773\^2 = (\d+\.\d+)\\\) times too (large|small)")
    default, asked = 0.1 * math.log(16) + 1.0, 1.0
    on_score = (default / asked) ** 2          # query and key each carry the factor
    assert float(m.group(1)) == round(on_score, 2)
    assert m.group(2) == ("large" if on_score > 1 else "small")


def test_the_model_whose_attention_adds_no_term_is_the_one_named():
    from transformers import DeepseekV3Config, Ministral3Config
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention
    from transformers.models.ministral3.modeling_ministral3 import Ministral3Attention
    m = stated(r"\"the checkpoint asked for 1\.0\" holds for (Ministral 3|DeepSeek-V3), whose attention "
               r"adds no such term")
    block = {"rope_type": "yarn", "factor": 16.0, "mscale": 1.0, "mscale_all_dim": 1.0,
             "original_max_position_embeddings": 4096, "rope_theta": 10000.0}
    ministral = Ministral3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2,
                                 head_dim=32, intermediate_size=64)
    deepseek = DeepseekV3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2,
                                q_lora_rank=None, kv_lora_rank=16, qk_rope_head_dim=8,
                                qk_nope_head_dim=8, v_head_dim=16, intermediate_size=64,
                                max_position_embeddings=65536, rope_parameters=block)
    extra = {"Ministral 3": Ministral3Attention(ministral, 0).scaling / 32 ** -0.5,
             "DeepSeek-V3": DeepseekV3Attention(deepseek, 0).scaling / 16 ** -0.5}
    assert abs(extra["Ministral 3"] - 1.0) < 1e-12
    assert abs(extra["DeepSeek-V3"] - (0.1 * math.log(16) + 1.0) ** 2) < 1e-9
    assert m.group(1) == "Ministral 3"


def test_exllamav3_and_transformers_give_the_factors_in_the_order_written():
    """ExLlamaV3 after its commit 65e724c (exllamav3/util/rope.py, read from the repository): no
    explicit attention_factor, an architecture that does not opt in, no llama_4_scaling_beta ->
    get_mscale(factor), with factor = max_position_embeddings / original_max_position_embeddings
    when the latter is given."""
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    m = stated(r"in a model other than DeepSeek-V3, it gives (\d\.\d+) where transformers gives "
               r"(\d\.\d+)")
    block = {"rope_type": "yarn", "factor": 16.0, "mscale": 1.0, "mscale_all_dim": 1.0,
             "original_max_position_embeddings": 4096}
    config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                         max_position_embeddings=65536, rope_theta=10000.0, rope_scaling=block)
    theirs = ROPE_INIT_FUNCTIONS["yarn"](config, "cpu")[1]
    exllamav3 = 0.1 * math.log(65536 / 4096) + 1.0
    assert (float(m.group(1)), float(m.group(2))) == (round(exllamav3, 4), round(theirs, 4))


def test_the_inputs_that_get_the_original_base_are_on_the_side_stated():
    m = stated(r"correct: the base follows the longest input after the last reset, and inputs "
               r"(shorter|longer) than the trained length get the original base")
    assert slowest_ratio_after(4096, 2047) == 1.0 == slowest_ratio_after(100)
    assert slowest_ratio_after(4096, 3000) != 1.0 and slowest_ratio_after(3000) != 1.0
    assert m.group(1) == "shorter"


def test_an_input_between_gets_the_base_named():
    m = stated(r"an input between the trained length and the longest input after the last reset "
               r"still gets (that input's|its own) base")
    between, longest = slowest_ratio_after(4096, 3000), slowest_ratio_after(4096)
    assert between == longest != slowest_ratio_after(3000)
    assert m.group(1) == "that input's"


def test_cached_keys_and_later_queries_use_the_factor_lists_named():
    import torch
    from transformers import Phi3Config
    from transformers.models.phi3 import modeling_phi3
    m = stated(r"Keys already in the cache were rotated with the (short|long) factors; queries after "
               r"the switch use the (short|long) ones")
    short, long_ = [1.0] * 8, [float(f) for f in range(1, 9)]
    config = Phi3Config(hidden_size=32, num_attention_heads=2, num_key_value_heads=2,
                        max_position_embeddings=131072, original_max_position_embeddings=4096,
                        rope_parameters={"rope_type": "longrope", "rope_theta": 10000.0,
                                         "short_factor": short, "long_factor": long_})
    rotary = modeling_phi3.Phi3RotaryEmbedding(config)

    def used(p):            # which list a call whose largest position is p uses
        cos, sin = rotary(torch.zeros(1, 1, 16), torch.tensor([[p]]))
        turn = (cos + 1j * sin)[0, 0, :8].numpy()
        hits = [name for name, f in (("short", short), ("long", long_))
                if np.allclose(turn / abs(turn), np.exp(1j * p * freq(16, 10000.0) / np.array(f)),
                               atol=1e-2)]
        return hits
    assert used(4000) == ["short"] and used(5000) == ["long"]     # before and after the switch
    assert (m.group(1), m.group(2)) == ("short", "long")


def test_the_low_error_belongs_to_the_angles_of_the_type_named():
    import torch
    m = stated(r"With (\w+) angles the largest cosine error over the same (\d+) positions is "
               r"(\d\.\d+)")
    dtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[m.group(1)]
    pos = np.arange(int(m.group(2)))
    w = freq(128, 10000.0)
    got = (torch.tensor(pos, dtype=dtype)[:, None] * torch.tensor(w, dtype=dtype)[None]).double()
    error = np.abs(np.cos(got.numpy()) - np.cos(np.multiply.outer(pos, w))).max()
    assert float(m.group(3)) == float(f"{error:.2g}")


def test_each_library_uses_the_width_named_for_partial_rotary():
    import torch
    from transformers import Gemma4TextConfig, GPTNeoXConfig
    from transformers.models.gemma4 import modeling_gemma4 as gemma4
    from transformers.models.gpt_neox import modeling_gpt_neox as neox
    m = stated(r"correct for GPT-NeoX, whose frequencies and pairs use the (rotary|head) width; "
               r"Gemma 4's `proportional` layers use the (head|rotary) width in both")

    def partner(apply, cos, sin, width):       # where coordinate 0 goes
        e0 = torch.zeros(1, 1, 1, width)
        e0[..., 0] = 1.0
        out = apply(e0, cos, sin)
        return [int(j) for j in torch.nonzero(out[0, 0, 0]).flatten()][1]
    config = GPTNeoXConfig(hidden_size=1024, num_attention_heads=4, rotary_pct=0.25)
    rope = neox.GPTNeoXRotaryEmbedding(config)          # head 256, rotary 64
    cos, sin = rope(torch.zeros(1, 1, 256), torch.tensor([[5000]]))
    neox_width = {"rotary": 64, "head": 256}
    neox_ok = (np.allclose(rope.inv_freq.double().numpy(), freq(64, 10000.0), rtol=1e-6)
               and partner(lambda e, c, s: neox.apply_rotary_pos_emb(e, e, c, s)[0], cos, sin,
                           256) == 32)
    gemma = Gemma4TextConfig()
    head = gemma.per_layer_config["full_attention"].head_dim
    rotary = gemma4.Gemma4TextRotaryEmbedding(gemma)
    g = rotary.full_attention_inv_freq.double().numpy()
    turning = int((g > 0).sum())
    gcos, gsin = rotary(torch.zeros(1, 1, head), torch.tensor([[5000]]), layer_type="full_attention")
    gemma_head = (np.allclose(g[:turning], 1e6 ** (-np.arange(0, 2 * turning, 2) / head), rtol=1e-6)
                  and partner(gemma4.apply_rotary_pos_emb, gcos, gsin, head) == head // 2)
    assert neox_ok and gemma_head and turning < head // 2
    assert (m.group(1), m.group(2)) == ("rotary", "head") and neox_width[m.group(1)] == 64


def test_the_replaced_factor_interpolated_as_far_as_stated():
    m = stated(r"on a model whose configuration says (\d+) over (\d+) got factor (\d+): the slow pairs "
               r"interpolated (twice|half) as far as asked")
    asked = stated(r"A user who asked for factor (\d+)").group(1)
    used = int(m.group(1)) / int(m.group(2))
    assert used == int(m.group(3))
    # the slowest pair is fully interpolated: its angle is divided by the factor in use
    ratio = (freq(128, 1e6)[-1] / int(asked)) / (freq(128, 1e6)[-1] / used)
    assert {"twice": 2.0, "half": 0.5}[m.group(4)] == ratio


def test_the_pair_fully_interpolated_by_yarn_is_the_one_named():
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    m = stated(r"The (slowest|fastest) pair is fully interpolated by YaRN, so its frequency is divided "
               r"by the factor in use")
    config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                         max_position_embeddings=131072, rope_theta=1000000.0,
                         rope_scaling={"rope_type": "yarn", "factor": 2.0,
                                       "original_max_position_embeddings": 32768})
    ratio = freq(128, 1e6) / ROPE_INIT_FUNCTIONS["yarn"](config, "cpu")[0].double().numpy()
    assert abs(ratio[-1] - 2.0) < 1e-5 and abs(ratio[0] - 1.0) < 1e-5
    assert m.group(1) == "slowest"


def test_a_length_keyed_cache_hands_out_the_step_named():
    m = stated(r"A cache keyed by the length hands each one-token step the rotation of the (first|last) "
               r"one-token step: the first decoding position, the prompt's length \((\d+) here\)")
    cache, offsets = {}, []
    for offset in (6, 7, 8, 300):                 # one-token steps after a 6-token prompt
        cache.setdefault(1, offset)               # keyed by the length only
        offsets.append(cache[1])
    assert offsets == [6, 6, 6, 6] and int(m.group(2)) == 6
    assert m.group(1) == "first"


def test_longrope_uses_each_list_on_the_side_stated():
    import torch
    from transformers import Phi3Config
    from transformers.models.phi3 import modeling_phi3
    m = stated(r"LongRoPE divides each frequency by a per-pair factor, `(short|long)_factor` while the "
               r"sequence fits the original length and `(short|long)_factor` beyond it")
    short, long_ = [1.0] * 8, [float(f) for f in range(1, 9)]
    config = Phi3Config(hidden_size=32, num_attention_heads=2, num_key_value_heads=2,
                        max_position_embeddings=131072, original_max_position_embeddings=4096,
                        rope_parameters={"rope_type": "longrope", "rope_theta": 10000.0,
                                         "short_factor": short, "long_factor": long_})
    rotary = modeling_phi3.Phi3RotaryEmbedding(config)
    inv = {}
    for p in (4095, 4096):                        # largest position 4095: fits 4096; 4096: beyond
        _ = rotary(torch.zeros(1, 1, 16), torch.tensor([[p]]))
        inv[p] = rotary.inv_freq.double().numpy()
    base = freq(16, 10000.0)
    assert np.allclose(inv[4095], base / np.array(short)) and np.allclose(inv[4096], base / np.array(long_))
    assert (m.group(1), m.group(2)) == ("short", "long")


def test_phi4_multimodal_drops_its_cache_as_stated():
    import torch
    import transformers as t
    m = stated(r"Phi-4-multimodal's `generate` (drops|keeps) the cache (?:but|and) feeds only the newest "
               r"token")
    tiny = dict(hidden_size=32, num_attention_heads=2, intermediate_size=32)
    switch = {"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1.0] * 8,
              "long_factor": [float(f) for f in range(1, 9)], "original_max_position_embeddings": 64}
    model = t.Phi4MultimodalForCausalLM(t.Phi4MultimodalConfig(**tiny, num_key_value_heads=2,
        num_hidden_layers=1, vocab_size=16, pad_token_id=0, max_position_embeddings=4096,
        original_max_position_embeddings=64, rope_parameters=switch,
        vision_config={**tiny, "num_hidden_layers": 1},
        audio_config={**tiny, "num_blocks": 1})).eval()
    out = model.generate(torch.arange(60)[None] % 15 + 1, max_new_tokens=8, min_new_tokens=8,
                         do_sample=False, return_dict_in_generate=True)
    kept = out.cache.get_seq_length()             # 67 if the cache were kept
    assert kept == 1
    assert m.group(1) == "drops"


def test_the_wrong_tables_are_right_where_stated():
    m = stated(r"a length-keyed cache is (right|wrong) at its first step; the sticky dynamic-NTK cache "
               r"is right until the first (long|short) input")
    cache = {}
    first = cache.setdefault(1, 6)                # first one-token step, at offset 6: right
    assert first == 6
    assert slowest_ratio_after(100) == 1.0 and slowest_ratio_after(4096, 100, 3000) != 1.0
    assert slowest_ratio_after(4096, 3000) != slowest_ratio_after(3000)   # wrong after a long one
    assert (m.group(1), m.group(2)) == ("right", "long")


def test_the_old_pipeline_errors_are_those_of_the_type_named():
    m = stated(r"In (b?float16) that pipeline's largest cosine error over the first (\d+) positions is "
               r"(\d\.\d+)")
    import torch
    dtype = {"float16": torch.float16, "bfloat16": torch.bfloat16}[m.group(1)]
    n = int(m.group(2))
    pos, w = np.arange(n), freq(128, 10000.0)
    got = (torch.tensor(pos, dtype=dtype)[:, None] * torch.tensor(w, dtype=dtype)[None]).double()
    error = np.abs(np.cos(got.numpy()) - np.cos(np.multiply.outer(pos, w))).max()
    assert float(m.group(3)) == round(float(error), 2)


def test_transformers_gpt_j_pairs_the_coordinates_named():
    import torch
    from transformers.models.gptj import modeling_gptj as gptj
    m = stated(r"\*\*In transformers 5\.24\.0:\*\* correct: GPT-J's rotation pairs (adjacent coordinates|"
               r"halves)")
    e0 = torch.zeros(1, 1, 1, 64)
    e0[..., 0] = 1.0
    sin, cos = torch.split(gptj.create_sinusoidal_positions(8, 64)[[5]], 32, dim=-1)
    partner = int(torch.nonzero(gptj.apply_rotary_pos_emb(e0, sin[None], cos[None]).flatten())[1])
    assert {"adjacent coordinates": 1, "halves": 32}[m.group(1)] == partner


def test_neox_rotates_the_coordinates_named():
    import torch
    from transformers import GPTNeoXConfig
    from transformers.models.gpt_neox import modeling_gpt_neox as neox
    m = stated(r"a partial-rotary model rotates the (first|last) `rotary_dim` coordinates of each head")
    rope = neox.GPTNeoXRotaryEmbedding(GPTNeoXConfig(hidden_size=1024, num_attention_heads=4,
                                                     rotary_pct=0.25))
    cos, sin = rope(torch.zeros(1, 1, 256), torch.tensor([[5000]]))
    x = torch.randn(1, 1, 1, 256, generator=torch.Generator().manual_seed(0))
    out, _ = neox.apply_rotary_pos_emb(x, x, cos, sin)
    moved = torch.nonzero(~torch.isclose(out, x).flatten()).flatten()
    assert int(moved.max()) < 64 and torch.equal(out[..., 64:], x[..., 64:])
    assert m.group(1) == "first"


def test_the_head_width_exponent_keeps_the_pairs_at_the_end_named():
    m = stated(r"With the head width in the exponent, the rotated pairs stop at the (fast|slow) end of "
               r"the spectrum")
    right = freq(64, 1e7)
    wrong = 1e7 ** (-2 * np.arange(32) / 256)
    assert wrong.min() > right.min() * 1e4 and wrong.max() == right.max() == 1.0
    assert m.group(1) == "fast"        # the slowest wrong pair is 1.2e5 times faster than it should be


def test_the_table_names_the_release_the_entry_names():
    row = [line for line in PAGE.read_text().splitlines() if "(#half-precision-angles)" in line][0]
    in_row = re.search(r"transformers#29285 \(v(\d+\.\d+\.\d+)\)", row).group(1)
    in_entry = stated(r"that it went into transformers (\d+\.\d+\.\d+)").group(1)
    # keras-team/keras-hub#1497, danielhanchen, 2024-03-09: "I added a fix into transformers
    # 4.38.2 here: ...#29285" (review-2026-12 p10a pass 10 read it)
    assert in_row == in_entry == "4.38.2"


def rotate_pairs(x, offsets, pairing, base=10000.0):
    d = x.shape[-1]
    w = freq(d, base)
    if pairing == "adjacent":
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., : d // 2], x[..., d // 2:]
    ang = np.multiply.outer(np.asarray(offsets, float), w)
    ra, rb = a * np.cos(ang) - b * np.sin(ang), a * np.sin(ang) + b * np.cos(ang)
    out = np.empty(ang.shape[:-1] + (d,))
    if pairing == "adjacent":
        out[..., 0::2], out[..., 1::2] = ra, rb
    else:
        out[..., : d // 2], out[..., d // 2:] = ra, rb
    return out


def test_other_pairs_move_in_the_direction_stated():
    m = stated(r"for one random pair of unit vectors they move by as much as (\d\.\d) over the first "
               r"(\d+) offsets, and for other pairs by (more|less)")
    n = int(m.group(2))

    def move(seed):
        q, k = np.random.default_rng(seed).normal(size=(2, 64))
        q, k = q / np.linalg.norm(q), k / np.linalg.norm(k)
        s = {p: rotate_pairs(k, range(n), p) @ rotate_pairs(q, [0], p)[0]
             for p in ("half", "adjacent")}
        return float(np.abs(s["half"] - s["adjacent"]).max())
    first = move(0)
    assert float(m.group(1)) == round(first, 1)
    others = [move(seed) for seed in range(1, 6)]
    assert (max(others) > first) == (m.group(3) == "more")
