"""Exact odds core (rules.odds): runs under pytest and on real MicroPython."""
from rules import odds
from rules import hunt, paths, expedition
from support import raises

HUNT, PATHS, EXPEDITION = 0, 1, 2


def _brute(sides, table, n):
    # every face tuple of n dice, counted by successes (small n only)
    d = [0] * (max(table) * n + 1)
    faces = [1] * n
    while True:
        s = 0
        for f in faces:
            s += table[f]
        d[s] += 1
        i = 0
        while i < n and faces[i] == sides:
            faces[i] = 1
            i += 1
        if i == n:
            return d
        faces[i] += 1


def test_distributions_sum_to_sides_pow_n():
    for system, sides in ((HUNT, 6), (PATHS, 12), (EXPEDITION, 6)):
        lo, hi = odds.POOL[system]
        for n in range(max(lo, 1), hi + 1):
            d = odds.dist(system, n)
            assert sum(d) == sides ** n == odds.total(system, n), (system, n)
    for n in range(1, 10):
        assert sum(odds.dist(HUNT, n, 1)) == 6 ** n
    assert sum(odds.dist(HUNT, 0)) == 36 == odds.total(HUNT, 0)


def test_small_pools_match_brute_force():
    for n in range(1, 4):
        assert odds.dist(HUNT, n) == _brute(6, hunt.SUCCESS, n)
        assert odds.dist(HUNT, n, 1) == _brute(6, hunt.SUCCESS_HARD, n)[:n + 1]
        assert odds.dist(PATHS, n) == _brute(12, paths.SUCCESS, n)
        assert odds.dist(EXPEDITION, n) == _brute(6, expedition.SUCCESS, n)


def test_known_values():
    d = odds.dist(HUNT, 0)  # 2d6 keep lower: success iff lower >= 4
    assert odds.p_at_least(d, 1) == 9 and sum(d) == 36
    d = odds.dist(HUNT, 0, 1)  # hard: both 6
    assert odds.p_at_least(d, 1) == 1 and sum(d) == 36
    assert odds.dist(HUNT, -3) == odds.dist(HUNT, 0)  # 0 or fewer dice
    d = odds.dist(PATHS, 1)
    assert d == [6, 5, 1]  # 1-6 fail, 7-11 one success, 12 two
    assert odds.p_at_least(d, 1) == 6  # 6/12
    d = odds.dist(EXPEDITION, 2)
    assert odds.p_at_least(d, 1) * 4 == 3 * sum(d)  # 3/4
    # paths, Alex's 6 dice: P(at least 2) = 1 - (6**6 + 6*5*6**5)/12**6
    d = odds.dist(PATHS, 6)
    assert odds.p_at_least(d, 2) == 12 ** 6 - 6 ** 6 - 30 * 6 ** 5


def test_p_at_least_edges():
    d = odds.dist(EXPEDITION, 3)
    assert odds.p_at_least(d, 0) == sum(d) == odds.p_at_least(d, -1)
    assert odds.p_at_least(d, 4) == 0


def test_versus_sums_and_symmetry():
    for n in (1, 4, 15):
        for m in (1, 7, 15):
            da = odds.dist(EXPEDITION, n)
            db = odds.dist(EXPEDITION, m)
            w, t, l = odds.compare(da, db)
            assert w + t + l == 6 ** (n + m)
            w2, t2, l2 = odds.compare(db, da)
            assert (w2, t2, l2) == (l, t, w)
    # one die each: tie iff both succeed or both fail
    w, t, l = odds.compare(odds.dist(EXPEDITION, 1), odds.dist(EXPEDITION, 1))
    assert (w, t, l) == (9, 18, 9)


