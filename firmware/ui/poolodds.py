"""The roll builder's odds line for a ui.pools.Pool: 'Odds 68.8%',
('Win 45.0%', 'Tie 10.0%') (expedition versus and combat: two rows, a
tuple, so that the builder splits no str at every key) or 'Win 61.3%'
(paths opposed).

Apart from the pool model so that rules.odds is imported when the builder
first opens, not at boot. The figures come from rules.odds: builder_odds,
and paths_at_least for every paths pool (1..20 dice, help included);
an expedition -Ns (and a 0-die pool) is computed here, exactly: a test
from odds.power, a versus test from the coin counts of odds.coins_above
(_coin_vs). Every figure shown is
exact, except paths tests and opposed tests with helpers: their mixture
over the help bonus (odds.paths_help) averages exact permille values with
weights rounded to 1/65535 (error < 0.06 %, shown with a "~").
"""

from rules import odds

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x


def _exact(sides, table, n, k):
    """(numerator, denominator) of P(at least k successes) with n dice."""
    if k <= 0:
        return 1, 1
    if n <= 0:
        return 0, 1
    c = odds.reduce(odds.counts(sides, table))
    if k > n * (len(c) - 1):
        return 0, 1  # more successes than the dice can show
    base = 0
    for x in c:
        base += x
    den = base ** n
    miss = 0
    for x in odds.power(c, n, k - 1):
        miss += x
    return den - miss, den


def _helpers(hs, cap):
    """Weights of the capped help bonus 0..cap (sum odds.HELP_ONE): the
    helpers' successes are summed (rules/paths.py _helped), so all their
    dice make one pool."""
    h = 0
    for x in hs:
        h += x
    return odds.paths_help(h, cap)


def _mix(acc):
    """Permille of a mixture: acc is the sum of weight * permille."""
    one = odds.HELP_ONE
    return (2 * acc + one) // (2 * one)


# One str per line (every new str costs a search of the interned strings),
# and the newest ones kept by their figures: a value dialled back and forth
# (an Ability 5, 4, 5) makes no str again. At most _KEEP of them.
_MEMO = {}
_KEEP = const(32)


def _odds(pm):
    s = _MEMO.get(pm)
    if s is None:
        if len(_MEMO) >= _KEEP:
            _MEMO.clear()
        s = _MEMO[pm] = "Odds %d.%d%%" % (pm // 10, pm % 10)
    return s


def _win(pm, approx):
    return ("Win %d.%d%%~" if approx else "Win %d.%d%%") % (pm // 10, pm % 10)


def line(p, c, n=None):
    """The odds line of pool p over campaign c (n: p.dice(c), if called
    just before); an expedition versus roll's two, a tuple."""
    if n is None:
        try:
            n = p.dice(c)
        except ValueError as e:
            return str(e)
    v = p.v
    s = p.system
    if s == 0:
        m = p.m
        table = None if v["hard"] else m.TABLES[c.x[m.X_FACE]]
        return _odds(odds.builder_odds(0, n if n > 0 else 0, 1, v["hard"], table=table))
    if s == 2:
        return _exp_odds(p, n)
    return _paths_odds(p, n)


def _exp_odds(p, n):
    v = p.v
    t = p.m.SUCCESS
    if v["mode"] == 0:
        k = v["ob"] + v["xminus"]  # -Ns comes off first: need Ob + N
        lo, hi = odds.POOL[2]
        if lo <= n <= hi and k <= odds.TARGET[2][1]:
            return _odds(odds.builder_odds(2, n, k))
        a, b = _exact(6, t, n, k)
        return _odds(odds.permille(a, b))
    nb = p.nb  # 2 + Ability, or a monster's Level + 3 +/- dice (set by p.dice)
    m = v["xminus"]
    lo, hi = odds.VERSUS[2]
    if m == 0 and lo <= n <= hi and lo <= nb <= hi:
        w, ti, l = odds.builder_odds(2, n, 0, versus=nb)
    else:
        w, ti, l = _coin_vs(n, nb, m)
    k = 2000 + w * 1001 + ti   # past every permille: the Odds lines' keys
    s = _MEMO.get(k)
    if s is None:
        if len(_MEMO) >= _KEEP:
            _MEMO.clear()
        s = _MEMO[k] = ("Win %d.%d%%" % (w // 10, w % 10), "Tie %d.%d%%" % (ti // 10, ti % 10))
    return s


def _coin_vs(n, nb, m):
    """expedition versus, A's n dice with -m s against B's nb dice: the
    split3 permille of (win, tie, lose), exact. A d6 on 4+ is a coin, so
    A - B + nb is one pool of n + nb coins, Bin(N): A wins when A - m > B,
    that is Bin(N) > nb + m; ties are Bin(N) = nb + m, and the -Ns floor at
    0 adds A < m with B = 0. All over 2**N, the Bin(N) counts from
    odds.coins_above (a table), with no distribution, convolution or
    comparison of two pools."""
    big = n + nb
    k = nb + m
    w = odds.coins_above(big, k)
    t = odds.coins_above(big, k - 1) - w  # C(N, k): 0 when m > n
    b = 1  # C(n, i): A shows i < m successes, floored to 0; B shows none
    i = 0
    while i < m and i <= n:
        t += b
        b = b * (n - i) // (i + 1)
        i += 1
    return _split2(w, t, big)


def _split2(w, t, bits):
    """odds.split3(w, t, 2**bits - w - t) for a power-of-two denominator:
    a shift and a subtraction per figure instead of a long division (fewer
    long ints: each one is an allocation). Largest remainder, ties to the
    first, as split3."""
    x = w * 1000
    qa = x >> bits
    ra = x - (qa << bits)
    x = t * 1000
    qb = x >> bits
    rb = x - (qb << bits)
    # 1000 * lose = (1000 - qa - qb) * 2**bits - ra - rb
    qc = 1000 - qa - qb
    rc = -ra - rb
    while rc < 0:
        qc -= 1
        rc += 1 << bits
    return odds.largest_remainder(qa, ra, qb, rb, qc, rc)


def _paths_odds(p, n):
    v = p.v
    m = v["mode"]
    hs = p._helps()
    cap = v["pskill"] if v["pskill"] > 0 else 1
    if m == 0 and v["diff"] == 0:
        return "Odds 100.0% auto"
    k = v["diff"] if m == 0 else 1
    if m == 1:
        return _opposed(p, n, hs, cap)
    if not hs:
        return _odds(odds.paths_at_least(n, k))
    # Average the table's permille over the help bonus (marked "~", as the
    # opposed line): pools with help reach 20 dice, whose exact mixture in
    # long ints cost up to 1.6 M fuel.
    pm = _mix(odds.paths_at_least(n, k, _helpers(hs, cap)))
    return "Odds %d.%d%%~" % (pm // 10, pm % 10)


def _opposed(p, n, hs, cap):
    """paths opposed: the builder's side's win permille, from the _OPP table
    (1..20 v 1..20: every pool the rules accept); with helpers, the table's
    permille averaged over the help bonus in one odds.paths_opposed call."""
    v = p.v
    opp = v["opp"]
    hi = odds.OPP_N
    top = n + (cap if hs else 0)
    if not (1 <= n and top <= hi and 1 <= opp <= hi):
        return "Win pool > 20"
    if not hs:
        return _win(odds.paths_opposed(n, opp, v["init"]), False)
    return _win(_mix(odds.paths_opposed(n, opp, v["init"], _helpers(hs, cap))), True)
