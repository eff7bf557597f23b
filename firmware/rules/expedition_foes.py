"""expedition's monsters and NPCs as tracked combatants, and combat rounds,
apart from expedition.py so that boot, which imports
expedition.py for an expedition campaign, does not load them:
expedition.py hands kinds 121 and 122 over on first use (and USE_RES while
a fight is tracked). docs/rules/expedition.md has every reading.

A tracked foe (a monster, or an NPC: a hireling, a Follower) is a talisman
of role FOE_ROLE: name = its name, cap = its Toughness (max HP), n = the
damage it has taken (HP = cap - n; filled = 0 HP: out of action), owner =
the character whose Follower it is (-1 none), a = Level (or an NPC's Pool)
| tier << 5. So the state's layout is unchanged: an old state holds no
such talisman and decodes as before, and the Talismans screen's slash and
unslash are 1 damage and 1 HP back.

A fight is a talisman of role FIGHT_ROLE: n = the round, a = bit i:
character i spent a Class Resource this round ("Characters may only spend
one of each type of Class Resource per Round unless explicitly noted
otherwise").

FOE (121), its first argument an op:
  0 NEW     op, level, tier, hp, owner; text = name
  1 HIT     op, foe, amount, dice, plus_s, half
  2 HEAL    op, foe, amount
  3 SAVE    op, foe, ob, bonus, penalty       (the foe rolls)
  4 RESIST  op, foe, ability, bonus, penalty, helpers   (a character rolls vs its Save)
  5 REMOVE  op, foe
  6 LOST    op, foe   (a Follower died or departed: removed, and its
            owner's replacement joins only from the next session)
ROUND (122): op 0 NEXT (a fight starts, or its next round), op 1 END.
"""

from . import core
from . import talisman as tl
from . import expedition as ex
from .core import Outcome

FOE = 121           # kinds (expedition.py names the range)
ROUND = 122
FOE_ROLE = 16       # a monster or NPC
FIGHT_ROLE = ex.ROLE_FIGHT

OP_NEW = 0
OP_HIT = 1
OP_HEAL = 2
OP_SAVE = 3
OP_RESIST = 4
OP_REMOVE = 5
OP_LOST = 6
OP_NEXT = 0
OP_END = 1

MONSTER = 0
ELITE = 1
LEGENDARY = 2
NPC = 3
TIERS = ("monster", "elite", "legendary", "NPC")
MAX_HP = tl.MAX_CAP  # 64: a Legendary Level 14 has 60
# COMBAT (expedition_more.py) against tracked foe t: t + 1 in its threat's
# bits 4-9, (t + 1) * TRACKED; its damage then takes the foe's HP (take).
TRACKED = 16
MAX_ROUND = tl.MAX_CAP


def toughness(level, tier):
    """A monster's HP: "2 HP plus 2 HP per level. Elite monsters have 50%
    more HP, while Legendary monsters have 100% more HP" (always whole:
    2 + 2L is even)."""
    base = 2 + 2 * level
    if tier == ELITE:
        return base * 3 // 2
    if tier == LEGENDARY:
        return base * 2
    return base


def save(level):
    """A monster's Save: "half of the monster's Level plus one, rounded up":
    ceil(Level / 2) + 1 (Level 0: 1, 1: 2, 2: 2, 3: 3 ... 14: 8)."""
    return (level + 1) // 2 + 1


def level(tal):
    return tal.a & 31


def tier(tal):
    return tal.a >> 5


def hp(tal):
    return tal.cap - tal.n


def foe(c, t):
    """The live foe talisman t, or ValueError naming what t is."""
    tal = c.tal(t)
    if tal.role != FOE_ROLE:
        raise ValueError("talisman %d is not a foe" % t)
    return tal


def foes(c):
    """Indices of the tracked foes, in talisman order."""
    return [t for t in range(len(c.tals)) if c.tals[t] is not None and c.tals[t].role == FOE_ROLE]


def foe_pool(tal, bonus=0, penalty=0, helpers=0):
    """A foe's dice: a monster's Level + 3, an NPC's Pool; bonus and penalty
    dice as for anyone."""
    if tier(tal) == NPC:
        return ex._dice(level(tal), bonus, penalty, helpers)
    return ex.monster_pool(level(tal), bonus, penalty, helpers)