def test_paths_split_and_opposed():
    for n in range(1, 13):
        p, d = odds.paths_split(n)
        assert [p[s] + d[s] for s in range(len(p))] == odds.dist(PATHS, n)
        assert sum(p) == 11 ** n + n * 11 ** (n - 1)
        assert d[:4] == [0] * min(4, len(d))  # a double 12 is 4+ successes
    # 1 v 1: only the initiator's failure against a success loses, no tie
    w, t, l = odds.opposed(*(odds.paths_split(1) + odds.paths_split(1)))
    assert t == 0 and w + l == 144
    assert l == 6 * 5 + 6 * 1 + 5 * 1  # 0 v 1, 0 v 2, 1 v 2
    # 2 v 1: the initiator loses only with fewer successes (no double
    # possible for the single die): 0 v 1+, or 1 v 2
    w, t, l = odds.opposed(*(odds.paths_split(2) + odds.paths_split(1)))
    d2 = odds.dist(PATHS, 2)
    assert l == d2[0] * 6 + d2[1] * 1
    for n in (1, 5, 12):
        for m in (1, 6, 12):
            w, t, l = odds.opposed(*(odds.paths_split(n) + odds.paths_split(m)))
            assert t == 0 and w + l == 12 ** (n + m) and w > 0 and l > 0


def test_permille_helpers():
    assert odds.permille(9, 36) == 250
    assert odds.permille(1, 36) == 28  # 27.78
    assert odds.permille(1, 2000) == 1  # 0.5 rounds up
    assert odds.permille(1, 10 ** 6) == 1  # possible never shows 0
    assert odds.permille(10 ** 6 - 1, 10 ** 6) == 999  # uncertain never 1000
    assert odds.permille(0, 7) == 0 and odds.permille(7, 7) == 1000
    assert odds.split3(1, 1, 1) == (334, 333, 333)
    assert sum(odds.split3(2, 3, 7)) == 1000
    assert odds.fmt_permille(875) == "87.5%"
    assert odds.fmt_permille(5) == "0.5%"


def test_builder_odds_known():
    assert odds.builder_odds(HUNT, 0, 1) == 250
    assert odds.builder_odds("hunt", 0, 1, hard=1) == 28
    assert odds.builder_odds(HUNT, 0, 2) == 0
    assert odds.builder_odds(HUNT, 1, 1) == 500
    assert odds.builder_odds(PATHS, 1, 1) == 500
    assert odds.builder_odds(PATHS, 1, 3) == 0
    assert odds.builder_odds(EXPEDITION, 2, 1) == 750
    assert odds.builder_odds(EXPEDITION, 1, 0, versus=1) == (250, 500, 250)
    w, t, l = odds.builder_odds(PATHS, 12, 0, versus=12)
    assert t == 0 and w + l == 1000 and w > 500  # ties favour the initiator


def test_builder_odds_in_range_everywhere():
    for system in (HUNT, PATHS, EXPEDITION):
        lo, hi = odds.POOL[system]
        tlo, thi = odds.TARGET[system]
        for n in range(lo, hi + 1):
            last = 1001
            for k in range(tlo, thi + 1):
                pm = odds.builder_odds(system, n, k)
                assert 0 <= pm <= 1000
                assert pm <= last  # harder targets never look easier
                last = pm
        rng = odds.VERSUS[system]
        if rng:
            for n in (rng[0], rng[1]):
                for m in range(rng[0], rng[1] + 1):
                    r = odds.builder_odds(system, n, 0, versus=m)
                    assert sum(r) == 1000 and min(r) >= 0


def test_builder_odds_matches_exact_rounding():
    # versus triples: each the floor or ceiling of 1000 * exact
    for n, m in ((3, 5), (15, 15), (1, 15)):
        w, t, l = odds.compare(odds.dist(EXPEDITION, n), odds.dist(EXPEDITION, m))
        den = w + t + l
        for pm, num in zip(odds.builder_odds(EXPEDITION, n, 0, versus=m), (w, t, l)):
            assert pm * den <= 1000 * num + den and 1000 * num <= pm * den + den
    for n, m in ((2, 3), (12, 11), (7, 7)):
        w, t, l = odds.opposed(*(odds.paths_split(n) + odds.paths_split(m)))
        assert odds.builder_odds(PATHS, n, 0, versus=m) == odds.split3(w, t, l)
    d = odds.dist(PATHS, 12)
    assert odds.builder_odds(PATHS, 12, 7) == odds.permille(odds.p_at_least(d, 7), sum(d))


