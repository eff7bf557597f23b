"""Screenshots: the display and the LED ring as a PNG (zlib + struct only).

Layout, at `scale` image pixels per display pixel: a MARGIN-pixel bezel,
the 128x64 panel, then a row of n LED squares (index 0 on the left) under it.
"""

import struct
import zlib

from ..base import outfile

W, H = 128, 64
MARGIN = 8
BEZEL = (24, 24, 24)
OFF = (0, 0, 0)
ON = (225, 240, 255)  # a white OLED, at full contrast


def pixel(buf, x, y):
    """1 if display pixel (x, y) is lit in a MONO_VLSB buffer."""
    return buf[(y >> 3) * W + x] >> (y & 7) & 1


def on_colour(contrast=255):
    """The lit-pixel colour at a panel contrast 0..255 (never fully dark)."""
    k = 96 + contrast * 159 // 255
    return tuple(c * k // 255 for c in ON)


def render(display, leds, scale=4, contrast=255, power=True):
    """RGB image of the device: returns (width, height, rows) with rows a
    list of `bytes` of 3*width each."""
    n = len(leds) // 3
    pw, ph = W * scale, H * scale
    cell = pw // max(n, 1)
    led = max(cell - 4, 2)
    width, height = pw + 2 * MARGIN, ph + 3 * MARGIN + led
    on = bytes(on_colour(contrast)) * scale
    off = bytes(OFF) * scale
    bezel = bytes(BEZEL)
    rows = []
    edge = bezel * MARGIN
    for _ in range(MARGIN):
        rows.append(bezel * width)
    for y in range(H):
        row = (
            edge + b"".join(on if power and pixel(display, x, y) else off for x in range(W)) + edge
        )
        rows.extend([row] * scale)
    for _ in range(MARGIN):
        rows.append(bezel * width)
    row = bytearray(bezel * width)
    for i in range(n):
        x0 = MARGIN + i * cell + (cell - led) // 2
        row[3 * x0 : 3 * (x0 + led)] = bytes(leds[3 * i : 3 * i + 3]) * led
    rows.extend([bytes(row)] * led)
    for _ in range(MARGIN):
        rows.append(bezel * width)
    return width, height, rows


def led_centre(i, n, scale=4):
    """Image (x, y) of the centre of LED i of n (for tests and tools)."""
    cell = W * scale // max(n, 1)
    led = max(cell - 4, 2)
    return MARGIN + i * cell + cell // 2, H * scale + 2 * MARGIN + led // 2


def encode(width, height, rows):
    """PNG bytes of 8-bit RGB rows (filter type 0 on every row)."""

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    raw = b"".join(b"\0" + r for r in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def write(path, display, leds, scale=4, contrast=255, power=True):
    """Write a screenshot of the device to `path`."""
    outfile.write(path, encode(*render(display, leds, scale, contrast, power)))


def decode(data):
    """(width, height, rows) of a PNG written by encode() (8-bit RGB, filter 0)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, tag = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        if tag == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if (depth, ctype) != (8, 2):
                raise ValueError("only 8-bit RGB is supported")
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = 3 * width + 1
    rows = []
    for y in range(height):
        line = raw[y * stride : (y + 1) * stride]
        if line[0] != 0:
            raise ValueError("only filter type 0 is supported")
        rows.append(line[1:])
    return width, height, rows
