"""A character's Natural Abilities and Boons (issue 13 item 9;
rules/expedition_chars.py): expedition, Characters > a sheet > Abilities,
loaded on first use.

Not yet rolled: `Roll abilities` (OK: 2d6 / 2 rounded down each, in the
seed's order). Rolled: one row per Ability, `*` after one already tried in
the improvement under way; OK on it is one attempt of Improve an Ability
(2d6 / 2 over the base: +1), Right swaps it with the next one (at
creation, once); then `Boons N`, OK: one more Boon. The last note is on
the bottom rows.
"""

from hw.keys import K_RIGHT, K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from rules import expedition as ex
from rules import expedition_chars as ec


class Abilities(Screen):
    def __init__(self, app, i):
        Screen.__init__(self, app)
        self.i = i
        self.menu = Menu([], 1, 5)
        self.t = -1

    def refresh(self):
        c = self.app.c
        if self.i >= len(c.chars):  # undone
            self.app.pop()
            return
        self.name = c.chars[self.i].name
        self.t = t = ec.record(c, self.i)
        if t < 0:
            self.menu.items = ["Roll abilities"]
        else:
            tal = c.tals[t]
            items = []
            for k in range(6):
                items.append(lr(ex.ABILITIES[k], "%d%s" % (ec.get(tal, k), "*" if tal.b >> k & 1 else " ")))
            items.append(lr("Boons", "%d " % tal.n))
            self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        s = self.menu.sel
        app = self.app
        if self.t < 0:
            if k != K_OK:
                return NO
            app.act(ec.ABIL, (ec.OP_ROLL, self.i))
        elif k == K_OK:
            app.act(ec.ABIL, (ec.OP_IMPROVE, self.i, s) if s < 6 else (ec.OP_BOON, self.i))
        elif k == K_RIGHT and s < 6:
            app.act(ec.ABIL, (ec.OP_SWAP, self.i, s, (s + 1) % 6))
        else:
            return NO
        return DRAW

    def draw(self, fb):
        row(fb, 0, lr(self.name, "ABILITIES"), True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)
