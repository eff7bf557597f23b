"""A model of the SSD1306 / SH1106 OLED controllers, fed I2C (or SPI) writes.

The simulator draws the panel from this model, so what it shows is what
the firmware's driver really sent over I2C; the driver tests decode their
captured traffic with it too. `Panel.feed(txn)` plays one I2C write into
the controller's RAM (addressing modes, column/page windows, pointer wrap);
`image()` returns the visible pixels laid out like a MONO_VLSB framebuffer
(byte (page, x) = 8 vertical pixels). It is strict: an unknown command, a
window command in the wrong addressing mode or a bad control byte raises
ValueError, so a driver bug cannot pass silently. Plain Python that also
runs on MicroPython (the driver tests run there).
"""

SSD1306 = "ssd1306"
SH1106 = "sh1106"

# Parameter bytes following each multi-byte command.
_PARAMS = {
    SSD1306: {
        0x81: 1,
        0x20: 1,
        0x21: 2,
        0x22: 2,
        0xA8: 1,
        0xD3: 1,
        0xDA: 1,
        0xD5: 1,
        0xD9: 1,
        0xDB: 1,
        0x8D: 1,
        0xAD: 1,
        0xA3: 2,
        0x26: 6,
        0x27: 6,
        0x29: 5,
        0x2A: 5,
    },
    SH1106: {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1},
}
_SINGLE = {
    SSD1306: (0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3),
    SH1106: (
        0x30,
        0x31,
        0x32,
        0x33,
        0xA0,
        0xA1,
        0xA4,
        0xA5,
        0xA6,
        0xA7,
        0xAE,
        0xAF,
        0xC0,
        0xC8,
        0xE0,
        0xEE,
        0xE3,
    ),
}
HORIZONTAL = 0
VERTICAL = 1
PAGE = 2