def apply(c, kind, args, text, src):
    """FOE (121) or ROUND (122), called by expedition.apply (src records the faces)."""
    if not args:
        raise ValueError("%s takes an op first: %s" % (
            "FOE" if kind == FOE else "ROUND",
            "0 new, 1 hit, 2 heal, 3 save, 4 resist, 5 remove, 6 lost" if kind == FOE else "0 next round, 1 end the fight"))
    op = args[0]
    out = Outcome(kind)
    if kind == ROUND:
        _round(c, op, args, out)
    elif op == OP_NEW:
        _new(c, args, text, out)
    elif op == OP_HIT:
        _hit(c, args, src, out)
    elif op == OP_HEAL:
        core.arity(args, 3, "FOE heal takes op 2, foe, amount")
        tal = foe(c, args[1])
        core.span("HP healed", args[2], 1, MAX_HP)
        tal.n = tal.n - args[2] if tal.n > args[2] else 0
        out.tal = args[1]
        out.note("%s HP %d/%d" % (tal.name, hp(tal), tal.cap))
    elif op == OP_SAVE:
        core.arity(args, 5, "FOE save takes op 3, foe, ob, bonus, penalty")
        tal = foe(c, args[1])
        n = foe_pool(tal, args[3], args[4])
        core.span("Obstacle", args[2], 1, ex.MAX_OB)
        roll_vs(src, n, args[2], out, tal.name)
        out.tal = args[1]
    elif op == OP_RESIST:
        core.arity(args, 6, "FOE resist takes op 4, foe, ability, bonus, penalty, helpers")
        tal = foe(c, args[1])
        if tier(tal) == NPC:
            raise ValueError("%s is an NPC: it has no Save score (a test takes the Ob the Referee"
                             " gives)" % tal.name)
        n = ex.pool(args[2], args[3], args[4], args[5])
        roll_vs(src, n, save(level(tal)), out, "resist " + tal.name)
        out.tal = args[1]
    elif op == OP_REMOVE:
        core.arity(args, 2, "FOE remove takes op 5, foe")
        tal = foe(c, args[1])
        c.tals[args[1]] = None
        out.note("%s leaves the fight" % tal.name)
    elif op == OP_LOST:
        _lost(c, args, out)
    else:
        raise ValueError("FOE op %d is not 0 new, 1 hit, 2 heal, 3 save, 4 resist, 5 remove or"
                         " 6 lost" % op)
    return out


def _lost(c, args, out):
    # "If a specific Follower dies, another may be recruited, but is not
    # able to join the expedition until the beginning of the session
    # following the loss." The device's sessions are its Town Phases
    # (TOWN start): the owner's flag is in the town field `tried`, which
    # a new Town Phase clears.
    core.arity(args, 2, "FOE lost takes op 6, foe (a Follower who died or departed)")
    tal = foe(c, args[1])
    if tal.owner == tl.NONE:
        raise ValueError("%s is no one's Follower: FOE remove (op 5) takes it out" % tal.name)
    from . import expedition_town as tw
    v = c.chars[tal.owner].v
    tw.put(v, tw.TRIED, tw.get(v, tw.TRIED) | tw.LOST_BIT)
    c.tals[args[1]] = None
    out.note("%s is lost: %s's next Follower joins from the next Town Phase"
             % (tal.name, c.chars[tal.owner].name))


def roll_vs(src, n, ob, out, what):
    """An independent test of n dice against `ob`, its result in `out`."""
    s = ex._draw(src, n)
    m = ex.resolve(s, ob)
    out.successes = s
    out.verdict = 1 if m >= 0 else 0
    out.margin = m if m >= 0 else -m
    out.note("%s: %d vs Ob %d, %s" % (what, s, ob, "success" if m >= 0 else "failure"))


def _new(c, args, text, out):
    core.arity(args, 5, "FOE new takes op 0, level (an NPC: its Pool), tier (0 monster,"
                " 1 elite, 2 legendary, 3 NPC), hp (0: by the formula), owner (-1, or whose"
                " Follower); text = its name")
    _op, lv, tr, h, owner = args
    core.span("tier (0 monster, 1 elite, 2 legendary, 3 NPC)", tr, 0, NPC)
    if tr == NPC:
        core.span("an NPC's Pool", lv, 0, ex.MAX_POOL)
        if not h:
            raise ValueError("an NPC has Toughness \"as indicated\": hp must be 1..%d" % MAX_HP)
    else:
        core.span("monster Level", lv, 0, ex.MAX_LEVEL)
    core.span("hp (0: by the formula)", h, 0, MAX_HP)
    if owner != tl.NONE:
        v = core.alive(c, owner, ex.DEAD).v
        if len(v) > len(ex.CHAR_FIELDS):   # town fields: a Follower lost this session?
            from . import expedition_town as tw
            if tw.get(v, tw.TRIED) & tw.LOST_BIT:
                raise ValueError("%s lost a Follower this session: a replacement joins from the"
                                 " next Town Phase" % c.chars[owner].name)
    if not text:
        raise ValueError("a foe needs a name")
    cap = h if h else toughness(lv, tr)
    t = c.new_tal(text, cap, tl.CLAMP, tl.NONE, FOE_ROLE, owner, lv | tr << 5, 0)
    out.tal = t
    out.margin = cap
    if tr == NPC:
        out.note("%s: NPC %dd, HP %d" % (text, lv, cap))
    else:
        out.note("%s: L%d %s, HP %d, Save %d" % (text, lv, TIERS[tr], cap, save(lv)))


