"""Rules of `expedition` (seed 004): d6 pools of 2 + Ability, 4-6 succeeds.

Tests against an Obstacle or a foe, combat checks (damage = margin),
Toughness with bonus HP and armor blocks, the Down and Out table, turns with
random encounter checks and usage dice, reactions, morale, Desperate
Returns, project clocks and rests. Every mechanic is an event kind in
96..127 (see docs/rules/expedition.md for the table and every reading chosen
where the seed is silent).

Hot path (no allocation): roll_pool, evaluate, pool, monster_pool, resolve,
versus_margin.
"""

from . import core
from . import talisman as tl
from .core import Outcome

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

ID = 2
NAME = "expedition"
KINDS = (96, 127)

SIDES = 6
# 4-6 succeeds.
SUCCESS = bytes((0, 0, 0, 0, 1, 1, 1))

# Per-character integer fields (c.chars[i].v[...]).
CHAR_FIELDS = ("hp", "max_hp", "bonus_hp", "res", "max_res", "armor", "shield",
               "spent", "xp", "dead", "rests", "down")
HP = 0
MAX_HP = 1
BONUS = 2
RES = 3
MAX_RES = 4
ARMOR = 5    # 0 none, 1 light (Block 2), 2 heavy (Block 4)
SHIELD = 6   # 0 none, 1 a shield (Block 2)
SPENT = 7    # blocks used today: bit 0 armor, bit 1 shield
XP = 8
DEAD = 9     # 1: permanently dead
RESTS = 10   # short rests taken today (0..2)
DOWN = 11    # Down and Out rolls owed (0: not down)

# Campaign counters (c.x[...]).
COUNTERS = ("turn", "turn_kind", "freq", "enc_left", "use_left", "day")
TURN_N = 0
TURN_KIND = 1   # kind of the last turn: the TURN argument (0, 1 or 2)
FREQ = 2        # an encounter check every FREQ turns (1..3)
ENC_LEFT = 3    # turns until the next encounter check
_USE_LEFT = const(4)    # exploration turns until the next usage-die check
DAY = 5

_DEFAULT_FREQ = const(2)  # an average-density dungeon: every other turn
_USAGE_EVERY = const(2)   # usage dice are checked every other exploration turn

# Talisman roles.
USAGE = 1     # cap 5 steps d12..d4 then spent; a = starting die; b = 1 checked on turns
PROJECT = 2   # cap = ticks (4..10)
EXTENDED = 3  # cap = successful tests needed; a = failures allowed (0: no limit); b = failures
ROLE_SPELL = 8      # cap 1, owner the sorcerer, a = Ability, b = Ob; n 1 = lost until a long rest
ROLE_FIGHT = 17     # the fight being tracked: its round, who spent a resource in it
ROLE_ABILITIES = 18  # a character's six Abilities and Boons (rules/expedition_chars.py)
# The other roles are their chapters' (below): 9 mutation (expedition_spells),
# 10 faction and 11 stronghold (expedition_town), 16 foe (expedition_foes).

# Event kinds.
TEST = 96          # ability, ob, bonus, penalty, helpers, plus_s, minus_s, ext[, foe]
VERSUS = 97        # a: ability, bonus, penalty, helpers, plus_s, minus_s; then b; [foes]
COMBAT = 98        # see expedition_more._combat
DAMAGE = 99        # char, amount, block (1 armor, 2 shield, 3 both)
VAR_DAMAGE = 100   # char (-1 NPC), dice, block, half
HEAL = 101         # char, amount
BONUS_HP = 102     # char, amount
BONUS_END = 103    # char
SHEET = 104        # char, hp, max_hp, res, max_res, armor, shield, xp
USE_RES = 105      # char, amount
DOWN_OUT = 106     # char, aided
SHORT_REST = 107   # mask (0: every living character with a rest left)[, turn]
LONG_REST = 108    # ()
TURN = 109         # kind: 0 exploration, 2 overland, 1 overland on the countdown
SET_FREQ = 110     # freq 1..3
ENC_CHECK = 111    # ()
USAGE_NEW = 112    # sides, owner, per_turn; text=name
USAGE_ROLL = 113   # talisman
REACTION = 114     # ()
MORALE = 115       # sides 6/8/10, mod -1..1
DISTANCE = 116     # ()
DESPERATE = 117    # char
PROJECT_NEW = 118  # ticks, owner; text=name
PROJECT_TICK = 119  # talisman
EXT_NEW = 120      # need, max_fail; text=name
# Kinds 121..125 (foes, rounds, abilities, spells, town) are named and applied in modules of
# their own, loaded on first use: boot imports none of them, and every name
# here costs an .mpy boot ~25,000 fuel (docs/performance.md). 121 FOE and
# 122 ROUND: expedition_foes (monsters, NPCs, rounds); 123 ABIL:
# expedition_chars (Abilities, Boons); 124 SPELL: expedition_spells
# (learn, channel, mutate); 125 TOWN: expedition_town (the town phase).

