"""The web page's board: MicroPython's WebAssembly port in a browser.

`make web` builds the page (web/, docs/simulator.md "In a web page"); its
JavaScript (web/dicetray.js) owns the canvas, the on-page keys and the
browser's storage, and this profile only shares memory with it: the page
reads and writes a few bytes at addresses it gets once (`Board.addrs()`),
so a frame costs no call from Python to JavaScript at all.

- Keys: the page writes the pressed-key mask (hw/keys.py bits) into
  `io[IO_KEYS]`; `keys()` returns it. A page's key is a clean event (a
  keyboard or pointer event, no contact to bounce), and the page steps the
  app at once on every change of the mask, so in real time the board says
  `debounce = 0` (hw/board.py): the step that sees a key down takes it and
  draws its frame. In virtual time it says nothing: the buttons' 20 ms, as
  the desktop simulator's scripted runs, whose frames a script reproduces.
- Display: the real SSD1306 driver (hw/ssd1306.py) over a bus that sends
  nothing anywhere (`PageI2C`); the page draws the driver's shadow of the
  panel RAM (exactly what the driver sent), when `io[IO_FRAME]` moved.
  The bus keeps the controller commands the page needs to draw like the
  panel would: display on/off, contrast, inversion.
- LEDs: `leds.write(rgb)` keeps the 3*n bytes; `io[IO_RING]` moves when
  they changed.
- Flash: `/flash` in the port's in-memory filesystem (`WebFS`), filled by
  the page from the browser's storage before boot; `io[IO_FLASH]` is set
  whenever a file may have changed, and the page saves the changed files.
- The loop: a browser tab must not block, so main.py hands the app to
  `steps(app)` instead of running App.run, and the page calls `tick()`,
  one App.step, then waits the ms it returns (a timer) before the next.
- Clock: the port's time.ticks_ms(), or a virtual clock (the page's
  `virtual` option, for scripts and tests) that moves only by the ms each
  tick returns, as the desktop simulator's does in scripted runs.
- Serial: none (a page has no port the host tool could open): reads
  return nothing, writes go nowhere.

The page's options arrive in /web/board.json (written by the page before
boot): {"seed": N, "virtual": bool}.
"""

import gc
import json
import os
import random
import time
import uctypes

from hw.ssd1306 import SSD1306

TICKS_MASK = (1 << 30) - 1
ROOT = "/flash"         # the flash in the in-memory filesystem
OPTIONS = "/web/board.json"

# Bytes of Board.io, shared with the page (web/dicetray.js reads them by
# address after each tick).
IO_KEYS = 0    # written by the page: pressed-key mask
IO_POWER = 1   # panel on (1) or off (0): the driver's 0xAF/0xAE
IO_CONTRAST = 2
IO_INVERT = 3
IO_FRAME = 4   # +1 (mod 256) at every data write to the panel
IO_RING = 5    # +1 (mod 256) when the LED colours changed
IO_FLASH = 6   # 1: a file may have changed (the page clears it once saved)
IO_SIZE = 8


class PageI2C:
    """The display bus: data writes go nowhere (the page reads the
    driver's shadow of the panel RAM); command writes of one or two bytes
    are read for display on/off, contrast and inversion."""

    def __init__(self, io):
        self.io = io
        io[IO_CONTRAST] = 0x7F

    def writeto(self, addr, buf, stop=True):
        io = self.io
        if buf[0] == 0x40:
            io[IO_FRAME] = (io[IO_FRAME] + 1) & 0xFF
        elif buf[0] == 0x00 and len(buf) <= 3:
            c = buf[1]
            if c == 0xAE or c == 0xAF:
                io[IO_POWER] = c & 1
            elif c == 0xA6 or c == 0xA7:
                io[IO_INVERT] = c & 1
            elif c == 0x81 and len(buf) == 3:
                io[IO_CONTRAST] = buf[2]
            io[IO_FRAME] = (io[IO_FRAME] + 1) & 0xFF
        return len(buf)


class Leds:
    """The LED ring: `write(rgb)` keeps 3*n bytes R,G,B for the page."""

    def __init__(self, n, io):
        self.n = n
        self.io = io
        self.rgb = bytearray(3 * n)

    def write(self, rgb):
        if len(rgb) != 3 * self.n:
            raise ValueError("leds.write needs %d bytes (R,G,B x %d), got %d"
                             % (3 * self.n, self.n, len(rgb)))
        if rgb != self.rgb:
            self.rgb[:] = rgb
            self.io[IO_RING] = (self.io[IO_RING] + 1) & 0xFF


