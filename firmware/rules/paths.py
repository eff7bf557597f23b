"""Rules of `paths` (seed text in shared/seeds/003): d12 pools, 7+ succeeds,
a 12 counts twice.

Events (kinds 64..95; docs/rules/paths.md has every reading):

    TEST      64  who, skill, path, situation, minus, difficulty, hidden[, help1[, help2]]
    OPPOSED   65  who, skill, path, situation, minus, opp_pool, initiator[, help1[, help2]]
    PRO_OPEN  66  who, difficulty, max_attempts, timeframe, hidden; text = name
    PRO_ROLL  67  t, skill, path, situation, minus[, help1[, help2]]
    COMBAT    68  on 0/1: a fight starts (1) or ends (0); text = its name
    PATH      69  who, path 0..5, its level, its five Skills' levels: the sheet

`helpN` is a helper's own pool (a shared action). Faces are drawn and
recorded in this order: helper 1, helper 2, the main pool, the opponent.

A prolonged test is a CLAMP talisman of role PROLONGED: cap = successes
required, n = successes so far, a = attempts made (+ FAILED_BIT),
b = max attempts (0: none) | timeframe << 7 | hidden << 9. Its status is
derived from those fields, so encode_state keeps it and core talisman
events (UNSLASH, TAL_CAP...) stay consistent with it. A fight is a
talisman of role FIGHT while it lasts (COMBAT 1 makes it, COMBAT 0 or a
TAL_DEL removes it): "only a simple prolonged test can be carried out
during combat", so PRO_ROLL then refuses a test whose timeframe is not a
turn. A talisman, not a counter: the state of every campaign that never
fought keeps its bytes.

The hot path (roll_pool, evaluate, twelves, pool, opposed_winner) allocates
nothing on MicroPython.
"""

from . import codec, core
from . import talisman as tl
from .core import Outcome

ID = 1
NAME = "paths"
KINDS = (64, 95)
# Open prolonged tests are counted from the talismans (open_tests) rather
# than kept in a counter that core events (TAL_DEL, UNSLASH) could not update.
CHAR_FIELDS = ()
COUNTERS = ()

SIDES = 12
# 7+ succeeds, a 12 counts twice.
SUCCESS = b"\x00\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01\x02"  # a literal: no call at boot

TEST = 64
OPPOSED = 65
PRO_OPEN = 66
PRO_ROLL = 67
# 68 COMBAT: rules/paths_more.py (loaded on first use, not at boot).

PROLONGED = 1          # talisman role of a prolonged test
# Role 2 (FIGHT): the fight under way, rules/paths_more.py.
FAILED_BIT = 128       # in a prolonged test's `a`: it failed
ST_OPEN, ST_SUCCEEDED, ST_FAILED = 0, 1, 2  # status()
TIMEFRAMES = ("turn", "hour", "day", "week")

# Defaults a campaign could change: the seed gives Paths 1..6 (0 is allowed
# for a pool with no Path, e.g. a creature); Skill levels are cut off in the
# seed, 0..6 keeps every pool within the 20-die buffer.
MAX_SKILL = 6
MAX_PATH = 6
MAX_SITUATION = 2
MAX_MINUS = 20
MAX_DIFFICULTY = 7     # basic test; 0 = automatic, no roll
MAX_POOL = 20          # dice.MAX_POOL: the preallocated buffer
MAX_HELPERS = 2
MAX_REQUIRED = tl.MAX_CAP  # a prolonged test's successes (may exceed 7)
MAX_ATTEMPTS = 64


def new_counters():
    return [0] * len(COUNTERS)


def new_char():
    return [0] * len(CHAR_FIELDS)


def setup(c):
    """No standing talismans: prolonged tests are opened by PRO_OPEN."""


def on_char(c, i):
    """Characters carry no talismans of their own in this system."""


def on_slash(c, t, k, src):
    """Nothing triggers on a slash: a prolonged test's status is derived."""


def on_fill(c, t, src):
    """A filled prolonged test has succeeded (status() reads it)."""


# --- hot path: no allocation ---------------------------------------------