MAX_ABILITY = 10
MAX_LEVEL = 14    # a monster's Level: "Fiendishly Difficult Areas ... (L7-14)"
# Bonus dice: the core rule's "second bonus die" is the situational cap,
# and the text's named sources add more (Cultivate Asset +3d, a Stronghold's
# rating 1-6, Circles up to +6d plus +1d per point of Reputation, +1d per
# unit of sorcerous material...): whatever fits the 20-die pool
# (2 + Ability 0 + 18).
MAX_BONUS = 18    # (the core rule's own situational cap is 2)
_MAX_PENALTY = const(2)
MAX_HELPERS = 7   # everyone else at a full table of 8
MAX_POOL = 20     # dice.MAX_POOL
MAX_OB = 30       # the Ob table stops at 7; channeling, armor, saves and Cash go past it
MAX_S = 6         # +Ns / -Ns
# TURN kinds. OVERLAND_CD is what an overland TURN meant before the seed's
# "once per Overland Turn" was read in (journals keep it, and it is the
# Referee's reduced rate for boats and very safe places: see the rules doc).
EXPLORE = 0
OVERLAND_CD = 1
OVERLAND = 2
# COMBAT's threat argument: bits 0-1 who threatens whom (1 A, 2 B), bits 2-3 which
# side is a monster taken by its Level (VERSUS' foes argument: bits 0-1).
FOE_A = 4
FOE_B = 8
MAX_POINTS = 99   # HP, bonus HP, resources, one damage or heal
_MAX_OWED = const(20)     # Down and Out rolls owed (2 faces each; an event holds 64)
ARMOR_BLOCK = (0, 2, 4)
SHIELD_BLOCK = 2
# The six Natural Abilities in the seed's order: a d6 picks a random one.
ABILITIES = ("Might", "Agility", "Presence", "Acuity", "Knowledge", "Discipline")
ENCOUNTER = ("nothing", "ENCOUNTER", "sign or sighting")


def new_counters():
    x = [0] * len(COUNTERS)
    x[FREQ] = _DEFAULT_FREQ
    x[ENC_LEFT] = _DEFAULT_FREQ
    x[_USE_LEFT] = _USAGE_EVERY
    x[DAY] = 1
    return x


def new_char():
    """A new character: 4 Toughness (the seed's starting HP), no gear."""
    v = [0] * len(CHAR_FIELDS)
    v[HP] = 4
    v[MAX_HP] = 4
    return v


def setup(c):
    """No standing talismans: usage dice, projects and extended tests are made on demand."""


def on_char(c, i):
    """Nothing to create per character."""


def on_slash(c, t, k, src):
    """No triggers: notes are written by the events themselves."""


def on_fill(c, t, src):
    """No triggers."""


# --- hot path: no allocation ------------------------------------------------

def roll_pool(dice, buf, n):
    """Roll n d6 into buf[0:n] and return the successes (4-6). No allocation."""
    return dice.roll(6, n, buf, SUCCESS)


# Every byte value's worth when keyed in by hand: 4-6 count 1, a value that
# is no d6 face counts _BAD, so one table lookup per face both counts and
# validates (a pool never holds _BAD dice: MAX_POOL < _BAD).
_BAD = 32
_EVAL = b"\x20" + SUCCESS[1:] + b"\x20" * 249   # byte f -> SUCCESS[f] for faces 1..6, else _BAD


def evaluate(buf, n):
    """Successes among n (<= 20) keyed-in d6 faces in buf[0:n]. No allocation."""
    if not 0 <= n <= MAX_POOL:
        raise ValueError("a pool holds 0..%d dice, not %d" % (MAX_POOL, n))
    t = _EVAL
    s = 0
    for i in range(n):
        s += t[buf[i]]
    if s >= _BAD:
        for i in range(n):
            if t[buf[i]] == _BAD:
                raise ValueError("face %d is not a d6 face (1..6)" % buf[i])
    return s


