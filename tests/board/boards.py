"""What the board stage's tests stand on: the images (built by tools/uf2.py
when missing or older than their inputs) and emulated boards.

`image()` is the release image with the firmware frozen in; `image(stock=True)`
plain MicroPython for `dicetray deploy`. Both need the arm toolchain; every
emulated board needs node (need.py skips, or fails in CI, without them).
`python tests/board/boards.py` (prepare()) makes both images and installs
the emulator once, before `make test` runs the stage's tests in two
processes (tools/testrun.py).
"""
import contextlib
import json
import os
import subprocess
import sys

import need

if __name__ == "__main__":  # make test's board stage runs this file: tools/ from the top
    sys.path.insert(0, need.ROOT)
from tools import uf2  # noqa: E402


# Seconds a test waits for the emulated board's work before calling the run
# hung: never a time the work must fit in (a loaded machine makes the
# emulator slower, not the test fail; docs/testing.md, "Under load").
HANG = 1800


def device(port, **kw):
    """dicetray.link's Device on the emulated board at `port`, waiting up to
    HANG for each answer: how soon an answer comes in wall time is the
    machine's load, not the firmware's (the stock client's 2 s is for a
    real board)."""
    from dicetray.link.client import Device

    return Device.open(port, timeout=HANG, **kw)


MPREMOTE = [sys.executable, "-m", "mpremote"]


def repl(em, code):
    """Run code on the emulated board's REPL through mpremote; returns its output."""
    r = subprocess.run(MPREMOTE + ["connect", em.port, "exec", code],
                       capture_output=True, text=True, timeout=HANG)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def current(stock=False, board="RPI_PICO", sram=None):
    """True if `board`'s image is built from today's inputs (its sidecar's hash)."""
    path = uf2.image_path(board, stock, sram=bool(stock and sram))
    try:
        with open(path[:-4] + ".json", encoding="utf-8") as f:
            same = json.load(f)["input_sha256"] == uf2.input_hash(stock, sram=sram)
    except (OSError, ValueError, KeyError):
        return False
    return same and os.path.isfile(path)


def image(stock=False, board="RPI_PICO", sram=None):
    """Path of a current image for `board`, building it if its inputs changed
    (sram=True with stock: the stock image with rp2/sram.txt's files in SRAM)."""
    if not current(stock, board, sram):
        need.require("arm-none-eabi-gcc", "cmake")
        uf2.build(board, stock=stock, log=lambda *a: None, sram=sram)
    return uf2.image_path(board, stock, sram=bool(stock and sram))


def node():
    """Skip (or fail in CI) without node and npm; install rp2040js if needed."""
    need.require("node", "npm")
    from dicetray.sim import rp2040
    rp2040.ensure_node()


@contextlib.contextmanager
def board(flash, uf2_path=None, **kw):
    """An emulated board on the release image (or `uf2_path`) with its flash
    image in the file `flash`; closed (quit) at the end. kw: Emulator's."""
    node()
    from dicetray.sim.rp2040 import Emulator
    em = Emulator(uf2_path or image(), str(flash), **kw)
    em.start()
    try:
        yield em
        assert not em.errors, "the firmware drove the board's parts wrongly: %s" % em.errors[:5]
    finally:
        em.close()


def prepare(log=print):
    """What the board tests share, made once before they run in parallel
    (tools/testrun.py runs this file first): both images current, the
    emulator's rp2040js installed. A tool missing for one is left to the
    tests, which skip (or fail in CI) naming it. Exit status 1 if a build
    failed."""
    import time

    build = need.missing("arm-none-eabi-gcc", "cmake")
    for stock in (False, True):
        what = "the stock image" if stock else "the release image"
        if current(stock):
            log("%s: current (%s)" % (what, os.path.relpath(uf2.image_path("RPI_PICO", stock), uf2.ROOT)))
        elif build:
            log("%s: not built, %s" % (what, build))
        else:
            t0 = time.monotonic()
            try:
                uf2.build("RPI_PICO", stock=stock, log=log)
            except uf2.Uf2Error as e:
                log("\n".join(e.tail))
                log("%s: the build failed: %s" % (what, e))
                return 1
            log("%s: built in %.0f s" % (what, time.monotonic() - t0))
    emu = need.missing("node", "npm")
    if emu:
        log("the emulator: not installed, %s" % emu)
    else:
        from dicetray.sim import rp2040
        rp2040.ensure_node()
        log("the emulator: rp2040js installed")
    return 0


if __name__ == "__main__":
    raise SystemExit(prepare())
