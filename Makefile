# Two commands do all the set-up (README.md): `make run` and `make test`.
#
# PYTHON makes the virtual environment VENV: Python 3.11, 3.12 or 3.13 (`make test PYTHON=python3.13`).
# The stamp records which interpreter made VENV; a VENV made by another one is removed and made anew,
# never reused. The stamp also depends on pyproject.toml and on the engine's sources in
# vendor/durable_rules, so a change to either reinstalls. The `web` extra (textual-serve) is installed too:
# `gpu-advisor web` and its test (tests/tui/test_web.py, which also needs a Chromium: .ci/run) use it.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
ENGINE_SOURCES := $(wildcard vendor/durable_rules/setup.py vendor/durable_rules/pyproject.toml \
                    vendor/durable_rules/src/*/*.[ch] vendor/durable_rules/libpy/durable/*.py)

# Version, implementation and installation prefix of PYTHON; empty when PYTHON does not run.
PYTHON_ID := $(shell $(PYTHON) -c 'import sys; print(sys.version.split()[0], sys.implementation.name, sys.base_prefix)' 2>/dev/null)
VENV_ID := $(shell cat $(STAMP) 2>/dev/null)

ifneq ($(PYTHON_ID),$(VENV_ID))
$(STAMP): FORCE
endif
ifeq ($(wildcard $(BIN)/python),)
$(STAMP): FORCE
endif

.PHONY: run test bench accuracy peers install clean FORCE

FORCE:

$(STAMP): pyproject.toml $(ENGINE_SOURCES)
	@if [ -z "$(PYTHON_ID)" ]; then \
	  $(PYTHON) -c pass; \
	  echo "make: '$(PYTHON)' does not run. Name an installed Python 3.11, 3.12 or 3.13, e.g. 'make test PYTHON=python3.13' (README.md, 'Python')." >&2; \
	  exit 1; fi
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] < (3, 11))' || { \
	  echo "make: $(PYTHON) is Python $(word 1,$(PYTHON_ID)); gpu-advisor needs 3.11 or newer (3.11, 3.12 and 3.13 are tested; README.md, 'Python')." >&2; \
	  exit 1; }
	@if [ -e $(VENV) ] && [ "$(VENV_ID)" != "$(PYTHON_ID)" ]; then \
	  echo "$(VENV) was made by $(if $(VENV_ID),Python $(VENV_ID),another or an unknown Python): making it anew with Python $(PYTHON_ID)"; \
	  rm -rf $(VENV); fi
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,web]'
	@echo '$(PYTHON_ID)' > $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/gpu-advisor

test: $(STAMP)
	$(BIN)/ruff check advisor tools
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadfile

bench: $(STAMP)
	$(BIN)/python tools/bench.py

accuracy: $(STAMP)
	$(BIN)/python tools/accuracy.py
	$(BIN)/python tools/peaks.py
	$(BIN)/python tools/peaks.py --heldout

# The peer estimators on the measured peaks, each in its own environment (their pins conflict).
PEERS := .venv-peers
peers: $(STAMP)
	@test -x $(PEERS)-la/bin/python || { $(PYTHON) -m venv $(PEERS)-la && $(PEERS)-la/bin/pip install -q llm-analysis==0.2.2; }
	@test -x $(PEERS)-fc/bin/python || { $(PYTHON) -m venv $(PEERS)-fc && $(PEERS)-fc/bin/pip install -q fitcheck-llm==0.3.1; }
	$(BIN)/python tools/peaks.py --peer-inputs $(PEERS)-la/inputs.json
	$(PEERS)-la/bin/python tools/peaks_peers.py llm-analysis $(PEERS)-la/inputs.json > $(PEERS)-la/result.json
	$(PEERS)-fc/bin/python tools/peaks_peers.py fitcheck $(PEERS)-la/inputs.json > $(PEERS)-fc/result.json
	$(BIN)/python tools/peaks.py --peers $(PEERS)-la/result.json $(PEERS)-fc/result.json

clean:
	rm -rf $(VENV) .venv-* build dist *.egg-info vendor/durable_rules/build vendor/durable_rules/libpy/*.egg-info