def pool(ability, bonus=0, penalty=0, helpers=0):
    """Dice in a pool: 2 + Ability + bonus - penalty + helping dice, never
    below 0 (a 0-die pool rolls nothing and scores 0 successes)."""
    if not 0 <= ability <= MAX_ABILITY:
        raise ValueError("Ability %d is not in 0..%d" % (ability, MAX_ABILITY))
    return _dice(2 + ability, bonus, penalty, helpers)


def monster_pool(level, bonus=0, penalty=0, helpers=0):
    """Dice in a monster's pool: Level + 3 ("Monsters generally roll a Pool
    of dice equal to Level plus 3"), + a bonus die for strengths, - a
    penalty die for weaknesses, + helping dice; never below 0."""
    if not 0 <= level <= MAX_LEVEL:
        raise ValueError("monster Level %d is not in 0..%d" % (level, MAX_LEVEL))
    return _dice(3 + level, bonus, penalty, helpers)  # "a Pool of dice equal to Level plus 3"


def _dice(n, bonus, penalty, helpers):
    # A pool's base dice n with its bonus, penalty and helping dice.
    if not 0 <= bonus <= MAX_BONUS:
        raise ValueError("bonus dice %d is not in 0..%d" % (bonus, MAX_BONUS))
    if not 0 <= penalty <= _MAX_PENALTY:
        raise ValueError("penalty dice %d is not in 0..%d" % (penalty, _MAX_PENALTY))
    if not 0 <= helpers <= MAX_HELPERS:
        raise ValueError("helping dice %d is not in 0..%d" % (helpers, MAX_HELPERS))
    n += bonus - penalty + helpers
    if n > MAX_POOL:
        raise ValueError("a pool of %d dice is over %d" % (n, MAX_POOL))
    return n if n > 0 else 0


def side_pool(monster, ability, bonus=0, penalty=0, helpers=0):
    """pool() for a character's Ability, monster_pool() for a monster's Level."""
    if monster:
        return monster_pool(ability, bonus, penalty, helpers)
    return pool(ability, bonus, penalty, helpers)


def resolve(successes, ob, plus_s=0, minus_s=0):
    """Margin of an independent test: >= 0 succeeds by that margin (0: the
    Obstacle met exactly), < 0 fails by -margin. -Ns always removes
    successes (not below 0); +Ns adds only to a success."""
    s = successes - minus_s
    if s < 0:
        s = 0
    m = s - ob
    if m >= 0:
        return m + plus_s
    return m


def versus_margin(a, b, plus_a=0, minus_a=0, plus_b=0, minus_b=0):
    """Versus margin from A's side: > 0 A wins by it, < 0 B wins by -it,
    0 a tie. +Ns only widens a win (never breaks a tie); -Ns always counts."""
    a -= minus_a
    if a < 0:
        a = 0
    b -= minus_b
    if b < 0:
        b = 0
    m = a - b
    if m > 0:
        return m + plus_a
    if m < 0:
        return m - plus_b
    return 0


def next_check(c):
    """(turns until the next encounter check, exploration turns until the
    next usage-die check) for the home screen. After an overland turn the
    next check is the next overland turn's (each has one)."""
    x = c.x
    return 1 if x[TURN_KIND] == OVERLAND else x[ENC_LEFT], x[_USE_LEFT]


def usage_sides(t):
    """Current die of a USAGE talisman (12, 10, 8, 6, 4), or 0 when spent."""
    return 0 if t.n >= t.cap else 12 - 2 * t.n


# --- validation helpers ----------------------------------------------------

def _role(c, t, role, what):
    tal = c.tal(t)
    if tal.role != role:
        raise ValueError("talisman %d is not %s" % (t, what))
    return tal


def _check_block(c, i, which):
    """A requested block must be gear the character has and has not spent today."""
    core.span("block", which, 0, 3)
    v = c.chars[i].v
    if which & 1 and (not v[ARMOR] or v[SPENT] & 1):
        raise ValueError("%s has no unspent armor to block with" % c.chars[i].name)
    if which & 2 and (not v[SHIELD] or v[SPENT] & 2):
        raise ValueError("%s has no unspent shield to block with" % c.chars[i].name)


