"""The session on flash: a reboot's recent events, the snapshot cadence
(runs on CPython and on MicroPython)."""

from flashsim import FlashSim
from rules import campaign as cp
import session

from campaignslots import Board  # a flash and seed 99, nothing else


def _play(s, n):
    for k in range(n):
        s.do(cp.DICE, (6, 1 + k % 3))
        idle(s)


def idle(s):
    """What the app does when no key comes: the session's flash work."""
    while s.tidy():
        pass


def test_reboot_tops_up_the_recent_events_from_the_journal():
    fs = FlashSim()
    s = session.Session(Board(fs))
    s.do(cp.CHAR_ADD, (), "Ana")
    idle(s)
    _play(s, 44)                     # 45 events: the last snapshot at 32 (every 16)
    before = list(s.c.events)
    again = session.Session(Board(fs))
    # The boot replayed only what follows the snapshot...
    assert len(again.c.events) == 45 % session.SNAP_EVERY
    # ...the log and the builder get the rest from the journal, once.
    assert again.recent() == before
    assert again.recent() is again.c.events and len(again.c.events) == 45
    assert cp.encode_state(again.c) == cp.encode_state(s.c)


def test_recent_keeps_at_most_the_log_window():
    fs = FlashSim()
    s = session.Session(Board(fs))
    _play(s, 100)                    # snapshots every 16, the last at 96
    all_events = list(s.c.events)
    again = session.Session(Board(fs))
    got = again.recent()
    assert len(got) == session.KEEP_EVENTS
    assert got == all_events[-session.KEEP_EVENTS:]


def test_an_undo_is_snapshotted_at_the_next_idle_moment():
    fs = FlashSim()
    s = session.Session(Board(fs))
    _play(s, 5)
    s.do(cp.UNDO)
    assert s.st.snaps[-1] == 0 and s.st.seq == 6   # the action itself writes no snapshot
    assert s.tidy() and s.st.pending() == 0 and s.st.snaps[-1] == 0   # its event folded first
    assert s.tidy() and s.st.snaps[-1] == s.st.seq == 6
    again = session.Session(Board(fs))   # nothing left to replay
    assert again.c.events == [] and cp.encode_state(again.c) == cp.encode_state(s.c)
    again.do(cp.REDO)                    # the undo window came back with it
    assert again.c.nevents == 7


def test_session_wraps_a_boards_os_module():
    # A board passes its `os` module; some ports have os.sync, which must
    # not make it pass for a store fs (it has no open() or size()).
    import store

    class OsLike:
        def sync(self):
            pass

        def listdir(self, d):
            return []

    sim = FlashSim()
    assert session.store_fs(sim) is sim
    assert isinstance(session.store_fs(OsLike()), store.OsFs)
    import os
    assert isinstance(session.store_fs(os), store.OsFs)


def _damage_snapshots(fs, at):
    """Flip a byte of every snapshot of the current campaign, `at` bytes in
    (negative: from the end)."""
    n = 0
    for path in list(fs.files):
        if path.endswith(".snp"):
            b = fs.files[path]
            b[at] ^= 0xFF
            n += 1
    return n


def test_a_campaign_whose_snapshots_all_fail_keeps_its_rule_system():
    # With both snapshots damaged an expedition
    # journal was refolded under hunt rules, a new hunt campaign.
    from rules import expedition
    for at in (-3, 30):          # the state's body; the file's and state's headers
        fs = FlashSim()
        s = session.Session(Board(fs))
        s.new_campaign(2)
        cid = s.c.cid
        s.do(cp.CHAR_ADD, (), "Ana")
        for k in range(40):
            s.do(expedition.TURN, (0,))
        want = cp.encode_state(s.c)
        assert _damage_snapshots(fs, at) >= 2
        again = session.Session(Board(fs))
        assert again.c.system == 2 and again.c.nevents == 41
        text = " ".join(w[1] for w in again.warnings)
        assert "rebuilt from its journal as expedition" in text, text
        if at < 0:               # the headers read: the campaign keeps its id, the state whole
            assert again.c.cid == cid and cp.encode_state(again.c) == want


def test_an_action_is_one_metadata_commit_the_idle_moment_does_the_rest():
    # The event on flash without an erase; the snapshot
    # every SNAP_EVERY and the fold of the pending journal wait for tidy().
    fs = FlashSim()
    s = session.Session(Board(fs))
    idle(s)                                  # the first idle moment opens the pending file
    for k in range(2 * session.SNAP_EVERY):
        blocks, commits = fs.blocks, fs.commits
        s.do(cp.DICE, (6, 1 + k % 3))
        assert fs.blocks == blocks and fs.commits == commits + 1, k
        idle(s)
    assert s.st.snaps == [session.SNAP_EVERY, 2 * session.SNAP_EVERY]
    assert not s.tidy()                      # nothing left to do
