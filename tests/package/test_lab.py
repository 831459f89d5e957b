"""The lab (posenc.lab): bad input, determinism, RoPE and ALiBi as posenc defines them, the
recorded experiments (not stale, verdicts recomputed from the runs), and a smoke test that
re-trains the cheapest experiment and checks its verdicts."""

import numpy as np
import pytest
import torch

from posenc.lab import experiments as E
from posenc.lab import tasks
from posenc.lab.model import SCHEMES, TinyTransformer, _rope
from posenc.lab.run import Config, build, run
from posenc.relative import alibi_slopes, rotate


# ----------------------------------------------------------------- bad input names the argument

@pytest.mark.parametrize("kwargs, name", [
    ({"scheme": "sine"}, "scheme"), ({"task": "sort"}, "task"), ({"d_model": 0}, "d_model"),
    ({"n_heads": -1}, "n_heads"), ({"steps": 0}, "steps"), ({"batch": 0}, "batch"),
    ({"vocab": 0}, "vocab"), ({"train_lengths": (0,)}, "train_lengths"),
    ({"test_lengths": ()}, "test_lengths"), ({"lr": -1.0}, "lr"), ({"k": True}, "k"),
    ({"scheme": "learned", "max_len": 30}, "max_len"), ({"norm": "mid"}, "norm"),
    ({"init": "xavier"}, "init"), ({"eval_at": (600,)}, "eval_at"), ({"eval_at": [5]}, "eval_at"),
])
def test_bad_config_names_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Config(**kwargs)


def test_learned_table_refuses_a_longer_input():
    model = TinyTransformer(8, 8, "learned", d_model=16, max_len=10)
    model(torch.zeros(1, 10, dtype=torch.long))
    with pytest.raises(ValueError, match="max_len"):
        model(torch.zeros(1, 11, dtype=torch.long))


@pytest.mark.parametrize("kwargs, name", [
    ({"vocab": 0}, "vocab"), ({"scheme": "nope"}, "scheme"), ({"d_model": -4}, "d_model"),
    ({"n_layers": 0}, "n_layers"), ({"n_heads": 3}, "n_heads"), ({"max_len": 0}, "max_len"),
    ({"scheme": "sinusoid-concat", "d_pos": 3}, "d_pos"), ({"readout": "max"}, "readout"),
    ({"norm": "sandwich"}, "norm"), ({"init": "zeros"}, "init"),
])
def test_bad_model_arguments(kwargs, name):
    args = {"vocab": 8, "n_out": 8, "scheme": "sinusoid", "d_model": 16}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        TinyTransformer(**args)


@pytest.mark.parametrize("kwargs, name", [
    ({"task": "copy"}, "task"), ({"size": 0}, "size"), ({"length": -2}, "length"),
    ({"vocab": 0}, "vocab"), ({"k": 0}, "k"), ({"k": 8}, "k"),
])
def test_bad_task_arguments(kwargs, name):
    args = {"task": "kback", "size": 2, "length": 8}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        tasks.batch(**args)


# ----------------------------------------------------------------- the pieces

def test_first_last_never_ties_and_is_balanced():
    x, y = tasks.batch("first_last", 4000, 5, generator=torch.Generator().manual_seed(1))
    assert bool((x[:, 0] != x[:, -1]).all())
    assert abs(float(y.float().mean()) - 0.5) < 0.03


