#!/usr/bin/env bash
# The `torch` extra's range (pyproject.toml) at its other versions: `make test` runs everything
# on .venv's torch 2.13.0, the range's lower end (CPU build). This script installs each version
# named on its command line into a second venv, installs posenc[torch] beside it (it must keep
# that torch: the extra is a range, not a pin) and runs the torch tests there.
#
#   scripts/torch_range.sh 2.14.1 2.14.0      (make torch-range; CI's `torch` leg)
#
# The first version also runs the slow leg (torch.compile under inductor, the KV-cache decoders,
# export) and the two chapters that run torch (11, 16); the others run the fast torch tests.
# x86_64's wheels of 2.14.x on PyPI are CUDA builds: torch plus its nvidia packages take 5.4 GB
# in the venv. On this project's machines they lie on disk (pip's find-links/extra index), so
# 2.14.1 installs in about 50 s without a download; 2.14.0 is fetched from PyPI (555 MB, about
# 20 s here) and shares 2.14.1's nvidia packages. The tests run on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 TORCH_VERSION..."; exit 2; }
VENV=${TORCH_RANGE_VENV:-.venv-torch-range}
PY=${PYTHON:-python3}
export NO_MKDOCS_2_WARNING=1 MPLBACKEND=Agg PYTHONPATH=$PWD
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
BIN=$VENV/bin
FAST=(tests/package/test_torch_module.py tests/package/test_torch_positions.py tests/package/test_torch_rotary.py
      tests/package/test_torch_compile.py tests/package/test_conformance.py tests/package/test_plots_ch10_15.py
      tests/package/test_bad_input.py)
# pip warns once per package about this machine's extra index's missing folders: keep them out.
pip_install() { "$BIN/python" -m pip install -q "$@" 2>&1 | { grep -v "is ignored: it is neither" || true; }; }
first=1
for version in "$@"; do
    t0=$(date +%s)
    pip_install "torch==$version"
    pip_install -e ".[torch,test]"
    got=$("$BIN/python" -c "import torch; print(torch.__version__.split('+')[0])")
    if [ "$got" != "$version" ]; then
        echo "FAILED: installing posenc[torch] beside torch $version left torch $got"; exit 1
    fi
    echo "== torch $version: posenc[torch] installed beside it ($(( $(date +%s) - t0 )) s)"
    if [ $first = 1 ]; then
        POSENC_TEST_SLOW=1 "$BIN/python" -m pytest "${FAST[@]}" docs/chapters/11-*.md \
            docs/chapters/16-*.md -p no:randomly -n 2 --dist loadfile -rs
    else
        "$BIN/python" -m pytest "${FAST[@]}" -p no:randomly -n 2 --dist loadfile -rs
    fi
    echo "== torch $version: passed ($(( $(date +%s) - t0 )) s in all)"
    first=0
done
