"""Adafruit MacroPad RP2040 board profile.

Pins from hw/pins.py (MACROPAD, after CircuitPython's board definition):
12 key switches GP1..GP12 (to GND, pull-ups), rotary encoder A/B on
GP17/GP18 with its push switch on GP0, 12 NeoPixels (one per key) on GP19,
an SH1106 128x64 OLED on SPI1 (SCK GP26, MOSI GP27; CS GP22, RST GP23,
DC GP24), speaker GP16 with amplifier enable GP14 (kept off).

Keys (3 x 4, KEY1 top left):   BACK  UP    -
                               LEFT  OK    RIGHT
                               -     DOWN  -
                               ROLL  ROLL  ROLL
The 12 key LEDs are the ring: ring LED i is the LED under KEY i+1, so a
talisman dial fills in reading order.

Encoder -> key events: `keys()` turns every detent into a short pulse of a
key bit that ui/buttons.py debounces like a real press: clockwise K_DOWN,
anticlockwise K_UP (menus move); with the encoder pushed in, clockwise
K_RIGHT and anticlockwise K_LEFT (pool sizes and values change). A push
released without turning is a tap of K_OK. `encoder()` also gives the raw
position in detents for a screen that wants it. `encoder=-1` in
/config.txt reverses the direction.
"""

from hw import pins
from hw.keys import K_DOWN, K_LEFT, K_OK, K_RIGHT, K_UP
from hw.leds import NeoPixelLeds
from hw.pico import Board as PicoBoard, config



def ticks_diff(a, b):
    """time.ticks_diff for ticks wrapping at 2**30 (also runs on CPython)."""
    return ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)

HOLD_MS = 22   # a pulse phase lasts until a poll has seen it this long
               # (ui/buttons.py debounces 20 ms)
QLEN = 4       # pending pulses; more detents than this are dropped, so a
               # fast spin does not leave a long backlog

# Quadrature transition table, index (old AB << 2) | new AB: +1 one way
# along 00 -> 10 -> 11 -> 01 -> 00, -1 the other, 0 for no move or a
# skipped (invalid) transition.
_TT = (0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0)
_REST = 3      # both lines high (pull-ups): the detent position


class Encoder:
    """Quadrature decoder: feed it the A and B levels (from pin IRQs or a
    poll); `pos` counts detents. A step is counted when the lines come back
    to the detent with at least half a cycle moved, so contact bounce
    (+1 -1 +1 ...) cancels out."""

    def __init__(self, a=1, b=1, sign=1):
        self.s = (a << 1) | b
        self.acc = 0
        self.pos = 0
        self.sign = sign

    def update(self, a, b):
        """New line levels; returns the detents moved (-1, 0, 1)."""
        n = (a << 1) | b
        if n == self.s:
            return 0
        self.acc += _TT[(self.s << 2) | n]
        self.s = n
        if n != _REST:
            return 0
        d = 0
        if self.acc >= 2:
            d = self.sign
        elif self.acc <= -2:
            d = -self.sign
        self.acc = 0
        self.pos += d
        return d


