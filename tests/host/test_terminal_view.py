"""The simulator's terminal view (host/dicetray/sim/terminal.py) on fixed
frames: the lines it writes, read back as text, with no terminal needed.

A known pixel pattern comes out as the expected half-block and braille
characters; LEDs are drawn as light (a lit one always brighter than an
unlit one, its hue kept) while the PNG keeps the raw values; the view
follows the terminal's size at each redraw: full, half (80x24) or one line
saying the size needed.
"""

import os
import re

from dicetray.sim import png, terminal
from dicetray.sim.terminal import (FULL_SIZE, HALF_SIZE, HELP, LONG_HELP, UNLIT, Terminal,
                                   braille_lines, display_lines, frame, led_cells, led_rgb,
                                   too_small, view)

ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def pattern():
    """A 128x64 MONO_VLSB frame with known pixels."""
    buf = bytearray(1024)

    def put(x, y):
        buf[(y >> 3) * 128 + x] |= 1 << (y & 7)

    put(0, 0)                          # braille dot 1 of cell (0, 0)
    put(1, 3)                          # dot 8 of the same cell
    for y in range(4):                 # the whole left column of cell (1, 0): dots 1 2 3 7
        put(2, y)
    for dy in range(4):                # a full cell at the panel's bottom right
        for dx in range(2):
            put(126 + dx, 60 + dy)
    put(5, 6)                          # cell (2, 1): x 5 is its right column, y 6 its third row: dot 6
    return bytes(buf)


def visible(line):
    return ESC.sub("", line)


def colours(cells):
    """The (r, g, b) of each LED cell in led_cells' text."""
    return [tuple(int(v) for v in m) for m in re.findall(r"\x1b\[38;2;(\d+);(\d+);(\d+)m", cells)]


def luminance(rgb):
    """Relative luminance (sRGB) of a colour, 0..1."""
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_braille_is_the_panel_pixel_for_pixel():
    lines = braille_lines(pattern())
    assert len(lines) == 16 and all(len(ln) == 64 for ln in lines)
    assert lines[0][0] == chr(0x2800 | 0x01 | 0x80) == "⢁"
    assert lines[0][1] == chr(0x2800 | 0x01 | 0x02 | 0x04 | 0x40) == "⡇"
    assert lines[1][2] == chr(0x2800 | 0x20) == "⠠"
    assert lines[15][63] == "⣿"
    dots = sum(bin(ord(ch) - 0x2800).count("1") for ln in lines for ch in ln if ch != " ")
    assert dots == 2 + 4 + 8 + 1                    # every lit pixel is one dot
    assert set("".join(lines)) == {" ", "⢁", "⡇", "⠠", "⣿"}
    assert set("".join(braille_lines(pattern(), power=False))) == {" "}


