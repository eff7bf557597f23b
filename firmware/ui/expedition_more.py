"""expedition's screens but home (ui/systems.py `get`, imported when the
builder, Turns or a sheet first needs it): the builder's pool (a test of
2 + Ability against an Obstacle, a versus test against another Ability,
or one against a monster by its Level: Level + 3 dice, +/- its strength
and weakness dice, "Opp. dice"; ui/pools.py), Turns (ui/turns.py) and a
sheet's events and its Abilities row (ui/chars.py, ui/abilities.py).
Home and the ring: ui/expedition.py. The sheet's and Talismans' words:
ui/words.py.
"""

from rules import expedition as m
from ui import pools
from ui.screen import lr, lrd

# The fields of each mode: a test, versus an Ability, versus a monster.
_FIELDS = (("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "ob", "ext"),
           ("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "bab"),
           ("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "blv", "bmd"))


class Pool(pools.Pool):
    """The builder's values for a TEST or a VERSUS test."""

    m = m
    system = m.ID
    SIDES = m.SIDES
    F = {"mode": ("Mode", 0, 2), "ab": ("Ability", 0, 10), "bon": ("Bonus dice", 0, 18),
         "pen": ("Penalty", 0, 2), "hel": ("Helpers", 0, 7), "plus": ("+s", 0, 6),
         "xminus": ("-s", 0, 6), "ob": ("Ob", 1, 30), "ext": ("Extended", -1, 31),
         "bab": ("Opp. ability", 0, 10), "blv": ("Opp. level", 0, 14),
         "bmd": ("Opp. dice", -2, 18)}
    NUM = ("ab", "bon", "pen", "hel", "plus", "xminus", "ob", "bab", "blv")
    WORDS = {"mode": ("test", "versus", "monster")}
    SIGNED = ("bmd",)
    REFS = ("ext",)

    def __init__(self):
        pools.Pool.__init__(self, {"mode": 0, "ab": 1, "bon": 0, "pen": 0, "hel": 0,
                                   "plus": 0, "xminus": 0, "ob": 1, "ext": -1, "bab": 1,
                                   "blv": 1, "bmd": 0})
        self.nb = 0  # versus: the opponent's dice (dice() sets it)

    def fields(self):
        return _FIELDS[self.v["mode"]]

    def takes(self, t):
        """An extended test's talisman."""
        return t.role == m.EXTENDED

    def dice(self, c):
        """The main pool's dice count (ValueError when the values are
        refused); in a versus mode it also sets `nb`, the opponent's dice
        (vs_dice), for head() and the odds line."""
        v = self.v
        if v["mode"]:
            self.nb = self.vs_dice()  # a monster's pool over 20 dice is refused here too
        return m.pool(v["ab"], v["bon"], v["pen"], v["hel"])

    def vs_dice(self):
        """versus: the opponent's dice (2 + Ability, or a monster's
        Level + 3 with its +/- dice)."""
        v = self.v
        if v["mode"] == 1:
            return 2 + v["bab"]
        return m.monster_pool(v["blv"], v["bmd"] if v["bmd"] > 0 else 0,
                              -v["bmd"] if v["bmd"] < 0 else 0)

    def _desc(self, n):
        s = "%dd%d" % (n, 6)
        if self.v["mode"]:
            s += " v%d" % self.vs_dice()
        return s

    def head(self, title, c, n):
        """A title row: `title` left, the pool (desc) right; n: dice(c)."""
        if 0 <= n < 100:
            if self.v["mode"] == 0:
                return lrd(title, n, 6)  # one new str
            return lrd(title, n, 6, vs=self.nb)  # versus: one new str
        return lr(title, self.desc(c, n))

    def action(self, c):
        """(kind, args, text) of the roll the builder shows."""
        v = self.v
        a = (v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"])
        if v["mode"] == 0:
            return m.TEST, (v["ab"], v["ob"], v["bon"], v["pen"], v["hel"], v["plus"],
                            v["xminus"], v["ext"]), ""
        if v["mode"] == 1:
            return m.VERSUS, a + (v["bab"], 0, 0, 0, 0, 0), ""
        d = v["bmd"]
        return m.VERSUS, a + (v["blv"], d if d > 0 else 0, -d if d < 0 else 0, 0, 0, 0, 2), ""

    def two(self):
        """A versus roll's odds: its win and tie, a row each."""
        return self.v["mode"] != 0

    def split(self, c, out):
        """A versus roll's faces: the roller's, then the opponent's (a
        monster by its Level, or an Ability)."""
        if out.kind != m.VERSUS or not self.v["mode"]:
            return None
        n = self.dice(c)
        return (("Roller", n), ("Monster" if self.v["mode"] == 2 else "Opponent", len(out.faces) - n))

    def need(self, c, keyed):
        """Faces a hand roll needs: the pool's, then the opponent's."""
        n = self.dice(c)
        return n + (self.vs_dice() if self.v["mode"] else 0)

    def take(self, kind, a):
        """Take the values of event (kind, a) if it is a roll the builder
        makes (not a monster's own roll, by its Level): True."""
        v = self.v
        if kind == m.TEST:
            if len(a) == 9 and a[-1] & 1:
                return False  # a monster's roll (by Level): not one the builder makes
            v["mode"] = 0
            v["ab"], v["ob"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"], v["ext"] = \
                a[:8]
            return True
        if kind != m.VERSUS or len(a) == 13 and a[-1] & 1:
            return False
        v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"] = a[:6]
        if len(a) == 13 and a[12] & 2:  # against a monster by its Level
            v["mode"] = 2
            v["blv"], v["bmd"] = a[6], a[7] - a[8]
        else:
            v["mode"] = 1
            v["bab"] = a[6]
        return True


# --- Turns (ui/turns.py) -----------------------------------------------------
def turns():
    """(events, menu rows) of Turns: each row's (kind, args). A short rest
    occupies an Exploration Turn; "Overland turn" checks every turn (the
    seed's "once per Overland Turn"), "Overland, safe" counts the
    encounter countdown down instead (a boat, a very safe place)."""
    return (((m.TURN, (m.EXPLORE,)), (m.SHORT_REST, (0, 1)), (m.TURN, (m.OVERLAND,)),
             (m.TURN, (m.OVERLAND_CD,)), (m.ENC_CHECK, ())),
            ["Explore turn", "Short rest", "Overland turn", "Overland, safe", "Extra enc check"])


def turns_head(c):
    """Turns' rows above its menu: the title, the turns to the next
    encounter check and the exploration turns to the next usage check."""
    x = c.x
    enc, use = m.next_check(c)
    return (lr("TURN %d" % x[m.TURN_N], "day %d" % x[m.DAY]), lr("Next encounter", str(enc)),
            lr("Next usage", str(use)))


# --- a character's sheet (ui/chars.py) ---------------------------------------
# field -> (left, right): each an event (kind, args after the character) or
# None; a field not here is read-only (the triggers, down, apply).
ACTS = {"hp": ((m.DAMAGE, (1, 0)), (m.HEAL, (1,))),
        "bonus_hp": ((m.BONUS_END, ()), (m.BONUS_HP, (1,))),
        "res": ((m.USE_RES, (1,)), None), "down": (None, (m.DOWN_OUT, (1,)))}
SHEET_MORE = ("Abilities",)  # rows after the CHAR_FIELDS ones (OK: sheet_open)
SHEET_OK = ("res",)  # CHAR_FIELDS rows whose OK opens a form (sheet_open)


def sheet_top(c, i):
    return ()


def sheet_open(app, i, f):
    """OK on a SHEET_MORE or SHEET_OK row of character i: Abilities and
    Boons; res, spend any number (ui/spend.py)."""
    if f == "res":
        from ui.spend import Spend
        app.push(Spend(app, i))
        return
    from ui.abilities import Abilities
    app.push(Abilities(app, i))
