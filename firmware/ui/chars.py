"""Characters: the list (OK opens one, '+ add' adds the next stock name;
the dead marked `dead`) and one character's sheet: every CHAR_FIELDS
value of the system in the game's words (ui/words.py SHEET: its label
and the words of its values; hunt adds the stress talisman above them,
expedition its Abilities row below) and, last, Rename (ui/names.py).
Rows marked '<' / '>' change with
Left/Right through the system's events (hunt STRESS, BURST, WITNESS, KIT;
expedition DAMAGE, HEAL, BONUS_HP, USE_RES, DOWN_OUT), never by editing
the numbers directly, so triggers (injuries, death, down) apply; OK on
a SHEET_OK row opens its form (expedition's res: spend any number). What
differs per system is the system's (ui/systems.py `get`: ACTS,
sheet_top, SHEET_MORE, SHEET_OK, sheet_open).
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from ui import systems, words
from rules import campaign as cp, core

NAMES = ("Ada", "Bram", "Cass", "Dov", "Esme", "Finn", "Gil", "Hana")


def dead(c, i):
    """Whether character i of campaign c is dead (a system with deaths
    keeps a `dead` field)."""
    f = c.rules.CHAR_FIELDS
    return "dead" in f and c.chars[i].v[f.index("dead")]


class Chars(Screen):
    NOTES = 1

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 6)

    def refresh(self):
        c = self.app.c
        items = []
        for i in range(len(c.chars)):
            items.append(lr(c.chars[i].name, "dead") if dead(c, i) else c.chars[i].name)
        if len(c.chars) < core.MAX_CHARS:
            items.append("+ add")
        self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        if k == K_OK:
            c = self.app.c
            i = self.menu.sel
            if i < len(c.chars):
                self.app.push(Sheet(self.app, i))
            else:
                self.app.act(cp.CHAR_ADD, (), NAMES[len(c.chars) % len(NAMES)])
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, "CHARACTERS", True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 7, 1)


class Sheet(Screen):
    NOTES = 2

    def __init__(self, app, i):
        Screen.__init__(self, app)
        self.i = i
        self.menu = Menu([], 1, 5)

    def refresh(self):
        c = self.app.c
        if self.i >= len(c.chars):  # undone
            self.app.pop()
            return
        ch = c.chars[self.i]
        ui = self.ui = systems.get(c.system)  # what differs: ui/hunt_more.py, expedition_more.py ...
        acts = self.acts = ui.ACTS
        self.words = words.SHEET[c.system]
        self.fields = []
        items = []
        for f, val in ui.sheet_top(c, self.i):  # hunt: the stress talisman
            self.fields.append(f)
            items.append(self._fmt(f, val, acts))
        names = c.rules.CHAR_FIELDS
        for j in range(len(names)):
            f = names[j]
            w = self.words[f][1]
            v = ch.v[j]
            self.fields.append(f)
            items.append(self._fmt(f, w[v] if w and 0 <= v < len(w) else str(v), acts))
        for f in ui.SHEET_MORE:  # expedition: Abilities and Boons (ui/abilities.py)
            self.fields.append(f)
            items.append(f)
        items.append("Rename")
        self.menu.items = items
        self.menu.go(self.menu.sel)
        self.name = ch.name

    def _fmt(self, f, val, acts):
        a = acts.get(f)
        lt = "<" if a and a[0] else " "
        rt = ">" if a and a[1] else " "
        w = self.words.get(f)  # a sheet_top row not in SHEET is its own label (paths' Paths)
        return lr(w[0] if w else f, lt + val + rt)

    def key(self, k):
        if self.menu.sel >= len(self.fields):     # the last row: Rename
            if k == K_OK:
                from ui.names import Rename
                self.app.push(Rename(self.app, 0, self.i, self.name))
                return DRAW
            return NO
        f = self.fields[self.menu.sel]
        if f in self.ui.SHEET_MORE:
            if k == K_OK:
                self.ui.sheet_open(self.app, self.i, f)
                return DRAW
            return NO
        if k == K_LEFT or k == K_RIGHT:
            a = self.acts.get(f)
            a = a and a[0 if k == K_LEFT else 1]
            if a:
                self.app.act(a[0], (self.i,) + a[1])
            return DRAW
        if k == K_OK and f in self.ui.SHEET_OK:  # expedition's res: spend any number
            self.ui.sheet_open(self.app, self.i, f)
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.name, True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)
