"""What the board stage's tests stand on: the images (built by tools/uf2.py
when missing or older than their inputs) and emulated boards.

`image()` is the release image with the firmware frozen in; `image(stock=True)`
plain MicroPython for `dicetray deploy`. Both need the arm toolchain; every
emulated board needs node (need.py skips, or fails in CI, without them).
"""
import contextlib
import json
import os

import need

from tools import uf2


def image(stock=False, board="RPI_PICO"):
    """Path of a current image for `board`, building it if its inputs changed."""
    path = uf2.image_path(board, stock)
    try:
        with open(path[:-4] + ".json", encoding="utf-8") as f:
            current = json.load(f)["input_sha256"] == uf2.input_hash(stock)
    except (OSError, ValueError, KeyError):
        current = False
    if not (current and os.path.isfile(path)):
        need.require("arm-none-eabi-gcc", "cmake")
        uf2.build(board, stock=stock, log=lambda *a: None)
    return path


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
