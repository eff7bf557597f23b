"""SH1106 OLED over I2C (SH1106) or 4-wire SPI (SH1106_SPI): the SSD1306
driver with SH1106 addressing.

Differences that matter (SH1106 datasheet): page addressing only (no 0x20
mode or 0x21/0x22 windows); the RAM is 132 columns wide and a 128-pixel
panel shows columns 2..129; the column is set by two commands, low nibble
0x00-0x0F and high nibble 0x10-0x1F, the page by 0xB0+p; the column counter
increments after each data byte and does not move to the next page. So an
update is, per changed page, "page, column, data" for the changed span —
the same dirty tracking as the SSD1306.
"""

from .ssd1306 import SSD1306

# Same codes as the SSD1306 (underscored consts are not importable on MicroPython).
_CTRL_CMD = 0x00
_SET_CONTRAST = 0x81
_SET_NORM_INV = 0xA6
_SET_DISP = 0xAE


class SH1106(SSD1306):
    """SH1106 panel `width` x `height` on `i2c` at `addr` (see SSD1306)."""

    COL0 = 2  # visible column 0 is RAM column 2 of 132

    def _init_seq(self):
        h = self.height
        return bytes((
            _SET_DISP,          # display off while configuring
            0xD5, 0x80,         # clock divide / oscillator
            0xA8, h - 1,        # multiplex ratio
            0xD3, 0x00,         # display offset 0
            0x40,               # start line 0
            0xAD, 0x8B,         # DC-DC converter on (SH1106's own pump)
            0xA1,               # segment remap
            0xC8,               # scan COM[N-1] -> COM0
            0xDA, 0x12,         # COM pins alternative
            _SET_CONTRAST, 0x7F,
            0xD9, 0x22,         # discharge / precharge
            0xDB, 0x35,         # VCOM deselect level
            0x32,               # pump voltage 8.0 V
            0xA4,               # output follows RAM
            _SET_NORM_INV,      # not inverted
        ))                      # display on: after the first frame (SSD1306.init_display)

    def _wincmd(self, p, x0, x1):
        c = x0 + self.col0
        b = self._cmd
        b[0] = _CTRL_CMD
        b[1] = 0xB0 | p
        b[2] = c & 0x0F           # column low nibble
        b[3] = 0x10 | (c >> 4)    # column high nibble
        return 4


SH1106_I2C = SH1106


class SH1106_SPI(SH1106):
    """SH1106 on 4-wire SPI (the Adafruit MacroPad RP2040's panel).

    `spi` is a machine.SPI (mode 0, up to 10 MHz); `dc`, `res`, `cs` are
    machine.Pin objects (data/command, reset, chip select). The driver
    above stages an I2C control byte (0x00 commands, 0x40 data) in front
    of every transaction; here it selects the D/C line instead and the
    bytes after it go out on the bus, through views cached per length so
    show() stays allocation-free as over I2C.
    """

    def __init__(self, width, height, spi, dc, res, cs, external_vcc=False):
        self.spi = spi
        self.dc = dc
        self.res = res
        self.cs = cs
        dc.init(dc.OUT, value=0)
        res.init(res.OUT, value=1)
        cs.init(cs.OUT, value=1)
        self._v1 = {}  # id of a staged view -> the same bytes minus the control byte
        self.reset()
        super().__init__(width, height, None, 0, external_vcc)

    def reset(self):
        """Pulse the panel's reset line (its RAM and settings are lost)."""
        import time
        self.res(1)
        time.sleep_ms(1)
        self.res(0)
        time.sleep_ms(10)
        self.res(1)
        self._stale = True

    def _send(self, buf):
        n = len(buf)
        k = self._v1.get(id(buf))
        if k is None:
            # One of the driver's cached views (commands, data spans) is
            # seen once per length; the init sequence is a one-off bytes.
            k = memoryview(buf)[1:]
            if isinstance(buf, memoryview):
                self._v1[id(buf)] = k
        self.cs(1)
        self.dc(1 if buf[0] & 0x40 else 0)
        self.cs(0)
        self.spi.write(k)
        self.cs(1)
        self.bytes_total = (self.bytes_total + n - 1) & 0x3FFFFFFF
