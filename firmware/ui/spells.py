"""Spells (expedition): every known spell with its
Ability, Ob and '*' when lost until a long rest; OK on one opens its
Channeling Test, '+ learn' a new spell ('Spell N': rename it under
Talismans), 'Mutate' a random Mutation, 'Mastery check' the
Spell Mastery Check of a new spell: its Ability's pool against its Ob +
1; a success learns it, a failure leaves its NEVER record (the sorcerer
can never learn a spell of that name). Events: SPELL (kind 124,
rules/expedition_spells.py).

The Channeling Test's form: the sorcerer's score in the spell's
Ability, bonus and penalty dice, damage already taken while channeling
(`Damage`), and an attack the test defends against (`Attack`: none, by
an Ability, or by a monster's Level; then its score, its bonus dice and
the sorcerer's blocks). The title shows the pool and the Ob (the spell's
+ 1 a Slot of armor and shield + damage taken); the last row the exact
odds of meeting it.
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from ui.form import Form
from rules import odds
from rules import expedition as ex
from rules import expedition_spells as sp

SHORT = ("Mi", "Ag", "Pr", "Ac", "Kn", "Di")


class Spells(Screen):
    NOTES = 2

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 5)
        self.idx = []

    def refresh(self):
        c = self.app.c
        self.idx = sp.spells(c)
        items = []
        for t in self.idx:
            tal = c.tals[t]
            items.append(lr(tal.name[:11], "%s%d%s" % (SHORT[tal.a], tal.b, "*" if tal.n else " ")))
        items.append("+ learn")
        items.append("Mutate")
        items.append("Mastery check")
        self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        if k != K_OK:
            return NO
        app = self.app
        i = self.menu.sel
        if not app.c.chars:
            app.toast = "add a character first"
            return DRAW
        if i < len(self.idx):
            app.push(Channel(app, self.idx[i]))
        elif i == len(self.idx):
            app.push(Learn(app))
        elif i == len(self.idx) + 1:
            app.push(Mutate(app))
        else:
            app.push(Master(app))
        return DRAW

    def draw(self, fb):
        row(fb, 0, lr("SPELLS", "* lost"), True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)


def _rows(name, score, bon, pen, ob):
    """(title, last row) of a test of 2 + score, +bonus -penalty dice,
    against ob: the pool and the Ob, then the exact odds of meeting it."""
    try:
        n = ex.pool(score, bon, pen)
    except ValueError:
        return lr(name, "bad pool"), "pool over 20"
    pm = odds.builder_odds(2, n, ob) if 1 <= n and ob <= 30 else 0
    b = "%dd6 Ob%d" % (n, ob)
    return lr(name[:15 - len(b)], b), "Odds " + odds.fmt_permille(pm)


def _name(c):
    """A new spell's name, 'Spell N': the first N from the spells known + 1
    that no talisman has (a failed Mastery Check's NEVER record keeps its
    name, and learning a spell of that name is refused)."""
    names = [t.name for t in c.tals if t is not None]
    n = len(sp.spells(c)) + 1
    while "Spell %d" % n in names:
        n += 1
    return "Spell %d" % n


_ATTACKS = ("<none>", "<Ability>", "<monster>")
_BLOCKS = ("<none>", "<armor>", "<shield>", "<both>")


def _score(c, i, k, op, t=-1):
    """Where a Channeling Test's or a Mastery Check's Score starts:
    character i's Ability k when its Abilities are rolled (ui/abilities.py),
    else the score of the newest such roll among the actions in the undo
    window (a channeling of spell t, a Mastery Check of i; one undone was
    not used), else 3 (the middle of 2d6 / 2)."""
    r = c.find(ex.ROLE_ABILITIES, i)
    if r >= 0:
        return c.tals[r].a >> (4 * k) & 15   # rules/expedition_chars.py get()
    from rules import codec
    done = c.done
    for j in range(len(done) - 1, -1, -1):
        kind, a, f, x = codec.decode_event(done[j])
        if kind == sp.SPELL and a[0] == op and a[1] == (t if op == sp.CHANNEL else i):
            return a[2] if op == sp.CHANNEL else a[4]
    return 3


class Channel(Form):
    """A Channeling Test: Score, dice, the damage taken already this Round
    (+1 Ob a point), then the attack it defends against: none, by an
    Ability (its score) or a monster (its Level), its bonus dice and the
    sorcerer's blocks."""

    def __init__(self, app, t):
        tal = app.c.tals[t]
        Form.__init__(self, app, [["Score", 0, 10, _score(app.c, tal.owner, tal.a, sp.CHANNEL, t)],
                                  ["Bonus dice", 0, 18, 0], ["Penalty dice", 0, 2, 0],
                                  ["Damage", 0, 30, 0], ["Attack", 0, 2, 0],
                                  ["Its Ability", 0, 10, 3], ["Its bonus", 0, 18, 0],
                                  ["Blocks", 0, 3, 0]])
        self.t = t

    def show(self, j):
        v = self.f[j][3]
        if j == 4:
            return _ATTACKS[v]
        if j == 7:
            return _BLOCKS[v]
        return "<%d>" % v

    def refresh(self):
        f = self.f[5]   # a monster attacks by its Level, anyone else by an Ability
        f[0], f[2] = ("Its Level", ex.MAX_LEVEL) if self.val(4) == 2 else ("Its Ability", 10)
        f[3] = min(f[3], f[2])
        Form.refresh(self)
        c = self.app.c
        tal = c.tals[self.t]
        ob = tal.b + sp.armor_ob(c.chars[tal.owner].v) + self.val(3)
        self.top_row, self.last = _rows(tal.name, self.val(0), self.val(1), self.val(2), ob)

    def go(self):
        a = self.val(4)
        args = (sp.CHANNEL, self.t, self.val(0), self.val(1), self.val(2), 0, 0, self.val(3))
        if a:
            args = args + (self.val(5), 1 if a == 2 else 0, self.val(6), 0, 0, self.val(7))
        self.result(self.app.act(sp.SPELL, args, "", None, False), "channel")


