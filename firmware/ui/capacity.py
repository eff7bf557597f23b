"""A talisman's capacity changed (the core's TAL_CAP; Talismans > a
talisman > Capacity), loaded on first use: a task found longer or
shorter than thought, a paths Exarch changing or revealing the successes
a prolonged test needs. Its slashes are cut to a smaller capacity."""

from ui.form import Form
from ui.screen import lr
from rules import campaign as cp, talisman as tl


class Capacity(Form):
    def __init__(self, app, t):
        tal = app.c.tals[t]
        Form.__init__(self, app, [["Capacity", 1, tl.MAX_CAP, tal.cap]])
        self.t = t

    def refresh(self):
        t = self.t
        if t >= len(self.app.c.tals) or self.app.c.tals[t] is None:  # undone
            self.app.pop()
            return
        Form.refresh(self)

    def show(self, j):
        return "<%d>" % self.val(0)

    def head(self):
        tal = self.app.c.tals[self.t]
        return lr(tal.name, "%d/%d" % (tal.n, tal.cap))

    def foot(self):
        return "OK: set"

    def go(self):
        self.done(self.app.act(cp.TAL_CAP, (self.t, self.val(0))))
