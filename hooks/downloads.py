"""MkDocs hook: the site serves the package and the notebooks it documents.

At build time it makes, under ``download/`` in the site:

- ``posenc-VERSION-py3-none-any.whl`` and ``posenc-VERSION.tar.gz``, built from this checkout
  with ``python -m build --no-isolation`` (pinned in pyproject.toml) in a scratch copy of
  ``pyproject.toml``, ``README.md`` and ``posenc/``, so the source tree is not written to;
- ``simple/posenc/index.html``: a PEP 503 index page listing both, a stable address for
  ``pip install --index-url SITE/download/simple/ posenc`` whatever the version;
- every notebook of ``docs/notebooks/`` as ``.ipynb`` (converted by jupytext, no outputs) and as
  its Jupytext ``.py`` source.

The built files are added to MkDocs' file list, so links to them are checked by the strict
build. Wheel and sdist are kept in ``.cache/dist/<digest>/``, keyed on the bytes of every file
they are built from: a rebuild with an unchanged package costs nothing.

It also sets ``repo_url`` (and ``edit_uri``) from ``POSENC_REPO_URL`` when that is set and the
configuration names none: a site built without it shows no repository link.

Pages may write ``POSENC_VERSION``, ``POSENC_WHEEL`` and ``POSENC_SDIST``; they are replaced by
the package's version and the two file names.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import jupytext
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "dist"
FOLDER = "download"
SOURCES = ["pyproject.toml", "README.md"]


def version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def names() -> dict[str, str]:
    v = version()
    return {"POSENC_VERSION": v, "POSENC_WHEEL": f"posenc-{v}-py3-none-any.whl",
            "POSENC_SDIST": f"posenc-{v}.tar.gz"}


def _inputs() -> list[Path]:
    files = [ROOT / s for s in SOURCES]
    files += sorted(p for p in (ROOT / "posenc").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts)
    return files


def _digest() -> str:
    h = hashlib.sha256()
    for f in _inputs():
        h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def build_dist() -> Path:
    """A folder holding the wheel and the sdist of this checkout (built once per content)."""
    target = CACHE / _digest()
    n = names()
    if (target / n["POSENC_WHEEL"]).is_file() and (target / n["POSENC_SDIST"]).is_file():
        return target
    scratch = CACHE / f"tmp-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    src = scratch / "src"
    for f in _inputs():
        dest = src / f.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    # One timestamp for every file in the archives: the same sources give the same bytes.
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    result = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel",
                             "--outdir", str(scratch / "out"), str(src)],
                            capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"building the posenc wheel failed:\n{result.stdout}\n{result.stderr}")
    try:
        (scratch / "out").rename(target)
    except OSError:                                   # another build (a test) got there first
        if not (target / n["POSENC_WHEEL"]).is_file():
            raise
    shutil.rmtree(scratch, ignore_errors=True)
    return target


def simple_index(files: list[str]) -> str:
    links = "\n".join(f'    <a href="../../{name}">{name}</a><br>' for name in files)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n  <head><meta charset=\"utf-8\">"
            "<title>Links for posenc</title></head>\n  <body>\n    <h1>Links for posenc</h1>\n"
            f"{links}\n  </body>\n</html>\n")


def on_config(config):
    url = os.environ.get("POSENC_REPO_URL", "").strip()
    if url and not config.get("repo_url"):
        config["repo_url"] = url
        config["edit_uri"] = os.environ.get("POSENC_EDIT_URI", "edit/main/docs/")
    return config


def on_files(files, config):
    n = names()
    dist = build_dist()
    for name in (n["POSENC_WHEEL"], n["POSENC_SDIST"]):
        files.append(File.generated(config, f"{FOLDER}/{name}", abs_src_path=str(dist / name)))
    files.append(File.generated(config, f"{FOLDER}/simple/posenc/index.html",
                                content=simple_index([n["POSENC_WHEEL"], n["POSENC_SDIST"]])))
    for source in sorted((ROOT / "docs" / "notebooks").glob("*.py")):
        notebook = jupytext.read(source)
        files.append(File.generated(config, f"{FOLDER}/{source.stem}.ipynb",
                                    content=jupytext.writes(notebook, fmt="ipynb")))
        # As content, not a path: mkdocs-jupyter would take a path under notebooks/ for a page.
        files.append(File.generated(config, f"{FOLDER}/{source.name}",
                                    content=source.read_text()))
    return files


def on_page_markdown(markdown, page, config, files):
    if "POSENC_" not in markdown:
        return markdown
    for token, value in names().items():
        markdown = markdown.replace(token, value)
    return markdown
