"""Kit points spent on an item (hunt's KIT; Characters > a sheet > OK on
`kit`), loaded on first use: "Exorcists begin hunts with 5 kit points to
pull out items. The most common is a service weapon, for 2 KP."

`Points` 1..the exorcist's kit points and `Item`, its name (OK on it:
ui/naming.py), starting at the seed's most common, a Weapon for 2. OK
pulls it out: the note names the item.
"""

from hw.keys import K_OK
from ui.charform import CharForm
from ui.screen import lr, DRAW
from rules import hunt as m


class Kit(CharForm):
    def __init__(self, app, i):
        kp = app.c.chars[i].v[m.KITP]
        self.item = "Weapon"
        CharForm.__init__(self, app, [["Points", 1, kp if kp > 1 else 1, 2 if kp >= 2 else 1],
                                      ["Item", 0, 0, 0]], i)

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
        return CharForm.key(self, k)

    def named(self, name):
        self.item = name
        self.menu.go(0)  # back on Points: OK pulls it out
        self.refresh()

    def go(self):
        self.done(self.app.act(m.KIT, (self.i, self.val(0)), self.item))