def _draw(src, n):
    """Draw n d6 from src (the apply path; the tap records them); successes."""
    s = 0
    for _ in range(n):
        s += SUCCESS[src.d(6)]
    return s


# --- state changes -------------------------------------------------------

def _hurt(c, i, n, which, out):
    """One damage instance of n to character i (-1: an enemy, only reported):
    blocks first, then bonus HP, then HP; at 0 HP the character is down."""
    if i < 0:
        out.note("enemy takes %d" % n)
        return
    if n <= 0:
        return
    ch = c.chars[i]
    v = ch.v
    blocked = 0
    if which & 1:
        blocked += ARMOR_BLOCK[v[ARMOR]]
        v[SPENT] |= 1
    if which & 2:
        blocked += SHIELD_BLOCK
        v[SPENT] |= 2
    d = n - blocked
    if d < 0:
        d = 0
    b = d if d < v[BONUS] else v[BONUS]
    v[BONUS] -= b
    d -= b
    if d > 0:
        if v[HP] == 0:
            if v[DOWN] < _MAX_OWED:
                v[DOWN] += 1
        else:
            v[HP] = v[HP] - d if d < v[HP] else 0
            if v[HP] == 0:
                v[DOWN] = 1
    out.note("%s takes %d%s: HP %d/%d%s" % (
        ch.name, n, (" (blocked %d, bonus %d)" % (blocked, b)) if blocked or b else "",
        v[HP], v[MAX_HP], " DOWN AND OUT" if v[HP] == 0 else ""))


# --- events ------------------------------------------------------------------

class _Tap:
    """Wraps a dice source and keeps every face drawn, for Outcome.faces."""

    def __init__(self, src):
        self.src = src
        self.faces = bytearray()

    def d(self, sides):
        f = self.src.d(sides)
        self.faces.append(f)
        return f


def apply(c, kind, args, text, src):
    """Validate and apply one expedition event; returns its Outcome whose
    faces are every die the event drew, in order."""
    tap = _Tap(src)
    out = _apply(c, kind, args, text, tap)
    out.faces = bytes(tap.faces)
    return out


def _apply(c, kind, args, text, src):
    if kind > EXT_NEW:
        return _chapter(kind).apply(c, kind, args, text, src)
    f = _APPLY[kind - TEST]
    if f is None:   # the kinds a session holds less often: rules/expedition_more.py
        from . import expedition_more
        out = Outcome(kind)
        expedition_more.apply(c, kind, args, text, src, out)
        return out
    return f(c, args, src)


def _damage(c, args, src):
    core.arity(args, 3, "DAMAGE takes char, amount, block")
    i, n, w = args
    core.alive(c, i, DEAD)
    core.span("damage", n, 0, MAX_POINTS)
    _check_block(c, i, w)
    out = Outcome(DAMAGE)
    _hurt(c, i, n, w if n else 0, out)
    out.margin = n
    return out


def _heal(c, args, src):
    core.arity(args, 2, "HEAL takes char, amount")
    i, n = args
    v = core.alive(c, i, DEAD).v
    core.span("healing", n, 1, MAX_POINTS)
    v[HP] = v[HP] + n if v[HP] + n < v[MAX_HP] else v[MAX_HP]
    out = Outcome(HEAL)
    out.note("%s HP %d/%d" % (c.chars[i].name, v[HP], v[MAX_HP]))
    return out


def _use_res(c, args, src):
    if len(args) != 3:
        core.arity(args, 2, "USE_RES takes char, amount[, more: 1 = a power that may spend"
                    " more than one a Round]")
    i, n = args[0], args[1]
    v = core.alive(c, i, DEAD).v
    core.span("resources to spend", n, 1, MAX_POINTS)
    if n > v[RES]:
        raise ValueError("%s has %d class resource(s), not %d" % (c.chars[i].name, v[RES], n))
    more = args[2] if len(args) == 3 else 0
    core.flag("more (1: a power that may spend more than one a Round)", more)
    t = c.find(ROLE_FIGHT)  # a fight (rules/expedition_foes.py): one CR a Round
    if t >= 0:
        from . import expedition_foes
        expedition_foes.use_res(c, t, i, n, more)
    v[RES] -= n
    out = Outcome(USE_RES)
    out.note("%s CR %d/%d" % (c.chars[i].name, v[RES], v[MAX_RES]))
    return out