def test_rope_matches_posenc_relative_rotate():
    x = torch.randn(2, 3, 7, 8, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    ours = _rope(x, torch.arange(7))
    for b in range(2):
        for h in range(3):
            assert np.allclose(ours[b, h].numpy(), rotate(x[b, h].numpy(), 7), atol=1e-12)


def test_alibi_uses_posenc_slopes():
    model = TinyTransformer(8, 8, "alibi", d_model=16, n_heads=4)
    assert np.allclose(model.blocks[0].attn.slopes.numpy(), alibi_slopes(4))


def test_layernorm_erases_a_constant_but_not_alternating_signs():
    """Why "index" adds pos * (+1, -1, ...): the same number on every entry vanishes in LN."""
    ln = torch.nn.LayerNorm(16)
    x = torch.randn(5, 16, generator=torch.Generator().manual_seed(0))
    signs = torch.tensor([1.0, -1.0] * 8)
    assert torch.allclose(ln(x + 7.0), ln(x), atol=1e-5)
    assert not torch.allclose(ln(x + 7.0 * signs), ln(x), atol=1e-2)


def test_same_index_is_the_no_position_model_in_pre_norm_only():
    """The index on every entry: erased by every LayerNorm of a pre-norm model (to float
    rounding), seen by the first attention of a post-norm one."""
    x = torch.randint(0, 16, (64, 32), generator=torch.Generator().manual_seed(0))
    gaps = {}
    for norm in ("pre", "post"):
        none = build(Config(scheme="none", norm=norm))
        same = build(Config(scheme="index-same", norm=norm))
        with torch.no_grad():
            gaps[norm] = float((none(x) - same(x)).abs().max())
    assert gaps["pre"] < 1e-4 and gaps["post"] > 0.1


def test_paper_init_enters_at_unit_size():
    """tensor2tensor's init (std d_model ** -0.5) times sqrt(d_model): tokens of size about 1;
    N(0, 1) times sqrt(d_model): about sqrt(d_model)."""
    x = torch.arange(16)[None, :]
    for init, size in (("t2t", 1.0), ("normal", 32 ** 0.5)):
        model = build(Config(scheme="none", init=init, scale_embedding=True, d_model=32))
        with torch.no_grad():
            rms = float(model.embed(x).pow(2).mean().sqrt())
        assert abs(rms / size - 1) < 0.3, (init, rms)
    default = build(Config(scheme="none"))          # the default draws N(0, 1), unscaled
    assert default.token.weight.std().item() > 0.7 and default.scale == 1.0


def test_a_checkpoint_is_the_shorter_run():
    """Evaluating along the way draws no randomness: the model after 4 of 6 steps is the model
    of a 4-step run, and the 6-step run is unchanged."""
    base = dict(steps=6, log_every=1, eval_size=4, test_lengths=(8,))
    along = run(Config(eval_at=(4,), **base))
    plain = run(Config(**base))
    short = run(Config(**dict(base, steps=4)))
    assert along["checkpoints"]["4"] == short["test"]
    assert along["curve"] == plain["curve"] and along["test"] == plain["test"]


def test_order_blind_baseline_against_a_count():
    """The exact baseline of k back against an independent count over every prefix of 3 symbols
    from 4 (the best order-blind guess: the most frequent earlier symbol)."""
    import itertools
    from collections import Counter
    from fractions import Fraction

    from posenc.lab.baseline import kback, of
    right = sum(Fraction(max(Counter(prefix).values()), 3)
                for prefix in itertools.product(range(4), repeat=3))
    assert kback(3, vocab=4, k=3) == right / 4 ** 3
    assert kback(1, vocab=16, k=1) == 1
    assert of("first_last", 12) == 0.5
    assert round(of("kback", E.L_TEST, k=3, start=E.L_TRAIN), 3) == E.BLIND_PAST_L
    with pytest.raises(ValueError, match="p must"):
        kback(2, k=3)
    with pytest.raises(ValueError, match="vocab"):
        kback(5, vocab=0)


def test_order_blind_baseline_at_every_length_and_across_table_sizes():
    """The expected largest count against a direct count over every sequence (vocab 2 to 4, up to
    10 symbols), and one length read from two table sizes (48 and 96) gives one value."""
    import itertools
    from collections import Counter
    from fractions import Fraction

    from posenc.lab import baseline
    for vocab, longest in ((2, 10), (3, 7), (4, 6)):
        for n in range(1, longest + 1):
            count = sum(max(Counter(s).values()) for s in itertools.product(range(vocab), repeat=n))
            assert baseline._expected_max_count(n, vocab) == Fraction(count, vocab ** n), (vocab, n)
    assert baseline._expected_max_counts(96, 16)[40] == baseline._expected_max_counts(48, 16)[40]
    assert baseline._expected_max_count(60, 16) == baseline._expected_max_counts(96, 16)[60]


def test_check_states_its_evaluation_noise():
    """An accuracy at 0.5 from 256 answers has error 0.031: "within 0.06 of 0.5" fails for one
    fresh evaluation set in 18 (1.9 errors, either side), and for at least one of five seeds in
    about a quarter of reruns; 2048 answers bring that far below 1%."""
    def near(n, seeds):
        return E.Check("a", "near 0.5", lambda m: m, "<", 0.06, n=n, half=True).decide(seeds)
    one = near(256, [0.0])
    assert one["error"] == 0.0312 and 0.05 < one["flip"] < 0.06
    assert 0.23 < near(256, [0.0] * 5)["flip"] < 0.27
    assert near(2048, [0.0] * 5)["flip"] < 1e-6


@pytest.mark.parametrize("name", sorted(E.EXPERIMENTS))
def test_every_checked_bound_survives_evaluation_noise(name):
    """Each accuracy bound sits far enough from every seed's figure that a fresh evaluation set
    crosses it in under 1% of reruns."""
    noisy = [(v["id"], v["flip"]) for v in E.load(name)["verdicts"]
             if v.get("flip") is not None and v["flip"] >= 0.01]
    assert not noisy, f"{name}: bounds within evaluation noise: {noisy}"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_scheme_runs_and_is_deterministic(scheme):
    config = Config(scheme=scheme, steps=3, log_every=1, eval_size=4, test_lengths=(24, 30))
    first, second = run(config), run(config)
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    assert run(Config(scheme=scheme, steps=3, log_every=1, eval_size=4, seed=1,
                      test_lengths=(24, 30)))["curve"] != first["curve"]


def test_nope_bidirectional_is_blind_to_order():
    """Without positions and mask, permuting the input permutes nothing the mean readout sees."""
    model = build(Config(task="first_last", scheme="none", causal=False))
    x = torch.randint(0, 16, (3, 9), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        assert torch.allclose(model(x), model(x[:, torch.randperm(9)]), atol=1e-5)


def test_check_takes_the_weakest_seed():
    above = E.Check("a", "above", lambda m: m, ">", 0.5).decide([0.9, 0.6, 0.7])
    below = E.Check("b", "below", lambda m: m, "<", 0.5).decide([0.1, 0.4, 0.6])
    assert (above["weakest"], above["holds"]) == (0.6, True)
    assert (below["weakest"], below["holds"]) == (0.6, False)


# ----------------------------------------------------------------- the records

@pytest.mark.parametrize("name", sorted(E.EXPERIMENTS))
def test_record_is_current_and_its_verdicts_hold(name):
    record = E.load(name)
    experiment = E.EXPERIMENTS[name]
    assert record["code_hash"] == E.code_hash(experiment), (
        f"docs/data/lab/{name}.json is stale: the lab's code or configs changed since it was "
        "recorded; re-record with `make lab`")
    assert tuple(record["seeds"]) == experiment.seeds
    assert set(record["runs"]) == set(experiment.configs)
    assert all(len(runs) == len(record["seeds"]) for runs in record["runs"].values())
    assert E.decide(experiment, record["runs"]) == record["verdicts"]
    failing = [v["id"] for v in record["verdicts"] if not v["holds"]]
    assert not failing, f"{name}: verdicts that fail in the record: {failing}"
    env = record["environment"]
    assert {"torch", "numpy", "python", "machine", "date"} <= set(env)


def test_smoke_retrains_one_tiny_run():
    """One tiny run re-trained on this machine: "order"'s sinusoid, bidirectional model at seed 0
    (300 steps, length 12) learns the order, as its check says. Kept to one run so that `make
    test` stays fast; CI's lab leg (`make lab LAB_ARGS=--check`) re-trains every run of every
    experiment at every seed and checks every verdict."""
    order = E.EXPERIMENTS["order"]
    label = "sinusoid, bidirectional"
    checks = tuple(c for c in order.checks if c.id == "sinusoid-learns-order")
    one = E.Experiment("order", order.title, {label: order.configs[label]}, checks)
    [verdict] = E.run_experiments([one], seeds=(0,), workers=1)["order"]["verdicts"]
    assert verdict["holds"], f"order, {label}, seed 0, re-trained here: {verdict}"
