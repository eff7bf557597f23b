"""expedition's screens but home (ui/systems.py `get`, imported when the
builder, Turns or a sheet first needs it): the builder's pool (ui/pools.py)
of a test of 2 + Ability against an Obstacle (or against a tracked foe's
Save: FOE resist), a versus test against another Ability or a monster's
Level (+/- its strength and weakness dice, "Opp. dice"), or a combat
check (COMBAT) against a tracked foe or a Level; who rolls fills the
Ability from its rolled Abilities, a tracked foe its Level. Turns
(ui/turns.py: turns, rests, and the screens of ui/clocks.py) and a
sheet's events and forms (ui/chars.py; ui/sheetforms.py, ui/spend.py,
ui/abilities.py). Home and the ring: ui/expedition.py. The sheet's and
Talismans' words: ui/words.py.
"""

from rules import expedition as m
from ui import pools
from ui.screen import lr, lrd

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

# rules/expedition_foes.py's FOE_ROLE, NPC tier (a >> 5) and TRACKED (not
# imported: the builder's first open would load it).
_FOE_ROLE = const(16)
_NPC = const(3)
_TRACKED = const(16)
# Labels and words, one bytes constant split when the module loads: a str
# constant of up to 10 characters is interned when the module loads, and
# every new str a builder key makes (a row, the title, the odds) is looked
# up among all the interned ones (docs/performance.md).
_W = b"Who/Resist/Against/Opp. +s/Threatens/Threatened/Supporters/Into melee/Use armor/" \
    b"Use shield/Score/combat/PCs in it/by hand/Long rest/Usage dice".decode().split("/")


