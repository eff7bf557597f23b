"""Rules of `hunt` (seed 000): d6 action pools, tension and pressure, the
Sin and its palace, exorcist stress, injuries, sin, hooks, pathos, rests.

Every mechanic is an event kind in 32..63 (see docs/rules/hunt.md), applied
through Campaign.act. Every tracker is a talisman; the role says which:
tension (3, CARRY into pressure), pressure (6, CLAMP), the Sin's execution
talisman (a = CAT, b = slashes taken outside the palace), one stress
talisman per exorcist and any number of hooks (capacity 3, owner = exorcist).
Dice inside apply come only from `src`, so events replay exactly.
"""

from . import core
from . import talisman as tl
from .core import MAX_TALS, Outcome

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

ID = 0
NAME = "hunt"
KINDS = (32, 63)

SIDES = 6
# What each d6 face is worth, one table per success face 2..6 (index by
# face): TABLES[s][f] = 1 if f >= s, so the hot path only indexes a tuple
# and never allocates. Written out rather than built by a generator at
# import: that ran ~100 bytecodes at every boot (tests/mpy/test_hunt.py
# checks the literal).
TABLES = (b"", b"", b"\x00\x00\x01\x01\x01\x01\x01", b"\x00\x00\x00\x01\x01\x01\x01",
          b"\x00\x00\x00\x00\x01\x01\x01", b"\x00\x00\x00\x00\x00\x01\x01",
          b"\x00\x00\x00\x00\x00\x00\x01")
SUCCESS = TABLES[4]  # 4+ succeeds: the DESIGN default
SUCCESS_HARD = TABLES[6]  # a hard roll: only a 6, whatever the campaign's face

# --- event kinds -------------------------------------------------------
ROLL = 32        # char|-1, skill 0..3, adv 0..3, agony 0/1, minus >=0, hard 0/1, target|-1
#                  [, grant: -1, or the character a setup roll is for[, setup: -1, or the
#                  roller's SETUP talisman this roll benefits from]]
RISK = 33        # char|-1 (the acting exorcist): the admin's 1d6 risk die
SCENE_END = 34   # next_combat 0/1: the scene passes
SCENE = 35       # combat 0/1: mark the current scene (a fight breaks out)
STRESS = 36      # char, stress >=1, answer 0/1, defy 0/1
BURST = 37       # char, substitute 0/1 (1: gain 1d3 sin instead)
HOOK = 38        # char; text = hook name (gaining it again slashes it)
REST = 39        # two spend codes per character (see rest codes)
KIT = 40         # char, points; text = item
NEW_HUNT = 41    # cat 0..20, in_palace 0/1
SESSION_END = 42  # no args
TRAUMA = 43      # no args: one trauma question answered (max 3)
SIN_END = 44     # spare 0/1: the Sin's talisman is full; execute or spare
PALACE = 45      # inside 0/1: the Sin enters / leaves its palace
WITNESS = 46     # char: witnessed an ally die or suffer sin overflow (+1 pathos)
FACE = 47        # face 2..6: the campaign's success face (hard stays 6 only)
# 48 AFFLICT and ROLL's setup arguments: rules/hunt_more.py (loaded on first use).

# Rest spend codes: what one 2d3 die is spent on (code >= REST_HOOK: hook talisman code - 2).
REST_BURSTS = 0
REST_STRESS = 1
REST_HOOK = 2

# Talisman roles.
ROLE_TASK = 0
ROLE_TENSION = 1
ROLE_PRESSURE = 2
ROLE_SIN = 3
ROLE_STRESS = 4
ROLE_HOOK = 5
# Roles above ROLE_HOOK (6 affliction, 7 setup): rules/hunt_more.py.

CHAR_FIELDS = ("injuries", "sin", "marks", "bursts", "pathos", "kit",
               "agony_used", "dead", "brink", "check")
INJURIES, SIN, MARKS, BURSTS, PATHOS, KITP, AGONY_USED, DEAD, BRINK, CHECK = range(10)

COUNTERS = ("face", "scene", "combat", "risk_tension", "agony_user", "answered",
            "expended", "palace", "outcome", "session", "hunt", "risk")
X_FACE, X_SCENE, X_COMBAT, X_RISKED, X_AGONY, X_ANSWERED, X_EXPENDED, \
    X_PALACE, X_OUTCOME, X_SESSION, X_HUNT, X_RISK = range(12)

