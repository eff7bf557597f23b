"""The device app on a fake board, for the tests of its screens (runs under
pytest on CPython and on MicroPython, tests/mpy_run.py): a board whose
display keeps the 16x8 text grid the screens draw on (fakefb.py), so a
test reads the screen as text; an in-RAM session (RamSession) or the
firmware's own on the flash simulator (boot); keys pressed and held.

    a, b, s = make(system)       # the app on home, the session's log in s.log
    rows = press(a, K_DOWN, K_OK)
"""

from hw.keys import K_DOWN, K_OK, K_UP
from rules import campaign as cp
from rules.dice import Dice
from ui.buttons import PRESS, LONG
from ui import app as uiapp

from fakefb import FakeFB


class FakeLeds:
    def __init__(self):
        self.n = 12
        self.last = None
        self.writes = 0

    def write(self, rgb):
        self.last = bytes(rgb)
        self.writes += 1


class FakeBoard:
    def __init__(self):
        self.display = FakeFB()
        self.leds = FakeLeds()
        self.raw = 0
        self.now = 0

    def keys(self):
        return self.raw

    def ticks_ms(self):
        return self.now

    def idle(self, ms):
        self.now += ms


class RamSession:
    """The app's session without flash: events kept in `log`."""

    def __init__(self, system=0):
        self.c = cp.Campaign(system, 7)
        self.dice = Dice(1)
        self.bright = 3
        self.warnings = []
        self.log = []
        self.new = False   # a new tray: the first run's tour (ui/first.py)
        self.saves = 0     # settings saved (set_bright): the tour's end saves them

    def do(self, kind, args=(), text="", faces=None):
        out = self.c.act(kind, args, text, dice=None if faces is not None else self.dice,
                         faces=faces)
        self.log.append(self.c.events[-1])
        return out

    def recent(self):
        return self.c.events

    def new_campaign(self, system):
        self.c = cp.Campaign(system, 8)

    def set_bright(self, level):
        self.bright = level
        self.saves += 1


def make(system=0, new=False):
    """(app, board, session) on home, a new campaign of `system` in RAM."""
    b = FakeBoard()
    s = RamSession(system)
    s.new = new
    a = uiapp.App(b, s)
    a.render()
    return a, b, s


def press(a, *keys):
    """Press `keys` in turn; the screen's rows after them."""
    for k in keys:
        a.handle(k, PRESS)
    a.render()
    return a.fb.rows


def one_app(held, system, names):
    """(app, session) on home with the campaign undone back to its
    characters `names`: one app for a test file (many App instances in
    one MicroPython test VM can crash it), kept in the list `held`."""
    if not held:
        a, b, s = make(system)
        for n in names:
            s.do(cp.CHAR_ADD, (), n)
        held.append((a, s, len(s.c.done)))
    a, s, base = held[0]
    while len(s.c.done) > base:
        s.do(cp.UNDO)
    a.reset()
    a.toast = ""
    press(a)
    return a, s


def long(a, k):
    """Hold key `k`; the screen's rows after it."""
    a.handle(k, LONG)
    a.render()
    return a.fb.rows


class _TextFile:
    """A text-mode file on the flash simulator (ui.txt), as a board's os
    opens one: str in, str out."""

    def __init__(self, f):
        self.f = f

    def write(self, text):
        return self.f.write(text.encode())

    def read(self):
        return self.f.read().decode()

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()


def flash():
    """A flash simulator that opens text files as a board's os does."""
    from flashsim import FlashSim

    class Flash(FlashSim):
        def open(self, path, mode):
            f = FlashSim.open(self, path, mode)
            return f if "b" in mode else _TextFile(f)

    return Flash()


class FlashBoard(FakeBoard):
    def __init__(self, fs):
        FakeBoard.__init__(self)
        self.fs = fs

    def seed(self):
        return 5


def boot(fs):
    """(app, board, session): the firmware's session booted from `fs`."""
    import session
    b = FlashBoard(fs)
    s = session.Session(b)
    a = uiapp.App(b, s)
    a.render()
    return a, b, s


def open_campaigns(a):
    """Settings > Campaigns opened from home (Settings is home's last row);
    the rows it shows."""
    press(a, K_UP, K_OK)
    rows = press(a, K_DOWN, K_DOWN, K_DOWN)
    assert rows[4] == "Campaigns" and a.fb.inv[4]
    return press(a, K_OK)


def played_flash(n):
    """A real session's flash (session.py: JOURNAL_KEEP, a snapshot every
    16, segments of 3 KB) with n dice events, tidied as the app's idle
    moments do; returns the FlashSim."""
    import session
    fs = flash()
    s = session.Session(FlashBoard(fs))
    s.set_bright(3)                                   # past the first run's tour
    s.st.roll = 3072   # segments of ~176 events (SEG_ROLL's are ~700): two in 200 events
    for k in range(n):
        s.do(cp.DICE, (6, 1 + k % 3))
        while s.tidy():        # the app's idle moments: snapshots, folds
            pass
    s.st.close()
    return fs
