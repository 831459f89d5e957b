"""Review-2026-12 r13d pass 9 (chapter 10b, lab reviewer).

F1. "What the lab does not settle" listed the settings varied on "3 back" for some schemes alone
and ended "a start symbol for all but the learned table". Five more schemes ran "3 back" (the
raw index with alternating signs in offset.json and same.json, the index on every entry in
same.json, the concatenated sinusoid in concat.json) and none of them with a start symbol; the
symbol was added for four schemes only. The test computes both sets from the configs.

F2. "Does the model apply one map": the sinusoid model's mean weight on the key 3 back at the
unseen positions fell below 0.5 in every seed, and "So the trained model did not learn one map"
needs that fall to remain with every key 24 or more back hidden (the offsets no training input
has). That control was run in seed 0 only (tests/package/test_lab_review_p9d.py). Re-trained here for
seeds 1 to 4 (torch 2.13.0, AVX2 kernels, one thread, about a minute each) and evaluated with
that window, the mean weight at positions 24 to 47 was 0.164, 0.158, 0.077 and 0.150, the
accuracy 0.161, 0.140, 0.079 and 0.139 (seed 0, p9d: 0.269 and 0.254). The slow test repeats
those four runs."""

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CH10B = ROOT / "docs" / "chapters" / "10b-what-does-a-trained-model-do.md"

torch = pytest.importorskip("torch")


def _prose(title: str) -> str:
    text = CH10B.read_text()
    start = text.index(f"## {title}")
    end = text.index("\n## ", start + 1)
    body = re.sub(r"```.*?```", "", text[start:end], flags=re.S)
    body = re.sub(r"\?\?\? note.*?(?=\n\S)", "", body, flags=re.S)
    return " ".join(re.sub(r"<!--.*?-->", "", body, flags=re.S).split())


NAMES = {"sinusoid": "the sinusoid", "rope": "RoPE", "alibi": "ALiBi", "none": "NoPE"}


def test_the_start_symbol_list_names_the_schemes_that_had_one_on_3_back():
    from posenc.lab.experiments import EXPERIMENTS
    three_back = [c for e in EXPERIMENTS.values() for c in e.configs.values()
                  if c.task == "kback" and c.k == 3]
    schemes = {c.scheme for c in three_back}
    with_bos = {c.scheme for c in three_back if getattr(c, "bos", False)}
    assert with_bos == set(NAMES)
    # "all but the learned table" would need these to have had it too
    assert schemes - with_bos - {"learned"} == {"index", "index-same", "sinusoid-concat"}
    text = _prose("What the lab does not settle")
    listed = re.search(r"a start symbol for ([^;]*?), and the budget", text).group(1)
    named = {s for s, name in NAMES.items() if name in listed}
    assert named == with_bos and "all but" not in listed, listed


def test_the_one_map_sentence_rests_on_every_seed_with_the_far_keys_hidden():
    text = _prose("Does the model apply one map")
    assert "below 0.5 in every seed, also with those keys hidden" in text
    assert "in seed 0 also with those keys hidden" not in text
    shift = json.loads((ROOT / "docs" / "data" / "lab" / "shift.json").read_text())
    assert shift["seeds"] == [0, 1, 2, 3, 4]


@pytest.mark.skipif(os.environ.get("POSENC_TEST_SLOW") != "1",
                    reason="re-trains four lab models (about four minutes); POSENC_TEST_SLOW=1")
def test_the_sinusoid_loses_the_key_3_back_with_the_far_keys_hidden_in_seeds_1_to_4(monkeypatch):
    import test_lab_review_p9d as p9d
    from posenc.lab import model as M
    from posenc.lab.experiments import EXPERIMENTS
    from posenc.lab.run import evaluate, train

    torch.set_num_threads(1)
    attention = next(c for c in vars(M).values() if isinstance(c, type)
                     and (c.__doc__ or "").startswith("Multi-head self-attention"))
    for seed in (1, 2, 3, 4):               # seed 0: tests/package/test_lab_review_p9d.py
        config = replace(EXPERIMENTS["past"].configs["sinusoid"], seed=seed, test_lengths=(48,))
        model, _ = train(config)
        with monkeypatch.context() as patch:
            patch.setattr(attention, "forward", p9d._windowed(M))
            hidden = evaluate(model, config, 48)
        back = sum(hidden["attention_k_back"][24:]) / 24
        accuracy = sum(hidden["per_position"][24:]) / 24
        assert back < 0.5 and accuracy < 1 / 3, (seed, back, accuracy)


# Flips that left the page and every test reading it passing (session-12 rule), bound here:
# each test recomputes the fact and requires the sentence's own word.

def _record(name: str) -> dict:
    return json.loads((ROOT / "docs" / "data" / "lab" / f"{name}.json").read_text())


def test_neither_loss_had_flattened_by_step_2000():
    runs = _record("budget")["runs"]
    slopes = [[v for _, v in m["curve"]] for s in ("alibi", "none") for m in runs[s]]
    assert all(c[-1] - sum(c[-6:-1]) / 5 < 0 for c in slopes)       # still falling, each run
    text = _prose("A longer budget, wider heads: ALiBi and the model without positions")
    assert "Neither training loss had flattened by step 2000" in text


def test_with_the_paper_init_the_encoding_stays_a_visible_part_of_the_sum():
    import math
    from posenc.lab.run import Config, build
    def encoding_share(**kw):                   # the encoding's share of the input's mean square
        model = build(Config(**kw))
        token_ms = (model.token.weight * model.scale).pow(2).mean().item()
        return 0.5 / (0.5 + token_ms)           # a sinusoid entry's mean square is exactly 1/2
    paper, swamped = encoding_share(init="t2t", scale_embedding=True), encoding_share(scale_embedding=True)
    assert paper > 0.25 and swamped < 0.02 and math.isclose(paper, 1 / 3, abs_tol=0.05)
    text = _prose("With the paper's token scale")
    assert "the encoding stays a visible part of the sum" in text


