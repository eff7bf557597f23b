"""expedition's spells: the SPELL event (kind 124) with
an op, apart from expedition.py so that boot does not load it
(expedition.py hands SPELL over on first use).

- op 0 LEARN: char, ability 0..5 (ex.ABILITIES), Ob 1..7; text = the
  spell. A SPELL talisman: capacity 1, owner the sorcerer, a = the
  Ability, b = the spell's Ob; one slash = lost until a long rest.
- op 1 CHANNEL: spell, score 0..10, bonus, penalty, +s, -s, taken 0..99
  [, attacker: ability or Level (-1 none), its foe flag, bonus, penalty,
  +s, the sorcerer's blocks]. "To channel a spell, spend one Control and
  then make the listed Ability test"; the Obstacle is the spell's +
  "+1 Ob from each Slot that armor or a shield occupies" + "+1 Ob per
  point of damage taken" (`taken`, and the attack's damage: "use your
  Channeling Test result as your defensive Combat Test"). A failure
  deals the Margin of Failure and loses the spell until a long rest;
  zero successes rolled bring a random Mutation (a d100).
- op 2 MUTATE: char. "Roll 1d100 whenever something causes you to
  mutate": a MUTATION talisman (a = the d100); the seed's table itself
  is cut off, so the entry is the Referee's (text: its name).
- op 3 MASTER: char, ability 0..5, Ob 1..7, score 0..10, bonus, penalty;
  text = the spell. The Spell Mastery Check: the Ability's pool against
  the spell's Ob + 1. A success learns it (as LEARN); "If it is failed,
  the sorcerer can never learn the spell": a NEVER talisman (the
  sorcerer's, the spell's name), and LEARN and MASTER refuse that spell
  to that sorcerer from then on.

docs/rules/expedition.md, "Spells and channeling", has every reading.
"""

from . import core
from . import expedition as ex
from . import talisman as tl
from .core import MAX_TALS, Outcome, name_error

SPELL = 124         # the kind (expedition.py names the range)
ROLE_MUTATION = 9   # cap 1, owner the mutant, a = the d100 (spells: expedition.ROLE_SPELL)
ROLE_NEVER = 12     # cap 1, owner the sorcerer who failed its Spell Mastery Check; name = the spell

LEARN = 0
CHANNEL = 1
MUTATE = 2
MASTER = 3
MAX_SPELL_OB = 7   # the spell lists run Ob 2..5; the Ob table 1..7
MAX_TAKEN = 99
# Armor Slots: "Light Armor occupies one Slot", heavy "occupies two Slots",
# a shield "must be held in a Fast Slot" (one).
ARMOR_SLOTS = (0, 1, 2)


def apply(c, kind, args, text, src):
    """One SPELL event (called by expedition.py with the tapped source)."""
    if not args:
        raise ValueError("SPELL takes an op: 0 learn, 1 channel, 2 mutate, 3 master")
    op = args[0]
    out = Outcome(SPELL)
    if op == LEARN:
        _learn(c, args, text, out)
    elif op == CHANNEL:
        _channel(c, args, src, out)
    elif op == MUTATE:
        core.arity(args, 2, "SPELL mutate takes op 2, char")
        core.alive(c, args[1], ex.DEAD)
        bad = text and name_error(text)
        if bad:
            raise ValueError(bad)
        mutate(c, args[1], text, src, out)
    elif op == MASTER:
        _master(c, args, text, src, out)
    else:
        raise ValueError("SPELL op %d is not 0 learn, 1 channel, 2 mutate or 3 master" % op)
    return out


def armor_ob(v):
    """+1 Ob a Slot of the armor and shield on the sheet (character fields v)."""
    return ARMOR_SLOTS[v[ex.ARMOR]] + (1 if v[ex.SHIELD] else 0)


def spells(c, owner=-2):
    """Indices of the live SPELL talismans (of `owner`, or everyone's)."""
    return [t for t in range(len(c.tals)) if c.tals[t] is not None
            and c.tals[t].role == ex.ROLE_SPELL and (owner == -2 or c.tals[t].owner == owner)]


def _learnable(c, args, text):
    """Check a spell character args[1] may learn (Ability args[2], Ob
    args[3], name text): known already, or failed its Spell Mastery Check
    once, is refused. Returns the character."""
    i, ab, ob = args[1], args[2], args[3]
    ch = core.alive(c, i, ex.DEAD)
    core.span("channeling Ability (0 Might .. 5 Discipline)", ab, 0, 5)
    core.span("spell Ob", ob, 1, MAX_SPELL_OB)
    bad = name_error(text)
    if bad:
        raise ValueError("a spell needs a name: " + bad)
    for t in range(len(c.tals)):
        tal = c.tals[t]
        if tal is not None and tal.owner == i and tal.name == text:
            if tal.role == ex.ROLE_SPELL:
                raise ValueError("%s already knows %s" % (ch.name, text))
            if tal.role == ROLE_NEVER:
                raise ValueError("%s failed the Spell Mastery Check of %s: never learnable (talisman"
                                 " %d)" % (ch.name, text, t))
    return ch


def _learn(c, args, text, out):
    core.arity(args, 4, "SPELL learn takes op 0, char, ability 0..5, Ob 1..7; text = the spell")
    ch = _learnable(c, args, text)
    _known(c, ch, args, text, out)


def _known(c, ch, args, text, out):
    out.tal = c.new_tal(text, 1, tl.CLAMP, tl.NONE, ex.ROLE_SPELL, args[1], args[2], args[3])
    out.note("%s knows %s (%s Ob %d)" % (ch.name, text, ex.ABILITIES[args[2]], args[3]))


