"""Backup store: incremental, dedupe, immutable versions, gaps, forks,
interrupted backups, damage detection; against the real firmware (a
RamTray, tests/host/ramtray.py) through the host's real Device."""
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from ramtray import RamTray, play

from dicetray.backup import BackupStore, StoreError
from dicetray.rules import campaign as cp


def store(tmp_path, name="b.sqlite3"):
    return BackupStore(str(tmp_path / name))


def test_home_override(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "h"))
    st = BackupStore()
    assert st.path == str(tmp_path / "h" / "backups.sqlite3") and os.path.exists(st.path)


@pytest.mark.parametrize("system", [0, 1, 2])
def test_incremental_and_dedupe(tmp_path, system):
    st = store(tmp_path)
    tray = play(RamTray(system=system, cid=77), 50)
    dev = tray.device()
    r1 = st.take(dev)
    assert not r1.duplicate and r1.last == 50 and r1.fetched == 50
    r2 = st.take(dev)
    assert r2.duplicate and r2.backup == r1.backup and r2.fetched == 1  # only the anchor event
    assert len(st.list()) == 1
    play(tray, 10, seed=9)
    r3 = st.take(dev)
    assert not r3.duplicate and r3.fetched == 11 and r3.last == 60
    assert [b["id"] for b in st.list()] == [r1.backup, r3.backup]
    # every event stored once
    assert st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 60
    b = st.load(r3.backup)
    assert b.state == tray.state() and b.events == tray.journal() and b.head == tray.head.hex()
    assert st.load(r1.backup).last == 50  # the older version is unchanged


def test_restore_onto_fresh_device_is_bit_identical(tmp_path):
    st = store(tmp_path)
    tray = play(RamTray(system=0, cid=5), 120)
    bid = st.take(tray.device()).backup
    fresh = RamTray(system=1, cid=999)
    snap, events, seq, first = st.restore_payload(bid)
    assert first == 1 and seq == 120 and len(events) == 120
    dev = fresh.device()
    info = dev.restore(snap, events, seq, first)
    assert info["events"] == 120 and info["campaign"] == 5 and info["system"] == "hunt"
    assert fresh.state() == tray.state()
    assert dev.events(0) == tray.journal()             # full history
    assert fresh.snapshot() == tray.snapshot()         # same undo window
    assert info["head"] == tray.head.hex()             # and the same hash chain
    # and after a reboot the tray holds it the same
    fresh.boot()
    assert fresh.snapshot() == tray.snapshot() and fresh.device().info()["events"] == 120


def test_compacted_before_first_backup_is_a_baseline(tmp_path):
    st = store(tmp_path)
    # A tray that keeps 10 events below its compaction floor, in small segments.
    tray = play(RamTray(system=2, keep=10, roll=1), 80)
    first = tray.first()
    assert first > 1
    dev = tray.device()
    r = st.take(dev)
    assert "compacted" in " ".join(r.notes) and not r.duplicate
    b = st.load(r.backup)
    assert b.first == first and b.base_seq == 80 and b.fold().nevents == 80
    assert "1..%d" % (first - 1) in st.list()[0]["gap"]
    fresh = RamTray(system=2, cid=1)
    fresh.device().restore(*st.restore_payload(r.backup))
    assert fresh.state() == tray.state()
    play(tray, 5, seed=4)  # continues incrementally from a baseline
    r2 = st.take(dev)
    assert r2.fetched == 5 and st.load(r2.backup).last == 85


def test_gap_after_a_backup_is_recorded(tmp_path):
    st = store(tmp_path)
    tray = play(RamTray(system=0), 30)
    dev = tray.device()
    st.take(dev)
    tray.tune(keep=5, roll=1)   # from now on it compacts to about 5 events below its floor
    play(tray, 40, seed=8)
    first = tray.first()
    assert 31 < first <= 70
    r = st.take(dev)
    assert any("31..%d" % (first - 1) in n for n in r.notes), r.notes
    assert st.load(r.backup).fold().nevents == 70
    assert st.load(1).last == 30


