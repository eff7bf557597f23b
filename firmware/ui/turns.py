"""Turn tracker: the system's rows above a menu of one row an event, the
last action's notes below. What the rows are is the system's
(ui/systems.py `get`: turns() and turns_head(c), its rows above the menu,
the title first). expedition (ui/expedition_more.py): exploration or
overland TURN events and the short rest (it occupies an Exploration
Turn); the encounter check and the usage dice they call for come back in
the Outcome's notes, shown below (every one: a page of them when they
are more than the two rows, ui/notes.py). "Overland turn" checks every
turn (the seed's "once per Overland Turn"); "Overland, safe" counts down
the encounter countdown instead (travel by boat or in a very safe place:
half the checks at the default frequency). paths (ui/paths_more.py), as
Fight: a fight starts or ends (COMBAT; while it lasts, only simple
prolonged tests). hunt's Scenes are ui/scenes.py.

The menu stops at its ends (ui/form.py Stop): a fight's start and end
are its first and last rows, never a wrap away.
"""

from hw.keys import K_OK
from ui.screen import Screen, row, toast, NO, DRAW
from ui.form import Stop
from ui import systems


class Turns(Screen):
    NOTES = 2

    def __init__(self, app):
        Screen.__init__(self, app)
        self.ui = systems.get(app.c.system)
        self.acts, items = self.ui.turns()
        self.heads = self.ui.turns_head(app.c)
        self.menu = Stop(items, len(self.heads), 6 - len(self.heads))

    def refresh(self):
        self.heads = self.ui.turns_head(self.app.c)

    def key(self, k):
        if k == K_OK:
            kd, a = self.acts[self.menu.sel]
            self.app.act(kd, a)
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.heads[0], True)
        for r in range(1, len(self.heads)):
            row(fb, r, self.heads[r])
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)
