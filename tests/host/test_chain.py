"""The hash chain on the host: backups store the chain,
load() checks every link, an incremental backup compares the device's head
with the stored history, `dicetray verify` checks a backup end to end and
against the device, restore carries the head. A forger here edits a stored
event and recomputes its CRC, the events digest and the stored fold, as
a forged backup that once passed did; the full forger recomputes the chain too.
The device is the real firmware in this process (a RamTray,
tests/host/ramtray.py: its store chains every event); the last test runs
it in the simulator."""
import os
import sqlite3
import zlib

from ramtray import RamTray, play, serve

import pytest

from dicetray import backup as bk
from dicetray import cli
from dicetray.backup import BackupStore, StoreError
from dicetray.fwstore import chain
from dicetray.rules import campaign as cp, codec


def device(n=30, rolls=(5, 12, 20), **kw):
    """A tray with a hunt campaign of n events, free rolls (DICE: faces
    that change no state, so an edit to them keeps every fold) at the seqs
    in `rolls`; kw: RamTray's (keep, roll)."""
    tray = RamTray(system=0, cid=31, **kw)
    play(tray, 1)
    while tray.nevents < n:
        if tray.nevents + 1 in rolls:
            tray.act(cp.DICE, (6, 3))
        else:
            play(tray, 1, seed=tray.nevents)
    first = tray.first()
    evs = tray.device().events(first - 1)
    assert all(codec.decode_event(evs[s - first])[0] == cp.DICE for s in rolls if s >= first)
    return tray


def forge(path, seq, links=False):
    """Edit stored event `seq` (a DICE roll: one face), recompute its CRC,
    every backup's events digest and stored fold digest, and (links) the
    chain: every link and head after it. Returns the forged event."""
    db = sqlite3.connect(path, isolation_level=None)
    trig = db.execute("SELECT name, sql FROM sqlite_master WHERE type='trigger'").fetchall()
    for name, _sql in trig:
        db.execute("DROP TRIGGER %s" % name)
    camp, ev = db.execute("SELECT campaign, ev FROM events WHERE seq=?", (seq,)).fetchone()
    kind, args, faces, text = codec.decode_event(bytes(ev))
    assert kind == cp.DICE
    new = codec.encode_event(kind, args, bytes([faces[0] % 6 + 1]) + faces[1:], text)
    db.execute("UPDATE events SET ev=?, crc=? WHERE campaign=? AND seq=?",
               (new, zlib.crc32(new), camp, seq))
    evs = [bytes(r[0]) for r in db.execute("SELECT ev FROM events WHERE campaign=? ORDER BY seq",
                                           (camp,))]
    heads = [chain.ZERO]
    for s, e in enumerate(evs, 1):
        heads.append(chain.link(heads[-1], s, e))
        if links:
            db.execute("UPDATE events SET link=? WHERE campaign=? AND seq=?", (heads[-1], camp, s))
    for bid, first, last in db.execute("SELECT id, first, last FROM backups").fetchall():
        h = bk.digest(first, evs[first - 1:last], bk.Sha256())
        db.execute("UPDATE backups SET events_sha=? WHERE id=?", (h.hexdigest(), bid))
        db.execute("UPDATE folds SET digest=? WHERE backup=?", (h.state(), bid))
        if links:
            db.execute("UPDATE backups SET head=? WHERE id=?", (heads[last].hex(), bid))
    for _name, sql in trig:
        db.execute(sql)
    db.close()
    return new


def test_backups_store_the_chain_the_device_reports(tmp_path):
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    tray = device()
    dev = tray.device()
    r = st.take(dev)
    assert r.head == tray.head.hex() == chain.over(chain.ZERO, 1, tray.journal()).hex()
    assert dev.chain(30) == tray.head and dev.info()["head"] == r.head
    b = st.load(r.backup)
    assert b.head == r.head and [bytes(x) for x in b.links][-1] == tray.head
    play(tray, 5, seed=2)
    r2 = st.take(dev)                      # incremental: the head goes on over the new events
    assert r2.head == tray.head.hex() and r2.fetched == 6
    assert st.take(dev).duplicate


def test_a_forged_event_fails_its_link_and_names_it(tmp_path):
    path = str(tmp_path / "b.sqlite3")
    st = BackupStore(path)
    bid = st.take(device().device()).backup
    st.close()
    forge(path, 12)
    st = BackupStore(path)
    with pytest.raises(StoreError, match="event 12 does not lead to the hash chain head"):
        st.load(bid)


def test_a_fully_forged_backup_is_caught_by_the_device(tmp_path, monkeypatch, capsys):
    # The case that once passed: the forged backup restored "verified" and a later
    # incremental backup of the genuine device said "no change".
    path = str(tmp_path / "b.sqlite3")
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    trays = serve({"x": device()}, "x")
    tray = trays["x"]
    dev = tray.device()
    st = BackupStore(path)
    bid = st.take(dev).backup
    st.close()
    assert trays.main(["verify", "--db", path, "--port", "x"]) == 0
    assert "the device agrees with backup %d" % bid in capsys.readouterr().out
    forge(path, 12, links=True)
    st = BackupStore(path)
    st.load(bid)                           # consistent in itself: only a second copy can tell
    code = trays.main(["verify", "--db", path, "--port", "x"])
    out = capsys.readouterr().out
    assert code == 1 and "event 12 is not the same (the first that differs)" in out, out
    r = st.take(dev)
    assert not r.duplicate and r.backup != bid
    assert any("differs from backup %d after event 11" % bid in n for n in r.notes), r.notes
    assert r.head == tray.head.hex()