def _hit(c, args, src, out):
    core.arity(args, 6, "FOE hit takes op 1, foe, amount, dice, plus_s, half (1: saved for half)")
    _op, t, amount, n, plus, half = args
    tal = foe(c, t)
    core.span("damage", amount, 0, ex.MAX_POINTS)
    core.span("damage dice", n, 0, ex.MAX_POOL)
    core.span("+s", plus, 0, ex.MAX_S)
    core.flag("half (1: saved for half)", half)
    if tal.filled():
        raise ValueError("%s is already out of action (0 HP): heal or remove it" % tal.name)
    s = ex._draw(src, n)
    d = amount + s + plus   # "first add any additional successes (+1s benefits)"
    if half:
        d = (d + 1) // 2    # "Always round up"
    out.tal = t
    out.successes = s
    out.margin = d
    out.verdict = 1 if take(c, t, d, out) == 0 else 0


def take(c, t, d, out):
    """d damage to foe t (live, not out of action: checked by the caller),
    as FOE hit deals it and a combat check against a tracked foe: its HP
    (0: out of action), the morale checks it prompts, in out's notes.
    Returns its HP now."""
    tal = c.tals[t]
    before = hp(tal)
    tal.n = tal.n + d if tal.n + d < tal.cap else tal.cap
    now = hp(tal)
    out.note("%s takes %d: HP %d/%d%s" % (tal.name, d, now, tal.cap,
                                         " OUT OF ACTION" if now == 0 else ""))
    # "A morale check is normally made for a single combatant, for example,
    # when they first take damage and when they drop below 1/3 Health";
    # "Legendary creatures are not subject to morale checks", nor Followers.
    if now and d and tier(tal) != LEGENDARY and tal.owner == tl.NONE:
        if before == tal.cap:
            out.note("morale check: first damage")
        elif 3 * now < tal.cap <= 3 * before:
            out.note("morale check: below 1/3 HP")
    if not now and tal.owner == tl.NONE:   # out of action now (a hit on one already out is refused)
        _group_morale(c, out)
    return now


def _group_morale(c, out):
    """A foe of the party's enemies (no one's Follower) just went out of
    action: "For a group, moral checks are usually made when the first
    creature goes down, and when half of the total number on one's side
    are incapacitated or killed." The side: the tracked foes that are no
    one's Follower; prompted while one of them still standing is subject
    to morale (not Legendary)."""
    total = down = left = 0
    for t in foes(c):
        f = c.tals[t]
        if f.owner == tl.NONE:
            total += 1
            if f.filled():
                down += 1
            elif tier(f) != LEGENDARY:
                left += 1
    if not left:
        return
    if down == 1:
        out.note("group morale check: the first one down")
    if 2 * down >= total > 2 * (down - 1):
        out.note("group morale check: half the side out (%d of %d)" % (down, total))


def _round(c, op, args, out):
    core.arity(args, 1, "ROUND takes op: 0 the next round (a fight starts), 1 the fight ends")
    t = c.find(FIGHT_ROLE)
    if op == OP_NEXT:
        if t < 0:
            t = c.new_tal("Fight", MAX_ROUND, tl.CLAMP, tl.NONE, FIGHT_ROLE)
        tal = c.tals[t]
        if tal.n < tal.cap:
            tal.n += 1
        tal.a = 0
        out.tal = t
        out.successes = tal.n
        out.note("round %d: one Class Resource each" % tal.n)
    elif op == OP_END:
        if t < 0:
            raise ValueError("no fight to end: ROUND 0 starts one")
        out.successes = c.tals[t].n
        c.tals[t] = None
        out.note("the fight ends after %d round(s)" % out.successes)
    else:
        raise ValueError("ROUND op %d is not 0 (next round) or 1 (end the fight)" % op)


def use_res(c, t, i, n, more):
    """USE_RES while fight t is tracked: one Class Resource a Round, unless
    `more` (a power "explicitly noted otherwise"). Checks, then marks."""
    tal = c.tals[t]
    if not more:
        if n > 1:
            raise ValueError("one Class Resource a Round: %d is more (unless the power says"
                             " it may spend more)" % n)
        if tal.a >> i & 1:
            raise ValueError("%s spent a Class Resource this Round already (the next Round"
                             " starts on Foes: Next round)" % c.chars[i].name)
    tal.a |= 1 << i
