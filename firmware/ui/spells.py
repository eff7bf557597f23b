"""Spells (expedition, issue 13 item 5): every known spell with its
Ability, Ob and '*' when lost until a long rest; OK on one opens its
Channeling Test, '+ learn' a new spell ('Spell N': rename it under
Talismans), 'Mutate' a random Mutation. Events: SPELL (kind 124,
rules/expedition_spells.py).

The Channeling Test's form: the sorcerer's score in the spell's
Ability, bonus and penalty dice, damage already taken while channeling,
and an attacker (its Ability, or Level when it is a monster, its bonus
dice, the sorcerer's blocks) whose attack the test defends against. The
title shows the pool and the Ob (the spell's + 1 a Slot of armor and
shield + damage taken); the last row the exact odds of meeting it.
"""

from hw.keys import K_OK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW
from ui.form import Form
from rules import odds
from rules import expedition as ex
from rules import expedition_spells as sp

SHORT = ("Mi", "Ag", "Pr", "Ac", "Kn", "Di")


class Spells(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 6)
        self.idx = []

    def refresh(self):
        c = self.app.c
        self.idx = sp.spells(c)
        items = []
        for t in self.idx:
            tal = c.tals[t]
            items.append(lr(tal.name, "%s%d%s" % (SHORT[tal.a], tal.b, "*" if tal.n else " ")))
        items.append("+ learn")
        items.append("Mutate")
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
        else:
            app.push(Mutate(app))
        return DRAW

    def draw(self, fb):
        row(fb, 0, lr("SPELLS", "* lost"), True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 7, 1)


class Channel(Form):
    def __init__(self, app, t):
        Form.__init__(self, app, [["Score", 0, 10, 3], ["Bonus d", 0, 18, 0], ["Penalty d", 0, 2, 0],
                                  ["Dmg taken", 0, 99, 0], ["Attacker", -1, 14, -1],
                                  ["Atk monster", 0, 1, 0], ["Atk bonus d", 0, 18, 0],
                                  ["Blocks", 0, 3, 0]])
        self.t = t

    def show(self, j):
        v = self.f[j][3]
        if j == 4 and v < 0:
            return "< none >"
        if j == 7:
            return ("< -- >", "< arm >", "< shd >", "< both >")[v]
        return "< %d >" % v

    def _pool(self):
        """(dice, Ob) or (-1, Ob) for a pool the rules refuse."""
        c = self.app.c
        tal = c.tals[self.t]
        ob = tal.b + sp.armor_ob(c.chars[tal.owner].v) + self.val(3)
        try:
            return ex.pool(self.val(0), self.val(1), self.val(2)), ob
        except ValueError:
            return -1, ob

    def head(self):
        tal = self.app.c.tals[self.t]
        n, ob = self._pool()
        return lr(tal.name, ("%dd6 Ob%d" % (n, ob)) if n >= 0 else "bad pool")

    def foot(self):
        n, ob = self._pool()
        if n < 0:
            return "pool over 20"
        pm = odds.builder_odds(2, n, ob) if 1 <= n and ob <= 30 else 0
        return "Odds " + odds.fmt_permille(pm)

    def go(self):
        a = self.val(4)
        args = (sp.CHANNEL, self.t, self.val(0), self.val(1), self.val(2), 0, 0, self.val(3))
        if a >= 0:
            args = args + (a, self.val(5), self.val(6), 0, 0, self.val(7))
        self.result(self.app.act(sp.SPELL, args), "channel")


class Learn(Form):
    def __init__(self, app):
        Form.__init__(self, app, [["Who", 0, len(app.c.chars) - 1, 0], ["Ability", 0, 5, 4],
                                  ["Ob", 1, sp.MAX_SPELL_OB, 2]])

    def show(self, j):
        v = self.f[j][3]
        if j == 0:
            return self.app.c.chars[v].name
        if j == 1:
            return ex.ABILITIES[v]
        return "< %d >" % v

    def head(self):
        return "LEARN A SPELL"

    def foot(self):
        return "OK: learn"

    def go(self):
        app = self.app
        name = "Spell %d" % (len(sp.spells(app.c)) + 1)
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
        self.result(self.app.act(sp.SPELL, (sp.MUTATE, self.val(0))), "d100")