def roll_pool(dice, buf, n):
    """Roll n d12 (1..MAX_POOL) into buf[0:n] with live Dice; return successes."""
    if n < 1 or n > MAX_POOL:
        raise ValueError("a pool is 1..%d dice, not %d" % (MAX_POOL, n))
    return dice.roll(12, n, buf, SUCCESS)


def evaluate(buf, n):
    """Successes in faces buf[0:n] (keyed in or rolled); ValueError on a non-d12 face."""
    if n < 0 or n > len(buf):
        raise ValueError("%d faces asked of a buffer of %d" % (n, len(buf)))
    s = 0
    for i in range(n):
        f = buf[i]
        if f < 1 or f > 12:
            raise ValueError("face %d is not a d12 face (1..12)" % f)
        s += SUCCESS[f]
    return s


def twelves(buf, n):
    """Number of 12s in buf[0:n]: two or more is a double 12."""
    k = 0
    for i in range(n):
        if buf[i] == 12:
            k += 1
    return k


def pool(skill, path, situation=0, minus=0):
    """Dice for a test: Skill + Path + situation (-2..+2) - minus, never below 1."""
    if skill < 0 or skill > MAX_SKILL:
        raise ValueError("Skill %d is not in 0..%d" % (skill, MAX_SKILL))
    if path < 0 or path > MAX_PATH:
        raise ValueError("Path %d is not in 0..%d" % (path, MAX_PATH))
    if situation < -MAX_SITUATION or situation > MAX_SITUATION:
        raise ValueError("situation modifier %d is not in -2..+2 dice" % situation)
    if minus < 0 or minus > MAX_MINUS:
        raise ValueError("negative conditions %d is not in 0..%d dice" % (minus, MAX_MINUS))
    n = skill + path + situation - minus
    return n if n > 1 else 1


def opposed_winner(succ_a, doubles_a, succ_b, doubles_b):
    """Winner of an opposed test: 0 the initiator (a), 1 the opponent (b).

    doubles = number of 12s rolled. A double 12 (two or more 12s) wins
    outright; if both sides have one, or neither, most successes wins and
    a tie goes to the initiator.
    """
    ca = doubles_a >= 2
    cb = doubles_b >= 2
    if ca != cb:
        return 0 if ca else 1
    return 0 if succ_a >= succ_b else 1


# --- status of prolonged tests ----------------------------------------------

def status(t):
    """ST_OPEN, ST_SUCCEEDED or ST_FAILED for a prolonged-test talisman."""
    if t.n >= t.cap:
        return ST_SUCCEEDED
    if t.a & FAILED_BIT:
        return ST_FAILED
    return ST_OPEN


def open_tests(c, owner=None):
    """How many prolonged tests are still open (of `owner`, if given): the home screen count."""
    k = 0
    for t in c.tals:
        if t is not None and t.role == PROLONGED and status(t) == ST_OPEN:
            if owner is None or t.owner == owner:
                k += 1
    return k


# --- events -----------------------------------------------------------------

def apply(c, kind, args, text, src):
    """Validate and apply one paths event; return its Outcome."""
    if kind == TEST:
        return _test(c, args, text, src)
    if kind == OPPOSED:
        return _opposed(c, args, text, src)
    if kind == PRO_OPEN:
        return _pro_open(c, args, text)
    if kind == PRO_ROLL:
        return _pro_roll(c, args, text, src)
    if kind > PRO_ROLL:  # COMBAT, PATH: rules/paths_more.py (only its module name is
        from . import paths_more  # interned here: boot imports this module)
        return paths_more.apply(c, kind, args, text, src)
    raise ValueError("unknown paths event kind %d (64 TEST, 65 OPPOSED, 66 PRO_OPEN, 67 PRO_ROLL,"
                     " 68 COMBAT, 69 PATH)" % kind)


def _nargs(args, lo, what):
    if len(args) > lo + MAX_HELPERS:
        raise ValueError("%s: at most %d helpers" % (what, MAX_HELPERS))
    if len(args) < lo:
        raise ValueError("%s takes %d arguments plus up to %d helper pools" % (what, lo, MAX_HELPERS))
    helpers = args[lo:]
    for h in helpers:
        if h < 1 or h > MAX_POOL:
            raise ValueError("a helper's pool is 1..%d dice, not %d" % (MAX_POOL, h))
    return helpers