class Learn(Form):
    """A spell learned: who, the Ability it tests (`Test Knowledge`) and
    its Ob."""

    def __init__(self, app):
        Form.__init__(self, app, [["Who", 0, len(app.c.chars) - 1, 0], ["Test", 0, 5, 4],
                                  ["Ob", 1, sp.MAX_SPELL_OB, 2]])

    def show(self, j):
        v = self.f[j][3]
        if j == 0:
            return self.app.c.chars[v].name
        if j == 1:
            return ex.ABILITIES[v]
        return "<%d>" % v

    def head(self):
        return "LEARN A SPELL"

    def foot(self):
        return "OK: learn"

    def go(self):
        app = self.app
        name = _name(app.c)
        app.pop()
        if app.act(sp.SPELL, (sp.LEARN, self.val(0), self.val(1), self.val(2)), name) is not None:
            app.toast = name + ": rename in Talismans"


class Mutate(Form):
    def __init__(self, app):
        Form.__init__(self, app, [["Who", 0, len(app.c.chars) - 1, 0]])

    def show(self, j):
        return self.app.c.chars[self.f[0][3]].name

    def head(self):
        return "MUTATION d100"

    def foot(self):
        return "OK: roll"

    def go(self):
        self.result(self.app.act(sp.SPELL, (sp.MUTATE, self.val(0)), "", None, False), "d100")


class Master(Learn):
    """The Spell Mastery Check of a new spell: who, its Ability and Ob (the
    spell's), the sorcerer's score in it, the bonus dice of sorcerous
    materials ("+1d per unit of material spent") and penalty dice. The
    title shows the pool against the Ob + 1, the last row its odds."""

    def __init__(self, app):
        Form.__init__(self, app, [["Who", 0, len(app.c.chars) - 1, 0], ["Test", 0, 5, 4],
                                  ["Ob", 1, sp.MAX_SPELL_OB, 2], ["Score", 0, 10, 3],
                                  ["Bonus dice", 0, 18, 0], ["Penalty dice", 0, 2, 0]])
        self.for_ = None

    def refresh(self):
        if self.for_ != (self.val(0), self.val(1)):   # who or the Ability changed: its score
            self.for_ = (self.val(0), self.val(1))
            self.f[3][3] = _score(self.app.c, self.val(0), self.val(1), sp.MASTER)
        Form.refresh(self)
        self.top_row, self.last = _rows("MASTERY", self.val(3), self.val(4), self.val(5),
                                        self.val(2) + 1)

    def go(self):
        app = self.app
        name = _name(app.c)
        app.pop()
        out = app.act(sp.SPELL, (sp.MASTER, self.val(0), self.val(1), self.val(2), self.val(3),
                                 self.val(4), self.val(5)), name, None, False)
        self.result(out, "mastery")
        if out is not None:
            app.toast = name + ": rename in Talismans"
