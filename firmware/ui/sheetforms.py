"""A character's sheet forms (expedition; ui/chars.py's sheet, through
ui/expedition_more.py's sheet_open), loaded on first use:

- Take damage: one blow of N points (DAMAGE), so that a 5-point blow on
  4 HP owes one Down and Out roll, not two; the armor and the shield
  can block it (their whole Block: "it cannot be divided"), each once a
  day. Row 6 says what it leaves. The outcome opens in words, the
  consequence first (ui/notes.py).
- Damage dice: variable damage, a pool of d6s, a success a point, the
  save for half rounded up (VAR_DAMAGE), with the same blocks; the roll
  opens as a roll result.
- Set the sheet: max HP, HP, the class resource (Control, Luck...) and
  its maximum, armor, shield and XP (SHEET), each from the sheet.
- Down and Out (OK on the sheet's `Down & Out`): 2d6 on the table with
  medical aid, or, with none by the end of the Turn, death (DOWN_OUT).
"""

from ui.form import Form
from ui.screen import Menu, Message, lr, row
from ui.notes import order   # the consequence first (a death, the brink)
from rules import expedition as ex

_ARMOR = ("<none>", "<light>", "<heavy>")
_NO_YES = ("<no>", "<yes>")


def _named(a, b):
    """The title: a left, b right; the longer of them shortened to fit
    (a name), never cut at the row's end."""
    if len(a) + len(b) < 16:
        return lr(a, b)
    if len(a) > len(b):
        return lr(a[:15 - len(b)], b)
    return lr(a, b[:15 - len(a)])


def _blocks(v):
    """(armor, shield) field ranges: 0..1 when the gear is there and its
    block unspent today, else 0..0 (shown as none or spent)."""
    return (1 if v[ex.ARMOR] and not v[ex.SPENT] & 1 else 0,
            1 if v[ex.SHIELD] and not v[ex.SPENT] & 2 else 0)


class Hurt(Form):
    """Damage to character i: `dice` False, one blow of N points; True,
    a pool of d6s (a success a point), saved for half or not. Then the
    blocks: armor and shield, when there and unspent."""

    def __init__(self, app, i, dice):
        v = app.c.chars[i].v
        arm, shd = _blocks(v)
        fl = [["Dice", 1, ex.MAX_POOL, 2], ["Save: half", 0, 1, 0]] if dice else \
            [["Points", 0, ex.MAX_POINTS, 1]]
        Form.__init__(self, app, fl + [["Use armor", 0, arm, 0], ["Use shield", 0, shd, 0]])
        self.i = i
        self.dice = dice
        self.what = ""

    def show(self, j):
        lab, lo, hi, v = self.f[j]
        if j == 0:
            return "<%d>" % v
        if lab[0] == "U" and not hi:   # Use armor / Use shield it cannot
            g = self.app.c.chars[self.i].v[ex.ARMOR if lab[4] == "a" else ex.SHIELD]
            return "spent" if g else "none"
        return _NO_YES[v]

    def _w(self):
        """The block argument: 1 armor, 2 shield, 3 both."""
        k = len(self.f) - 2
        return self.val(k) | self.val(k + 1) << 1

    def refresh(self):
        Form.refresh(self)
        ch = self.app.c.chars[self.i]
        v = ch.v
        if self.dice:
            self.what = "half, rounded up" if self.val(1) else "each 4+: 1 point"
            return
        # What one blow of N leaves: the blocks, then bonus HP, then HP.
        w = self._w()
        d = self.val(0) - (ex.ARMOR_BLOCK[v[ex.ARMOR]] if w & 1 else 0) - \
            (ex.SHIELD_BLOCK if w & 2 else 0)
        d = d - v[ex.BONUS] if d > v[ex.BONUS] else 0
        hp = v[ex.HP] - d if d < v[ex.HP] else 0
        self.what = "HP %d -> %d%s" % (v[ex.HP], hp, " DOWN" if d and not hp else "")

    def head(self):
        ch = self.app.c.chars[self.i]
        return _named(ch.name, "HP %d/%d" % (ch.v[ex.HP], ch.v[ex.MAX_HP]))

    def foot(self):
        return ("OK: roll %dd6" % self.val(0)) if self.dice else "OK: take it"

    def go(self):
        app = self.app
        i = self.i
        if self.dice:
            out = app.act(ex.VAR_DAMAGE, (i, self.val(0), self._w(), self.val(1)), refresh=False)
            if out is not None:
                app.pop()
                self.result(out, "%dd6" % self.val(0))
            return
        out = app.act(ex.DAMAGE, (i, self.val(0), self._w()), refresh=False)
        if out is not None:
            app.pop()
            app.push(Message(app, "DAMAGE", "\n".join(order(out.notes)) or "no damage"))

    def draw(self, fb):
        Form.draw(self, fb)
        row(fb, 6, self.what)


