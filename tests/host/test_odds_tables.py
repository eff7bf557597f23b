"""Host odds tables (dicetray.campaign.odds) against icepool, brute force and the
device's builder_odds; the builder's fuel on real MicroPython."""
import itertools
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings, strategies as st

from dicetray.campaign import odds
from dicetray.rules import odds as core
from dicetray.rules import expedition, hunt, paths

from bench import icepool_compare

TABLES = odds.tables()


# --- brute force --------------------------------------------------------------

def _enumerate(sides, table, n, key=None):
    """Counter of key(faces) (default: successes) over every face tuple."""
    key = key or (lambda fs: sum(table[f] for f in fs))
    return Counter(key(fs) for fs in itertools.product(range(1, sides + 1), repeat=n))


def _as_tuple(counter, den):
    return tuple(Fraction(counter.get(s, 0), den) for s in range(max(counter) + 1))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("hard", [False, True])
def test_hunt_matches_brute_force(n, hard):
    table = hunt.SUCCESS_HARD if hard else hunt.SUCCESS
    if n == 0:
        c = _enumerate(6, table, 2, key=lambda fs: table[min(fs)])
    else:
        c = _enumerate(6, table, n)
    den = sum(c.values())
    want = _as_tuple(c, den)
    # hard pools can't reach every count up front; pad to the core's length
    got = TABLES["dist", "hunt", n, hard]
    assert got[:len(want)] == want and not any(got[len(want):])
    for k in range(1, 10):
        assert TABLES["at_least", "hunt", n, hard, k] == sum(want[k:], Fraction(0))


def test_paths_and_expedition_match_brute_force():
    for n in (1, 2, 3):
        c = _enumerate(12, paths.SUCCESS, n)
        assert TABLES["dist", "paths", n, False] == _as_tuple(c, 12 ** n)
    for n in (1, 2, 3, 4, 5):
        c = _enumerate(6, expedition.SUCCESS, n)
        assert TABLES["dist", "expedition", n, False] == _as_tuple(c, 6 ** n)


def _brute_opposed(a, b):
    key = lambda fs: (sum(paths.SUCCESS[f] for f in fs), fs.count(12) >= 2)  # noqa: E731
    ca, cb = _enumerate(12, paths.SUCCESS, a, key), _enumerate(12, paths.SUCCESS, b, key)
    win = lose = 0
    for (sa, xa), qa in ca.items():
        for (sb, xb), qb in cb.items():
            if xa != xb:
                won = xa
            else:  # neither or both doubled: most successes, the initiator takes ties
                won = sa >= sb
            if won:
                win += qa * qb
            else:
                lose += qa * qb
    den = 12 ** (a + b)
    return Fraction(win, den), Fraction(0), Fraction(lose, den)


@pytest.mark.parametrize("a,b", [(1, 1), (1, 2), (2, 1), (2, 2), (3, 2), (2, 3), (3, 3)])
def test_paths_opposed_matches_brute_force(a, b):
    assert TABLES["versus", "paths", a, b] == _brute_opposed(a, b)


def test_expedition_versus_matches_brute_force():
    for a in (1, 2, 3):
        for b in (1, 2, 4):
            ca = _enumerate(6, expedition.SUCCESS, a)
            cb = _enumerate(6, expedition.SUCCESS, b)
            w = sum(qa * qb for sa, qa in ca.items() for sb, qb in cb.items() if sa > sb)
            t = sum(qa * cb.get(sa, 0) for sa, qa in ca.items())
            den = 6 ** (a + b)
            assert TABLES["versus", "expedition", a, b] == (
                Fraction(w, den), Fraction(t, den), Fraction(den - w - t, den))


# --- icepool ------------------------------------------------------------------