def _who(c, who, text=""):
    """A label for the notes: the character's name (who = -1: none) and the text."""
    name = "" if who == tl.NONE else c.char(who).name
    if name and text:
        return name + " " + text
    return name or text or "test"


def _draw(src, n, faces):
    """Draw n d12 from src onto faces; return (successes, twelves) of them."""
    start = len(faces)
    for _ in range(n):
        faces.append(src.d(SIDES))
    part = faces[start:]
    return evaluate(part, n), twelves(part, n)


def _fits(skill, base, helpers, extra):
    """Refuse up front an action that could draw more faces than an event holds."""
    h = 0
    for x in helpers:
        h += x
    cap = skill if skill > 0 else 1
    most = h + base + (cap if 2 * h > cap else 2 * h) + extra
    if most > codec.MAX_FACES:
        raise ValueError("this test could draw %d dice; an event records at most %d: use smaller pools"
                         % (most, codec.MAX_FACES))


def _helped(src, skill, base, helpers, faces, out):
    """Roll the helpers, then the helped pool; return (successes, twelves, dice)."""
    bonus = 0
    for k, h in enumerate(helpers):
        s, _ = _draw(src, h, faces)
        bonus += s
        out.note("helper %d: %d dice, %d successes" % (k + 1, h, s))
    cap = skill if skill > 0 else 1
    if bonus > cap:
        out.note("help capped at +%d (Skill %d)" % (cap, skill))
        bonus = cap
    n = base + bonus  # <= 14 + MAX_SKILL = MAX_POOL by the limits above
    s, d = _draw(src, n, faces)
    return s, d, n


def _base(out, skill, path, situation, minus):
    n = pool(skill, path, situation, minus)
    if skill + path + situation - minus < 1:
        out.note("pool raised to 1 die")
    return n


def _test(c, args, text, src):
    helpers = _nargs(args, 7, "TEST")
    who, skill, path, situation, minus, diff, hidden = args[:7]
    name = _who(c, who, text)
    out = Outcome(TEST)
    base = _base(out, skill, path, situation, minus)
    if diff < 0 or diff > MAX_DIFFICULTY:
        raise ValueError("difficulty %d is not in 0 (automatic)..%d" % (diff, MAX_DIFFICULTY))
    core.flag("hidden", hidden)
    if diff == 0 and not hidden:
        # Trivial: no roll, so no helpers either. (A hidden one is rolled
        # anyway so that the players cannot tell; it always succeeds.)
        if helpers:
            raise ValueError("an automatic test (difficulty 0) rolls nothing: no helpers")
        out.verdict = 1
        out.note("%s: automatic success" % name)
        return out
    _fits(skill, base, helpers, 0)
    faces = bytearray()
    s, d, n = _helped(src, skill, base, helpers, faces, out)
    out.faces = bytes(faces)
    out.successes = s
    out.margin = s - diff
    out.verdict = 1 if s >= diff else 0
    out.hidden = hidden
    if hidden:
        # Neither the difficulty nor the verdict: the Exarch reads them
        # from the Outcome (verdict, margin) on the GM view.
        out.note("%s: %d dice, %d successes; difficulty hidden" % (name, n, s))
    else:
        out.note("%s: %d dice, %d/%d successes: %s by %d"
                 % (name, n, s, diff, "success" if out.verdict else "failure",
                    out.margin if out.margin >= 0 else -out.margin))
    return out


def _opposed(c, args, text, src):
    helpers = _nargs(args, 7, "OPPOSED")
    who, skill, path, situation, minus, opp, init = args[:7]
    name = _who(c, who, text)
    out = Outcome(OPPOSED)
    base = _base(out, skill, path, situation, minus)
    if opp < 1 or opp > MAX_POOL:
        raise ValueError("the opponent's pool is 1..%d dice, not %d" % (MAX_POOL, opp))
    if init not in (0, 1):
        raise ValueError("initiator is 0 (the player) or 1 (the opponent), not %d" % init)
    _fits(skill, base, helpers, opp)
    faces = bytearray()
    s, d, n = _helped(src, skill, base, helpers, faces, out)
    os_, od = _draw(src, opp, faces)
    out.faces = bytes(faces)
    out.successes = s
    out.margin = s - os_
    if init == 0:
        w = opposed_winner(s, d, os_, od)
    else:
        w = opposed_winner(os_, od, s, d)
    out.verdict = 1 if w == init else 0
    out.note("%s: %d dice, %d successes%s" % (name, n, s, " (double 12)" if d >= 2 else ""))
    out.note("opponent: %d dice, %d successes%s" % (opp, os_, " (double 12)" if od >= 2 else ""))
    out.note("%s %s" % (name, "wins" if out.verdict else "loses"))
    return out


