"""The roll builder's model: the pool parts of each rule system, their
event, the faces a hand roll needs and the live exact odds.

One `Pool` per campaign. Values live in a dict by field name; `fields()`
lists the ones the current system and mode use. The odds come from
rules.odds.builder_odds; helper dice (paths) and ranges it does not cover
(pools over 12/15 dice, an expedition -Ns) are computed here from the same
exact integer distributions (odds.power), so every figure shown is exact,
except paths opposed tests with helpers: their mixture is averaged over
permille values (error < 0.05 %).
"""

from rules import odds, hunt, paths, expedition

# (name, label, low, high); who/target/ext/test/mode are special-cased.
_F = {
    "who": ("Who", -1, 7), "skill": ("Skill", 0, 3), "adv": ("Advantage", 0, 3),
    "agony": ("Div. agony", 0, 1), "minus": ("Minus dice", 0, 20), "hard": ("Hard", 0, 1),
    "target": ("Target", -1, 31),
    "mode": ("Mode", 0, 2), "pskill": ("Skill", 0, 6), "path": ("Path", 0, 6),
    "sit": ("Situation", -2, 2), "diff": ("Difficulty", 0, 7), "hidden": ("Hidden", 0, 1),
    "opp": ("Opp. pool", 1, 20), "init": ("Initiator", 0, 1), "h1": ("Helper 1", 0, 20),
    "h2": ("Helper 2", 0, 20), "test": ("Test", -1, 31),
    "ab": ("Ability", 0, 10), "bon": ("Bonus dice", 0, 2), "pen": ("Penalty", 0, 2),
    "hel": ("Helpers", 0, 7), "plus": ("+s", 0, 6), "xminus": ("-s", 0, 6),
    "ob": ("Ob", 1, 7), "ext": ("Extended", -1, 31), "bab": ("Opp. ability", 0, 10),
}
_MODES = (("test", "opposed", "prolonged"), ("test", "versus"))

_HUNT = ("who", "skill", "adv", "agony", "minus", "hard", "target")
_PATHS = (("who", "mode", "pskill", "path", "sit", "minus", "diff", "hidden", "h1", "h2"),
          ("who", "mode", "pskill", "path", "sit", "minus", "opp", "init", "h1", "h2"),
          ("mode", "test", "pskill", "path", "sit", "minus", "h1", "h2"))