_STRESS_CAP = const(6)     # exorcist execution talisman, minus one per injury
_BRINK_INJURIES = const(3)
_DEATH_STRESS = const(7)   # this much stress in one move kills
_BURSTS_START = const(3)
_SIN_CAP = const(10)
_KIT_START = const(5)
_SIN_BASE = const(8)       # Sin capacity = 8 + CAT + pressure
_RETREAT = const(4)        # slashes outside the palace before the Sin retreats
_MAX_CAT = const(20)
MAX_MINUS = 20
_MAX_STRESS = const(30)
_MAX_PATHOS = const(99)
OUTCOMES = ("active", "executed", "spared")


def new_counters():
    x = [0] * len(COUNTERS)
    x[X_FACE] = 4
    x[X_AGONY] = -1
    return x


def new_char():
    v = [0] * len(CHAR_FIELDS)
    v[BURSTS] = _BURSTS_START
    v[KITP] = _KIT_START
    return v


# --- hot path ------------------------------------------------------------

def roll_pool(dice, buf, n, hard, face=4):
    """Roll an action pool of n d6 into buf and return its successes.

    n <= 0: roll 2d6 into buf[0:2] and count only the lower die. No heap
    allocation (the benchmark's hot path): tables are prebuilt.
    """
    table = SUCCESS_HARD if hard else TABLES[face]
    if n > 0:
        return dice.roll(6, n, buf, table)
    dice.roll(6, 2, buf, table)
    lo = buf[0]
    if buf[1] < lo:
        lo = buf[1]
    return table[lo]


def evaluate(buf, n, hard, face=4):
    """Successes of faces already in buf (keyed in by hand); n <= 0 reads
    buf[0:2] as the 2d6 keep-lower roll. No allocation."""
    table = SUCCESS_HARD if hard else TABLES[face]
    if n <= 0:
        lo = buf[0]
        if buf[1] < lo:
            lo = buf[1]
        return table[lo]
    s = 0
    for i in range(n):
        s += table[buf[i]]
    return s


def action_pool(skill, adv, agony, minus):
    """Pool size: skill 0..3 + advantages 0..3 (+3D limit) + divine agony
    0..3 (outside that limit) - removed dice (>= 0). May be <= 0."""
    core.span("skill", skill, 0, 3)
    core.span("advantages", adv, 0, 3)
    core.span("divine agony dice", agony, 0, 3)
    core.span("removed dice", minus, 0, MAX_MINUS)
    return skill + adv + agony - minus


# --- helpers -------------------------------------------------------------

def _need(args, n, msg):
    if len(args) != n:
        core.arity(args, n, "%s takes %s" % (KIND_NAMES[_kind - ROLL], msg))


_kind = ROLL  # the kind being applied, for _need's message


def _std(c, role):
    t = c.find(role)
    if t < 0:
        raise ValueError("no %s talisman: start a NEW_HUNT" % ("tension", "pressure", "Sin")[role - 1])
    return t


def _stress_tal(c, i):
    t = c.find(ROLE_STRESS, i)
    if t < 0:
        raise ValueError("%s has no stress talisman" % c.chars[i].name)
    return c.tals[t]


def _hooks(c, i):
    """Indices of exorcist i's live hooks (a list: logging path only)."""
    return [t for t in range(len(c.tals))
            if c.tals[t] is not None and c.tals[t].role == ROLE_HOOK and c.tals[t].owner == i]


def _new_tal(c, name, cap, role, owner):
    # Reuse a deleted slot so hooks that come and go never exhaust MAX_TALS.
    for t in range(len(c.tals)):
        if c.tals[t] is None:
            c.tals[t] = tl.Talisman(name, cap, tl.CLAMP, tl.NONE, role, owner)
            return t
    return c.new_tal(name, cap, tl.CLAMP, tl.NONE, role, owner)


def _has_room(c):
    if len(c.tals) < MAX_TALS:
        return True
    for t in c.tals:
        if t is None:
            return True
    return False


def _gain_pathos(ch):
    if ch.v[PATHOS] < _MAX_PATHOS:
        ch.v[PATHOS] += 1


def _hit_sin(c, k, nofill, src):
    """k slashes on the Sin. Outside its palace it cannot be defeated (never
    fills) and takes at most what is left before it retreats."""
    s = _std(c, ROLE_SIN)
    tal = c.tals[s]
    if not c.x[X_PALACE]:
        nofill = True
        if k > _RETREAT - tal.b:
            k = _RETREAT - tal.b
    if k > 0:
        tl.slash(c, s, k, nofill, src)


