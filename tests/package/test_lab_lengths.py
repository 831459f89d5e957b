"""posenc.lab.lengths (issue 39): the start symbol, the reverse task, evaluation to 8x the
training length, and the hash that keeps the lab's older records current."""

import itertools
from fractions import Fraction

import pytest
import torch

from posenc.lab import experiments as E
from posenc.lab import lengths as X
from posenc.lab.baseline import _expected_max_count
from posenc.lab.run import Config, run


@pytest.mark.parametrize("kwargs, name", [
    ({"task": "first_last"}, "task"), ({"bos": 1}, "bos"), ({"steps": 0}, "steps"),
    ({"task": "reverse", "scheme": "learned"}, "learned"),
])
def test_bad_length_config_names_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        X.LengthConfig(**kwargs)


def test_start_symbol_is_fixed_and_scores_the_same_positions():
    config = X.LengthConfig(bos=True)
    g = torch.Generator().manual_seed(0)
    x, y = X.batch(config, 64, 24, g)
    assert x.shape == (64, 25) and set(x[:, 0].tolist()) == {16}      # one fixed symbol, id 16
    assert int(x[:, 1:].max()) < 16                                   # never inside a sequence
    plain_x, plain_y = X.batch(X.LengthConfig(), 64, 24, torch.Generator().manual_seed(0))
    assert torch.equal(x[:, 1:], plain_x) and torch.equal(y[:, 1:], plain_y)
    assert bool((y[:, 0] == X.IGNORE).all())


def test_reverse_answers_lie_2j_plus_1_back():
    config = X.LengthConfig(task="reverse")
    x, y = X.batch(config, 8, 10, torch.Generator().manual_seed(1))
    assert x.shape == (8, 20) and bool((x[:, 10] == 16).all())        # the separator
    for j in range(10):
        p = 10 + j                                                    # where output j is read
        assert torch.equal(y[:, p], x[:, p - (2 * j + 1)])            # distance grows with j
        if j:
            assert torch.equal(x[:, p], y[:, p - 1])                  # teacher forcing


def test_without_a_start_symbol_a_run_is_the_lab_run():
    """Same weights, batches and evaluation sets as posenc.lab.run.run for the same config."""
    base = Config(steps=6, log_every=2, eval_size=8, test_lengths=(24, 48))
    fields = {f: getattr(base, f) for f in base.__dataclass_fields__}
    a, b = run(base), X.run(X.LengthConfig(**fields))
    assert a["curve"] == b["curve"]
    for n in ("24", "48"):
        assert a["test"][n]["accuracy"] == b["test"][n]["accuracy"]
        assert a["test"][n]["per_position"] == b["test"][n]["per_position"]


def test_start_records_name_their_kernel_level():
    """The start symbol's records were made on this project's AVX2 machine, past.json with
    AVX-512 kernels: their runs without a start symbol are the same configs, but their digits
    may differ (seed 0's sinusoid past L: 0.2596 here), so the pages quote each record's own."""
    for name in ("start", "ratio"):
        assert E.load(name)["environment"]["simd"]["torch_kernels"] in ("AVX2", "AVX512")


def test_older_records_hash_only_the_lab_runner():
    """Experiments that do not train with posenc.lab.lengths do not hash it, so editing it
    leaves their 13 records current (test_lab's record test re-checks each hash)."""
    old = [e for e in E.EXPERIMENTS.values() if "lengths.py" not in e.code]
    assert len(old) == 13 and all(e.code == E.CODE for e in old)
    assert all(not isinstance(c, X.LengthConfig) for e in old for c in e.configs.values())
    new = [e for e in E.EXPERIMENTS.values() if "lengths.py" in e.code]
    assert new and all(isinstance(c, X.LengthConfig) for e in new for c in e.configs.values())
    for e in old:
        assert E.load(e.name)["code_hash"] == E.code_hash(e)


def test_reverse_baseline_against_a_count():
    """A model that knows which symbols remain but not their order: count every sequence."""
    vocab, n, j = 3, 4, 1
    remaining = n - j
    hits = Fraction(0)
    for rest in itertools.product(range(vocab), repeat=remaining):
        hits += Fraction(max(rest.count(s) for s in range(vocab)), remaining)
    assert X.reverse_baseline(j, n, vocab) == pytest.approx(float(hits / vocab ** remaining))


def test_float_baseline_matches_the_exact_one():
    counts = X.expected_max_counts(40)
    for n in (1, 5, 17, 40):
        assert counts[n] == pytest.approx(float(_expected_max_count(n, 16)), rel=1e-9)


def test_evaluation_in_chunks_equals_one_pass():
    config = X.LengthConfig(bos=True, eval_size=16, steps=2)
    model = X.build(config)
    whole = X.evaluate(model, config, 40)
    saved, X.EVAL_POSITIONS = X.EVAL_POSITIONS, 41 * 3                # chunks of 3 sequences
    try:
        parts = X.evaluate(model, config, 40)
    finally:
        X.EVAL_POSITIONS = saved
    assert parts["per_position"] == whole["per_position"]
    assert parts["attention_k_back"] == pytest.approx(whole["attention_k_back"], abs=2e-4)


def test_a_docstring_edit_leaves_the_new_records_current():
    """posenc/lab/lengths.py is hashed as its syntax tree without docstrings: its examples were
    added after start.json, ratio.json and reverse.json were recorded, and they stay current;
    a change to the code itself makes them stale."""
    from pathlib import Path
    source = Path(X.__file__).read_text()
    edited = source.replace('"""A :class:', '"""Edited. A :class:', 1)
    assert edited != source and E.code_only(edited) == E.code_only(source)
    assert E.code_only(source.replace("EVAL_POSITIONS = 256 * 48", "EVAL_POSITIONS = 256 * 47")) \
        != E.code_only(source)
    for name in ("start", "ratio", "reverse"):
        assert E.load(name)["code_hash"] == E.code_hash(E.EXPERIMENTS[name])
