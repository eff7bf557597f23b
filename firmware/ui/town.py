"""Town (expedition): the town phase of one character
(Left/Right: the next character, stopping at the first and the last; it
opens on the first one alive, a dead one's title says `dead`) with its
Wealth, Cash, Businesses and Circles spelled out (the company's
Stronghold is in the Improve form, its Lifestyle in the notes), then its
actions, each a TOWN event (kind 125, rules/expedition_town.py): a new
Town Phase (it asks first: it starts the purchases, income and
improvements over, and the menu wraps onto it from its last row),
Wealth buy, Cash buy (a Cash test: Ob = Cost - Wealth, the exact odds of
the wagered dice), each buy saying what is bought (a hireling
or a medium or large animal costs 1 Cash more for each bought before it
this Town Phase, a building or boat is one a Town Phase), Sell Wealth,
Sell a good (Cost - Wealth dice, a success 1 Cash), Income
roll, Improve (a Town Ability on the Cash Ob table), Circles check, Cash
+/- and Reputation, the Town Phase's one Downtime Action (recorded as
"Downtime"; the host's `dicetray act` can give its words), Projects
(their clocks, ui/clocks.py: a Downtime Action may tick one), Recognize
(a Faction's d12) and, last (Up from the top), the town sheet set by
hand. Before Recognize, the session's other end: Desperate return,
the character's d6 on the Desperate Returns
table when the party did not reach a safe haven, DESPERATE (char, 1):
on a 3 the Cash is halved.
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, Menu, Message, row, lr, toast, NO, DRAW
from ui.form import Form, Ask
from rules import odds
from rules import expedition as ex
from rules import expedition_town as tw

ITEMS = ("New Town Phase", "Wealth buy", "Cash buy", "Sell Wealth", "Sell a good", "Income roll",
         "Improve", "Circles check", "Cash +/-", "Reputation", "Downtime", "Projects",
         "Desperate return", "Recognize", "Town sheet")
# What a buy is for (TOWN buy and wealth's last argument, tw.ITEMS).
WHAT = ("<other>", "<hireling>", "<animal>", "<bldg/boat>")
# What a new Town Phase's question says, rows 2 to 7.
_ASK = ("The purchases,", "income and", "improvements", "start again.", "OK: start", "Back: cancel")


def cash_odds(n, ob):
    """Exact odds of at least `ob` successes on n d6 (0..60: a Cash wager,
    a Circles check past a pool's 20 dice), as '68.8%'. Long ints past 30
    dice: a form's key press, never a roll (docs/odds.md)."""
    if ob > n:
        return odds.fmt_permille(0)
    d = odds.power([1, 1], n)
    return odds.fmt_permille(odds.permille(odds.p_at_least(d, ob), 1 << n))


class Town(Screen):
    NOTES = 1

    def __init__(self, app):
        Screen.__init__(self, app)
        self.items = list(ITEMS)
        self.menu = Menu(self.items, 4, 3)
        self.i = 0
        from ui.chars import dead
        while self.i + 1 < len(app.c.chars) and dead(app.c, self.i):
            self.i += 1   # the first one alive
        self.rows = ("TOWN", "add a character", "", "")

    def refresh(self):
        c = self.app.c
        if not c.chars:
            return
        if self.i >= len(c.chars):
            self.i = 0
        from ui.chars import dead
        v = c.chars[self.i].v
        who = "< %s >" % c.chars[self.i].name
        a, b = "Wealth %d" % tw.get(v, tw.W), "Cash %d" % tw.get(v, tw.CASH_F)
        self.rows = (lr(who, "dead") if dead(c, self.i) else (lr("TOWN", who) if len(who) < 12 else who),
                     lr(a, b) if len(a) + len(b) < 16 else "W%s %s" % (a[7:], b),
                     "Businesses %d" % tw.get(v, tw.BUS), "Circles %d" % tw.get(v, tw.CIR))

    def key(self, k):
        app = self.app
        n = len(app.c.chars)
        if not n:
            return NO
        if k == K_LEFT or k == K_RIGHT:
            i = self.i + (1 if k == K_RIGHT else -1)
            if 0 <= i < n:
                self.i = i
                self.refresh()
            return DRAW
        if k != K_OK:
            return NO
        s = self.menu.sel
        if s == 0:   # it starts the purchases, income and improvements over: asked first
            app.push(Ask(app, "NEW TOWN PHASE?", _ASK, lambda: app.act(tw.TOWN, (tw.START,))))
        elif s == 10:
            app.act(tw.TOWN, (tw.DOWNTIME, self.i), "Downtime")
        elif s == 11:   # project clocks: a Downtime Action may advance one (ui/clocks.py)
            app.open(b"clocks Projects")
        elif s == 12:
            # The halving form, always: on a 3 the Cash is halved.
            out = app.act(ex.DESPERATE, (self.i, 1), "", None, False)
            if out is not None:  # a d6 on a table: its words, as Recognize
                app.push(Message(app, "DESPERATE d6 %d" % out.margin, "\n".join(out.notes)))
        elif s == 13:
            if tw.factions(app.c):
                app.push(Recognize(app))
            else:
                app.push(Message(app, "RECOGNIZE", "no Faction yet: Reputation adds one"))
        elif s == 14:
            app.push(TownSheet(app, self.i))
        elif s == 5:
            out = app.act(tw.TOWN, (tw.INCOME, self.i), "", None, False)
            if out is not None:
                from ui.result import Result
                app.push(Result(app, out, "income"))
        else:
            app.push(TownOp(app, self.i, s))
        return DRAW

    def draw(self, fb):
        row(fb, 0, self.rows[0], True)
        for r in range(1, 4):
            row(fb, r, self.rows[r])
        self.menu.draw(fb)
        toast(fb, self.app.toast, 7, 1)


class TownOp(Form):
    """One town action's form for character i; s: its ITEMS index."""

    def __init__(self, app, i, s):
        c = app.c
        v = c.chars[i].v
        w = tw.get(v, tw.W)
        self.i = i
        self.s = s
        self.facs = tw.factions(c)
        self.cost = ""
        nf = len(self.facs) - 1
        if s == 1:
            fl = [["Cost", 0, w, w], ["What", 0, tw.BIG, 0]]
        elif s == 2:
            fl = [["Cost", w + 1, w + ex.MAX_OB, w + 1], ["Cash dice", 1, tw.MAX_WAGER, 1],
                  ["What", 0, tw.BIG, 0]]
        elif s == 3:
            fl = [["Points", 1, w if w else 1, 1]]
        elif s == 4:
            fl = [["Cost", w + 1, tw.MAX_COST, w + 1]]
        elif s == 6:
            fl = [["Raise", 0, 3, 0], ["Cash dice", 1, tw.MAX_WAGER, 1]]
        elif s == 7:
            fl = [["Presence", 0, 10, 2], ["Ob", 1, ex.MAX_OB, 2], ["Faction", -1, nf, -1],
                  ["Bonus dice", 0, 18, 0]]
        elif s == 8:
            fl = [["Cash", -99, 99, 1]]
        else:
            fl = [["Faction", -1, nf, -1], ["Change", -10, 10, 1]]
        Form.__init__(self, app, fl)

    def show(self, j):
        v = self.f[j][3]
        lab = self.f[j][0]
        if lab == "What":
            return WHAT[v]
        if lab == "Raise":
            return tw.ABILITY_NAMES[v]
        if lab == "Faction":
            return "<none>" if v < 0 and self.s == 7 else (
                "<new>" if v < 0 else self.app.c.tals[self.facs[v]].name[:8])
        return "<%d>" % v

    def refresh(self):
        Form.refresh(self)
        if self.s == 1 or self.s == 2:
            self.cost = self._cost()
        elif self.s == 6:   # the rank now of the Town Ability it raises (the Stronghold's too)
            c = self.app.c
            self.cost = "%s now %d" % (tw.ABILITY_NAMES[self.val(0)],
                                       tw.rank(c, c.chars[self.i].v, self.val(0)))

    def _cost(self):
        """Row 6 of a buy: what it costs in Cash past the Cost or the wager:
        a Wealth purchase past the 3 free ones, and (rules/expedition_town.py
        _surcharge) 1 for each hireling or animal bought before it this Town
        Phase; a building or boat is one a Town Phase."""
        v = self.app.c.chars[self.i].v
        what = self.val(len(self.f) - 1)
        more = tw.get(v, tw.HIRES if what == tw.HIRELING else tw.BEASTS) \
            if what == tw.HIRELING or what == tw.ANIMAL else 0
        if self.s == 1:
            k = tw.get(v, tw.BUYS) + 1
            more += k - tw.FREE_BUYS if k > tw.FREE_BUYS else 0
            return "buy %d: %s" % (k, ("%d Cash" % more) if more else "free")
        if what == tw.BIG:
            return "one a Town Phase"
        return ("bought: +%d Cash" % more) if more else ""

    def _dice_ob(self):
        c = self.app.c
        v = c.chars[self.i].v
        if self.s == 2:
            return self.val(1), self.val(0) - tw.get(v, tw.W)
        return self.val(1), tw.improve_ob(c, v, self.val(0))

    def head(self):
        name = ITEMS[self.s].upper()
        if self.s == 2 or self.s == 6:
            n, ob = self._dice_ob()
            b = ("%dd Ob%d" % (n, ob)) if ob else "top rank"
            return lr(name if len(name) + len(b) < 16 else name[5:], b)  # CASH BUY: BUY
        if self.s == 4:   # Cost - Wealth dice
            return lr(name, "%dd" % (self.val(0) - tw.get(self.app.c.chars[self.i].v, tw.W)))
        return name

    def foot(self):
        if self.s == 2 or self.s == 6:
            n, ob = self._dice_ob()
            return ("Odds " + cash_odds(n, ob)) if ob else "at its top"
        if self.s == 7:
            c = self.app.c
            rep = 0
            if self.val(2) >= 0:
                rep = c.tals[self.facs[self.val(2)]].a
            # 2 + Presence + Circles + Reputation + bonus: up to 46 dice
            n = 2 + self.val(0) + tw.get(c.chars[self.i].v, tw.CIR) + (rep if rep > 0 else 0) \
                + self.val(3)
            return "%dd Odds %s" % (n, cash_odds(n, self.val(1)))
        return "OK: roll" if self.s == 4 else "OK: do it"

    def go(self):
        app = self.app
        i = self.i
        s = self.s
        T = tw.TOWN
        rolled = s == 2 or s == 4 or s == 6 or s == 7   # its result opens in the form's place
        if s == 1 or s == 2:
            what = self.val(len(self.f) - 1)
            a = (tw.WEALTH, i, self.val(0)) if s == 1 else (tw.BUY, i, self.val(0), self.val(1))
            out = app.act(T, a + (what,) if what else a, "", None, not rolled)  # other: no goods field
        elif s == 3:
            out = app.act(T, (tw.SELL, i, self.val(0)))
        elif s == 4:
            out = app.act(T, (tw.GOODS, i, self.val(0)), "", None, False)
        elif s == 6:
            out = app.act(T, (tw.IMPROVE, i, self.val(0), self.val(1)), "", None, False)
        elif s == 7:
            f = self.val(2)
            out = app.act(T, (tw.CIRCLES, i, self.val(0), self.val(1),
                              self.facs[f] if f >= 0 else -1, self.val(3), 0), "", None, False)
        elif s == 8:
            out = app.act(T, (tw.CASH, i, self.val(0)))
        else:
            f = self.val(0)
            t = self.facs[f] if f >= 0 else -1
            out = app.act(T, (tw.REPUTE, t, self.val(1)),
                          "" if t >= 0 else "Faction %d" % (len(self.facs) + 1))
        if rolled:
            self.result(out, "goods" if s == 4 else ITEMS[s])
        else:
            self.done(out)

    def draw(self, fb):
        Form.draw(self, fb)
        if self.cost:
            row(fb, 6, self.cost)


class TownSheet(Form):
    """Character i's town statistics set by hand (TOWN sheet): a new
    character's starting Wealth, Cash, Businesses and Circles (the Boons
    spent on them), a sheet from paper. Each starts at its value now."""

    def __init__(self, app, i):
        v = app.c.chars[i].v
        Form.__init__(self, app, [["Wealth", 0, 10, tw.get(v, tw.W)],
                                  ["Cash", 0, tw.MAX_CASH, tw.get(v, tw.CASH_F)],
                                  ["Businesses", 0, 10, tw.get(v, tw.BUS)],
                                  ["Circles", 0, 6, tw.get(v, tw.CIR)]])
        self.i = i

    def head(self):
        return lr(self.app.c.chars[self.i].name[:5], "TOWN SHEET")

    def foot(self):
        return "OK: set"

    def go(self):
        self.done(self.app.act(tw.TOWN, (tw.SHEET, self.i, self.val(0), self.val(1),
                                         self.val(2), self.val(3))))


class Recognize(Form):
    """Is a member of a Faction recognized (TOWN recognize: a d12 at most
    its Reputation)? Left/Right pick the Faction (its Reputation on row
    6); OK rolls, and the answer opens in the form's place (any key
    closes it: Town)."""

    def __init__(self, app):
        self.facs = tw.factions(app.c)
        Form.__init__(self, app, [["Faction", 0, len(self.facs) - 1, 0]])

    def show(self, j):
        return self.app.c.tals[self.facs[self.val(0)]].name[:8]

    def draw(self, fb):
        Form.draw(self, fb)
        row(fb, 6, "Reputation %d" % self.app.c.tals[self.facs[self.val(0)]].a)

    def head(self):
        return "RECOGNIZE"

    def foot(self):
        return "OK: d12"

    def go(self):
        app = self.app
        out = app.act(tw.TOWN, (tw.RECOGNIZE, self.facs[self.val(0)]), "", None, False)
        if out is not None:  # a d12, no successes: its words, not a roll's result screen
            app.pop()
            app.push(Message(app, "RECOGNIZED" if out.verdict else "NOT RECOGNIZED", out.notes[-1]))
