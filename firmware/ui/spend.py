"""Spend class resources (expedition's USE_RES):
Characters > a sheet > OK on `res`, loaded on first use. Left on `res`
spends one; this form spends any number held, and says whether the power
may spend more than one a Round ("unless explicitly noted otherwise": in
a tracked fight the rules refuse a second one a Round without it).
"""

from ui.form import Form
from ui.screen import lr
from rules import expedition as ex

_YES_NO = ("no", "yes")


class Spend(Form):
    """Spend: 1..the resources character i holds; More/Round: the power
    may spend more than one a Round. OK spends them."""

    def __init__(self, app, i):
        held = app.c.chars[i].v[ex.RES]
        Form.__init__(self, app, [["Spend", 1, held if held > 1 else 1, 1], ["More/Round", 0, 1, 0]])
        self.i = i

    def show(self, j):
        return ("<%d>" % self.val(0)) if j == 0 else "<%s>" % _YES_NO[self.val(1)]

    def head(self):
        v = self.app.c.chars[self.i].v
        b = "CR %d/%d" % (v[ex.RES], v[ex.MAX_RES])
        return lr(self.app.c.chars[self.i].name[:15 - len(b)], b)

    def foot(self):
        return "OK: spend"

    def go(self):
        n, more = self.val(0), self.val(1)
        self.done(self.app.act(ex.USE_RES, (self.i, n, more) if more else (self.i, n)))