def test_builder_odds_rejects_bad_arguments():
    raises(ValueError, odds.builder_odds, "dice", 3, 1)
    raises(ValueError, odds.builder_odds, 5, 3, 1)
    raises(ValueError, odds.builder_odds, HUNT, 10, 1)
    raises(ValueError, odds.builder_odds, PATHS, 0, 1)
    raises(ValueError, odds.builder_odds, PATHS, 21, 1)
    raises(ValueError, odds.builder_odds, EXPEDITION, 21, 1)
    raises(ValueError, odds.builder_odds, EXPEDITION, 3, 31)
    raises(ValueError, odds.builder_odds, PATHS, 3, 1, hard=1)
    raises(ValueError, odds.builder_odds, PATHS, 3, 8)
    raises(ValueError, odds.builder_odds, PATHS, 3, 0)
    raises(ValueError, odds.builder_odds, HUNT, 3, 0, versus=2)
    raises(ValueError, odds.builder_odds, EXPEDITION, 3, 0, versus=21)
    e = raises(ValueError, odds.builder_odds, EXPEDITION, 3, 2, versus=3)
    assert "not both" in str(e)
    e = raises(ValueError, odds.builder_odds, PATHS, 21, 1)
    assert "1..20" in str(e)
    raises(ValueError, odds.builder_odds, PATHS, 3, 0, versus=21)


def test_builder_odds_with_a_campaign_table():
    five_up = bytes((0, 0, 0, 0, 0, 1, 1))  # a hunt campaign succeeding on 5+
    assert odds.builder_odds(HUNT, 1, 1, table=five_up) == 333
    assert odds.builder_odds(HUNT, 0, 1, table=five_up) == 111  # 4/36
    assert odds.dist(HUNT, 2, table=five_up) == [16, 16, 4]
    # an uneven die takes the general versus path: 1 v 1 on 5+
    assert odds.builder_odds(EXPEDITION, 1, 0, versus=1, table=five_up) == (222, 556, 222)
    # paths with a table that is not the shipped one is computed, not looked up
    crit_only = bytes((0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2))
    w, t, l = odds.opposed(*(odds.paths_split(2, crit_only) + odds.paths_split(1, crit_only)))
    assert odds.builder_odds(PATHS, 2, 0, versus=1, table=crit_only) == odds.split3(w, t, l)


def test_paths_help_weights_match_brute_force():
    # Small helper pools against every face tuple (no long ints needed:
    # 12**3 outcomes), every cap; weights sum to HELP_ONE, never negative.
    for h in (1, 2, 3):
        d = _brute(12, paths.SUCCESS, h)
        tot = 12 ** h
        for cap in range(1, 7):
            w = odds.paths_help(h, cap)
            assert len(w) == cap + 1 and sum(w) == odds.HELP_ONE
            for b in range(cap + 1):
                n = 0
                for s in range(len(d)):
                    if s == b or (b == cap and s > cap):
                        n += d[s]
                assert w[b] >= 0
                # w[b] is within 1 of n / tot * HELP_ONE (both roundings)
                assert abs(w[b] * tot - n * odds.HELP_ONE) <= tot, (h, cap, b)
    assert odds.paths_help(40, 6)[6] > odds.HELP_ONE * 9 // 10  # 40 dice: 6+ nearly sure
    raises(ValueError, odds.paths_help, 41, 1)
    raises(ValueError, odds.paths_help, 2, 7)


