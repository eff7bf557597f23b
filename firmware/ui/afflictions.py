"""An exorcist's afflictions (hunt's AFFLICT, rules/
hunt_more.py): hunt, Characters > a sheet > Afflictions, loaded on first
use.

One row per affliction of the exorcist (`lasting`: it outlasts the hunt;
a name too long for the row beside it shortened); OK on one cures it (a SLASH that fills it: it ends). Then `+ for
the hunt` and `+ lasting`: OK afflicts the exorcist (+1 pathos) with
`Affliction N` (the first N the exorcist has not; rename it on
Talismans). The last note on the bottom rows.
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from rules import campaign as cp, hunt_more as hm


class Afflictions(Screen):
    NOTES = 2

    def __init__(self, app, i):
        Screen.__init__(self, app)
        self.i = i
        self.menu = Menu([], 1, 5)
        self.idx = []

    def refresh(self):
        c = self.app.c
        if self.i >= len(c.chars):  # undone
            self.app.pop()
            return
        self.name = c.chars[self.i].name
        self.idx = hm.tals(c, hm.ROLE_AFFLICTION, self.i)
        items = []
        for t in self.idx:
            tal = c.tals[t]
            items.append(lr(tal.name[:8], "lasting") if tal.a else tal.name)
        items.append("+ for the hunt")
        items.append("+ lasting")
        self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        if k != K_OK:
            return NO
        app = self.app
        s = self.menu.sel
        if s < len(self.idx):
            app.act(cp.SLASH, (self.idx[s], 1, 0))  # filled: cured
            return DRAW
        names = [app.c.tals[t].name for t in self.idx]
        n = 1
        while "Affliction %d" % n in names:
            n += 1
        if app.act(hm.AFFLICT, (self.i, s - len(self.idx)), "Affliction %d" % n) is not None:
            self.menu.go(s + 1)  # still on the row pressed, one row lower now
        return DRAW

    def draw(self, fb):
        row(fb, 0, lr(self.name[:4], "AFFLICTIONS"), True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)