class WebFS:
    """The store's fs interface (store/fs.py) over the port's in-memory
    filesystem under ROOT, telling the page when a file may have changed.
    Renames there are atomic, as on a host."""

    kind = "host"

    def __init__(self, io):
        self.io = io

    def _p(self, path):
        return ROOT + path if path[:1] == "/" else ROOT + "/" + path

    def open(self, path, mode="r"):
        if "r" not in mode or "+" in mode:
            self.io[IO_FLASH] = 1
        return open(self._p(path), mode)

    def sync(self, f):
        f.flush()
        self.io[IO_FLASH] = 1

    def rename(self, a, b):
        os.rename(self._p(a), self._p(b))
        self.io[IO_FLASH] = 1

    def remove(self, path):
        os.remove(self._p(path))
        self.io[IO_FLASH] = 1

    def listdir(self, path="/"):
        return os.listdir(self._p(path))

    def stat(self, path):
        return os.stat(self._p(path))

    def size(self, path):
        try:
            return os.stat(self._p(path))[6]
        except OSError:
            return -1

    def mkdir(self, path):
        try:
            os.mkdir(self._p(path))
            self.io[IO_FLASH] = 1
        except OSError:
            pass  # already there

    def rmdir(self, path):
        os.rmdir(self._p(path))
        self.io[IO_FLASH] = 1


class NoSerial:
    """A page has no serial port the host tool could open."""

    def read_into(self, buf):
        return 0

    def write(self, b):
        return len(b)

    def kbd_intr(self, c):
        pass


def _options():
    try:
        f = open(OPTIONS)
    except OSError:
        return {}
    try:
        return json.loads(f.read())
    finally:
        f.close()


class Board:
    """The board in a web page (see hw/board.py for the interface)."""

    name = "web"

    def __init__(self):
        opts = _options()
        self.io = bytearray(IO_SIZE)
        self._virtual = bool(opts.get("virtual", False))
        if not self._virtual:
            self.debounce = 0  # clean keys, taken at the step that sees them
        self._now = 0
        self._seed = opts.get("seed")
        if self._seed is None:
            self._seed = self.entropy()
        self._seed &= TICKS_MASK
        try:
            os.mkdir(ROOT)
        except OSError:
            pass  # the page filled it from the browser's storage
        self.display = SSD1306(128, 64, PageI2C(self.io))
        self.leds = Leds(12, self.io)
        self.fs = WebFS(self.io)
        self.serial = NoSerial()
        self.app = None

    def addrs(self):
        """The addresses the page reads and writes: io, panel RAM, LED bytes."""
        return (uctypes.addressof(self.io), uctypes.addressof(self.display._shadow),
                uctypes.addressof(self.leds.rgb), self.leds.n)

    def keys(self):
        """Raw pressed-key bitmask (hw/keys.py bits), as the page holds it now."""
        return self.io[IO_KEYS]

    def ticks_ms(self):
        if self._virtual:
            return self._now
        return time.ticks_ms()

    def idle(self, ms):
        """Only a blocking loop (not the app's) calls this: it busy-waits
        (the port cannot yield to the browser from inside a call)."""
        if self._virtual:
            self._now = (self._now + ms) & TICKS_MASK
        else:
            time.sleep_ms(ms)

    def steps(self, app):
        """main.py: the page runs the app, one tick() at a time."""
        self.app = app
        gc.collect()  # boot's garbage, as App.run does before its loop

    def tick(self):
        """One App.step; returns the ms the page waits before the next
        (in virtual time the clock moves by exactly that)."""
        ms = self.app.step()
        if self._virtual:
            self._now = (self._now + ms) & TICKS_MASK
        return ms

    def seed(self):
        """The page's `seed` option, else random; each later call the next
        number of the desktop simulator's sequence (same seed, same dice)."""
        s = self._seed
        self._seed = (s * 1103515245 + 12345) & TICKS_MASK
        return s

    def entropy(self):
        """An int < 2**30 for ids (device, campaign): the port's random
        module, seeded from the browser's crypto.getRandomValues (the port
        has no os.urandom)."""
        return random.getrandbits(30)
