"""expedition's character generation, ability improvement and Boons,
apart from expedition.py so that boot does not load
them: expedition.py hands kind 123 over on first use, and a Trauma for a
character whose Abilities are tracked. docs/rules/expedition.md has every
reading.

A character's Abilities are a talisman of role ABIL_ROLE owned by the
character: name "Boons", cap 64, n = Boons gained, a = the six base
Abilities, 4 bits each (Might in bits 0-3 .. Discipline in 20-23),
b = bits 0-5: the Abilities already tried in the improvement under way,
bit 6: the creation swap is used, bits 8+: improvements made. The state's
layout is unchanged: an old state holds no such talisman.

ABIL (123), its first argument an op:
  0 ROLL     op, char                  12 d6: (2d6) // 2 per Ability, in order
  1 SWAP     op, char, j, k            once, at creation: swap two Abilities
  2 IMPROVE  op, char, ability         one attempt: 2d6 // 2 > the base: +1
  3 BOON     op, char                  +1 Boon (text: which, noted)
  4 SET      op, char, six Abilities   by hand (a sheet from paper, relics, Mutations)
  5 RETIRE   op, char, heir, benefit, pick   the character retires (b bit 7); its
             new character (heir: rolled, no improvement yet) takes one benefit:
             0 +1 to each Ability in the mask `pick`, one a full five Boons
             (all six at 30); 1 Businesses + the retiree's // 2 (pick 0);
             2 a d8 + Boons // 5 over the Reputation with Faction talisman
             `pick` raises it by Boons // 10
"""

from . import core
from . import talisman as tl
from . import expedition as ex
from .core import Outcome

ABIL = 123          # the kind (expedition.py names the range)
ABIL_ROLE = ex.ROLE_ABILITIES

OP_ROLL = 0
OP_SWAP = 1
OP_IMPROVE = 2
OP_BOON = 3
OP_SET = 4
OP_RETIRE = 5

START_BOONS = 2  # "Characters begin with two Boons"
SWAPPED = 64     # b bit 6
RETIRED = 128    # b bit 7
ALL_TRIED = 63


def record(c, i):
    """Index of character i's Abilities talisman, or -1."""
    return c.find(ABIL_ROLE, i)


def get(tal, k):
    """Base Ability k (0 Might .. 5 Discipline) of a record."""
    return tal.a >> (4 * k) & 15


def _put(tal, k, v):
    tal.a = tal.a & ~(15 << (4 * k)) | v << (4 * k)


def improvements(tal):
    return tal.b >> 8


def retired(tal):
    """True once the record's character has retired (ABIL 5)."""
    return tal.b & RETIRED != 0


def _line(tal):
    return " ".join("%s %d" % (ex.ABILITIES[k][:3], get(tal, k)) for k in range(6))


def apply(c, kind, args, text, src):
    """ABIL (123), called by expedition.apply (src records the faces)."""
    if len(args) < 2:
        raise ValueError("ABIL takes op, char: op 0 roll, 1 swap, 2 improve, 3 boon, 4 set, 5 retire")
    op, i = args[0], args[1]
    if not 0 <= op <= OP_RETIRE:
        raise ValueError("ABIL op %d is not 0 roll, 1 swap, 2 improve, 3 boon, 4 set or 5 retire"
                         % op)
    ch = core.alive(c, i, ex.DEAD)
    t = record(c, i)
    out = Outcome(kind)
    if op == OP_ROLL:
        core.arity(args, 2, "ABIL roll takes op 0, char")
        if t >= 0:
            raise ValueError("%s's Abilities are rolled already (undo, or ABIL 4 sets them)" % ch.name)
        a = 0
        for k in range(6):
            a |= (src.d(6) + src.d(6)) // 2 << (4 * k)  # "2d6 divided by two), rounded down"
        t = c.new_tal("Boons", tl.MAX_CAP, tl.CLAMP, tl.NONE, ABIL_ROLE, i, a, 0)
        c.tals[t].n = START_BOONS
        out.note("%s: %s" % (ch.name, _line(c.tals[t])))
    elif op == OP_SET:
        core.arity(args, 8, "ABIL set takes op 4, char, then Might, Agility, Presence, Acuity,"
                    " Knowledge, Discipline")
        a = 0
        for k in range(6):
            core.span(ex.ABILITIES[k], args[2 + k], 0, ex.MAX_ABILITY)
            a |= args[2 + k] << (4 * k)
        if t < 0:
            t = c.new_tal("Boons", tl.MAX_CAP, tl.CLAMP, tl.NONE, ABIL_ROLE, i, a, 0)
            c.tals[t].n = START_BOONS
        else:
            c.tals[t].a = a
        out.note("%s: %s" % (ch.name, _line(c.tals[t])))
    else:
        if t < 0:
            raise ValueError("%s has no Abilities on the tray: ABIL 0 rolls them, 4 sets them" % ch.name)
        tal = c.tals[t]
        if retired(tal):
            raise ValueError("%s has retired (an NPC now): the tray keeps the record as it was"
                             % ch.name)
        if op == OP_SWAP:
            _swap(ch, tal, args, out)
        elif op == OP_RETIRE:
            _retire(c, ch, tal, args, src, out)
        elif op == OP_IMPROVE:
            _improve(ch, tal, args, src, out)
        else:
            core.arity(args, 2, "ABIL boon takes op 3, char (text: the Boon)")
            if tal.n >= tal.cap:
                raise ValueError("%s has %d Boons, the most the tray counts" % (ch.name, tal.n))
            tal.n += 1
            out.note("%s gains a Boon%s: %d" % (ch.name, (" (%s)" % text) if text else "", tal.n))
    out.tal = t
    return out


