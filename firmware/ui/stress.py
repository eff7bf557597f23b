"""Stress of any size in one move (hunt's STRESS; Characters > a sheet >
OK on `stress`), loaded on first use. Right on the sheet's row is one
stress; this form is one move of 1..30: "An exorcist who takes 7+ stress
in a single move also suffers instant death", and on the brink of death
any stress does.

`Stress` N, and `Answer` when a trauma answer can be expended ("one
exorcist reduces the stress they take by 1d3, and the Sin takes an equal
number of slashes"). OK: when the stress left kills, the screen says so
and offers to defy fate ("Doing so heals one injury and immediately
forces the exorcist into sin overflow") or to die; otherwise it is taken.
The answer's d3 is rolled first (ui/predraw.py: the same die if the
choice is left and taken up again), so the choice is made knowing it, as
at the table; the event records it, and the overflow's d6 when defying.
"""

from hw.keys import K_UP, K_DOWN, K_OK
from ui.charform import CharForm
from ui.screen import Screen, row, lr, wrap, NO, DRAW, KEEP
from ui.form import Stop
from ui import predraw
from rules import hunt as m, hunt_more as hm

_YES_NO = ("<no>", "<yes>")


def _take(app, i, k, answer, defy, faces, pops):
    """STRESS (i, k, answer, defy) with the faces drawn; on success the
    `pops` screens over the sheet close, and its notes show there (a page
    of them when they are more than the sheet's rows: ui/notes.py)."""
    out = app.act(m.STRESS, (i, k, answer, defy), "", faces, False)  # (Fate refreshed: gone)
    if out is None:
        return
    for _ in range(pops):
        app.pop()
    from ui import notes
    notes.show(app, out)


class Stress(CharForm):
    def __init__(self, app, i):
        fields = [["Stress", 1, 30, 1]]
        if hm.answers(app.c):
            fields.append(["Answer", 0, 1, 0])
        CharForm.__init__(self, app, fields, i)

    def show(self, j):
        return ("<%d>" % self.val(0)) if j == 0 else _YES_NO[self.val(1)]

    def head(self):
        c = self.app.c
        ch = c.chars[self.i]
        st = c.tals[c.find(m.ROLE_STRESS, self.i)]
        return lr(ch.name, "brink" if ch.v[m.BRINK] else "STRESS %d/%d" % (st.n, st.cap))

    def foot(self):
        return "OK: take it"

    def go(self):
        app = self.app
        k = self.val(0)
        answer = self.val(1) if len(self.f) > 1 else 0
        r = predraw.faces(app, "answer", 3, 1) if answer else b""
        taken = k - r[0] if answer and k > r[0] else (0 if answer else k)
        if hm.kills(app.c, self.i, taken):
            app.push(Fate(app, self.i, k, answer, r, taken))
        else:
            _take(app, self.i, k, answer, 0, r if answer else None, 1)


class Fate(Screen):
    """The stress left kills: defy fate or die (Back: neither, yet)."""

    def __init__(self, app, i, k, answer, r, taken):
        Screen.__init__(self, app)
        self.i, self.k, self.answer, self.r = i, k, answer, r
        ch = app.c.chars[i]
        if ch.v[m.BRINK]:
            text = "%s is on the brink: any stress kills." % ch.name
        else:  # (after an answer: what is left of it)
            text = "%d stress %sin one move kills %s." % (taken, "left " if answer else "", ch.name)
        self.lines = wrap(text) + ["Defy: -1 injury,", "sin overflow."]
        self.menu = Stop(["Defy fate", "Instant death"], 6, 2)  # death never a wrap away
        self.n = app.c.nevents

    def refresh(self):
        if self.app.c.nevents != self.n:  # an undo, a host's action: ask again
            self.app.pop()

    def key(self, k):
        if k != K_OK:
            return KEEP if k & (K_UP | K_DOWN) else NO
        app = self.app
        if self.menu.sel == 0:  # the overflow's d6, drawn now: nothing is chosen after it
            faces = self.r + bytes([app.s.dice.d(6)])
            _take(app, self.i, self.k, self.answer, 1, faces, 2)
        else:
            _take(app, self.i, self.k, self.answer, 0, self.r if self.answer else None, 2)
        return DRAW

    def draw(self, fb):
        row(fb, 0, "INSTANT DEATH", True)
        for r in range(5):
            if r < len(self.lines):
                row(fb, 1 + r, self.lines[r])
        self.menu.draw(fb)
