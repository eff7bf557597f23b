"""Screen base class, a scrolling list widget and text helpers.

The OLED is 128x64 with MicroPython's built-in 8x8 font: a grid of 16
columns by 8 rows. Every screen draws on that grid only (x and y multiples
of 8), so tests can read the framebuffer back as text (tests/host/fbtext.py).

The app hands a short press to the screen's `press(k)` (Up/Down move its
`menu`, if it has one; other keys go to `key(k)`) and a long one to
`long(k)`. Each returns NO (not handled: the app applies the global
keys), DRAW (handled, redraw) or KEEP (handled, nothing changed).
Strings are built when something changes (`refresh`), not on every frame,
and as few as possible: on MicroPython every new str is looked up in the
interned-string table (to return the interned copy if there is one), a
linear search over every name and constant of the loaded .mpy modules
that costs 10,000 to 30,000 fuel (docs/performance.md).
"""

from hw.keys import K_UP, K_DOWN, K_OK

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

_COLS = const(16)
ROWS = 8
NO = 0
DRAW = 1
KEEP = 2


# What each row of the framebuffer shows now, so that a frame redraws only
# the rows that changed: text rendering is per pixel, and a cursor move
# changes two rows of eight. Kept for one framebuffer at a time (_fb).
_fb = None
_text = [None] * 8
_inv = [False] * 8
_drawn = 0  # bit r: row r was drawn in this frame
_painted = 0  # bit r: row r's pixels changed in this frame, not yet sent
_pv = None    # _fb's page buffers (hw/ssd1306.py pagebufs) when 128 wide
_ship = None  # _fb's page(r), when it has one (hw/ssd1306.py)
_CLEAR = bytes(128)
_BAR = b"\xff" * 128


def begin(fb):
    """Start a frame on fb (a different framebuffer starts from scratch)."""
    global _fb, _drawn, _painted, _pv, _ship
    if fb is not _fb:
        _fb = fb
        _ship = getattr(fb, "page", None)
        _pv = getattr(fb, "pagebufs", None)
        if _pv is not None and len(_pv[0]) != 128:
            _pv = None
        forget()
    _drawn = 0
    _painted = 0


def end(fb):
    """Finish a frame: rows nobody drew this time become blank. Returns a
    bit per row whose pixels changed and did not go out as they were drawn
    (for display.show(pages))."""
    if _drawn != 0xFF:
        for r in range(ROWS):
            if not (_drawn >> r) & 1:
                row(fb, r, "")
    return _painted


def forget():
    """The framebuffer was drawn on behind our back: redraw every row."""
    for r in range(ROWS):
        _text[r] = None


def row(fb, r, s, inv=False):
    """Text s on row r (cut to 16 columns); inv: white bar, black text."""
    global _drawn, _painted
    _drawn |= 1 << r
    if len(s) > _COLS:
        s = s[:_COLS]  # (a slice is a new str even when it is all of s)
    if fb is _fb and _text[r] == s and _inv[r] == inv:
        return
    y = r * 8
    if fb is _fb:
        _text[r] = s
        _inv[r] = inv
        if _pv is not None:
            _pv[r][:] = _BAR if inv else _CLEAR  # fill_rect sets 1,024 pixels one by one
        else:
            fb.fill_rect(0, y, 128, 8, 1 if inv else 0)
        fb.text(s, 0, y, 0 if inv else 1)
        if _ship is not None and _ship(r):
            return  # on the bus (by DMA on a board) while the next row is drawn
    else:
        fb.fill_rect(0, y, 128, 8, 1 if inv else 0)
        fb.text(s, 0, y, 0 if inv else 1)
    _painted |= 1 << r


def early(fb, r, s, inv=False):
    """Draw row r and send it now, ahead of the frame (a roll's result
    head while the roll is made durable: its pages go out after), when the
    panel takes a page alone; else nothing, and the frame draws it."""
    if _ship is not None and fb is _fb and fb.streams():
        row(fb, r, s, inv)


_PAD = tuple(" " * n for n in range(_COLS + 1))


def lr(a, b, w=_COLS):
    """a on the left and b right-aligned in w columns (b wins when too long)."""
    room = w - len(b)
    if room < 1:
        return b[:w]
    if len(a) >= room:
        a = a[:room - 1]
    return "%s%s%s" % (a, _PAD[room - len(a)], b)  # one new str, not three


def lrn(a, n):
    """lr(a, str(n)) for 0 <= n < 1000, building one str instead of two."""
    d = 1 if n < 10 else (2 if n < 100 else 3)
    room = _COLS - d
    if len(a) >= room:
        a = a[:room - 1]
    return "%s%s%d" % (a, _PAD[room - len(a)], n)


def nlr(n, a, b):
    """lr("%d%s" % (n, a), b) for 0 <= n < 1000 in one new str when it fits."""
    room = _COLS - len(b) - len(a) - (1 if n < 10 else (2 if n < 100 else 3))
    if room < 1:
        return lr("%d%s" % (n, a), b)
    return "%d%s%s%s" % (n, a, _PAD[room], b)


