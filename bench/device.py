"""Device figures for `make bench`: boot, key to frame, redraw, heap.

The firmware (compiled to .mpy) runs on MicroPython on the bench board
(bench/benchboard.py): the real SSD1306 driver over a counting I2C bus, the
real session, store and app. The 10,000-event campaign is made on CPython
by the same session code the board runs, written out as a directory and
mounted at the firmware's flash root (/dicetray) through the VM's own
filesystem, as a board mounts its littlefs. The long session, which
writes, runs on the flash simulator (tests/mpy/flashsim.py) instead.
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Setup shared by every device figure: nothing of the firmware is imported
# yet, so a boot measured from here imports all it needs.
MOUNT = "import gc, os, vfs\nvfs.mount(os.VfsPosix('/input/build/%s/dicetray'), '/dicetray')\n"
MOUNTED = MOUNT % "bench-flash"

# What main.py does on a board (less detect(): the board is given, and
# the serial link, which waits for a host: link/waiting.py), with its
# reserve at the bottom of the heap, freed once the app is built.
BOOT = """_low = bytearray(4096)
from benchboard import BenchBoard, press
B = BenchBoard()
from session import Session
from ui.app import App
A = App(B, Session(B))
del _low
A.step()"""

KEYS = "\nfrom hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL\nfrom ui import screen\n"
BOOTED = MOUNTED + BOOT + KEYS


def booted(image):
    """Setup: the firmware booted on flash image directory build/<image>."""
    return MOUNT % image + BOOT + KEYS


def make_image(events=10_000, system=0, name="bench-flash", tail=0):
    """Write the flash directory build/<name> of a campaign of `system`
    with `events` events, then `tail` plain rolls after the newest
    snapshot (a boot replays those: session.SNAP_EVERY - 1 is the most
    it ever does); returns (events, events to replay, bytes on flash)."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "mpy"))
    from flashsim import FlashSim
    from session import SNAP_EVERY, Session
    from rules import hunt, paths, expedition as ex

    class Board:
        name = "bench"

        def __init__(self):
            self.fs = FlashSim()

        def seed(self):
            return 12345

    b = Board()
    s = Session(b)
    if system:
        s.new_campaign(system)
    for who in ("Ada", "Bo", "Cy", "Di"):
        s.do(3, (), who)  # CHAR_ADD
    if system == 0:
        s.do(hunt.NEW_HUNT, (2, 0))
        cycle = (
            (hunt.ROLL, (0, 2, 1, 0, 0, 0, -1)),
            (hunt.ROLL, (1, 3, 2, 0, 0, 1, -1)),
            (hunt.RISK, (2,)),
            (hunt.SCENE_END, (0,)),
            (1, ()),
            (hunt.ROLL, (3, 1, 1, 0, 0, 0, -1)),
        )
    elif system == 1:
        cycle = ((paths.TEST, (1, 2, 1, 0, 0, 2, 0)), (1, ()), (paths.TEST, (0, 3, 2, 0, 0, 3, 0)))
    else:
        cycle = ((ex.TURN, (0,)), (1, ()), (ex.TEST, (4, 3, 0, 0, 0, 0, 0, -1)))

    def do(kind, args):
        s.do(kind, args)
        while s.tidy():  # an idle moment after each action, as on the device
            pass

    k = 0
    while s.st.seq < events:
        kind, args = cycle[k % len(cycle)]
        k += 1
        try:
            do(kind, args)
        except ValueError:
            pass
    if tail:
        while s.st.seq % SNAP_EVERY:  # up to the next snapshot...
            do(*cycle[0])
        for _ in range(tail):  # ...then rolls only, no undo
            do(*cycle[0])
    top = os.path.join(ROOT, "build", name)
    shutil.rmtree(top, ignore_errors=True)
    for d in sorted(b.fs.dirs):
        os.makedirs(top + d, exist_ok=True)
    size = 0
    for p in sorted(b.fs.files):
        with open(top + p, "wb") as f:
            f.write(b.fs.files[p])
        size += len(b.fs.files[p])
    return s.st.seq, s.st.seq - max(s.st.snaps), size


def heap_session(actions):
    """Code that plays a long session on a writable copy of the image (the
    flash simulator) and prints the live-heap high-water."""
    return (
        MOUNTED
        + """
import os
from flashsim import FlashSim
FS = FlashSim()
def _copy(d):
    FS.dirs.add(d)
    for name in os.listdir(d):
        p = d + '/' + name
        if os.stat(p)[0] & 0x4000:
            _copy(p)
        else:
            f = open(p, 'rb')
            FS.files[p] = bytearray(f.read())
            f.close()
            FS.synced[p] = len(FS.files[p])
_copy('/dicetray')
from benchboard import BenchBoard, press
from hw.keys import K_DOWN, K_RIGHT, K_OK, K_BACK, K_UP, K_ROLL
B = BenchBoard(FS)
from session import Session
from ui.app import App
A = App(B, Session(B))
A.step()
gc.collect()
top = gc.mem_alloc()
keys = (K_ROLL, K_BACK, K_DOWN, K_OK, K_RIGHT, K_RIGHT, K_BACK, K_BACK, K_UP)
for i in range(%d):
    press(A, B, keys[i %% len(keys)])
    if i %% 3 == 0:
        gc.collect()  # at this top level: a safe point (docs/architecture.md)
        if gc.mem_alloc() > top:
            top = gc.mem_alloc()
flash = sum(len(b) for b in FS.files.values())
import sys
print('HIGH', top, A.s.st.seq, 'FLASH', flash)
print('MODS', ' '.join(sorted(sys.modules)))
"""
        % actions
    )
