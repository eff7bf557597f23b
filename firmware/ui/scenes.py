"""hunt's Scenes (Home > Scenes: ui/hunt.py), loaded on first open: what
the admin does between the exorcists' rolls, and, one row down, the hunt
itself.

Scenes: `New scene: calm` and `New scene: fight` (SCENE_END: the scene
under way passes, a calm one slashing tension, and the next one is calm
or a fight), `Fight breaks out` in a calm scene (SCENE 1: the scene under
way becomes a fight), `Risk die` for the acting exorcist (Left/Right: who;
it starts at who last rolled in the builder: a 1 slashes their hooks),
`Rest` (ui/rest.py) and `The hunt`.

The hunt: when the Sin's talisman is full, `Execute the Sin` and, with
all three trauma questions answered, `Spare the Sin` (SIN_END); `Answer
found` (TRAUMA: one more of the three); `Sin goes outside` in its palace,
`Nail of Abel` outside it (PALACE); `End of session` (SESSION_END, asked
first); `New hunt` (NEW_HUNT: the Sin's CAT, in its palace or not); `Success
on` (Left/Right: FACE 2+..6+).

An action's notes show on the two bottom rows, every one on a page when
they are more (ui/notes.py). The lists stop at their ends (ui/form.py
Stop): Up on the first row and Down on the last stay where they are, so
no press from one end lands on the other's action.
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, row, lr, toast, NO, DRAW
from ui.form import Form, Stop, Ask
from rules import hunt as m

_YES_NO = ("<no>", "<yes>")


class Rows(Screen):
    """A title, a row under it, a list on rows 2..5 that stops at its
    ends, and the last action's notes on rows 6..7. Subclasses give
    rows() and do(id) (and Left/Right: turn(id, d))."""

    NOTES = 2

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Stop([], 2, 4)
        self.ids = []
        self.head = self.sub = ""

    def refresh(self):
        self.ids = []
        items = []
        self.rows(self.app.c, self.ids, items)
        self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        i = self.ids[self.menu.sel]
        if k == K_OK:
            self.do(i)
            return DRAW
        if k == K_LEFT or k == K_RIGHT:
            return self.turn(i, -1 if k == K_LEFT else 1)
        return NO

    def rows(self, c, ids, items):
        """The list's rows into items, each one's id into ids (and the
        title, head, and the row under it, sub)."""

    def do(self, i):
        """OK on the row of id i."""

    def turn(self, i, d):
        """Left/Right (d -1/1) on the row of id i."""
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        row(fb, 1, self.sub)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)


_CALM, _FIGHT, _BREAKS, _RISK, _REST, _HUNT = range(6)


class Scenes(Rows):
    def __init__(self, app):
        Rows.__init__(self, app)
        p = app.pool
        self.who = p.v["who"] if p is not None else -1  # the acting exorcist: who last rolled

    def rows(self, c, ids, items):
        x = c.x
        self.head = "SCENE %d%s" % (x[m.X_SCENE], "  a fight" if x[m.X_COMBAT] else "")
        t = c.find(m.ROLE_TENSION)
        self.sub = "Tension %d/%d" % (c.tals[t].n, c.tals[t].cap) if t >= 0 else ""
        ids.extend((_CALM, _FIGHT))
        items.extend(("New scene: calm", "New scene: fight"))
        if not x[m.X_COMBAT]:
            ids.append(_BREAKS)
            items.append("Fight breaks out")
        w = self.who
        if not (0 <= w < len(c.chars)) or c.chars[w].v[m.DEAD]:
            w = self.who = -1
        ids.extend((_RISK, _REST, _HUNT))
        items.extend((lr("Risk die", "<%s>" % (c.chars[w].name if w >= 0 else "-")), "Rest",
                      "The hunt"))

    def do(self, i):
        app = self.app
        if i == _CALM or i == _FIGHT:
            app.act(m.SCENE_END, (i,))
        elif i == _BREAKS:
            app.act(m.SCENE, (1,))
        elif i == _RISK:
            app.act(m.RISK, (self.who,))
        elif i == _REST:
            from ui.rest import Rest
            app.push(Rest(app))
        else:
            app.push(Hunt(app))

    def turn(self, i, d):
        if i != _RISK:
            return NO
        c = self.app.c
        w = self.who
        while True:  # the next one alive, or nobody (`-`, first): it stops at the ends
            w += d
            if w < -1 or w >= len(c.chars):
                return DRAW
            if w < 0 or not c.chars[w].v[m.DEAD]:
                break
        self.who = w
        self.refresh()
        return DRAW


_EXECUTE, _SPARE, _ANSWER, _PALACE, _SESSION, _NEW, _FACE = range(7)


class Hunt(Rows):
    def rows(self, c, ids, items):
        x = c.x
        self.head = lr("THE HUNT", str(x[m.X_HUNT])) if x[m.X_HUNT] else "THE HUNT"
        s = c.find(m.ROLE_SIN)
        sin = c.tals[s] if s >= 0 else None
        if sin is None:
            self.sub = "no Sin: New hunt"
        elif x[m.X_OUTCOME]:
            self.sub = "Sin %s" % m.OUTCOMES[x[m.X_OUTCOME]]
        else:
            self.sub = lr("Sin %d/%d" % (sin.n, sin.cap), "inside" if x[m.X_PALACE] else "outside")
        if sin is not None and sin.filled() and not x[m.X_OUTCOME]:
            ids.append(_EXECUTE)
            items.append("Execute the Sin")
            if x[m.X_ANSWERED] >= 3:
                ids.append(_SPARE)
                items.append("Spare the Sin")
        ids.extend((_ANSWER, _PALACE, _SESSION, _NEW, _FACE))
        items.extend((lr("Answer found", "%d/3" % x[m.X_ANSWERED]),
                      "Sin goes outside" if x[m.X_PALACE] else "Nail of Abel",
                      "End of session", "New hunt", lr("Success on", "<%d+>" % x[m.X_FACE])))

    def do(self, i):
        app = self.app
        c = app.c
        if i == _EXECUTE or i == _SPARE:
            app.act(m.SIN_END, (i,))
        elif i == _ANSWER:
            app.act(m.TRAUMA)
        elif i == _PALACE:
            app.act(m.PALACE, (0 if c.x[m.X_PALACE] else 1,))
        elif i == _SESSION:
            app.push(Ask(app, "END SESSION?", ("Pathos: all lost", "Divine agony:", "usable again",
                                               "", "OK: end it", "Back: cancel"),
                         lambda: app.act(m.SESSION_END)))
        elif i == _NEW:
            app.push(NewHunt(app))

    def turn(self, i, d):
        if i != _FACE:
            return NO
        f = self.app.c.x[m.X_FACE] + d
        if 2 <= f <= 6:
            self.app.act(m.FACE, (f,))
        return DRAW


class NewHunt(Form):
    """A new hunt: the Sin's CAT and whether the fight starts in its
    palace. Tension and pressure back to 0, the Sin's talisman 8 + CAT,
    every exorcist's bursts 3 and kit 5 (rules/hunt.py)."""

    def __init__(self, app):
        s = app.c.find(m.ROLE_SIN)
        Form.__init__(self, app, [["Sin's CAT", 0, 20, app.c.tals[s].a if s >= 0 else 0],
                                  ["In palace", 0, 1, 0]])
        self.menu = Stop([], 1, 6)  # OK on any row resets the hunt: never a wrap away

    def show(self, j):
        return ("<%d>" % self.val(0)) if j == 0 else _YES_NO[self.val(1)]

    def head(self):
        return "NEW HUNT"

    def foot(self):
        return "OK: start it"

    def go(self):
        self.done(self.app.act(m.NEW_HUNT, (self.val(0), self.val(1))))

