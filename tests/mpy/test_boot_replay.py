"""A boot's replay of the journal after the newest snapshot: bounded in
memory whatever the journal's length, a step at a time with the board's
spare() between steps, and snapshotted at once when it was long; a host
that never pauses still leaves a snapshot every SNAP_MAX events (runs on
CPython and on MicroPython)."""

import gc
import sys

from flashsim import FlashSim
from rules import campaign as cp
from rules import expedition
from rules.dice import Dice
import session
import store
from store import chain


MPY = sys.implementation.name == "micropython"
if MPY:
    gc.disable()   # see storesession.py: these tests stay inside the VM's heap
# Events in the long journals: on MicroPython what its heap holds (every
# test of this file in one VM, nothing collected), still several steps.
LONG = 40 if MPY else 300


class Board:
    name = "test"

    def __init__(self, fs, spare=False):
        self.fs = fs
        self.spares = 0
        if spare:
            self.spare = self._spare

    def seed(self):
        return 99

    def _spare(self):
        self.spares += 1


def _backlog(n, system=0):
    """A flash whose current campaign holds n events after its newest
    snapshot (as firmware before the bound, or a host's burst cut short,
    left it): the events appended to its store, never snapshotted. Returns
    (fs, the encoded state after them, the campaign's events)."""
    fs = FlashSim()
    s = session.Session(Board(fs))
    if system:
        s.new_campaign(system)
    c = s.c
    d = Dice(7)
    c.act(cp.CHAR_ADD, (), "Ana")
    s.st.append(c.events[-1])
    for k in range(n - 1):
        if system == 2 and k >= n // 2:   # its first rule event half-way: a long first pass
            c.act(expedition.TURN, (0,), dice=d)
        elif k % 9 == 8:
            c.act(cp.UNDO)
        else:
            c.act(cp.DICE, (6, 1 + k % 5), dice=d)
        s.st.append(c.events[-1])
    s.st.close()
    return fs, cp.encode_state(c), list(c.events)


def test_a_host_that_never_pauses_still_leaves_a_snapshot_every_snap_max():
    fs = FlashSim()
    s = session.Session(Board(fs))
    for k in range((2 if MPY else 5) * session.SNAP_MAX):
        s.do(cp.DICE, (6, 1 + k % 3))       # no idle moment between them
        assert s.st.backlog() < session.SNAP_MAX, k
    again = session.Session(Board(fs))
    assert len(again.c.events) < session.SNAP_MAX   # what the boot replayed
    assert cp.encode_state(again.c) == cp.encode_state(s.c)


def test_a_long_backlog_is_replayed_in_steps_and_snapshotted_at_boot():
    n = LONG
    fs, want, evs = _backlog(n)
    b = Board(fs, spare=True)
    s = session.Session(b)
    assert cp.encode_state(s.c) == want and s.st.seq == n
    assert b.spares >= n // session.REPLAY_STEP - 1       # a step at a time
    assert len(s.c.events) <= 2 * session.KEEP_EVENTS      # the log's window, not the journal
    assert s.st.snaps[-1] == n                             # written at boot: the next replays none
    assert s.st.head == chain.over(store.ZERO, 1, evs)     # the chain carried over every step
    assert not s.warnings
    again = session.Session(Board(fs, spare=True))
    assert again.board.spares == 0 and again.c.events == []
    assert cp.encode_state(again.c) == want
    assert again.recent() == evs[-session.KEEP_EVENTS:]


def test_a_short_backlog_is_no_snapshot_at_boot():
    fs, want, evs = _backlog(session.SNAP_MAX - 1)
    s = session.Session(Board(fs, spare=True))
    assert cp.encode_state(s.c) == want and s.st.snaps == [0]   # boot wrote nothing


def test_every_snapshot_damaged_rebuilds_in_steps_from_the_journal():
    n = LONG
    fs, want, evs = _backlog(n, system=2)
    for path in list(fs.files):
        if path.endswith(".snp"):
            for i in range(64):        # every header: only the journal names the system
                fs.files[path][i] ^= 0xFF
    b = Board(fs, spare=True)
    s = session.Session(b)
    assert s.c.system == 2 and s.c.nevents == n
    # The same state but for the id, which no file names any more.
    assert s.c.chars[0].name == "Ana" and s.c.x == cp.decode_state(want).x
    # A first pass to the first rule event (half-way), then the replay.
    assert b.spares >= (n // 2 + n) // session.REPLAY_STEP - 2
    assert len(s.c.events) <= 2 * session.KEEP_EVENTS
    text = " ".join(w[1] for w in s.warnings)
    assert "rebuilt from its journal as expedition" in text and "damaged" in text, text
    assert s.st.snaps[-1] == n
    again = session.Session(Board(fs))
    assert cp.encode_state(again.c) == cp.encode_state(s.c) and not again.warnings


def test_a_long_replay_says_so_on_the_screen_and_a_short_one_does_not():
    from fakefb import FakeFB
    from ui import replay

    replay.SAY = 1   # a word every step here (8 on a board): a journal this test's heap holds
    for n, said in ((40, True), (session.REPLAY_STEP - 1, False)):
        fs, want, evs = _backlog(n)
        b = Board(fs, spare=True)
        b.display = FakeFB()
        s = session.Session(b, replay.Replaying(b, session.REPLAY_STEP))
        assert cp.encode_state(s.c) == want
        assert b.spares >= n // session.REPLAY_STEP - 1   # the board's spare() still called
        if said:   # the count every SAY steps, the last one left on the screen
            assert b.display.rows[4] == "%d events read" % (b.spares * session.REPLAY_STEP)
            assert "Keep the power" in b.display.rows
        else:
            assert b.display.shows == 0