def _master(c, args, text, src, out):
    # "The Obstacle Rating for the check is equal to the normal Channeling
    # Ability and Ob for the spell plus one. ... If the Spell Mastery Check
    # succeeds, the spell is added to the sorcerer's list of known spells.
    # If it is failed, the sorcerer can never learn the spell".
    core.arity(args, 7, "SPELL master takes op 3, char, ability 0..5, Ob 1..7, score, bonus,"
                " penalty; text = the spell")
    ch = _learnable(c, args, text)
    n = ex.pool(args[4], args[5], args[6], 0)
    if len(c.tals) >= MAX_TALS:   # either result is a talisman: refused before the roll
        raise ValueError("no room for the spell's talisman (%d talismans)" % MAX_TALS)
    s = ex._draw(src, n)
    m = ex.resolve(s, args[3] + 1)
    out.successes = s
    out.verdict = 1 if m >= 0 else 0
    out.margin = m if m >= 0 else -m
    out.note("Spell Mastery %d vs Ob %d: %s" % (s, args[3] + 1, "success" if m >= 0 else "failure"))
    if m >= 0:
        _known(c, ch, args, text, out)
    else:
        out.tal = c.new_tal(text, 1, tl.CLAMP, tl.NONE, ROLE_NEVER, args[1], args[2], args[3])
        out.note("%s can never learn %s" % (ch.name, text))


def _channel(c, args, src, out):
    if len(args) != 14:
        core.arity(args, 8, "SPELL channel takes op 1, spell, score, bonus, penalty, +s, -s, damage"
                    " taken[, attacker (-1 none), its foe flag, bonus, penalty, +s, blocks]")
    t = args[1]
    tal = c.tal(t)
    if tal.role != ex.ROLE_SPELL:
        raise ValueError("talisman %d is not a spell" % t)
    i = tal.owner
    ch = core.alive(c, i, ex.DEAD)
    v = ch.v
    if tal.n:
        raise ValueError("%s lost %s: not again until a long rest" % (ch.name, tal.name))
    if v[ex.RES] < 1:
        raise ValueError("%s has no Control (class resource) to spend" % ch.name)
    score, bon, pen, plus, minus, taken = args[2:8]
    n = ex.pool(score, bon, pen, 0)
    core.span("+s", plus, 0, ex.MAX_S)
    core.span("-s", minus, 0, ex.MAX_S)
    core.span("damage taken while channeling", taken, 0, MAX_TAKEN)
    atk = args[8] if len(args) == 14 else -1
    na = 0
    if len(args) == 14:
        foe, abon, apen, aplus, blocks = args[9:14]
        core.flag("attacker foe (1: a monster by its Level)", foe)
        core.span("attacker +s", aplus, 0, ex.MAX_S)
        if atk == -1:
            if foe or abon or apen or aplus or blocks:
                raise ValueError("no attacker (-1): its foe flag, dice, +s and blocks must be 0")
        else:
            na = ex.side_pool(foe, atk, abon, apen, 0)
            ex._check_block(c, i, blocks)
    f = c.find(ex.ROLE_FIGHT)   # in a tracked fight: one Class Resource a Round
    if f >= 0:
        from . import expedition_foes
        expedition_foes.use_res(c, f, i, 1, 0)   # checks, then marks: nothing after it refuses
    # Valid: spend the Control, roll, resolve.
    v[ex.RES] -= 1
    s = ex._draw(src, n)
    ob = tal.b + armor_ob(v) + taken
    out.note("%s channels %s: CR %d/%d" % (ch.name, tal.name, v[ex.RES], v[ex.MAX_RES]))
    if atk != -1:
        sb = ex._draw(src, na)
        m = ex.versus_margin(s, sb, 0, minus, args[12], 0)
        hit = 1 if m == 0 else (-m if m < 0 else 0)
        out.note("defence %d vs %d: %s" % (s, sb, "tie" if m == 0 else ("hit" if m < 0 else "missed")))
        if m == 0:
            out.note("attacker takes 1")
        if hit:
            w = args[13]
            block = (ex.ARMOR_BLOCK[v[ex.ARMOR]] if w & 1 else 0) + (ex.SHIELD_BLOCK if w & 2 else 0)
            ex._hurt(c, i, hit, w, out)
            if hit > block:
                ob += hit - block
    m = ex.resolve(s, ob, plus, minus)
    out.successes = s
    out.verdict = 1 if m >= 0 else 0
    out.margin = m if m >= 0 else -m
    out.tal = t
    out.note("%d vs Ob %d: %s by %d" % (s, ob, "success" if m >= 0 else "failure", out.margin))
    if m < 0:
        tal.n = 1
        ex._hurt(c, i, -m, 0, out)
        out.note("%s lost until a long rest" % tal.name)
    if s == 0:
        mutate(c, i, "", src, out)
        out.tal = t   # the channel's Outcome names its spell (the Mutation is the newest talisman)


def mutate(c, i, text, src, out):
    """A random Mutation for character i: a d100, kept as a MUTATION
    talisman when there is room (else only noted)."""
    f = src.d(100)
    name = text or "Mutation %d" % f
    out.note("%s mutates: d100 %d" % (c.chars[i].name, f))
    if len(c.tals) >= MAX_TALS:
        out.note("no room to record it (%d talismans)" % MAX_TALS)
        return
    out.tal = c.new_tal(name, 1, tl.CLAMP, tl.NONE, ROLE_MUTATION, i, f, 0)
