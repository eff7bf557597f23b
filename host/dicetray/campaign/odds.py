"""Exact odds as fractions.Fraction, built on the firmware's integer core
(`dicetray.rules.odds`): the host and the device compute the same counts.

`tables()` gives every table the tray and the CLI use, keyed flat:
  ("dist", system, pool, hard)         -> tuple of P(exactly s successes), s = 0..max
  ("at_least", system, pool, hard, k)  -> P(at least k successes)
  ("versus", system, pool, other)      -> (P(win), P(tie), P(lose)), first pool's view
over hunt pools 0..9 (normal and hard, targets 1..9), paths pools 1..20
(help included; difficulty 1..7, opposed 1..20 x 1..20, the first pool
initiates) and
expedition pools 1..20 (Ob 1..30, versus 1..20 x 1..20: a character's
2 + Ability and helpers, a monster's Level 0..14 + 3 and its bonus dice).
"""

from fractions import Fraction

from ..rules import odds as core
from ..rules import systems

NAMES = core.NAMES

# What a pool and a target are made of, per system, for the messages of
# `dicetray odds` and `dicetray roll` (the ranges are core.POOL and
# core.TARGET; the parts are what the rules core accepts: hunt.action_pool,
# paths.pool, expedition.pool).
POOL_PARTS = (
    "skill 0..3 + advantages 0..3 + divine agony 0..3",
    "Skill 0..6 + Path 0..6, situation -2..+2, help up to +6",
    "2 + Ability 0..10 or a monster's Level 0..14 + 3, with bonus, penalty and helping dice",
)
TARGET_WHAT = ("the successes needed", "the difficulty", "the Obstacle")


def pool_error(system, pool):
    """None if `pool` is in the system's range, else the message naming it."""
    s = system_number(system)
    lo, hi = core.POOL[s]
    if lo <= pool <= hi:
        return None
    hint = ""
    if s == core.HUNT:
        hint = (
            "; a pool of 0 or fewer dice rolls 2d6 and keeps the lower: use 0"
            if pool < 0
            else "; 0 rolls 2d6 and keeps the lower"
        )
    return "--pool %d is outside %d..%d for %s (%s%s)" % (
        pool,
        lo,
        hi,
        NAMES[s],
        POOL_PARTS[s],
        hint,
    )


def target_error(system, target):
    """None if `target` is in the system's range, else the message naming it."""
    s = system_number(system)
    lo, hi = core.TARGET[s]
    if lo <= target <= hi:
        return None
    return "--target %d is outside %d..%d for %s (%s)" % (target, lo, hi, NAMES[s], TARGET_WHAT[s])


def system_number(system):
    """0, 1 or 2 for a system number or name; ValueError names the choices."""
    if isinstance(system, str):
        if system in NAMES:
            return NAMES.index(system)
        raise ValueError("unknown rule system %r: choose hunt, paths or expedition" % system)
    if system not in (0, 1, 2):
        raise ValueError("rule system %r is not one of 0 hunt, 1 paths, 2 expedition" % system)
    return system


def dice(system, hard=False):
    """(sides, per-face successes) of a die of `system` (0..2), hunt's hard
    table with `hard`: the faces the odds count, as the rules core has them."""
    m = systems.get(system)
    return m.SIDES, m.SUCCESS_HARD if hard and system == core.HUNT else m.SUCCESS


def _fractions(nums, den):
    return tuple(Fraction(x, den) for x in nums)


def distribution(system, pool, hard=False):
    """P(exactly s successes) for s = 0..max, as a tuple of Fractions."""
    s = system_number(system)
    d = core.dist(s, pool, int(hard))
    return _fractions(d, sum(d))


def p_at_least(system, pool, target, hard=False):
    """P(at least `target` successes) for a pool of `system`."""
    s = system_number(system)
    d = core.dist(s, pool, int(hard))
    return Fraction(core.p_at_least(d, target), sum(d))


def versus(system, pool, other):
    """(P(win), P(tie), P(lose)) of `pool` against `other`: expedition counts
    successes (equal = tie); paths is an opposed test with `pool` initiating
    (ties go to it, a double 12 wins outright unless both have one)."""
    s = system_number(system)
    _check_versus(s, pool, other)
    if s == core.PATHS:
        pa, da = core.paths_split(pool)
        pb, db = core.paths_split(other)
        nums = core.opposed(pa, da, pb, db)
    else:
        nums = core.compare(core.dist(s, pool), core.dist(s, other))
    return _fractions(nums, sum(nums))


def _check_versus(s, pool, other):
    rng = core.VERSUS[s]
    if rng is None:
        raise ValueError("%s has no versus roll" % NAMES[s])
    for n in (pool, other):
        if not rng[0] <= n <= rng[1]:
            raise ValueError("%s versus pool %d is outside %d..%d" % (NAMES[s], n, rng[0], rng[1]))


def _hards(s):
    return (False, True) if s == core.HUNT else (False,)


