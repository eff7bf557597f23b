"""expedition's events that a session holds less often, apart from
expedition.py so that boot, which imports that module for an expedition
campaign, does not load them (every name and string here would cost an
.mpy boot about 20,000 fuel; this module loads at the first such event,
once): variable damage, bonus HP, the sheet, Down and Out, the encounter
frequency and checks, usage dice, reactions, morale, distance, desperate
measures, project clocks and extended tests. Their kinds, arguments and
readings are expedition.py's and docs/rules/expedition.md's.
"""

from . import core
from . import talisman as tl
from . import expedition as ex
from .expedition import (  # the fields, counters and helpers the core shares
    ABILITIES, ARMOR, BONUS, DEAD, DOWN, ENC_LEFT, EXTENDED, FREQ, HP, MAX_HP, MAX_POINTS,
    MAX_POOL, MAX_RES, PROJECT, RES, ROLE_ABILITIES, SHIELD, SPENT, USAGE, XP,
    _check_block, _draw, _encounter, _hurt, _role, _usage, usage_sides)

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

_MAX_XP = const(9999)
DOWN_TABLE = ("", "", "Learning Opportunity: +1 XP", "Resilience: +1 max HP",
              "Trauma", "DEATH, painful and grisly", "Lingering Injury: -2 max HP",
              "Broken Gear: two random items break (artifacts save 2 in 3)",
              "Lingering Injury: -2 max HP", "DEATH, painful and grisly", "Trauma",
              "Resilience: +1 max HP", "Learning Opportunity: +1 XP")
DESPERATE_TABLE = ("", "lose a random artifact (else a mundane item)",
                   "lose a random Fast Inventory item", "lose half your Cash",
                   "lose 2 max HP", "lose 1 point from a random Ability",
                   "dies, messily and in great pain")
REACTIONS = ("aggressive", "cautious", "friendly")