def _overflow(c, i, src):
    """Sin overflow: resistance check 1d6 + sin marks (total recorded; the
    seed's table is cut off), then +1 sin mark and sin back to 0."""
    ch = c.chars[i]
    f = src.d(6)
    ch.v[CHECK] = f + ch.v[MARKS]
    c.note("%s sin overflow: check %d+%d=%d" % (ch.name, f, ch.v[MARKS], ch.v[CHECK]))
    ch.v[MARKS] += 1
    ch.v[SIN] = 0


def _slash_hooks(c, i, src):
    for t in _hooks(c, i):
        tl.slash(c, t, 1, False, src)
        h = c.tals[t]
        if h is not None:  # a hook that filled is gone (on_fill)
            c.note("Hook %s %d/3" % (h.name, h.n))


def _take_stress(c, i, k):
    """Stress that fills or exceeds the talisman: +1 injury (and pathos), the
    stress clears and the excess is new stress, again while it fills the
    smaller talisman; at 3 injuries: brink of death, stress cleared."""
    ch = c.chars[i]
    st = _stress_tal(c, i)
    st.n += k
    while st.n >= st.cap:
        excess = st.n - st.cap
        ch.v[INJURIES] += 1
        _gain_pathos(ch)
        c.note("%s injury %d" % (ch.name, ch.v[INJURIES]))
        st.cap = _STRESS_CAP - ch.v[INJURIES]
        if ch.v[INJURIES] >= _BRINK_INJURIES:
            ch.v[BRINK] = 1
            st.n = 0
            c.note("%s is on the brink of death" % ch.name)
            break
        st.n = excess
    c.note("%s stress %d/%d" % (ch.name, st.n, st.cap))


def _set_injuries(c, i, n):
    ch = c.chars[i]
    ch.v[INJURIES] = n
    ch.v[BRINK] = 1 if n >= _BRINK_INJURIES else 0
    st = _stress_tal(c, i)
    st.cap = _STRESS_CAP - n
    if st.n > st.cap:
        st.n = st.cap


# --- system interface ------------------------------------------------------

def setup(c):
    """Pressure (6, CLAMP), tension (3, CARRY into pressure), the Sin (8 + CAT + pressure)."""
    p = c.new_tal("Pressure", 6, tl.CLAMP, tl.NONE, ROLE_PRESSURE)
    c.new_tal("Tension", 3, tl.CARRY, p, ROLE_TENSION)
    c.new_tal("Sin", _SIN_BASE, tl.CLAMP, tl.NONE, ROLE_SIN)


def on_char(c, i):
    """Each exorcist gets an execution (stress) talisman of capacity 6."""
    _new_tal(c, "Stress", _STRESS_CAP, ROLE_STRESS, i)


def on_slash(c, t, k, src):
    """Pressure steps and the Sin's slashes outside its palace."""
    tal = c.tals[t]
    if tal.role == ROLE_PRESSURE:
        s = c.find(ROLE_SIN)
        for j in range(k):  # each step fires its own triggers
            p = tal.n - k + 1 + j
            if s >= 0:
                c.tals[s].cap = _SIN_BASE + c.tals[s].a + p
            c.note("Pressure %d/%d: Sin capacity %d" % (p, tal.cap, c.tals[s].cap if s >= 0 else 0))
            for i in range(len(c.chars)):
                if not c.chars[i].v[DEAD]:
                    _slash_hooks(c, i, src)
            if s >= 0 and c.x[X_PALACE] and c.x[X_OUTCOME] == 0:
                h = src.d(3)
                tl.unslash(c.tals[s], h)
                c.note("Sin heals %d in its palace: %d/%d" % (h, c.tals[s].n, c.tals[s].cap))
    elif tal.role == ROLE_SIN and not c.x[X_PALACE]:
        tal.b += k
        if tal.b >= _RETREAT:
            tal.b = 0
            c.x[X_PALACE] = 1
            c.note("Sin retreats to its palace")


