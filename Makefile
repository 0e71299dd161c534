# Two commands do all set-up: `make lab` and `make test`.
# Both bootstrap .venv themselves; nothing needs installing by hand.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
ORACLE := .venv-oracle
# JupyterLab refuses to run as root unless told; a normal user needs nothing.
ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

.PHONY: lab test unit goldens bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed; installing Debian's python3-venv"; \
	  [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null && \
	  $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ip=127.0.0.1 --no-browser $(ROOT_FLAG) notebooks/

test: $(STAMP)
	$(PY) -m pytest

# Re-record the PyTorch goldens (needs the torch wheel pinned below; never unpinned).
$(ORACLE)/.installed:
	$(PYTHON) -m venv $(ORACLE)
	$(ORACLE)/bin/pip install -q torch==2.13.0 numpy
	touch $@

goldens: $(ORACLE)/.installed
	$(ORACLE)/bin/python scripts/record_goldens.py

clean:
	rm -rf $(VENV) $(ORACLE)
