"""Talismans: every live talisman, whose (its owner's name after its own:
`Stress (Ada)`) and what it holds: its slashes, or what its role says
instead (ui/words.py tal_value: a usage die `d4`, a
foe its HP as Foes shows it, a fight its round, the Boons, an
affliction...); a name too long for the row is shortened, never the
owner's nor the value. Right slashes one,
Left removes one (core SLASH/UNSLASH events, so triggers fire: a full
hunt Tension carries into Pressure and the Sin's capacity grows). OK on a
talisman opens Clear / Delete / Rename / Capacity (ui/capacity.py); the
last row '+ new' creates a clock with a capacity. The ring shows the
talisman under the cursor.

Delete asks nothing: undo brings the talisman back, and the toast after
it says how (DELETED: "Deleted. Undo:" / "long Back").
"""

from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW, KEEP
from ui.form import Stop
from ui import words
from rules import campaign as cp

DELETED = "Deleted. Undo: long Back"  # wraps onto the toast's two rows


def line(c, t, value):
    """Talisman t's row: its name, its owner's in brackets, `value` right;
    when they do not fit, the names shortened (at least 4 letters of the
    talisman's), never the value."""
    room = 15 - len(value)
    if not 0 <= t.owner < len(c.chars):
        return lr(t.name[:room], value)
    who = c.chars[t.owner].name
    who = who[:max(1, room - 3 - min(len(t.name), 4))]   # 3: " (" and ")"
    return lr("%s (%s)" % (t.name[:room - 3 - len(who)], who), value)


class Talismans(Screen):
    NOTES = 2

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 5)
        self.idx = []

    def refresh(self):
        c = self.app.c
        self.idx = []
        items = []
        for i, t in enumerate(c.tals):
            if t is not None:
                self.idx.append(i)
                v = words.tal_value(c, t)
                items.append(line(c, t, ("%d/%d" % (t.n, t.cap)) if v is None else v))
        self.idx.append(-1)
        items.append("+ new")
        self.menu.items = items
        self.menu.go(self.menu.sel)
        self.app.sel_tal = self.idx[self.menu.sel]

    def moved(self):
        app = self.app
        app.sel_tal = self.idx[self.menu.sel]
        app.ring_dirty = True

    def key(self, k):
        app = self.app
        t = self.idx[self.menu.sel]
        if k == K_RIGHT and t >= 0:
            app.act(cp.SLASH, (t, 1, 0))
            return DRAW
        if k == K_LEFT and t >= 0:
            app.act(cp.UNSLASH, (t, 1))
            return DRAW
        if k == K_OK:
            app.push(NewTal(app) if t < 0 else TalMenu(app, t))
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, lr("TALISMANS", "%d" % (len(self.idx) - 1)), True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)

    def ring(self, rgb):
        return self.app.dial_tal(rgb, self.app.sel_tal)


class TalMenu(Screen):
    """Clear, Delete, Rename, Capacity: a menu that stops at its ends (Up
    on Clear does not land on Capacity, nor Down on Capacity on Clear)."""

    def __init__(self, app, t):
        Screen.__init__(self, app)
        self.t = t
        self.menu = Stop(["Clear", "Delete", "Rename", "Capacity"], 2, 4)

    def key(self, k):
        if k == K_OK:
            app = self.app
            app.pop()
            if self.menu.sel == 2:
                from ui.names import Rename
                t = app.c.tals[self.t]
                app.push(Rename(app, 1, self.t, t.name if t is not None else ""))
            elif self.menu.sel == 3:
                from ui.capacity import Capacity  # TAL_CAP
                app.push(Capacity(app, self.t))
            elif self.menu.sel == 0:
                app.act(cp.CLEAR, (self.t,))
            elif app.act(cp.TAL_DEL, (self.t,)) is not None:
                app.toast = DELETED
            return DRAW
        return NO

    def draw(self, fb):
        t = self.app.c.tals[self.t]
        row(fb, 0, t.name if t is not None else "-", True)
        self.menu.draw(fb)


class NewTal(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.cap = 4

    def key(self, k):
        if k == K_LEFT and self.cap > 1:
            self.cap -= 1
            return DRAW
        if k == K_RIGHT and self.cap < 64:
            self.cap += 1
            return DRAW
        if k == K_OK:
            app = self.app
            n = 1
            for t in app.c.tals:
                if t is not None and t.name.startswith("Clock"):
                    n += 1
            app.pop()
            app.act(cp.TAL_NEW, (self.cap, 0, -1, 0, -1, 0, 0), "Clock %d" % n)
            return DRAW
        return KEEP if k & (K_UP | K_DOWN) else NO

    def draw(self, fb):
        row(fb, 0, "NEW TALISMAN", True)
        row(fb, 2, lr("Capacity", "<%d>" % self.cap))
        row(fb, 7, "OK: create")