def tables():
    """Every table over the ranges in the module docstring (a flat dict).

    Each pool's distribution (and, for paths, its double-12 split) is
    computed once and reused by every target and every pairing."""
    out = {}
    for s in range(3):
        name = NAMES[s]
        lo, hi = core.POOL[s]
        tlo, thi = core.TARGET[s]
        dists = {}
        for hard in _hards(s):
            for n in range(lo, hi + 1):
                d = core.dist(s, n, int(hard))
                den = sum(d)
                dists[n, hard] = d
                out["dist", name, n, hard] = _fractions(d, den)
                # at-least numerators from the top down: one pass per pool
                tail = [0] * (len(d) + 1)
                for k in range(len(d) - 1, -1, -1):
                    tail[k] = tail[k + 1] + d[k]
                for k in range(tlo, thi + 1):
                    out["at_least", name, n, hard, k] = Fraction(tail[k] if k < len(d) else 0, den)
        rng = core.VERSUS[s]
        if rng is None:
            continue
        if s == core.PATHS:
            splits = {n: core.paths_split(n) for n in range(rng[0], rng[1] + 1)}
            for a in splits:
                pa, da = splits[a]
                for b in splits:
                    pb, db = splits[b]
                    nums = core.opposed(pa, da, pb, db)
                    out["versus", name, a, b] = _fractions(nums, sum(nums))
        else:
            for a in range(rng[0], rng[1] + 1):
                for b in range(rng[0], rng[1] + 1):
                    nums = core.compare(dists[a, False], dists[b, False])
                    out["versus", name, a, b] = _fractions(nums, sum(nums))
    return out


def opposed_table_bytes():
    """The win permille of every paths opposed pairing, 2 bytes big-endian
    each, row = initiator pool 1..20, column = opponent 1..20: the table
    firmware/rules/odds.py carries as _OPP (regenerate it from here)."""
    out = bytearray()
    lo, hi = core.VERSUS[core.PATHS]
    splits = {n: core.paths_split(n) for n in range(lo, hi + 1)}
    for a in range(lo, hi + 1):
        for b in range(lo, hi + 1):
            w = core.split3(*core.opposed(*splits[a], *splits[b]))[0]
            out += bytes((w >> 8, w & 255))
    return bytes(out)


def fraction_str(f):
    """'num/den' in lowest terms, always with a denominator: '1/1', '0/1'."""
    return "%d/%d" % (f.numerator, f.denominator)


def _be16(vals):
    out = bytearray()
    for v in vals:
        out += bytes((v >> 8, v & 255))
    return bytes(out)


def paths_target_table_bytes():
    """paths: permille of at least k successes with n d12, pool 1..20 (rows;
    the most a test can roll, help included) by difficulty 1..7, 2 bytes
    big-endian each: _PTG in firmware/rules/odds.py, computed here with the
    firmware's own integer code (`permille` of the exact counts)."""
    from ..rules import paths

    c = core.counts(12, paths.SUCCESS)
    vals = []
    for n in range(1, core.PATHS_MAX + 1):
        den = 12**n
        for k in range(1, 8):
            miss = sum(core.power(c, n, k - 1))
            vals.append(core.permille(den - miss, den))
    return _be16(vals)


def expedition_versus_table_bytes():
    """expedition versus: the builder's (win, tie) permille, pool 1..20
    (rows) against 1..20, 2 + 2 bytes big-endian: _EVS in
    firmware/rules/odds.py, computed by the firmware's own exact code."""
    from ..rules import expedition

    lo, hi = core.VERSUS[core.EXPEDITION]
    vals = []
    for a in range(lo, hi + 1):
        for b in range(lo, hi + 1):
            w, t, _l = core.builder_odds(core.EXPEDITION, a, 0, versus=b, table=expedition.SUCCESS)
            vals += [w, t]
    return _be16(vals)


def paths_help_table_bytes():
    """paths help: for h = 1..HELP_MAX helper d12 (rows), the chance of a
    bonus below b = 1..6 (the most Skill caps it at), times HELP_ONE,
    rounded half up, 2 bytes big-endian each: _PHL in
    firmware/rules/odds.py. Cumulative, so the rounded values stay in
    order and a bonus that cannot happen gets weight 0 exactly."""
    from ..rules import paths

    c = core.counts(12, paths.SUCCESS)
    one = core.HELP_ONE
    vals = []
    for h in range(1, core.HELP_MAX + 1):
        den = 12**h
        a = core.power(c, h, 5)  # shorter when h dice cannot reach 5
        below = 0
        for b in range(6):
            below += a[b] if b < len(a) else 0
            vals.append((2 * one * below + den) // (2 * den))
    return _be16(vals)


def coin_table_bytes():
    """Fair coins: for N = 1..COIN_N and k = N // 2 .. N - 1, how many of
    the 2**N outcomes show more than k heads, 5 bytes little-endian each:
    _COIN in firmware/rules/odds.py, from math.comb (independent of the
    firmware's code)."""
    from math import comb

    out = bytearray()
    for n in range(1, core.COIN_N + 1):
        for k in range(n // 2, n):
            out += sum(comb(n, j) for j in range(k + 1, n + 1)).to_bytes(5, "little")
    return bytes(out)


def table_source(name, data, per_line):
    """Python source of a bytes table for firmware/rules/odds.py."""
    rows = []
    for i in range(0, len(data), per_line):
        rows.append('    b"' + "".join("\\x%02x" % x for x in data[i : i + per_line]) + '"')
    return "%s = (\n" % name + "\n".join(rows) + "\n)\n"


def opposed_table_source():
    """Python source of _OPP for firmware/rules/odds.py (one row per line)."""
    return table_source("_OPP", opposed_table_bytes(), 2 * core.OPP_N)
