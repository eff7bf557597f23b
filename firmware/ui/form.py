"""A form of numeric fields (the expedition's spell, town and foe screens,
a sheet's spend: ui/spells.py, ui/town.py...): Up/Down pick a field,
Left/Right change it (it stops at either end of its range), OK or ROLL
does the screen's action. The title row and the last row (the exact
odds, or what OK does) are the screen's. An action's Outcome opens the
roll result (ui/result.py) in the form's place: Back or OK there returns
to the screen the form was opened from, never to the form (one more OK
would do it again); an action without a result goes back there too, its
notes shown on that screen (`done`).

Also the menu that stops at its ends (`Stop`), for lists whose first or
last row ends something: a wrap must not land there; and `Ask`, the
question before such a row's action.
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW, KEEP


class Stop(Menu):
    """A menu whose Up on the first row and Down on the last stay put."""

    def move(self, d):
        self.go(self.sel + d)


class Ask(Screen):
    """A question before an action that ends something: the title, then
    `rows` from row 2 (the last two say `OK: ...` and `Back: cancel`);
    OK closes it and calls `then()`, Back closes it."""

    def __init__(self, app, title, rows, then):
        Screen.__init__(self, app)
        self.title = title
        self.rows = rows
        self.then = then

    def key(self, k):
        if k == K_OK or k == K_BACK:
            self.app.pop()
            if k == K_OK:
                self.then()
            return DRAW
        return KEEP

    def draw(self, fb):
        row(fb, 0, self.title, True)
        for r in range(len(self.rows)):
            row(fb, r + 2, self.rows[r])


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
        return "<%d>" % self.f[j][3]

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
            fl[3] = fl[1] if x < fl[1] else (fl[2] if x > fl[2] else x)
            self.refresh()
            return DRAW
        if k == K_OK or k == K_ROLL:
            self.go()
            return DRAW
        return NO

    def go(self):
        """The screen's action."""

    def result(self, out, what):
        """Show an action's Outcome (None: refused, the app shows why) in
        the form's place."""
        if out is not None:
            from ui.result import Result
            app = self.app
            if app.top() is self:
                app.pop()
            app.push(Result(app, out, what))

    def done(self, out):
        """An action done (out: its Outcome, None when refused: the form
        stays): back where the form was opened, its notes shown there."""
        if out is not None:
            from ui import notes
            self.app.pop()
            notes.show(self.app, out)

    def draw(self, fb):
        row(fb, 0, self.top_row, True)
        self.menu.draw(fb)
        if self.last:
            row(fb, 7, self.last)
        else:
            toast(fb, self.app.toast, 7, 1)
