"""The bench board (`make bench`, runs on MicroPython): the real SSD1306
driver over an I2C bus that drops what it is sent, LEDs that take frames and drop
them, keys and time set by the measuring code, and flash that is either
the benchmark's image directory mounted at /dicetray (read only: boot and
key figures; bench/device.py mounts it) or a FlashSim (the long session,
which writes).

Imported as part of every boot measured, as a board profile (hw/pico.py)
is imported by a board's boot.
"""

from hw.ssd1306 import SSD1306
from store import OsFs


class Bus:
    """machine.I2C's writeto(addr, buf), dropped. On a board it is a C
    function (its cost is bus time, not bytecode), so here it is one too:
    a bound builtin that takes two arguments and does nothing with them,
    rather than a Python method whose call would cost a few thousand fuel
    a transaction that no board spends. The driver counts the bytes."""

    def __init__(self):
        self.writeto = {}.get


class Leds:
    n = 12

    def write(self, rgb):
        pass


class Flash(OsFs):
    """The image directory through the VM's VFS: C-level file access, as a
    board's littlefs mount; it says littlefs, which it stands in for."""

    kind = "littlefs"


class BenchBoard:
    name = "bench"

    def __init__(self, fs=None):
        self.i2c = Bus()
        self.display = SSD1306(128, 64, self.i2c)
        self.leds = Leds()
        self.fs = fs if fs is not None else Flash()
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


def press(app, board, key):
    """A tap as the buttons see it: down, stable past the debounce, then up."""
    board.raw = key
    app.step()
    board.now += 30
    app.step()
    board.raw = 0
    app.step()
    board.now += 30
    app.step()
