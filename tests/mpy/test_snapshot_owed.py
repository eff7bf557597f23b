"""A snapshot owed when the power went is owed after the boot: the bound
on what a boot replays (session.py SNAP_MAX) holds across power cuts
(runs on CPython and on MicroPython)."""

from flashsim import FlashSim
from rules import campaign as cp
import session

from campaignslots import Board  # a flash and seed 99, nothing else


def test_after_a_boot_that_replayed_a_snapshot_owed_the_bound_still_holds():
    # A snapshot off the SNAP_EVERY grid (an idle moment's, at event 3),
    # then SNAP_MAX - 1 events and a power cut: the boot replays 31 (no
    # snapshot at boot), and the snapshot owed since event 16 is owed
    # still: the next actions must not reach SNAP_MAX before it is written
    # (the boot forgot it, and in a power-cut run on the rp2 port the next
    # cut's boot replayed SNAP_MAX or more and wrote a snapshot itself).
    fs = FlashSim()
    s = session.Session(Board(fs))
    for k in range(3):
        s.do(cp.DICE, (6, 1))
    s.snapshot()
    for k in range(session.SNAP_MAX - 1):
        s.do(cp.DICE, (6, 1 + k % 3))
    s.st.close()                             # the power cut
    s = session.Session(Board(fs))
    assert len(s.c.events) == session.SNAP_MAX - 1 and s.st.snaps[-1] == 3
    for k in range(session.SNAP_EVERY):
        s.do(cp.DICE, (6, 1 + k % 3))
        assert s.st.backlog() < session.SNAP_MAX, k
