"""The store's power-cut tests beyond test_store.py's sweep: littlefs
semantics (only synced data survives) and a cut while recovery repairs
damage. A file of their own: on MicroPython each test file gets a fresh
VM, and test_store.py's uses all of one VM's heap (runs on CPython and on
MicroPython)."""
from store import journal
from flashsim import FlashSim, PowerCut
from storesession import (MPY, ROOT, data, flash_with_records, fold, record_offsets, reopen,
                          sweep, total_units)


def test_power_cut_littlefs_semantics():
    # littlefs keeps only synced data: every record is whole or absent.
    n = 60 if MPY else 120
    total = total_units(n)
    cuts = (total - 1,) if MPY else range(total + 1)  # MPy: heap
    tally = sweep(n, cuts, keep_unsynced=False)
    assert tally[0] > 0 and tally[1] == 0  # a cut record never comes back


def test_power_cut_during_repair_of_damage():
    EVENTS, STATES = data()
    # Recovery itself writes when it repairs damage: cut it at every unit.
    sim, st = flash_with_records(30)
    img = sim.files[ROOT + "/j00000000.log"]
    img[record_offsets(img)[12] + journal.HDR] ^= 0x10
    base = {}
    for p in sim.files:
        base[p] = bytes(sim.files[p])
    cut = 0
    while True:
        sim = FlashSim(cut)
        sim.dirs.add(ROOT)
        for p in base:
            sim.files[p] = bytearray(base[p])
            sim.synced[p] = len(base[p])
        try:
            reopen(sim)
            finished = True
        except PowerCut:
            finished = False
        sim.revive()
        st, state, evs, rep = reopen(sim)
        assert st.seq == 12 and fold(state, evs) == STATES[12], cut
        if finished:
            break
        cut += 90 if MPY else 1  # MicroPython: a subset, to fit its heap
    assert cut > 3
