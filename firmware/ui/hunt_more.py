"""hunt's screens but home (ui/systems.py `get`, imported when the builder,
Scenes or a sheet first needs it): the builder's pool (an action roll:
Skill, Advantage, divine agony, removed dice, a hard roll, the target
talisman; ui/pools.py), Scenes (ui/turns.py: end a scene, calm or fight
next; the risk die) and a sheet's stress talisman and events
(ui/chars.py). Home and the ring: ui/hunt.py.
"""

from rules import hunt as m
from ui import pools
from ui.screen import lr, lrd

_FIELDS = ("who", "skill", "adv", "agony", "minus", "hard", "target")


class Pool(pools.Pool):
    """The builder's values for an action roll (ROLL)."""

    m = m
    system = m.ID
    SIDES = m.SIDES
    F = {"who": ("Who", -1, 7), "skill": ("Skill", 0, 3), "adv": ("Advantage", 0, 3),
         "agony": ("Div. agony", 0, 1), "minus": ("Minus dice", 0, 20), "hard": ("Hard", 0, 1),
         "target": ("Target", -1, 31)}
    NUM = ("skill", "adv", "minus")
    WORDS = {"agony": pools.YES_NO, "hard": pools.YES_NO}
    REFS = ("who", "target")

    def __init__(self):
        pools.Pool.__init__(self, {"who": -1, "skill": 0, "adv": 0, "agony": 0, "minus": 0,
                                   "hard": 0, "target": -1})

    def fields(self):
        return _FIELDS

    def takes(self, t):
        """A target: a task or the Sin's talisman, not yet filled."""
        return t.role in (m.ROLE_TASK, m.ROLE_SIN) and not t.filled()

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
        """(kind, args, text) of the roll the builder shows."""
        v = self.v
        return m.ROLL, (v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"],
                        v["target"]), ""

    def need(self, c, keyed):
        """Faces a hand roll needs."""
        n = self.dice(c)
        return n if n > 0 else 2

    def take(self, kind, a):
        """Take the values of event (kind, a) if it is a roll the builder
        makes: True."""
        if kind != m.ROLL:
            return False
        if len(a) == 7:
            v = self.v
            v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"], v["target"] = a
        return True


# --- Scenes (ui/turns.py) ---------------------------------------------------
def turns():
    """(events, menu rows) of Scenes: each row's (kind, args)."""
    return (((m.SCENE_END, (0,)), (m.SCENE_END, (1,)), (m.RISK, (-1,))),
            ["End scene: calm", "End scene: fight", "Risk die"])


def turns_head(c):
    """Scenes' title and the row below it."""
    x = c.x
    t = c.find(m.ROLE_TENSION)
    return ("SCENE %d%s" % (x[m.X_SCENE], " fight" if x[m.X_COMBAT] else ""),
            "Tension %d/%d" % (c.tals[t].n, c.tals[t].cap) if t >= 0 else "")


# --- a character's sheet (ui/chars.py) ---------------------------------------
# field -> (left, right): each an event (kind, args after the character) or
# None; a field not here is read-only. Never the numbers edited directly,
# so the triggers (injuries, death) apply.
ACTS = {"stress": (None, (m.STRESS, (1, 0, 0))), "bursts": ((m.BURST, (0,)), None),
        "sin": (None, (m.BURST, (1,))), "pathos": (None, (m.WITNESS, ())),
        "kit": ((m.KIT, (1,)), None)}
SHEET_MORE = ()  # rows after the CHAR_FIELDS ones (OK: sheet_open)


def sheet_top(c, i):
    """(field, value) rows above the CHAR_FIELDS ones: character i's
    stress talisman."""
    out = []
    for t in c.tals:
        if t is not None and t.role == m.ROLE_STRESS and t.owner == i:
            out.append(("stress", "%d/%d" % (t.n, t.cap)))
    return out
