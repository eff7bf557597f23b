"""Exact odds of dice pools, in integers (runs on the device; the host builds
its Fraction tables on the same functions).

A distribution is a list `d` where d[s] counts the equally likely outcomes
(face tuples) of a pool that total s successes; sum(d) is the denominator
(sides**n, or 36 for hunt's 2d6-keep-lower roll). Probabilities are never
floats: a numerator over that denominator, shown as permille.

Pools are polynomial powers: n dice whose faces are worth 0, 1, 2...
successes with c[0], c[1], c[2]... faces have the distribution
(c[0] + c[1] x + c[2] x^2 ...)^n. `power` computes its coefficients with
J.C.P. Miller's recurrence, O(len(c)) work per coefficient instead of a
full convolution per die: on MicroPython every loop iteration costs about
1,500 fuel, and the roll builder calls `builder_odds` on each key press.

Integer size: builder_odds reduces per-die counts by their gcd (a d6 on 4+
is a coin, 1:1, so a 20-die pool is out of 2**20, not 6**20), so every
hunt figure and every expedition single pool (any Ob) stays below 2**30 on
the device. Exact paths counts pass 2**30 from 9 dice (12**9), and expedition
versus reaches 2**30 at 15 v 15: those are MicroPython long ints, in this
module only, never on the roll hot path. An exact paths opposed test costs
about 1.5 M fuel in long ints, over the builder's 800,000 budget, so
builder_odds reads it from _OPP (800 bytes, generated on the host from the
exact counts here); paths difficulty tests (_PTG, paths_at_least), the
paths help bonus (_PHL, paths_help) and expedition versus tests (_EVS)
are tables too, so no builder call reaches a long int with the rules' own
success tables. docs/odds.md has the measured fuel and heap.
"""

from .systems import get

HUNT = 0
PATHS = 1
EXPEDITION = 2
NAMES = ("hunt", "paths", "expedition")
# Ranges the builder and the host tables cover, per system: (low, high).
POOL = ((0, 9), (1, 20), (1, 20))  # every pool the rules accept (paths: help included)
TARGET = ((1, 9), (1, 7), (1, 30))  # expedition: Ob up to 30 (docs/rules/expedition.md)
VERSUS = (None, (1, 20), (1, 20))  # hunt has no versus roll
OPP_N = 20  # _OPP covers paths opposed pools 1..OPP_N against 1..OPP_N
EVS_N = 20  # _EVS covers expedition versus pools 1..EVS_N against 1..EVS_N
PATHS_MAX = 20  # the largest paths pool (help included): paths_at_least's range
HELP_MAX = 40   # paths helper dice at most: two helpers of 20 (paths_help's range)
HELP_ONE = 65535  # paths_help's weights sum to this


def counts(sides, table):
    """Per-die counts: c[v] = how many faces 1..sides have table[face] == v."""
    c = [0] * (max(table[1:sides + 1]) + 1)
    for f in range(1, sides + 1):
        c[table[f]] += 1
    return c


# (table, sides, counts, reduced counts) per die seen: a table is derived
# once, not on every key press; keyed by the table object itself.
_memo = []


