"""The lab's scheme registry (issue 42): a new scheme is one entry of posenc/lab/schemes.py, the
model trains with it, and adding it leaves every record's hash unchanged; a change to the code of
a scheme an experiment trains changes that experiment's hash and no other's."""

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from posenc.lab import lm, record, schemes, table_axes  # noqa: E402
from posenc.lab.model import SCHEMES, TinyTransformer, check_scheme  # noqa: E402

LAB = Path(schemes.__file__).parent

# A dummy scheme, T5-style: a bias on the scores that grows with the distance, one entry.
DUMMY = '''

@register
class _Dummy(Scheme):
    """A bias of -0.1 |i - j| on every head's scores."""

    name = "dummy"

    def scores(self, attention, scores, pos):
        return scores - 0.1 * (pos[:, None] - pos[None, :]).abs().to(scores.dtype)
'''


def _hashes() -> dict:
    out = {name: record.code_hash(e) for name, e in table_axes.EXPERIMENTS.items()}
    out["lm"] = lm.code_hash(lm.CONFIGS)
    return out


def _recorded() -> dict:
    out = {name: record.load(name)["code_hash"] for name in table_axes.EXPERIMENTS}
    out["lm"] = __import__("json").loads((record.RECORDS / "lm.json").read_text())["code_hash"]
    return out


@pytest.fixture
def lab_copy(tmp_path, monkeypatch):
    """A copy of posenc/lab that record.code_hash and lm.code_hash read instead."""
    lab = tmp_path / "lab"
    shutil.copytree(LAB, lab, ignore=shutil.ignore_patterns("__pycache__", "data"))
    monkeypatch.setattr(record, "LAB", lab)
    monkeypatch.setattr(lm, "LAB", lab)
    return lab


def test_schemes_is_the_registrys_names():
    assert SCHEMES == tuple(schemes.REGISTRY) == (
        "none", "index", "index-same", "index/L", "sinusoid", "sinusoid-concat", "learned",
        "rope", "alibi")
    with pytest.raises(ValueError, match="^scheme must be one of 'none', .*, got 't5'$"):
        TinyTransformer(8, 8, "t5")


def test_a_dummy_scheme_is_one_entry_and_leaves_every_record_current(lab_copy, monkeypatch):
    # the entry, registered for this test only: the model accepts and trains with it
    namespace = dict(vars(schemes), register=lambda cls: cls)
    exec(DUMMY, namespace)
    monkeypatch.setitem(schemes.REGISTRY, "dummy", namespace["_Dummy"]())
    assert check_scheme("dummy") == "dummy"
    torch.manual_seed(0)
    model = TinyTransformer(8, 8, "dummy", d_model=16, n_heads=2)
    loss = model(torch.zeros(2, 5, dtype=torch.long)).logsumexp(-1).mean()
    loss.backward()
    assert torch.isfinite(loss) and model.head.weight.grad is not None
    _, maps = model(torch.zeros(1, 3, dtype=torch.long), return_attention=True)
    assert maps[0][0, 0, 2, 0] < maps[0][0, 0, 2, 2]        # the bias reaches the scores

    # the same entry in the registry's file: every record (lm.json too) keeps its hash
    recorded = _recorded()
    assert _hashes() == recorded
    path = lab_copy / "schemes.py"
    path.write_text(path.read_text() + DUMMY)
    assert "_Dummy" in schemes.source(["dummy"], path)
    assert _hashes() == recorded


def test_a_change_to_a_used_scheme_makes_only_its_experiments_stale(lab_copy):
    before = _hashes()
    assert before == _recorded()
    uses = {name: {c.scheme for c in e.configs.values()}
            for name, e in table_axes.EXPERIMENTS.items()}
    uses["lm"] = set(lm.SCHEMES)
    path = lab_copy / "schemes.py"
    text = path.read_text()
    edited = text.replace("return scores - attention.slopes[:, None, None] * distance",
                          "return scores - 2 * attention.slopes[:, None, None] * distance")
    assert edited.count("2 * attention.slopes") == 1
    path.write_text(edited)
    after = _hashes()
    changed = {name for name in before if after[name] != before[name]}
    assert changed == {name for name, used in uses.items() if "alibi" in used}
    assert changed and changed != set(before)             # some use ALiBi, some do not

    # the code outside the entries is every experiment's
    path.write_text(text.replace('    name = ""\n', '    name = ""\n    unused = 1\n', 1))
    assert all(h != before[name] for name, h in _hashes().items())


def test_an_entrys_docstring_or_comment_leaves_the_hashes(lab_copy):
    recorded = _recorded()
    path = lab_copy / "schemes.py"
    text = path.read_text()
    edited = (text.replace('"""-slope_h * |i - j| added', '"""Edited: -slope_h * |i - j| added')
              .replace("# (seq, head_dim/2)", "# edited"))
    assert edited != text
    path.write_text(edited)
    assert _hashes() == recorded


def test_source_refuses_a_scheme_with_no_entry():
    with pytest.raises(ValueError, match="names must be schemes registered in schemes.py"):
        schemes.source(["t5"])


def test_contributing_counts_the_experiments_and_names_the_registry():
    text = " ".join((LAB.parents[1] / "CONTRIBUTING.md").read_text().split())
    assert f"(`posenc/lab/`, {len(table_axes.EXPERIMENTS)} experiments," in text
    assert "the entry in `schemes.py` of a scheme an experiment trains" in text
