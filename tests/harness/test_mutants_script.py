"""scripts/mutants.py reports kills only when the unmutated pages pass."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load():
    spec = importlib.util.spec_from_file_location("mutants_script", ROOT / "scripts/mutants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_failing_baseline_stops_the_run(monkeypatch, capsys):
    m = load()
    calls = []

    def fake_run(dest, *a, **k):
        calls.append(dest)
        return True, 0.1, "FAILED docs/chapters/08-building-the-formula.md::line:232"

    monkeypatch.setattr(m, "copy_project", lambda dest: None)
    monkeypatch.setattr(m, "run_doc_tests", fake_run)
    monkeypatch.setattr("sys.argv", ["mutants.py"])
    assert m.main() == 2
    assert len(calls) == 1                                 # no mutant was tried
    out = capsys.readouterr().out
    assert "already fail" in out and "killed" not in out.replace("'killed'", "")


def test_a_green_baseline_goes_on_to_the_mutants(monkeypatch, capsys):
    m = load()
    results = iter([(False, 0.1, "")] + [(True, 0.1, "FAILED docs/x.md::y")] * len(m.MUTANTS)
                   + [(False, 0.1, "")] + [(True, 0.1, "FAILED tests/x.py::y")] * len(m.HARNESS_MUTANTS))
    monkeypatch.setattr(m, "copy_project", lambda dest: None)
    monkeypatch.setattr(m, "apply", lambda mutant, dest: None)
    monkeypatch.setattr(m, "run_doc_tests", lambda dest, *a, **k: next(results))
    monkeypatch.setattr("sys.argv", ["mutants.py"])
    assert m.main() == 0
    out = capsys.readouterr().out
    assert f"{len(m.MUTANTS)}/{len(m.MUTANTS)} mutants killed" in out
    assert f"harness: {len(m.HARNESS_MUTANTS)}/{len(m.HARNESS_MUTANTS)} mutants killed" in out


def test_the_page_that_caught_a_mutant_last_time_runs_first(monkeypatch, tmp_path):
    """A kill by the recorded page is a kill; a survivor there (or a test renamed since) still
    gets the run over every page, whose verdict decides."""
    m = load()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "p.md").write_text("")
    calls = []

    def fake_run(dest, pages, outcome):
        calls.append(pages)
        if outcome == "error":
            raise RuntimeError("no such test")
        return outcome, 1.0, ""

    for outcome, runs in ((True, [("docs/p.md",)]), (False, [("docs/p.md",), ("docs",)]),
                          ("error", [("docs/p.md",), ("docs",)])):
        calls.clear()
        monkeypatch.setattr(m, "run_doc_tests", lambda dest, pages, o=outcome:
                            fake_run(dest, pages, o if pages != ("docs",) else False))
        killed, seconds, _ = m.run_first(tmp_path, "docs/p.md", ("docs",))
        assert calls == runs and killed == (outcome is True)
    calls.clear()
    m.run_first(tmp_path, "docs/gone.md", ("docs",))
    assert calls == [("docs",)]
    assert m.recorded() and m.recorded("harness")        # the record names what caught each
