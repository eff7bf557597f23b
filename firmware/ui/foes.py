"""expedition's tracked monsters and NPCs and the fight's rounds
(rules/expedition_foes.py). Home > Foes (Up from
Roll: the last item), loaded on first use.

Foes: `+ new foe`, `Next round` (a fight starts: one Class Resource a
Round each), then one row per foe, `name  HP/max` (`out` at 0 HP);
Left: 1 damage, Right: 1 HP back; OK opens the foe. Then the Referee's
encounter tables: `Morale check` (a form: the die, d6 timid,
d8 most, d10 militant, and the modifier; the answer in words),
`Reaction` (d10) and `Distance` (d6), whose note shows below; in a
fight `End fight` last, which asks. The title shows the
round.

A foe: its Level and tier, HP and Save on top (a Follower: whose, right
of the title); Damage (Left/Right, starting at the last combat won
against a Level, or damage result), +s, Save: half (Right yes, Left no),
then `Hit` applies them (+Ns before halving), `Its test/save`
(FOE save, a form) and `Remove`; a Follower has `Lost` too (FOE lost:
it died or left, and its owner's replacement joins from the
next Town Phase). Its menu stops at its ends: Up on Damage never lands
on Remove or Lost. A hit that prompts a morale check (the foe's, or its
side's: the notes after the damage) opens MORALE CHECK with every note
of it.

New foe (a form, ui/form.py): Level 0..14 (an NPC: its Pool 0..20),
tier (monster, elite, legendary, NPC), HP (`auto`: the formula; a
number: the bestiary's, an NPC's "as indicated") and Follows (none, or
the character whose Follower it is); the HP and Save (an NPC: its Pool)
on the row above `OK: add`. OK adds `Foe N` (`NPC N`, `Follower N`;
rename it on Talismans).
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK
from ui.screen import Screen, Menu, Message, row, lr, signed, toast, NO, DRAW, KEEP
from ui.form import Form, Stop
from rules import expedition as ex
from rules import expedition_foes as ef

TABLES = ("Morale check", "Reaction", "Distance")  # the encounter tables' rows
_SIDES = (6, 8, 10)  # a morale die: timid, most, militant


def _hit(app, t, amount, plus, half):
    """FOE hit on foe t. Its first note is the damage; any after it is a
    morale check it prompts (rules/expedition_foes.py), shown whole over
    the screen, not cut to the toast's rows."""
    out = app.act(ef.FOE, (ef.OP_HIT, t, amount, 0, plus, half), "", None, False)
    if out is None:
        return
    if len(out.notes) > 1:
        app.push(Message(app, "MORALE CHECK", "\n".join(out.notes)))
    else:
        app.top().refresh()


def _foe_row(tal):
    h = ef.hp(tal)
    b = ("%d/%d" % (h, tal.cap)) if h else "out"
    return lr(tal.name[:15 - len(b)], b)


class Foes(Screen):
    """`+ new foe` and `Next round` first, then the foes: the list never
    scrolls them out of sight above `Next round`, and a foe is one press
    from `Next round` or `Morale check` only (a form); the rolls of the
    Reaction and Distance tables below, `End fight` last, asking first
    (Up from `+ new foe` wraps onto it)."""

    NOTES = 2

    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 5)
        self.idx = []

    def refresh(self):
        c = self.app.c
        self.idx = ef.foes(c)
        items = ["+ new foe", "Next round"]
        items.extend(_foe_row(c.tals[t]) for t in self.idx)
        items.extend(TABLES)
        f = c.find(ef.FIGHT_ROLE)
        if f >= 0:
            items.append("End fight")
            self.head = lr("FOES", "round %d" % c.tals[f].n)
        else:
            self.head = "FOES"
        self.menu.items = items
        self.menu.go(self.menu.sel)

    def key(self, k):
        app = self.app
        i = self.menu.sel - 2   # the foes' rows from 0
        if 0 <= i < len(self.idx):
            t = self.idx[i]
            if k == K_LEFT:
                _hit(app, t, 1, 0, 0)
            elif k == K_RIGHT:
                app.act(ef.FOE, (ef.OP_HEAL, t, 1))
            elif k == K_OK:
                app.push(Foe(app, t))
            else:
                return NO
            return DRAW
        if k != K_OK:
            return NO
        j = i - len(self.idx)   # the tables: 0 morale, 1 reaction, 2 distance; then End fight
        if i == -2:
            app.push(NewFoe(app))
        elif i == -1:
            app.act(ef.ROUND, (ef.OP_NEXT,))
        elif j == 0:
            app.push(Morale(app))
        elif j < 3:
            app.act(ex.REACTION if j == 1 else ex.DISTANCE)
        else:
            app.push(EndFight(app))
        return DRAW

    def draw(self, fb):
        row(fb, 0, self.head, True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 6, 2)


