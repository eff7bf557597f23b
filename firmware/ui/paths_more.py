"""paths' screens but home (ui/systems.py `get`, imported when the builder
or a sheet first needs it): the builder's pool (a test, an opposed test or
a roll of a prolonged test: the Skill tested, Skill, Path, situation,
removed dice, the difficulty or the opponent's pool, up to two helpers;
ui/pools.py) and the sheet (a character's Paths and Skills); for Turns,
the Fight screen (COMBAT: a fight starts or ends). Home and the ring:
ui/paths.py. What the builder takes of the sheet (the Skill named, its
levels, helpers by name) and the sheet itself: ui/pathsheet.py.

A hidden difficulty (Hidden yes) is the GM's: the builder's title says
HIDDEN, its Difficulty row reads `?` and its odds row `long OK: GM view`
until a long OK there shows them (`gm`, for as long as the builder stays
open), so the players sharing the tray do not read them while it is set.
"""

from rules import paths as m
from ui import pools
from ui.screen import lr, lrd

# The fields of each mode (a test, an opposed test, a prolonged test's
# roll), the helpers' pools dialled by hand, then, with a Skill named,
# the helpers as characters.
_FIELDS = (("who", "mode", "sk", "pskill", "path", "sit", "minus", "diff", "hidden", "h1", "h2"),
           ("who", "mode", "sk", "pskill", "path", "sit", "minus", "diff", "hidden", "hc1", "hc2"),
           ("who", "mode", "sk", "pskill", "path", "sit", "minus", "opp", "init", "h1", "h2"),
           ("who", "mode", "sk", "pskill", "path", "sit", "minus", "opp", "init", "hc1", "hc2"),
           ("mode", "test", "pskill", "path", "sit", "minus", "h1", "h2"),
           ("mode", "test", "pskill", "path", "sit", "minus", "hc1", "hc2"))
_KINDS = (m.TEST, m.OPPOSED, m.PRO_ROLL)


def _sheet():
    """ui/pathsheet.py: the sheet and what the builder takes of it (the
    Skill named, its levels, helpers by name, a prolonged test), loaded
    when first needed, its functions called by the names they have here:
    every name this module interns makes each new str of every builder
    key look through one more (docs/architecture.md)."""
    from ui import pathsheet
    return pathsheet


