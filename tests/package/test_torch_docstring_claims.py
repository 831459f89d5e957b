"""Docstring claims of posenc.torch_module's rotary, sinusoidal, alibi, learned and hf modules that
review rapi2 (issue 38, pass 1) found wrong: each test checks the behaviour the new text states
and fails on the old text (docs/data/findings.yml, source 'review-2026-12 rapi2 pass 1')."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from transformers import LlamaConfig, Phi3Config  # noqa: E402
from transformers.models.llama.modeling_llama import apply_rotary_pos_emb  # noqa: E402
from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding  # noqa: E402

from posenc.torch_module import alibi, hf, learned, rope_config, rotary, sinusoidal  # noqa: E402
from posenc.torch_module.hf import TransformersRotaryEmbedding  # noqa: E402
from posenc.torch_module.learned import LearnedPositionalEmbedding  # noqa: E402
from posenc.torch_module.rotary import RotaryEmbedding, apply_rotary  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODULES = (rotary, sinusoidal, alibi, learned, hf)


def flat(text: str | None) -> str:
    return " ".join((text or "").split())


def docstrings(module) -> str:
    """Every docstring of ``module`` (its own, classes, functions, methods, properties)."""
    found = [module.__doc__]
    for _, obj in inspect.getmembers(module):
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        found.append(obj.__doc__)
        if inspect.isclass(obj):
            found += [getattr(member, "__doc__", None) for member in vars(obj).values()]
    return flat(" ".join(d for d in found if d))


def test_f1_mixed_dtypes_in_transformers_follow_cos():
    q = torch.randn(1, 2, 3, 8)
    cos, sin = torch.randn(1, 3, 8), torch.randn(1, 3, 8)
    rq, rk = apply_rotary_pos_emb(q.bfloat16(), q, cos.bfloat16(), sin.bfloat16())
    assert (rq.dtype, rk.dtype) == (torch.bfloat16, torch.float32)      # not both float32
    rq, rk = apply_rotary_pos_emb(q.bfloat16(), q, cos, sin)
    assert rq.dtype == rk.dtype == torch.float32
    notes = flat(inspect.getdoc(TransformersRotaryEmbedding))
    assert "returns both in float32" not in notes
    assert "promotes each with ``cos``" in notes


def test_f2_the_attention_factor_is_applied_in_float64_before_the_one_rounding():
    config = LlamaConfig(hidden_size=256, num_attention_heads=2, max_position_embeddings=4096,
                         rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0,
                                          "factor": 4.0, "original_max_position_embeddings": 1024})
    module = TransformersRotaryEmbedding(config)
    positions = torch.arange(4096)[None]
    cos, _ = module(torch.zeros(1), positions)
    omega, factor = torch.tensor(module.rope.frequencies), module.rope.attention_factor
    exact = (positions[0, :, None].double() * omega).cos()
    half = cos[0, :, :omega.numel()]
    assert torch.equal(half, (exact * factor).float())                  # the docstring's order
    assert not torch.equal(half, exact.float() * torch.tensor(factor, dtype=torch.float32))
    doc = flat(TransformersRotaryEmbedding.forward.__doc__)
    assert "times the attention factor, rounded once to float32, then to ``x.dtype``" in doc
    assert "rounded to float32, times the attention factor" not in doc


def test_f3_apply_rotary_pos_emb_casts_nothing_the_rotary_modules_do():
    q = torch.randn(1, 1, 3, 8, dtype=torch.bfloat16)
    cos, sin = torch.randn(1, 3, 8), torch.randn(1, 3, 8)
    assert apply_rotary_pos_emb(q, q, cos, sin)[0].dtype == torch.float32     # no cast there
    assert apply_rotary(q, cos[0, :, :4], sin[0, :, :4]).dtype == torch.bfloat16
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    assert "cos.to(dtype=x.dtype)" in inspect.getsource(LlamaRotaryEmbedding.forward)
    doc = flat(apply_rotary.__doc__)
    assert "as ``transformers``' ``apply_rotary_pos_emb`` does" not in doc
    assert "as transformers' rotary modules cast theirs" in doc


def test_f4_f5_pointers_name_files_and_chapter_titles_that_hold():
    for module in MODULES:
        text = docstrings(module)
        for path in re.findall(r"checked (?:against [^(]*)?in ``(tests/[\w/]+\.py)``", text):
            assert (ROOT / path).exists(), (module.__name__, path)
        for title, path in re.findall(r'the chapter "([^"]+)" \((docs/chapters/[\w.-]+\.md)\)',
                                      text):
            first = (ROOT / path).read_text().splitlines()[0]
            assert first == f"# {title}", (module.__name__, title, first)
    keys = flat(re.search(r'ROPE_KEYS = \{.*?\n"""(.*?)"""', inspect.getsource(rope_config),
                          re.S).group(1))                              # ROPE_KEYS' docstring
    named = re.search(r"checked in ``(tests/[\w/]+\.py)``", keys).group(1)
    assert "ROPE_KEYS" in (ROOT / named).read_text()


def test_f6_base_is_checked_and_kept_when_frequencies_are_given():
    with pytest.raises(ValueError, match="base must be"):
        RotaryEmbedding(4, base=0.5, frequencies=[1.0, 0.1])
    assert RotaryEmbedding(4, base=500000.0, frequencies=[1.0, 0.1]).base == 500000.0
    doc = flat(RotaryEmbedding.__doc__)
    assert "ignored when ``frequencies`` is given" not in doc
    assert "with ``frequencies`` given, only checked and kept as ``.base``" in doc


def test_f7_the_first_cache_is_max_len_rounded_up_to_64():
    for max_len, positions in ((100, 128), (1000, 1024), (2048, 2048)):
        rope = RotaryEmbedding(8, max_len=max_len)
        rope(torch.zeros(1, 1, 1, 8), torch.zeros(1, 1, 1, 8))
        assert rope.cache_nbytes == positions * 4 * 8, max_len
    doc = flat(RotaryEmbedding.__doc__)
    assert "``max_len`` and the first call's largest position + 1, rounded up to a multiple " \
           "of 64" in doc                                   # reworded by rapi4 (R1)


def test_f8_learned_takes_max_len_first_and_the_docstring_says_so():
    learned_args = list(inspect.signature(LearnedPositionalEmbedding).parameters)[:2]
    sinusoidal_args = list(inspect.signature(sinusoidal.SinusoidalPositionalEncoding)
                           .parameters)[:2]
    assert learned_args == ["max_len", "d_model"] and sinusoidal_args == ["d_model", "max_len"]
    doc = flat(learned.__doc__)
    assert "with the interface of" not in doc and "built with ``max_len`` first" in doc


def test_f9_a_learned_table_takes_any_positive_width():
    module = LearnedPositionalEmbedding(10, 7)
    assert module(torch.zeros(1, 3, 7)).shape == (1, 3, 7)
    with pytest.raises(ValueError, match="d_model must be a positive integer"):
        LearnedPositionalEmbedding(10, 0)
    doc = flat(LearnedPositionalEmbedding.__doc__)
    assert "even" not in doc and "any positive integer" in doc


def test_f10_an_odd_partial_rotary_width_is_refused_naming_the_factor():
    config = Phi3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2,
                        max_position_embeddings=64, partial_rotary_factor=0.3, pad_token_id=0)
    cos, _ = Phi3RotaryEmbedding(config)(torch.zeros(1), torch.arange(3)[None])
    assert int(32 * 0.3) == 9 and cos.shape[-1] == 10          # transformers rotates 9 + 1
    with pytest.raises(ValueError, match=r"partial_rotary_factor=0\.3 .* 9 .* rotates 10"):
        TransformersRotaryEmbedding(config)
    even = RotaryEmbedding.from_rope_parameters(
        {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25}, 80)
    assert even.rotary_dim == 20
    doc = flat(RotaryEmbedding.from_rope_parameters.__doc__)
    assert "a ``partial_rotary_factor`` giving an odd width" in doc


def test_f11_a_bad_frequencies_value_is_shown_in_the_error():
    rope = RotaryEmbedding(4)
    with pytest.raises(ValueError, match="got 'ab'"):
        rope.frequencies = "ab"


# Review rapi4 (issue 38, pass 2): docs/data/findings.yml, source 'review-2026-12 rapi4 pass 2'.

def test_r1_the_first_cache_is_the_larger_of_max_len_and_the_first_call_rounded_up():
    """rapi4 R1: the cache's first length is not max_len when the first call needs more (the
    clear_cache example builds 131072 positions at max_len 2048)."""
    q = torch.zeros(1, 1, 1, 8)
    for max_len, offset, positions in ((100, 0, 128), (2048, 5000, 5056), (2048, 100, 2048)):
        rope = RotaryEmbedding(8, max_len=max_len)
        rope(q, q, offset=offset)
        assert rope.cache_nbytes == positions * 4 * 8, (max_len, offset)
        rope.clear_cache()
        rope(q, q, offset=9000)                       # built again: as at first, not max_len
        assert rope.cache_nbytes == 9024 * 4 * 8
    notes = flat(RotaryEmbedding.__doc__)
    assert "``L`` is first the larger of ``max_len`` and the first call's largest position + 1, "\
           "rounded up to a multiple of 64" in notes
    for old in ("Positions the cos/sin cache holds when first built",
                "when first built; a later position", "on the next call, at ``max_len``",
                "(its cache's first length)"):
        assert old not in " ".join(map(flat, (notes, RotaryEmbedding.clear_cache.__doc__,
                                              TransformersRotaryEmbedding.__doc__))), old


def test_r2_zero_zero_zero_one_is_a_two_token_prompt_left_padded_to_4():
    """rapi4 R2: transformers' generate numbers a one-token prompt in 4 slots 0, 0, 0, 0."""
    from transformers.generation.utils import GenerationMixin
    from posenc.torch_module import checks
    number = GenerationMixin._prepare_position_ids_for_generation
    ids = torch.zeros(1, 4, dtype=torch.long)
    one = number(None, ids, {"attention_mask": torch.tensor([[0, 0, 0, 1]])})
    two = number(None, ids, {"attention_mask": torch.tensor([[0, 0, 1, 1]])})
    assert one.tolist() == [[0, 0, 0, 0]] and two.tolist() == [[0, 0, 0, 1]]
    for doc in (rotary.check_position_ids.__doc__, checks.looks_like_attention_mask.__doc__):
        assert "one-token prompt" not in flat(doc) and "two-token prompt" in flat(doc)


def test_r3_a_partial_rotary_width_of_zero_is_refused_naming_the_factor():
    """rapi4 R3: int(64 * 0.01) = 0 was refused naming d_model, an argument never passed."""
    config = Phi3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2,
                        max_position_embeddings=64, partial_rotary_factor=0.01, pad_token_id=0)
    cos, _ = Phi3RotaryEmbedding(config)(torch.zeros(1), torch.arange(3)[None])
    assert cos.shape[-1] == 0                                    # transformers rotates nothing
    with pytest.raises(ValueError, match=r"partial_rotary_factor=0\.01 .* = 0 rotated"):
        TransformersRotaryEmbedding(config)
    assert "or none (transformers rotates nothing)" in \
        flat(RotaryEmbedding.from_rope_parameters.__doc__)


@pytest.mark.parametrize("value", [object(), {"a": 1.0}, None])
def test_r4_any_bad_frequencies_value_names_frequencies(value):
    """rapi4 R4: an object or a dict raised NumPy's TypeError naming nothing; None showed
    array([nan])."""
    with pytest.raises(ValueError, match=r"frequencies must be .* got " + re.escape(repr(value))):
        RotaryEmbedding(4).frequencies = value
