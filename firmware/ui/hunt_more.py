"""hunt's screens but home (ui/systems.py `get`, imported when the builder
or a sheet first needs it): the builder's pool (an action roll: Skill,
Advantage, divine agony, removed dice, a hard roll, the target talisman;
ui/pools.py) and a sheet's stress talisman, events and forms
(ui/chars.py). Home and the ring: ui/hunt.py; Scenes: ui/scenes.py. The
sheet's and Talismans' words: ui/words.py.
"""

from rules import hunt as m
from ui import pools
from ui.screen import lr, lrd

_FIELDS = ("who", "skill", "adv", "agony", "minus", "hard", "target", "grant", "setup")
_SETUP = 7  # rules/hunt_more.py ROLE_SETUP (not imported: the builder's first open would load it)


class Pool(pools.Pool):
    """The builder's values for an action roll (ROLL)."""

    m = m
    system = m.ID
    SIDES = m.SIDES
    F = {"who": ("Who", -1, 7), "skill": ("Skill", 0, 3), "adv": ("Advantage", 0, 3),
         "agony": ("Div. agony", 0, 1), "minus": ("Minus dice", 0, 20), "hard": ("Hard", 0, 1),
         "target": ("Target", -1, 31), "grant": ("Setup for", -1, 7), "setup": ("Uses", -1, 31)}
    NUM = ("skill", "adv", "minus")
    WORDS = {"agony": pools.YES_NO, "hard": pools.YES_NO}
    REFS = {"who", "target", "grant", "setup"}  # a set: a builder key tests it once, not 4 compares
    CHARS = ("who", "grant")

    def __init__(self):
        pools.Pool.__init__(self, {"who": -1, "skill": 0, "adv": 0, "agony": 0, "minus": 0,
                                   "hard": 0, "target": -1, "grant": -1, "setup": -1})

    def fields(self):
        return _FIELDS

    def takes(self, t):
        """A target: a task or the Sin's talisman, not yet filled."""
        return t.role in (m.ROLE_TASK, m.ROLE_SIN) and not t.filled()

    def _choices(self, c, f):
        """A setup used: one granted to who rolls; other fields as pools'."""
        if f != "setup":
            return pools.Pool._choices(self, c, f)
        who = self.v["who"]
        out = [-1]
        for i, t in enumerate(c.tals):
            if t is not None and t.role == _SETUP and t.owner == who:
                out.append(i)
        return out

    def dice(self, c):
        """The pool's dice count (ValueError when the values are refused)."""
        v = self.v
        ag = 0
        if v["agony"] and 0 <= v["who"] < len(c.chars):
            p = c.chars[v["who"]].v[m.PATHOS]
            ag = p if p < 3 else 3
        return m.action_pool(v["skill"], v["adv"], ag, v["minus"])

    def _desc(self, n):
        return "2d6 low" if n <= 0 else "%dd%d" % (n, 6)  # 0 dice: 2d6, keep the lower

    def head(self, title, c, n):
        """A title row: `title` left, the pool (desc) right; n: dice(c)."""
        if 0 < n < 100:
            return lrd(title, n, 6)  # one new str
        return lr(title, self.desc(c, n))

    def action(self, c):
        """(kind, args, text) of the roll the builder shows: ROLL's short
        form unless it grants a setup or uses one (rules/hunt_more.py)."""
        v = self.v
        a = (v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"], v["target"])
        s = v["setup"]
        if s >= 0 and (s >= len(c.tals) or c.tals[s] is None or c.tals[s].role != _SETUP):
            s = v["setup"] = -1  # spent by the last roll (Roll again), or undone
        if s >= 0:  # (another's setup: the rules refuse it and say whose it is)
            return m.ROLL, a + (v["grant"], s), ""
        if v["grant"] >= 0:
            return m.ROLL, a + (v["grant"],), ""
        return m.ROLL, a, ""

    def need(self, c, keyed):
        """Faces a hand roll needs."""
        n = self.dice(c)
        return n if n > 0 else 2

    def take(self, kind, a):
        """Take the values of event (kind, a) if it is a roll the builder
        makes: True."""
        if kind != m.ROLL:
            return False
        if 7 <= len(a) <= 9:
            v = self.v
            v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"], v["target"] = a[:7]
            v["grant"] = a[7] if len(a) > 7 else -1
            v["setup"] = a[8] if len(a) > 8 else -1
        return True


# --- a character's sheet (ui/chars.py) ---------------------------------------
# field -> (left, right): each an event (kind, args after the character) or
# None; a field not here is read-only. Never the numbers edited directly,
# so the triggers (injuries, death) apply.
ACTS = {"stress": (None, (m.STRESS, (1, 0, 0))), "bursts": ((m.BURST, (0,)), None),
        "sin": (None, (m.BURST, (1,))), "pathos": (None, (m.WITNESS, ()))}
SHEET_MORE = ("Hooks", "Afflictions")  # rows after the CHAR_FIELDS ones (OK: sheet_open)
SHEET_OK = ("stress", "kit")  # rows whose OK opens a form: stress in one move, a kit item


# Each of those rows' screen, "module Class", imported when first opened:
# bytes, as home's SCREENS (ui/hunt.py), so that this module, loaded with
# the builder, interns none of their names (each would make every builder
# key's new strs look through one more: docs/architecture.md).
_OPEN = {"Hooks": b"hooks Hooks", "Afflictions": b"afflictions Afflictions",
         "stress": b"stress Stress", "kit": b"kit Kit"}


def sheet_open(app, i, f):
    """OK on a SHEET_MORE or SHEET_OK row of exorcist i: its hooks
    (ui/hooks.py), afflictions (ui/afflictions.py), the stress of one
    move (ui/stress.py) or a kit item (ui/kit.py)."""
    mod, cls = _OPEN[f].decode().split()
    app.push(getattr(__import__("ui." + mod, None, None, (cls,)), cls)(app, i))


def sheet_top(c, i):
    """(field, value) rows above the CHAR_FIELDS ones: character i's
    stress talisman."""
    out = []
    for t in c.tals:
        if t is not None and t.role == m.ROLE_STRESS and t.owner == i:
            out.append(("stress", "%d/%d" % (t.n, t.cap)))
    return out
