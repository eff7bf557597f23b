# Dicetray: `make test` and `make bench` set up everything they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test bench firmware sim deploy typecheck clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) tools/typecheck.py
	$(PY) -m pytest
	$(PY) tests/mpy_run.py

# The firmware against the Raspberry Pi Pico's MicroPython stubs (mypy).
typecheck: $(STAMP)
	$(PY) tools/typecheck.py

# Build and copy the firmware to a board: make deploy PORT=/dev/ttyACM0 [BOARD=macropad]
deploy: $(STAMP)
	@test -n "$(PORT)" || { echo "usage: make deploy PORT=/dev/ttyACM0 [BOARD=macropad]"; exit 2; }
	$(PY) tools/deploy.py $(PORT) $(if $(BOARD),--board $(BOARD))

bench: $(STAMP)
	$(PY) bench/run.py

# The device on the desktop; extra options: make sim ARGS="--flash DIR --seed 7"
sim: $(STAMP)
	$(PY) -m dicetray.sim $(ARGS)

firmware: $(STAMP)
	$(PY) tools/build.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