def test_diverged_history_gets_a_new_lineage(tmp_path):
    st = store(tmp_path)
    tray = play(RamTray(system=0, cid=3), 40)
    dev = tray.device()
    b1 = st.take(dev).backup
    play(tray, 20, seed=6)
    b2 = st.take(dev).backup
    dev.restore(*st.restore_payload(b1))  # back to event 40, then play on differently
    assert tray.nevents == 40
    play(tray, 7, seed=99)
    r = st.take(dev)
    assert any("differs from backup %d after event 40" % b2 in n for n in r.notes)
    rows = {b["id"]: b for b in st.list()}
    assert rows[r.backup]["parent"] == rows[b2]["lineage"] and rows[r.backup]["fork"] == 40
    b = st.load(r.backup)
    assert b.state == tray.state() and b.last == 47
    assert st.load(b2).last == 60  # the other branch is kept
    # events up to the fork are not stored twice
    assert st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 60 + 7


def test_schema_mismatch_refused(tmp_path, monkeypatch):
    tray = play(RamTray(), 3)
    dev = tray.device()
    # A firmware of a newer state schema: the tray's own rules.codec (not
    # the host's dicetray.rules.codec) says 2.
    from rules import codec as fw_codec
    monkeypatch.setattr(fw_codec, "VERSION", 2)
    assert dev.info()["schema"] == 2
    with pytest.raises(StoreError, match="schema is 2.*upgrade the host tool"):
        store(tmp_path).take(dev)


def test_events_that_do_not_fold_are_not_stored(tmp_path):
    st = store(tmp_path)
    tray = play(RamTray(), 20)
    # The tray's RAM journal (what EVENTS serves) no longer holds what its
    # state came from: its last event is another one.
    tray.c.events[-1] = cp.codec.encode_event(10, (6, 1), b"\x03")
    with pytest.raises(StoreError, match="nothing was stored"):
        st.take(tray.device())
    assert st.list() == [] and st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 0


@pytest.mark.parametrize("stage", ["fetched", "events", "row"])
def test_exception_mid_backup_leaves_earlier_backups(tmp_path, stage):
    st = store(tmp_path)
    tray = play(RamTray(), 30)
    dev = tray.device()
    b1 = st.take(dev).backup
    play(tray, 30, seed=2)

    def boom(s):
        if s == stage:
            raise RuntimeError("injected at " + s)
    st.fault = boom
    with pytest.raises(RuntimeError):
        st.take(dev)
    st.fault = None
    assert [b["id"] for b in st.list()] == [b1]
    assert st.incomplete() == 0
    assert st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 30
    st.load(b1)
    r = st.take(dev)  # and the next backup works
    assert not r.duplicate and st.load(r.backup).last == 60


