"""Campaign slots: a power cut at any unit of a switch or a delete (every
unit on CPython; on MicroPython, whose VM cannot collect garbage here, the
first unit and the last, the rename or the rmdir) leaves one slot or the
other current, and every campaign whole or gone."""

import gc
import sys

from flashsim import FlashSim, PowerCut
from rules import campaign as cp
import session
import store
from test_campaigns import Board, _two

MPY = sys.implementation.name == "micropython"
if MPY:
    gc.disable()   # see test_store.py


def _state(fs, n):
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


def _run(op, check, k):
    """op on a fresh two-slot flash, cut at unit k (-1: never), then a boot
    and check(fs, booted session, the two slots' states before, done);
    returns the units op spent."""
    fs = FlashSim()
    s = _two(fs)
    want = (_state(fs, 1), _state(fs, 2))
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


def _cut_sweep(op, check):
    """op uncut, then cut at every unit it spends (on MicroPython: the first
    and the last); returns the units it takes."""
    units = _run(op, check, -1)
    for k in ([0, units - 1] if MPY else range(units)):
        _run(op, check, k)
    return units


def test_a_power_cut_in_a_switch_leaves_one_current_and_both_whole():
    def check(fs, s, want, done):
        old, new = want
        if s.n == 2:                       # before the rename: as it was
            assert not done and _state(fs, 1) == old and cp.encode_state(s.c) == new
        else:                              # after it: slot 1 is current as slot 3
            assert s.n == 3 and cp.encode_state(s.c) == old and _state(fs, 2) == new
    units = _cut_sweep(lambda s: s.switch(1), check)
    assert units > 1                       # it takes a snapshot first, then the rename


def test_a_power_cut_in_a_delete_leaves_the_slot_whole_or_gone():
    def check(fs, s, want, done):
        assert s.n == 2 and cp.encode_state(s.c) == want[1]
        left = _state(fs, 1)
        assert left in (None, want[0])
        listed = [t[0] for t in s.campaigns()[0]]
        assert listed == ([2] if left is None else [1, 2])
        # what the cut left of a deleted slot, the list removed
        assert not [p for p in fs.files if p.startswith("/dicetray/d1")]
        assert "/dicetray/d1" not in fs.dirs
    _cut_sweep(lambda s: s.delete(1), check)
