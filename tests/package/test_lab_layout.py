"""The lab's experiments module split into the verdict check, the experiment table and the
recording machinery (issue 42): every name ``posenc.lab.experiments`` held is still there and is
the same object as in its new home, no lab module passes 400 lines, and a new experiment or a
new module that no experiment trains with leaves every record current."""

import ast
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")

from posenc.lab import checks, experiments, lengths, record, run, table, table_axes  # noqa: E402

LAB = Path(experiments.__file__).parent

# The public names of posenc/lab/experiments.py before the split (commit 504fd20), but for the
# standard library's (dataclass, replace, datetime, timezone, Path, annotations).
OLD = ("LengthConfig", "mean_kback_float", "Config", "run", "SEEDS", "AXIS_SEEDS", "RECORDS",
       "CODE", "Check", "Experiment", "ORDER_BASE", "ORDER", "INDEX_BASE", "INDEX", "L_TRAIN",
       "L_TEST", "PAST_BASE", "PAST_CONFIGS", "ATTENTION", "N_SEEN", "N_UNSEEN", "BLIND_PAST_L",
       "PAST", "LEARNED", "SHIFT", "CONCAT", "SCALED", "T2T", "SCALE", "OFFSET_LENGTHS",
       "OFFSET_BASE", "OFFSET", "SAME", "BUDGET_STEPS", "BUDGET_BASE", "WIDE", "WIDE_ALIBI",
       "BUDGET", "AXES", "HEADS_ONLY", "WIDTH_ONLY", "HEADS", "LONGER_STEPS", "LONGER_CONFIGS",
       "LONGER", "RATIOS", "LENGTH_CODE", "LENGTH_BASE", "START", "START_CONFIGS", "STARTX",
       "RATIO_CONFIGS", "N_RATIO", "RATIO", "REVERSE_LENGTHS", "REVERSE_BASE", "REVERSE_SCHEMES",
       "REVERSE", "EXPERIMENTS", "code_only", "code_hash", "decide", "jobs_of", "run_experiments",
       "environment", "SIMD_FLAGS", "simd", "machine", "load", "verdict")


def _defined(module) -> set:
    """The names a module defines at its top level (not those it imports)."""
    names = set()
    for node in ast.parse(Path(module.__file__).read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        for target in getattr(node, "targets", [getattr(node, "target", None)]):
            names.update(n.id for n in ast.walk(target or ast.Pass()) if isinstance(n, ast.Name))
    return names


def test_every_old_name_is_re_exported_as_the_same_object():
    imported = {"Config": run, "run": run, "LengthConfig": lengths, "mean_kback_float": lengths}
    assert sorted(experiments.__all__) == sorted(OLD)
    for name in OLD:
        [home] = [imported[name]] if name in imported else [
            m for m in (checks, table, table_axes, record) if name in _defined(m)]
        exec(f"from posenc.lab.experiments import {name} as old", namespace := {})
        assert namespace["old"] is getattr(home, name), name


def test_no_lab_module_passes_400_lines():
    sizes = {p.name: len(p.read_text().splitlines()) for p in LAB.glob("*.py")}
    assert max(sizes.values()) <= 400, sizes


def test_a_new_experiment_or_module_leaves_every_record_current(tmp_path, monkeypatch):
    """A copy of the lab with a module that no recorded experiment trains with (a scheme of its
    own) and an experiment that trains with it: every record's hash is unchanged. A change to
    the code of model.py, which every experiment trains with, still makes every record stale."""
    lab = tmp_path / "lab"
    shutil.copytree(LAB, lab, ignore=shutil.ignore_patterns("__pycache__", "data"))
    (lab / "bias.py").write_text('"""A new scheme."""\n\n\ndef bias(i, j):\n    return -abs(i - j)\n')
    monkeypatch.setattr(record, "LAB", lab)
    recorded = {name: record.load(name)["code_hash"] for name in table_axes.EXPERIMENTS}
    new = table.Experiment("new", "a new scheme", {"a": run.Config(steps=2)}, (),
                           code=table.CODE + ("bias.py",))
    monkeypatch.setitem(table_axes.EXPERIMENTS, "new", new)
    assert len(record.code_hash(new)) == 64
    assert {name: record.code_hash(table_axes.EXPERIMENTS[name]) for name in recorded} == recorded

    model = lab / "model.py"
    model.write_text(model.read_text() + "\nUNUSED = 1\n")
    assert all(record.code_hash(table_axes.EXPERIMENTS[name]) != recorded[name]
               for name in recorded)


def test_make_help_states_the_records_own_times():
    """``make help``'s lab line: the distinct runs of every experiment and the minutes of one core
    their recorded run times add up to, and the language model's, to the nearest 5 minutes."""
    import json
    import re

    line = next(text for text in (LAB.parents[1] / "Makefile").read_text().splitlines()
                if text.startswith("lab:"))
    (runs, minutes), (lm_runs, lm_minutes) = re.findall(r"\((\d+) runs, ~(\d+) min of one core",
                                                        line)
    jobs = record.jobs_of(list(table_axes.EXPERIMENTS.values()))
    seconds = {}
    for name, experiment in table_axes.EXPERIMENTS.items():
        stored = record.load(name)
        for label, seeds in stored["runs"].items():
            for seed, metrics in zip(stored["seeds"], seeds):
                seconds[experiment.config(label, seed)] = metrics["seconds"]
    assert int(runs) == len(jobs)
    assert int(minutes) == 5 * round(sum(seconds[job] for job in jobs) / 60 / 5)
    lm = json.loads((record.RECORDS / "lm.json").read_text())
    totals = [m["seconds"]["total"] for seeds in lm["runs"].values() for m in seeds]
    assert int(lm_runs) == len(totals)
    assert int(lm_minutes) == 5 * round(sum(totals) / 60 / 5)


def test_make_help_names_the_machine_and_dates_the_records_were_measured_on():
    """``make help``'s lab line names the machine and the dates that the records' environments
    hold (the lab's records, then lm.json's)."""
    import json
    import re

    line = next(text for text in (LAB.parents[1] / "Makefile").read_text().splitlines()
                if text.startswith("lab:"))
    envs = [record.load(name)["environment"] for name in table_axes.EXPERIMENTS]
    lm_env = json.loads((record.RECORDS / "lm.json").read_text())["environment"]
    [machine] = {env["machine"] for env in envs + [lm_env]}
    name, cores = re.fullmatch(r"(.+) \((\d+) cores\)", machine).groups()
    dates = " and ".join(sorted({env["date"] for env in envs}))
    assert f"measured on an {name} with {cores} cores on {dates}," in line
    assert f"measured on the same machine on {lm_env['date']};" in line
