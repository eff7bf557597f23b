"""Roll builder: the active system's pool parts, one per row, with the
live exact odds on the bottom row (recomputed on each change).

Up/Down pick a part, Left/Right change it, OK or Roll rolls (Roll works
from any screen). The values live in app.pool (ui/pools.py).
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.buttons import PRESS
from ui.screen import Screen, Menu, row, lr, NO, DRAW, KEEP


class Builder(Screen):
    title = "ROLL"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 6)
        self.head = ""
        self.odds = ""

    def refresh(self):
        app = self.app
        c = app.c
        p = app.pool
        p.fix(c)
        self.fs = p.fields()
        self.menu.items = [lr(p.label(f), p.text(c, f)) for f in self.fs]
        self.menu.go(self.menu.sel)
        self.head = lr("ROLL", p.desc(c))
        self.odds = p.odds(c)

    def key(self, k, kind):
        if kind != PRESS:
            return NO
        if self.menu.nav(k):
            return DRAW
        if k == K_LEFT or k == K_RIGHT:
            self.app.pool.change(self.app.c, self.fs[self.menu.sel], -1 if k == K_LEFT else 1)
            self.refresh()
            return DRAW
        if k == K_OK:
            self.app.roll()
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        self.menu.draw(fb)
        row(fb, 7, self.odds)
