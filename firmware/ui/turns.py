"""Turn tracker. expedition: exploration or overland TURN events and the
short rest (it occupies an Exploration Turn); the encounter check and the
usage dice they call for come back in the Outcome's notes, shown below.
"Overland turn" checks every turn (the seed's "once per Overland Turn");
"Overland, safe" counts down the encounter countdown instead (travel by
boat or in a very safe place: half the checks at the default frequency). hunt: the scene tracker (end a scene, calm
or fight next; the risk die). paths has no turns (not in the home menu).
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, wrap, NO, DRAW


class Turns(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        m = app.c.rules  # expedition or hunt
        if app.c.system == 2:
            self.acts = ((m.TURN, (m.EXPLORE,)), (m.SHORT_REST, (0, 1)), (m.TURN, (m.OVERLAND,)),
                         (m.TURN, (m.OVERLAND_CD,)), (m.ENC_CHECK, ()))
            items = ["Explore turn", "Short rest", "Overland turn", "Overland, safe",
                     "Extra enc check"]
        else:
            self.acts = ((m.SCENE_END, (0,)), (m.SCENE_END, (1,)), (m.RISK, (-1,)))
            items = ["End scene: calm", "End scene: fight", "Risk die"]
        self.menu = Menu(items, 2, 3)
        self.notes = []

    def refresh(self):
        c = self.app.c
        x = c.x
        m = c.rules
        if c.system == 2:
            enc, use = m.next_check(c)
            self.head = "TURN %d day %d" % (x[m.TURN_N], x[m.DAY])
            self.sub = "enc %d use %d" % (enc, use)
        else:
            self.head = "SCENE %d%s" % (x[m.X_SCENE], " fight" if x[m.X_COMBAT] else "")
            t = c.find(m.ROLE_TENSION)
            self.sub = "Tension %d/%d" % (c.tals[t].n, c.tals[t].cap) if t >= 0 else ""

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