def test_small_tables_match_icepool():
    d6, d12 = icepool.d6, icepool.d12
    low = icepool.lowest(d6, d6)
    for hard, table in ((False, hunt.SUCCESS), (True, hunt.SUCCESS_HARD)):
        assert TABLES["at_least", "hunt", 0, hard, 1] == low.map(lambda f: table[f]).probability(">=", 1)
        for n in (1, 2, 3):
            die = n @ d6.map(lambda f: table[f])
            for k in (1, 2, 3):
                assert TABLES["at_least", "hunt", n, hard, k] == die.probability(">=", k)
    pd = {n: n @ d12.map(lambda f: paths.SUCCESS[f]) for n in (1, 2, 3)}
    for n in pd:
        assert TABLES["dist", "paths", n, False] == tuple(pd[n].probability(k) for k in range(2 * n + 1))
        for k in range(1, 8):
            assert TABLES["at_least", "paths", n, False, k] == pd[n].probability(">=", k)
    ed = {n: n @ d6.map(lambda f: expedition.SUCCESS[f]) for n in (1, 2, 3, 4)}
    for a in ed:
        for b in ed:
            c = ed[a].cmp(ed[b])
            assert TABLES["versus", "expedition", a, b] == (c.probability(1), c.probability(0), c.probability(-1))


def test_full_tables_match_icepool_and_a_difference_fails_loudly():
    theirs = icepool_compare.icepool_tables()
    icepool_compare.check_equal(TABLES, theirs)  # raises on any difference
    theirs[("at_least", "paths", 12, False, 7)] += Fraction(1, 10 ** 12)
    with pytest.raises(AssertionError, match="differ from icepool"):
        icepool_compare.check_equal(TABLES, theirs)


def test_bench_main_reports_figures():
    # The figures only: how fast is make bench's business (a busy machine
    # made a speed assertion here fail at 12.9x).
    figures = icepool_compare.main([])
    assert figures["entries"] == len(TABLES)
    assert isinstance(figures["speedup"], float), figures   # a figure, printed, not judged


# --- the core -----------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=4), st.integers(1, 9), st.integers(0, 8))
def test_power_is_repeated_convolution(c, p0, n):
    c = [p0] + c  # some face worth 0, as every die here has
    want = [1]
    for _ in range(n):
        nxt = [0] * (len(want) + len(c) - 1)
        for i, x in enumerate(want):
            for j, y in enumerate(c):
                nxt[i + j] += x * y
        want = nxt
    assert core.power(c, n) == want
    for k in (0, 1, 3):
        assert core.power(c, n, k) == want[:k + 1]


def test_table_shape_and_totals():
    # hunt 200, paths 20 pools + 20 x 7 difficulties + 20 x 20 opposed,
    # expedition 20 pools + 20 x 30 Obs + 20 x 20 versus
    assert len(TABLES) == 1780
    for key, v in TABLES.items():
        if key[0] == "dist":
            assert sum(v) == 1, key
        elif key[0] == "versus":
            assert sum(v) == 1, key
            if key[1] == "paths":
                assert v[1] == 0  # ties go to the initiator
    assert TABLES["at_least", "hunt", 0, False, 1] == Fraction(1, 4)
    assert TABLES["at_least", "hunt", 0, True, 1] == Fraction(1, 36)
    assert TABLES["at_least", "paths", 1, False, 1] == Fraction(1, 2)
    assert TABLES["at_least", "expedition", 2, False, 1] == Fraction(3, 4)


def test_public_helpers():
    assert odds.distribution("hunt", 0) == (Fraction(3, 4), Fraction(1, 4))
    assert odds.p_at_least("paths", 1, 1) == Fraction(1, 2)
    assert odds.versus("expedition", 1, 1) == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert odds.fraction_str(Fraction(1)) == "1/1"
    assert odds.fraction_str(Fraction(0)) == "0/1"
    assert odds.fraction_str(Fraction(6, 8)) == "3/4"
    with pytest.raises(ValueError, match="hunt has no versus"):
        odds.versus("hunt", 1, 1)
    with pytest.raises(ValueError, match="unknown rule system"):
        odds.distribution("dice", 1)


# --- builder_odds: exact rounding everywhere, table in sync, fuel ---------------

def _round_half_up(f):
    return (2 * f + 1) // 2  # floor(f + 1/2)


