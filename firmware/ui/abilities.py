"""A character's Natural Abilities and Boons
(rules/expedition_chars.py): expedition, Characters > a sheet >
Abilities, loaded on first use.

Not yet rolled: `Roll abilities` (OK: 2d6 / 2 rounded down each, in the
seed's order) and `Set by hand`. Rolled: one row per Ability, `*` after
one already tried in the improvement under way; OK on it is one attempt
of Improve an Ability (2d6 / 2 over the base: +1), Right opens the swap
(at creation, once: this Ability and any other, the next one to start
with; OK swaps); then `Set by hand` (the six Abilities as a form: a sheet
from paper, a relic's or a Mutation's change; OK sets them), `Boons N`,
OK: one more Boon; then `Retire`, OK: the retirement form (the new
character, the benefit and what it takes; OK retires). A retired
character's rows say so and take no key. The last note is on the bottom
rows.
"""

from hw.keys import K_RIGHT, K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from ui.form import Form
from rules import expedition as ex
from rules import expedition_chars as ec


class Abilities(Screen):
    NOTES = 2

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
            self.menu.items = ["Roll abilities", _SET]
        else:
            tal = c.tals[t]
            items = []
            for k in range(6):
                items.append(lr(ex.ABILITIES[k], "%d%s" % (ec.get(tal, k), "*" if tal.b >> k & 1 else " ")))
            items.append(_SET)
            items.append(lr("Boons", "%d " % tal.n))
            items.append("Retired: an NPC" if ec.retired(tal) else "Retire")
            self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        s = self.menu.sel
        app = self.app
        if self.t >= 0 and ec.retired(app.c.tals[self.t]):
            return NO
        if k == K_RIGHT and self.t >= 0 and s < 6:
            app.push(Swap(app, self.i, s))
        elif k != K_OK:
            return NO
        elif self.menu.items[s] == _SET:
            app.push(SetAbilities(app, self.i))
        elif self.t < 0:
            app.act(ec.ABIL, (ec.OP_ROLL, self.i))
        elif s == 8:
            app.push(Retire(app, self.i))
        else:
            app.act(ec.ABIL, (ec.OP_IMPROVE, self.i, s) if s < 6 else (ec.OP_BOON, self.i))
        return DRAW

    def draw(self, fb):
        row(fb, 0, lr(self.name[:6], "ABILITIES"), True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)


_SET = "Set by hand"


class Swap(Form):
    """Swap two of character i's Abilities (ABIL swap: at creation, once):
    any two, the one the cursor was on and the next to start with; their
    scores on row 6."""

    def __init__(self, app, i, j):
        self.i = i
        Form.__init__(self, app, [["Swap", 0, 5, j], ["With", 0, 5, (j + 1) % 6]])

    def refresh(self):
        c = self.app.c
        t = ec.record(c, self.i) if self.i < len(c.chars) else -1
        if t < 0:  # undone
            self.app.pop()
            return
        self.rec = c.tals[t]
        Form.refresh(self)

    def show(self, j):
        return ex.ABILITIES[self.val(j)]

    def head(self):
        return lr(self.app.c.chars[self.i].name[:11], "SWAP")

    def foot(self):
        return "OK: swap (once)"

    def draw(self, fb):
        Form.draw(self, fb)
        row(fb, 6, "scores %d <> %d" % (ec.get(self.rec, self.val(0)), ec.get(self.rec, self.val(1))))

    def go(self):
        self.done(self.app.act(ec.ABIL, (ec.OP_SWAP, self.i, self.val(0), self.val(1))))


class SetAbilities(Form):
    """Character i's six Abilities by hand (ABIL set): a sheet from paper,
    a relic or a Mutation that changes one. Each starts at its value now
    (3 before any roll)."""

    def __init__(self, app, i):
        t = ec.record(app.c, i)
        rec = app.c.tals[t] if t >= 0 else None
        Form.__init__(self, app, [[ex.ABILITIES[k], 0, ex.MAX_ABILITY,
                                   ec.get(rec, k) if rec is not None else 3] for k in range(6)])
        self.i = i

    def show(self, j):
        return "<%d>" % self.val(j)

    def head(self):
        return lr(self.app.c.chars[self.i].name[:12], "SET")

    def foot(self):
        return "OK: set"

    def go(self):
        self.done(self.app.act(ec.ABIL, (ec.OP_SET, self.i) + tuple(self.val(k) for k in range(6))))


_BENEFITS = ("Abilities", "Businesses", "Reputation")


class Retire(Form):
    """Retire character i: the new character who replaces them (Heir), the
    benefit they gain (Abilities, Businesses, Reputation) and its pick (an
    Ability mask, one Ability a full five Boons; a Faction talisman). OK
    retires."""

    def __init__(self, app, i):
        c = app.c
        n = len(c.chars) - 1
        Form.__init__(self, app, [["Heir", 0, n, n if n != i else 0], ["Gains", 0, 2, 0],
                                  ["Pick", 0, 63, 0]])
        self.i = i

    def show(self, j):
        c = self.app.c
        v = self.val(j)
        if j == 0:
            return c.chars[v].name[:11] if v < len(c.chars) else "-"
        if j == 1:
            return _BENEFITS[v]
        b = self.val(1)
        if b == 0:   # the mask as the Abilities' initials
            return "".join(ex.ABILITIES[k][0] if v >> k & 1 else "." for k in range(6))
        if b == 2:
            t = c.tals[v] if v < len(c.tals) else None
            return t.name[:11] if t is not None else "-"
        return "-"

    def head(self):
        return lr(self.app.c.chars[self.i].name[:9], "RETIRE")

    def foot(self):
        return "OK: retire"

    def go(self):
        out = self.app.act(ec.ABIL, (ec.OP_RETIRE, self.i, self.val(0), self.val(1),
                                     self.val(2) if self.val(1) != 1 else 0), "", None, False)
        self.result(out, "retire")