def _die(sides, table):
    """(counts, reduced counts) of a d`sides` worth table[face], memoised."""
    for e in _memo:
        if e[0] is table and e[1] == sides:
            return e[2], e[3]
    c = counts(sides, table)
    r = reduce(c)
    if len(_memo) >= 12:  # bounded, in case a caller builds tables afresh
        _memo.pop(0)
    _memo.append((table, sides, c, r))
    return c, r


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def reduce(c):
    """c divided by the gcd of its entries: same odds, smaller numbers."""
    g = 0
    for x in c:
        g = _gcd(g, x)
    return [x // g for x in c]


def power(c, n, k=-1):
    """Coefficients 0..k (all when k < 0) of (c[0] + c[1] x + ...)**n: the
    success counts of n dice with per-die counts c, over sum(c)**n.

    Miller's recurrence (from P * (P**n)' = n P' * P**n):
    s c[0] a[s] = sum_i ((n + 1) i - s) c[i] a[s - i]; the division is exact.
    Needs c[0] > 0 (some face is worth nothing), true of every die here.
    Dice worth at most 1 or 2 successes get unrolled loops (fuel)."""
    m = len(c) - 1
    top = m * n
    if k < 0 or k > top:
        k = top
    p0 = c[0]
    if p0 <= 0:
        raise ValueError("power needs a face worth 0 successes")
    a = [0] * (k + 1)
    x1 = p0 ** n
    a[0] = x1
    n1 = n + 1
    if m == 1:
        c1 = c[1]
        for s in range(1, k + 1):
            x1 = x1 * (n1 - s) * c1 // (s * p0)
            a[s] = x1
    elif m == 2:
        c1 = c[1]
        c2 = c[2]
        x2 = 0
        for s in range(1, k + 1):
            x = ((n1 - s) * c1 * x1 + (n1 + n1 - s) * c2 * x2) // (s * p0)
            a[s] = x
            x2 = x1
            x1 = x
    else:
        for s in range(1, k + 1):
            t = 0
            i = 1
            while i <= m and i <= s:
                t += (n1 * i - s) * c[i] * a[s - i]
                i += 1
            a[s] = t // (s * p0)
    return a


def keep_lower(sides, table):
    """2 dice keep the lower: counts over sides**2 of table[lower face]."""
    d = [0] * (max(table[1:sides + 1]) + 1)
    for f in range(1, sides + 1):
        d[table[f]] += 2 * (sides - f) + 1  # pairs whose lower face is f
    return d


def _check(system, n, hard):
    if system < 0 or system > 2:
        raise ValueError("rule system %d is not one of 0 hunt, 1 paths, 2 expedition" % system)
    if hard and system != HUNT:
        raise ValueError("only hunt has hard rolls")
    lo, hi = POOL[system]
    if system == HUNT and n < 0:
        n = 0  # a pool of 0 or fewer dice rolls 2d6 keep lower
    if n < lo or n > hi:
        raise ValueError("%s pool %d is outside %d..%d" % (NAMES[system], n, lo, hi))
    return n


def _table(system, hard, table=None):
    # (sides, per-face success table): `table` overrides the default
    # (e.g. hunt.TABLES[face] for a campaign's own success face)
    m = get(system)  # only the systems asked about are ever imported
    if table is None or hard:
        table = m.SUCCESS_HARD if hard and system == HUNT else m.SUCCESS
    return m.SIDES, table


def dist(system, n, hard=0, table=None):
    """Success counts of an n-die pool of `system` (0 hunt, 1 paths,
    2 expedition), over total(system, n). hunt n <= 0: 2d6 keep lower.
    `table` (per-face successes) overrides the system's default."""
    n = _check(system, n, hard)
    sides, table = _table(system, hard, table)
    if n == 0:
        return keep_lower(sides, table)
    return power(_die(sides, table)[0], n)


def total(system, n):
    """The denominator of dist(system, n): sides**n (hunt n <= 0: 36)."""
    sides = _table(system, 0)[0]
    if system == HUNT and n <= 0:
        n = 2
    return sides ** n


def p_at_least(d, k):
    """Numerator of P(at least k successes) for distribution d."""
    if k < 0:
        k = 0
    t = 0
    for s in range(k, len(d)):
        t += d[s]
    return t


def compare(da, db):
    """(win, tie, lose) numerators over sum(da) * sum(db): more successes
    wins, equal successes tie. O(len) with a running count of B below."""
    win = tie = 0
    below = 0  # outcomes of B with fewer than s successes
    nb = len(db)
    for s in range(len(da)):
        b = db[s] if s < nb else 0
        a = da[s]
        if a:
            win += a * below
            tie += a * b
        below += b
    for s in range(len(da), nb):
        below += db[s]
    ta = 0
    for a in da:
        ta += a
    return win, tie, ta * below - win - tie


def paths_split(n, table=None):
    """(plain, double): the paths success counts of n d12 split by whether
    at least two dice show 12 (a "double 12"); plain + double = dist.

    Without the 12 face a die has counts q; a pool with no 12 is q**n and
    one with exactly one 12 is n x**v q**(n-1) (v = what a 12 is worth).
    `table` overrides paths.SUCCESS."""
    sides, default = _table(PATHS, 0)
    if table is None:
        table = default
    whole = power(_die(sides, table)[0], n)
    q = _die(sides - 1, table)[0]
    v = table[sides]
    plain = [0] * len(whole)
    q0 = q[0]
    if len(q) == 2:
        # q is a coin-like die: walk the binomial terms b = [x^j] q**n once;
        # n [x^j] q**(n-1) = b (n - j) / q0.
        q1 = q[1]
        b = q0 ** n
        for j in range(n + 1):
            plain[j] += b
            if j < n:
                plain[j + v] += b * (n - j) // q0
                b = b * (n - j) * q1 // ((j + 1) * q0)
    else:
        qn = power(q, n)
        for j in range(len(qn)):
            plain[j] = qn[j]
        if n >= 1:
            one = power(q, n - 1)
            for j in range(len(one)):
                plain[j + v] += n * one[j]
    for s in range(len(whole)):
        whole[s] -= plain[s]
    return plain, whole


def opposed(pa, da, pb, db):
    """paths opposed test from the initiator A's view: (win, 0, lose)
    numerators. A double 12 beats no double; otherwise (neither or both)
    more successes wins and a tie goes to the initiator, so there is no tie.
    pa, da / pb, db: paths_split of each pool. One pass, running sums."""
    win = 0
    cp = cd = 0  # B outcomes with at most s successes: plain, double
    ta = dta = 0  # A outcomes: all, with a double
    nb = len(pb)
    for s in range(len(pa)):
        if s < nb:
            cp += pb[s]
            cd += db[s]
        p = pa[s]
        d = da[s]
        win += p * cp + d * cd
        ta += p + d
        dta += d
    for s in range(len(pa), nb):
        cp += pb[s]
        cd += db[s]
    win += dta * cp  # A has a double 12, B has none
    return win, 0, ta * (cp + cd) - win


def permille(num, den):
    """round(1000 * num / den), half up, by long division so that den up to
    10**8 stays in small ints; a possible outcome never shows as 0 and an
    uncertain one never as 1000."""
    q, r = _pm(num, den)
    if r + r >= den:
        q += 1
    if q == 0 and num > 0:
        q = 1
    elif q == 1000 and num < den:
        q = 999
    return q


def _pm(num, den):
    # floor(1000 * num / den) and its remainder, three decimal digits.
    q = num // den
    r = num - q * den
    for _ in range(3):
        r *= 10
        t = r // den
        q = q * 10 + t
        r -= t * den
    return q, r


def split3(a, b, c):
    """Permille of three numerators over a + b + c, summing to exactly 1000
    (largest remainder: each is the floor or the ceiling of the exact value)."""
    den = a + b + c
    qa, ra = _pm(a, den)
    qb, rb = _pm(b, den)
    qc, rc = _pm(c, den)
    return largest_remainder(qa, ra, qb, rb, qc, rc)


def largest_remainder(qa, ra, qb, rb, qc, rc):
    """(qa, qb, qc) with the units they lack of 1000 (0, 1 or 2) handed to
    the largest remainders ra, rb, rc, ties to the first."""
    left = 1000 - qa - qb - qc
    while left > 0:
        if ra >= rb and ra >= rc:
            qa += 1
            ra = -1
        elif rb >= rc:
            qb += 1
            rb = -1
        else:
            qc += 1
            rc = -1
        left -= 1
    return qa, qb, qc


def fmt_permille(pm):
    """'87.5%' for 875 permille."""
    return "%d.%d%%" % (pm // 10, pm % 10)


def _system(system):
    if type(system) is str:
        for i in range(3):
            if NAMES[i] == system:
                return i
        raise ValueError("unknown rule system %r: choose hunt, paths or expedition" % system)
    return system


# paths opposed win permille, initiator pool 1..20 per line (row), opponent
# 1..20 across, 2 bytes big-endian each (every pool the rules accept: a
# test's 1..14 plus help, an opponent's 1..20): exact computation of a
# 12-vs-11 test costs about 1.5 M fuel in long ints, 20 v 20 far more; a
# call that looks it up about 35,000.
# Generated by dicetray.odds.opposed_table_source() for the SUCCESS table
# below; tests/host/test_odds_tables.py checks both still match.
_OPP_FOR = b"\x00\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01\x02"
_OPP = (
    b"\x02\xcb\x01\xe0\x01\x34\x00\xc0\x00\x75\x00\x46\x00\x29\x00\x18\x00\x0e\x00\x08\x00\x04\x00\x02\x00\x01\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x03\x48\x02\x8e\x01\xe1\x01\x54\x00\xe8\x00\x9b\x00\x66\x00\x43\x00\x2b\x00\x1d\x00\x13\x00\x0d\x00\x0a\x00\x08\x00\x06\x00\x05\x00\x05\x00\x04\x00\x04\x00\x04"
    b"\x03\x8f\x03\x08\x02\x71\x01\xe3\x01\x68\x01\x05\x00\xba\x00\x83\x00\x5c\x00\x41\x00\x2f\x00\x22\x00\x1a\x00\x15\x00\x11\x00\x0f\x00\x0d\x00\x0c\x00\x0b\x00\x0a"
    b"\x03\xb7\x03\x5a\x02\xe1\x02\x60\x01\xe4\x01\x76\x01\x1b\x00\xd3\x00\x9d\x00\x74\x00\x57\x00\x42\x00\x33\x00\x29\x00\x22\x00\x1d\x00\x1a\x00\x17\x00\x15\x00\x13"
    b"\x03\xce\x03\x8f\x03\x33\x02\xc5\x02\x52\x01\xe4\x01\x82\x01\x2e\x00\xe9\x00\xb4\x00\x8b\x00\x6c\x00\x55\x00\x45\x00\x39\x00\x31\x00\x2a\x00\x26\x00\x22\x00\x1f"
    b"\x03\xda\x03\xb0\x03\x6c\x03\x14\x02\xaf\x02\x48\x01\xe5\x01\x8b\x01\x3d\x00\xfd\x00\xc9\x00\xa0\x00\x80\x00\x69\x00\x57\x00\x49\x00\x3f\x00\x38\x00\x32\x00\x2d"
    b"\x03\xe0\x03\xc5\x03\x93\x03\x4e\x02\xfa\x02\x9d\x02\x3f\x01\xe5\x01\x92\x01\x4a\x01\x0d\x00\xdb\x00\xb3\x00\x93\x00\x7b\x00\x68\x00\x59\x00\x4e\x00\x45\x00\x3e"
    b"\x03\xe4\x03\xd1\x03\xad\x03\x77\x03\x33\x02\xe3\x02\x8e\x02\x37\x01\xe5\x01\x99\x01\x56\x01\x1c\x00\xec\x00\xc5\x00\xa5\x00\x8c\x00\x78\x00\x68\x00\x5c\x00\x52"
    b"\x03\xe6\x03\xd8\x03\xbe\x03\x94\x03\x5d\x03\x1b\x02\xcf\x02\x80\x02\x31\x01\xe5\x01\x9f\x01\x60\x01\x29\x00\xfb\x00\xd5\x00\xb5\x00\x9b\x00\x87\x00\x76\x00\x69"
    b"\x03\xe7\x03\xdd\x03\xc8\x03\xa8\x03\x7c\x03\x45\x03\x05\x02\xbe\x02\x75\x02\x2b\x01\xe5\x01\xa4\x01\x69\x01\x35\x01\x08\x00\xe3\x00\xc3\x00\xaa\x00\x94\x00\x83"
    b"\x03\xe7\x03\xdf\x03\xcf\x03\xb6\x03\x93\x03\x65\x03\x2f\x02\xf1\x02\xaf\x02\x6b\x02\x26\x01\xe5\x01\xa8\x01\x70\x01\x3f\x01\x14\x00\xef\x00\xd0\x00\xb6\x00\xa1"
    b"\x03\xe8\x03\xe1\x03\xd4\x03\xbf\x03\xa2\x03\x7d\x03\x50\x03\x1b\x02\xe0\x02\xa2\x02\x62\x02\x22\x01\xe5\x01\xac\x01\x77\x01\x48\x01\x1f\x00\xfb\x00\xdc\x00\xc1"
    b"\x03\xe8\x03\xe2\x03\xd7\x03\xc6\x03\xae\x03\x8f\x03\x69\x03\x3c\x03\x09\x02\xd1\x02\x96\x02\x5a\x02\x1f\x01\xe5\x01\xaf\x01\x7d\x01\x50\x01\x28\x01\x04\x00\xe6"
    b"\x03\xe8\x03\xe3\x03\xd9\x03\xca\x03\xb6\x03\x9c\x03\x7c\x03\x56\x03\x2a\x02\xf9\x02\xc4\x02\x8c\x02\x54\x02\x1c\x01\xe5\x01\xb2\x01\x82\x01\x57\x01\x30\x01\x0d"
    b"\x03\xe8\x03\xe3\x03\xda\x03\xcd\x03\xbc\x03\xa5\x03\x8a\x03\x6a\x03\x44\x03\x19\x02\xea\x02\xb8\x02\x83\x02\x4e\x02\x19\x01\xe5\x01\xb4\x01\x87\x01\x5d\x01\x36"
    b"\x03\xe8\x03\xe4\x03\xdb\x03\xcf\x03\xc0\x03\xad\x03\x95\x03\x79\x03\x59\x03\x34\x03\x0b\x02\xde\x02\xae\x02\x7c\x02\x49\x02\x17\x01\xe6\x01\xb7\x01\x8b\x01\x62"
    b"\x03\xe8\x03\xe4\x03\xdc\x03\xd1\x03\xc3\x03\xb2\x03\x9e\x03\x86\x03\x6a\x03\x4a\x03\x26\x02\xfe\x02\xd3\x02\xa5\x02\x75\x02\x45\x02\x15\x01\xe6\x01\xb9\x01\x8e"
    b"\x03\xe8\x03\xe4\x03\xdd\x03\xd3\x03\xc6\x03\xb7\x03\xa5\x03\x90\x03\x77\x03\x5b\x03\x3c\x03\x19\x02\xf3\x02\xc9\x02\x9d\x02\x70\x02\x42\x02\x14\x01\xe6\x01\xba"
    b"\x03\xe8\x03\xe4\x03\xde\x03\xd4\x03\xc8\x03\xba\x03\xaa\x03\x97\x03\x82\x03\x6a\x03\x4f\x03\x30\x03\x0e\x02\xe9\x02\xc1\x02\x97\x02\x6b\x02\x3f\x02\x12\x01\xe7"
    b"\x03\xe8\x03\xe5\x03\xde\x03\xd5\x03\xca\x03\xbe\x03\xaf\x03\x9e\x03\x8b\x03\x76\x03\x5e\x03\x43\x03\x25\x03\x04\x02\xe0\x02\xba\x02\x91\x02\x67\x02\x3c\x02\x11"
)


# The two other long-int cases of the builder, looked up the same way
# (dicetray.odds.paths_target_table_bytes / expedition_versus_table_bytes
# generate them with the exact code below, given an explicit table; the
# host tests check they still match): paths, permille of at least k
# successes, pool 1..20 (row: the builder's 1..12, and the pools help can
# make) by difficulty 1..7, 2 bytes each (an exact 12-die call costs
# ~200,000 fuel, 20 dice far more); expedition versus, (win, tie)
# permille, pool 1..20 (row) against 1..20, 4 bytes each (20 v 20
# exactly: see docs/odds.md). A lookup costs ~25,000.
_PTG = (
    b"\x01\xf4\x00\x53\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x02\xee\x01\x4d\x00\x4c\x00\x07\x00\x00\x00\x00\x00\x00"
    b"\x03\x6b\x02\x33\x00\xf0\x00\x3f\x00\x09\x00\x01\x00\x00"
    b"\x03\xaa\x02\xd9\x01\xab\x00\xb2\x00\x33\x00\x09\x00\x01"
    b"\x03\xc9\x03\x47\x02\x53\x01\x48\x00\x87\x00\x29\x00\x09"
    b"\x03\xd8\x03\x8a\x02\xd8\x01\xe2\x00\xfe\x00\x68\x00\x21"
    b"\x03\xe0\x03\xb3\x03\x38\x02\x6c\x01\x84\x00\xc6\x00\x51"
    b"\x03\xe4\x03\xca\x03\x79\x02\xdc\x02\x09\x01\x38\x00\x9b"
    b"\x03\xe6\x03\xd7\x03\xa4\x03\x31\x02\x80\x01\xb2\x00\xfb"
    b"\x03\xe7\x03\xdf\x03\xbf\x03\x6f\x02\xe2\x02\x28\x01\x68"
    b"\x03\xe7\x03\xe3\x03\xcf\x03\x99\x03\x2f\x02\x91\x01\xd7"
    b"\x03\xe7\x03\xe5\x03\xda\x03\xb6\x03\x69\x02\xe9\x02\x41"
    b"\x03\xe7\x03\xe7\x03\xe0\x03\xc9\x03\x92\x03\x2f\x02\xa0"
    b"\x03\xe7\x03\xe7\x03\xe3\x03\xd5\x03\xaf\x03\x65\x02\xf0"
    b"\x03\xe7\x03\xe7\x03\xe5\x03\xdc\x03\xc3\x03\x8d\x03\x31"
    b"\x03\xe7\x03\xe7\x03\xe6\x03\xe1\x03\xd1\x03\xab\x03\x64"
    b"\x03\xe7\x03\xe7\x03\xe7\x03\xe4\x03\xd9\x03\xbf\x03\x8a"
    b"\x03\xe7\x03\xe7\x03\xe7\x03\xe6\x03\xdf\x03\xcd\x03\xa7"
    b"\x03\xe7\x03\xe7\x03\xe7\x03\xe7\x03\xe2\x03\xd6\x03\xbb"
    b"\x03\xe7\x03\xe7\x03\xe7\x03\xe7\x03\xe5\x03\xdd\x03\xca"
)

_EVS = (
    b"\x00\xfa\x01\xf4\x00\x7d\x01\x77\x00\x3f\x00\xfa\x00\x1f\x00\x9c\x00\x10\x00\x5e\x00\x08\x00\x37\x00\x04\x00\x1f\x00\x02\x00\x12\x00\x01\x00\x0a\x00\x01\x00\x05\x00\x00\x00\x03\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x01\xf4\x01\x77\x01\x39\x01\x77\x00\xbc\x01\x38\x00\x6e\x00\xea\x00\x3f\x00\xa4\x00\x23\x00\x6d\x00\x14\x00\x46\x00\x0b\x00\x2c\x00\x06\x00\x1b\x00\x03\x00\x10\x00\x02\x00\x09\x00\x01\x00\x06\x00\x01\x00\x03\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x02\xb0\x00\xfa\x01\xf4\x01\x39\x01\x58\x01\x38\x00\xe3\x01\x11\x00\x90\x00\xdb\x00\x5a\x00\xa4\x00\x37\x00\x75\x00\x21\x00\x50\x00\x13\x00\x36\x00\x0b\x00\x23\x00\x07\x00\x16\x00\x04\x00\x0e\x00\x02\x00\x09\x00\x01\x00\x05\x00\x01\x00\x03\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x03\x2d\x00\x9c\x02\x90\x00\xeb\x01\xf4\x01\x11\x01\x6b\x01\x12\x00\xfe\x00\xf6\x00\xac\x00\xcd\x00\x71\x00\xa1\x00\x49\x00\x79\x00\x2e\x00\x57\x00\x1d\x00\x3d\x00\x11\x00\x2a\x00\x0b\x00\x1c\x00\x06\x00\x12\x00\x04\x00\x0c\x00\x02\x00\x07\x00\x01\x00\x05\x00\x01\x00\x03\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x01"
    b"\x03\x7b\x00\x5e\x03\x05\x00\xa4\x02\x7d\x00\xdb\x01\xf4\x00\xf6\x01\x79\x00\xf6\x01\x12\x00\xe2\x00\xc2\x00\xc1\x00\x85\x00\x9d\x00\x5a\x00\x7a\x00\x3b\x00\x5c\x00\x26\x00\x43\x00\x19\x00\x2f\x00\x0f\x00\x21\x00\x0a\x00\x16\x00\x06\x00\x0f\x00\x03\x00\x0a\x00\x02\x00\x06\x00\x01\x00\x04\x00\x01\x00\x02\x00\x00\x00\x02"
    b"\x03\xa9\x00\x37\x03\x58\x00\x6d\x02\xea\x00\xa4\x02\x6f\x00\xcd\x01\xf4\x00\xe2\x01\x83\x00\xe2\x01\x23\x00\xd1\x00\xd4\x00\xb7\x00\x97\x00\x99\x00\x69\x00\x7a\x00\x48\x00\x5e\x00\x30\x00\x47\x00\x20\x00\x34\x00\x15\x00\x25\x00\x0d\x00\x1a\x00\x08\x00\x12\x00\x05\x00\x0c\x00\x03\x00\x08\x00\x02\x00\x05\x00\x01\x00\x04"
    b"\x03\xc5\x00\x1f\x03\x8e\x00\x46\x03\x3c\x00\x75\x02\xd6\x00\xa1\x02\x65\x00\xc1\x01\xf4\x00\xd1\x01\x8b\x00\xd2\x01\x30\x00\xc4\x00\xe3\x00\xaf\x00\xa6\x00\x94\x00\x77\x00\x79\x00\x54\x00\x60\x00\x3a\x00\x4a\x00\x27\x00\x38\x00\x1a\x00\x29\x00\x11\x00\x1d\x00\x0b\x00\x15\x00\x07\x00\x0e\x00\x05\x00\x0a\x00\x03\x00\x07"
    b"\x03\xd4\x00\x12\x03\xb1\x00\x2c\x03\x77\x00\x50\x03\x26\x00\x79\x02\xc6\x00\x9d\x02\x5d\x00\xb7\x01\xf4\x00\xc4\x01\x92\x00\xc4\x01\x3b\x00\xb9\x00\xf0\x00\xa7\x00\xb4\x00\x90\x00\x84\x00\x78\x00\x5f\x00\x61\x00\x43\x00\x4c\x00\x2f\x00\x3a\x00\x20\x00\x2c\x00\x16\x00\x20\x00\x0f\x00\x17\x00\x0a\x00\x10\x00\x06\x00\x0c"
    b"\x03\xdd\x00\x0a\x03\xc7\x00\x1b\x03\x9f\x00\x36\x03\x63\x00\x57\x03\x14\x00\x7a\x02\xb8\x00\x99\x02\x56\x00\xaf\x01\xf4\x00\xb9\x01\x97\x00\xba\x01\x44\x00\xb0\x00\xfc\x00\xa0\x00\xc0\x00\x8c\x00\x8f\x00\x77\x00\x69\x00\x61\x00\x4c\x00\x4e\x00\x36\x00\x3d\x00\x26\x00\x2e\x00\x1a\x00\x23\x00\x12\x00\x1a\x00\x0c\x00\x13"
    b"\x03\xe2\x00\x05\x03\xd5\x00\x10\x03\xba\x00\x23\x03\x8e\x00\x3d\x03\x51\x00\x5c\x03\x05\x00\x7a\x02\xae\x00\x94\x02\x51\x00\xa7\x01\xf4\x00\xb0\x01\x9c\x00\xb0\x01\x4c\x00\xa8\x01\x06\x00\x9a\x00\xcb\x00\x88\x00\x9a\x00\x75\x00\x73\x00\x61\x00\x54\x00\x4f\x00\x3d\x00\x3f\x00\x2c\x00\x31\x00\x1f\x00\x25\x00\x15\x00\x1c"
    b"\x03\xe5\x00\x03\x03\xdd\x00\x09\x03\xcb\x00\x16\x03\xad\x00\x2a\x03\x7f\x00\x43\x03\x42\x00\x5e\x02\xf8\x00\x79\x02\xa4\x00\x90\x02\x4c\x00\xa0\x01\xf4\x00\xa8\x01\xa0\x00\xa8\x01\x53\x00\xa1\x01\x0f\x00\x95\x00\xd4\x00\x85\x00\xa4\x00\x73\x00\x7c\x00\x61\x00\x5c\x00\x50\x00\x44\x00\x40\x00\x31\x00\x33\x00\x23\x00\x28"
    b"\x03\xe6\x00\x02\x03\xe1\x00\x06\x03\xd6\x00\x0e\x03\xc1\x00\x1c\x03\xa0\x00\x2f\x03\x71\x00\x47\x03\x34\x00\x60\x02\xec\x00\x78\x02\x9c\x00\x8c\x02\x48\x00\x9a\x01\xf4\x00\xa1\x01\xa4\x00\xa1\x01\x59\x00\x9b\x01\x17\x00\x90\x00\xdd\x00\x82\x00\xad\x00\x71\x00\x84\x00\x61\x00\x64\x00\x51\x00\x4b\x00\x42\x00\x37\x00\x35"
    b"\x03\xe7\x00\x01\x03\xe4\x00\x03\x03\xdd\x00\x09\x03\xd0\x00\x12\x03\xb8\x00\x21\x03\x94\x00\x34\x03\x64\x00\x4a\x03\x28\x00\x61\x02\xe2\x00\x77\x02\x95\x00\x88\x02\x44\x00\x95\x01\xf4\x00\x9b\x01\xa7\x00\x9b\x01\x5f\x00\x95\x01\x1e\x00\x8b\x00\xe5\x00\x7e\x00\xb5\x00\x6f\x00\x8d\x00\x60\x00\x6c\x00\x51\x00\x51\x00\x43"
    b"\x03\xe8\x00\x00\x03\xe6\x00\x02\x03\xe2\x00\x05\x03\xd8\x00\x0c\x03\xc8\x00\x16\x03\xae\x00\x25\x03\x89\x00\x38\x03\x59\x00\x4c\x03\x1e\x00\x61\x02\xd9\x00\x75\x02\x8f\x00\x85\x02\x41\x00\x90\x01\xf4\x00\x95\x01\xa9\x00\x96\x01\x64\x00\x90\x01\x24\x00\x88\x00\xed\x00\x7b\x00\xbc\x00\x6e\x00\x94\x00\x5f\x00\x73\x00\x51"
    b"\x03\xe8\x00\x00\x03\xe7\x00\x01\x03\xe4\x00\x03\x03\xdf\x00\x07\x03\xd3\x00\x0f\x03\xc1\x00\x1a\x03\xa5\x00\x29\x03\x7f\x00\x3a\x03\x4e\x00\x4e\x03\x14\x00\x61\x02\xd1\x00\x73\x02\x89\x00\x82\x02\x3f\x00\x8b\x01\xf4\x00\x90\x01\xac\x00\x90\x01\x68\x00\x8c\x01\x2a\x00\x84\x00\xf3\x00\x79\x00\xc4\x00\x6c\x00\x9b\x00\x5f"
    b"\x03\xe8\x00\x00\x03\xe7\x00\x01\x03\xe6\x00\x02\x03\xe2\x00\x05\x03\xdb\x00\x0a\x03\xce\x00\x12\x03\xba\x00\x1d\x03\x9c\x00\x2c\x03\x75\x00\x3d\x03\x45\x00\x4f\x03\x0b\x00\x61\x02\xca\x00\x71\x02\x85\x00\x7e\x02\x3c\x00\x88\x01\xf4\x00\x8c\x01\xae\x00\x8c\x01\x6c\x00\x88\x01\x30\x00\x80\x00\xfa\x00\x76\x00\xcb\x00\x6a"
    b"\x03\xe8\x00\x00\x03\xe8\x00\x00\x03\xe7\x00\x01\x03\xe4\x00\x03\x03\xe0\x00\x06\x03\xd7\x00\x0c\x03\xc8\x00\x15\x03\xb2\x00\x20\x03\x94\x00\x2e\x03\x6c\x00\x3f\x03\x3c\x00\x50\x03\x03\x00\x61\x02\xc4\x00\x6f\x02\x80\x00\x7b\x02\x3a\x00\x84\x01\xf4\x00\x88\x01\xb0\x00\x88\x01\x70\x00\x84\x01\x35\x00\x7d\x01\x00\x00\x74"
    b"\x03\xe8\x00\x00\x03\xe8\x00\x00\x03\xe7\x00\x01\x03\xe6\x00\x02\x03\xe3\x00\x04\x03\xdd\x00\x08\x03\xd3\x00\x0e\x03\xc2\x00\x17\x03\xab\x00\x23\x03\x8b\x00\x31\x03\x64\x00\x40\x03\x33\x00\x51\x02\xfb\x00\x60\x02\xbe\x00\x6e\x02\x7c\x00\x79\x02\x38\x00\x80\x01\xf4\x00\x84\x01\xb2\x00\x84\x01\x73\x00\x81\x01\x3a\x00\x7a"
    b"\x03\xe8\x00\x00\x03\xe8\x00\x00\x03\xe8\x00\x00\x03\xe7\x00\x01\x03\xe5\x00\x02\x03\xe1\x00\x05\x03\xd9\x00\x0a\x03\xce\x00\x10\x03\xbc\x00\x1a\x03\xa4\x00\x25\x03\x84\x00\x33\x03\x5b\x00\x42\x03\x2b\x00\x51\x02\xf5\x00\x5f\x02\xb8\x00\x6c\x02\x78\x00\x76\x02\x36\x00\x7d\x01\xf4\x00\x81\x01\xb4\x00\x80\x01\x77\x00\x7d"
    b"\x03\xe8\x00\x00\x03\xe8\x00\x00\x03\xe8\x00\x00\x03\xe7\x00\x01\x03\xe6\x00\x02\x03\xe3\x00\x04\x03\xde\x00\x07\x03\xd6\x00\x0c\x03\xc9\x00\x13\x03\xb7\x00\x1c\x03\x9d\x00\x28\x03\x7c\x00\x35\x03\x54\x00\x43\x03\x24\x00\x51\x02\xee\x00\x5f\x02\xb3\x00\x6a\x02\x74\x00\x74\x02\x34\x00\x7a\x01\xf4\x00\x7d\x01\xb5\x00\x7e"
)

# paths help (dicetray.odds.paths_help_table_bytes): for 1..40 helper d12
# (row), the chance of fewer than b = 1..6 successes times HELP_ONE, 2
# bytes each (exact, those pools are long ints: ~170,000 fuel at 39 dice).
_PHL = (
    b"\x80\x00\xea\xaa\xff\xff\xff\xff\xff\xff\xff\xff"
    b"\x40\x00\xaa\xaa\xec\x71\xfe\x38\xff\xff\xff\xff"
    b"\x20\x00\x70\x00\xc2\xaa\xef\xd9\xfd\xa0\xff\xd9"
    b"\x10\x00\x45\x55\x92\xaa\xd2\x5e\xf2\xf9\xfd\x97"
    b"\x08\x00\x29\x55\x67\x8e\xac\x12\xdd\x5c\xf5\x90"
    b"\x04\x00\x18\x00\x45\xaa\x84\xa1\xbf\x02\xe5\x5b"
    b"\x02\x00\x0d\xab\x2d\x2a\x61\x57\x9c\x92\xcd\x51"
    b"\x01\x00\x07\xab\x1c\x72\x44\xa1\x7a\x9c\xb0\x02"
    b"\x00\x80\x04\x40\x11\x80\x2e\xce\x5c\x45\x90\xcf"
    b"\x00\x40\x02\x55\x0a\x90\x1f\x0c\x43\x18\x72\xc0"
    b"\x00\x20\x01\x45\x06\x46\x14\x1f\x2f\x5d\x57\xeb"
    b"\x00\x10\x00\xb0\x03\xad\x0c\xc8\x20\x97\x41\x5f"
    b"\x00\x08\x00\x5f\x02\x21\x07\xfb\x15\xed\x2f\x54"
    b"\x00\x04\x00\x33\x01\x39\x04\xe8\x0e\x77\x21\x77"
    b"\x00\x02\x00\x1b\x00\xb2\x02\xfb\x09\x61\x17\x2b"
    b"\x00\x01\x00\x0e\x00\x64\x01\xca\x05\xfd\x0f\xbe"
    b"\x00\x00\x00\x08\x00\x38\x01\x10\x03\xc6\x0a\x84"
    b"\x00\x00\x00\x04\x00\x1f\x00\xa0\x02\x59\x06\xeb"
    b"\x00\x00\x00\x02\x00\x11\x00\x5d\x01\x72\x04\x7d"
    b"\x00\x00\x00\x01\x00\x0a\x00\x36\x00\xe1\x02\xe0"
    b"\x00\x00\x00\x01\x00\x05\x00\x1f\x00\x88\x01\xd3"
    b"\x00\x00\x00\x00\x00\x03\x00\x12\x00\x51\x01\x24"
    b"\x00\x00\x00\x00\x00\x02\x00\x0a\x00\x30\x00\xb6"
    b"\x00\x00\x00\x00\x00\x01\x00\x06\x00\x1d\x00\x70"
    b"\x00\x00\x00\x00\x00\x00\x00\x03\x00\x11\x00\x44"
    b"\x00\x00\x00\x00\x00\x00\x00\x02\x00\x0a\x00\x29"
    b"\x00\x00\x00\x00\x00\x00\x00\x01\x00\x06\x00\x19"
    b"\x00\x00\x00\x00\x00\x00\x00\x01\x00\x03\x00\x0f"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x09"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x05"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x03"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)


def paths_at_least(n, k, weights=None):
    """paths: permille of at least k (1..7) successes with n (1..20) d12 on
    the rules' success table, rounded as builder_odds rounds (a table
    lookup: no long ints). With `weights`: the sum of weights[b] times that
    permille for n + b dice (a mixture over a help bonus, one call)."""
    top = n if weights is None else n + len(weights) - 1
    if not 1 <= n <= top <= PATHS_MAX or not 1 <= k <= 7:
        raise ValueError("paths pool %d..%d / difficulty %d is outside 1..%d / 1..7"
                         % (n, top, k, PATHS_MAX))
    i = ((n - 1) * 7 + k - 1) * 2
    if weights is None:
        return _PTG[i] << 8 | _PTG[i + 1]
    acc = 0
    for w in weights:
        acc += w * (_PTG[i] << 8 | _PTG[i + 1])
        i += 14  # the next pool's row
    return acc


def paths_opposed(n, opp, init=0, weights=None):
    """paths opposed, on the rules' success table: the permille that the
    side with n (1..OPP_N) dice wins against opp dice (init 0: that side
    initiates, 1: the opponent does), as builder_odds gives it (a _OPP
    lookup). With `weights`: the sum of weights[b] times that permille for
    n + b dice (a mixture over a help bonus, one call: the builder's
    opposed line with helpers, no builder_odds call per bonus)."""
    top = n if weights is None else n + len(weights) - 1
    if not 1 <= n <= top <= OPP_N or not 1 <= opp <= OPP_N:
        raise ValueError("paths opposed pools %d..%d v %d are outside 1..%d" % (n, top, opp, OPP_N))
    if init:
        i = ((opp - 1) * OPP_N + n - 1) * 2  # the opponent's row: our pools across
        step = 2
    else:
        i = ((n - 1) * OPP_N + opp - 1) * 2
        step = OPP_N * 2
    if weights is None:
        w = _OPP[i] << 8 | _OPP[i + 1]
        return 1000 - w if init else w
    acc = 0
    for x in weights:
        w = _OPP[i] << 8 | _OPP[i + 1]
        acc += x * (1000 - w if init else w)
        i += step
    return acc


def paths_help(h, cap):
    """paths: the help bonus of h (1..HELP_MAX) helper d12, capped at cap
    (1..6, Skill), as weights for bonus 0..cap that sum to HELP_ONE: each
    the exact probability rounded (from _PHL, no long ints; the helpers'
    successes are summed, so all their dice make one pool)."""
    if not 1 <= h <= HELP_MAX or not 1 <= cap <= 6:
        raise ValueError("paths help of %d dice capped at %d is outside 1..%d / 1..6"
                         % (h, cap, HELP_MAX))
    i = (h - 1) * 12
    w = [0] * (cap + 1)
    lo = 0
    for b in range(cap):
        x = _PHL[i] << 8 | _PHL[i + 1]  # chance of a bonus below b + 1
        w[b] = x - lo
        lo = x
        i += 2
    w[cap] = HELP_ONE - lo
    return w


def builder_odds(system, pool, target, hard=0, versus=0, table=None):
    """Odds of the pool the roll builder is showing, cheap enough for one
    call per key press (docs/odds.md has the fuel). `system`: 0..2 or a name.

    Without versus: permille of at least `target` successes, rounded half
    up except that a possible result never shows 0 and an uncertain one
    never 1000. With versus = the opposing pool (paths: `pool` initiates,
    so a tie never happens): a (win, tie, lose) permille triple summing to
    1000, each the floor or the ceiling of the exact value; target must be 0.
    `table` overrides the system's per-face success table (hunt.TABLES[face]
    for a campaign's own success face); pass the same, unchanged object
    each time (the derived die is memoised by identity).
    Raises ValueError naming the bad argument and the allowed range."""
    system = _system(system)
    pool = _check(system, pool, hard)
    if versus:
        if target:
            raise ValueError("give a target or a versus pool, not both")
        rng = VERSUS[system]
        if rng is None:
            raise ValueError("%s has no versus roll" % NAMES[system])
        if versus < rng[0] or versus > rng[1]:
            raise ValueError("%s versus pool %d is outside %d..%d"
                             % (NAMES[system], versus, rng[0], rng[1]))
        if system == PATHS:
            if table is None:
                table = _table(PATHS, 0)[1]
            if table == _OPP_FOR:
                i = ((pool - 1) * OPP_N + versus - 1) * 2
                w = _OPP[i] << 8 | _OPP[i + 1]
                return w, 0, 1000 - w
            pa, da = paths_split(pool, table)  # another table: exact, slow
            pb, db = paths_split(versus, table)
            w, t, l = opposed(pa, da, pb, db)
            return split3(w, t, l)
        if table is None:
            i = ((pool - 1) * EVS_N + versus - 1) * 4
            w = _EVS[i] << 8 | _EVS[i + 1]
            t = _EVS[i + 2] << 8 | _EVS[i + 3]
            return w, t, 1000 - w - t
        c = _die(_table(EXPEDITION, 0)[0], table)[1]
        if c[::-1] != c:  # not so with 4+ on a d6; kept for other tables
            w, t, l = compare(power(c, pool), power(c, versus))
            return split3(w, t, l)
        # A - B + versus*top is one pool of pool + versus dice, the versus
        # ones flipped (worth top - value, the same die as c is symmetric):
        # one power instead of a convolution of two.
        d = power(c, pool + versus)
        mid = versus * (len(c) - 1)
        t = d[mid]
        w = 0
        for s in range(mid + 1, len(d)):
            w += d[s]
        base = 0
        for x in c:
            base += x
        return split3(w, t, base ** (pool + versus) - w - t)
    lo, hi = TARGET[system]
    if target < lo or target > hi:
        raise ValueError("%s target %d is outside %d..%d" % (NAMES[system], target, lo, hi))
    if system == PATHS and table is None:
        return paths_at_least(pool, target)
    sides, table = _table(system, hard, table)
    if pool == 0:
        d = keep_lower(sides, table)
        return permille(p_at_least(d, target), sides * sides)
    c = _die(sides, table)[1]
    if target > pool * (len(c) - 1):
        return 0  # more than the pool can roll (expedition: an Ob over the dice)
    base = 0
    for x in c:
        base += x
    den = base ** pool
    # P(>= target) = 1 - P(< target): only the low coefficients are needed.
    miss = 0
    for x in power(c, pool, target - 1):
        miss += x
    return permille(den - miss, den)

