"""Home: the active rule system and its trackers at a glance (hunt:
tension, pressure and the Sin; paths: open prolonged tests; expedition:
turn, day, next encounter and usage checks), then the menu.
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, lr, NO, DRAW

NAMES = ("HUNT", "PATHS", "EXPEDITION")


class Home(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 4, 4)
        self.lines = ["", "", ""]
        self.head = ""

    def _items(self):
        it = ["Roll", "Key in dice", "Talismans", "Characters"]
        if self.app.c.system == 0:
            it.append("Scenes")
        elif self.app.c.system == 2:
            it.append("Turns")
            it.append("Spells")  # ui/spells.py, ui/town.py (issue 13 items 5, 7)
            it.append("Town")
        it.append("Log")
        it.append("Settings")
        if self.app.c.system == 2:
            it.append("Foes")  # last: Up from Roll (ui/foes.py)
        return it

    def refresh(self):
        c = self.app.c
        self.menu.items = self._items()
        self.menu.go(self.menu.sel)
        self.head = lr(NAMES[c.system], "#%d" % c.nevents)
        L = self.lines
        L[0] = L[1] = L[2] = ""
        m = c.rules
        if c.system == 0:
            k = 0
            for role, name in ((m.ROLE_TENSION, "Tension"), (m.ROLE_PRESSURE, "Pressure"),
                               (m.ROLE_SIN, "Sin")):
                t = c.find(role)
                if t >= 0:
                    tal = c.tals[t]
                    extra = " pal" if role == m.ROLE_SIN and c.x[m.X_PALACE] else ""
                    L[k] = lr(name, "%d/%d%s" % (tal.n, tal.cap, extra))
                k += 1
        elif c.system == 1:
            L[0] = lr("Open tests", str(m.open_tests(c)))
            k = 1
            for t in c.tals:
                if k < 3 and t is not None and t.role == m.PROLONGED \
                        and m.status(t) == m.ST_OPEN:
                    hidden = (t.b >> 9) & 1
                    L[k] = lr(t.name, "%d/%s" % (t.n, "?" if hidden else str(t.cap)))
                    k += 1
        else:
            enc, use = m.next_check(c)
            L[0] = lr("Turn %d" % c.x[m.TURN_N], "day %d" % c.x[m.DAY])
            L[1] = lr("Next encounter", str(enc))
            L[2] = lr("Next usage", str(use))

    def key(self, k):
        if k == K_OK:
            self.app.open(self.menu.items[self.menu.sel])
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        for r in range(3):
            row(fb, r + 1, self.lines[r])
        self.menu.draw(fb)
