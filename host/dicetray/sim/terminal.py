"""The device in a terminal: display as half blocks, LEDs in 24-bit colour,
keys as buttons.

Each character cell shows two display pixels stacked: the top one (even y)
and the bottom one (odd y): ' ' none, '▀' top, '▄' bottom, '█' both, so the
128x64 panel is 128 columns by 32 rows, pixel for pixel. Needs a terminal of
at least 132x38 with 24-bit colour.

Keys: arrows, Enter = OK, Backspace/Esc = Back, space or r = Roll: each a
tap (terminals report no key release). `l` then a key = a long press.
q quits.
"""

import os
import select
import sys
import termios
import tty

from .png import H, W, on_colour, pixel

HALF = " ▀▄█"  # index: top | bottom << 1

KEYMAP = {
    b"\x1b[A": "UP", b"\x1bOA": "UP", b"\x1b[B": "DOWN", b"\x1bOB": "DOWN",
    b"\x1b[D": "LEFT", b"\x1bOD": "LEFT", b"\x1b[C": "RIGHT", b"\x1bOC": "RIGHT",
    b"\n": "OK", b"\r": "OK", b"\x7f": "BACK", b"\x08": "BACK", b"\x1b": "BACK",
    b" ": "ROLL", b"r": "ROLL", b"R": "ROLL", b"l": "LONG", b"L": "LONG",
    b"q": "QUIT", b"Q": "QUIT",
}


def parse_keys(data):
    """Names ('UP'..'ROLL', 'LONG', 'QUIT') of the keys in a chunk of terminal input.

    An escape sequence arrives whole in one read; a lone ESC is Back.
    Unknown bytes and sequences are skipped.
    """
    out = []
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"\x1b" and data[i + 1:i + 2] in (b"[", b"O"):
            j = i + 2
            while j < len(data) and not (0x40 <= data[j] <= 0x7e):
                j += 1  # CSI parameters, e.g. ESC [ 1 ; 2 A
            seq = data[i:j + 1]
            key = KEYMAP.get(seq[:2] + seq[-1:])
            i = j + 1
        else:
            key = KEYMAP.get(data[i:i + 1])
            i += 1
        if key:
            out.append(key)
    return out


def display_lines(buf, power=True):
    """The panel as 32 strings of 128 half-block characters."""
    lines = []
    for y in range(0, H, 2):
        lines.append("".join(
            HALF[(pixel(buf, x, y) | pixel(buf, x, y + 1) << 1) if power else 0]
            for x in range(W)))
    return lines


def led_cells(leds):
    """The ring as coloured cells, index 0 first: '██' in each LED's colour
    (a dim '··' for an LED that is off)."""
    cells = []
    for i in range(0, len(leds) - 2, 3):
        r, g, b = leds[i], leds[i + 1], leds[i + 2]
        if r | g | b:
            cells.append("\x1b[38;2;%d;%d;%dm██\x1b[0m" % (r, g, b))
        else:
            cells.append("\x1b[38;2;60;60;60m··\x1b[0m")
    return " ".join(cells)


def frame(display, leds, contrast=255, power=True, status=""):
    """The whole screen (without cursor movement) as one string."""
    fg = "\x1b[38;2;%d;%d;%dm\x1b[48;2;0;0;0m" % on_colour(contrast)
    bar = "─" * W
    out = ["┌" + bar + "┐"]
    for line in display_lines(display, power):
        out.append("│" + fg + line + "\x1b[0m│")
    out.append("└" + bar + "┘")
    out.append(" " + led_cells(leds))
    out.append(" " + status)
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

    def draw(self, text):
        self.out.write("\x1b[H" + text.replace("\n", "\x1b[K\n") + "\x1b[K")
        self.out.flush()