class Pool(pools.Pool):
    """The builder's values: a TEST (or FOE resist: a character resists a
    tracked foe's Move, its Save the Ob), a VERSUS test against an
    Ability or a monster's Level (a tracked foe fills it), or a COMBAT
    check against a tracked foe (or a monster by its Level)."""

    m = m
    system = m.ID
    SIDES = m.SIDES
    F = {"mode": ("Mode", 0, 3), "who": (_W[0], -1, 7), "abl": ("Ability", -1, 5),
         "ab": ("Ability", 0, 10), "bon": ("Bonus dice", 0, 18),
         "pen": ("Penalty", 0, 2), "hel": ("Helpers", 0, 7), "plus": ("+s", 0, 6),
         "xminus": ("-s", 0, 6), "ob": ("Ob", 1, 30), "ext": ("Extended", -1, 31),
         "vs": (_W[1], -1, 31), "bab": ("Opp. ability", 0, 10), "foe": (_W[2], -1, 31),
         "blv": ("Opp. level", 0, 14), "bmd": ("Opp. dice", -2, 18), "bpl": (_W[3], 0, 6),
         "thr": (_W[4], 0, 1), "thd": (_W[5], 0, 1), "gang": (_W[6], 0, 18),
         "mel": (_W[7], 0, 7), "ally": (_W[12], 0, 255), "arm": (_W[8], 0, 1),
         "shd": (_W[9], 0, 1)}
    NUM = ("ab", "bon", "pen", "hel", "plus", "xminus", "ob", "bab", "blv", "bpl", "gang", "mel")
    ZERO = {"mel": "no"}
    WORDS = {"mode": ("test", "versus", "monster", _W[11]), "thr": pools.YES_NO,
             "thd": pools.YES_NO, "arm": pools.YES_NO, "shd": pools.YES_NO}
    SIGNED = ("bmd",)
    # A set: a builder key tests it once. Each one's change rebuilds the
    # rows (pools.Pool.change returns True), and fix() fills what it names.
    REFS = {"who", "abl", "ext", "vs", "foe", "gang", "mel", "ally"}

    def __init__(self):
        pools.Pool.__init__(self, {"mode": 0, "who": -1, "abl": 0, "ab": 1, "bon": 0, "pen": 0,
                                   "hel": 0, "plus": 0, "xminus": 0, "ob": 1, "ext": -1,
                                   "vs": -1, "bab": 1, "foe": -1, "blv": 1, "bmd": 0, "bpl": 0,
                                   "thr": 1, "thd": 1, "gang": 0, "mel": 0, "ally": 0, "arm": 0,
                                   "shd": 0})
        self.F = dict(Pool.F)  # the Ability's label follows the table (fix)
        self.nb = 0      # versus: the opponent's dice (dice() sets it)
        self.fs = ()     # the fields shown (fix() makes them)
        # [the tracked foe is an NPC (its Pool, not Level + 3), who the
        # Ability was last filled for, then the last title: its dice, the
        # opponent's, the str (head)]
        self.x = [0, -1, -1, 0, ""]

    def fields(self):
        return self.fs

    def takes(self, t):
        """An extended test's talisman."""
        return t.role == m.EXTENDED

    def _choices(self, c, f):
        """Who (any character), which of its Abilities (-1: by hand), the
        supporters and allies, a foe (monster mode and a resisted Move:
        not an NPC, which has neither Level nor Save); pools' otherwise."""
        if f == "abl":
            return [-1, 0, 1, 2, 3, 4, 5]
        if f == "gang" or f == "mel":
            return list(range(self.F[f][2] + 1))
        if f == "ally":   # the supporters or engaged allies among the other living characters
            can = 0
            for i in range(len(c.chars)):
                if i != self.v["who"] and not c.chars[i].v[m.DEAD]:
                    can |= 1 << i
            return [k for k in range(can + 1) if not k & ~can]
        if f != "foe" and f != "vs":
            return pools.Pool._choices(self, c, f)
        npc = f == "foe" and self.v["mode"] == 3
        out = [-1]
        for i, t in enumerate(c.tals):
            if t is not None and t.role == _FOE_ROLE and (npc or t.a >> 5 != _NPC):
                out.append(i)
        return out

    def fix(self, c):
        """The rows to show, and what who rolls and the foe fill: the
        Ability from who's rolled Abilities (ui/abilities.py), a tracked
        foe's Level (an NPC's Pool) and its Save as the Ob; references an
        undo or a new campaign made stale dropped."""
        v = self.v
        x = self.x
        x[2] = -1   # the title made again (another mode may show the same dice)
        mode = v["mode"]
        who = v["who"]
        if not -1 <= who < len(c.chars):
            who = v["who"] = -1
        rec = c.find(m.ROLE_ABILITIES, who) if who >= 0 else -1
        if who != x[1]:   # another character rolls: its sheet, not a score by hand
            x[1] = who
            if v["abl"] < 0:
                v["abl"] = 0
        F = self.F
        k = v["abl"]
        F["ab"] = (_W[10], 0, 10) if rec >= 0 else Pool.F["ab"]
        # The Ability's own name on its row (`Agility  4`): with the word
        # as its value, `Discipline 3` leaves no room for a label.
        F["abl"] = (m.ABILITIES[k] if k >= 0 else "Ability", -1, 5)
        if rec >= 0 and k >= 0:
            v["ab"] = c.tals[rec].a >> (4 * k) & 15   # rules/expedition_chars.py get()
        fs = ["mode", "who"]
        if rec >= 0:
            fs.append("abl")
        if rec < 0 or k < 0:
            fs.append("ab")
        for f in ("vs", "foe", "ext"):
            if v[f] != -1 and (f != "ext" or mode == 0) and v[f] not in self._choices(c, f):
                v[f] = -1
        t = v["foe"] if mode >= 2 else v["vs"] if mode == 0 else -1
        tal = c.tals[t] if t >= 0 else None
        x[0] = tal is not None and tal.a >> 5 == _NPC
        if tal is not None:
            v["blv"] = tal.a & 31   # the Level (an NPC's Pool)
        if mode == 0 and tal is not None:   # a Save: "half of the monster's Level plus one, rounded up"
            v["ob"] = (v["blv"] + 1) // 2 + 1
            v["plus"] = v["xminus"] = 0
            v["ext"] = -1
            fs += ["bon", "pen", "hel", "vs"]
        elif mode == 0:   # Resist before the rows a resisted Move hides: it stays where it was
            fs += ["bon", "pen", "hel", "vs", "plus", "xminus", "ob", "ext"]
        elif mode == 1:
            fs += ["bon", "pen", "hel", "plus", "xminus", "bab"]
        elif mode == 2:
            fs += ["bon", "pen", "hel", "plus", "xminus", "foe"] + \
                (["bmd"] if tal is not None else ["blv", "bmd"])
        else:
            fs += ["bon", "pen", "plus", "xminus", "foe"] + \
                (["bmd", "bpl"] if tal is not None else ["blv", "bmd", "bpl"])
            fs += ["thr", "thd", "gang", "mel"]
            if v["gang"] or v["mel"]:
                fs.append("ally")
            # The roller's blocks, each while its gear is there and unspent today
            # (a block used by a roll before goes from the rows, and from the roll).
            g = c.chars[who].v if who >= 0 else None
            for f, k, bit in (("arm", m.ARMOR, 1), ("shd", m.SHIELD, 2)):
                if g is not None and g[k] and not g[m.SPENT] & bit:
                    fs.append(f)
                else:
                    v[f] = 0
        if "ally" not in fs or v["ally"] not in self._choices(c, "ally"):
            v["ally"] = 0   # no group, or who rolls or the dead among them: none
        self.fs = tuple(fs)

    def text(self, c, f):
        """A value as shown: who's Ability by name and score, a foe by its
        name (a resisted one with its Save, the Ob), pools' otherwise."""
        v = self.v[f]
        if f == "abl":
            return _W[13] if v < 0 else str(self.v["ab"])
        if f == "vs" or f == "foe":
            if v < 0:
                return "-"
            if f == "foe":
                return c.tals[v].name
            ob = " Ob%d" % self.v["ob"]   # the Save: a long name gives way, never the Ob
            return c.tals[v].name[:15 - len(_W[1]) - len(ob)] + ob
        if f == "mel" or f == "gang":
            return "no" if not v else str(v)
        if f == "ally":   # their initials, `.` for one not in it (`B.D`)
            out = ""
            for i in range(len(c.chars)):
                if i != self.v["who"] and not c.chars[i].v[m.DEAD]:
                    out += c.chars[i].name[0] if v >> i & 1 else "."
            return out or "-"
        return pools.Pool.text(self, c, f)

    def dice(self, c):
        """The main pool's dice count (ValueError when the values are
        refused); in a versus mode it also sets `nb`, the opponent's dice
        (vs_dice), for head() and the odds line."""
        v = self.v
        if v["mode"]:
            self.nb = self.vs_dice()  # a monster's pool over 20 dice is refused here too
            if v["mode"] == 3:   # combat: no helping dice; +1d a supporter, -1d into a melee
                n = m.pool(v["ab"], v["bon"], v["pen"]) + v["gang"]
                if v["mel"] and n:
                    n -= 1
                if n > m.MAX_POOL:
                    raise ValueError("a pool of %d dice is over %d" % (n, m.MAX_POOL))
                return n
        return m.pool(v["ab"], v["bon"], v["pen"], v["hel"])

    def vs_dice(self):
        """versus: the opponent's dice (2 + Ability, or a monster's
        Level + 3 with its +/- dice, or a tracked NPC's Pool)."""
        v = self.v
        if v["mode"] == 1:
            return 2 + v["bab"]
        d = v["bmd"]
        if self.x[0] and v["mode"] == 3:
            return m._dice(v["blv"], d if d > 0 else 0, -d if d < 0 else 0, 0)  # an NPC's Pool
        return m.monster_pool(v["blv"], d if d > 0 else 0, -d if d < 0 else 0)

    def _desc(self, n):
        s = "%dd%d" % (n, 6)
        if self.v["mode"]:
            s += " v%d" % self.vs_dice()
        return s

    def head(self, title, c, n):
        """The builder's title row: `title` left, the pool (desc) right; n:
        dice(c). The same str again while the dice are (an Ob, a -s, an
        extended test change none): no new str (fix() forgets it: another
        mode or reference may show the same dice otherwise)."""
        if n == self.x[2] and self.nb == self.x[3]:
            return self.x[4]
        self.x[2] = n
        self.x[3] = self.nb
        if n >= 100 or n < 0:
            self.x[4] = lr(title, self.desc(c, n))
        elif self.v["mode"] == 0:
            self.x[4] = lrd(title, n, 6)  # one new str
        else:
            self.x[4] = lrd(title, n, 6, vs=self.nb)  # versus: one new str
        return self.x[4]

    def action(self, c):
        """(kind, args, text) of the roll the builder shows."""
        v = self.v
        a = (v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"])
        mode = v["mode"]
        d = v["bmd"]
        if mode == 0:
            if v["vs"] >= 0:   # FOE resist (rules/expedition_foes.py): its Save is the Ob
                return 121, (4, v["vs"], v["ab"], v["bon"], v["pen"], v["hel"]), ""
            return m.TEST, (v["ab"], v["ob"], v["bon"], v["pen"], v["hel"], v["plus"],
                            v["xminus"], v["ext"]), ""
        if mode == 1:
            return m.VERSUS, a + (v["bab"], 0, 0, 0, 0, 0), ""
        if mode == 2:
            return m.VERSUS, a + (v["blv"], d if d > 0 else 0, -d if d < 0 else 0, 0, 0, 0, 2), ""
        if v["gang"] and v["mel"]:
            raise ValueError("supporters gang up, or you fire into a melee: not both")
        who = v["who"]
        threat = v["thr"] | v["thd"] << 1 | m.FOE_B
        if v["foe"] >= 0:
            threat |= (v["foe"] + 1) * _TRACKED
        return m.COMBAT, (who, v["ab"], v["bon"], v["pen"], v["plus"], v["xminus"], -1, v["blv"],
                          d if d > 0 else 0, -d if d < 0 else 0, v["bpl"], 0,
                          v["gang"] or -v["mel"], v["ally"],
                          (v["arm"] | v["shd"] << 1) << 2 * who if who >= 0 else 0, threat), ""

    def two(self):
        """A versus roll's odds: its win and tie, a row each."""
        return self.v["mode"] != 0

    def split(self, c, out):
        """A versus roll's faces: the roller's, then the opponent's (a
        monster by its Level, or an Ability). A combat check's: who rolls
        and the foe by their names, then a stray shot's dice."""
        mode = self.v["mode"]
        if not mode or out.kind != (m.COMBAT if mode == 3 else m.VERSUS):
            return None
        n = self.dice(c)
        if mode < 3:
            return (("Roller", n), ("Monster" if mode == 2 else "Opponent", len(out.faces) - n))
        who = self.v["who"]
        t = c.tals[self.v["foe"]] if self.v["foe"] >= 0 else None
        nb = self.nb
        k = len(out.faces) - n - nb
        if k < 0:
            return None
        sides = ((c.chars[who].name[:10] if who >= 0 else "Roller", n),
                 (t.name[:10] if t is not None else "Monster", nb))
        return sides + (("Stray shot", k),) if k else sides

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
            v["vs"] = v["who"] = -1
            return True
        if kind == 121:
            if a[0] != 4:
                return False  # FOE resist only: a character resists a foe's Move
            v["mode"] = 0
            v["vs"], v["ab"], v["bon"], v["pen"], v["hel"] = a[1:6]
            v["who"] = -1
            return True
        if kind == m.COMBAT:
            if a[1] == -1 or a[7] == -1 or a[6] != -1 or not a[15] & m.FOE_B:
                return False  # a helpless side, or no monster: not the builder's
            v["mode"] = 3
            v["who"], v["ab"], v["bon"], v["pen"], v["plus"], v["xminus"] = a[:6]
            v["abl"] = -1      # the score as rolled: by hand
            self.x[1] = a[0]
            v["blv"], v["bmd"], v["bpl"] = a[7], a[8] - a[9], a[10]
            v["gang"], v["mel"] = (a[12], 0) if a[12] >= 0 else (0, -a[12])
            v["ally"] = a[13]
            w = a[14] >> 2 * a[0] & 3 if a[0] >= 0 else 0
            v["arm"], v["shd"] = w & 1, w >> 1
            v["thr"], v["thd"] = a[15] & 1, a[15] >> 1 & 1
            v["foe"] = (a[15] >> 4) - 1
            return True
        if kind != m.VERSUS or len(a) == 13 and a[-1] & 1:
            return False
        v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"] = a[:6]
        v["who"] = -1
        if len(a) == 13 and a[12] & 2:  # against a monster by its Level
            v["mode"] = 2
            v["blv"], v["bmd"] = a[6], a[7] - a[8]
            v["foe"] = -1
        else:
            v["mode"] = 1
            v["bab"] = a[6]
        return True


# --- Turns (ui/turns.py) -----------------------------------------------------
TURNS_WRAP = 1  # no row ends anything: the menu wraps (Up from the top: the clocks)


def turns():
    """(events, menu rows) of Turns: each row's (kind, args), or (0, the
    screen it opens: ui/clocks.py). A short rest occupies an Exploration
    Turn; a long rest is overnight (HP, class resources, blocks and lost
    spells back; the next day); "Overland turn" checks every turn (the
    seed's "once per Overland Turn"), "Overland, safe" counts the
    encounter countdown down instead (a boat, a very safe place); then
    the dungeon's encounter rate, the usage dice and extended tests."""
    return (((m.TURN, (m.EXPLORE,)), (m.SHORT_REST, (0, 1)), (m.TURN, (m.OVERLAND,)),
             (m.TURN, (m.OVERLAND_CD,)), (m.ENC_CHECK, ()), (m.LONG_REST, ()),
             (0, b"clocks Rate"), (0, b"clocks Usage"), (0, b"clocks Extended")),
            ["Explore turn", "Short rest", "Overland turn", "Overland, safe", "Extra enc check",
             _W[14], "Encounter rate", _W[15], "Extended tests"])


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
# Rows after the CHAR_FIELDS ones (OK: sheet_open): one blow of N points,
# variable damage, the sheet by hand (ui/sheetforms.py), Abilities and Boons.
SHEET_MORE = ("Take damage", "Damage dice", "Set the sheet", "Abilities")
SHEET_OK = ("res", "down")  # CHAR_FIELDS rows whose OK opens a form (sheet_open)


def sheet_top(c, i):
    return ()


def sheet_open(app, i, f):
    """OK on a SHEET_MORE or SHEET_OK row of character i: res, spend any
    number (ui/spend.py); Abilities and Boons; down, the damage rows and
    the sheet: ui/sheetforms.py's forms (open: its names are interned
    when it loads, not with the builder's)."""
    if f == "res":
        from ui.spend import Spend
        app.push(Spend(app, i))
    elif f == "Abilities":
        from ui.abilities import Abilities
        app.push(Abilities(app, i))
    else:
        __import__("ui.sheetforms", None, None, ("open",)).open(app, i, f)