class Board(PicoBoard):
    """The MacroPad tray (see hw/board.py for the interface)."""

    name = "macropad"
    PINS = pins.BOARDS["macropad"]

    def __init__(self):
        import machine
        Pin = machine.Pin
        self.machine = machine
        P = self.PINS
        self._setup_keys(Pin, pins.keys(P))
        Pin(pins.gpio(P, "SPK_EN"), Pin.OUT, value=0)  # amplifier off: no hiss
        sign = -1 if config("encoder", "1") == "-1" else 1
        self.enc = Encoder(1, 1, sign)
        self._ea = Pin(pins.gpio(P, "ENC_A"), Pin.IN, Pin.PULL_UP)
        self._eb = Pin(pins.gpio(P, "ENC_B"), Pin.IN, Pin.PULL_UP)
        self._esw = Pin(pins.gpio(P, "ENC_SW"), Pin.IN, Pin.PULL_UP)
        self.enc.s = (self._ea.value() << 1) | self._eb.value()
        self._taken = 0  # encoder position already turned into pulses
        h = self._edge
        self._ea.irq(h, Pin.IRQ_RISING | Pin.IRQ_FALLING)
        self._eb.irq(h, Pin.IRQ_RISING | Pin.IRQ_FALLING)
        self._q = bytearray(QLEN)  # pending pulse key bits
        self._qn = 0
        self._qh = 0
        self._bit = 0       # key bit of the pulse phase shown now (0: gap)
        self._phase = 0     # 0 none, 1 pulse, 2 gap after it
        self._t0 = 0
        self._seen = False
        self._sw = 0        # encoder switch: debounced state
        self._sw_raw = 0
        self._turned = False
        self.display = self._display(machine)
        self.leds = NeoPixelLeds(pins.gpio(P, "PIXELS"), pins.MACROPAD_LEDS)
        import os
        self.fs = os
        from hw.pico import UsbSerial
        self.serial = UsbSerial()

    def _display(self, machine):
        from hw.sh1106 import SH1106_SPI
        Pin = machine.Pin
        P = self.PINS
        bus, baud = pins.MACROPAD_SPI
        # miso given explicitly: GP28 is the MacroPad's SPI1 RX line, so
        # the SPI never claims a default pin that is a key here.
        spi = machine.SPI(bus, baudrate=baud, polarity=0, phase=0,
                          sck=Pin(pins.gpio(P, "SCK")), mosi=Pin(pins.gpio(P, "MOSI")),
                          miso=Pin(pins.gpio(P, "MISO")))
        return SH1106_SPI(128, 64, spi, Pin(pins.gpio(P, "OLED_DC")),
                          Pin(pins.gpio(P, "OLED_RST")), Pin(pins.gpio(P, "OLED_CS")))

    def _edge(self, _pin):
        # IRQ handler: decode without allocating. Only it writes enc.pos and
        # only keys() writes _taken, so a soft IRQ between them loses nothing.
        self.enc.update(self._ea.value(), self._eb.value())

    def encoder(self):
        """Encoder position in detents since boot (clockwise positive)."""
        return self.enc.pos

    def _push(self, bit):
        if self._qn < QLEN:
            self._q[(self._qh + self._qn) % QLEN] = bit
            self._qn += 1

    def _switch(self, now):
        """Encoder push: hold-to-shift; a release without turning is K_OK."""
        raw = 0 if self._esw.value() else 1
        if raw != self._sw_raw:        # two equal reads in a row to change
            self._sw_raw = raw
            return
        if raw == self._sw:
            return
        self._sw = raw
        if raw:
            self._turned = False
        elif not self._turned:
            self._push(K_OK)

    def _pulse(self, now):
        """The key bit of the pulse train at this poll. A phase (pulse or
        gap) ends at the poll after one that saw it HOLD_MS long, so
        ui/buttons.py always accepts each edge."""
        if self._phase:
            if self._seen:
                if self._phase == 1:
                    self._phase = 2
                    self._bit = 0
                else:
                    self._phase = 0
                self._t0 = now
                self._seen = False
            elif ticks_diff(now, self._t0) >= HOLD_MS:
                self._seen = True
        if not self._phase and self._qn:
            self._bit = self._q[self._qh]
            self._qh = (self._qh + 1) % QLEN
            self._qn -= 1
            self._phase = 1
            self._t0 = now
            self._seen = False
        return self._bit

    def poll_encoder(self):
        """Sample the encoder lines (the IRQs normally do it; cheap if not)."""
        self._edge(None)

    def keys(self):
        """Raw key mask: the 12 switches plus the encoder's pulses."""
        now = self.ticks_ms()
        m = PicoBoard.keys(self)
        self._switch(now)
        s = self.enc.pos - self._taken
        if s:
            self._taken += s
            shift = self._sw
            if shift:
                self._turned = True
            while s > 0:
                self._push(K_RIGHT if shift else K_DOWN)
                s -= 1
            while s < 0:
                self._push(K_LEFT if shift else K_UP)
                s += 1
        return m | self._pulse(now)
