"""hunt's rest (Scenes > Rest), loaded on first use. "Rests are taken as
a party. When resting, pressure increases by 1, then each exorcist rolls
2d3. Each die can be spent separately to regain psyche bursts, heal
stress, or clear hook slashes equal to the result."

The dice are rolled as the screen opens (ui/predraw.py: the same ones
until an event comes between, so Back is no re-roll) and shown one a row,
`Ada 3  <stress>`; Left/Right spend that die on bursts, stress or one of
that exorcist's hooks; OK rests (REST with those faces): the pressure
step, its triggers, and what each die did, on Scenes (a page of them:
ui/notes.py).
"""

from hw.keys import K_LEFT, K_RIGHT
from ui.form import Form
from ui.screen import NO
from ui import predraw
from rules import hunt as m, hunt_more as hm


class Rest(Form):
    def __init__(self, app):
        c = app.c
        self.who = []   # each die's exorcist
        self.codes = []  # each die's spending codes (REST: 0 bursts, 1 stress, 2 + t hook t)
        live = [i for i in range(len(c.chars)) if not c.chars[i].v[m.DEAD]]
        self.heal = hm.rest_heals(c)
        self.faces = predraw.faces(app, "rest", 3, self.heal + 2 * len(live))
        fields = []
        k = self.heal
        for i in live:
            ch = c.chars[i]
            codes = [m.REST_BURSTS, m.REST_STRESS]
            for t in hm.tals(c, m.ROLE_HOOK, i):
                codes.append(m.REST_HOOK + t)
            st = c.find(m.ROLE_STRESS, i)
            first = 1 if st >= 0 and c.tals[st].n else 0  # stress to heal first, else bursts
            for _ in range(2):
                self.who.append(i)
                self.codes.append(codes)
                fields.append(["%s %d" % (ch.name, self.faces[k]), 0, len(codes) - 1, first])
                k += 1
        Form.__init__(self, app, fields)
        self.n = c.nevents

    def refresh(self):
        if self.app.c.nevents != self.n:  # an undo, a host's action: dice for another state
            self.app.pop()
            return
        Form.refresh(self)

    def key(self, k):
        if not self.f and k & (K_LEFT | K_RIGHT):
            return NO  # no one to rest: no die to spend
        return Form.key(self, k)

    def show(self, j):
        code = self.codes[j][self.val(j)]
        if code == m.REST_BURSTS:
            return "<bursts>"
        if code == m.REST_STRESS:
            return "<stress>"
        return "<%s>" % self.app.c.tals[code - m.REST_HOOK].name

    def head(self):
        return "REST pressure +1"

    def foot(self):
        return "OK: rest"

    def go(self):
        app = self.app
        c = app.c
        args = [0] * (2 * len(c.chars))  # the dead spend nothing: 0
        n = [0] * len(c.chars)
        for j in range(len(self.f)):
            i = self.who[j]
            args[2 * i + n[i]] = self.codes[j][self.val(j)]
            n[i] += 1
        # (not refreshed first: a refresh after an event closes it)
        self.done(app.act(m.REST, tuple(args), "", self.faces, False))
