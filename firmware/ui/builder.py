"""Roll builder: the active system's pool parts, one per row, with the
live exact odds on the bottom row (recomputed on each change).

Up/Down pick a part, Left/Right change it, OK or Roll rolls (Roll works
from any screen; OK on a part that opens a form opens it instead: paths'
Test `+ new`). The values live in app.pool (ui/pools.py).

The last action's note (app.toast: "Undone" after a long Back) takes the
odds row until the next key: the part rows fill the rest of the screen,
and a roll's own notes were read on its result (App.fresh tells which).
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from ui import poolodds


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
        p = app.need_pool()
        p.fix(c)
        self.fs = p.fields()
        self.menu.items = [p.item(c, f) for f in self.fs]
        self.menu.go(self.menu.sel)
        self._pool()

    def _pool(self):
        """The title's pool and the odds line (they follow every change)."""
        p = self.app.pool
        c = self.app.c
        try:
            n = p.dice(c)  # once for both
        except ValueError as e:
            self.head = lr("ROLL", "bad pool")
            self.odds = str(e)
            return
        self.head = p.head("ROLL", c, n)
        self.odds = poolodds.line(p, c, n)

    def key(self, k):
        if k == K_LEFT or k == K_RIGHT:
            p = self.app.pool
            c = self.app.c
            i = self.menu.sel
            f = self.fs[i]
            if p.change(c, f, -1 if k == K_LEFT else 1) or f == "mode":
                # Another mode, other fields; a reference picked, rows that
                # follow it (paths' levels from a sheet): every row again.
                self.refresh()
                self.menu.go(self.fs.index(f))  # the cursor stays on the row it was on
            else:
                # One value changed: its row, the pool and the odds; the
                # other rows keep their strings (each new str costs).
                self.menu.items[i] = p.item(c, f)
                self._pool()
            return DRAW
        if k == K_OK:
            if not self.app.pool.opens(self.app, self.fs[self.menu.sel]):
                self.app.roll()
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        self.menu.draw(fb)
        app = self.app
        if app.fresh and app.toast:
            toast(fb, app.toast, 7, 1)
        else:
            row(fb, 7, self.odds)