def on_fill(c, t, src):
    """Tension feeds pressure (by the CARRY link); hooks fire; the Sin falls."""
    tal = c.tals[t]
    r = tal.role
    if r == ROLE_TENSION:
        c.note("Tension full: pressure +1")
    elif r == ROLE_PRESSURE:
        c.note("Pressure full: the hunt is lost")
    elif r == ROLE_SIN:
        c.note("Sin talisman full: execute or spare")
    elif r == ROLE_HOOK:
        if 0 <= tal.owner < len(c.chars):
            _gain_pathos(c.chars[tal.owner])
        c.tals[t] = None
        c.note("Hook %s fills: its effect activates" % tal.name)
    elif r == ROLE_STRESS:
        c.note("%s fills: stress from the sheet brings injuries" % tal.name)
    elif r > ROLE_HOOK:
        # The afflictions and setups live apart (rules/hunt_more.py)
        # so that boot, which imports this module, does not load them: its
        # only name here is the module's (each name interned at boot costs).
        from . import hunt_more
        hunt_more.on_fill(c, t, src)


KIND_NAMES = ("ROLL", "RISK", "SCENE_END", "SCENE", "STRESS", "BURST", "HOOK", "REST",
              "KIT", "NEW_HUNT", "SESSION_END", "TRAUMA", "SIN_END", "PALACE", "WITNESS", "FACE")


def apply(c, kind, args, text, src):
    """Validate and apply one hunt event; returns its Outcome."""
    if not ROLL <= kind <= FACE:
        if kind == FACE + 1:  # AFFLICT
            from . import hunt_more
            return hunt_more.apply(c, kind, args, text, src)
        raise ValueError("unknown hunt event kind %d (hunt uses %d..%d)" % (kind, ROLL, FACE + 1))
    global _kind
    _kind = kind
    if kind == ROLL and len(args) > 7:  # a setup roll, or one that benefits from a setup
        from . import hunt_more
        return hunt_more.apply(c, kind, args, text, src)
    out = Outcome(kind)
    _APPLY[kind - ROLL](c, args, text, src, out)
    return out


def _roll(c, args, text, src, out):
    _need(args, 7, "char, skill, advantages, agony 0/1, removed dice, hard 0/1, target")
    i, skill, adv, agony, minus, hard, target = args
    core.flag("agony", agony)
    core.flag("hard", hard)
    ch = core.alive(c, i, DEAD) if i != -1 else None
    dice = 0
    if agony:
        if ch is None:
            raise ValueError("divine agony needs an exorcist")
        if ch.v[AGONY_USED]:
            raise ValueError("%s already used divine agony this session" % ch.name)
        if c.x[X_AGONY] not in (-1, i):
            raise ValueError("%s used divine agony this scene: one exorcist per scene"
                             % c.chars[c.x[X_AGONY]].name)
        if ch.v[PATHOS] < 1:
            raise ValueError("divine agony needs pathos; %s has none" % ch.name)
        dice = ch.v[PATHOS] if ch.v[PATHOS] < 3 else 3
    n = action_pool(skill, adv, dice, minus)
    if target != -1:
        tal = c.tal(target)
        if tal.role not in (ROLE_TASK, ROLE_SIN):
            raise ValueError("successes slash a task or the Sin, not %s" % tal.name)
        if tal.filled():
            raise ValueError("%s is already full" % tal.name)
        if tal.role == ROLE_SIN and c.x[X_OUTCOME]:
            raise ValueError("the Sin is already %s" % OUTCOMES[c.x[X_OUTCOME]])
    m = n if n > 0 else 2
    buf = bytearray(m)
    for k in range(m):
        buf[k] = src.d(6)
    s = evaluate(buf, n, hard, c.x[X_FACE])
    if agony:
        ch.v[AGONY_USED] = 1
        c.x[X_AGONY] = i
        c.note("%s divine agony +%dD" % (ch.name, dice))
    out.successes = s
    out.margin = s
    out.verdict = 1 if s else 0
    c.note("%dD%s%s: %d success%s" % (n if n > 0 else 0, " hard" if hard else "",
                                   " keep lower" if n <= 0 else "", s, "" if s == 1 else "es"))
    if target != -1:
        out.tal = target
    if s and target != -1:
        if c.tals[target].role == ROLE_SIN:
            _hit_sin(c, s, False, src)
        else:
            tl.slash(c, target, s, False, src)
        tal = c.tals[target]
        c.note("%s %d/%d" % (tal.name, tal.n, tal.cap))
    if not s and ch is not None:
        _gain_pathos(ch)
        c.note("%s pathos %d" % (ch.name, ch.v[PATHOS]))


