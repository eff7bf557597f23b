"""Backup store: incremental, dedupe, immutable versions, gaps, forks,
interrupted backups, damage detection (fake device on the real rules core)."""
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from fake_device import FakeDevice, play  # noqa: E402

from dicetray.backup import BackupStore, StoreError  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402


def store(tmp_path, name="b.sqlite3"):
    return BackupStore(str(tmp_path / name))


def test_home_override(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "h"))
    st = BackupStore()
    assert st.path == str(tmp_path / "h" / "backups.sqlite3") and os.path.exists(st.path)


@pytest.mark.parametrize("system", [0, 1, 2])
def test_incremental_and_dedupe(tmp_path, system):
    st = store(tmp_path)
    dev = play(FakeDevice(system=system, cid=77), 50)
    r1 = st.take(dev)
    assert not r1.duplicate and r1.last == 50 and r1.fetched == 50
    r2 = st.take(dev)
    assert r2.duplicate and r2.backup == r1.backup and r2.fetched == 1  # only the anchor event
    assert len(st.list()) == 1
    play(dev, 10, seed=9)
    r3 = st.take(dev)
    assert not r3.duplicate and r3.fetched == 11 and r3.last == 60
    assert [b["id"] for b in st.list()] == [r1.backup, r3.backup]
    # every event stored once
    assert st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 60
    b = st.load(r3.backup)
    assert b.state == cp.encode_state(dev.c) and len(b.events) == 60
    assert st.load(r1.backup).last == 50  # the older version is unchanged


def test_restore_onto_fresh_device_is_bit_identical(tmp_path):
    st = store(tmp_path)
    dev = play(FakeDevice(system=0, cid=5), 120)
    bid = st.take(dev).backup
    fresh = FakeDevice(system=1, cid=999)
    snap, events, seq, first = st.restore_payload(bid)
    assert first == 1 and seq == 120 and len(events) == 120
    fresh.restore(snap, events, seq, first)
    assert cp.encode_state(fresh.c) == cp.encode_state(dev.c)
    assert fresh.events(0) == dev.events(0)            # full history
    assert cp.encode_snapshot(fresh.c) == cp.encode_snapshot(dev.c)  # same undo window
    # and it keeps working the same: the same action gives the same event
    assert fresh.info()["events"] == 120


def test_compacted_before_first_backup_is_a_baseline(tmp_path):
    st = store(tmp_path)
    dev = play(FakeDevice(system=2), 80)
    dev.compact(10)
    r = st.take(dev)
    assert "compacted" in " ".join(r.notes) and not r.duplicate
    b = st.load(r.backup)
    assert b.first == 71 and b.base_seq == 80 and b.fold().nevents == 80
    assert "1..70" in st.list()[0]["gap"]
    fresh = FakeDevice(system=2, cid=1)
    fresh.restore(*st.restore_payload(r.backup))
    assert cp.encode_state(fresh.c) == cp.encode_state(dev.c)
    play(dev, 5, seed=4)  # continues incrementally from a baseline
    r2 = st.take(dev)
    assert r2.fetched == 5 and st.load(r2.backup).last == 85


def test_gap_after_a_backup_is_recorded(tmp_path):
    st = store(tmp_path)
    dev = play(FakeDevice(system=0), 30)
    st.take(dev)
    play(dev, 40, seed=8)
    dev.compact(5)
    r = st.take(dev)
    assert any("31..65" in n for n in r.notes)
    assert st.load(r.backup).fold().nevents == 70
    assert st.load(1).last == 30


def test_diverged_history_gets_a_new_lineage(tmp_path):
    st = store(tmp_path)
    dev = play(FakeDevice(system=0, cid=3), 40)
    b1 = st.take(dev).backup
    play(dev, 20, seed=6)
    b2 = st.take(dev).backup
    dev.restore(*st.restore_payload(b1))  # back to event 40, then play on differently
    play(dev, 7, seed=99)
    r = st.take(dev)
    assert any("differs from backup %d after event 40" % b2 in n for n in r.notes)
    rows = {b["id"]: b for b in st.list()}
    assert rows[r.backup]["parent"] == rows[b2]["lineage"] and rows[r.backup]["fork"] == 40
    b = st.load(r.backup)
    assert b.state == cp.encode_state(dev.c) and b.last == 47
    assert st.load(b2).last == 60  # the other branch is kept
    # events up to the fork are not stored twice
    assert st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 60 + 7


