"""Skip or fail the board stage: MicroPython's own rp2 port, on an emulated RP2040.

Its tests need tools a user may not have (the arm toolchain to build the
image, node and npm for the emulator). Without one, a test is skipped with
a one-line reason; with DICETRAY_BOARD_REQUIRED=1 (set by .ci/run) a
missing tool fails the test instead, so CI always runs the stage.
"""
import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

REQUIRED = os.environ.get("DICETRAY_BOARD_REQUIRED") == "1"

# What each tool is for and how a user gets it, for the one-line reason.
TOOLS = {
    "arm-none-eabi-gcc": "the arm toolchain builds the rp2 image: apt-get install "
                         "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib",
    "cmake": "cmake builds the rp2 image: apt-get install cmake",
    "node": "node runs the emulated RP2040: apt-get install nodejs npm",
    "npm": "npm installs the emulator (rp2040js): apt-get install npm",
}


def missing(*tools):
    """The one-line reason the first of `tools` not on PATH gives, or None."""
    gone = [t for t in tools if shutil.which(t) is None]
    if not gone:
        return None
    return "board stage: %s not found (%s)" % (gone[0], TOOLS.get(gone[0], "install it"))


def require(*tools):
    """Skip (or, in CI, fail) unless every tool is on PATH."""
    reason = missing(*tools)
    if reason is None:
        return
    if REQUIRED:
        pytest.fail(reason + "; DICETRAY_BOARD_REQUIRED=1 makes this a failure", pytrace=False)
    pytest.skip(reason)
