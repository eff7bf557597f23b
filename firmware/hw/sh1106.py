"""SH1106 OLED over I2C: the SSD1306 driver with SH1106 addressing.

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
            _SET_DISP | 1,      # display on
        ))

    def _window(self, p, x0, x1):
        c = x0 + self.col0
        b = self._cmd
        b[0] = _CTRL_CMD
        b[1] = 0xB0 | p
        b[2] = c & 0x0F           # column low nibble
        b[3] = 0x10 | (c >> 4)    # column high nibble
        self._send(self._cv[4])
        return 4


SH1106_I2C = SH1106