def lrd(a, n, sides, tail="", vs=-1):
    """lr(a, "%dd%d%s" % (n, sides, tail)) for 0 <= n, sides < 100, in one
    new str; with vs (0..99) the tail is " v<vs>" (a versus pool)."""
    room = _COLS - (3 if n < 10 else 4) - (0 if sides < 10 else 1)
    room -= len(tail) if vs < 0 else (3 if vs < 10 else 4)
    if len(a) >= room:
        a = a[:room - 1]
    if vs >= 0:
        return "%s%s%dd%d v%d" % (a, _PAD[room - len(a)], n, sides, vs)
    return "%s%s%dd%d%s" % (a, _PAD[room - len(a)], n, sides, tail)


def wrap(s, w=_COLS):
    """Break s into lines of at most w columns, at spaces where possible
    (the spaces at a break dropped). One slice a line: on MicroPython every
    new str costs a search of the interned strings."""
    n = len(s)
    if n <= w:
        return [s] if n else []
    out = []
    i = 0
    while n - i > w:
        k = s.rfind(" ", i, i + w + 1)
        if k <= i:
            k = i + w
        out.append(s[i:k])
        i = k
        while i < n and s.startswith(" ", i):
            i += 1
    if i < n:
        out.append(s[i:])
    return out


def toast(fb, text, r, n):
    """The last action's note, wrapped onto rows r..r+n-1."""
    ls = wrap(text)
    for k in range(n):
        if k < len(ls):
            row(fb, r + k, ls[k])


def signed(v):
    return ("+%d" % v) if v > 0 else str(v)


class Menu:
    """A scrolling list of strings on rows r0..r0+h-1; `sel` is inverted."""

    def __init__(self, items, r0, h, sel=0):
        self.items = items
        self.r0 = r0
        self.h = h
        self.top = 0
        self.sel = 0
        self.go(sel)

    def go(self, i):
        """Select item i (clamped) and scroll it into view."""
        n = len(self.items)
        if i >= n:
            i = n - 1
        if i < 0:
            i = 0
        self.sel = i
        if i < self.top:
            self.top = i
        elif i >= self.top + self.h:
            self.top = i - self.h + 1

    def move(self, d):
        """Move the selection by d, wrapping round the ends."""
        n = len(self.items)
        if n:
            self.go((self.sel + d) % n)

    def draw(self, fb, cursor=True):
        items = self.items
        top = self.top
        sel = self.sel if cursor else -1
        r = self.r0
        for i in range(top, min(top + self.h, len(items))):
            row(fb, r, items[i], i == sel)
            r += 1


class Screen:
    """One screen. Subclasses override refresh, key, draw and ring; a
    screen with a `menu` gets Up/Down on it from `press` (and `moved`)."""

    title = ""

    def __init__(self, app):
        self.app = app

    def refresh(self):
        """Rebuild the strings from the campaign (after an action or on entry)."""

    def press(self, k):
        """A short press (or a repeat) of key k: Up/Down move the menu, if
        the screen has one; any other key goes to `key`."""
        if k == K_UP or k == K_DOWN:
            m = getattr(self, "menu", None)
            if m is not None:
                m.move(-1 if k == K_UP else 1)
                self.moved()
                return DRAW
        return self.key(k)

    def key(self, k):
        """Handle a short press of key k (a K_ bit) that was not menu
        navigation: DRAW, KEEP or NO (the app's default for the key)."""
        return NO

    def long(self, k):
        """Handle a long press of key k (OK, BACK, ROLL); NO: the app's."""
        return NO

    def moved(self):
        """The menu's selection changed."""

    def draw(self, fb):
        row(fb, 0, self.title)

    def ring(self, rgb):
        """Paint the LED ring; False: the app paints its default dial."""
        return False


class Message(Screen):
    """Lines of text (an error, a warning). Up to 7 lines: one screen, any
    short press closes it. Longer (a boot's store damage can be): pages of
    6 lines, the title row saying which (`STORE DAMAGE 1/3`), the bottom
    row what the keys do: Down or OK the next page, Up the one before, OK
    on the last page closes, Back closes at once."""

    def __init__(self, app, title, text):
        Screen.__init__(self, app)
        self.title = title
        self.lines = []
        for part in text.split("\n"):
            self.lines.extend(wrap(part))
        n = len(self.lines)
        self.pages = 1 if n <= 7 else (n + 5) // 6
        self.page = 0
        self._head()

    def _head(self):
        if self.pages == 1:
            self.head = self.title
        else:
            self.head = lr(self.title, "%d/%d" % (self.page + 1, self.pages))

    def key(self, k):
        last = self.page + 1 >= self.pages
        if k == K_DOWN or (k == K_OK and not last):
            if last:
                return KEEP
            self.page += 1
        elif k == K_UP:
            if not self.page:
                return KEEP
            self.page -= 1
        else:
            self.app.pop()
            return DRAW
        self._head()
        return DRAW

    long = key  # a long press acts as a short one

    def draw(self, fb):
        row(fb, 0, self.head, True)
        lines = self.lines
        if self.pages == 1:
            for r in range(len(lines)):
                row(fb, r + 1, lines[r])
            return
        i = 6 * self.page
        for r in range(6):
            if i + r < len(lines):
                row(fb, r + 1, lines[i + r])
        row(fb, 7, "OK: close" if self.page + 1 >= self.pages else "Down/OK: more")
