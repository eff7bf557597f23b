"""Turn tracker. expedition: exploration or overland TURN events; the
encounter check and the usage dice it calls for come back in the
Outcome's notes, shown below. hunt: the scene tracker (end a scene, calm
or fight next; the risk die). paths has no turns (not in the home menu).
"""

from hw.keys import K_OK
from ui.buttons import PRESS
from ui.screen import Screen, Menu, row, wrap, NO, DRAW
from rules import expedition as ex, hunt


class Turns(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        if app.c.system == 2:
            self.acts = ((ex.TURN, (0,)), (ex.TURN, (1,)), (ex.ENC_CHECK, ()))
            items = ["Explore turn", "Overland turn", "Extra enc check"]
        else:
            self.acts = ((hunt.SCENE_END, (0,)), (hunt.SCENE_END, (1,)), (hunt.RISK, (-1,)))
            items = ["End scene: calm", "End scene: fight", "Risk die"]
        self.menu = Menu(items, 2, 3)
        self.notes = []

    def refresh(self):
        c = self.app.c
        x = c.x
        if c.system == 2:
            enc, use = ex.next_check(c)
            self.head = "TURN %d day %d" % (x[ex.TURN_N], x[ex.DAY])
            self.sub = "enc %d use %d" % (enc, use)
        else:
            self.head = "SCENE %d%s" % (x[hunt.X_SCENE], " fight" if x[hunt.X_COMBAT] else "")
            t = c.find(hunt.ROLE_TENSION)
            self.sub = "Tension %d/%d" % (c.tals[t].n, c.tals[t].cap) if t >= 0 else ""

    def key(self, k, kind):
        if kind != PRESS:
            return NO
        if self.menu.nav(k):
            return DRAW
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
