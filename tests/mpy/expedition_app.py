"""An expedition campaign's app for the screen tests of its procedures
(test_screens_expedition_sheet.py, test_screens_expedition_combat.py;
CPython and MicroPython): one app on home with Ada and Bram, the newest
event journaled, menu rows found by label, a result's verdict."""
from hw.keys import K_DOWN
from rules import campaign as cp, codec
from ui import systems
from fakeapp import make, press


def on_home(apps):
    """(app, session) on home, the campaign back at Ada and Bram, the
    builder as new; `apps` holds the test file's one app (many App
    instances in one MicroPython test VM can crash it)."""
    if not apps:
        a, b, s = make(2)
        for n in ("Ada", "Bram"):
            s.do(cp.CHAR_ADD, (), n)
        apps.append((a, s, len(s.c.done)))
    a, s, base = apps[0]
    while len(s.c.done) > base:
        s.do(cp.UNDO)
    a.reset()
    a.toast = ""
    a.pool = systems.get(2).Pool()   # the builder as new
    a.pool.fix(a.c)
    press(a)
    return a, s


def last_event(s):
    """(kind, args, faces, text) of the newest event journaled."""
    return codec.decode_event(s.log[-1])


def selected(a):
    """The menu row the cursor is on."""
    m = a.top().menu
    return m.items[m.sel]


def to_row(a, label):
    """The cursor onto the menu row that reads `label` (alone or before a
    space), by Down; the screen's rows."""
    for _ in range(40):
        r = selected(a)
        if r == label or r.startswith(label + " "):
            return a.fb.rows
        press(a, K_DOWN)
    raise AssertionError("no row %r in %r" % (label, a.top().menu.items))


def char_v(s, i=0):
    """Character i's fields."""
    return s.c.chars[i].v


def hits(faces):
    """The successes among d6 `faces` (4 and up)."""
    return len([f for f in faces if f >= 4])


def verdict(rows):
    """(the successes row, the margin row) of a result screen."""
    k = [i for i in range(len(rows)) if " succ" in rows[i]][0]
    return rows[k], rows[k + 1]