def _risk(c, args, text, src, out):
    _need(args, 1, "the acting exorcist (or -1)")
    i = args[0]
    if i != -1:
        core.alive(c, i, DEAD)
    tension = _std(c, ROLE_TENSION)
    f = src.d(6)
    c.x[X_RISK] = f
    out.margin = f
    c.note("Risk die %d" % f)
    if f != 1:
        return
    if not c.x[X_COMBAT] and not c.x[X_RISKED]:
        c.x[X_RISKED] = 1
        tl.slash(c, tension, 1, False, src)
        c.note("Tension %d/%d" % (c.tals[tension].n, c.tals[tension].cap))
    if i != -1 and not c.chars[i].v[DEAD]:
        _slash_hooks(c, i, src)


def _scene_end(c, args, text, src, out):
    _need(args, 1, "next_combat 0/1")
    core.flag("next_combat", args[0])
    tension = _std(c, ROLE_TENSION)
    for i in range(len(c.chars)):
        ch = c.chars[i]
        if not ch.v[DEAD] and ch.v[SIN] >= _SIN_CAP:
            _overflow(c, i, src)
    if not c.x[X_COMBAT]:
        tl.slash(c, tension, 1, False, src)
        c.note("Tension %d/%d" % (c.tals[tension].n, c.tals[tension].cap))
    c.x[X_SCENE] += 1
    c.x[X_COMBAT] = args[0]
    c.x[X_RISKED] = 0
    c.x[X_AGONY] = -1
    c.note("Scene %d%s" % (c.x[X_SCENE], " (combat)" if args[0] else ""))


def _scene(c, args, text, src, out):
    _need(args, 1, "combat 0/1")
    core.flag("combat", args[0])
    c.x[X_COMBAT] = args[0]


def _stress(c, args, text, src, out):
    _need(args, 4, "char, stress, answer 0/1, defy 0/1")
    i, k, answer, defy = args
    ch = core.alive(c, i, DEAD)
    core.span("stress", k, 1, _MAX_STRESS)
    core.flag("answer", answer)
    core.flag("defy", defy)
    _stress_tal(c, i)
    if answer:
        if c.x[X_ANSWERED] - c.x[X_EXPENDED] < 1:
            raise ValueError("no unexpended trauma answer (%d answered, %d expended)"
                             % (c.x[X_ANSWERED], c.x[X_EXPENDED]))
        _std(c, ROLE_SIN)
        if c.x[X_OUTCOME]:
            raise ValueError("the Sin is already %s" % OUTCOMES[c.x[X_OUTCOME]])
    r = src.d(3) if answer else 0
    taken = k - r if k > r else 0
    lethal = taken >= _DEATH_STRESS or (taken and ch.v[BRINK])
    if defy and not lethal:
        raise ValueError("defying fate only avoids instant death; %d stress does not kill %s"
                         % (taken, ch.name))
    # Validated: change the state.
    if answer:
        c.x[X_EXPENDED] += 1
        c.note("Answer: stress -%d, Sin takes %d" % (r, r))
        _hit_sin(c, r, True, src)
    if not taken:
        c.note("%s takes no stress" % ch.name)
    elif lethal and defy:
        _set_injuries(c, i, ch.v[INJURIES] - 1 if ch.v[INJURIES] else 0)
        c.note("%s defies fate: injuries %d" % (ch.name, ch.v[INJURIES]))
        _overflow(c, i, src)
    elif lethal:
        ch.v[DEAD] = 1
        c.note("%s suffers instant death" % ch.name)
    else:
        _take_stress(c, i, taken)
    out.margin = taken


def _burst(c, args, text, src, out):
    _need(args, 2, "char, substitute 0/1")
    i, sub = args
    ch = core.alive(c, i, DEAD)
    core.flag("substitute", sub)
    if not sub:
        if ch.v[BURSTS] < 1:
            raise ValueError("%s has no psyche bursts left: substitute with sin" % ch.name)
        ch.v[BURSTS] -= 1
        c.note("%s bursts %d" % (ch.name, ch.v[BURSTS]))
        return
    if ch.v[SIN] >= _SIN_CAP:
        raise ValueError("%s is at the sin cap (%d)" % (ch.name, _SIN_CAP))
    g = src.d(3)
    ch.v[SIN] = ch.v[SIN] + g if ch.v[SIN] + g < _SIN_CAP else _SIN_CAP
    c.note("%s sin +%d: %d/%d" % (ch.name, g, ch.v[SIN], _SIN_CAP))
    if ch.v[SIN] >= _SIN_CAP:
        c.note("sin cap: overflow at end of scene")