def apply(c, kind, args, text, src, out):
    """One of this module's kinds into Outcome `out` (called by
    expedition.py with the tapped source and the event's Outcome)."""
    if kind == ex.VAR_DAMAGE:
        core.arity(args, 4, "VAR_DAMAGE takes char (-1 enemy), dice, block, half")
        i, n, w, half = args
        if i != -1:
            core.alive(c, i, DEAD)
            _check_block(c, i, w)
        elif w:
            raise ValueError("an enemy's blocks are not tracked: block must be 0")
        core.span("damage dice", n, 1, MAX_POOL)
        core.span("half (save for half)", half, 0, 1)
        s = _draw(src, n)
        d = (s + 1) // 2 if half else s  # halves round up
        out.successes = s
        out.margin = d
        _hurt(c, i, d, w if d else 0, out)
    elif kind == ex.BONUS_HP:
        core.arity(args, 2, "BONUS_HP takes char, amount")
        i, n = args
        v = core.alive(c, i, DEAD).v
        core.span("bonus HP", n, 1, MAX_POINTS - v[BONUS])
        v[BONUS] += n
        out.note("%s bonus HP %d" % (c.chars[i].name, v[BONUS]))
    elif kind == ex.BONUS_END:
        core.arity(args, 1, "BONUS_END takes char")
        v = core.alive(c, args[0], DEAD).v
        out.note("%s loses %d bonus HP" % (c.chars[args[0]].name, v[BONUS]))
        v[BONUS] = 0
    elif kind == ex.SHEET:
        _sheet(c, args, out)
    elif kind == ex.DOWN_OUT:
        _down_out(c, args, src, out)
    elif kind == ex.SET_FREQ:
        core.arity(args, 1, "SET_FREQ takes turns between checks")
        core.span("encounter check frequency", args[0], 1, 3)
        c.x[FREQ] = args[0]
        c.x[ENC_LEFT] = args[0]
        out.note("encounter check every %d turn(s)" % args[0])
    elif kind == ex.ENC_CHECK:
        core.arity(args, 0, "ENC_CHECK takes no arguments")
        _encounter(src, out)
    elif kind == ex.USAGE_NEW:
        core.arity(args, 3, "USAGE_NEW takes sides, owner, per_turn")
        sides, owner, per = args
        if sides not in (4, 6, 8, 10, 12):
            raise ValueError("usage die d%d is not d4, d6, d8, d10 or d12" % sides)
        if owner != tl.NONE:
            c.char(owner)
        core.span("per_turn", per, 0, 1)
        if not text:
            raise ValueError("a usage die needs a name (e.g. Torches)")
        t = c.new_tal(text, 5, tl.CLAMP, tl.NONE, USAGE, owner, sides, per)
        c.tals[t].n = (12 - sides) // 2
        out.tal = t
        out.note("%s d%d" % (text, sides))
    elif kind == ex.USAGE_ROLL:
        core.arity(args, 1, "USAGE_ROLL takes a talisman")
        tal = _role(c, args[0], USAGE, "a usage die")
        if usage_sides(tal) == 0:
            raise ValueError("%s is already spent" % tal.name)
        out.tal = args[0]
        _usage(c, args[0], src, out)
    elif kind == ex.REACTION:
        core.arity(args, 0, "REACTION takes no arguments")
        f = src.d(10)
        r = 0 if f <= 3 else (1 if f <= 9 else 2)
        out.margin = r
        out.note("reaction %d: %s" % (f, REACTIONS[r]))
    elif kind == ex.MORALE:
        core.arity(args, 2, "MORALE takes sides, modifier")
        sides, mod = args
        if sides not in (6, 8, 10):
            raise ValueError("morale die d%d is not d6, d8 or d10" % sides)
        core.span("morale modifier", mod, -1, 1)
        f = src.d(sides)
        out.successes = f + mod
        out.verdict = 1 if f + mod >= 5 else 0
        out.note("morale %d: %s" % (f + mod, "holds" if out.verdict else "breaks"))
    elif kind == ex.DISTANCE:
        core.arity(args, 0, "DISTANCE takes no arguments")
        f = src.d(6)
        out.margin = f
        out.note("distance %d%s" % (f, " (extremely close)" if f == 1 else
                                    (" (very far)" if f == 6 else "")))
    elif kind == ex.DESPERATE:
        if len(args) != 2:
            core.arity(args, 1, "DESPERATE takes char[, cash: 1 = a 3 halves the Cash]")
        i = args[0]
        cash = args[1] if len(args) == 2 else 0   # (char): a 3 only noted, as before issue 28
        core.flag("cash (1: a 3 halves the Cash)", cash)
        core.alive(c, i, DEAD)
        f = src.d(6)
        out.margin = f
        out.note("%s: %s" % (c.chars[i].name, DESPERATE_TABLE[f]))
        if f == 3 and cash:
            _half_cash(c.chars[i], out)
        elif f == 4:
            _max_hp(c, i, -2, out)
        elif f == 5:
            _trauma(c, i, src, out)
        elif f == 6:
            _die(c, i, out)
    elif kind == ex.PROJECT_NEW:
        core.arity(args, 2, "PROJECT_NEW takes ticks, owner")
        core.span("project ticks", args[0], 4, 10)
        if args[1] != tl.NONE:
            c.char(args[1])
        if not text:
            raise ValueError("a project needs a name")
        out.tal = c.new_tal(text, args[0], tl.CLAMP, tl.NONE, PROJECT, args[1])
        out.note("project %s 0/%d" % (text, args[0]))
    elif kind == ex.PROJECT_TICK:
        core.arity(args, 1, "PROJECT_TICK takes a talisman")
        tal = _role(c, args[0], PROJECT, "a project clock")
        if tal.filled():
            raise ValueError("project %s is already complete" % tal.name)
        tl.slash(c, args[0], 1, False, src)
        out.tal = args[0]
        out.note("%s %d/%d%s" % (tal.name, tal.n, tal.cap, " complete" if tal.filled() else ""))
    elif kind == ex.EXT_NEW:
        core.arity(args, 2, "EXT_NEW takes successes needed, failures allowed")
        core.span("successful tests needed", args[0], 1, 20)
        core.span("failures allowed (0: unlimited)", args[1], 0, 20)
        if not text:
            raise ValueError("an extended test needs a name")
        out.tal = c.new_tal(text, args[0], tl.CLAMP, tl.NONE, EXTENDED, tl.NONE, args[1], 0)
        out.note("extended %s 0/%d" % (text, args[0]))
    else:
        raise ValueError("unknown expedition event kind %d" % kind)


