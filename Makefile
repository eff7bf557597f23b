# Dicetray: `make test` and `make bench` set up everything they need.
# `make uf2` builds the release images (MicroPython for the Pico and Pico 2 with
# the firmware frozen in) into build/uf2/; it needs the arm toolchain, not the
# virtual environment (docs/image.md). `make enclosure` writes the printable
# enclosure (STEP, STL, renders) into build/enclosure/ (docs/hardware.md).
# `make docs` makes every picture in docs/img again (tools/docshots.py).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test check test-board test-web bench firmware sim deploy typecheck uf2 web enclosure docs clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[dev,sim,deploy,hardware]'
	touch $(STAMP)

# Every stage, as CI runs it (tools/testrun.py: several processes at once,
# each stage's time and a table of results at the end; docs/testing.md):
# lint (ruff check, ruff format --check, tools/typecheck.py), pytest
# (tests/host and tests/mpy on CPython), micropython (tests/mpy_run.py),
# board and web (below).
test: $(STAMP)
	$(PY) tools/testrun.py

# The everyday run: lint, pytest and micropython, without the board and web stages.
check: $(STAMP)
	$(PY) tools/testrun.py --check

# The board stage: MicroPython's own rp2 port, built with the firmware frozen
# in (tools/uf2.py), on an emulated RP2040 (emulator/, node + rp2040js from
# npm). Without the arm toolchain or node its tests skip with a one-line
# reason; .ci/run installs both and sets DICETRAY_BOARD_REQUIRED=1, which
# turns a skip into a failure (docs/emulator.md).
test-board: $(STAMP)
	$(PY) tools/testrun.py board

# The web page in a real headless browser: Debian's chromium and its
# chromedriver driven by selenium (tests/web). Without chromium, chromedriver,
# node or npm its tests skip with a one-line reason; .ci/run installs them and
# sets DICETRAY_WEB_REQUIRED=1, which turns a skip into a failure.
test-web: $(STAMP)
	$(PY) tools/testrun.py web

# The tray in a web page: a static site in build/web/ (MicroPython's
# WebAssembly port from npm, pinned in web/package-lock.json, the firmware as
# .mpy, the page); `dicetray sim --web` serves it on 127.0.0.1.
web: $(STAMP)
	cd web && npm ci --no-audit --no-fund --loglevel=error
	$(PY) tools/web.py

# The enclosure (hardware/enclosure.py, docs/hardware.md): STEP and STL of
# each printed part, the assembly and two PNG renders in build/enclosure/,
# the parts for the SH1106 1.3" OLED in build/enclosure/sh1106/. Refuses a
# table its checks find a problem in. Other parts: see --help.
enclosure: $(STAMP)
	$(PY) hardware/enclosure.py --out build/enclosure
	$(PY) hardware/enclosure.py --out build/enclosure/sh1106 --oled sh1106 --no-renders

# Every picture in docs/img, made again from the code as it is: the simulator's
# screenshot, the 80x24 terminal and watch, the hub's page, the web page (built
# first) and the enclosure's renders (tools/docshots.py; needs chromium).
docs: web
	$(PY) tools/docshots.py

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

# The release images: build/uf2/dicetray-rpi_pico.uf2 and dicetray-rpi_pico2.uf2
# (tools/uf2.py --help: one board, --stock, --jobs N).
uf2:
	$(PYTHON) tools/uf2.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