def _hook(c, args, text, src, out):
    _need(args, 1, "char; text = hook name")
    i = args[0]
    core.alive(c, i, DEAD)
    if not text:
        raise ValueError("a hook needs a name")
    for t in _hooks(c, i):
        if c.tals[t].name == text:
            c.note("%s gains %s again" % (c.chars[i].name, text))
            out.tal = t
            tl.slash(c, t, 1, False, src)
            if c.tals[t] is not None:
                c.note("Hook %s %d/3" % (text, c.tals[t].n))
            return
    if not _has_room(c):
        raise ValueError("no room for another talisman (32): clear a hook first")
    out.tal = _new_tal(c, text, 3, ROLE_HOOK, i)
    c.note("Hook %s 0/3" % text)


def _rest(c, args, text, src, out):
    nc = len(c.chars)
    if len(args) != 2 * nc:
        raise ValueError("REST takes 2 spend codes per character (%d): 0 bursts, 1 stress, 2+t hook t"
                         % (2 * nc))
    pressure = _std(c, ROLE_PRESSURE)
    for j in range(len(args)):
        i = j // 2
        code = args[j]
        if c.chars[i].v[DEAD]:
            if code:
                raise ValueError("%s is dead: spend code must be 0" % c.chars[i].name)
        elif code >= REST_HOOK:
            t = code - REST_HOOK
            if not 0 <= t < len(c.tals) or c.tals[t] is None \
                    or c.tals[t].role != ROLE_HOOK or c.tals[t].owner != i:
                raise ValueError("code %d: talisman %d is not a hook of %s" % (code, t, c.chars[i].name))
        elif code < 0:
            raise ValueError("spend code %d: use 0 bursts, 1 stress, 2+t hook t" % code)
    tl.slash(c, pressure, 1, False, src)
    for j in range(len(args)):
        i = j // 2
        ch = c.chars[i]
        if ch.v[DEAD]:
            continue
        f = src.d(3)
        code = args[j]
        if code == REST_BURSTS:
            ch.v[BURSTS] = ch.v[BURSTS] + f if ch.v[BURSTS] + f < _BURSTS_START else _BURSTS_START
            c.note("%s %d: bursts %d" % (ch.name, f, ch.v[BURSTS]))
        elif code == REST_STRESS:
            st = _stress_tal(c, i)
            tl.unslash(st, f)
            c.note("%s %d: stress %d/%d" % (ch.name, f, st.n, st.cap))
        else:
            h = c.tals[code - REST_HOOK]
            if h is None or h.role != ROLE_HOOK or h.owner != i:
                c.note("%s %d: hook already fired" % (ch.name, f))  # the pressure step filled it
            else:
                tl.unslash(h, f)
                c.note("%s %d: hook %s %d/3" % (ch.name, f, h.name, h.n))


def _kit(c, args, text, src, out):
    _need(args, 2, "char, points; text = item")
    i, k = args
    ch = core.alive(c, i, DEAD)
    if not 1 <= k <= ch.v[KITP]:
        raise ValueError("%s has %d kit points; spend 1..%d" % (ch.name, ch.v[KITP], ch.v[KITP]))
    ch.v[KITP] -= k
    c.note("%s %s: kit %d" % (ch.name, text or "item", ch.v[KITP]))