def _half_cash(ch, out):
    """"Lose half of your Cash and Cash-equivalent Treasure": the half
    lost rounded up ("Always round up unless explicitly noted otherwise");
    treasure is not tracked. A character with no town fields has no Cash
    (nothing written: its state encodes as before)."""
    from . import expedition_town as tw
    n = tw.get(ch.v, tw.CASH_F)
    if n:
        tw.put(ch.v, tw.CASH_F, n // 2)
    out.note("%s loses %d Cash: Cash %d" % (ch.name, n - n // 2, n // 2))


def _sheet(c, args, out):
    core.arity(args, 8, "SHEET takes char, hp, max_hp, res, max_res, armor, shield, xp")
    i, hp, mhp, res, mres, arm, sh, xp = args
    v = core.alive(c, i, DEAD).v
    core.span("max HP", mhp, 1, MAX_POINTS)
    core.span("HP", hp, 0, mhp)
    core.span("max resources", mres, 0, MAX_POINTS)
    core.span("resources", res, 0, mres)
    core.span("armor (0 none, 1 light, 2 heavy)", arm, 0, 2)
    core.span("shield", sh, 0, 1)
    core.span("XP", xp, 0, _MAX_XP)
    v[HP], v[MAX_HP], v[RES], v[MAX_RES], v[ARMOR], v[SHIELD], v[XP] = hp, mhp, res, mres, arm, sh, xp
    if not arm:
        v[SPENT] &= 2
    if not sh:
        v[SPENT] &= 1
    out.note("%s HP %d/%d CR %d/%d" % (c.chars[i].name, hp, mhp, res, mres))


def _down_out(c, args, src, out):
    core.arity(args, 2, "DOWN_OUT takes char, aided (1 medical aid, 0 none by the end of the Turn)")
    i, aided = args
    v = core.alive(c, i, DEAD).v
    core.span("aided", aided, 0, 1)
    if not v[DOWN]:
        raise ValueError("%s is not down and out" % c.chars[i].name)
    if not aided:
        out.note("no aid by the end of the Turn")
        _die(c, i, out)
        return
    owed = v[DOWN]
    v[DOWN] = 0
    for _ in range(owed):
        r = src.d(6) + src.d(6)
        out.note("%d: %s" % (r, DOWN_TABLE[r]))
        out.margin = r
        if r in (2, 12):
            v[XP] += 1 if v[XP] < _MAX_XP else 0
        elif r in (3, 11):
            _max_hp(c, i, 1, out)
        elif r in (4, 10):
            _trauma(c, i, src, out)
        elif r in (5, 9):
            _die(c, i, out)
            return
        elif r in (6, 8):
            _max_hp(c, i, -2, out)
            if v[DEAD]:
                return


def _max_hp(c, i, d, out):
    """Change max HP by d; HP never above max; max HP 0 is permanent death."""
    v = c.chars[i].v
    v[MAX_HP] += d
    if v[MAX_HP] > MAX_POINTS:
        v[MAX_HP] = MAX_POINTS
    if v[MAX_HP] <= 0:
        v[MAX_HP] = 0
        _die(c, i, out)
        return
    if v[HP] > v[MAX_HP]:
        v[HP] = v[MAX_HP]
    out.note("%s max HP %d" % (c.chars[i].name, v[MAX_HP]))


def _die(c, i, out):
    v = c.chars[i].v
    v[DEAD] = 1
    v[HP] = 0
    v[DOWN] = 0
    out.note("%s is dead" % c.chars[i].name)


def _trauma(c, i, src, out):
    a = src.d(6)
    out.note("%s Trauma: lose 1 %s" % (c.chars[i].name, ABILITIES[a - 1]))
    t = c.find(ROLE_ABILITIES, i)  # Abilities tracked (rules/expedition_chars.py): lower it
    if t >= 0:
        from . import expedition_chars
        expedition_chars.trauma(c, t, a - 1, out)
