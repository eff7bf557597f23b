# Dicetray: `make test` and `make bench` set up everything they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test bench firmware sim clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest
	$(PY) tests/mpy_run.py

bench: $(STAMP)
	$(PY) bench/run.py

# The device on the desktop; extra options: make sim ARGS="--flash DIR --seed 7"
sim: $(STAMP)
	$(PY) -m dicetray.sim $(ARGS)

firmware: $(STAMP)
	$(PY) tools/build.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