def _new_hunt(c, args, text, src, out):
    _need(args, 2, "cat 0..20, in_palace 0/1")
    cat, inside = args
    core.span("CAT", cat, 0, _MAX_CAT)
    core.flag("in_palace", inside)
    room = MAX_TALS - len(c.tals) + sum(1 for t in c.tals if t is None)
    if room < 3 - sum(1 for r in (ROLE_PRESSURE, ROLE_TENSION, ROLE_SIN) if c.find(r) >= 0):
        raise ValueError("no room for the hunt's talismans: delete some")
    p = c.find(ROLE_PRESSURE)
    if p < 0:
        p = c.new_tal("Pressure", 6, tl.CLAMP, tl.NONE, ROLE_PRESSURE)
    if c.find(ROLE_TENSION) < 0:
        c.new_tal("Tension", 3, tl.CARRY, p, ROLE_TENSION)
    s = c.find(ROLE_SIN)
    if s < 0:
        s = c.new_tal("Sin", _SIN_BASE, tl.CLAMP, tl.NONE, ROLE_SIN)
    c.tals[p].n = 0
    c.tals[c.find(ROLE_TENSION)].n = 0
    sin = c.tals[s]
    sin.n = 0
    sin.a = cat
    sin.b = 0
    sin.cap = _SIN_BASE + cat
    x = c.x
    x[X_PALACE] = inside
    x[X_ANSWERED] = x[X_EXPENDED] = x[X_OUTCOME] = x[X_RISKED] = 0
    x[X_HUNT] += 1
    for ch in c.chars:
        ch.v[BURSTS] = _BURSTS_START
        ch.v[KITP] = _KIT_START
    for t in c.tals:  # the hunt's afflictions and setups end (rules/hunt_more.py)
        if t is not None and t.role > ROLE_HOOK:
            from . import hunt_more
            hunt_more.apply(c, NEW_HUNT, args, text, src)
            break
    c.note("Hunt %d: Sin CAT %d, capacity %d" % (x[X_HUNT], cat, sin.cap))


def _session_end(c, args, text, src, out):
    _need(args, 0, "no arguments")
    for ch in c.chars:
        ch.v[PATHOS] = 0
        ch.v[AGONY_USED] = 0
    c.x[X_AGONY] = -1
    c.x[X_SESSION] += 1
    c.note("Session %d ends: pathos lost" % c.x[X_SESSION])


def _trauma(c, args, text, src, out):
    _need(args, 0, "no arguments")
    if c.x[X_ANSWERED] >= 3:
        raise ValueError("all 3 trauma questions are already answered")
    c.x[X_ANSWERED] += 1
    c.note("Trauma answers %d/3" % c.x[X_ANSWERED])


def _sin_end(c, args, text, src, out):
    _need(args, 1, "spare 0/1")
    spare = args[0]
    core.flag("spare", spare)
    s = _std(c, ROLE_SIN)
    if c.x[X_OUTCOME]:
        raise ValueError("the Sin is already %s" % OUTCOMES[c.x[X_OUTCOME]])
    if not c.tals[s].filled():
        raise ValueError("the Sin's talisman is not full (%d/%d)" % (c.tals[s].n, c.tals[s].cap))
    if spare and c.x[X_ANSWERED] < 3:
        raise ValueError("sparing needs all 3 trauma answers (%d)" % c.x[X_ANSWERED])
    c.x[X_OUTCOME] = 2 if spare else 1
    c.note("Sin %s" % OUTCOMES[c.x[X_OUTCOME]])
    for i in range(len(c.chars)):
        ch = c.chars[i]
        ch.v[SIN] //= 2  # clears the larger half: rounds in the exorcists' favour
        _set_injuries(c, i, 0)
        _stress_tal(c, i).n = 0
        for t in _hooks(c, i):
            c.tals[t] = None
    for t in c.tals:  # the hunt's afflictions end
        if t is not None and t.role > ROLE_HOOK:
            from . import hunt_more
            hunt_more.apply(c, SIN_END, args, text, src)
            break


def _palace(c, args, text, src, out):
    _need(args, 1, "inside 0/1")
    inside = args[0]
    core.flag("inside", inside)
    s = _std(c, ROLE_SIN)
    if c.x[X_PALACE] == inside:
        raise ValueError("the Sin is already %s its palace" % ("in" if inside else "outside"))
    c.x[X_PALACE] = inside
    c.tals[s].b = 0  # a new outing counts its own 4 slashes
    c.note("Sin %s its palace" % ("returns to" if inside else "leaves"))


def _witness(c, args, text, src, out):
    _need(args, 1, "char")
    ch = core.alive(c, args[0], DEAD)
    _gain_pathos(ch)
    c.note("%s pathos %d" % (ch.name, ch.v[PATHOS]))


def _face(c, args, text, src, out):
    _need(args, 1, "face 2..6")
    core.span("success face", args[0], 2, 6)
    c.x[X_FACE] = args[0]
    c.note("Dice succeed on %d+" % args[0])


_APPLY = (_roll, _risk, _scene_end, _scene, _stress, _burst, _hook, _rest,
          _kit, _new_hunt, _session_end, _trauma, _sin_end, _palace, _witness, _face)
