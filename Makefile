# posenc task runner. `make help` lists the tasks. Each task installs what it needs into .venv
# the first time (re-installing when pyproject.toml changes) and is quick after that.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The CPU build of PyTorch is all the site and tests need. On a machine where plain
# `pip install torch==2.13.0` would fetch CUDA wheels, add the CPU index, e.g.
#   make test TORCH_PIP_ARGS="--index-url https://download.pytorch.org/whl/cpu"
TORCH          ?= torch==2.13.0
TORCH_PIP_ARGS ?=
export NO_MKDOCS_2_WARNING := 1
export MPLBACKEND := Agg
# Notebook kernels are separate processes: make them import this checkout's posenc.
export PYTHONPATH := $(CURDIR)$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: help install serve test unit docs mutants slow portable outputs bench lab clean torch-range
.DEFAULT_GOAL := help

help:  ## list the tasks
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q $(TORCH_PIP_ARGS) "$(TORCH)"
	$(BIN)/python -m pip install -q -e ".[torch,docs,test]"
	@# The browser tests (tests/site/browser/) drive Debian's chromium through Playwright; never
	@# `playwright install`. Installed here when missing and we are root (as in CI).
	@command -v chromium >/dev/null || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null || \
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } || \
		echo "warning: could not install chromium: the browser tests will be skipped"
	@touch $@

install: $(STAMP)  ## create .venv and install posenc with the docs and test tools

serve: $(STAMP) tfjs  ## serve the site with live reload at http://127.0.0.1:8000/
	@# --dirty: after the first full build, rebuild only the pages that changed (their code
	@# blocks run again), so an edit shows in about a second instead of re-running every page.
	@# --dirty warns on every rebuild, so serve is not strict; make test and make docs are.
	POSENC_STRICT=false $(BIN)/python -m mkdocs serve --dirty --dev-addr 127.0.0.1:8000

# pytest-xdist workers for `make test` (--dist loadfile: one file per worker at a time): the
# browser module, strict build first, runs on one; the unit and doc tests on the other.
JOBS ?= 2
# axe-core on every page at both widths (CI: `make test AXE_ALL=1`); empty: the sample and the
# pages that differ from main.
AXE_ALL ?=

# axe-core for the accessibility test (tests/site/browser/test_accessibility.py), fetched from
# the npm registry on first use into .cache/ (git-ignored), never served with the site. No npm:
# the test skips.
AXE_VERSION := 4.14.1
AXE := .cache/axe-core-$(AXE_VERSION)/axe.min.js
$(AXE):
	@if command -v npm >/dev/null; then \
		mkdir -p $(@D) && cd $(@D) && npm pack -q axe-core@$(AXE_VERSION) >/dev/null && \
		tar xzf axe-core-$(AXE_VERSION).tgz package/axe.min.js && mv package/axe.min.js . && \
		rm -rf package axe-core-$(AXE_VERSION).tgz; \
	else echo "warning: npm not found: the axe-core accessibility test will be skipped"; fi

# TensorFlow.js for the lab widget (chapter 10b): pinned files fetched from the npm registry on
# first use into .cache/ (git-ignored), sha256-checked; hooks/lab_widget.py adds them to the site.
.PHONY: tfjs
tfjs:
	@$(PYTHON) hooks/lab_widget.py

test: $(STAMP) $(AXE) tfjs  ## run every test: strict site build, unit tests, doc blocks, docstrings, browser
	@# The strict build (POSENC_BUILD=always) runs once per run, in the browser tests
	@# (tests/site/browser/): the first of their modules to need the site builds it (conftest.py,
	@# site_dir; test_site_build.py is its test), so it runs beside the unit and doc tests instead
	@# of before them. Screenshots for people to look at are skipped here (POSENC_SCREENSHOTS=0):
	@# `make unit` or scripts/screenshots.py take them. axe-core runs at both widths on a fixed
	@# sample of pages and on every page that differs from main
	@# (tests/site/browser/test_accessibility.py, axe_pages); AXE_ALL=1 (CI) runs it on every page.
	POSENC_BUILD=always POSENC_SCREENSHOTS=0 POSENC_AXE_ALL=$(AXE_ALL) $(BIN)/python -m pytest -n $(JOBS) --dist loadfile

