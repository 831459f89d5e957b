"""Is the code each lab record trained with, docstrings aside, the code of today? For every record
in docs/data/lab/ (but lm.json, which hashes its own files), the commit that last wrote it, and
every file its runs import (its experiment's code in posenc/lab, and the posenc modules those
import, followed to the end) compared there and here as their syntax trees without docstrings
(posenc.lab.record.code_only). Prints one line per record and exits 1 when any file differs: then
hashing these files as well would only be honest after re-recording (issue 42).
The values the lab's models take from those modules are held by scripts/lab_inputs.py instead.

    python scripts/lab_code_proof.py
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from posenc.lab.record import RECORDS, code_only  # noqa: E402
from posenc.lab.table_axes import EXPERIMENTS  # noqa: E402


def imported(path: str) -> set:
    """The posenc files a posenc file imports (relative imports and ``posenc.`` ones)."""
    package = Path(path).parent
    out = set()
    for node in ast.walk(ast.parse((ROOT / path).read_text())):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package
            for _ in range(node.level - 1):
                base = base.parent
        elif (node.module or "").startswith("posenc"):
            base = Path(".")
        else:
            continue
        parts = (node.module or "").split(".") if node.module else []
        target = base.joinpath(*parts)
        names = [target / a.name for a in node.names] if not node.module else [target]
        for name in names:
            for candidate in (name.with_suffix(".py"), name / "__init__.py"):
                if (ROOT / candidate).exists():
                    out.add(candidate.as_posix())
    return out


def closure(roots) -> list:
    seen, todo = set(), list(roots)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(imported(path) - seen)
    return sorted(seen)


def at(commit: str, path: str) -> str | None:
    shown = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True,
                           text=True)
    return shown.stdout if shown.returncode == 0 else None


def main() -> int:
    stale = 0
    for name, experiment in sorted(EXPERIMENTS.items()):
        record = RECORDS / f"{name}.json"
        files = closure(f"posenc/lab/{file}" for file in experiment.code)
        now = {path: code_only((ROOT / path).read_text()) for path in files}
        commit = subprocess.run(["git", "log", "-1", "--format=%H", "--", str(record)], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.strip()
        differ = [path for path in files
                  if (then := at(commit, path)) is None or code_only(then) != now[path]]
        stale += bool(differ)
        print(f"{record.name}: {commit[:10]}, {len(files)} files, "
              + (f"differ: {', '.join(differ)}" if differ else "all identical"))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
