"""Device figures for `make bench`: boot, key to frame, redraw, heap.

The firmware (compiled to .mpy) runs on MicroPython with a bench board: the
real SSD1306 driver over a counting I2C bus, the real session and store on
the flash simulator (tests/mpy/flashsim.py), keys and time driven by the
measuring code. The 10,000-event campaign is made on CPython by the same
session code the board runs, and its flash image loaded into the VM.
"""

import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE = os.path.join("build", "bench-flash.bin")

BOARD = """
import gc, struct
from flashsim import FlashSim
from i2cdecode import CountingI2C
from hw.ssd1306 import SSD1306
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from ui import screen


class Leds:
    n = 12

    def write(self, rgb):
        pass


class BenchBoard:
    name = 'bench'

    def __init__(self, fs):
        self.i2c = CountingI2C()
        self.display = SSD1306(128, 64, self.i2c)
        self.leds = Leds()
        self.fs = fs
        self.raw = 0
        self.now = 0

    def keys(self):
        return self.raw

    def ticks_ms(self):
        return self.now

    def idle(self, ms):
        self.now += ms

    def seed(self):
        return 12345


def load_image(path):
    fs = FlashSim()
    f = open(path, 'rb')
    data = f.read()
    f.close()
    i = 0
    while i < len(data):
        kind, n = struct.unpack_from('<BH', data, i)
        i += 3
        name = str(data[i:i + n], 'utf-8')
        i += n
        if kind == 0:
            fs.dirs.add(name)
            continue
        m = struct.unpack_from('<I', data, i)[0]
        i += 4
        fs.files[name] = bytearray(data[i:i + m])
        fs.synced[name] = m
        i += m
    return fs


def press(app, board, key):
    # A tap as the buttons see it: down, stable past the debounce, then up.
    board.raw = key
    app.step()
    board.now += 30
    app.step()
    board.raw = 0
    app.step()
    board.now += 30
    app.step()
"""

BOOTED = BOARD + """
FS = load_image('/input/{image}')
B = BenchBoard(FS)
from session import Session
from ui.app import App
A = App(B, Session(B))
A.step()
"""


def make_image(events=10_000):
    """Write the flash image of a hunt campaign with `events` events."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "mpy"))
    from flashsim import FlashSim
    from session import Session
    from rules import hunt

    class Board:
        name = "bench"

        def __init__(self):
            self.fs = FlashSim()

        def seed(self):
            return 12345

    b = Board()
    s = Session(b)
    for name in ("Ada", "Bo", "Cy", "Di"):
        s.do(3, (), name)  # CHAR_ADD
    s.do(hunt.NEW_HUNT, (2, 0))
    cycle = ((hunt.ROLL, (0, 2, 1, 0, 0, 0, -1)), (hunt.ROLL, (1, 3, 2, 0, 0, 1, -1)),
             (hunt.RISK, (2,)), (hunt.SCENE_END, (0,)), (1, ()), (hunt.ROLL, (3, 1, 1, 0, 0, 0, -1)))
    k = 0
    while s.st.seq < events:
        kind, args = cycle[k % len(cycle)]
        k += 1
        try:
            s.do(kind, args)
        except ValueError:
            pass
    out = bytearray()
    for d in sorted(b.fs.dirs):
        name = d.encode()
        out += struct.pack("<BH", 0, len(name)) + name
    for p in sorted(b.fs.files):
        name, data = p.encode(), bytes(b.fs.files[p])
        out += struct.pack("<BH", 1, len(name)) + name + struct.pack("<I", len(data)) + data
    path = os.path.join(ROOT, IMAGE)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(out)
    return s.st.seq, len(out)


def heap_session(actions):
    """Code that plays a long session and prints the live-heap high-water."""
    return BOOTED.format(image=IMAGE) + """
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
print('HIGH', top, A.s.st.seq, 'FLASH', flash)
""" % actions
