"""Turn tracker: one row an event, its notes below. What the rows are is
the system's (ui/systems.py `get`: turns() and turns_head(c)). expedition
(ui/expedition_more.py): exploration or overland TURN events and the short
rest (it occupies an Exploration Turn); the encounter check and the usage
dice they call for come back in the Outcome's notes, shown below.
"Overland turn" checks every turn (the seed's "once per Overland Turn");
"Overland, safe" counts down the encounter countdown instead (travel by
boat or in a very safe place: half the checks at the default frequency).
paths (ui/paths_more.py), as Fight: a fight starts or ends (COMBAT; while
it lasts, only simple prolonged tests). hunt's Scenes are ui/scenes.py.
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, wrap, NO, DRAW
from ui import systems


class Turns(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.ui = systems.get(app.c.system)
        self.acts, items = self.ui.turns()
        self.menu = Menu(items, 2, 3)
        self.notes = []

    def refresh(self):
        self.head, self.sub = self.ui.turns_head(self.app.c)

    def key(self, k):
        if k == K_OK:
            kd, a = self.acts[self.menu.sel]
            out = self.app.act(kd, a)
            self.notes = []
            if out is not None:
                for n in out.notes:
                    self.notes.extend(wrap(n))
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        row(fb, 1, self.sub)
        self.menu.draw(fb)
        for r in range(3):
            if r < len(self.notes):
                row(fb, 5 + r, self.notes[r])
