"""A new campaign from the host (`dicetray campaigns new
SYSTEM --name NAME`, the link's NEW): the session stages it as Settings >
New campaign does, named by its event 1 (RENAME 2, 0: the campaign
itself), and swaps it in by one
rename; the old campaign keeps its slot; a power cut at any unit leaves
the old one current or the new one whole. CPython and MicroPython (the
cut sweep: every unit on CPython, the first and the last on MicroPython,
as test_campaigns_cuts.py)."""

import gc
import sys

from flashsim import FlashSim
from rules import campaign as cp
import session
import staging
from support import raises
from campaignslots import Board, cut_sweep, slot_state, two_slots

if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def test_a_named_new_campaign_is_staged_swapped_in_and_listed():
    # A new campaign as Settings > New campaign makes it,
    # named: its name is its event 1 (RENAME 2, 0), so a fold from event 1 (a
    # backup, a restore) gives it too; the old campaign keeps its slot.
    fs = FlashSim()
    s = two_slots(fs)
    before = [(t[0], t[1], t[2], t[3]) for t in s.campaigns()[0]]
    s.board._seed = 33
    staging.new_campaign(s, 2, "Westmarch")
    assert (s.n, s.c.system, s.c.cid, s.c.name, s.c.nevents) == (3, 2, 33, "Westmarch", 1)
    assert s.st.read(0, 1)[0] == cp.codec.encode_event(cp.RENAME, (2, 0), b"", "Westmarch")
    got = s.campaigns()[0]
    assert [(t[0], t[1], t[2], t[3]) for t in got[:2]] == before
    assert [t[6] for t in got] == ["", "", "Westmarch"] and got[2][3] == 1
    again = session.Session(Board(fs))                     # a reboot
    assert (again.n, again.c.name, again.c.nevents) == (3, "Westmarch", 1)
    again.do(cp.DICE, (6, 1))
    again.snapshot()
    assert again.campaigns()[0][2][6] == "Westmarch"      # from its newest snapshot
    # Refused before anything is written: no staging directory, no slot.
    for system, name in ((3, "X"), (-1, ""), (1, "A name too long"), (1, " Lead"), (1, "caf\u00e9")):
        raises(ValueError, staging.new_campaign, again, system, name)
    assert again.n == 3 and "/dicetray/n4" not in fs.dirs
    again.new_campaign(1)                                  # unnamed: as before, no event
    assert (again.n, again.c.name, again.c.nevents) == (4, "", 0)


def test_a_power_cut_in_a_named_new_campaign_leaves_the_old_current_or_the_new_whole():
    # Staged in n3/ (its snapshot, then its name as event
    # 1), then one rename: the old campaign stays current and whole, or the
    # new one is current with its name.
    def check(fs, s, want, done):
        old, other = want
        assert slot_state(fs, 1) == old
        if s.n == 2:
            assert not done and cp.encode_state(s.c) == other and "/dicetray/c3" not in fs.dirs
        else:
            assert s.n == 3 and (s.c.system, s.c.name, s.c.nevents) == (2, "Westmarch", 1)
            assert slot_state(fs, 2) == other
    units = cut_sweep(lambda s: staging.new_campaign(s, 2, "Westmarch"), check)
    assert units > 2


def test_the_campaigns_name_is_an_event_and_the_end_of_its_state():
    from rules import systems
    c = cp.Campaign(systems.PATHS, 5, depth=4)
    c.act(cp.CHAR_ADD, (), "Ada")
    unnamed = cp.encode_state(c)
    assert cp.decode_state(unnamed).name == ""
    out = c.act(cp.RENAME, (2, 0), "Westmarch")
    assert c.name == "Westmarch" and "the campaign is now Westmarch" in out.notes
    named = cp.encode_state(c)
    assert named.endswith(b"\x09Westmarch")                # after the talismans, only when named
    assert cp.decode_state(named).name == "Westmarch"
    for _ in range(5):                                     # past the undo window's midpoint
        c.act(cp.DICE, (6, 1), faces=(3,))
    snap = cp.encode_snapshot(c)
    back = cp.decode_snapshot(snap, 4)
    assert back.name == "Westmarch" and cp.encode_snapshot(back) == snap
    c = cp.decode_snapshot(cp.encode_snapshot(cp.replay(systems.PATHS, c.events[:2], 5)), 4)
    c.undo()                                               # the naming taken back
    assert c.name == "" and cp.decode_state(cp.encode_state(c)).name == ""
    c.redo()
    assert c.name == "Westmarch"
    for bad in ("", "A name too long", "x\n"):
        raises(ValueError, c.act, cp.RENAME, (2, 0), bad)
    raises(ValueError, c.act, cp.RENAME, (2, 1), "Valid")   # the campaign is index 0
    raises(ValueError, c.act, cp.RENAME, (3, 0), "Valid")
    raises(ValueError, cp.decode_state, unnamed + b"\x00")  # an empty name is damage


def test_settings_campaigns_shows_a_slots_name():
    from hw.keys import K_UP, K_OK
    from fakeapp import flash, boot, open_campaigns, press
    fs = flash()
    a, b, s = boot(fs)
    s.set_bright(3)                            # past the first run's tour
    staging.new_campaign(s, 0, "Westmarch")
    a, b, s = boot(fs)
    rows = open_campaigns(a)
    assert rows[1:3] == [" hunt      0  8K", "*hunt      1  8K"]
    assert rows[6:] == ["#2 Westmarch", "Current: in use"]
    rows = press(a, K_UP)
    assert rows[6] == "#1 id 5"                # unnamed: its id, as before
    rows = press(a, K_OK)
    assert rows[4] == ""                       # no Name row
