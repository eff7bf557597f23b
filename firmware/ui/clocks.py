"""expedition's tracked dice and clocks, loaded on first use: Turns >
Encounter rate, Usage dice, Extended tests; Town > Projects.

- Encounter rate (SET_FREQ): "populous dungeons check once per
  Exploration Turn, depopulated (average density) dungeons check once
  every other Turn, and empty dungeons check every third turn".
- Usage dice: each as its die (`Torches  d6`, `spent`); OK rolls it
  "once after using such an item in a scene" (USAGE_ROLL: a 1-2 steps it
  down). `+ new usage die`: the item, its die, whose, and whether it is
  checked on exploration turns (torches: every other turn) (USAGE_NEW).
- Extended tests: `Climb  2/3` (successful tests of those needed) and
  the failures; OK opens the builder on it, a test that counts for it.
  `+ new extended test`: the successes needed and the failures allowed
  (EXT_NEW).
- Projects: `Project 1  2/6` ticks; OK ticks it, a session's Downtime
  Action given to it (PROJECT_TICK). `+ new project`: ticks 4..10 ("4-6
  normal for shorter projects and 8-10 ... for serious, involved
  projects") and whose (PROJECT_NEW).

Names are given (`Torches`, `Test 1`, `Project 1`: the builder's
Extended row holds `Test 1` whole), renamed on
Talismans as every name the device gives.
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from ui.form import Form
from rules import expedition as ex

_RATES = ("<populous>", "<average>", "<empty>")
_EVERY = ("check each turn", "every other turn", "every third turn")
_DICE = (4, 6, 8, 10, 12)
# The seed's expendables with a usage die ("Torches (d6)", "Vials of
# Antitoxins (d6)", "Pouch of Psychoactive Drugs (d8)") and common others.
_ITEMS = ("Torches", "Oil", "Rations", "Arrows", "Bolts", "Antitoxins", "Drugs", "Item")


def _name(c, base, n=0):
    """A name no talisman has: base itself (n 0) if free, else `base N`,
    the first N from n (from 2: `Torches 2`)."""
    names = [t.name for t in c.tals if t is not None]
    if not n and base not in names:
        return base
    n = n or 2
    while "%s %d" % (base, n) in names:
        n += 1
    return "%s %d" % (base, n)


def _whose(c, v):
    return c.chars[v].name if v >= 0 else "party"


class Rate(Form):
    """The encounter check frequency by the dungeon's density."""

    def __init__(self, app):
        Form.__init__(self, app, [["Area", 0, 2, app.c.x[ex.FREQ] - 1]])

    def show(self, j):
        return _RATES[self.val(0)]

    def head(self):
        return "ENCOUNTER RATE"

    def foot(self):
        return "OK: set"

    def go(self):
        self.done(self.app.act(ex.SET_FREQ, (self.val(0) + 1,), refresh=False))

    def draw(self, fb):
        Form.draw(self, fb)
        row(fb, 6, _EVERY[self.val(0)])


class _List(Screen):
    """The talismans of ROLE, one a row (`line`), then `+ new`; OK on one
    is `pick`, on `+ new` the form NEW."""

    NOTES = 2
    ROLE = 0
    TITLE = ""
    ADD = ""

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 5)
        self.idx = []

    def refresh(self):
        c = self.app.c
        self.idx = [t for t in range(len(c.tals)) if c.tals[t] is not None
                    and c.tals[t].role == self.ROLE]
        self.menu.items = [self.line(c.tals[t]) for t in self.idx] + [self.ADD]
        self.menu.go(self.menu.sel)

    def line(self, tal):
        """Talisman tal's row."""
        return tal.name

    def pick(self, t):
        """OK on talisman t."""

    def new(self, app):
        """The form of `+ new`."""
        return NewUsage(app)

    def key(self, k):
        if k != K_OK:
            return NO
        i = self.menu.sel
        if i < len(self.idx):
            self.pick(self.idx[i])
        else:
            self.app.push(self.new(self.app))
        return DRAW

    def draw(self, fb):
        row(fb, 0, self.TITLE, True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)


