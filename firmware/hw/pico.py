"""DIY Raspberry Pi Pico / Pico 2 (RP2040 / RP2350) board profile.

Pins come from hw/pins.py (PICO): a 128x64 SSD1306 or SH1106 on I2C0
(GP4 SDA, GP5 SCL, 400 kHz), seven buttons to GND with the internal
pull-ups, a 12-LED WS2812 ring on GP22, an optional piezo on GP18.

/config.txt on the flash may hold, one per line:
    board=pico          (read by hw/board.py)
    display=sh1106      (default ssd1306: both answer at 0x3C, the bus
                         cannot tell them apart)
    i2c=1000000         (the OLED's I2C clock in Hz, 100000..1000000;
                         default 400000, the SSD1306's and SH1106's
                         datasheet maximum. Most modules take 1 MHz, which
                         sends a full frame in 9 ms instead of 22: a roll's
                         result comes that much sooner. A value out of
                         range or not a number is ignored: 400 kHz)
    leds=0              (no ring fitted: NullLeds)
    dma=0               (the OLED's frames sent with writeto, a byte at a
                         time, instead of by DMA: hw/i2cdma.py)
"""

import os
import time

from hw import pins
from hw.leds import NeoPixelLeds, NullLeds


def config(key, default=None, opener=open):
    """The value of `key=` in /config.txt, else `default`."""
    try:
        f = opener("/config.txt", "r")
    except OSError:
        return default
    try:
        for line in f.read().split("\n"):
            line = line.strip()
            if line.startswith(key + "="):
                return line[len(key) + 1:].strip() or default
    finally:
        f.close()
    return default


def i2c_hz(text, default):
    """The I2C clock /config.txt's i2c= asks for, if it is a number of Hz
    from 100 kHz to 1 MHz (the RP2040's Fast-mode Plus), else `default`."""
    try:
        hz = int(text)
    except (TypeError, ValueError):
        return default
    return hz if 100000 <= hz <= 1000000 else default


class UsbSerial:
    """The USB CDC port (MicroPython's stdin/stdout), non-blocking reads.
    The poll object is made on first use, so building a Board never
    touches stdin."""

    def __init__(self):
        self._poll = None

    def read_into(self, buf):
        """Copy up to len(buf) waiting bytes into buf without blocking; returns n."""
        import sys
        p = self._poll
        if p is None:
            import select
            p = self._poll = select.poll()
            p.register(sys.stdin, select.POLLIN)
        n = 0
        inp = sys.stdin.buffer  # bytes, not text: the link protocol is binary
        while n < len(buf) and p.poll(0):
            c = inp.read(1)
            if not c:
                break
            buf[n] = c[0]
            n += 1
        return n

    def write(self, b):
        """Send bytes to the host."""
        import sys
        sys.stdout.buffer.write(b)
        return len(b)


class Board:
    """The DIY Pico tray (see hw/board.py for the interface)."""

    name = "pico"
    PINS = pins.BOARDS["pico"]

    def __init__(self):
        import machine
        self.machine = machine
        self._setup_keys(machine.Pin, pins.keys(self.PINS))
        self.display = self._display(machine)
        self.leds = self._leds(machine)
        self.fs = os
        self.serial = UsbSerial()

    def _setup_keys(self, Pin, keymap):
        """Inputs with pull-ups; keys() reads them (active low). Each also
        notes its falling edge (a press) for fell(): a tap the app could
        not poll because it was busy (ui/buttons.py)."""
        self._kpins = tuple(Pin(g, Pin.IN, Pin.PULL_UP) for g, _b in keymap)
        self._kbits = tuple(b for _g, b in keymap)
        self._fell = 0
        irq = getattr(Pin, "IRQ_FALLING", None)
        if irq is not None:
            for i in range(len(self._kpins)):
                self._kpins[i].irq(self._noter(self._kbits[i]), irq)

    def _noter(self, bit):
        def fell(pin):
            self._fell |= bit    # a soft IRQ: runs between bytecodes, allocates nothing
        return fell

    def fell(self):
        """The keys pressed (a falling edge) since the last call, then 0."""
        m = self._fell
        self._fell = 0
        return m

    def _display(self, machine):
        bus, freq = pins.PICO_I2C
        freq = i2c_hz(config("i2c"), freq)
        i2c = machine.I2C(bus, sda=machine.Pin(pins.gpio(self.PINS, "SDA")),
                          scl=machine.Pin(pins.gpio(self.PINS, "SCL")), freq=freq)
        found = i2c.scan()
        addr = 0x3D if 0x3D in found and 0x3C not in found else 0x3C
        if addr not in found:
            raise RuntimeError("no OLED on I2C%d (GP%d SDA, GP%d SCL): found %r; check "
                               "wiring and power" % (bus, pins.gpio(self.PINS, "SDA"),
                                                     pins.gpio(self.PINS, "SCL"), found))
        dma = self._dma(bus, addr)
        if config("display", "ssd1306") == "sh1106":
            from hw.sh1106 import SH1106
            return SH1106(128, 64, i2c, addr, dma=dma)
        from hw.ssd1306 import SSD1306
        return SSD1306(128, 64, i2c, addr, dma=dma)

    def _dma(self, bus, addr):
        """The pages sent by DMA (hw/i2cdma.py: the CPU stages the next page
        while the bus sends one), unless /config.txt says dma=0 or this
        MicroPython has no rp2.DMA (writeto then, a byte at a time)."""
        if config("dma", "1") == "0":
            return None
        try:
            from hw.i2cdma import I2cDma
        except (ImportError, SyntaxError, ValueError):
            # Not an RP2040 (ImportError); a MicroPython without the native
            # emitter its staging needs (SyntaxError: the tests' WASI build)
            # or a deployed .mpy of it for another CPU (ValueError). The
            # board's tests check that its frames go by DMA
            # (tests/board/test_frames.py).
            return None
        return I2cDma(bus, addr)

    def _leds(self, machine):
        if config("leds", "1") == "0":
            return NullLeds(pins.PICO_LEDS)
        return NeoPixelLeds(pins.gpio(self.PINS, "RING"), pins.PICO_LEDS)

    def keys(self):
        """Raw bitmask of the pressed keys (hw/keys.py bits): a pressed
        button pulls its pin to GND."""
        m = 0
        kb = self._kbits
        i = 0
        for p in self._kpins:
            if not p.value():
                m |= kb[i]
            i += 1
        return m

    def ticks_ms(self):
        """time.ticks_ms(): wraps at 2**30, compare with ticks_diff."""
        return time.ticks_ms()

    def idle(self, ms):
        """Wait until the next poll."""
        time.sleep_ms(ms)

    def unique_id(self):
        """The chip's unique id as hex text (its flash chip's: the device id)."""
        from binascii import hexlify
        return hexlify(self.machine.unique_id()).decode()

    def seed(self):
        """A PRNG seed < 2**30 from the chip's hardware entropy."""
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24)

    def entropy(self):
        """A number < 2**30 for a new campaign's id (Session._cid): the
        hardware entropy, as seed(), mixed with the flash chip's unique id.
        On a chip this is as random as seed() (XOR with a constant); on
        emulated boards, whose ring oscillator a --seed fixes, it still
        differs from board to board (each flash image has its own
        id). Small ints only."""
        u = 0
        for ch in self.unique_id():
            u = (u & 0x7FFFFF) * 33 + ord(ch)
        return (self.seed() ^ u) & 0x3FFFFFFF
