"""Campaign slots on the flash simulator, shared by the slot tests
(test_campaigns*.py): a board that only gives a flash and a seed, two
campaigns in two slots, a slot's state as a boot reads it, a power-cut
sweep over an operation, and a backup restored from event 1. Runs on
CPython and on MicroPython."""

import sys
from binascii import crc32

from flashsim import FlashSim, PowerCut
from rules import campaign as cp
from rules.dice import Dice
import session
import staging
import store

MPY = sys.implementation.name == "micropython"


class Board:
    """A board that gives the session a flash and a seed, nothing else."""

    name = "test"

    def __init__(self, fs, seed=99):
        self.fs = fs
        self._seed = seed

    def seed(self):
        return self._seed


def play(s, n, sides=6):
    """n free rolls of d`sides` on session s."""
    for k in range(n):
        s.do(cp.DICE, (sides, 1 + k % 3))


def two_slots(fs):
    """Slot 1: hunt, 21 events (the last 5 after its newest snapshot);
    slot 2 (current): paths, 3 events."""
    s = session.Session(Board(fs, 11))
    play(s, 21)
    s.board._seed = 22
    s.new_campaign(1)
    play(s, 3, 12)
    return s


def slot_state(fs, n):
    """encode_state of slot n as a boot would read it, or None if gone."""
    if "/dicetray/c%d" % n not in fs.dirs:
        return None
    st = store.Store(fs, "/dicetray/c%d" % n, None, store.JOURNAL_KEEP)
    state, evs, rep = st.open()
    st.close()
    assert rep.ok(), rep.errors
    c = cp.decode_snapshot(state, cp.UNDO_DEPTH, True)
    for ev in evs:
        c.apply(ev)
    return cp.encode_state(c)


def _cut_run(op, check, k):
    """op on a fresh two-slot flash, cut at unit k (-1: never), then a boot
    and check(fs, booted session, the two slots' states before, done);
    returns the units op spent."""
    fs = FlashSim()
    s = two_slots(fs)
    want = (slot_state(fs, 1), slot_state(fs, 2))
    fs.revive(k)
    done = True
    try:
        op(s)
    except PowerCut:
        done = False
    units = fs.used
    assert done == (k < 0)
    fs.revive()
    check(fs, session.Session(Board(fs)), want, done)
    return units


def cut_sweep(op, check):
    """op uncut, then cut at every unit it spends (on MicroPython: the first
    and the last); returns the units it takes."""
    units = _cut_run(op, check, -1)
    for k in ([0, units - 1] if MPY else range(units)):
        _cut_run(op, check, k)
    return units


def backup_of(system, cid, n, seed=5):
    """(snapshot, events, state) of campaign `cid` of `system` after n free
    rolls, as a backup sends them from event 1."""
    c = cp.Campaign(system, cid, cp.UNDO_DEPTH)
    d = Dice(seed)
    for k in range(n):
        c.act(cp.DICE, (6, 1 + k % 3), dice=d)
    return cp.encode_snapshot(c), list(c.events), cp.encode_state(c)


def restore(s, b):
    """Backup b (backup_of) restored onto session s, from event 1."""
    snap, evs = b[0], b[1]
    r = staging.Restore(s, len(evs), 1, len(evs), len(snap), crc32(snap) & 0xFFFFFFFF)
    r.snapshot(0, snap)
    r.events(1, evs)
    r.commit()