class EndFight(Screen):
    """End the fight? OK ends it (ROUND end), Back keeps fighting: `End
    fight` is one wrap from `+ new foe`, and a fight ended by mistake
    loses its round count and who spent a Class Resource in it."""

    def refresh(self):
        c = self.app.c
        f = c.find(ef.FIGHT_ROLE)
        self.line = ("after round %d" % c.tals[f].n) if f >= 0 else "no fight"

    def key(self, k):
        if k == K_OK:
            self.app.pop()
            self.app.act(ef.ROUND, (ef.OP_END,))
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, "END THE FIGHT?", True)
        row(fb, 1, self.line)
        row(fb, 3, "OK: end it")
        row(fb, 4, "Back: fight on")


def _last_damage(c):
    """The damage of the last combat check the party won (or tied: 1) or
    variable damage to an enemy, to apply to a foe; else 1. A combat check
    against a tracked foe dealt it already (its Outcome names the foe)."""
    o = c.last
    if o is None or o.margin <= 0:
        return 1
    if o.kind == 98 and o.verdict == 1 and o.tal < 0 or o.kind == 100:  # COMBAT, VAR_DAMAGE
        return o.margin
    return 1


class Foe(Screen):
    NOTES = 1

    def __init__(self, app, t):
        Screen.__init__(self, app)
        self.t = t
        self.d = _last_damage(app.c)
        self.plus = 0
        self.half = 0
        self.menu = Stop([], 4, 3)

    def refresh(self):
        c = self.app.c
        tal = c.tals[self.t] if self.t < len(c.tals) else None
        if tal is None or tal.role != ef.FOE_ROLE:  # removed, or undone
            self.app.pop()
            return
        lv = ef.level(tal)
        tr = ef.tier(tal)
        o = c.chars[tal.owner].name if 0 <= tal.owner < len(c.chars) else ""
        self.name = lr(tal.name[:15 - len(o)], o) if o else tal.name
        self.lines = (("%dd NPC" % lv) if tr == ef.NPC else ("L%d %s" % (lv, ef.TIERS[tr])),
                      lr("HP", "%d/%d" % (ef.hp(tal), tal.cap)),
                      "Pool %dd" % ef.foe_pool(tal) if tr == ef.NPC else
                      "Save Ob %d, %dd" % (ef.save(lv), ef.foe_pool(tal)))
        self.follower = tal.owner >= 0
        self._items()

    def _items(self):
        self.menu.items = [lr("Damage", "<%d>" % self.d), lr("+s", "<%d>" % self.plus),
                           lr("Save: half", "<%s>" % ("yes" if self.half else "no")),
                           "Hit", "Its test/save", "Remove"]
        if self.follower:
            self.menu.items.append("Lost: died/left")

    def key(self, k):
        s = self.menu.sel
        if k == K_LEFT or k == K_RIGHT:
            step = 1 if k == K_RIGHT else -1
            if s == 0:
                self.d = min(max(self.d + step, 0), 99)
            elif s == 1:
                self.plus = min(max(self.plus + step, 0), ex.MAX_S)
            elif s == 2:
                self.half = 1 if k == K_RIGHT else 0
            else:
                return KEEP
            self._items()
            return DRAW
        if k != K_OK:
            return NO
        app = self.app
        if s == 3:
            _hit(app, self.t, self.d, self.plus, self.half)
        elif s == 4:
            app.push(FoeSave(app, self.t))
        elif s == 5:
            app.pop()
            app.act(ef.FOE, (ef.OP_REMOVE, self.t))
        elif s == 6:   # a Follower lost: what it means for its owner, in words
            app.pop()
            out = app.act(ef.FOE, (ef.OP_LOST, self.t), "", None, False)
            if out is not None:
                app.push(Message(app, "FOLLOWER LOST", out.notes[-1]))
        return DRAW

    def draw(self, fb):
        row(fb, 0, self.name, True)
        for r in range(3):
            row(fb, r + 1, self.lines[r])
        self.menu.draw(fb)
        toast(fb, self.app.toast, 7, 1)