def test_expedition_obstacles_to_30_and_monster_pools_exact():
    # An Ob is whatever the text makes it (up to 30), a monster
    # rolls Level + 3 dice (17 at Level 14, more with bonus dice): the
    # builder's odds cover pools 1..20 against Ob 1..30 and versus 1..20 x
    # 1..20, each exactly rounded (on MicroPython too: 2**20 is a small int).
    assert odds.POOL[EXPEDITION] == (1, 20) and odds.TARGET[EXPEDITION] == (1, 30)
    assert odds.VERSUS[EXPEDITION] == (1, 20)
    for n in (1, 7, 17, 20):
        d = odds.dist(EXPEDITION, n)
        for k in (1, 7, 8, 12, 17, 20, 21, 30):
            assert odds.builder_odds(EXPEDITION, n, k) == odds.permille(odds.p_at_least(d, k),
                                                                        sum(d)), (n, k)
    assert odds.builder_odds(EXPEDITION, 20, 30) == 0      # more than 20 dice can roll
    assert odds.builder_odds(EXPEDITION, 20, 20) == 1      # 1 in 2**20: never shown as 0
    assert odds.builder_odds(EXPEDITION, 17, 9) == 500     # 17 coins: 9 or more is half
    for n, m in ((20, 17), (17, 20), (3, 17), (20, 20)):
        w, t, l = odds.compare(odds.dist(EXPEDITION, n), odds.dist(EXPEDITION, m))
        den = w + t + l
        for pm, num in zip(odds.builder_odds(EXPEDITION, n, 0, versus=m), (w, t, l)):
            assert pm * den <= 1000 * num + den and 1000 * num <= pm * den + den


def test_coins_above_counts_heads_exactly():
    # odds.coins_above (the _COIN table and its symmetry) against Pascal's
    # triangle built by additions, every n of 0..COIN_N and every k.
    row = [1]
    for n in range(odds.COIN_N + 1):
        above = 0
        for k in range(n + 1, -3, -1):
            assert odds.coins_above(n, k) == above, (n, k)
            if 0 <= k <= n:
                above += row[k]
        row = [1] + [row[j] + row[j + 1] for j in range(n)] + [1]


def test_paths_opposed_exact_for_every_pool_the_rules_accept():
    # Exact odds for every pool the rules accept (the device tables once
    # stopped at 12 for paths opposed, while the rules accept 20). Seed 003: "The player and their opponent each make a
    # roll, and the one with the highest number of successes wins" -- an
    # opponent's pool is 1..20 dice, the player's Skill 6 + Path 6 +
    # situation +2 = 14 plus up to +6 of help ("The player cannot receive
    # more additional dice than their overall level in the Skill").
    assert odds.POOL[PATHS] == (1, 20) and odds.VERSUS[PATHS] == (1, 20)
    assert paths.pool(6, 6, 2) + 6 == paths.MAX_POOL == odds.OPP_N
    for a, b in ((20, 20), (14, 20), (20, 1), (13, 12), (1, 20), (12, 12)):
        got = odds.builder_odds(PATHS, a, 0, versus=b)
        # the table against the exact long-int computation, same rounding
        want = odds.split3(*odds.opposed(*(odds.paths_split(a, paths.SUCCESS)
                                           + odds.paths_split(b, paths.SUCCESS))))
        assert got == (want[0], 0, 1000 - want[0]), (a, b, got, want)
    # more dice win more often; the initiator takes ties
    assert odds.builder_odds(PATHS, 20, 0, versus=19)[0] > odds.builder_odds(PATHS, 19, 0, versus=20)[0]
    assert odds.builder_odds(PATHS, 20, 0, versus=20)[0] > 500
    for k in (1, 7):  # a difficulty test of 13..20 dice, the same range
        assert odds.builder_odds(PATHS, 20, k) == odds.paths_at_least(20, k)


def test_paths_opposed_lookup_and_mixture_match_builder_odds():
    # The builder's opposed line (with help: one call for every bonus) reads
    # the same table builder_odds does, from either side's initiative.
    for a in (1, 7, 14, 20):
        for b in (1, 12, 20):
            w = odds.builder_odds(PATHS, a, 0, versus=b)[0]
            assert odds.paths_opposed(a, b) == w
            assert odds.paths_opposed(b, a, 1) == 1000 - w
    wts = odds.paths_help(40, 6)
    for init in (0, 1):
        acc = 0
        for k in range(7):
            acc += wts[k] * odds.paths_opposed(14 + k, 20, init)
        assert odds.paths_opposed(14, 20, init, wts) == acc
    raises(ValueError, odds.paths_opposed, 15, 20, 0, wts)   # 15 + 6 > 20
    raises(ValueError, odds.paths_opposed, 1, 21)
