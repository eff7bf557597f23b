"""The display as far as the screens draw on it, on MicroPython and
CPython: text on the 8x8 grid, so a test reads the screen as text (the
UI tests here; the host's in-process tray, tests/host/ramtray.py)."""


class FakeFB:
    """Enough of framebuf for the screens: text on the 8x8 grid."""

    def __init__(self):
        self.rows = [""] * 8
        self.inv = [False] * 8
        self.shows = 0

    def fill(self, c):
        self.rows = [""] * 8
        self.inv = [False] * 8

    def fill_rect(self, x, y, w, h, c):
        self.inv[y // 8] = bool(c)
        if x == 0 and w == 128 and h == 8:
            self.rows[y // 8] = ""  # a whole row painted over

    def text(self, s, x, y, c=1):
        r = y // 8
        line = self.rows[r]
        col = x // 8
        line = line + " " * (col - len(line)) if len(line) < col else line
        self.rows[r] = (line[:col] + s + line[col + len(s):]).rstrip()

    def show(self, pages=-1):
        self.shows += 1