def _swap(ch, tal, args, out):
    core.arity(args, 4, "ABIL swap takes op 1, char, two Abilities 0..5 (Might .. Discipline)")
    j, k = args[2], args[3]
    core.span("Ability", j, 0, 5)
    core.span("Ability", k, 0, 5)
    if j == k:
        raise ValueError("a swap takes two different Abilities")
    if tal.b & SWAPPED or improvements(tal):
        raise ValueError("%s's swap is at character creation only, and once" % ch.name)
    a, b = get(tal, j), get(tal, k)
    _put(tal, j, b)
    _put(tal, k, a)
    tal.b |= SWAPPED
    out.note("%s: %s" % (ch.name, _line(tal)))


def _improve(ch, tal, args, src, out):
    core.arity(args, 3, "ABIL improve takes op 2, char, ability 0..5 (Might .. Discipline)")
    k = args[2]
    core.span("Ability", k, 0, 5)
    if tal.b >> k & 1:
        raise ValueError("%s was tried in this improvement already: choose another Ability"
                         % ex.ABILITIES[k])
    can = 0
    for j in range(6):
        if get(tal, j) < 6:
            can += 1
    if not can:
        raise ValueError("no Ability of %s can improve (2d6 / 2 is at most 6): choose another"
                         " Boon" % ch.name)
    r = (src.d(6) + src.d(6)) // 2
    base = get(tal, k)
    out.successes = r
    if r > base:
        _put(tal, k, base + 1)
        tal.b = (tal.b & SWAPPED) + ((improvements(tal) + 1) << 8)
        if tal.n < tal.cap:
            tal.n += 1
        out.verdict = 1
        out.note("%s %s %d > %d: now %d" % (ch.name, ex.ABILITIES[k], r, base, base + 1))
        return
    tal.b |= 1 << k
    if tal.b & ALL_TRIED == ALL_TRIED:
        tal.b &= ~ALL_TRIED  # "If you fail all six, start over again"
        out.note("%s %s %d, not over %d: all six tried, start over" % (
            ch.name, ex.ABILITIES[k], r, base))
    else:
        out.note("%s %s %d, not over %d: try another" % (ch.name, ex.ABILITIES[k], r, base))


def _retire(c, ch, tal, args, src, out):
    core.arity(args, 5, "ABIL retire takes op 5, char, heir (the new character), benefit"
                " (0 Abilities, 1 Businesses, 2 Reputation), pick (0: an Ability mask;"
                " 1: 0; 2: the Faction talisman)")
    h, benefit, pick = args[2], args[3], args[4]
    heir = core.alive(c, h, ex.DEAD)
    if h == args[1]:
        raise ValueError("the heir is the new character replacing %s, not %s" % (ch.name, ch.name))
    ht = record(c, h)
    if ht < 0:
        raise ValueError("%s has no Abilities on the tray: roll the new character's Abilities"
                         " first" % heir.name)
    htal = c.tals[ht]
    if retired(htal) or improvements(htal) or htal.n != START_BOONS:
        raise ValueError("existing characters never receive benefits from other characters'"
                         " retirement: %s is not a new character" % heir.name)
    core.span("retirement benefit (0 Abilities, 1 Businesses, 2 Reputation)", benefit, 0, 2)
    boons = tal.n
    if benefit:
        from . import expedition_town as tw
    if benefit == 0:
        want = boons // 5 if boons < 30 else 6
        core.span("Ability mask", pick, 0, 63)
        got = 0
        for k in range(6):
            got += pick >> k & 1
        if got != want:
            raise ValueError("%d Boons give +1 to %d different Abilit%s: the mask names %d"
                             % (boons, want, "y" if want == 1 else "ies", got))
        for k in range(6):
            if pick >> k & 1:
                v = get(htal, k)
                _put(htal, k, v + 1 if v < ex.MAX_ABILITY else v)
        out.note("%s: %s" % (heir.name, _line(htal)))
    elif benefit == 1:
        core.span("pick (Businesses: 0)", pick, 0, 0)
        b = tw.get(heir.v, tw.BUS) + tw.get(ch.v, tw.BUS) // 2
        top = len(tw.OB_TABLE[2])   # Businesses' ranks in the Cash Obstacle table
        b = b if b < top else top
        tw.put(heir.v, tw.BUS, b)
        out.note("%s's Businesses %d" % (heir.name, b))
    else:
        f = tw.faction(c, pick)
        r = src.d(8) + boons // 5
        out.successes = r
        if r > f.a:
            out.verdict = 1
            tw.reputation(f, f.a + boons // 10)
        out.note("%s: %d against Reputation: %s %s%d" % (
            f.name, r, "raised" if out.verdict and boons >= 10 else "kept", "+" if f.a > 0 else "",
            f.a))
    tal.b |= RETIRED
    out.note("%s retires, an NPC now (%d Boons)" % (ch.name, boons))


def trauma(c, t, k, out):
    """A Trauma (Down and Out 4/10, Desperate Returns 5) lowers tracked
    Ability k of record t by one point, not below 0."""
    tal = c.tals[t]
    v = get(tal, k)
    if v:
        _put(tal, k, v - 1)
    out.note("%s now %d" % (ex.ABILITIES[k], get(tal, k)))