def test_a_forgery_before_what_the_device_holds(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "b.sqlite3")
    trays = serve({"x": device(roll=1)}, "x")
    tray = trays["x"]
    dev = tray.device()
    st = BackupStore(path)
    st.take(dev)
    st.close()
    forge(path, 5, links=True)
    # The tray goes on and compacts: it keeps 4 events below its floor.
    tray.tune(keep=4)
    while tray.first() <= 5:
        play(tray, 1, seed=tray.nevents)
    first = tray.first()
    assert 5 < first <= 31, first          # event 5 is no longer on the device
    code = trays.main(["verify", "--db", path, "--port", "x", "--json"])
    import json
    d = json.loads(capsys.readouterr().out)
    assert code == 1 and not d["holds"] and d["differs_at"] == first - 1, d
    assert "at or before event %d" % (first - 1) in d["why"]
    st = BackupStore(path)
    r = st.take(dev)
    assert not r.duplicate
    assert any("hash chains differ" in n for n in r.notes), r.notes
    b = st.load(r.backup)                  # a new lineage from the device's snapshot
    assert b.base_snap is not None and b.base_head == tray.head.hex() and b.head == tray.head.hex()


def test_verify_a_backup_alone_and_after_the_device_moved_on(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "b.sqlite3")
    tray = device()
    st = BackupStore(path)
    bid = st.take(tray.device()).backup
    from dicetray.link import ports
    monkeypatch.setattr(ports, "find", lambda: [])
    assert cli.main(["verify", "--db", path, "--backup", str(bid)]) == 0
    out = capsys.readouterr().out
    assert "checked against itself only" in out and "no device was found" in out
    trays = serve({"x": tray}, "x")
    play(tray, 4, seed=5)                  # the device goes on: its head covers the backup's
    assert trays.main(["verify", "--db", path, "--backup", str(bid), "--port", "x"]) == 0
    assert "the device goes on to event 34" in capsys.readouterr().out


def test_restore_carries_the_chain(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "b.sqlite3")
    tray = device(50, keep=10, roll=1)    # it compacts as it goes: keeps 10 below its floor
    assert tray.first() > 1
    st = BackupStore(path)
    bid = st.take(tray.device()).backup   # a baseline: the device's snapshot and its head
    b = st.load(bid)
    assert b.base_snap is not None and b.base_head == tray.head.hex()
    trays = serve({"x": RamTray(system=0, cid=99)}, "x")
    other = trays["x"]
    assert trays.main(["restore", str(bid), "--db", path, "--port", "x", "--yes"]) == 0
    assert "verified, and its hash chain head" in capsys.readouterr().out
    assert other.head == tray.head and other.state() == tray.state()


def test_a_database_from_before_the_chain_gets_it(tmp_path):
    path = str(tmp_path / "b.sqlite3")
    tray = device()
    dev = tray.device()
    st = BackupStore(path)
    bid = st.take(dev).backup
    st.close()
    # What a database before the chain held: no link and head columns.
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript("""
        PRAGMA foreign_keys=OFF;
        DROP TRIGGER events_keep; DROP TRIGGER events_frozen;
        DROP TRIGGER backups_keep; DROP TRIGGER backups_frozen;
        ALTER TABLE events DROP COLUMN link;
        ALTER TABLE backups DROP COLUMN head;
        ALTER TABLE bases DROP COLUMN head;
    """)
    db.close()
    ro = BackupStore(path, create=False)   # read only: nothing added, the head computed
    assert not ro.has_heads and ro.load(bid).head == tray.head.hex()
    ro.close()
    st = BackupStore(path)                 # opened to write: the columns are added
    assert st.has_heads and st.load(bid).head == tray.head.hex()
    play(tray, 3, seed=4)
    r = st.take(dev)
    assert r.head == tray.head.hex() and st.load(r.backup).head == r.head


def test_on_the_real_firmware(tmp_path, capsys):
    # The simulator runs the unmodified firmware: its head (status --json,
    # CHAIN) is what the host computes, survives a reboot, catches a fully
    # forged backup, and a restore from past event 1 goes on from the
    # backup's head.
    from linkutil import Sim, write_campaign, make_events
    from dicetray import cli
    from dicetray.link.client import Device
    home = str(tmp_path / "home")
    os.makedirs(home)
    db = os.path.join(home, "backups.sqlite3")
    c = make_events(40)
    for k in (9, 17):   # two free rolls to forge
        c.events[k] = codec.encode_event(cp.DICE, (6, 2), bytes((3, 4)))
    c = cp.replay(0, c.events, c.cid)
    flash = str(tmp_path / "a")
    write_campaign(flash, c, snap_every=16)
    a = Sim(flash, home)
    try:
        dev = Device.open(a.port)
        want = chain.over(chain.ZERO, 1, c.events)
        assert dev.info()["head"] == want.hex() and dev.chain(40) == want
        dev.close()
        assert cli.main(["backup", "--port", a.port, "--db", db]) == 0
        assert cli.main(["verify", "--port", a.port, "--db", db]) == 0
        capsys.readouterr()
        forge(db, 18, links=True)
        assert cli.main(["verify", "--port", a.port, "--db", db]) == 1
        assert "event 18 is not the same" in capsys.readouterr().out
    finally:
        a.stop()
    a = Sim(flash, home)   # a reboot: the head from the snapshot and the events after it
    try:
        dev = Device.open(a.port)
        assert dev.info()["head"] == want.hex()
        st = BackupStore(db)
        b = st.load(1)
        snap = cp.encode_snapshot(cp.replay(0, c.events[:30], c.cid))
        # A restore from past event 1 (as a baseline backup sends it): the
        # device chains on from the head it is given.
        info = dev.restore(snap, c.events[30:], 30, first=31,
                           head=chain.over(chain.ZERO, 1, c.events[:30]))
        assert info["head"] == want.hex()
        assert b.head != want.hex()       # the forged backup's chain is its own
        dev.close()
    finally:
        a.stop()
