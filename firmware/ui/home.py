"""Home: the active rule system and its trackers at a glance (hunt:
tension, pressure and the Sin; paths: open prolonged tests; expedition:
turn, day, next encounter and usage checks), then the menu. The title,
the tracker rows, the menu and the screen each row opens are the
system's (`system`: ui/hunt.py, paths.py, expedition.py).
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, lr, NO, DRAW

_loaded = [None, None, None]


def system(n):
    """Rule system n's part of home and the LED ring (ui/hunt.py,
    paths.py, expedition.py), imported on first use: only the
    campaign's own. Here, not in ui/systems.py (the rest of a system's
    screens), so that the boot loads one module for it, not two."""
    m = _loaded[n]
    if m is not None:
        return m  # an import statement resolves its dotted name: ~60,000 fuel
    if n == 0:
        from ui import hunt as m
    elif n == 1:
        from ui import paths as m
    else:
        from ui import expedition as m
    _loaded[n] = m
    return m


class Home(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 4, 4)
        self.lines = ["", "", ""]
        self.head = ""

    def refresh(self):
        c = self.app.c
        ui = system(c.system)  # NAME, MENU, SCREENS, lines(c, out), dial(app)
        self.menu.items = ui.MENU
        self.menu.go(self.menu.sel)
        self.head = lr(ui.NAME, "#%d" % c.nevents)
        L = self.lines
        L[0] = L[1] = L[2] = ""
        ui.lines(c, L)

    def key(self, k):
        if k == K_OK:
            self.app.open(system(self.app.c.system).SCREENS[self.menu.sel])
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        for r in range(3):
            row(fb, r + 1, self.lines[r])
        self.menu.draw(fb)