def test_builder_odds_exact_for_every_argument():
    for (kind, name, n, *rest), v in TABLES.items():
        s = core.NAMES.index(name)
        if kind == "at_least":
            hard, k = rest
            pm = core.builder_odds(s, n, k, hard=int(hard))
            want = _round_half_up(v * 1000)
            if want == 0 and v > 0:
                want = 1
            if want == 1000 and v < 1:
                want = 999
            assert pm == want, (name, n, hard, k, v)
        elif kind == "versus":
            m = rest[0]
            got = core.builder_odds(s, n, 0, versus=m)
            assert sum(got) == 1000
            for pm, p in zip(got, v):
                assert abs(pm - p * 1000) < 1, (name, n, m, got, v)


def test_paths_opposed_table_in_sync():
    assert core._OPP == odds.opposed_table_bytes()
    assert core._OPP_FOR == paths.SUCCESS
    assert odds.opposed_table_source().count("\n") == core.OPP_N + 2
    assert len(core._OPP) == core.OPP_N * core.OPP_N * 2


def test_coin_table_in_sync():
    assert core._COIN == odds.coin_table_bytes() and len(core._COIN) == 5 * (41 * 41 // 4)


def test_target_and_versus_tables_in_sync():
    # The firmware looks these up (table=None); the exact code computes
    # them when given the table: both must agree on every argument.
    assert core._PTG == odds.paths_target_table_bytes() and len(core._PTG) == 20 * 7 * 2
    assert core._EVS == odds.expedition_versus_table_bytes() and len(core._EVS) == 20 * 20 * 4
    for n in range(1, 13):
        for k in range(1, 8):
            assert core.builder_odds(1, n, k) == core.builder_odds(1, n, k, table=paths.SUCCESS)
    # Pools past the builder's 12 (help adds dice): against exact fractions,
    # rounded half up, never 0 or 1000 when not certain.
    for n in range(13, core.PATHS_MAX + 1):
        d = core.power(core.counts(12, paths.SUCCESS), n)
        for k in range(1, 8):
            p = Fraction(sum(d[k:]), 12 ** n)
            want = int(p * 1000 + Fraction(1, 2))
            want = 1 if want == 0 and p > 0 else (999 if want == 1000 and p < 1 else want)
            assert core.paths_at_least(n, k) == want, (n, k)
    with pytest.raises(ValueError):
        core.paths_at_least(21, 1)
    for a in range(1, core.EVS_N + 1):
        for b in range(1, core.EVS_N + 1):
            assert core.builder_odds(2, a, 0, versus=b) == \
                core.builder_odds(2, a, 0, versus=b, table=expedition.SUCCESS)


def _fuel_worst_cases():
    return [(0, 9, 9, 1, 0), (1, 12, 7, 0, 0), (2, 20, 20, 0, 0), (2, 20, 0, 0, 20), (1, 12, 0, 0, 11)]


def test_builder_odds_fuel_under_budget():
    # the largest pools and targets of each mode (bench/icepool_compare.py
    # --fuel-all measures every argument combination)
    for case, fuel, heap in icepool_compare.builder_fuel(_fuel_worst_cases(), workers=1):
        assert 0 < fuel < icepool_compare.FUEL_LIMIT, (case, fuel)
        assert heap < 4096, (case, heap)


def test_paths_help_table_in_sync():
    # _PHL is what the host computes, and its weights are the exact
    # chances of each capped bonus, rounded to 1/HELP_ONE.
    assert core._PHL == odds.paths_help_table_bytes()
    assert len(core._PHL) == core.HELP_MAX * 6 * 2
    c = core.counts(12, paths.SUCCESS)
    for h in range(1, core.HELP_MAX + 1):
        d = core.power(c, h)
        for cap in range(1, 7):
            w = core.paths_help(h, cap)
            assert len(w) == cap + 1 and sum(w) == core.HELP_ONE and min(w) >= 0
            for b in range(cap + 1):
                exact = Fraction(sum(d[b:]) if b == cap else d[b] if b < len(d) else 0, 12 ** h)
                assert abs(w[b] - exact * core.HELP_ONE) <= 1, (h, cap, b)
    assert core.paths_help(1, 6)[3:] == [0, 0, 0, 0]  # one die never gives 3
    for bad in ((0, 1), (41, 1), (1, 0), (1, 7)):
        with pytest.raises(ValueError):
            core.paths_help(*bad)