def test_schema_mismatch_refused(tmp_path):
    dev = play(FakeDevice(), 3)
    info = dev.info
    dev.info = lambda: dict(info(), schema=2)
    with pytest.raises(StoreError, match="schema is 2.*upgrade the host tool"):
        store(tmp_path).take(dev)


def test_events_that_do_not_fold_are_not_stored(tmp_path):
    st = store(tmp_path)
    dev = play(FakeDevice(), 20)
    real = dev.events
    dev.events = lambda since, progress=None: real(since)[:-1] + [cp.codec.encode_event(10, (6, 1), b"\x03")]
    with pytest.raises(StoreError, match="nothing was stored"):
        st.take(dev)
    assert st.list() == [] and st.db.execute("SELECT count(*) FROM events").fetchone()[0] == 0


@pytest.mark.parametrize("stage", ["fetched", "events", "row"])
def test_exception_mid_backup_leaves_earlier_backups(tmp_path, stage):
    st = store(tmp_path)
    dev = play(FakeDevice(), 30)
    b1 = st.take(dev).backup
    play(dev, 30, seed=2)

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
        import sys, time
        sys.path.insert(0, %r)
        from fake_device import FakeDevice, play
        from dicetray.backup import BackupStore
        st = BackupStore(%r)
        dev = play(FakeDevice(cid=42), 40)
        st.take(dev)
        play(dev, 200, seed=5)
        def hang(stage):
            if stage == "events":
                print("MIDWAY", flush=True)
                time.sleep(60)
        st.fault = hang
        st.take(dev)
    """ % (here, db))
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
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
    dev = play(FakeDevice(), 10)
    st.take(dev)
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
    dev = play(FakeDevice(cid=11), 30)
    ids = [st.take(dev).backup]
    for s in (1, 2):
        play(dev, 15, seed=s)
        ids.append(st.take(dev).backup)
    return st, dev, ids


def test_corrupt_backup_state_row(tmp_path):
    st, dev, ids = _three_backups(tmp_path)
    state = st.load(ids[1]).state
    st.close()
    _flip(st.path, state)
    st = BackupStore(st.path)
    with pytest.raises(StoreError, match="backup %d is damaged" % ids[1]):
        st.load(ids[1])
    for i in (ids[0], ids[2]):
        fresh = FakeDevice(cid=1)
        fresh.restore(*st.restore_payload(i))
        assert fresh.c.nevents == st.load(i).last


def test_corrupt_event_names_it_and_older_backups_survive(tmp_path):
    st, dev, ids = _three_backups(tmp_path)
    # an event only the third backup covers (seq 46..60), unique in the log
    seq, ev = max(((i + 1, e) for i, e in enumerate(dev.journal) if i >= 45
                   and dev.journal.count(e) == 1), key=lambda x: len(x[1]))
    st.close()
    _flip(st.path, ev)
    st = BackupStore(st.path)
    with pytest.raises(StoreError, match="event %d of campaign 11 is damaged" % seq):
        st.load(ids[2])
    for i in ids[:2]:
        assert st.load(i).last in (30, 45)
        FakeDevice().restore(*st.restore_payload(i))


def test_truncated_database(tmp_path):
    st, dev, ids = _three_backups(tmp_path)
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
        FakeDevice().restore(*st.restore_payload(i))


def test_missing_backup_and_device_moving_on(tmp_path):
    st = store(tmp_path)
    with pytest.raises(StoreError, match="no backup 4"):
        st.load(4)
    dev = play(FakeDevice(), 10)
    snap = dev.snapshot
    calls = []

    def moving():  # an action lands between the events and the snapshot
        if not calls:
            calls.append(1)
            dev.act(cp.DICE, (6, 2))
        return snap()
    dev.snapshot = moving
    r = st.take(dev)
    assert r.last == 11 and st.load(r.backup).state == cp.encode_state(dev.c)
