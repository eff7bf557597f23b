"""Campaign slots: a power cut at any unit of a switch or a delete (every
unit on CPython; on MicroPython, whose VM cannot collect garbage here, the
first unit and the last, the rename or the rmdir) leaves one slot or the
other current, and every campaign whole or gone."""

import gc
import sys

from rules import campaign as cp
from campaignslots import cut_sweep, slot_state

MPY = sys.implementation.name == "micropython"
if MPY:
    gc.disable()   # see storesession.py


def test_a_power_cut_in_a_switch_leaves_one_current_and_both_whole():
    def check(fs, s, want, done):
        old, new = want
        if s.n == 2:                       # before the rename: as it was
            assert not done and slot_state(fs, 1) == old and cp.encode_state(s.c) == new
        else:                              # after it: slot 1 is current as slot 3
            assert s.n == 3 and cp.encode_state(s.c) == old and slot_state(fs, 2) == new
    units = cut_sweep(lambda s: s.switch(1), check)
    assert units > 1                       # it takes a snapshot first, then the rename


def test_a_power_cut_in_a_delete_leaves_the_slot_whole_or_gone():
    def check(fs, s, want, done):
        assert s.n == 2 and cp.encode_state(s.c) == want[1]
        left = slot_state(fs, 1)
        assert left in (None, want[0])
        listed = [t[0] for t in s.campaigns()[0]]
        assert listed == ([2] if left is None else [1, 2])
        # what the cut left of a deleted slot, the list removed
        assert not [p for p in fs.files if p.startswith("/dicetray/d1")]
        assert "/dicetray/d1" not in fs.dirs
    cut_sweep(lambda s: s.delete(1), check)