_EXP = (("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "ob", "ext"),
        ("mode", "ab", "bon", "pen", "hel", "plus", "xminus", "bab"))

ROLL_KINDS = (hunt.ROLL, paths.TEST, paths.OPPOSED, paths.PRO_ROLL, expedition.TEST,
              expedition.VERSUS)


def _exact(sides, table, n, k):
    """(numerator, denominator) of P(at least k successes) with n dice."""
    if k <= 0:
        return 1, 1
    if n <= 0:
        return 0, 1
    c = odds.reduce(odds.counts(sides, table))
    base = 0
    for x in c:
        base += x
    den = base ** n
    miss = 0
    for x in odds.power(c, n, k - 1):
        miss += x
    return den - miss, den


def _helpers(hs, cap):
    """Distribution of the capped help bonus: (counts by bonus 0..cap, total)."""
    d = [1]
    for h in hs:
        e = odds.power(odds.counts(12, paths.SUCCESS), h)
        out = [0] * (len(d) + len(e) - 1)
        for i in range(len(d)):
            for j in range(len(e)):
                out[i + j] += d[i] * e[j]
        d = out
    capped = [0] * (cap + 1)
    for b in range(len(d)):
        capped[b if b < cap else cap] += d[b]
    tot = 0
    for x in capped:
        tot += x
    return capped, tot


def pct(pm):
    return odds.fmt_permille(pm)


class Pool:
    """The builder's values for campaign c's system (see module doc)."""

    def __init__(self, system):
        self.system = system
        self.v = {"who": -1, "skill": 0, "adv": 0, "agony": 0, "minus": 0, "hard": 0,
                  "target": -1, "mode": 0, "pskill": 1, "path": 1, "sit": 0, "diff": 1,
                  "hidden": 0, "opp": 2, "init": 0, "h1": 0, "h2": 0, "test": -1,
                  "ab": 1, "bon": 0, "pen": 0, "hel": 0, "plus": 0, "xminus": 0,
                  "ob": 1, "ext": -1, "bab": 1}

    # --- fields ---------------------------------------------------------
    def fields(self):
        s = self.system
        m = self.v["mode"]
        if s == 0:
            return _HUNT
        if s == 1:
            return _PATHS[m]
        return _EXP[m]

    def label(self, f):
        return _F[f][0]

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
        if f == "sit":
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
        for i, t in enumerate(c.tals):
            if t is None:
                continue
            if f == "target" and t.role in (hunt.ROLE_TASK, hunt.ROLE_SIN) and not t.filled():
                out.append(i)
            elif f == "test" and t.role == paths.PROLONGED and paths.status(t) == paths.ST_OPEN:
                out.append(i)
            elif f == "ext" and t.role == expedition.EXTENDED:
                out.append(i)
        return out

    def change(self, c, f, d):
        """Step field f by d (Left/Right); wraps round the allowed values."""
        v = self.v
        if f in ("who", "target", "test", "ext"):
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
        for f in ("who", "target", "test", "ext"):
            if self.v[f] not in self._choices(c, f):
                self.v[f] = -1

    # --- the roll ---------------------------------------------------------
    def sides(self):
        return 12 if self.system == 1 else 6

    def _helps(self):
        v = self.v
        return [h for h in (v["h1"], v["h2"]) if h]

    def dice(self, c):
        """The main pool's dice count (ValueError when the values are refused)."""
        v = self.v
        if self.system == 0:
            ag = 0
            if v["agony"] and 0 <= v["who"] < len(c.chars):
                p = c.chars[v["who"]].v[hunt.PATHOS]
                ag = p if p < 3 else 3
            return hunt.action_pool(v["skill"], v["adv"], ag, v["minus"])
        if self.system == 1:
            return paths.pool(v["pskill"], v["path"], v["sit"], v["minus"])
        return expedition.pool(v["ab"], v["bon"], v["pen"], v["hel"])

    def desc(self, c):
        """'5d6', '2d6 low' (hunt keep lower) or '4d12+h'."""
        try:
            n = self.dice(c)
        except ValueError:
            return "bad pool"
        if self.system == 0 and n <= 0:
            return "2d6 low"
        s = "%dd%d" % (n, self.sides())
        if self.system == 1 and self._helps():
            s += "+h"
        if self.system == 2 and self.v["mode"] == 1:
            s += " v%d" % (2 + self.v["bab"])
        return s

    def action(self, c):
        """(kind, args, text) of the roll the builder shows."""
        v = self.v
        if self.system == 0:
            return hunt.ROLL, (v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"],
                               v["target"]), ""
        if self.system == 1:
            base = (v["pskill"], v["path"], v["sit"], v["minus"])
            hs = tuple(self._helps())
            m = v["mode"]
            if m == 0:
                return paths.TEST, (v["who"],) + base + (v["diff"], v["hidden"]) + hs, ""
            if m == 1:
                return paths.OPPOSED, (v["who"],) + base + (v["opp"], v["init"]) + hs, ""
            return paths.PRO_ROLL, (v["test"],) + base + hs, ""
        a = (v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"])
        if v["mode"] == 0:
            return expedition.TEST, (v["ab"], v["ob"], v["bon"], v["pen"], v["hel"], v["plus"],
                                     v["xminus"], v["ext"]), ""
        return expedition.VERSUS, a + (v["bab"], 0, 0, 0, 0, 0), ""

    def need(self, c, keyed):
        """Faces a hand roll needs, given the faces keyed so far (paths
        helpers decide how many dice the main pool gets)."""
        n = self.dice(c)
        v = self.v
        if self.system == 0:
            return n if n > 0 else 2
        if self.system == 2:
            return n + (2 + v["bab"] if v["mode"] == 1 else 0)
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
            bonus += paths.SUCCESS[f] if 1 <= f <= 12 else 0
        cap = v["pskill"] if v["pskill"] > 0 else 1
        return h + n + (bonus if bonus < cap else cap) + extra

    def odds(self, c):
        """The odds line: 'P 68.8%' or 'W 45.0% T 10.0%'."""
        try:
            n = self.dice(c)
        except ValueError as e:
            return str(e)
        v = self.v
        s = self.system
        if s == 0:
            table = None if v["hard"] else hunt.TABLES[c.x[hunt.X_FACE]]
            return "Odds " + pct(odds.builder_odds(0, n if n > 0 else 0, 1, v["hard"], table=table))
        if s == 2:
            return self._exp_odds(n)
        return self._paths_odds(n)

    def _exp_odds(self, n):
        v = self.v
        t = expedition.SUCCESS
        if v["mode"] == 0:
            k = v["ob"] + v["xminus"]  # -Ns comes off first: need Ob + N
            if 1 <= n <= 15 and k <= 7:
                return "Odds " + pct(odds.builder_odds(2, n, k))
            a, b = _exact(6, t, n, k)
            return "Odds " + pct(odds.permille(a, b))
        nb = 2 + v["bab"]
        m = v["xminus"]
        if m == 0 and 1 <= n <= 15 and 1 <= nb <= 15:
            w, ti, l = odds.builder_odds(2, n, 0, versus=nb)
        else:
            c = odds.counts(6, t)
            da = odds.power(c, n) if n else [1]
            # -Ns: A's successes shifted down, never below 0
            sh = [0] * (len(da) - m if len(da) > m else 1)
            for i in range(len(da)):
                sh[i - m if i > m else 0] += da[i]
            w, ti, l = odds.split3(*odds.compare(sh, odds.power(c, nb)))
        return "W %s T %s" % (pct(w), pct(ti))

    def _paths_odds(self, n):
        v = self.v
        m = v["mode"]
        hs = self._helps()
        cap = v["pskill"] if v["pskill"] > 0 else 1
        if m == 0 and v["diff"] == 0:
            return "Odds 100.0% auto"
        k = v["diff"] if m == 0 else 1
        if m == 1:
            return "Win " + self._opposed(n, hs, cap)
        if not hs:
            if n <= 12:
                return "Odds " + pct(odds.builder_odds(1, n, k))
            a, b = _exact(12, paths.SUCCESS, n, k)
            return "Odds " + pct(odds.permille(a, b))
        hd, ht = _helpers(hs, cap)
        top = n + cap
        num = 0
        for b in range(cap + 1):
            a, den = _exact(12, paths.SUCCESS, n + b, k)
            num += hd[b] * a * 12 ** (top - n - b)
        return "Odds " + pct(odds.permille(num, ht * 12 ** top))

    def _opposed(self, n, hs, cap):
        v = self.v
        opp = v["opp"]

        def win(a):
            if not (1 <= a <= 12 and 1 <= opp <= 12):
                return -1
            if v["init"] == 0:
                return odds.builder_odds(1, a, 0, versus=opp)[0]
            return 1000 - odds.builder_odds(1, opp, 0, versus=a)[0]
        if not hs:
            w = win(n)
            return pct(w) if w >= 0 else "pool > 12"
        hd, ht = _helpers(hs, cap)
        t = 0
        for b in range(cap + 1):
            w = win(n + b)
            if w < 0:
                return "pool > 12"
            t += hd[b] * w
        return pct((2 * t + ht) // (2 * ht)) + "~"

    def restore(self, c):
        """Take the values of the newest roll in the journal (after a reboot)."""
        from rules import codec
        for k in range(len(c.events) - 1, -1, -1):
            kind, a, f, t = codec.decode_event(c.events[k])
            if kind not in ROLL_KINDS:
                continue
            v = self.v
            if kind == hunt.ROLL and len(a) == 7:
                v["who"], v["skill"], v["adv"], v["agony"], v["minus"], v["hard"], v["target"] = a
            elif kind in (paths.TEST, paths.OPPOSED, paths.PRO_ROLL):
                j = 0
                if kind == paths.PRO_ROLL:
                    v["mode"], v["test"] = 2, a[0]
                    j = 5
                else:
                    v["who"] = a[0]
                    v["mode"] = 0 if kind == paths.TEST else 1
                    j = 7
                v["pskill"], v["path"], v["sit"], v["minus"] = a[1:5]
                if kind == paths.TEST:
                    v["diff"], v["hidden"] = a[5], a[6]
                elif kind == paths.OPPOSED:
                    v["opp"], v["init"] = a[5], a[6]
                h = list(a[j:]) + [0, 0]
                v["h1"], v["h2"] = h[0], h[1]
            elif kind == expedition.TEST:
                v["mode"] = 0
                v["ab"], v["ob"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"], v["ext"] = a
            elif kind == expedition.VERSUS:
                v["mode"] = 1
                v["ab"], v["bon"], v["pen"], v["hel"], v["plus"], v["xminus"] = a[:6]
                v["bab"] = a[6]
            self.fix(c)
            return
