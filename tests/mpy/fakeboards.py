"""Fake `machine` and `neopixel` modules for the board profiles' tests
(tests/mpy/test_boards.py, tests/host/test_hardware.py): pins that share
levels by GPIO number, I2C and SPI buses that record what they are sent, a
NeoPixel strip, a display that records its texts; `Fakes` puts them into
sys.modules only while a test runs, and `make` builds a profile on them.
Runs on MicroPython and CPython."""
import sys

from hw import pins


class FakeMachine:
    """Stands in for `machine`: pins share levels by GPIO number."""
    levels = {}
    made = {}     # GPIO -> the last Pin object made for it
    log = []      # constructor calls of buses, for the assertions

    class Pin:
        IN = 0
        OUT = 1
        PULL_UP = 1
        IRQ_FALLING = 4
        IRQ_RISING = 8

        def __init__(self, gpio, mode=-1, pull=-1, value=None):
            self.id = gpio
            self.mode = mode
            self.pull = pull
            self.handler = None
            if value is not None:
                FakeMachine.levels[gpio] = value
            elif gpio not in FakeMachine.levels:
                # Inputs with a pull-up idle high, like the real pins.
                FakeMachine.levels[gpio] = 1 if pull == 1 else 0
            FakeMachine.made[gpio] = self

        def init(self, mode=-1, pull=-1, value=None):
            self.mode = mode
            if value is not None:
                FakeMachine.levels[self.id] = value

        def value(self, v=None):
            if v is None:
                return FakeMachine.levels[self.id]
            FakeMachine.levels[self.id] = v

        def __call__(self, v=None):
            return self.value(v)

        def irq(self, handler=None, trigger=0):
            self.handler = handler
            self.trigger = trigger

    class I2C:
        devices = [0x3C]

        def __init__(self, bus, sda=None, scl=None, freq=0):
            FakeMachine.log.append(("I2C", bus, sda.id, scl.id, freq))
            self.writes = []

        def scan(self):
            return list(FakeMachine.I2C.devices)

        def writeto(self, addr, buf, stop=True):
            self.writes.append((addr, bytes(buf)))
            return len(buf)

    class SPI:
        def __init__(self, bus, baudrate=0, polarity=0, phase=0, sck=None, mosi=None, miso=None):
            FakeMachine.log.append(("SPI", bus, baudrate, polarity, phase, sck.id, mosi.id,
                                    miso.id))
            self.frames = []   # (dc level, bytes) per chip-select frame

        def write(self, buf):
            assert FakeMachine.levels[pins.gpio(pins.MACROPAD, "OLED_CS")] == 0, "CS not low"
            dc = FakeMachine.levels[pins.gpio(pins.MACROPAD, "OLED_DC")]
            self.frames.append((dc, bytes(buf)))


class FakeNeoPixel:
    """MicroPython's neopixel.NeoPixel surface that hw/leds.py uses."""
    ORDER = (1, 0, 2, 3)
    made = []

    def __init__(self, pin, n):
        self.pin = pin
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)
        self.writes = 0
        FakeNeoPixel.made.append(self)

    def write(self):
        self.writes += 1


class FakeNeopixelModule:
    NeoPixel = FakeNeoPixel


class FakeDisplay:
    """The FrameBuffer calls the self-test and profiles make, recorded."""

    def __init__(self):
        self.shows = 0
        self.texts = []

    def fill(self, c):
        self.texts = []

    def fill_rect(self, x, y, w, h, c):
        pass

    def rect(self, x, y, w, h, c):
        pass

    def text(self, s, x, y, c=1):
        self.texts.append((s, c))

    def show(self):
        self.shows += 1


class Fakes:
    """Put the fakes into sys.modules; `restore()` puts back what was there."""
    NAMES = ("machine", "neopixel", "hw.pico", "hw.macropad")

    def __init__(self, display=False):
        self.saved = {}
        for k in self.NAMES:
            self.saved[k] = sys.modules.get(k)
        FakeMachine.levels = {}
        FakeMachine.made = {}
        FakeMachine.log = []
        FakeMachine.I2C.devices = [0x3C]
        FakeNeoPixel.made = []
        sys.modules["machine"] = FakeMachine
        sys.modules["neopixel"] = FakeNeopixelModule
        for k in ("hw.pico", "hw.macropad"):   # re-import against the fakes
            if k in sys.modules:
                del sys.modules[k]

    def restore(self):
        for k, v in self.saved.items():
            if v is None:
                if k in sys.modules:
                    del sys.modules[k]
            else:
                sys.modules[k] = v


def make(kind, real_display=False):
    """A profile on the fakes; its display is a FakeDisplay unless asked."""
    if kind == "pico":
        from hw.pico import Board
    else:
        from hw.macropad import Board

    class T(Board):
        def _display(self, machine):
            if real_display:
                return Board._display(self, machine)
            return FakeDisplay()

    b = T()
    b.now = 0
    b.ticks_ms = lambda: b.now
    return b


def level(gpio, v):
    """Set the level the fake pins read at GPIO `gpio`."""
    FakeMachine.levels[gpio] = v