def test_host_killed_mid_backup(tmp_path):
    db = str(tmp_path / "k.sqlite3")
    here = os.path.dirname(os.path.abspath(__file__))
    script = textwrap.dedent("""
        import time
        from ramtray import RamTray, play
        from dicetray.backup import BackupStore
        st = BackupStore(%r)
        tray = play(RamTray(cid=42), 40)
        dev = tray.device()
        st.take(dev)
        play(tray, 200, seed=5)
        def hang(stage):
            if stage == "events":
                print("MIDWAY", flush=True)
                time.sleep(60)
        st.fault = hang
        st.take(dev)
    """ % db)
    root = os.path.dirname(os.path.dirname(here))
    # ramtray, and the firmware and tests/mpy it imports top-level (pytest's pythonpath)
    paths = (here, os.path.join(root, "firmware"), os.path.join(root, "tests", "mpy"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "MIDWAY"
    finally:
        p.kill()
        p.wait()
    st = BackupStore(db)
    rows = st.list()
    assert len(rows) == 1 and rows[0]["last"] == 40
    assert st.load(rows[0]["id"]).fold().nevents == 40
    assert st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 40
    assert st.db.execute("SELECT count(*) FROM backups").fetchone()[0] == 1


def test_backups_are_immutable(tmp_path):
    st = store(tmp_path)
    st.take(play(RamTray(), 10).device())
    for sql in ("DELETE FROM backups", "UPDATE backups SET last=1", "DELETE FROM events",
                "UPDATE events SET ev=x'00'"):
        with pytest.raises(sqlite3.DatabaseError, match="never deleted|immutable"):
            st.db.execute(sql)


def _flip(path, needle):
    data = bytearray(open(path, "rb").read())
    i = data.find(needle)
    assert i >= 0 and data.find(needle, i + 1) < 0
    data[i + len(needle) // 2] ^= 0x40
    open(path, "wb").write(bytes(data))


def _three_backups(tmp_path):
    st = store(tmp_path)
    tray = play(RamTray(cid=11), 30)
    dev = tray.device()
    ids = [st.take(dev).backup]
    for s in (1, 2):
        play(tray, 15, seed=s)
        ids.append(st.take(dev).backup)
    return st, tray, ids


def restored(st, bid):
    """A blank tray that took backup bid (its events, once it answered)."""
    fresh = RamTray(cid=1)
    return fresh.device().restore(*st.restore_payload(bid))["events"]


def test_corrupt_backup_state_row(tmp_path):
    st, tray, ids = _three_backups(tmp_path)
    state = st.load(ids[1]).state
    st.close()
    _flip(st.path, state)
    st = BackupStore(st.path)
    with pytest.raises(StoreError, match="backup %d is damaged" % ids[1]):
        st.load(ids[1])
    for i in (ids[0], ids[2]):
        assert restored(st, i) == st.load(i).last


def test_corrupt_event_names_it_and_older_backups_survive(tmp_path):
    st, tray, ids = _three_backups(tmp_path)
    # an event only the third backup covers (seq 46..60), unique in the log
    journal = tray.journal()
    seq, ev = max(((i + 1, e) for i, e in enumerate(journal) if i >= 45
                   and journal.count(e) == 1), key=lambda x: len(x[1]))
    st.close()
    _flip(st.path, ev)
    st = BackupStore(st.path)
    with pytest.raises(StoreError, match="event %d of campaign 11 is damaged" % seq):
        st.load(ids[2])
    for i in ids[:2]:
        assert st.load(i).last in (30, 45)
        assert restored(st, i) == st.load(i).last


def test_truncated_database(tmp_path):
    st, tray, ids = _three_backups(tmp_path)
    dev = tray.device()
    st.close()
    copy = str(tmp_path / "copy.sqlite3")
    shutil.copy(st.path, copy)
    size = os.path.getsize(copy)
    with open(copy, "r+b") as f:
        f.truncate(size // 2)
    with pytest.raises(StoreError) as e:
        t = BackupStore(copy)
        for b in t.list():
            t.load(b["id"])
        t.take(dev)
    assert copy in str(e.value) and "damaged" in str(e.value)
    st = BackupStore(st.path)  # the original still restores everything
    for i in ids:
        assert restored(st, i) == st.load(i).last


def test_missing_backup_and_device_moving_on(tmp_path):
    st = store(tmp_path)
    with pytest.raises(StoreError, match="no backup 4"):
        st.load(4)
    tray = play(RamTray(), 10)
    dev = tray.device()
    snap = dev.snapshot
    calls = []

    def moving():  # an action lands at the table between the events and the snapshot
        if not calls:
            calls.append(1)
            tray.act(cp.DICE, (6, 2))
        return snap()
    dev.snapshot = moving
    r = st.take(dev)
    assert r.last == 11 and st.load(r.backup).state == tray.state()


@pytest.mark.parametrize("before", [False, True])
def test_two_backups_at_once_store_one_version(tmp_path, before):
    """Two `backup` runs of one tray at once (the hub
    serves both) each found the same newest version, fetched the same
    events and stored them: the same version twice. The one that writes
    second finds the other's version there in its own transaction and
    reports a duplicate, as a backup run after it would (with a version
    before them, and for a campaign's first backup)."""
    path = str(tmp_path / "b.sqlite3")
    a, b = BackupStore(path), BackupStore(path)
    tray = play(RamTray(cid=9), 30)
    dev = tray.device()
    first = [a.take(dev).backup] if before else []
    play(tray, 10, seed=3)
    other = []

    def meanwhile(stage):
        if stage == "fetched" and not other:
            other.append(b.take(dev))                 # the other run, from start to end
    a.fault = meanwhile
    r = a.take(dev)
    assert not other[0].duplicate
    assert r.duplicate and r.backup == other[0].backup
    assert [x["id"] for x in a.list()] == first + [r.backup]
    assert BackupStore(path).take(dev).duplicate