class Pool(pools.Pool):
    """The builder's values for a TEST, an OPPOSED test or a PRO_ROLL."""

    m = m
    system = m.ID
    SIDES = m.SIDES
    F = {"who": ("Who", -1, 7), "mode": ("Mode", 0, 2), "sk": ("", -1, 29),
         "pskill": ("Skill", 0, 6), "path": ("Path", 0, 6), "sit": ("Situation", -2, 2),
         "minus": ("Minus dice", 0, 20), "diff": ("Difficulty", 0, 7), "hidden": ("Hidden", 0, 1),
         "opp": ("Opp. pool", 1, 20), "init": ("Initiator", 0, 1), "h1": ("Helper 1", 0, 20),
         "h2": ("Helper 2", 0, 20), "hc1": ("Helper 1", -1, 7), "hc2": ("Helper 2", -1, 7),
         "test": ("", -1, 31)}  # "": the row is text()'s whole (ui/pathsheet.py)
    NUM = ("minus", "pskill", "path", "diff", "opp", "h1", "h2")
    ZERO = {"diff": "auto", "h1": "-", "h2": "-"}
    WORDS = {"mode": ("test", "opposed", "prolonged"), "hidden": pools.YES_NO,
             "init": ("me", "them")}
    SIGNED = ("sit",)
    # References (a change rebuilds every row: ui/builder.py): who rolls,
    # the Skill named, a prolonged test, a helper.
    REFS = {"who", "sk", "test", "hc1", "hc2"}
    CHARS = ("who", "hc1", "hc2")

    def __init__(self):
        # Every key's own values first, as before the sheet's three: a dict
        # built from a literal is a full hash table, each key at or after
        # where the ones before it left room, and a builder key reads these.
        pools.Pool.__init__(self, {"who": -1, "mode": 0, "pskill": 1, "path": 1, "sit": 0,
                                   "minus": 0, "diff": 1, "hidden": 0, "opp": 2, "init": 0,
                                   "h1": 0, "h2": 0, "test": -1, "sk": -1, "hc1": -1, "hc2": -1})
        self.named = 0  # a Skill named: the levels from the sheet (fix), the helpers by name

    def fields(self):
        return _FIELDS[2 * self.v["mode"] + self.named]

    def secret(self):
        """A test whose difficulty is hidden from the players."""
        return self.v["hidden"] and not self.v["mode"]

    def takes(self, t):
        """A prolonged test still open."""
        return t.role == m.PROLONGED and m.status(t) == m.ST_OPEN

    def _helps(self):
        v = self.v
        return [h for h in (v["h1"], v["h2"]) if h]

    def dice(self, c):
        """The main pool's dice count (ValueError when the values are refused)."""
        v = self.v
        return m.pool(v["pskill"], v["path"], v["sit"], v["minus"])

    def _desc(self, n):
        s = "%dd%d" % (n, 12)
        if self._helps():
            s += "+h"
        return s

    def head(self, title, c, n):
        """A title row: `title` left, the pool (desc) right; n: dice(c)."""
        if 0 <= n < 100:
            return lrd(title, n, 12, "+h" if self._helps() else "")  # one new str
        return lr(title, self.desc(c, n))

    # The Skill named, the helpers by name, the prolonged test: what the
    # sheet gives (ui/pathsheet.py).
    def _choices(self, c, f):
        if f == "sk":  # none, or one of the seed's 30 Skills (6 Paths of 5)
            return list(range(-1, 30))  # (here: each refresh's fix asks it)
        if f == "hc1" or f == "hc2":
            return _sheet()._choices(self, c, f)
        return pools.Pool._choices(self, c, f)

    def fix(self, c):
        """Drop stale references; with a Skill named, the levels from the
        sheet. And the builder's title and Difficulty row as a hidden
        difficulty shows them, in or out of the GM view: set here, where
        the builder refreshes (on Hidden's and Mode's change, the GM
        view's, an undo), so that no key pays a test for them."""
        pools.Pool.fix(self, c)
        v = self.v
        if v["sk"] >= 0 or (v["mode"] == 2 and v["test"] >= 0):
            _sheet().fix(self, c)
        else:
            self.named = 0
        P = Pool   # the class's NUM and WORDS; the instance's hide the difficulty
        if self.secret() and not self.gm:
            self.NUM = P.NUM[:3] + P.NUM[4:]   # not "diff": its WORDS say `?`
            self.WORDS = dict(P.WORDS)
            self.WORDS["diff"] = ("?",) * 8
        else:
            self.NUM, self.WORDS = P.NUM, P.WORDS
        self.title = ("HIDDEN GM" if self.gm else "HIDDEN") if self.secret() else "ROLL"

    def text(self, c, f):
        """The value of field f as shown (the Skill named, a helper with its
        pool, a prolonged test: the sheet's)."""
        if f == "sk" and self.v[f] < 0:
            return "Test of        -"  # no Skill named: every row by hand
        if f == "sk" or f == "hc1" or f == "hc2" or f == "test":
            return _sheet().text(self, c, f)
        return pools.Pool.text(self, c, f)

    def opens(self, app, f):
        """OK with no prolonged test picked opens a new one (ui/prolonged.py)."""
        if self.v["mode"] != 2 or self.v["test"] >= 0:
            return False
        return _sheet().opens(self, app)

    def action(self, c):
        """(kind, args, text) of the roll the builder shows (text: the Skill
        named)."""
        v = self.v
        base = (v["pskill"], v["path"], v["sit"], v["minus"])
        hs = tuple(self._helps())
        mode = v["mode"]
        if mode == 2:
            if v["test"] < 0:
                _sheet().action(self, c)  # refuses it, in words
            return m.PRO_ROLL, (v["test"],) + base + hs, ""
        text = _sheet().action(self, c) if v["sk"] >= 0 else ""  # the Skill's name
        if mode == 0:
            return m.TEST, (v["who"],) + base + (v["diff"], v["hidden"]) + hs, text
        return m.OPPOSED, (v["who"],) + base + (v["opp"], v["init"]) + hs, text

    def split(self, c, out):
        """The sides of a roll's faces as its result shows them: (label,
        faces) of each helper, who rolls, the opponent; None when the
        faces are all the roller's."""
        if out.kind not in _KINDS:
            return None
        v = self.v
        hs = self._helps()
        opp = v["opp"] if out.kind == m.OPPOSED else 0
        if not hs and not opp:
            return None
        sides = []
        main = len(out.faces) - opp
        for k in range(len(hs)):
            sides.append(("Helper %d" % (k + 1), hs[k]))
            main -= hs[k]
        w = v["who"] if out.kind != m.PRO_ROLL else -1
        sides.append((c.chars[w].name if 0 <= w < len(c.chars) else "Roller", main))
        if opp:
            sides.append(("Opponent", opp))
        return sides

    def need(self, c, keyed):
        """Faces a hand roll needs, given the faces keyed so far (the
        helpers' successes decide how many dice the main pool gets)."""
        n = self.dice(c)
        v = self.v
        if v["mode"] == 0 and v["diff"] == 0 and not v["hidden"]:
            return 0
        extra = v["opp"] if v["mode"] == 1 else 0
        hs = self._helps()
        h = 0
        for x in hs:
            h += x
        if len(keyed) < h:
            return h + n + extra
        bonus = 0
        for f in keyed[:h]:
            bonus += m.SUCCESS[f] if 1 <= f <= 12 else 0
        cap = v["pskill"] if v["pskill"] > 0 else 1
        return h + n + (bonus if bonus < cap else cap) + extra

    def take(self, kind, a):
        """Take the values of event (kind, a) if it is a roll the builder
        makes: True (every row by hand: the event holds the levels and the
        helpers' pools, not whose)."""
        if kind not in _KINDS:
            return False
        v = self.v
        j = 0
        if kind == m.PRO_ROLL:
            v["mode"], v["test"] = 2, a[0]
            j = 5
        else:
            v["who"] = a[0]
            v["mode"] = 0 if kind == m.TEST else 1
            j = 7
        v["pskill"], v["path"], v["sit"], v["minus"] = a[1:5]
        if kind == m.TEST:
            v["diff"], v["hidden"] = a[5], a[6]
        elif kind == m.OPPOSED:
            v["opp"], v["init"] = a[5], a[6]
        h = list(a[j:]) + [0, 0]
        v["h1"], v["h2"] = h[0], h[1]
        v["sk"] = -1
        return True


# --- Fight (ui/turns.py) -------------------------------------------------------
def turns():
    """(events, menu rows) of Fight: a fight starts (COMBAT 1, named
    `Combat`: rename it on Talismans) or ends (rules/paths_more.py)."""
    from rules import paths_more as pm
    return ((pm.COMBAT, (1,)), (pm.COMBAT, (0,))), ["Fight starts", "Fight ends"]


def turns_head(c):
    """Fight's title and the row below it: the fight under way."""
    from rules import paths_more as pm
    t = pm.in_combat(c)
    return "FIGHT", ("%s under way" % c.tals[t].name) if t >= 0 else "no fight"


# --- a character's sheet (ui/chars.py): its Paths and Skills (ui/pathsheet.py) ---
class _Every:
    """Every row of a paths sheet opens its Path's form: `f in SHEET_OK`."""

    def __contains__(self, f):
        return True


ACTS = {}
SHEET_MORE = ()
SHEET_OK = _Every()


def sheet_top(c, i):
    """(label, value) rows: each Path, then its Skills with a level."""
    return _sheet().sheet_top(c, i)


def sheet_open(app, i, f):
    """OK on a Path's row, or one of its Skills': that Path's form."""
    _sheet().sheet_open(app, i, f)