unit: $(STAMP) $(AXE) tfjs  ## pytest on one process; the site is rebuilt only if a source is newer than site/
	$(BIN)/python -m pytest

docs: $(STAMP) tfjs  ## only the strict site build into site/
	$(BIN)/python -m mkdocs build --strict --clean --site-dir site

mutants: $(STAMP)  ## mutate posenc in a copy and check that the pages' doc tests fail
	$(BIN)/python scripts/mutants.py $(MUTANTS_ARGS)

outputs: $(STAMP)  ## rewrite a page's stale >>> outputs from its code: make outputs PAGE=docs/chapters/05-*.md (CHECK=1: only list them)
	$(BIN)/python scripts/update_outputs.py $(PAGE) $(if $(CHECK),--check)

portable: $(STAMP)  ## the tests (not the browser's) under 3 NumPy/PyTorch CPU kernel levels, 3 file orders
	$(BIN)/python scripts/cpu_matrix.py $(MATRIX_ARGS) -- -n $(JOBS) --dist loadfile

slow: $(STAMP) tfjs  ## too slow for every run: torch.compile (eager, inductor), the 36-case compile matrix, a 10^6 x 512 module, KV-cache decoders, export; the in-page lab trained to its verdict; the notebook run under pytest (~10 min)
	POSENC_TEST_SLOW=1 $(BIN)/python -m pytest tests/package/test_torch_compile.py tests/site/browser/test_lab_widget.py::test_page_reproduces_the_lab_verdict tests/site/test_notebooks.py -rs -p no:cacheprovider -n $(JOBS) --durations=10

# The torch extra's range is torch>=2.13,<2.15: .venv (every other task) holds its lower end,
# 2.13.0; these are its newest release and one more, each in a second venv (.venv-torch-range,
# 5.4 GB: x86_64's 2.14.x wheels are CUDA builds; the tests run on the CPU).
TORCH_RANGE ?= 2.14.1 2.14.0
torch-range:  ## posenc[torch] beside the range's other torch versions, with the torch tests (~5 min)
	PYTHON=$(PYTHON) scripts/torch_range.sh $(TORCH_RANGE)

lab: $(STAMP)  ## train the lab's small Transformers, record docs/data/lab/*.json (168 runs, ~100 min of one core as the records' run times add up, measured on an AMD EPYC with 2 cores on 2026-11-27 and 2026-12-07, with a progress bar), then its language model (15 runs, ~45 min of one core as lm.json's add up, measured on the same machine on 2026-12-07; LAB_ARGS=--workers 2 halves the wall time); LAB_ARGS=--check ~9 min (measured, both parts)
	@# LAB_ARGS=--check re-runs every experiment and checks every verdict, writing nothing (CI);
	@# for the language model: its record current and one scheme re-trained at a fresh seed.
	$(BIN)/python scripts/lab.py $(LAB_ARGS)
	$(BIN)/python scripts/lab_lm.py $(LAB_ARGS)
	$(if $(findstring --check,$(LAB_ARGS)),$(BIN)/python scripts/lab_inputs.py,$(BIN)/python scripts/lab_inputs.py --write)

clean:  ## remove build output and caches (keeps .venv)
	rm -rf site .pytest_cache .cache
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +

.PHONY: bench
bench: $(STAMP)  ## benchmark: table builders and the torch module vs the usual code, RoPE vs transformers, RoPE cache bytes per position, build/test/rebuild times, page sizes
	$(BIN)/python scripts/bench.py
	$(BIN)/python scripts/bench_torch.py --record docs/data/bench-torch.json
	$(BIN)/python scripts/bench_rotary.py --record docs/data/bench-rotary.json
	$(BIN)/python scripts/bench_rope_cache.py --record docs/data/bench-rope-cache.json
