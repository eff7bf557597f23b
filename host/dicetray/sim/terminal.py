"""The device in a terminal: the display, the LED ring in 24-bit colour,
keys as buttons.

The view is chosen at each redraw by the terminal's size (`view`):

- full (FULL_SIZE, 130x37): half blocks, two display pixels a cell
  stacked: the top one (even y) and the bottom one (odd y): ' ' none,
  '▀' top, '▄' bottom, '█' both, so the 128x64 panel is 128 columns by 32
  rows, pixel for pixel;
- half (HALF_SIZE, 66x21, fits 80x24): Unicode braille, 2x4 display
  pixels a cell, one dot per pixel: 64 columns by 16 rows, still pixel
  for pixel. A highlighted row (the title bar, the selected menu row:
  lit pixels round dark letters) would be dots on dots there, which no
  one reads; so each 8x8 character cell of the panel that is mostly lit
  is drawn the other way round: the lit colour as the background and a
  dark dot for each pixel that is off (`braille_view`). Both colours are
  set explicitly (24-bit), never left to the terminal's theme;
- smaller than that: one line saying the size needed and how to get it.

The LEDs are drawn as light (`led_rgb`): a WS2812 at PWM 3 of 255 is
plainly lit on the table, and drawn at (3,3,3) on a screen it would be
darker than the grey dots of an unlit one. The colour keeps its hue and
its order of brightness; the PNG (png.py) and the tests keep the raw values.

Keys: arrows, Enter = OK, Backspace/Esc = Back, space or r = Roll: each a
tap (terminals report no key release). `l` then a key = a long press.
q quits. The status's second line says so (HELP).
"""

import os
import select
import sys
import termios
import tty

from .png import H, W, on_colour, pixel
from .script import LONG_MS

HALF = " ▀▄█"  # index: top | bottom << 1

KEYMAP = {
    b"\x1b[A": "UP",
    b"\x1bOA": "UP",
    b"\x1b[B": "DOWN",
    b"\x1bOB": "DOWN",
    b"\x1b[D": "LEFT",
    b"\x1bOD": "LEFT",
    b"\x1b[C": "RIGHT",
    b"\x1bOC": "RIGHT",
    b"\n": "OK",
    b"\r": "OK",
    b"\x7f": "BACK",
    b"\x08": "BACK",
    b"\x1b": "BACK",
    b" ": "ROLL",
    b"r": "ROLL",
    b"R": "ROLL",
    b"l": "LONG",
    b"L": "LONG",
    b"q": "QUIT",
    b"Q": "QUIT",
}


def parse_keys(data):
    """Names ('UP'..'ROLL', 'LONG', 'QUIT') of the keys in a chunk of terminal input.

    An escape sequence arrives whole in one read; a lone ESC is Back.
    Unknown bytes and sequences are skipped.
    """
    out = []
    i = 0
    while i < len(data):
        if data[i : i + 1] == b"\x1b" and data[i + 1 : i + 2] in (b"[", b"O"):
            j = i + 2
            while j < len(data) and not (0x40 <= data[j] <= 0x7E):
                j += 1  # CSI parameters, e.g. ESC [ 1 ; 2 A
            seq = data[i : j + 1]
            key = KEYMAP.get(seq[:2] + seq[-1:])
            i = j + 1
        else:
            key = KEYMAP.get(data[i : i + 1])
            i += 1
        if key:
            out.append(key)
    return out


def display_lines(buf, power=True):
    """The panel as 32 strings of 128 half-block characters."""
    lines = []
    for y in range(0, H, 2):
        lines.append(
            "".join(
                HALF[(pixel(buf, x, y) | pixel(buf, x, y + 1) << 1) if power else 0]
                for x in range(W)
            )
        )
    return lines


# Braille dot bits of the pixel at (dx, dy) in a 2x4 cell (Unicode's dot
# numbering: 1-2-3-7 down the left column, 4-5-6-8 down the right).
BRAILLE = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille_lines(buf, power=True):
    """The panel as 16 strings of 64 braille characters, a dot per pixel
    (' ' for a cell with none, so a dark panel is blank text)."""
    lines = []
    for y in range(0, H, 4):
        cells = []
        for x in range(0, W, 2):
            bits = 0
            if power:
                for dy in range(4):
                    for dx in range(2):
                        if pixel(buf, x + dx, y + dy):
                            bits |= BRAILLE[dy][dx]
            cells.append(chr(0x2800 + bits) if bits else " ")
        lines.append("".join(cells))
    return lines