def _long_rest(c, args, src):
    core.arity(args, 0, "LONG_REST takes no arguments")
    for ch in c.chars:
        v = ch.v
        if v[DEAD]:
            continue
        v[HP] = v[MAX_HP]
        v[RES] = v[MAX_RES]
        v[SPENT] = 0
        v[RESTS] = 0
    out = Outcome(LONG_REST)
    for t in c.tals:  # "replenish any depleted spells" (SPELL, kind 124)
        if t is not None and t.role == ROLE_SPELL and t.n:
            t.n = 0
            out.note("%s back" % t.name)
    c.x[DAY] += 1
    out.note("day %d: HP, resources and blocks back" % c.x[DAY])
    return out


def _chapter(kind):
    """The module that names and applies kind 121.. (above), imported now."""
    if kind <= 122:
        from . import expedition_foes as m
    elif kind == 123:
        from . import expedition_chars as m
    elif kind == 124:
        from . import expedition_spells as m
    elif kind == 125:
        from . import expedition_town as m
    else:
        raise ValueError("unknown expedition event kind %d (expedition uses %d..125)" % (kind, TEST))
    return m


def _test(c, args, src):
    if len(args) != 9:
        core.arity(args, 8, "TEST takes ability, ob, bonus, penalty, helpers, +s, -s, extended"
                    " talisman (-1 none)[, foe: 1 = a monster, ability = its Level]")
    ab, ob, bon, pen, hel, plus, minus, ext = args[:8]
    foe = args[8] if len(args) == 9 else 0
    core.flag("foe (1: a monster by its Level)", foe)
    n = side_pool(foe, ab, bon, pen, hel)
    core.span("Obstacle", ob, 1, MAX_OB)
    core.span("+s", plus, 0, MAX_S)
    core.span("-s", minus, 0, MAX_S)
    tal = None
    if ext != -1:
        tal = _role(c, ext, EXTENDED, "an extended test")
        if tal.filled() or (tal.a and tal.b >= tal.a):
            raise ValueError("extended test %s is already over" % tal.name)
    s = _draw(src, n)
    m = resolve(s, ob, plus, minus)
    out = Outcome(TEST, b"", s, 1 if m >= 0 else 0, m if m >= 0 else -m)
    out.note("%d vs Ob %d: %s by %d" % (s, ob, "success" if m >= 0 else "failure", out.margin))
    if tal is not None:
        out.tal = ext
        if m >= 0:
            tl.slash(c, ext, 1, False, src)
        else:
            tal.b += 1
        out.note("%s %d/%d, %d failed%s" % (
            tal.name, tal.n, tal.cap, tal.b,
            " PASSED" if tal.filled() else (" FAILED" if tal.a and tal.b >= tal.a else "")))
    return out


def _side(args, k, monster):
    """Validate one side (ability or Level, bonus, penalty, helpers) and return its dice."""
    return side_pool(monster, args[k], args[k + 1], args[k + 2], args[k + 3])


def _versus(c, args, src):
    foes = 0
    if len(args) == 13:
        foes = args[12]
        core.span("foes (bit 0 A, bit 1 B is a monster by its Level)", foes, 0, 3)
    else:
        core.arity(args, 12, "VERSUS takes ability, bonus, penalty, helpers, +s, -s for A then"
                    " for B[, foes: bit 0 A, bit 1 B is a monster by its Level]")
    na = _side(args, 0, foes & 1)
    nb = _side(args, 6, foes & 2)
    for k in (4, 5, 10, 11):
        core.span("+s/-s", args[k], 0, MAX_S)
    sa = _draw(src, na)
    sb = _draw(src, nb)
    m = versus_margin(sa, sb, args[4], args[5], args[10], args[11])
    # The sides in words, as bytes: a str constant is interned when this
    # module loads, at every boot (docs/architecture.md).
    return vs_out(Outcome(VERSUS), sa, sb, m,
                  (b"the monster" if foes & 1 else b"the roller").decode(),
                  (b"the monster" if foes & 2 else b"the opponent").decode())


def vs_out(out, sa, sb, m, an, bn):
    """A versus roll into Outcome out: verdict 1 A wins, 0 B wins, 2 tie;
    margin its size; the note names the sides an and bn."""
    out.successes = sa
    out.verdict = 1 if m > 0 else (0 if m < 0 else 2)
    out.margin = m if m >= 0 else -m
    if m == 0:
        out.note("%d vs %d: tie" % (sa, sb))
    else:
        out.note("%d vs %d: %s wins by %d" % (sa, sb, an if m > 0 else bn, out.margin))
    return out