def test_at_position_1_the_one_earlier_symbol_is_the_answer():
    from fractions import Fraction
    from posenc.lab.baseline import kback
    assert kback(1, vocab=16, k=1) == Fraction(1)   # one earlier symbol: the order-blind guess is it
    assert kback(2, vocab=16, k=1) < 1
    text = _prose("Raw index, index over length, and the sinusoid")
    assert "(at position 1 the one earlier symbol is the answer)" in text


def test_rope_kept_the_task_at_2x_with_or_without_the_start_symbol():
    runs = _record("start")["runs"]
    def past_2x(label):
        return [sum(m["test"]["48"]["per_position"][24:]) / 24 for m in runs[label]]
    assert min(past_2x("rope")) >= 0.971 and min(past_2x("rope + start symbol")) >= 0.971
    text = _prose("A start symbol, and 4x and 8x the training length")
    assert "RoPE kept the task at 2x with or without it, at least 0.971" in text


def test_their_alibi_improved_with_longer_inputs():
    """A sourced sentence: Press et al. (2022), section 4.1, WikiText-103 models trained on L = 512:
    ALiBi "obtain[s] improved perplexity scores when handling more tokens", 19.73 at 512 tokens and
    18.40 at 3,072 (as quoted in reviews/2026-12/rlm.md); the page's own runs stayed flat."""
    press_alibi_ppl = {512: 19.73, 3072: 18.40}
    assert press_alibi_ppl[3072] < press_alibi_ppl[512]             # improved
    text = _prose("A language model on real text")
    assert "Their ALiBi improved with longer inputs" in text


def test_runs_without_the_symbol_repeat_past_the_training_length_but_one():
    start, past = _record("start")["runs"], _record("past")["runs"]
    same = {(s, i): a["test"]["48"] == b["test"]["48"] and a["curve"] == b["curve"]
            for s in ("none", "alibi", "sinusoid", "rope")
            for i, (a, b) in enumerate(zip(start[s], past[s]))}
    assert [k for k, v in same.items() if not v] == [("sinusoid", 0)]          # but one
    assert not any(a["test"]["48"] == b["test"]["48"]                          # with it: none
                   for s in ("none", "alibi", "sinusoid", "rope")
                   for a, b in zip(start[s + " + start symbol"], past[s]))
    text = _prose("A start symbol, and 4x and 8x the training length")
    assert 'Runs without the symbol repeat those of "Past the training length" but one' in text


def test_the_language_models_learned_table_has_no_rows_past_64():
    from posenc.lab import lm
    config = lm.CONFIGS["learned"]
    model = lm.build(config)
    assert model.pos_table.num_embeddings == config.length == 64
    with pytest.raises(ValueError):
        model(torch.zeros(1, 65, dtype=torch.long))
    assert config.eval_lengths == (64,)
    text = _prose("A language model on real text")
    assert "The learned table has no rows past 64; it is tested at 64 bytes." in text


def test_two_head_alibi_slopes_are_the_gentle_ones():
    from posenc.relative import alibi_slopes
    assert [1 / s for s in alibi_slopes(2)] == [16.0, 256.0]
    assert max(alibi_slopes(2)) < max(alibi_slopes(4)) == 1 / 4      # 4 heads add the steeper 1/4
    text = _prose("A start symbol, and 4x and 8x the training length")
    assert "(ALiBi's gentle slopes)" in text


def test_the_no_position_model_at_1_back_was_under_the_causal_mask():
    from posenc.lab.experiments import EXPERIMENTS
    c = EXPERIMENTS["offset"].configs["none, k = 1"]
    assert c.causal and c.scheme == "none" and c.k == 1
    text = _prose("Raw index, index over length, and the sinusoid")
    assert "under the causal mask they still scored at least 0.80" in text


def test_the_scaled_models_loss_was_still_falling_at_step_400():
    runs = _record("scale")["runs"]["sinusoid, tokens x sqrt(d_model)"]
    curves = [[v for _, v in m["curve"]] for m in runs]
    assert all(c[-1] < c[-2] and c[-1] - sum(c[-6:-1]) / 5 < 0 for c in curves)
    assert all(m["curve"][-1][0] == 400 for m in runs)
    text = _prose("With the paper's token scale")
    assert "its training loss was still falling at step 400 in each seed" in text


def test_the_summary_gives_rope_s_figures_their_seeds():
    """F3: "RoPE kept at least 0.971" is the minimum of seeds 0-4 (past.json); re-trained at a seed
    never recorded (5; torch 2.13.0, AVX2, one thread) RoPE kept 0.9689 at 2x, seeds 6 and 7 0.9937
    and 0.9990. The Answer scopes it ("seeds 0 to 4"); the Summary stated it bare."""
    past, start = _record("past"), _record("start")
    assert past["seeds"] == [0, 1, 2, 3, 4] and start["seeds"] == [0, 1, 2]
    rope = [sum(m["test"]["48"]["per_position"][24:]) / 24 for m in past["runs"]["rope"]]
    assert min(rope) >= 0.971 and 0.9689 < 0.971                    # the fresh seed 5 would not
    text = _prose("Summary")
    assert "pre-norm RoPE kept at least 0.971 (five seeds; at 8x, three: 0.442 to 0.809)" in text