class FoeSave(Form):
    """The foe's own test or save (FOE save): its dice (a monster's Level
    + 3, an NPC's Pool), its strength's bonus dice and weakness's penalty
    dice, against an Ob (against a character's power: the successes it
    rolled). The title shows the dice and the Ob, the last row the odds."""

    def __init__(self, app, t):
        from rules import odds   # the odds line (loaded with the builder's, if not yet)
        self.odds = odds
        Form.__init__(self, app, [["Ob", 1, ex.MAX_OB, 2], ["Bonus dice", 0, ex.MAX_BONUS, 0],
                                  ["Penalty dice", 0, 2, 0]])
        self.t = t

    def refresh(self):
        Form.refresh(self)
        odds = self.odds
        tal = self.app.c.tals[self.t]
        ob = self.val(0)
        try:
            n = ef.foe_pool(tal, self.val(1), self.val(2))
        except ValueError:
            self.top_row, self.last = lr(tal.name[:7], "bad pool"), "pool over 20"
            return
        d = "%dd6 Ob%d" % (n, ob)
        self.top_row = lr(tal.name[:15 - len(d)], d)
        self.last = "Odds " + odds.fmt_permille(odds.builder_odds(2, n, ob) if 1 <= n else 0)

    def go(self):
        out = self.app.act(ef.FOE, (ef.OP_SAVE, self.t, self.val(0), self.val(1), self.val(2)),
                           refresh=False)
        self.result(out, "test/save")


class NewFoe(Form):
    """A new monster or NPC (FOE new): Level (an NPC: its Pool), tier, HP
    (`auto`: the formula; a number: the bestiary's, an NPC's "as
    indicated") and whose Follower it is; OK adds it."""

    def __init__(self, app):
        Form.__init__(self, app, [["Level", 0, ex.MAX_LEVEL, 1], ["Tier", 0, ef.NPC, 0],
                                  ["HP", 0, ef.MAX_HP, 0],
                                  ["Follows", -1, len(app.c.chars) - 1, -1]])

    def refresh(self):
        f = self.f
        npc = self.val(1) == ef.NPC
        # An NPC: Level is its Pool (0..20 dice) and HP must be given.
        f[0][0], f[0][2] = ("Pool", ex.MAX_POOL) if npc else ("Level", ex.MAX_LEVEL)
        f[0][3] = min(f[0][3], f[0][2])
        f[2][1] = 1 if npc else 0
        if npc and not f[2][3]:
            f[2][3] = self._hp()
        Form.refresh(self)

    def _hp(self):
        """The HP the foe gets: as given, else by the formula."""
        return self.val(2) or ef.toughness(self.val(0), self.val(1) if self.val(1) < ef.NPC else 0)

    def show(self, j):
        v = self.val(j)
        if j == 1:
            return "<%s>" % ef.TIERS[v]
        if j == 2 and not v:
            return "<auto>"
        if j == 3:
            return self.app.c.chars[v].name[:8] if v >= 0 else "none"
        return "<%d>" % v

    def head(self):
        return "NEW FOE"

    def foot(self):
        return "OK: add"

    def go(self):
        app = self.app
        lv, tr, h, owner = self.val(0), self.val(1), self.val(2), self.val(3)
        n = len(ef.foes(app.c)) + 1
        name = ("Follower %d" if owner >= 0 else ("NPC %d" if tr == ef.NPC else "Foe %d")) % n
        app.pop()
        app.act(ef.FOE, (ef.OP_NEW, lv, tr, h, owner), name)

    def draw(self, fb):
        Form.draw(self, fb)
        lv = self.val(0)
        row(fb, 6, ("HP %d Pool %dd" % (self._hp(), lv)) if self.val(1) == ef.NPC
            else "HP %d Save %d" % (self._hp(), ef.save(lv)))


class Morale(Form):
    """A morale check (MORALE): a d6 (timid), d8 (most) or d10 (militant),
    +1 with a substantial advantage, -1 with a disadvantage or a fallen
    leader; 5+ holds. Row 6: how many of the die's faces hold."""

    def __init__(self, app):
        Form.__init__(self, app, [["Die", 0, 2, 1], ["Modifier", -1, 1, 0]])
        self.holds = ""

    def show(self, j):
        v = self.val(j)
        return ("<d%d>" % _SIDES[v]) if j == 0 else "<%s>" % signed(v)

    def refresh(self):
        Form.refresh(self)
        n = _SIDES[self.val(0)]
        self.holds = "holds %d in %d" % (n - 4 + self.val(1), n)  # die + modifier >= 5

    def head(self):
        return "MORALE CHECK"

    def foot(self):
        return "OK: roll"

    def go(self):
        app = self.app
        out = app.act(ex.MORALE, (_SIDES[self.val(0)], self.val(1)), "", None, False)
        if out is not None:  # a die on a table: its words, not a roll's result screen
            app.pop()        # in the form's place: closed, Foes (one more OK: another roll)
            app.push(Message(app, "MORALE HOLDS" if out.verdict else "MORALE BREAKS",
                             out.notes[-1]))

    def draw(self, fb):
        Form.draw(self, fb)
        row(fb, 6, self.holds)