def _short_rest(c, args, src):
    if len(args) != 2:
        core.arity(args, 1, "SHORT_REST takes a mask of characters (0: everyone who can)"
                    "[, turn: 1 = the rest occupies an Exploration Turn]")
    mask = args[0]
    turn = args[1] if len(args) == 2 else 0
    core.flag("turn (1: the rest occupies an Exploration Turn)", turn)
    core.span("rest mask", mask, 0, (1 << len(c.chars)) - 1)
    if mask == 0:
        for i, ch in enumerate(c.chars):
            if not ch.v[DEAD] and ch.v[RESTS] < 2:
                mask |= 1 << i
        if not mask:
            raise ValueError("no one has a short rest left today: take a long rest")
    else:
        for i in range(len(c.chars)):
            if mask & (1 << i):
                if core.alive(c, i, DEAD).v[RESTS] >= 2:
                    raise ValueError("%s had both short rests today" % c.chars[i].name)
    out = Outcome(SHORT_REST)
    for i, ch in enumerate(c.chars):
        if mask & (1 << i):
            v = ch.v
            if v[HP] < v[MAX_HP]:
                v[HP] += 1
            if v[RES] < v[MAX_RES]:
                v[RES] += 1
            v[RESTS] += 1
            out.note("%s HP %d/%d CR %d/%d" % (ch.name, v[HP], v[MAX_HP], v[RES], v[MAX_RES]))
    if turn:
        _pass(c, EXPLORE, src, out)
    return out


def _encounter(src, out):
    f = src.d(12)
    out.margin = f
    out.verdict = 1 if f <= 2 else (2 if f == 3 else 0)
    out.note("encounter check %d: %s" % (f, ENCOUNTER[out.verdict]))


def _usage(c, t, src, out):
    tal = c.tals[t]
    sides = usage_sides(tal)
    f = src.d(sides)
    if f <= 2:
        tl.slash(c, t, 1, False, src)
        now = usage_sides(tal)
        out.note("%s d%d rolls %d: %s" % (tal.name, sides, f, ("now d%d" % now) if now else "SPENT"))
    else:
        out.note("%s d%d rolls %d" % (tal.name, sides, f))


def _turn(c, args, src):
    core.arity(args, 1, "TURN takes kind (0 exploration, 2 overland, 1 overland on the countdown)")
    core.span("turn kind (0 exploration, 2 overland, 1 overland on the countdown)", args[0], 0, 2)
    out = Outcome(TURN)
    _pass(c, args[0], src, out)
    return out


def _pass(c, kind, src, out):
    """A turn of `kind` passes (TURN, and a short rest's Exploration Turn).

    Exploration (0) and overland-on-the-countdown (1) turns count the
    encounter countdown down and check when it runs out; an overland turn
    (2) checks every time ("Random Encounter Checks ought to be made once
    per Overland Turn") and leaves the dungeon's countdown alone. Usage
    dice count exploration turns only."""
    x = c.x
    x[TURN_N] += 1
    x[TURN_KIND] = kind
    out.successes = x[TURN_N]
    if kind == OVERLAND:
        _encounter(src, out)
        out.note("turn %d, next check in %d" % (x[TURN_N], 1))
        return
    x[ENC_LEFT] -= 1
    if x[ENC_LEFT] <= 0:
        x[ENC_LEFT] = x[FREQ]
        _encounter(src, out)
    if kind == EXPLORE:
        x[_USE_LEFT] -= 1
        if x[_USE_LEFT] <= 0:
            x[_USE_LEFT] = _USAGE_EVERY
            for t, tal in enumerate(c.tals):
                if tal is not None and tal.role == USAGE and tal.b and usage_sides(tal):
                    _usage(c, t, src, out)
    out.note("turn %d, next check in %d" % (x[TURN_N], x[ENC_LEFT]))


# Kinds TEST..EXT_NEW by kind - TEST: the kinds a session holds most, here;
# None: rules/expedition_more.py's (loaded at the first; above EXT_NEW, the
# chapter modules').
_APPLY = (_test, _versus, None, _damage, None, _heal, None, None, None, _use_res,
          None, _short_rest, _long_rest, _turn, None, None, None, None, None, None,
          None, None, None, None, None)
