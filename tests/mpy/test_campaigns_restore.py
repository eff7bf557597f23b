"""A restore and the campaign slots: the restored
campaign becomes the current one in the next slot; every copy of it on
the flash (the same campaign id and system: the current campaign, or an
older one in another slot) goes, so a campaign is never in two slots;
every other campaign keeps its slot. CPython and MicroPython (the power
cuts: test_campaigns_restore_cuts.py, a VM of their own)."""

import gc
import sys

from flashsim import FlashSim
from rules import campaign as cp
import session
from campaignslots import Board, backup_of, restore, two_slots

if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def _slots(s):
    return [(t[0], t[1], t[2], t[3]) for t in s.campaigns()[0]]


# two_slots: slot 1 hunt campaign 11 (21 events), slot 2 paths campaign 22 (3, current)

def test_another_campaign_is_restored_beside_the_others():
    fs = FlashSim()
    s = two_slots(fs)
    b = backup_of(0, 33, 5)
    restore(s, b)
    assert _slots(s) == [(1, 11, 0, 21), (2, 22, 1, 3), (3, 33, 0, 5)]
    assert s.n == 3 and cp.encode_state(s.c) == b[2]


def test_the_current_campaign_restored_replaces_its_copy():
    fs = FlashSim()
    s = two_slots(fs)
    b = backup_of(1, 22, 7)                      # an earlier or later history of slot 2's
    restore(s, b)
    assert _slots(s) == [(1, 11, 0, 21), (3, 22, 1, 7)]
    assert s.n == 3 and cp.encode_state(s.c) == b[2]
    again = session.Session(Board(fs))        # and after a reboot
    assert again.n == 3 and cp.encode_state(again.c) == b[2]
    assert _slots(again) == [(1, 11, 0, 21), (3, 22, 1, 7)]


def test_a_campaign_in_another_slot_restored_replaces_that_copy():
    fs = FlashSim()
    s = two_slots(fs)
    b = backup_of(0, 11, 9)
    restore(s, b)
    assert _slots(s) == [(2, 22, 1, 3), (3, 11, 0, 9)]      # not in slots 1 and 3
    assert s.n == 3 and cp.encode_state(s.c) == b[2]
    assert "/dicetray/c1" not in fs.dirs and "/dicetray/d1" not in fs.dirs
    # the same id in another rule system is another campaign: it stays
    restore(s, backup_of(1, 11, 2))
    assert _slots(s) == [(2, 22, 1, 3), (3, 11, 0, 9), (4, 11, 1, 2)]
