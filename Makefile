# Two commands do all set-up: `make lab` and `make test`.
# Both bootstrap .venv themselves; nothing needs installing by hand.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
ORACLE := .venv-oracle
# JupyterLab refuses to run as root unless told; a normal user needs nothing.
ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

.PHONY: lab test site unit goldens bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed; installing Debian's python3-venv"; \
	  [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null && \
	  $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

# JupyterLab on a working copy of the lessons (.lab/, git-ignored: a learner's
# session never rewrites notebooks/), loopback only, opening index.ipynb; it
# prints the URL (with its token). The news pop-up is switched off: it covers
# the lessons. scripts/lab.py says how the copy is kept up to date.
lab: $(STAMP)
	@mkdir -p $(VENV)/share/jupyter/lab/settings
	@echo '{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}' \
	  > $(VENV)/share/jupyter/lab/settings/overrides.json
	$(PY) scripts/lab.py --workdir .lab -- --ip=127.0.0.1 --no-browser $(ROOT_FLAG)

# The lessons as a static site in _site/ (en, zh and the index), from their
# stored outputs, nothing executed: every diagram a picture, every show() a
# replay that steps without a kernel. Open _site/index.html (scripts/build_site.py).
site: $(STAMP)
	$(PY) scripts/build_site.py --out _site

# The tests that check the diagrams against real PyTorch (tests/test_viz_torch*.py)
# need it in .venv. The pinned CPU wheel, installed from this machine's disk
# (about 20 s, once); never an unpinned torch, and never a package dependency.
# --no-compile: byte-compiling all of torch is most of pip's CPU time, and the
# tests import a small part of it (compiled on first import).
TORCH_STAMP := $(VENV)/.torch-2.13.0
$(TORCH_STAMP): $(STAMP)
	$(PY) -m pip install -q --no-compile torch==2.13.0
	touch $@

# One pytest run: unit, property, golden and browser tests under tests/, and
# nbval over every executed lesson (stored outputs, SVG diagrams included,
# must match a fresh run; only object addresses are masked).
# Then the tests whose float32 bits numpy's BLAS could change, again under the
# other OpenBLAS setting: with OPENBLAS_CORETYPE unset where the machine sets
# it, else under the Haswell kernel (another summation order than AVX-512's)
# where the CPU can run it. The package's bits must not depend on the kernel.
BLAS_TESTS := tests/test_golden.py tests/test_matmul_order.py tests/test_small_mm_bits.py tests/test_float32_bits.py \
  tests/test_fuzz.py tests/test_viz_goldens.py
test: $(STAMP) $(TORCH_STAMP)
	@sh scripts/ensure_chromium.sh
	$(PY) -m pytest tests notebooks --nbval --nbval-current-env \
	  --nbval-sanitize-with notebooks/nbval_sanitize.cfg
	@if [ -n "$${OPENBLAS_CORETYPE:-}" ]; then \
	  echo "again with OPENBLAS_CORETYPE unset (it was $$OPENBLAS_CORETYPE):"; \
	  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) -m pytest -q -p no:cacheprovider $(BLAS_TESTS); \
	elif grep -qw avx2 /proc/cpuinfo 2>/dev/null; then \
	  echo "again under OPENBLAS_CORETYPE=Haswell:"; \
	  OPENBLAS_CORETYPE=Haswell $(PY) -m pytest -q -p no:cacheprovider $(BLAS_TESTS); fi

# Re-record the PyTorch goldens (needs the torch wheel pinned below; never unpinned).
$(ORACLE)/.installed:
	$(PYTHON) -m venv $(ORACLE)
	$(ORACLE)/bin/pip install -q torch==2.13.0 numpy
	touch $@

goldens: $(ORACLE)/.installed
	$(ORACLE)/bin/python scripts/record_goldens.py
	$(ORACLE)/bin/python scripts/record_printing_goldens.py
	$(ORACLE)/bin/python scripts/record_engine_order.py
	$(ORACLE)/bin/python scripts/record_random_goldens.py
	$(ORACLE)/bin/python scripts/record_viz_goldens.py
	$(ORACLE)/bin/python scripts/record_broadcast_goldens.py
	$(ORACLE)/bin/python scripts/record_small_mm_goldens.py
	$(ORACLE)/bin/python scripts/record_fuzz_goldens.py
	$(ORACLE)/bin/python scripts/record_float32_goldens.py

# Core benchmarks: autograd_teach beside PyTorch (pinned: an unpinned torch
# pulls gigabytes), numpy by hand and micrograd; rewrites the "## Core"
# section of docs/benchmarks.md. See benchmarks/README.md.
BENCH := .venv-bench
$(BENCH)/.installed: pyproject.toml
	$(PYTHON) -m venv $(BENCH)
	$(BENCH)/bin/pip install -q torch==2.13.0 numpy micrograd==0.1.0
	$(BENCH)/bin/pip install -q -e .
	touch $@

bench: $(BENCH)/.installed
	$(BENCH)/bin/python benchmarks/bench_core.py --write docs/benchmarks.md
	$(BENCH)/bin/python benchmarks/bench_d2l.py --write docs/benchmarks.md

clean:
	rm -rf $(VENV) $(ORACLE)
