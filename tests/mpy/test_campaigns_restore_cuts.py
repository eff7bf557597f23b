"""A power cut at any unit of a restore (every unit on CPython; on
MicroPython, whose VM cannot collect garbage here, the first unit and the
last, as test_campaigns_cuts.py) leaves the old campaign current and every
slot whole, or the restored one current, the others whole and the copy it
replaces whole or gone: nothing is lost."""

import gc
import sys

from rules import campaign as cp
from campaignslots import backup_of, cut_sweep, restore, slot_state

if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def test_a_power_cut_in_a_restore_leaves_the_old_current_or_the_restored_one_and_no_loss():
    b = backup_of(0, 11, 9)

    def check(fs, s, want, done):
        old1, old2 = want
        assert slot_state(fs, 2) == old2                         # the other campaign: always whole
        if s.n == 2:                                         # before the rename: as it was
            assert not done and slot_state(fs, 1) == old1 and cp.encode_state(s.c) == old2
            assert [t[0] for t in s.campaigns()[0]] == [1, 2]
        else:                                                # after it: restored and current
            assert s.n == 3 and cp.encode_state(s.c) == b[2]
            left = slot_state(fs, 1)
            assert left in (None, old1) and (done <= (left is None))
            assert [t[0] for t in s.campaigns()[0]] == ([2, 3] if left is None else [1, 2, 3])
    cut_sweep(lambda s: restore(s, b), check)