class Usage(_List):
    ROLE = ex.USAGE
    TITLE = "USAGE DICE"
    ADD = "+ new usage die"

    def line(self, tal):
        d = ex.usage_sides(tal)
        b = ("d%d" % d) if d else "spent"
        return lr(tal.name[:15 - len(b)], b)

    def pick(self, t):
        self.app.act(ex.USAGE_ROLL, (t,))

    def new(self, app):
        return NewUsage(app)


class NewUsage(Form):
    """A usage die (USAGE_NEW): the item (its name), its die, whose, and
    whether exploration turns check it (every other turn)."""

    def __init__(self, app):
        Form.__init__(self, app, [["Item", 0, len(_ITEMS) - 1, 0], ["Die", 0, 4, 1],
                                  ["Whose", -1, len(app.c.chars) - 1, -1], ["On turns", 0, 1, 1]])

    def show(self, j):
        v = self.val(j)
        if j == 0:
            return _ITEMS[v]
        if j == 1:
            return "<d%d>" % _DICE[v]
        if j == 2:
            return _whose(self.app.c, v)
        return ("<no>", "<yes>")[v]

    def head(self):
        return "NEW USAGE DIE"

    def foot(self):
        return "OK: add"

    def go(self):
        app = self.app
        name = _name(app.c, _ITEMS[self.val(0)])
        self.done(app.act(ex.USAGE_NEW, (_DICE[self.val(1)], self.val(2), self.val(3)), name,
                          refresh=False))


class Extended(_List):
    ROLE = ex.EXTENDED
    TITLE = "EXTENDED TESTS"
    ADD = "+ new extended"

    def line(self, tal):
        """Successful tests of those needed."""
        b = "%d/%d" % (tal.n, tal.cap)
        return lr(tal.name[:15 - len(b)], b)

    def pick(self, t):
        """The builder on it: a test (Ob and Ability as set there) that
        slashes it on a success and counts a failure."""
        p = self.app.need_pool()
        p.v["mode"] = 0
        p.v["vs"] = -1
        p.v["ext"] = t
        self.app.open(b"builder Builder")

    def new(self, app):
        return NewExtended(app)


class NewExtended(Form):
    """An extended test (EXT_NEW): the successful tests needed and the
    failures allowed (0: no limit, failures only counted)."""

    def __init__(self, app):
        Form.__init__(self, app, [["Successes", 1, 20, 3], ["Failures", 0, 20, 0]])

    def show(self, j):
        v = self.val(j)
        return "<any>" if j == 1 and not v else "<%d>" % v

    def head(self):
        return "NEW EXTENDED"

    def foot(self):
        return "OK: add"

    def go(self):
        app = self.app
        self.done(app.act(ex.EXT_NEW, (self.val(0), self.val(1)), _name(app.c, "Test", 1),
                          refresh=False))


class Projects(_List):
    ROLE = ex.PROJECT
    TITLE = "PROJECTS"
    ADD = "+ new project"

    def line(self, tal):
        b = "%d/%d" % (tal.n, tal.cap)
        return lr(tal.name[:15 - len(b)], b)

    def pick(self, t):
        self.app.act(ex.PROJECT_TICK, (t,))

    def new(self, app):
        return NewProject(app)


class NewProject(Form):
    """A project clock (PROJECT_NEW): its ticks and whose."""

    def __init__(self, app):
        Form.__init__(self, app, [["Ticks", 4, 10, 6], ["Whose", -1, len(app.c.chars) - 1, -1]])

    def show(self, j):
        v = self.val(j)
        return _whose(self.app.c, v) if j == 1 else "<%d>" % v

    def head(self):
        return "NEW PROJECT"

    def foot(self):
        return "OK: add"

    def go(self):
        app = self.app
        self.done(app.act(ex.PROJECT_NEW, (self.val(0), self.val(1)), _name(app.c, "Project", 1),
                          refresh=False))

