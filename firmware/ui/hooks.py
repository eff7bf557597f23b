"""An exorcist's hooks (hunt's HOOK; Characters > a sheet > Hooks),
loaded on first use. "Hooks are talismans (capacity: 3) that represent
an impending consequence. An exorcist slashes a hook whenever pressure
increases, or the exorcist takes a risky action that rolls a 1 on the
risk die, or the exorcist would gain that hook again."

One row per hook, `Debt  1/3`: OK gains it again (a slash; filled, it
fires and is gone). Then `+ gain a hook` and `+ bargain` (a hook taken
for a bargain with the admin: "They offer to take a hook"): OK asks its
name (ui/naming.py; `Threat N`, `Bargain N` as it starts: the rules
note a hook as `Hook <name> n/3`) and gains it.
The notes on the bottom rows (a page of them when they are more:
ui/notes.py); the list stops at its ends.
"""

from hw.keys import K_OK
from ui.screen import Screen, row, lr, toast, NO, DRAW
from ui.form import Stop
from rules import hunt as m, hunt_more as hm


class Hooks(Screen):
    NOTES = 2

    def __init__(self, app, i):
        Screen.__init__(self, app)
        self.i = i
        self.menu = Stop([], 1, 5)  # a wrap from `+ bargain` never lands on a hook's slash
        self.idx = []

    def refresh(self):
        c = self.app.c
        if self.i >= len(c.chars):  # undone
            self.app.pop()
            return
        self.name = c.chars[self.i].name
        self.idx = hm.tals(c, m.ROLE_HOOK, self.i)
        items = [lr(c.tals[t].name, "%d/3" % c.tals[t].n) for t in self.idx]
        items.append("+ gain a hook")
        items.append("+ bargain")
        self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        if k != K_OK:
            return NO
        app = self.app
        s = self.menu.sel
        if s < len(self.idx):
            self.gain(app.c.tals[self.idx[s]].name)
            return DRAW
        word = "Bargain" if s > len(self.idx) else "Threat"
        names = [app.c.tals[t].name for t in self.idx]
        n = 1
        while "%s %d" % (word, n) in names:
            n += 1
        from ui.naming import Naming
        app.push(Naming(app, "BARGAIN" if word == "Bargain" else "NEW HOOK", "%s %d" % (word, n),
                        self.gain))
        return DRAW

    def gain(self, name):
        """HOOK: gain the hook `name` (again: a slash)."""
        n = len(self.idx)
        s = self.menu.sel
        if self.app.act(m.HOOK, (self.i,), name) is not None and len(self.idx) > n and s >= n:
            self.menu.go(s + 1)  # still on the row pressed, one row lower now

    def draw(self, fb):
        row(fb, 0, lr(self.name, "HOOKS"), True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)
