"""Roll builder: the active system's pool parts, one per row, with the
live exact odds on the bottom row (recomputed on each change).

Up/Down pick a part, Left/Right change it, OK or Roll rolls (Roll works
from any screen; OK on a part that opens a form opens it instead: paths'
Test `+ new`). The values live in app.pool (ui/pools.py).

The last action's note (app.toast: "Undone" after a long Back) takes the
odds row until the next key: the part rows fill the rest of the screen,
and a roll's own notes were read on its result (App.fresh tells which).
Odds of two figures (an expedition versus roll's win and tie) take the
two bottom rows, the parts one row fewer.

A pool partly the GM's (paths' hidden difficulty: Pool.secret) says so
in the title and hides what is the GM's until a long OK here shows it
(the GM view, until the builder is left); elsewhere a long OK redoes,
as on any screen.
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from ui import poolodds


class Builder(Screen):
    title = "ROLL"
    NOTES = 1

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 6)
        self.head = ""
        self.odds = ""
        app.need_pool().gm = False

    def refresh(self):
        app = self.app
        c = self.c = app.c   # for key(): a refresh follows every change of them
        p = self.p = app.need_pool()
        p.fix(c)
        self.fs = p.fields()
        self.menu.items = [p.item(c, f) for f in self.fs]
        # A pool partly the GM's, and odds of two figures (a versus roll's
        # win, then its tie, on the two bottom rows), have their own _pool
        # and draw, set on this screen here, so that no key of any other
        # pool pays a test for them.
        try:
            del self._pool, self.draw
        except AttributeError:
            pass
        if p.secret():
            self._pool = self._pool_gm
        if p.two():
            self.menu.h = 5
            self._pool, self.draw = self._pool2, self._draw2
        else:
            self.menu.h = 6
        self.menu.go(self.menu.sel)
        self._pool(p, c)

    def _pool(self, p, c):
        """The title's pool and the odds line (they follow every change) of
        pool p over campaign c."""
        try:
            n = p.dice(c)  # once for both
        except ValueError:
            self.head = lr(p.title, "bad pool")
            self.odds = self.odds6 = "Roll: says why"
            return
        self.head = p.head("ROLL", c, n)
        self.odds = poolodds.line(p, c, n)

    def _pool_gm(self, p, c):
        """_pool for a pool partly the GM's: its title (HIDDEN, HIDDEN GM),
        its odds only in the GM view."""
        try:
            n = p.dice(c)
        except ValueError:
            return Builder._pool(self, p, c)
        self.head = p.head(p.title, c, n)
        self.odds = poolodds.line(p, c, n) if p.gm else "long OK: GM view"

    def _pool2(self, p, c):
        """_pool for odds of two figures (poolodds: the win and the tie, a
        tuple), a row each."""
        Builder._pool(self, p, c)
        o = self.odds
        if type(o) is tuple:   # else why the pool is refused, on both rows
            self.odds6, self.odds = o

    def key(self, k):
        if k == K_LEFT or k == K_RIGHT:
            # (Few locals: a frame of more than 11 slots is allocated on the
            # heap at every call, docs/architecture.md.)
            p = self.p
            d = -1 if k == K_LEFT else 1
            i = self.menu.sel
            f = self.fs[i]
            if p.change(self.c, f, d) or f == "mode" or f == "hidden":
                # Another mode, other fields; a difficulty hidden or shown;
                # a reference picked, rows that follow it (paths' levels
                # from a sheet): every row again, the cursor where it was.
                self.refresh()
                self.menu.go(self.fs.index(f))
            else:
                # One value changed: its row, the pool and the odds; the
                # other rows keep their strings (each new str costs).
                self.menu.items[i] = p.item(self.c, f)
                self._pool(p, self.c)
            return DRAW
        if k == K_OK:
            if not self.app.pool.opens(self.app, self.fs[self.menu.sel]):
                self.app.roll()
            return DRAW
        return NO

    def long(self, k):
        """Long OK on a pool partly the GM's: the GM view on or off."""
        p = self.app.pool
        if k == K_OK and p.secret():
            p.gm = not p.gm
            self.refresh()
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

    def _draw2(self, fb):
        """draw for odds of two figures: the first on row 6."""
        Builder.draw(self, fb)
        row(fb, 6, self.odds6)
