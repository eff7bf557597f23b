"""Characters: the list (OK opens one, '+ add' adds the next stock name)
and one character's sheet: every CHAR_FIELDS value of the system (hunt
adds the stress talisman) and, last, Rename (ui/names.py). Rows marked
'<' / '>' change with Left/Right
through the system's events (hunt STRESS, BURST, WITNESS, KIT;
expedition DAMAGE, HEAL, BONUS_HP, USE_RES, DOWN_OUT), never by editing
the numbers directly, so triggers (injuries, death, down) apply.
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from rules import campaign as cp

NAMES = ("Ada", "Bram", "Cass", "Dov", "Esme", "Finn", "Gil", "Hana")



def _acts(system, m):
    """field -> (left event kind, args after who) / (right ...); None:
    read-only. m: the rules module of `system`."""
    if system == 0:
        return {"stress": (None, (m.STRESS, (1, 0, 0))), "bursts": ((m.BURST, (0,)), None),
                "sin": (None, (m.BURST, (1,))), "pathos": (None, (m.WITNESS, ())),
                "kit": ((m.KIT, (1,)), None)}
    if system == 2:
        return {"hp": ((m.DAMAGE, (1, 0)), (m.HEAL, (1,))),
                "bonus_hp": ((m.BONUS_END, ()), (m.BONUS_HP, (1,))),
                "res": ((m.USE_RES, (1,)), None), "down": (None, (m.DOWN_OUT, (1,)))}
    return {}


class Chars(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 6)

    def refresh(self):
        c = self.app.c
        items = []
        for ch in c.chars:
            items.append(ch.name)
        if len(c.chars) < cp.MAX_CHARS:
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
        acts = self.acts = _acts(c.system, c.rules)
        self.fields = []
        items = []
        if c.system == 0:
            for t in c.tals:
                if t is not None and t.role == c.rules.ROLE_STRESS and t.owner == self.i:
                    self.fields.append("stress")
                    items.append(self._fmt("stress", "%d/%d" % (t.n, t.cap), acts))
        names = c.rules.CHAR_FIELDS
        for j in range(len(names)):
            self.fields.append(names[j])
            items.append(self._fmt(names[j], str(ch.v[j]), acts))
        if c.system == 2:  # Abilities and Boons (ui/abilities.py)
            self.fields.append("Abilities")
            items.append("Abilities")
        items.append("Rename")
        self.menu.items = items
        self.menu.go(self.menu.sel)
        self.name = ch.name

    def _fmt(self, f, val, acts):
        a = acts.get(f)
        lt = "<" if a and a[0] else " "
        rt = ">" if a and a[1] else " "
        return lr(f, lt + val + rt)

    def key(self, k):
        if self.menu.sel >= len(self.fields):     # the last row: Rename
            if k == K_OK:
                from ui.names import Rename
                self.app.push(Rename(self.app, 0, self.i, self.name))
                return DRAW
            return NO
        if self.fields[self.menu.sel] == "Abilities":
            if k == K_OK:
                from ui.abilities import Abilities
                self.app.push(Abilities(self.app, self.i))
                return DRAW
            return NO
        if k == K_LEFT or k == K_RIGHT:
            a = self.acts.get(self.fields[self.menu.sel])
            a = a and a[0 if k == K_LEFT else 1]
            if a:
                self.app.act(a[0], (self.i,) + a[1])
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.name, True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)