def _lit_blocks(buf):
    """The panel's 8x8 character cells drawn lit round dark (a highlighted
    row), as a set of (column, page). A cell is one when more of its
    columns are wholly lit than wholly dark: every glyph of the 8x8 font
    has a dark column beside it and no lit one, but '#', '*' and '_', which
    have neither; such a cell (a pattern too) goes the way of the nearest
    cell of its row that says, and with none, lit when more than half its
    pixels are."""
    out = set()
    for page in range(H // 8):
        row = bytes(buf[page * W : (page + 1) * W])
        votes = []
        for col in range(W // 8):
            full, dark = row.count(255, col * 8, col * 8 + 8), row.count(0, col * 8, col * 8 + 8)
            votes.append(None if full == dark else full > dark)
        said = [c for c, v in enumerate(votes) if v is not None]
        for col, v in enumerate(votes):
            if v is None:
                if said:
                    v = votes[min(said, key=lambda c: abs(c - col))]
                else:
                    v = sum(bin(b).count("1") for b in row[col * 8 : col * 8 + 8]) > 32
            if v:
                out.add((col, page))
    return out


def braille_view(buf, power=True, on=(255, 255, 255), off=(0, 0, 0)):
    """braille_lines in colour: 16 strings of 64 cells with their SGR
    codes, a dot per lit pixel in `on` over `off`, except in a mostly lit
    8x8 cell (_lit_blocks: a highlighted row), where the background is
    `on` and a dot in `off` marks each pixel that is off. Pixel for pixel
    either way; the dark letters of a highlight stay letters."""
    normal = "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (on + off)
    inverse = "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (off + on)
    lit = _lit_blocks(buf) if power else set()
    lines = []
    for y in range(0, H, 4):
        out = []
        was = None
        for x in range(0, W, 2):
            inv = (x >> 3, y >> 3) in lit
            bits = 0
            if power:
                for dy in range(4):
                    for dx in range(2):
                        if pixel(buf, x + dx, y + dy) != inv:
                            bits |= BRAILLE[dy][dx]
            if inv != was:
                out.append(inverse if inv else normal)
                was = inv
            out.append(chr(0x2800 + bits) if bits else " ")
        lines.append("".join(out) + "\x1b[0m")
    return lines


UNLIT = (56, 56, 56)  # the grey '··' of an LED that is off
LIT_FLOOR = 128  # the brightest channel of the dimmest lit LED


def led_rgb(r, g, b):
    """The colour an LED at PWM (r, g, b) is drawn in: as light, to be
    seen. The hue stays (every channel scaled by one factor), and more PWM
    is never drawn dimmer: the brightest channel goes from LIT_FLOOR (PWM 1)
    to 255 (PWM 255) along a square root (closer to what the eye makes of
    an LED than the PWM's straight line). So the dimmest lit LED is
    brighter than the UNLIT grey: by its brightest channel always, by its
    luminance too for every colour but a deep blue (which the ring never
    shows; even a PWM 1 red passes), and the roll's flash (0, 35, 0) is a
    plain green. (0, 0, 0) stays (0, 0, 0)."""
    m = max(r, g, b)
    if m == 0:
        return (0, 0, 0)
    top = LIT_FLOOR + (255 - LIT_FLOOR) * ((m - 1) / 254) ** 0.5
    return tuple(int(c * top / m + 0.5) for c in (r, g, b))


def led_cells(leds):
    """The ring as coloured cells, index 0 first: '██' in each LED's colour
    as light (led_rgb), a dim grey '··' for an LED that is off."""
    cells = []
    for i in range(0, len(leds) - 2, 3):
        r, g, b = leds[i], leds[i + 1], leds[i + 2]
        if r | g | b:
            cells.append("\x1b[38;2;%d;%d;%dm██\x1b[0m" % led_rgb(r, g, b))
        else:
            cells.append("\x1b[38;2;%d;%d;%dm··\x1b[0m" % UNLIT)
    return " ".join(cells)


HELP = "Arrows  Enter=OK  Backspace/Esc=Back  Space/r=Roll  l+key=long press  q=quit"
LONG_HELP = "LONG: now press a key (it is held %d ms)  q=quit" % LONG_MS

# Columns x lines each view needs: the panel in its frame, the ring, the
# status line and the keys line.
FULL_SIZE = (W + 2, H // 2 + 2 + 3)
HALF_SIZE = (W // 2 + 2, H // 4 + 2 + 3)


def view(size):
    """'full', 'half' or 'small': the view a terminal of size (columns,
    lines) shows; None (not a terminal) is taken as big enough."""
    if size is None:
        return "full"
    cols, lines = size
    if cols >= FULL_SIZE[0] and lines >= FULL_SIZE[1]:
        return "full"
    if cols >= HALF_SIZE[0] and lines >= HALF_SIZE[1]:
        return "half"
    return "small"


# Every wording says how to quit, the shortest too (60x20).
SMALL = (
    "Needs a %dx%d terminal (this is %dx%d): enlarge it or shrink the font; q quits",
    "Needs %dx%d, is %dx%d: enlarge or shrink font; q quits",
    "Needs %dx%d, is %dx%d: enlarge; q quits",
    "Needs %dx%d; q quits",
    "q quits",
)


def too_small(size):
    """The one line shown in a terminal too small for the half view: the
    longest wording that fits its width (the simulator runs on, the keys
    still work), each saying that q quits."""
    for form in SMALL:
        text = form % (HALF_SIZE + tuple(size))[: form.count("%")]
        if len(text) < size[0]:
            break
    return text


def frame(display, leds, contrast=255, power=True, status="", size=None, keys=HELP):
    """The whole screen (without cursor movement) as one string, for a
    terminal of size (columns, lines): the view() of that size. status
    and keys are the two lines under the ring (cut to the width)."""
    v = view(size)
    if v == "small":
        return too_small(size)
    if v == "full":
        fg = "\x1b[38;2;%d;%d;%dm\x1b[48;2;0;0;0m" % on_colour(contrast)
        lines = [fg + line + "\x1b[0m" for line in display_lines(display, power)]
        w = W
    else:
        lines = braille_view(display, power, on_colour(contrast))
        w = W // 2
    bar = "─" * w
    out = ["┌" + bar + "┐"]
    for line in lines:
        out.append("│" + line + "│")
    out.append("└" + bar + "┘")
    out.append(" " + led_cells(leds))
    room = (size[0] if size else 1 << 30) - 1  # the last column would wrap
    out.append((" " + status)[:room])
    out.append((" " + keys)[:room])
    return "\n".join(out)


class Terminal:
    """Cbreak-mode stdin for keys, an alternate screen for the device."""

    def __init__(self, out=None, fd=None):
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.out = out or sys.stdout
        self._saved = None

    def __enter__(self):
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)  # keeps ISIG (Ctrl-C) and output processing
        self.out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        self.out.flush()
        return self

    def __exit__(self, *exc):
        self.out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        self.out.flush()
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def keys(self, timeout=0.0):
        """Keys typed so far, waiting up to `timeout` s for the first one."""
        r, _, _ = select.select([self.fd], [], [], max(timeout, 0))
        if not r:
            return []
        return parse_keys(os.read(self.fd, 256))

    def size(self):
        """The output's (columns, lines), None when it is not a terminal."""
        try:
            return tuple(os.get_terminal_size(self.out.fileno()))
        except (OSError, AttributeError, ValueError):
            return None

    def show(self, display, leds, contrast=255, power=True, status="", keys=HELP):
        """Draw the device in the view that fits the terminal now."""
        self.draw(frame(display, leds, contrast, power, status, self.size(), keys))

    def draw(self, text):
        # Home, each line erased to its end, and below the last one
        # everything a bigger view left.
        self.out.write("\x1b[H" + text.replace("\n", "\x1b[K\n") + "\x1b[J")
        self.out.flush()
