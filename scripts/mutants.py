"""Mutation check of the doc tests: does every claim-changing mutant make a page fail?

Usage: python scripts/mutants.py [--json FILE]
First runs the doc tests on an unmutated copy: a kill means something only if the pages pass
without the mutant, so the script stops (exit 2) and reports no kills when that baseline fails.
Then applies each mutant below to a fresh copy of the project, runs only the doc tests of docs/
(stopping at the first failure) and prints one table: mutant, killed or survived, seconds, and
the first page that caught it. Exits 1 if a mutant that changes a claim survives.
Then the same for the harness mutants (tests/harness/mutation.py, HARNESS_MUTANTS): each loosens a rule
of the test harness (conftest.py, the prose-number scan, the claim-word lint) and must make the
harness's own tests fail; their baseline is the unmutated harness tests.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.harness.mutation import (HARNESS_MUTANTS, HARNESS_TESTS, Mutant, apply,  # noqa: E402
                            copy_project, run_doc_tests)

# The harness mutants are judged by the harness's own unit tests; the per-page scans are left
# out (they pass or fail with the pages, not with the rule under test) to keep the run short.
HARNESS_SELECT = ("-k", "not are_checked and not every_python_fence_is_collected")

ENC = "posenc/encoding.py"
FAST = "posenc/fast.py"            # integer positions (every table the pages build) go here
MUTANTS = [
    Mutant("sin and cos swapped", FAST, "z.real = np.sin(theta)\n    z.imag = np.cos(theta)",
           "z.real = np.cos(theta)\n    z.imag = np.sin(theta)", "PE(pos, 2i) is a sine"),
    Mutant("sin and cos swapped (concatenated)", FAST, "table[lo:hi, :half] = tile.real",
           "table[lo:hi, :half] = tile.imag", "[sin | cos]: the sines come first"),
    Mutant("base 10000 -> 10001", ENC, "BASE = 10000.0", "BASE = 10001.0",
           "the paper's base is 10000"),
    Mutant("exponent 2i/d -> i/d", ENC, "return base ** (-2.0 * i / d_model)",
           "return base ** (-1.0 * i / d_model)", "omega_i = base^(-2i/d)"),
    Mutant("pair index off by one", ENC, "i = np.arange(d_model // 2, dtype=np.float64)",
           "i = np.arange(1, d_model // 2 + 1, dtype=np.float64)", "the first pair has omega 1"),
    Mutant("layouts swapped", FAST, 'interleaved = layout == "interleaved"',
           'interleaved = layout != "interleaved"', "interleaved puts sin at 2i, cos at 2i+1"),
    Mutant("angles in float32", FAST, "exact = rotors(np.multiply.outer(pieces, omega))",
           "exact = rotors(np.multiply.outer(pieces.astype(np.float32), "
           "omega.astype(np.float32)).astype(np.float64))",
           "angles are computed in float64"),
    Mutant("norm changed by 1%", FAST, "return both.reshape(-1, omega.shape[0])[:count]",
           "return 1.01 * both.reshape(-1, omega.shape[0])[:count]",
           "every vector has norm sqrt(d/2)"),
    Mutant("positions shifted by one", ENC, "    positions = check_positions(pos)\n    omega",
           "    positions = check_positions(pos) + 1.0\n    omega", "row p encodes position p"),
    Mutant("cosine sign flipped", FAST, "    z.imag = np.cos(theta)",
           "    z.imag = -np.cos(theta)", "PE(0) = (0, 1, 0, 1, ...)"),
    Mutant("builder rotates backwards", FAST, "return -1j * phasors(theta)",
           "return (-1j * phasors(theta)).conj()", "PE(p + k) = M_k PE(p), in that direction"),
    Mutant("rotation block transposed", "posenc/rotation.py", "return np.array([[c, s], [-s, c]])",
           "return np.array([[c, -s], [s, c]])", "M_k acting on (sin, cos) is [[cos, sin], [-sin, cos]]"),
    Mutant("concatenated layout interleaved", FAST,
           "table[lo:hi, :half] = tile.real       # one rounding from float64 to the dtype\n"
           "                table[lo:hi, half:] = tile.imag",
           "table[lo:hi, 0::2] = tile.real\n                table[lo:hi, 1::2] = tile.imag",
           "tensor2tensor's layout is [sin | cos]"),
    Mutant("direct path off (real positions)", ENC, "table[:, cos_cols] = np.cos(theta)",
           "table[:, cos_cols] = np.cos(1.001 * theta)", "real positions follow the same formula"),
    Mutant("NTK base exponent d/(d-2) -> d/(d-1)", "posenc/scaling/ntk.py",
           "        new = base * scale ** (d_model / (d_model - 2))",
           "        new = base * scale ** (d_model / (d_model - 1))",
           "NTK-aware scaling divides the slowest frequency by exactly s"),
    Mutant("YaRN ramp keeps the slow pairs", "posenc/scaling/yarn.py",
           "return (1.0 - gamma) * omega / factor + gamma * omega",
           "return gamma * omega / factor + (1.0 - gamma) * omega",
           "YaRN keeps the fast pairs and interpolates the slow ones"),
    Mutant("YaRN truncate ignored", "posenc/scaling/yarn.py",
           "    if truncate:\n        low, high = math.floor(low), math.ceil(high)",
           "    if True:\n        low, high = math.floor(low), math.ceil(high)",
           "gpt-oss's \"truncate\": false keeps the ramp's ends fractional"),
    Mutant("LongRoPE switches one position early", "posenc/scaling/longrope.py",
           'return _check_length(seq_len, "seq_len") > length',
           'return _check_length(seq_len, "seq_len") >= length',
           "LongRoPE's long list starts past the trained length, as in transformers"),
    Mutant("RoPE permutation across heads", "posenc/relative.py",
           "return (np.arange(int(n_heads))[:, None] * head_dim + within[None, :]).ravel()",
           "return permutation(int(n_heads) * head_dim, layout[source], layout[target])",
           "Hugging Face permutes W_Q and W_K head by head"),
    Mutant("locality never fails", "posenc/properties.py", "return Check(value < 1, value,",
           "return Check(value < 1e9, value,", "neighbours are closer than far positions"),
]

# Mutants that change nothing a page claims, each with the reason. Keep this list short.
EXPECTED_SURVIVORS: dict[str, str] = {}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--record", action="store_true",
                        help="write the results to docs/data/mutants.json, which the home page "
                             "reports (with the date) when the site builds")
    parser.add_argument("--jobs", type=int, default=2,
                        help="mutants tried at once, and pytest-xdist workers of the baseline "
                             "(default 2: the two cores of the CI machine)")
    args = parser.parse_args()
    rows, start = [], time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="posenc-baseline-") as tmp:
        copy_project(Path(tmp))
        xdist = ("-n", str(args.jobs), "--dist", "loadfile") if args.jobs > 1 else ()
        failed, seconds, report = run_doc_tests(Path(tmp), pages=(*xdist, "docs"))
    if failed:
        caught = re.findall(r"FAILED (\S+)", report)
        print(f"the unmutated pages already fail ({', '.join(caught) or 'see below'}): a mutant "
              "'killed' here would prove nothing, so none is reported.\n" + report[-3000:])
        return 2
    print(f"baseline: the unmutated pages pass ({seconds:.0f} s)")
    last = recorded()

    def one(mutant):
        with tempfile.TemporaryDirectory(prefix="posenc-mutant-") as tmp:
            dest = Path(tmp)
            copy_project(dest)
            apply(mutant, dest)
            killed, seconds, report = run_first(dest, last.get(mutant.name), ("docs",))
        caught = re.search(r"FAILED (docs/\S+?)::", report)
        return {"mutant": mutant.name, "claim": mutant.why, "killed": killed,
                "seconds": round(seconds, 1), "caught_by": caught.group(1) if caught else ""}

    rows = at_once(one, MUTANTS, args.jobs)
    harness, failed = run_harness_mutants(args.jobs)
    if failed:
        return 2
    width = max(len(r["mutant"]) for r in rows + harness)
    print(f"{'mutant':<{width}}  result    time  first page that failed")
    for r in rows:
        result = "killed" if r["killed"] else "SURVIVED"
        print(f"{r['mutant']:<{width}}  {result:<8} {r['seconds']:5.1f}s  {r['caught_by']}")
    killed = sum(r["killed"] for r in rows)
    print(f"{killed}/{len(rows)} mutants killed ({100 * killed / len(rows):.0f}%)")
    print(f"{'harness mutant':<{width}}  result    time  first test that failed")
    for r in harness:
        result = "killed" if r["killed"] else "SURVIVED"
        print(f"{r['mutant']:<{width}}  {result:<8} {r['seconds']:5.1f}s  {r['caught_by']}")
    h_killed = sum(r["killed"] for r in harness)
    print(f"harness: {h_killed}/{len(harness)} mutants killed; "
          f"{time.perf_counter() - start:.0f} s in all")
    bad = [r["mutant"] for r in rows + harness
           if not r["killed"] and r["mutant"] not in EXPECTED_SURVIVORS]
    result = {"date": str(datetime.date.today()), "killed": killed, "total": len(rows), "rows": rows,
              "harness": {"killed": h_killed, "total": len(harness), "rows": harness}}
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    if args.record:
        (ROOT / "docs" / "data" / "mutants.json").write_text(json.dumps(result, indent=1) + "\n")
    if bad:
        print("claim-changing mutants that survived: " + ", ".join(bad))
        return 1
    return 0


def recorded(part: str | None = None) -> dict:
    """{mutant: what caught it} in the last record, docs/data/mutants.json (part "harness": the
    harness mutants' table)."""
    try:
        record = json.loads((ROOT / "docs" / "data" / "mutants.json").read_text())
    except (OSError, ValueError):
        return {}
    rows = record[part]["rows"] if part else record["rows"]
    return {r["mutant"]: r["caught_by"] for r in rows if r.get("killed") and r.get("caught_by")}


def run_first(dest: Path, first: str | None, pages: tuple[str, ...]):
    """(killed, seconds, report) of the doc tests of ``pages`` in ``dest``, trying first the page
    (or test) that caught the mutant last time: a kill there is a kill, and only a survivor
    there costs a run over all of ``pages``. The verdict is the one a run over all of them
    gives; only the time changes (a few seconds instead of minutes for a mutant that the last
    pages catch)."""
    spent = 0.0
    if first and (dest / first.split("::")[0]).exists():
        try:
            killed, seconds, report = run_doc_tests(dest, pages=(first,))
        except RuntimeError:          # e.g. the test was renamed since: the whole run decides
            killed, seconds = False, 0.0
        spent += seconds
        if killed:
            return killed, spent, report
    killed, seconds, report = run_doc_tests(dest, pages=pages)
    return killed, spent + seconds, report


def at_once(work, items, jobs: int) -> list:
    """[work(item) for item in items], ``jobs`` at a time (each mutant runs in its own copy of
    the project, in its own pytest process), in the order of ``items``."""
    if jobs <= 1:
        return [work(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(work, items))


def run_harness_mutants(jobs: int = 1):
    """(rows, baseline_failed): each harness mutant against the harness's own tests."""
    args = dict(pages=(*HARNESS_TESTS, *HARNESS_SELECT))
    with tempfile.TemporaryDirectory(prefix="posenc-harness-") as tmp:
        copy_project(Path(tmp))
        failed, seconds, report = run_doc_tests(Path(tmp), **args)
    if failed:
        print("the unmutated harness tests already fail: no harness kill is reported.\n"
              + report[-3000:])
        return [], True
    last = recorded("harness")

    def one(mutant):
        with tempfile.TemporaryDirectory(prefix="posenc-harness-") as tmp:
            dest = Path(tmp)
            copy_project(dest)
            apply(mutant, dest)
            killed, seconds, report = run_first(dest, last.get(mutant.name), args["pages"])
        caught = re.search(r"FAILED (tests/\S+)", report)
        return {"mutant": mutant.name, "claim": mutant.why, "killed": killed,
                "seconds": round(seconds, 1), "caught_by": caught.group(1) if caught else ""}

    rows = at_once(one, HARNESS_MUTANTS, jobs)
    return rows, False


if __name__ == "__main__":
    sys.exit(main())
