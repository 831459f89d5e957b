"""Rewrite the ``code_hash`` of every record in docs/data/lab/ to the hash rule of the scheme
registry, without re-training (issue 42; run once, session 14, 2026-12-08).

Up to commit cde4cfe a record hashed the whole of posenc/lab/model.py, so a new scheme made
every record stale. Since then :func:`posenc.lab.record.code_hash` (and
:func:`posenc.lab.lm.code_hash` for lm.json) reads of posenc/lab/schemes.py only the entries of
the schemes an experiment trains and the code outside the entries. The refactor moved code and
changed no number, shown two ways on 2026-12-08 (AMD EPYC, 2 cores, torch 2.13.0, AVX2 kernels):
``scripts/lab_fingerprint.py`` wrote the same file on the code before and after (initial weights,
losses to the last bit, logits and attention maps of every experiment's and the language model's
configs and of every scheme with every model option; the one line that differed is the order of
two error messages when two arguments are bad), and seed 0 of start/alibi, start/none,
start/"rope + start symbol" and ratio/"alibi + start symbol", re-trained in full on the new
code, gave every recorded metric but the run time exactly. So each record's runs are those of
today's code, and only its hash needs the new rule.

For each record this script first requires that its stored hash is the OLD rule's hash of the
code at ``--before`` (default cde4cfe, the last commit before the refactor): a record that was
stale then stays stale and is not touched. Then it replaces that hash, and nothing else in the
file, with today's. A second run finds nothing to do.

    python scripts/lab_rehash.py            # rewrite; exits 1 if a record was stale before
    python scripts/lab_rehash.py --dry-run  # say what it would do
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from posenc.lab import corpus, lm  # noqa: E402
from posenc.lab.record import RECORDS, code_hash, code_only  # noqa: E402
from posenc.lab.table import CODE  # noqa: E402
from posenc.lab.table_axes import EXPERIMENTS  # noqa: E402

BEFORE = "cde4cfe"


def old_file(commit: str, name: str) -> bytes:
    return subprocess.run(["git", "show", f"{commit}:posenc/lab/{name}"], cwd=ROOT, check=True,
                          capture_output=True).stdout


def old_hash(experiment, commit: str) -> str:
    """The hash rule before the registry: every file of ``experiment.code`` whole (CODE byte for
    byte, the others without docstrings), then the configs."""
    digest = hashlib.sha256()
    for name in experiment.code:
        data = old_file(commit, name)
        digest.update(data if name in CODE else code_only(data.decode()))
    configs = {label: [experiment.config(label, 0).as_dict(), experiment.config(label, 1).as_dict()]
               for label in experiment.configs}
    digest.update(json.dumps(configs, sort_keys=True).encode())
    return digest.hexdigest()


def old_lm_hash(commit: str) -> str:
    """lm.json's hash rule before the registry: model.py, lm.py and corpus.py whole."""
    digest = hashlib.sha256()
    for name in ("model.py", "lm.py", "corpus.py"):
        digest.update(lm._tree(old_file(commit, name).decode()).encode())
    digest.update(corpus.digest().encode())
    digest.update(json.dumps({k: c.as_dict() for k, c in lm.CONFIGS.items()},
                             sort_keys=True).encode())
    return digest.hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    plan = {name: (old_hash(e, args.before), code_hash(e)) for name, e in EXPERIMENTS.items()}
    plan["lm"] = (old_lm_hash(args.before), lm.code_hash(lm.CONFIGS))
    stale = 0
    for name, (old, new) in sorted(plan.items()):
        path = RECORDS / f"{name}.json"
        text = path.read_text(encoding="utf-8")
        stored = json.loads(text)["code_hash"]
        if stored == new:
            print(f"{name}: already {new[:12]}")
        elif stored != old:
            stale += 1
            print(f"{name}: STALE before the refactor ({stored[:12]} != {old[:12]}); untouched")
        else:
            print(f"{name}: {old[:12]} -> {new[:12]}")
            if not args.dry_run:
                assert text.count(old) == 1, name
                path.write_text(text.replace(old, new), encoding="utf-8")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
