"""Kit points spent on an item (hunt's KIT; Characters > a sheet > OK on
`kit`), loaded on first use: "Exorcists begin hunts with 5 kit points to
pull out items. The most common is a service weapon, for 2 KP."

`Points` 1..the exorcist's kit points and `Item`, its name (OK on it:
ui/naming.py), starting at the seed's most common, a Weapon for 2. OK
pulls it out: the note names the item.
"""

from hw.keys import K_OK
from ui.form import Form
from ui.screen import lr, DRAW
from rules import hunt as m


class Kit(Form):
    def __init__(self, app, i):
        kp = app.c.chars[i].v[m.KITP]
        Form.__init__(self, app, [["Points", 1, kp if kp > 1 else 1, 2 if kp >= 2 else 1],
                                  ["Item", 0, 0, 0]])
        self.i = i
        self.item = "Weapon"

    def refresh(self):
        if self.i >= len(self.app.c.chars):  # undone
            self.app.pop()
            return
        Form.refresh(self)

    def show(self, j):
        return ("<%d>" % self.val(0)) if j == 0 else self.item

    def head(self):
        c = self.app.c
        return lr(c.chars[self.i].name, "KIT %d" % c.chars[self.i].v[m.KITP])

    def foot(self):
        return "OK: pull it out"

    def key(self, k):
        if k == K_OK and self.menu.sel == 1:
            from ui.naming import Naming
            self.app.push(Naming(self.app, "KIT ITEM", self.item, self.named))
            return DRAW
        return Form.key(self, k)

    def named(self, name):
        self.item = name
        self.menu.go(0)  # back on Points: OK pulls it out
        self.refresh()

    def go(self):
        app = self.app
        if app.act(m.KIT, (self.i, self.val(0)), self.item) is not None:
            app.pop()
