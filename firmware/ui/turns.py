"""Turn tracker: the system's rows above a menu of one row an event, the
last action's notes below. What the rows are is the system's
(ui/systems.py `get`: turns() and turns_head(c), its rows above the menu,
the title first). expedition (ui/expedition_more.py): exploration or
overland TURN events, the short rest (it occupies an Exploration Turn)
and the long one; the encounter check and the usage dice they call for
come back in the Outcome's notes, shown below (every one: a page of them
when they are more than the two rows, ui/notes.py); rows whose kind is 0
open a screen (the encounter rate, usage dice, extended tests:
ui/clocks.py). "Overland turn" checks every turn (the seed's "once per
Overland Turn"); "Overland, safe" counts down the encounter countdown
instead (travel by boat or in a very safe place: half the checks at the
default frequency). paths (ui/paths_more.py), as Fight: a fight starts
or ends (COMBAT; while it lasts, only simple prolonged tests). hunt's
Scenes are ui/scenes.py.

The menu stops at its ends (ui/form.py Stop): a fight's start and end
are its first and last rows, never a wrap away. expedition's rows end
nothing (TURNS_WRAP): its menu wraps, Up from Explore turn onto the
clocks at its end.
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, toast, NO, DRAW
from ui.form import Stop
from ui import systems


class Turns(Screen):
    NOTES = 2

    def __init__(self, app):
        Screen.__init__(self, app)
        self.ui = systems.get(app.c.system)
        self.acts, items = self.ui.turns()
        self.heads = self.ui.turns_head(app.c)
        # A menu that ends something at an end (a fight) stops
        # there; expedition's ends nothing, and Up from its first row
        # reaches the clocks below.
        self.menu = (Menu if getattr(self.ui, "TURNS_WRAP", 0) else Stop)(
            items, len(self.heads), 6 - len(self.heads))

    def refresh(self):
        self.heads = self.ui.turns_head(self.app.c)

    def key(self, k):
        if k == K_OK:
            kd, a = self.acts[self.menu.sel]
            if not kd:   # a row that opens a screen: a = b"module Class" (App.open)
                self.app.open(a)
                return DRAW
            self.app.act(kd, a)
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.heads[0], True)
        for r in range(1, len(self.heads)):
            row(fb, r, self.heads[r])
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)
