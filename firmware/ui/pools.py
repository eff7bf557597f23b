"""The roll builder's model: the pool parts of each rule system, their
event and the faces a hand roll needs (the odds line: ui/poolodds.py).

One `Pool` per campaign. Values live in a dict by field name; `fields()`
lists the ones the current system and mode use.
"""

from rules import codec
from rules.systems import get
from ui.screen import lr, lrd, lrn

# (name, label, low, high); who/target/ext/test/mode are special-cased.
_F = {
    "who": ("Who", -1, 7), "skill": ("Skill", 0, 3), "adv": ("Advantage", 0, 3),
    "agony": ("Div. agony", 0, 1), "minus": ("Minus dice", 0, 20), "hard": ("Hard", 0, 1),
    "target": ("Target", -1, 31),
    "mode": ("Mode", 0, 2), "pskill": ("Skill", 0, 6), "path": ("Path", 0, 6),
    "sit": ("Situation", -2, 2), "diff": ("Difficulty", 0, 7), "hidden": ("Hidden", 0, 1),
    "opp": ("Opp. pool", 1, 20), "init": ("Initiator", 0, 1), "h1": ("Helper 1", 0, 20),
    "h2": ("Helper 2", 0, 20), "test": ("Test", -1, 31),
    "ab": ("Ability", 0, 10), "bon": ("Bonus dice", 0, 18), "pen": ("Penalty", 0, 2),
    "hel": ("Helpers", 0, 7), "plus": ("+s", 0, 6), "xminus": ("-s", 0, 6),
    "ob": ("Ob", 1, 30), "ext": ("Extended", -1, 31), "bab": ("Opp. ability", 0, 10),
    "blv": ("Opp. level", 0, 14), "bmd": ("Opp. dice", -2, 18),
}
# Fields shown as a plain number (but for 0 in _ZERO: 'auto', '-').
_NUM = ("skill", "adv", "minus", "pskill", "path", "diff", "opp", "h1", "h2", "ab", "bon", "pen",
        "hel", "plus", "xminus", "ob", "bab", "blv")
_ZERO = ("diff", "h1", "h2")
_REFS = ("who", "target", "test", "ext")  # fields that name a character or talisman
_MODES = (("test", "opposed", "prolonged"), ("test", "versus", "monster"))

_HUNT = ("who", "skill", "adv", "agony", "minus", "hard", "target")
_PATHS = (("who", "mode", "pskill", "path", "sit", "minus", "diff", "hidden", "h1", "h2"),
          ("who", "mode", "pskill", "path", "sit", "minus", "opp", "init", "h1", "h2"),
          ("mode", "test", "pskill", "path", "sit", "minus", "h1", "h2"))