def _pro_open(c, args, text):
    if len(args) != 5:
        raise ValueError("PRO_OPEN takes who, difficulty, max attempts, timeframe, hidden")
    who, need, most, frame, hidden = args
    _who(c, who)
    if not text:
        raise ValueError("a prolonged test needs a name (e.g. Healing)")
    if need < 1 or need > MAX_REQUIRED:
        raise ValueError("required successes %d is not in 1..%d" % (need, MAX_REQUIRED))
    if most < 0 or most > MAX_ATTEMPTS:
        raise ValueError("max attempts %d is not in 0 (none)..%d" % (most, MAX_ATTEMPTS))
    if frame < 0 or frame >= len(TIMEFRAMES):
        raise ValueError("timeframe %d is not 0 turn, 1 hour, 2 day or 3 week" % frame)
    core.flag("hidden", hidden)
    t = c.new_tal(text, need, tl.CLAMP, tl.NONE, PROLONGED, who, 0, most | (frame << 7) | (hidden << 9))
    out = Outcome(PRO_OPEN)
    out.hidden = hidden
    out.note("%s (1 %s%s) %s successes" % (text, TIMEFRAMES[frame],
                                           (", %d max." % most) if most else "",
                                           "?" if hidden else str(need)))
    out.tal = t  # the new talisman's index, for the UI
    return out


def _pro_roll(c, args, text, src):
    helpers = _nargs(args, 5, "PRO_ROLL")
    ti, skill, path, situation, minus = args[:5]
    t = c.tal(ti)
    if t.role != PROLONGED:
        raise ValueError("talisman %d is not a prolonged test" % ti)
    st = status(t)
    if st != ST_OPEN:
        raise ValueError("prolonged test %s already %s: open a new one"
                         % (t.name, "succeeded" if st == ST_SUCCEEDED else "failed"))
    if t.b & 384 and c.find(2) >= 0:  # not a 1-turn test (timeframe bits), and a FIGHT
        from . import paths_more
        paths_more.apply(c, PRO_ROLL, args, text, src)  # refuses it
    out = Outcome(PRO_ROLL)
    base = _base(out, skill, path, situation, minus)
    _fits(skill, base, helpers, 0)
    faces = bytearray()
    s, d, n = _helped(src, skill, base, helpers, faces, out)
    # Every face is drawn: now change the talisman.
    most = t.b & 127
    hidden = (t.b >> 9) & 1
    t.a += 1
    attempts = t.a & (FAILED_BIT - 1)
    total = t.n + s  # what was rolled: the talisman stops at its capacity
    if s:
        tl.slash(c, ti, s, False, src)
    if not s or (t.n < t.cap and most and attempts >= most):
        t.a |= FAILED_BIT
    out.faces = bytes(faces)
    out.successes = s
    out.margin = total - t.cap
    out.hidden = hidden
    st = status(t)
    out.verdict = 1 if st == ST_SUCCEEDED else (0 if st == ST_FAILED else 2)
    tries = ("%d/%d" % (attempts, most)) if most else str(attempts)
    out.note("%s: %d dice, %d successes, attempt %s" % (t.name, n, s, tries))
    if st == ST_SUCCEEDED:
        out.note("%s succeeded: %d/%d" % (t.name, total, t.cap))
    elif st == ST_FAILED:
        out.note("%s failed: %s" % (t.name, "0 successes" if not s else "no attempts left"))
    else:
        out.note("%s %d/%s" % (t.name, t.n, "?" if hidden else str(t.cap)))
    return out
