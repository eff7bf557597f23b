"""A paths character's sheet and what the builder takes of it,
loaded on first use: the sheet's rows, one Path's form, and the
builder's Skill named, helpers by name and prolonged test (ui/paths_more.py
hands these here, so that a builder key never pays for their names).

"To make a Skill test, the player rolls a number of dice equal to their
level in the required Skill, plus the level of that Skill's Path."

The sheet (Characters > a sheet): each Path's level, each followed by
its Skills with a level; OK on any of them opens that Path's form: the
Path's level, then its five Skills' (the seed's table, top down), each
0..6 from the sheet as it is; OK sets them (PATH: one event).

The builder: with who rolls and the Skill tested named (`Test of`; a
prolonged test's Skill is its name, its character its owner), Skill and
Path take that character's levels when who, the Skill or the sheet
changes; dialled by hand, they stay until then. A character whose sheet
was never set leaves them as they are. A helper is a character, its pool
its own Skill and Path in that Skill ("The supporting player rolls a
test of the same Skill"); the rules cap the help at who rolls' Skill.
"""

from ui.charform import CharForm
from ui.screen import lr
from rules import paths as m, paths_more as pm

# --- the sheet (ui/chars.py) -------------------------------------------------------
def sheet_top(c, i):
    """(label, value) rows: each Path's level, then each of its Skills the
    character has a level in, set in."""
    ch = c.chars[i]
    out = []
    for p in range(6):
        out.append((pm.path_name(p), str(pm.level(ch, 6 * p))))
        for j in range(5):
            lv = pm.level(ch, 6 * p + 1 + j)
            if lv:
                out.append((" " + pm.skill_name(5 * p + j), str(lv)))
    return out


def sheet_open(app, i, f):
    """OK on row f (a Path, or one of its Skills): that Path's form."""
    f = f.strip()
    k = pm.skill_of(f)
    p = k // 5 if k >= 0 else pm.PATHS.split(b"|").index(f.encode())
    app.push(PathSheet(app, i, p))


class PathSheet(CharForm):
    def __init__(self, app, i, p):
        ch = app.c.chars[i]
        fields = [[pm.path_name(p), 0, 6, pm.level(ch, 6 * p)]]
        for j in range(5):
            fields.append([pm.skill_name(5 * p + j), 0, 6, pm.level(ch, 6 * p + 1 + j)])
        self.p = p
        CharForm.__init__(self, app, fields, i)

    def show(self, j):
        return "%d" % self.val(j)  # no < >: a Skill's name takes up to 14 columns

    def head(self):
        return lr(self.app.c.chars[self.i].name, "SHEET")

    def foot(self):
        return "OK: set"

    def go(self):
        app = self.app
        args = (self.i, self.p) + tuple(self.val(j) for j in range(6))
        self.done(app.act(pm.PATH, args))


# --- the builder (ui/paths_more.py's Pool) -------------------------------------------
def _skill(pool, c):
    """(who, Skill) the pool is for: who rolls and the Skill named; a
    prolonged test's owner and the Skill it is named for. -1: none."""
    v = pool.v
    if v["mode"] != 2:
        return v["who"], v["sk"]
    t = v["test"]
    if not 0 <= t < len(c.tals) or c.tals[t] is None:
        return -1, -1
    return c.tals[t].owner, pm.skill_of(c.tals[t].name)


def _choices(pool, c, f):
    """A helper: none, or a character other than who rolls and the other
    helper ("helped by a maximum of two other characters")."""
    who = _skill(pool, c)[0]
    other = pool.v["hc2" if f == "hc1" else "hc1"]
    return [-1] + [i for i in range(len(c.chars)) if i != who and i != other]


def fix(pool, c):
    """The levels of a Skill named: who rolls' (when who, the Skill or the
    sheet changed since they were taken) and the helpers' pools."""
    who, sk = _skill(pool, c)
    pool.named = 1 if sk >= 0 else 0
    if sk < 0:
        return
    v = pool.v
    if 0 <= who < len(c.chars) and len(c.chars[who].v) >= pm.FIELDS:  # a sheet set
        lv = pm.pool_of(c.chars[who], sk)
        got = (who, sk, lv[0], lv[1])
        if got != getattr(pool, "filled", None):  # (who, Skill, levels) the rows took
            pool.filled = got
            v["pskill"], v["path"] = lv
    for hc, h in (("hc1", "h1"), ("hc2", "h2")):
        i = v[hc]
        if 0 <= i < len(c.chars):
            lv = pm.pool_of(c.chars[i], sk)
            v[h] = m.pool(lv[0], lv[1])
        else:
            v[h] = 0


def text(pool, c, f):
    """The Skill named (the whole row: `Test of` and the name, or a long
    name alone), a helper with its pool (`Bram 2d`: a long name shortened,
    never the pool), a prolonged test (the whole row: `Test` and the test,
    `3/?` when hidden, or a long name alone with its count, never cut to
    `Te`; `+ new`)."""
    v = pool.v[f]
    if f == "sk":
        name = pm.skill_name(v)
        return lr("Test of", name) if len(name) < 9 else "%-16s" % name
    if f == "test":
        t = c.tals[v] if 0 <= v < len(c.tals) else None
        if t is None:
            return lr("Test", "+ new")
        n = "%d/%s" % (t.n, "?" if (t.b >> 9) & 1 else str(t.cap))
        if len(t.name) + len(n) < 11:
            return lr("Test", "%s %s" % (t.name, n))
        return lr(t.name[:15 - len(n)], n)
    if 0 <= v < len(c.chars):
        d = " %dd" % pool.v["h" + f[2]]
        return c.chars[v].name[:7 - len(d)] + d  # beside `Helper 1`
    return "-"


def opens(pool, app):
    """A new prolonged test (ui/prolonged.py)."""
    from ui.prolonged import NewTest
    app.push(NewTest(app))
    return True


def action(pool, c):
    """The text of a test of the Skill named: its name. With no prolonged
    test picked, the refusal in words (not `no talisman number -1`)."""
    if pool.v["mode"] == 2:
        raise ValueError("no prolonged test picked: OK on Test + new opens one")
    return pm.skill_name(pool.v["sk"])
