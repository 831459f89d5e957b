"""Chapter 15's statements about papers and libraries that no block on the page can compute
(review r15, 2026-12; docs/data/findings.yml). Each test pins a sentence of the page to its
source: the installed ``transformers`` where it can be run, the quoted abstract or code where
it cannot. Each failed on the page's text before the review's fix."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "chapters" / "15-what-came-next.md"


def text() -> str:
    return " ".join(PAGE.read_text().split())


def section(title: str) -> str:
    """The prose of one section, from its heading to the next heading."""
    raw = PAGE.read_text()
    start = raw.index(title)
    end = raw.find("\n#", start + len(title))
    return " ".join(raw[start:end if end > 0 else None].split())


def test_xpos_results_are_credited_to_xpos_with_blockwise_causal_attention():
    # Sun et al. (2022), abstract: "we use blockwise causal attention during inference for
    # better resolution ... our model achieves strong performance in both interpolation and
    # extrapolation settings" (ch15-2): the quoted result is not the decay's alone.
    xpos = section("### xPos")
    assert "strong performance in both interpolation and extrapolation settings" in xpos
    assert "blockwise causal attention at inference" in xpos
    assert "not for the decay alone" in xpos


def test_dynamic_ntk_is_credited_in_the_words_of_transformers():
    # ch15-7: the page said "posted by bloc97 and emozilla"; the post is emozilla's, and
    # transformers' docstring credits both.
    rope_utils = pytest.importorskip("transformers.modeling_rope_utils")
    doc = rope_utils.ROPE_INIT_FUNCTIONS["dynamic"].__doc__
    assert "/u/bloc97 and /u/emozilla" in doc
    assert "credited to bloc97 and emozilla in `transformers`" in text()
    assert "posted by bloc97 and emozilla" not in text()
    assert "emozilla and bloc97, Reddit" not in text()


def test_transformers_ignores_mscale_without_mscale_all_dim():
    # "`transformers` ignores `mscale` when `mscale_all_dim` is missing" (YaRN section)
    transformers = pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    rope = dict(rope_type="yarn", factor=40.0, original_max_position_embeddings=4096,
                rope_theta=10000.0, mscale=0.5)
    cfg = transformers.LlamaConfig(hidden_size=128, num_attention_heads=2, head_dim=64,
                                   num_hidden_layers=1, vocab_size=32, intermediate_size=32,
                                   max_position_embeddings=163840, rope_parameters=rope)
    _, factor = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    assert math.isclose(factor, 0.1 * math.log(40.0) + 1.0, rel_tol=1e-15)   # mscale unused
    assert "ignores `mscale` when `mscale_all_dim` is missing" in text()


def test_the_larger_base_entry_is_dated_by_its_first_model():
    # ch15-8: Code Llama (arXiv:2308.12950, 2023) used rope_theta 1000000 before Llama 3 (2024)
    entry = [line for line in PAGE.read_text().splitlines() if "RoPE with a larger base" in line]
    assert len(entry) == 1 and entry[0].startswith("- **2023, ")
    assert "Code Llama" in entry[0] and "2308.12950" in entry[0]


def test_the_summary_lists_only_rope_scaling_under_rope_scaling():
    # ch15-11: xPos and NoPE do not change RoPE's frequencies, and NoPE is not a RoPE model.
    bullet = section("## Summary").split("- RoPE models are stretched")[1].split(". Beside RoPE")[0]
    assert "xPos" not in bullet and "NoPE" not in bullet


def test_yarn_abstract_claims_only_what_the_cited_version_says():
    # The v3 abstract (the ICLR version the timeline cites) does not mention the Llama 2
    # 64k/128k checkpoints; only v1's did.
    yarn = section("### YaRN: interpolate by parts")
    assert "checkpoints" not in yarn


def test_nope_construction_names_its_start_token():
    # Kazemnejad et al. (2023), Theorem 1: the construction counts from a start (<bos>) token;
    # the lab of chapter 10b runs without one.
    assert "with a start token first" in section("### NoPE")


def test_the_lab_result_carries_its_task_ratio_and_start_symbol():
    # ch15-1 / ch10b-2: the lab measured the drop (not its cause) on one task, at twice the
    # training length, without a start symbol; a quoted "RoPE held" must say so.
    from posenc.lab.experiments import EXPERIMENTS
    config = EXPERIMENTS["past"].configs["rope"]
    assert config.task == "kback" and config.test_lengths[-1] == 2 * config.train_lengths[0]
    why = section("## Why an absolute encoding")
    assert "That argument can be measured" not in why
    assert "the argument is not tested here" in why
    assert "with no start symbol" in why and '"output the symbol 3 back"' in why
    assert "That is one task, 2x to 8x" in why
    start = EXPERIMENTS["start"].configs["rope"]
    assert start.test_lengths[-1] == 8 * start.train_lengths[0]


def test_the_rope_type_sentence_is_scoped_to_the_table():
    # review-2026-12 p2e pass 2: "each `rope_type` has a function here" claimed every type of
    # the installed transformers; 5.24.0's ROPE_INIT_FUNCTIONS also has "proportional"
    # (Gemma 4), which posenc.scaling does not implement and the table does not list.
    import re
    rope_utils = pytest.importorskip("transformers.modeling_rope_utils")
    which = section("### Which of these does the model you use run?")
    listed = {"default"} | set(re.findall(r'\| `"([a-z0-9]+)"`', which))
    missing = set(rope_utils.ROPE_INIT_FUNCTIONS) - listed
    assert missing == {"proportional"}, missing
    assert "each `rope_type` has a function here" not in which
    assert "each `rope_type` below has a function here" in which


def test_the_ramp_gap_sentence_names_the_base_that_moves_it():
    # review-2026-12 p2e pass 2: "a larger base moves it to other pairs" rested on base 500000;
    # every base from 10000 to 11200 (steps of 100) keeps the largest gap on pair 34.
    scaling = pytest.importorskip("posenc.scaling")
    import numpy as np

    def argmax_gap(base):
        code = scaling.yarn_frequencies(128, 4.0, 4096, base)
        paper = scaling.yarn_frequencies(128, 4.0, 4096, base, ramp="paper")
        return int(np.argmax((code - paper) / code))

    assert all(argmax_gap(b) == 34 for b in np.arange(10000.0, 11201.0, 100.0))
    assert argmax_gap(500000.0) == 24
    assert "a larger base moves it to other pairs" not in text()
    assert "base 500000 moves it to pair 24" in text()


def test_exercise_1_states_the_order_rotate_gives():
    # review-2026-12 p2e pass 2: (1, 0) rotated by a is (cos a, sin a), in that order
    import numpy as np
    from posenc.relative import rotate
    assert np.allclose(rotate([[1.0, 0.0]], [1]), [[np.cos(1.0), np.sin(1.0)]])
    assert "up to the order of the two entries" not in text()


def test_the_which_scaling_list_is_not_pointed_to_chapter_12():
    # review-2026-12 p3h pass 3: "(the table in chapter 12 lists the measured differences)" sent
    # the reader to a list that drops every RoPE frequency row (all four conventions "-") and
    # points back to chapter 15's own list below the table.
    import json
    import re
    rows = json.loads((PAGE.parents[1] / "data" / "conformance.json").read_text())["rows"]
    ch12 = (PAGE.parent / "12-variants.md").read_text()
    block = ch12.split("{#real-models}")[1].split("```python exec")[1].split("```")[0]
    shown = []
    for row in rows:                     # chapter 12's own filter, run on the record
        conventions = [row[k] for k in ("spacing", "layout", "padding", "pairing")]
        if not (all(c == "-" for c in conventions) and row["key"] != "alibi"):
            shown.append(row["key"])
    assert "continue                       # RoPE frequencies: chapter 15's list" in block
    which = section("### Which of these does the model you use run?")
    types = set(re.findall(r'\| `"([a-z0-9]+)"`', which))
    assert types and not any(key.startswith(tuple(types) + ("default",)) for key in shown)
    assert "12-variants.md#real-models" not in which.split("| `rope_type`")[0]


def test_the_ramp_gap_comment_says_what_its_assert_shows():
    # review-2026-12 p3h pass 3: `assert gap.max() > 0  # the paper's below the code's` read as
    # "on every pair"; at factor 4 the paper's frequency is 2.3% above the code's on pair 21.
    scaling = pytest.importorskip("posenc.scaling")
    import numpy as np
    code = scaling.yarn_frequencies(128, 4.0, 4096)
    paper = scaling.yarn_frequencies(128, 4.0, 4096, ramp="paper")
    gap = (code - paper) / code
    assert gap.max() > 0.4 and gap.min() < -0.02 and int(np.argmin(gap)) == 21
    assert "# the paper's below the code's" not in PAGE.read_text()
    assert "# largest gap: the paper's below" in PAGE.read_text()


def test_the_summary_says_what_the_cited_llama_3_code_shows():
    # review-2026-12 p3h pass 3: the Summary said "Llama 3 trained with the base 500000"; the
    # page's source is Meta's reference inference code (meta-llama/llama3 llama/model.py,
    # ModelArgs.rope_theta = 500000 passed to precompute_freqs_cis), which shows the base the
    # model runs with, not its training.
    bases = section("### RoPE bases beyond 10000")
    assert "meta-llama/llama3" in bases and "precompute_freqs_cis" in bases
    summary = section("## Summary")
    assert "Llama 3 trained with the base" not in summary
    assert "Llama 3 uses the base `500000`" in summary


def test_each_only_of_the_rotation_paragraph_fails_when_flipped():
    # review-2026-12 p3h pass 3: the fold after "Rotating both vectors ..." was also next to the
    # "For implementers" paragraph, so its two checks stating "only" counted for neither alone and
    # flipping either sentence's "only" to "also" passed every rule; the marker after the fold
    # (RoPE through random W_Q, W_K) now separates them.
    import sys
    sys.path.insert(0, str(PAGE.parents[2]))
    from harness import rules
    from harness.page import parse
    rel = str(PAGE.relative_to(PAGE.parents[2]))
    raw = PAGE.read_text()
    base = set(rules.failures(parse(raw, rel)))
    for old in ("the score depends only on", "depended only on"):
        assert raw.count(old) == 1, old
        flipped = raw.replace(old, old.replace("only", "also"))
        assert set(rules.failures(parse(flipped, rel))) - base, old


def test_yarn_thresholds_and_temperature_are_stated_as_the_papers_values_for_llama():
    # review-2026-12 p4j pass 4: the page gave beta = 32, alpha = 1 and sqrt(1/t) = 0.1 ln s + 1
    # as YaRN's rule. Peng et al. (2023), section 3.2: "The values of alpha and beta should be
    # tuned on a case-by-case basis. For example, we have found experimentally that for the Llama
    # family of models, good values ... are alpha = 1 and beta = 32"; section 3.4: "For LLaMA and
    # Llama 2 models, we recommend the following values: sqrt(1/t) = 0.1 ln(s) + 1", fitted on
    # LLaMA 7b-65b without fine-tuning.
    raw = section("### YaRN: interpolate by parts")
    assert r"more than \(\beta = 32\) turns" not in raw
    assert r"\(1/t\) with \(\sqrt{1/t}" not in raw
    assert r"For Llama models they recommend \(\beta = 32\), \(\alpha = 1\)" in raw


def test_unseen_angles_are_scoped_to_positions_before_the_wavelength():
    # review-2026-12 p4j pass 4: "never completes a turn during training, so at later positions
    # it takes angles ... that the weights never saw" is false past a pair's wavelength, where
    # its angle wraps back into the trained range: at position 10000 (the page's own example),
    # 26 of the 133 slow pairs of d_model = 512 sit at angles some training position had.
    import numpy as np
    omega = 10000.0 ** (-np.arange(0, 512, 2) / 512)
    wavelength = 2 * np.pi / omega
    slow = wavelength > 512
    seen = (10000 * omega) % (2 * np.pi) <= 511 * omega
    assert int(slow.sum()) == 133 and int((seen & slow).sum()) == 26
    # from position 512 up to its wavelength, each slow pair's angle is one training never had
    for w, lam in zip(omega[slow], wavelength[slow]):
        m = np.arange(512, int(np.ceil(lam)))
        assert np.all((m * w > 511 * w) & (m * w < 2 * np.pi))
    why = section("## Why an absolute encoding")
    assert "so at later positions it takes angles" not in why
    assert "so from position 512 to its wavelength it takes angles" in why
