"""The roll builder's odds line for a ui.pools.Pool: 'Odds 68.8%',
'W 45.0% T 10.0%' (expedition versus) or 'Win 61.3%' (paths opposed).

Apart from the pool model so that rules.odds is imported when the builder
first opens, not at boot. The figures come from rules.odds: builder_odds,
and paths_at_least for every paths pool (1..20 dice, help included);
expedition pools over 15 dice and an expedition -Ns are computed here from
the same exact integer distributions (odds.power). Every figure shown is
exact, except paths tests and opposed tests with helpers: their mixture
over the help bonus (odds.paths_help) averages exact permille values with
weights rounded to 1/65535 (error < 0.06 %, shown with a "~").
"""

from rules import odds


def _exact(sides, table, n, k):
    """(numerator, denominator) of P(at least k successes) with n dice."""
    if k <= 0:
        return 1, 1
    if n <= 0:
        return 0, 1
    c = odds.reduce(odds.counts(sides, table))
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


# One str per line (every new str costs a search of the interned strings).
def _odds(pm):
    return "Odds %d.%d%%" % (pm // 10, pm % 10)


def _win(pm, approx):
    return ("Win %d.%d%%~" if approx else "Win %d.%d%%") % (pm // 10, pm % 10)


def line(p, c, n=None):
    """The odds line of pool p over campaign c (n: p.dice(c), if known)."""
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
        if 1 <= n <= 15 and k <= 7:
            return _odds(odds.builder_odds(2, n, k))
        a, b = _exact(6, t, n, k)
        return _odds(odds.permille(a, b))
    nb = 2 + v["bab"]
    m = v["xminus"]
    if m == 0 and 1 <= n <= 15 and 1 <= nb <= 15:
        w, ti, l = odds.builder_odds(2, n, 0, versus=nb)
    else:
        c = odds.counts(6, t)
        da = odds.power(c, n) if n else [1]
        # -Ns: A's successes shifted down, never below 0
        sh = [0] * (len(da) - m if len(da) > m else 1)
        for i in range(len(da)):
            sh[i - m if i > m else 0] += da[i]
        w, ti, l = odds.split3(*odds.compare(sh, odds.power(c, nb)))
    return "W %d.%d%% T %d.%d%%" % (w // 10, w % 10, ti // 10, ti % 10)


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


def _side(v, a):
    """paths opposed: the builder's side's win permille with a dice, -1 out of range."""
    opp = v["opp"]
    if not (1 <= a <= 12 and 1 <= opp <= 12):
        return -1
    if v["init"] == 0:
        return odds.builder_odds(1, a, 0, versus=opp)[0]
    return 1000 - odds.builder_odds(1, opp, 0, versus=a)[0]


def _opposed(p, n, hs, cap):
    v = p.v
    if not hs:
        w = _side(v, n)
        return _win(w, False) if w >= 0 else "Win pool > 12"
    hd = _helpers(hs, cap)
    t = 0
    for b in range(cap + 1):
        w = _side(v, n + b)
        if w < 0:
            return "Win pool > 12"
        t += hd[b] * w
    return _win(_mix(t), True)