# expedition: a test, a versus test against a character's Ability, or one
# against a monster by its Level (Level + 3 dice, +/- its strength and
# weakness dice: "Opp. dice").
_EXP = (("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "ob", "ext"),
        ("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "bab"),
        ("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "blv", "bmd"))


class Pool:
    """The builder's values for campaign c's system (see module doc)."""

    def __init__(self, system):
        self.system = system
        self.m = get(system)  # the campaign's rules module; the others stay unloaded
        self.nb = 0           # expedition versus: the opponent's dice (dice() sets it)
        self.v = {"who": -1, "skill": 0, "adv": 0, "agony": 0, "minus": 0, "hard": 0,
                  "target": -1, "mode": 0, "pskill": 1, "path": 1, "sit": 0, "diff": 1,
                  "hidden": 0, "opp": 2, "init": 0, "h1": 0, "h2": 0, "test": -1,
                  "ab": 1, "bon": 0, "pen": 0, "hel": 0, "plus": 0, "xminus": 0,
                  "ob": 1, "ext": -1, "bab": 1, "blv": 1, "bmd": 0}

    # --- fields ---------------------------------------------------------
    def fields(self):
        s = self.system
        m = self.v["mode"]
        if s == 0:
            return _HUNT
        if s == 1:
            return _PATHS[m]
        return _EXP[m]

    def item(self, c, f):
        """Field f's builder row: its label left, its value right."""
        v = self.v[f]
        if f in _NUM and v >= 0 and not (v == 0 and f in _ZERO):
            return lrn(_F[f][0], v)  # the common case, one new str
        return lr(_F[f][0], self.text(c, f))

    def text(self, c, f):
        """The value of field f as shown."""
        v = self.v[f]
        if f == "who":
            return c.chars[v].name if 0 <= v < len(c.chars) else "-"
        if f in ("target", "test", "ext"):
            t = c.tals[v] if 0 <= v < len(c.tals) else None
            return ("%s %d/%d" % (t.name, t.n, t.cap)) if t is not None else "-"
        if f == "mode":
            return _MODES[self.system - 1][v]
        if f in ("agony", "hard", "hidden"):
            return "yes" if v else "no"
        if f == "init":
            return "them" if v else "me"
        if f == "sit" or f == "bmd":
            return ("+%d" % v) if v > 0 else str(v)
        if f in ("diff",) and v == 0:
            return "auto"
        if f in ("h1", "h2") and v == 0:
            return "-"
        return str(v)

    def _choices(self, c, f):
        """Allowed values of a talisman/character field, -1 (none) first."""
        out = [-1]
        if f == "who":
            return out + list(range(len(c.chars)))
        m = self.m  # target: hunt, test: paths, ext: expedition
        for i, t in enumerate(c.tals):
            if t is None:
                continue
            if f == "target" and t.role in (m.ROLE_TASK, m.ROLE_SIN) and not t.filled():
                out.append(i)
            elif f == "test" and t.role == m.PROLONGED and m.status(t) == m.ST_OPEN:
                out.append(i)
            elif f == "ext" and t.role == m.EXTENDED:
                out.append(i)
        return out

    def change(self, c, f, d):
        """Step field f by d (Left/Right); wraps round the allowed values."""
        v = self.v
        if f in _REFS:
            ch = self._choices(c, f)
            i = ch.index(v[f]) if v[f] in ch else 0
            v[f] = ch[(i + d) % len(ch)]
            return
        name, lo, hi = _F[f]
        if f == "mode":
            hi = len(_MODES[self.system - 1]) - 1
        x = v[f] + d
        v[f] = hi if x < lo else (lo if x > hi else x)

    def fix(self, c):
        """Drop references that an undo or a new campaign made stale."""
        for f in self.fields():
            if f in _REFS and self.v[f] not in self._choices(c, f):
                self.v[f] = -1

    # --- the roll ---------------------------------------------------------
    def sides(self):
        return 12 if self.system == 1 else 6

    def _helps(self):
        v = self.v
        return [h for h in (v["h1"], v["h2"]) if h]

    def dice(self, c):
        """The main pool's dice count (ValueError when the values are
        refused); in an expedition versus mode it also sets `nb`, the
        opponent's dice (vs_dice), for head() and the odds line."""
        v = self.v
        m = self.m
        if self.system == 0:
            ag = 0
            if v["agony"] and 0 <= v["who"] < len(c.chars):
                p = c.chars[v["who"]].v[m.PATHOS]
                ag = p if p < 3 else 3
            return m.action_pool(v["skill"], v["adv"], ag, v["minus"])
        if self.system == 1:
            return m.pool(v["pskill"], v["path"], v["sit"], v["minus"])
        if v["mode"]:
            self.nb = self.vs_dice()  # a monster's pool over 20 dice is refused here too
        return m.pool(v["ab"], v["bon"], v["pen"], v["hel"])

    def desc(self, c, n=None):
        """'5d6', '2d6 low' (hunt keep lower) or '4d12+h'; n: the dice
        count when the caller has it already (dice() is not free)."""
        if n is None:
            try:
                n = self.dice(c)
            except ValueError:
                return "bad pool"
        if self.system == 0 and n <= 0:
            return "2d6 low"
        s = "%dd%d" % (n, self.sides())
        if self.system == 1 and self._helps():
            s += "+h"
        if self.system == 2 and self.v["mode"]:
            s += " v%d" % self.vs_dice()
        return s

    def vs_dice(self):
        """expedition versus: the opponent's dice (2 + Ability, or a
        monster's Level + 3 with its +/- dice)."""
        v = self.v
        if v["mode"] == 1:
            return 2 + v["bab"]
        return self.m.monster_pool(v["blv"], v["bmd"] if v["bmd"] > 0 else 0,
                                   -v["bmd"] if v["bmd"] < 0 else 0)

    def head(self, title, c, n):
        """A title row: `title` left, the pool (desc) right; n: dice(c)."""
        s = self.system
        if 0 <= n < 100 and (s == 0 and n > 0 or s == 1 or s == 2 and self.v["mode"] == 0):
            # NdS (paths: "+h" with helpers): one new str
            return lrd(title, n, self.sides(), "+h" if s == 1 and self._helps() else "")
        if 0 <= n < 100 and s == 2:
            return lrd(title, n, 6, vs=self.nb)  # versus: one new str
        return lr(title, self.desc(c, n))

    def action(self, c):
        """(kind, args, text) of the roll the builder shows."""
        v = self.v
        m = self.m
        if self.system == 0:
            return m.ROLL, (v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"],
                            v["target"]), ""
        if self.system == 1:
            base = (v["pskill"], v["path"], v["sit"], v["minus"])
            hs = tuple(self._helps())
            mode = v["mode"]
            if mode == 0:
                return m.TEST, (v["who"],) + base + (v["diff"], v["hidden"]) + hs, ""
            if mode == 1:
                return m.OPPOSED, (v["who"],) + base + (v["opp"], v["init"]) + hs, ""
            return m.PRO_ROLL, (v["test"],) + base + hs, ""
        a = (v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"])
        if v["mode"] == 0:
            return m.TEST, (v["ab"], v["ob"], v["bon"], v["pen"], v["hel"], v["plus"],
                                     v["xminus"], v["ext"]), ""
        if v["mode"] == 1:
            return m.VERSUS, a + (v["bab"], 0, 0, 0, 0, 0), ""
        d = v["bmd"]
        return m.VERSUS, a + (v["blv"], d if d > 0 else 0, -d if d < 0 else 0, 0, 0, 0, 2), ""

    def need(self, c, keyed):
        """Faces a hand roll needs, given the faces keyed so far (paths
        helpers decide how many dice the main pool gets)."""
        n = self.dice(c)
        v = self.v
        if self.system == 0:
            return n if n > 0 else 2
        if self.system == 2:
            return n + (self.vs_dice() if v["mode"] else 0)
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
            bonus += self.m.SUCCESS[f] if 1 <= f <= 12 else 0
        cap = v["pskill"] if v["pskill"] > 0 else 1
        return h + n + (bonus if bonus < cap else cap) + extra

    def restore(self, c, events):
        """Take the values of the newest roll among `events` (oldest
        first); False if there is none."""
        m = self.m
        s = self.system
        kinds = (m.ROLL,) if s == 0 else ((m.TEST, m.OPPOSED, m.PRO_ROLL) if s == 1
                                          else (m.TEST, m.VERSUS))
        for k in range(len(events) - 1, -1, -1):
            kind, a, f, t = codec.decode_event(events[k])
            if kind not in kinds:
                continue
            if s == 2 and len(a) == (9 if kind == m.TEST else 13) and a[-1] & 1:
                continue  # a monster's roll (by Level): not one the builder makes
            v = self.v
            if s == 0:
                if len(a) == 7:
                    v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"], \
                        v["target"] = a
            elif s == 1:
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
            elif kind == m.TEST:
                v["mode"] = 0
                v["ab"], v["ob"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"], v["ext"] = \
                    a[:8]
            else:
                v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"] = a[:6]
                if len(a) == 13 and a[12] & 2:  # against a monster by its Level
                    v["mode"] = 2
                    v["blv"], v["bmd"] = a[6], a[7] - a[8]
                else:
                    v["mode"] = 1
                    v["bab"] = a[6]
            self.fix(c)
            return True
        return False