class SetSheet(Form):
    """The sheet by hand (SHEET): max HP, HP, the class resource's maximum
    and what is left (Control, Luck, Momentum, Guile... as the class
    has), armor, shield and XP, each from the character's now."""

    def __init__(self, app, i):
        v = app.c.chars[i].v
        Form.__init__(self, app, [["Max HP", 1, ex.MAX_POINTS, v[ex.MAX_HP]],
                                  ["HP", 0, ex.MAX_POINTS, v[ex.HP]],
                                  ["Max CR", 0, ex.MAX_POINTS, v[ex.MAX_RES]],
                                  ["CR", 0, ex.MAX_POINTS, v[ex.RES]],
                                  ["Armor", 0, 2, v[ex.ARMOR]], ["Shield", 0, 1, v[ex.SHIELD]],
                                  ["XP", 0, 9999, v[ex.XP]]])
        self.menu = Menu([], 1, 5)   # row 6 says what CR is
        self.i = i

    def refresh(self):
        f = self.f
        f[1][2] = f[0][3]          # HP up to max HP, CR up to its maximum
        f[3][2] = f[2][3]
        if f[1][3] > f[1][2]:
            f[1][3] = f[1][2]
        if f[3][3] > f[3][2]:
            f[3][3] = f[3][2]
        Form.refresh(self)

    def show(self, j):
        v = self.val(j)
        if j == 4:
            return _ARMOR[v]
        if j == 5:
            return _NO_YES[v]
        return "<%d>" % v

    def head(self):
        return _named(self.app.c.chars[self.i].name, "SHEET")

    def foot(self):
        return "OK: set"

    def go(self):
        a = (self.i, self.val(1), self.val(0), self.val(3), self.val(2), self.val(4), self.val(5),
             self.val(6))
        self.done(self.app.act(ex.SHEET, a, refresh=False))

    def draw(self, fb):
        Form.draw(self, fb)
        row(fb, 6, "CR: Control etc")


class DownOut(Form):
    """Down and Out (DOWN_OUT): with medical aid by the end of the scene,
    2d6 on the table for each roll owed; with none by the end of the
    Turn, the character dies. The outcome opens in words."""

    def __init__(self, app, i):
        Form.__init__(self, app, [["Aid given", 0, 1, 1]])
        self.i = i
        self.owed = ""

    def refresh(self):
        Form.refresh(self)
        n = self.app.c.chars[self.i].v[ex.DOWN]
        self.owed = ("%d roll(s) owed" % n) if n else "not down"

    def show(self, j):
        return _NO_YES[self.val(0)]

    def head(self):
        return _named("DOWN & OUT", self.app.c.chars[self.i].name)

    def foot(self):
        return "OK: roll 2d6" if self.val(0) else "OK: dies"

    def go(self):
        app = self.app
        out = app.act(ex.DOWN_OUT, (self.i, self.val(0)), refresh=False)
        if out is not None:
            app.pop()
            app.push(Message(app, "DOWN AND OUT", "\n".join(order(out.notes))))

    def draw(self, fb):
        Form.draw(self, fb)
        row(fb, 5, self.owed)
        row(fb, 6, "2d6 on the table" if self.val(0) else "no aid: death")


def open(app, i, f):
    """The form of sheet row f of character i (ui/expedition_more.py's
    sheet_open): down, Down and Out; Set the sheet; Take damage; Damage
    dice."""
    app.push(DownOut(app, i) if f == "down" else SetSheet(app, i) if f[0] == "S"
             else Hurt(app, i, f[0] == "D"))
