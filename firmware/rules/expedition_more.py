"""expedition's events that a session holds less often, apart from
expedition.py so that boot, which imports that module for an expedition
campaign, does not load them (every name and string here would cost an
.mpy boot about 20,000 fuel; this module loads at the first such event,
once): combat checks, variable damage, bonus HP, the sheet, Down and
Out, the encounter frequency and checks, usage dice, reactions, morale,
distance, desperate measures, project clocks and extended tests. Their kinds, arguments and
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
_MAX_GANG = const(18)       # supporters ganging up (+1d each): whatever fits the 20-die pool
# COMBAT's threat: bits 4-9, side B's tracked foe + 1 (expedition_foes.TRACKED); 32 foes.
_MAX_THREAT = const(527)
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
    if kind == ex.COMBAT:
        _combat(c, args, src, out)
    elif kind == ex.VAR_DAMAGE:
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
        cash = args[1] if len(args) == 2 else 0   # (char): a 3 only noted (an older journal's form)
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


def _combat(c, args, src, out):
    """A combat check between side A and side B.

    args: a_char, a_ability, a_bonus, a_penalty, a_plus, a_minus,
          b_char, b_ability, b_bonus, b_penalty, b_plus, b_minus,
          group, allies, blocks, threat.
    char -1 is an NPC (its damage is only reported); ability -1 is a
    helpless side (no roll, result 0, threatens no one, no modifiers).
    threat bit 2 (FOE_A) / bit 3 (FOE_B): that side is a monster (char -1)
    whose ability field is its Level 0..14, rolling Level + 3 dice.
    group > 0: A leads a gang of `group` supporters (+1d each); group < 0:
    A fires into a melee where -group of A's allies are engaged (-1d).
    allies: bit i set = character i is one of those supporters / engaged
    allies (the rest are NPCs). blocks: bits 2i (armor) and 2i+1 (shield)
    of character i, used if that character takes damage. threat: bit 0 A
    threatens B, bit 1 B threatens A (3 for an ordinary exchange).
    threat bits 4-9 (expedition_foes.TRACKED): side B is tracked foe t (a
    FOE talisman), given as t + 1 (0: none): its dice are its own (a
    monster's Level + 3, an NPC's Pool), b_ability is its Level (Pool) or
    -1, FOE_B is set, and the damage it takes is its HP's (out of action,
    morale prompts). An event's 16 arguments are the codec's most, and a
    firmware before this refuses such a threat by its range.
    """
    core.arity(args, 16, "COMBAT takes a: char, ability, bonus, penalty, +s, -s; b: the same;"
                    " group, allies, blocks, threat")
    ac, bc = args[0], args[6]
    group, allies, blocks, threat = args[12], args[13], args[14], args[15]
    core.span("group (supporters, or -allies in melee)", group, -ex.MAX_HELPERS, _MAX_GANG)
    core.span("threat (bits 0-1; bit 2 A, bit 3 B a monster; bits 4-9 B's tracked foe + 1)",
              threat, 0, _MAX_THREAT)
    if threat & ex.FOE_A and ac != -1 or threat & ex.FOE_B and bc != -1:
        raise ValueError("a monster is not a character: its char must be -1")
    foe = (threat >> 4) - 1
    threat &= 15
    tal = None
    if foe >= 0:
        from . import expedition_foes as ef
        tal = ef.foe(c, foe)
        if not threat & ex.FOE_B:
            raise ValueError("a tracked foe is side B: threat bit 3 (B a monster) must be set")
        if args[7] != -1 and args[7] != ef.level(tal):
            raise ValueError("%s is %s %d: b_ability must be that, or -1 (helpless)" % (
                tal.name, "an NPC of Pool" if ef.tier(tal) == ef.NPC else "Level", ef.level(tal)))
        if tal.filled():
            raise ValueError("%s is already out of action (0 HP): heal or remove it" % tal.name)
    core.span("allies mask", allies, 0, (1 << len(c.chars)) - 1)
    if _bits(allies) > (group if group > 0 else -group):
        raise ValueError("allies names more characters than the group holds")
    party = allies
    for who in (ac, bc):
        if who != -1:
            core.alive(c, who, DEAD)
            if party & (1 << who):
                raise ValueError("%s appears twice in the combat" % c.chars[who].name)
            party |= 1 << who
    for i in range(len(c.chars)):
        if allies & (1 << i):
            core.alive(c, i, DEAD)
    if blocks < 0 or blocks >> (2 * len(c.chars)):
        raise ValueError("blocks mask names characters that do not exist")
    for i in range(len(c.chars)):
        w = (blocks >> (2 * i)) & 3
        if w:
            if not party & (1 << i):
                raise ValueError("%s blocks but is not in this combat" % c.chars[i].name)
            _check_block(c, i, w)
    dice = [0, 0]
    for side, k in ((0, 0), (1, 6)):
        core.span("+s", args[k + 4], 0, ex.MAX_S)
        core.span("-s", args[k + 5], 0, ex.MAX_S)
        if args[k + 1] == -1:
            if args[k + 2] or args[k + 3] or args[k + 4] or args[k + 5] or (side == 0 and group):
                raise ValueError("a helpless side rolls nothing: its modifiers must be 0")
            continue
        if side and tal is not None:
            n = ef.foe_pool(tal, args[8], args[9])
        else:
            n = ex.side_pool(threat & (ex.FOE_A << side), args[k + 1], args[k + 2], args[k + 3], 0)
        if side == 0:
            n = n + group if group > 0 else (n - 1 if group < 0 and n > 0 else n)
            if n > MAX_POOL:
                raise ValueError("a pool of %d dice is over %d" % (n, MAX_POOL))
        dice[side] = n
    threat &= 3
    if args[1] == -1:
        threat &= 2
    if args[7] == -1:
        threat &= 1
    sa = _draw(src, dice[0])
    sb = _draw(src, dice[1])
    raw = ex.versus_margin(sa, sb, 0, args[5], 0, args[11])
    m = ex.versus_margin(sa, sb, args[4], args[5], args[10], args[11])
    ex.vs_out(out, sa, sb, m, _who(c, ac), tal.name if tal is not None else _who(c, bc))
    out.tal = foe  # -1: none (a screen tells a foe's damage applied from one to apply)
    hit = []  # (char, damage) in order: B, A, supporters; -2: B's tracked foe
    hb = bc if tal is None else -2
    if m > 0 and threat & 1:
        hit.append((hb, m))
    elif m < 0 and threat & 2:
        hit.append((ac, -m))
    elif m == 0:
        hit.append((hb, 1))
        hit.append((ac, 1))
    if group > 0 and (m < 0 and threat & 2 or m == 0):
        d = 1 if m == 0 else -m
        for i in range(len(c.chars)):
            if allies & (1 << i):
                hit.append((i, d))
        npcs = group - _bits(allies)
        if npcs:
            out.note("%d NPC supporter(s) take %d each" % (npcs, d))
    for who, d in hit:
        if who == -2:
            ef.take(c, foe, d, out)
        else:
            _hurt(c, who, d, (blocks >> (2 * who)) & 3 if who >= 0 else 0, out)
    if group < 0 and raw < -3:
        k = -group
        f = src.d(k) if k > 1 else 1  # which engaged ally is hit
        d = _draw(src, 3)
        pcs = [i for i in range(len(c.chars)) if allies & (1 << i)]
        out.note("stray shot: 3d = %d to ally %d" % (d, f))
        if f <= len(pcs):
            _hurt(c, pcs[f - 1], d, (blocks >> (2 * pcs[f - 1])) & 3, out)
        else:
            out.note("NPC ally takes %d" % d)


def _who(c, i):
    return "enemy" if i < 0 else c.chars[i].name


def _bits(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


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
