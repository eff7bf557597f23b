"""A form of numeric fields for the expedition's spell and town screens
(ui/spells.py, ui/town.py): Up/Down pick a field, Left/Right change it
(wrapping round its range), OK or ROLL does the screen's action. The
title row and the last row (the exact odds, or what OK does) are the
screen's; an action's Outcome opens the roll result (ui/result.py).
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK, K_ROLL
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW


class Form(Screen):
    """fields: [label, low, high, value] lists; subclasses give head(),
    foot(), show(j) (a field's value as shown) and go() (the action)."""

    def __init__(self, app, fields):
        Screen.__init__(self, app)
        self.f = fields
        self.menu = Menu([], 1, 6)
        self.top_row = ""
        self.last = ""

    def val(self, j):
        return self.f[j][3]

    def show(self, j):
        return "< %d >" % self.f[j][3]

    def head(self):
        return ""

    def foot(self):
        return "OK: go"

    def refresh(self):
        self.menu.items = [lr(self.f[j][0], self.show(j)) for j in range(len(self.f))]
        self.menu.go(self.menu.sel)
        self.top_row = self.head()
        self.last = self.foot()

    def key(self, k):
        if k == K_LEFT or k == K_RIGHT:
            fl = self.f[self.menu.sel]
            x = fl[3] + (1 if k == K_RIGHT else -1)
            fl[3] = fl[1] if x > fl[2] else (fl[2] if x < fl[1] else x)
            self.refresh()
            return DRAW
        if k == K_OK or k == K_ROLL:
            self.go()
            return DRAW
        return NO

    def go(self):
        """The screen's action."""

    def result(self, out, what):
        """Show an action's Outcome (None: refused, the app shows why)."""
        if out is not None:
            from ui.result import Result
            self.app.push(Result(self.app, out, what))

    def draw(self, fb):
        row(fb, 0, self.top_row, True)
        self.menu.draw(fb)
        if self.last:
            row(fb, 7, self.last)
        else:
            toast(fb, self.app.toast, 7, 1)
