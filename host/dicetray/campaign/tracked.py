"""A campaign's trackers as a player reads them:
in the rules' words (the labels of catalog/events.py, never a field's
identifier) and in the tray's own order: first what the device's home
screen lists (ui/hunt.py, paths.py, expedition.py `lines`: hunt's Tension,
Pressure and the Sin; paths' open prolonged tests; expedition's turn, day
and next checks), then the other talismans, the characters and the
counters. `dicetray watch`, `backups show` and the hub's page show these
rows; `backups diff` and the CSV export word their fields with `label`.
"""

from ..catalog import events
from ..rules import expedition, hunt, paths, systems

# The words of a field: (label, reading), catalog/events.py's.
_KIND = {"counter": events.COUNTER_LABELS, "char": events.CHAR_LABELS}


def label(system, what, name, role=None):
    """(words, reading) of field `name`: what "counter", "char" or "tal"
    (a talisman's field; `role` its role, for a and b). A field the labels
    do not know (a newer firmware's) reads as its name with spaces."""
    if what == "tal":
        if name in ("a", "b"):
            entry = events.ROLE_LABELS[system].get(role) or events.ROLE_LABELS[system].get(0)
            got = entry and entry[1 if name == "a" else 2]
            return got or (events.SPARE[0 if name == "a" else 1], None)
        found = events.TAL_LABELS.get(name)
    else:
        found = _KIND[what][system].get(name)
    return found or (name.replace("_", " "), None)


def role_words(system, role):
    """What a talisman of `role` is, in words ('the Sin', 'a usage die')."""
    entry = events.ROLE_LABELS[system].get(role)
    return entry[0] if entry else "a talisman this tool has no word for (%d)" % role


def reading(how, v, who=None, tal=None):
    """The value `v` as its label's reading `how` says (events.py, Labels);
    `who(i)` and `tal(t)` name a character and a talisman."""
    if how is None:
        return str(v)
    if how == events.YES:
        return "yes" if v else "no"
    if how == events.WHO:
        return "nobody" if v == -1 else (who(v) if who else "character %d" % v)
    if how == events.TAL:
        return "none" if v == -1 else (tal(v) if tal else "talisman %d" % v)
    if isinstance(how, tuple):
        return how[v] if 0 <= v < len(how) else str(v)
    return how % v


def said(system, what, name, v, role=None, who=None, tal=None):
    """'HP 6', 'dice succeed on 4+', 'divine agony this scene: nobody': a
    field and its value in words (a colon before a value said in words)."""
    words, how = label(system, what, name, role)
    if what == "tal" and name == "role":
        return "%s: %s" % (words, role_words(system, v))
    plain = how is None or (isinstance(how, str) and "%" in how)
    return ("%s %s" if plain else "%s: %s") % (words, reading(how, v, who, tal))


def _namer(c):
    def who(i):
        return c.chars[i].name if 0 <= i < len(c.chars) else "character %d" % i

    def tal(t):
        ok = 0 <= t < len(c.tals) and c.tals[t] is not None
        return c.tals[t].name if ok else "talisman %d" % t

    return who, tal


def _row(name, value, tal=None, char=None):
    return {"name": name, "value": value, "tal": tal, "char": char}


def _home(c):
    """The rows the device's home screen shows, in its order (ui/<system>.py lines)."""
    out = []
    if c.system == systems.HUNT:
        for role, name in (
            (hunt.ROLE_TENSION, "Tension"),
            (hunt.ROLE_PRESSURE, "Pressure"),
            (hunt.ROLE_SIN, "Sin"),
        ):
            t = c.find(role)
            if t >= 0:
                tal = c.tals[t]
                palace = role == hunt.ROLE_SIN and c.x[hunt.X_PALACE]
                value = "%d/%d%s" % (tal.n, tal.cap, " in its palace" if palace else "")
                out.append(_row(name, value, tal=t))
    elif c.system == systems.PATHS:
        out.append(_row("Open tests", str(paths.open_tests(c))))
        for i, t in enumerate(c.tals):
            if t is not None and t.role == paths.PROLONGED and paths.status(t) == paths.ST_OPEN:
                hidden = (t.b >> 9) & 1
                out.append(_row(t.name, "%d/%s" % (t.n, "?" if hidden else t.cap), tal=i))
    else:
        enc, use = expedition.next_check(c)
        x = c.x
        out.append(_row("Turn", "%d, day %d" % (x[expedition.TURN_N], x[expedition.DAY])))
        out.append(_row("Next encounter", "in %s" % _turns(enc)))
        out.append(_row("Next usage", "in %s" % _turns(use)))
    return out


def _turns(k):
    return "1 turn" if k == 1 else "%d turns" % k


def rows(c, every=False):
    """The trackers of campaign `c` as rows {"name", "value", "tal", "char"}
    (tal, char: the number `dicetray slash T`, `rename char I` take, or
    None), in the tray's order. Without `every`, a character's field or a
    counter at 0 or -1 (the rules' "none yet") is left out, as a glance
    wants; `every`: all of them, as a record wants."""
    who, tal = _namer(c)
    out = _home(c)
    shown = {r["tal"] for r in out}
    m = c.rules
    for i, t in enumerate(c.tals):
        if t is None or i in shown:
            continue
        value = "%d/%d" % (t.n, t.cap)
        if t.owner >= 0:
            value += " (%s)" % who(t.owner)
        out.append(_row(t.name, value, tal=i))
    for i, ch in enumerate(c.chars):
        words = [
            said(c.system, "char", k, v, who=who, tal=tal)
            for k, v in zip(m.CHAR_FIELDS, ch.v)
            if every or v not in (0, -1)
        ]
        out.append(_row(ch.name, ", ".join(words), char=i))
    words = [
        said(c.system, "counter", k, v, who=who, tal=tal)
        for k, v in zip(m.COUNTERS, c.x)
        if every or v not in (0, -1)
    ]
    if words:
        out.append(_row("Campaign", ", ".join(words)))
    return out


def lines(c, every=False, width=None):
    """rows() as terminal lines: 'tal  1  Pressure      0/6', 'char 0  Ada  ...'
    (the numbers the commands take first); each cut to `width` columns."""
    out = []
    for r in rows(c, every):
        tag = (
            "tal %2d" % r["tal"]
            if r["tal"] is not None
            else ("char %d" % r["char"] if r["char"] is not None else "")
        )
        line = "%-6s %-14s %s" % (tag, r["name"], r["value"])
        out.append(line.rstrip()[:width] if width else line.rstrip())
    return out
