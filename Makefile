# Two commands do all the set-up (README.md): `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench accuracy install clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

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

clean:
	rm -rf $(VENV) build dist *.egg-info