class Panel:
    """Model of an SSD1306 (`kind` SSD1306) or SH1106 controller."""

    def __init__(self, kind, width=128, height=64):
        if kind not in _PARAMS:
            raise ValueError("unknown controller %r" % (kind,))
        self.kind = kind
        self.width = width
        self.pages = height // 8
        self.cols = 132 if kind == SH1106 else 128
        self.col0 = 2 if kind == SH1106 else 0
        self.ram = bytearray(self.cols * 8)
        self.on = False
        self.contrast = 0x80 if kind == SH1106 else 0x7F
        self.inverted = False
        self.entire_on = False
        self.mode = PAGE  # both controllers reset into page addressing
        self.c0, self.c1, self.p0, self.p1 = 0, self.cols - 1, 0, 7
        self.col = 0
        self.page = 0
        self._pending = None  # [cmd, params wanted, params so far]
        self.data_bytes = 0
        self.cmd_bytes = 0

    # -- transactions ----------------------------------------------------
    def feed(self, txn):
        """Decode one I2C write (the bytes after the address)."""
        i = 0
        n = len(txn)
        if n == 0:
            raise ValueError("empty I2C write")
        while i < n:
            ctrl = txn[i]
            if ctrl & 0x3F:
                raise ValueError("bad control byte 0x%02x" % ctrl)
            data = ctrl & 0x40
            if ctrl & 0x80:  # Co=1: exactly one byte, then another control byte
                if i + 1 >= n:
                    raise ValueError("control byte without its byte")
                self._byte(txn[i + 1], data)
                i += 2
            else:  # Co=0: the rest of the write is one stream
                if i + 1 >= n:
                    raise ValueError("control byte without a stream")
                for b in txn[i + 1 :]:
                    self._byte(b, data)
                i = n

    def feed_spi(self, data, dc):
        """Play bytes sent over SPI (4-wire: the D/C pin, not control
        bytes, tells commands from data): dc=1 data, dc=0 commands."""
        for b in data:
            self._byte(b, dc)

    def play(self, log, addr=0x3C):
        """Feed every recorded transaction to `addr` from a RecordingI2C log."""
        for a, txn in log:
            if a == addr:
                self.feed(txn)

    def _byte(self, b, data):
        if data:
            if self._pending is not None:
                raise ValueError(
                    "data while command 0x%02x waits for parameters" % self._pending[0]
                )
            self._data(b)
        else:
            self.cmd_bytes += 1
            self._cmd_byte(b)

    # -- commands --------------------------------------------------------
    def _cmd_byte(self, b):
        pend = self._pending
        if pend is not None:
            pend[2].append(b)
            if len(pend[2]) == pend[1]:
                self._pending = None
                self._command(pend[0], pend[2])
            return
        want = _PARAMS[self.kind].get(b, 0)
        if want:
            self._pending = [b, want, []]
        else:
            self._command(b, ())

    def _command(self, c, a):
        k = self.kind
        if c <= 0x0F:  # column low nibble
            self._page_mode_only(c)
            self.col = (self.col & 0xF0) | c
        elif c <= 0x1F:  # column high nibble
            self._page_mode_only(c)
            self.col = ((c & 0x0F) << 4) | (self.col & 0x0F)
            if self.col >= self.cols:
                raise ValueError("column %d beyond RAM" % self.col)
        elif 0xB0 <= c <= 0xB7:  # page
            self._page_mode_only(c)
            self.page = c & 7
        elif 0x40 <= c <= 0x7F:
            pass  # start line
        elif c == 0x81:
            self.contrast = a[0]
        elif c in (0xAE, 0xAF):
            self.on = c == 0xAF
        elif c in (0xA6, 0xA7):
            self.inverted = c == 0xA7
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif k == SSD1306 and c == 0x20:
            if a[0] > 2:
                raise ValueError("bad addressing mode %d" % a[0])
            self.mode = a[0]
        elif k == SSD1306 and c == 0x21:
            self._window_mode_only(c)
            if not a[0] <= a[1] < 128:
                raise ValueError("bad column window %d..%d" % (a[0], a[1]))
            self.c0, self.c1 = a[0], a[1]
            self.col = a[0]
        elif k == SSD1306 and c == 0x22:
            self._window_mode_only(c)
            if not a[0] <= a[1] < 8:
                raise ValueError("bad page window %d..%d" % (a[0], a[1]))
            self.p0, self.p1 = a[0], a[1]
            self.page = a[0]
        elif c in _SINGLE[k] or c in _PARAMS[k]:
            pass  # configuration
        else:
            raise ValueError("%s: unknown command 0x%02x" % (k, c))

    def _page_mode_only(self, c):
        if self.mode != PAGE:
            raise ValueError("command 0x%02x needs page addressing" % c)

    def _window_mode_only(self, c):
        if self.mode == PAGE:
            raise ValueError("command 0x%02x needs horizontal/vertical addressing" % c)

    # -- data ------------------------------------------------------------
    def _data(self, b):
        self.data_bytes += 1
        if self.col < self.cols:
            self.ram[self.page * self.cols + self.col] = b
        if self.mode == PAGE:
            if self.kind == SH1106:
                if self.col < self.cols:  # stops past the last column
                    self.col += 1
            else:
                self.col = (self.col + 1) % 128
        elif self.mode == HORIZONTAL:
            self.col += 1
            if self.col > self.c1:
                self.col = self.c0
                self.page = self.p0 if self.page >= self.p1 else self.page + 1
        else:
            self.page += 1
            if self.page > self.p1:
                self.page = self.p0
                self.col = self.c0 if self.col >= self.c1 else self.col + 1

    def image(self):
        """The visible pixels as a MONO_VLSB buffer (width * pages bytes)."""
        w = self.width
        out = bytearray(w * self.pages)
        for p in range(self.pages):
            base = p * self.cols + self.col0
            for x in range(w):
                out[p * w + x] = self.ram[base + x]
        return out

    def pixel(self, x, y):
        """One visible pixel (0 or 1)."""
        return (self.ram[(y >> 3) * self.cols + self.col0 + x] >> (y & 7)) & 1