def test_braille_round_trips_a_random_frame():
    import random
    rnd = random.Random(3)
    buf = bytes(rnd.getrandbits(8) for _ in range(1024))
    lines = braille_lines(buf)
    for y in range(64):
        for x in range(128):
            ch = lines[y // 4][x // 2]
            bits = 0 if ch == " " else ord(ch) - 0x2800
            assert bool(bits & terminal.BRAILLE[y % 4][x % 2]) == bool(png.pixel(buf, x, y)), (x, y)


def test_half_blocks_of_the_pattern():
    lines = display_lines(pattern())
    assert lines[0][:3] == "▀ █" and lines[1][:3] == " ▄█"
    assert lines[3][5] == "▀" and lines[31][126:] == "██"


def test_a_lit_led_is_drawn_brighter_than_an_unlit_one():
    leds = bytes([3, 3, 3, 0, 0, 0, 0, 35, 0, 1, 0, 0, 255, 160, 0])
    cells = led_cells(leds)
    got = colours(cells)
    assert got[1] == UNLIT and "··" in cells      # an LED that is off: the grey dots
    lit = [got[0], got[2], got[3], got[4]]
    for c in lit:
        assert max(c) > max(UNLIT) and luminance(c) > luminance(UNLIT), c
    assert got[0][0] == got[0][1] == got[0][2]    # (3,3,3) stays a grey: the hue is kept
    assert got[2][0] == got[2][2] == 0 and got[2][1] >= 150  # the roll's green flash, plain to see
    assert got[3][1:] == (0, 0)                   # PWM 1 of red: red, the dimmest lit
    r, g, b = got[4]                              # amber keeps its ratio
    assert b == 0 and abs(g / r - 160 / 255) < 0.01


def test_led_light_keeps_the_order_of_brightness():
    tops = [max(led_rgb(v, v, v)) for v in range(256)]
    assert tops[0] == 0 and tops[1] == terminal.LIT_FLOOR and tops[255] == 255
    assert all(a <= b for a, b in zip(tops[1:], tops[2:]))  # never dimmer for more PWM
    assert len(set(tops)) > 100                              # and the levels stay apart
    assert led_rgb(0, 0, 0) == (0, 0, 0)
    assert led_rgb(3, 3, 3) == (139, 139, 139) and led_rgb(0, 35, 0) == (0, 174, 0)  # docs/simulator.md


def test_the_png_keeps_the_raw_led_values():
    leds = bytes([3, 3, 3] + [0, 35, 0] + [0] * 30)
    w, h, rows = png.render(bytes(1024), leds, 2)
    for i, raw in ((0, b"\x03\x03\x03"), (1, b"\x00\x23\x00"), (2, b"\x00\x00\x00")):
        x, y = png.led_centre(i, 12, 2)
        assert rows[y][3 * x:3 * x + 3] == raw


def test_the_view_follows_the_terminal_size():
    assert FULL_SIZE == (130, 37) and HALF_SIZE == (66, 21)
    assert view((80, 24)) == "half" and view((130, 37)) == "full" and view(None) == "full"
    assert view((129, 50)) == "half" and view((200, 36)) == "half"
    assert view((65, 24)) == "small" and view((80, 20)) == "small"


def test_80x24_gets_the_braille_view_and_it_fits():
    leds = bytes([3, 3, 3] * 6 + [0] * 18)
    text = frame(pattern(), leds, status="serial: /dev/pts/7  keys: -", size=(80, 24))
    lines = text.split("\n")
    assert len(lines) == HALF_SIZE[1] <= 24
    assert all(len(visible(ln)) <= 79 for ln in lines)
    assert visible(lines[0]) == "┌" + "─" * 64 + "┐"
    assert visible(lines[1]) == "│" + braille_lines(pattern())[0] + "│"
    assert visible(lines[17]) == "└" + "─" * 64 + "┘"
    assert visible(lines[18]) == " " + " ".join(["██"] * 6 + ["··"] * 6)
    assert visible(lines[19]) == " serial: /dev/pts/7  keys: -"
    assert visible(lines[20]) == " " + HELP
    for word in ("Arrows", "Enter=OK", "Backspace/Esc=Back", "Space/r=Roll", "l+key=long", "q=quit"):
        assert word in lines[20]


def test_a_big_terminal_gets_the_half_blocks():
    text = frame(pattern(), bytes(36), size=(140, 40), keys=LONG_HELP)
    lines = text.split("\n")
    assert len(lines) == FULL_SIZE[1]
    assert visible(lines[1]) == "│" + display_lines(pattern())[0] + "│"
    assert visible(lines[-1]).startswith(" LONG: now press a key")
    assert max(len(visible(ln)) for ln in lines) == FULL_SIZE[0]


def test_a_status_line_is_cut_to_the_width():
    lines = frame(bytes(1024), bytes(36), status="x" * 200, size=(70, 22)).split("\n")
    assert all(len(visible(ln)) <= 69 for ln in lines)


def test_too_small_is_one_line_saying_what_to_do():
    for size in ((79, 20), (60, 24), (60, 20), (40, 10), (24, 5), (8, 3)):
        text = frame(pattern(), bytes(36), size=size)
        assert "\n" not in text and text == too_small(size)
        assert len(text) < size[0] and text.endswith("q quits")   # how to quit, always
        if size[0] > 20:
            assert text.startswith("Needs") and "66x21" in text
    assert too_small((79, 20)) == ("Needs a 66x21 terminal (this is 79x20): enlarge it or "
                                   "shrink the font; q quits")
    assert too_small((60, 20)) == "Needs 66x21, is 60x20: enlarge or shrink font; q quits"
    assert too_small((50, 15)) == "Needs 66x21, is 50x15: enlarge; q quits"


class Out:
    """A terminal's output: what was written, at a size the test sets."""

    def __init__(self):
        self.data = ""
        self.size = (80, 24)

    def write(self, s):
        self.data += s

    def flush(self):
        pass

    def fileno(self):
        return 99


def test_each_redraw_takes_the_size_of_now(monkeypatch):
    out = Out()
    monkeypatch.setattr(terminal.os, "get_terminal_size",
                        lambda fd: os.terminal_size(out.size) if fd == 99 else None)
    term = Terminal(out=out, fd=0)
    term.show(pattern(), bytes(36), status="s")
    assert "⢁" in out.data and "▀" not in out.data
    assert out.data.startswith("\x1b[H") and out.data.endswith("\x1b[J")  # what a bigger view left goes
    out.data, out.size = "", (132, 40)
    term.show(pattern(), bytes(36), status="s")
    assert "▀ █" in out.data and "⢁" not in out.data
    out.data, out.size = "", (50, 15)
    term.show(pattern(), bytes(36), status="s")
    assert visible(out.data) == "Needs 66x21, is 50x15: enlarge; q quits"


def test_no_terminal_size_means_the_full_view():
    class Pipe(Out):
        def fileno(self):
            raise OSError("not a terminal")
    term = Terminal(out=Pipe(), fd=0)
    assert term.size() is None
    term.show(pattern(), bytes(36))
    assert "▀ █" in term.out.data


def _home_frame():
    """The tray's home screen as the UI draws it (8x8 font on the 16x8
    grid): the title bar and the selected row lit, their letters dark."""
    import fbtext
    buf = bytearray(1024)
    rows = [("HUNT          #4", True), ("Tension      2/3", False), ("Pressure     2/6", False),
            ("Sin         0/10", False), ("Roll", True), ("Key in dice", False)]
    for r, (text, lit) in enumerate(rows):
        for col in range(16):
            ch = text[col] if col < len(text) else " "
            glyph = fbtext._G[8 * (ord(ch) - 32):8 * (ord(ch) - 32) + 8]
            buf[r * 128 + 8 * col:r * 128 + 8 * col + 8] = bytes(b ^ 0xFF if lit else b for b in glyph)
    return bytes(buf), fbtext


def _cells(line):
    """(background rgb or None, char) of each cell of a braille_view line."""
    out, bg = [], None
    for m in re.finditer(r"(\x1b\[[0-9;]*m)|(.)", line):
        if m.group(1):
            b = re.search(r"48;2;(\d+);(\d+);(\d+)", m.group(1))
            if b:
                bg = tuple(int(v) for v in b.groups())
        else:
            out.append((bg, m.group(2)))
    return out


def test_a_highlighted_row_reads_as_dark_letters_on_the_lit_colour():
    """In the 80x24 view a lit title bar and the selected
    menu row were braille dots round dots (every lit pixel a dot, the
    letters the few missing ones): unreadable. Each mostly lit 8x8 cell is
    now drawn the other way round: the lit colour as the background, a
    dark dot for each pixel that is off, i.e. the letter; both colours set,
    whatever the terminal's theme. Still pixel for pixel."""
    buf, fbtext = _home_frame()
    on = png.on_colour(255)
    # every printable glyph, alone or among others, either way round, is told right
    for k in range(0, 95 * 8, 8):
        g = fbtext._G[k:k + 8]
        for lit in (False, True):
            cell = bytes(b ^ 0xFF if lit else b for b in g)
            alone = bytearray(1024)
            alone[0:8] = cell
            among = bytearray(1024)
            among[0:128] = (bytes(0xFF if lit else 0 for _ in range(8)) + cell) * 8
            if g.count(0) != g.count(255):     # alone, all but '#', '*' and '_' say which
                assert ((0, 0) in terminal._lit_blocks(alone)) == lit, (chr(32 + k // 8), lit)
            assert ((1, 0) in terminal._lit_blocks(among)) == lit, (chr(32 + k // 8), lit)
    view = terminal.braille_view(buf, True, on)
    assert len(view) == 16
    for y in range(64):                                # pixel for pixel, either way round
        cells = _cells(view[y // 4])
        assert len(cells) == 64
        for x in range(128):
            bg, ch = cells[x // 2]
            bits = 0 if ch == " " else ord(ch) - 0x2800
            dot = bool(bits & terminal.BRAILLE[y % 4][x % 2])
            assert (dot != (bg == on)) == bool(png.pixel(buf, x, y)), (x, y)   # a dot: off on lit
    for r, lit in ((0, True), (1, False), (4, True), (5, False)):
        for line in view[2 * r:2 * r + 2]:
            assert {bg for bg, _ch in _cells(line)} == ({on} if lit else {(0, 0, 0)}), (r, line)
    # the title's dark letters are the dots: as many as the letters' pixels, not the bar's
    title = "HUNT          #4"            # '#' among the lit cells of the bar
    letters = sum(bin(b).count("1") for ch in title
                  for b in fbtext._G[8 * (ord(ch) - 32):8 * (ord(ch) - 32) + 8])
    dots = sum(bin(ord(ch) - 0x2800).count("1") for line in view[:2] for _bg, ch in _cells(line)
               if ch != " ")
    assert dots == letters
    # and the 80x24 frame uses it
    text = frame(buf, bytes(36), size=(80, 24))
    assert "\x1b[48;2;%d;%d;%dm" % on in text.split("\n")[1]
