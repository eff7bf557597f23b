"""The hash chain on the host (issue 12, item 7): backups store the chain,
load() checks every link, an incremental backup compares the device's head
with the stored history, `dicetray verify` checks a backup end to end and
against the device, restore carries the head. A forger here edits a stored
event and recomputes its CRC, the events digest and the stored fold, as
the issue's forged backup did; the full forger recomputes the chain too.
FakeDevice chains with the firmware's own store/chain.py; the last test
runs the real firmware in the simulator."""
import os
import sqlite3
import sys
import zlib

sys.path.insert(0, os.path.dirname(__file__))
from fake_device import FakeDevice, play  # noqa: E402

import pytest  # noqa: E402

from dicetray import backup as bk, commands  # noqa: E402
from dicetray.backup import BackupStore, StoreError  # noqa: E402
from dicetray.fwstore import chain  # noqa: E402
from dicetray.rules import campaign as cp, codec  # noqa: E402


def device(n=30, rolls=(5, 12, 20)):
    """A hunt campaign of n events, free rolls (DICE: faces that change no
    state, so an edit to them keeps every fold) at the seqs in `rolls`."""
    dev = FakeDevice(system=0, cid=31)
    play(dev, 1)
    while dev.c.nevents < n:
        if dev.c.nevents + 1 in rolls:
            dev.act(cp.DICE, (6, 3))
        else:
            play(dev, 1, seed=dev.c.nevents)
    assert [codec.decode_event(dev.journal[s - 1])[0] for s in rolls] == [cp.DICE] * len(rolls)
    return dev


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
        h = bk._digest(first, evs[first - 1:last], bk.Sha256())
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
    dev = device()
    r = st.take(dev)
    assert r.head == dev.head.hex() == chain.over(chain.ZERO, 1, dev.journal).hex()
    b = st.load(r.backup)
    assert b.head == r.head and [bytes(x) for x in b.links][-1] == dev.head
    play(dev, 5, seed=2)
    r2 = st.take(dev)                      # incremental: the head goes on over the new events
    assert r2.head == dev.head.hex() and r2.fetched == 6
    assert st.take(dev).duplicate


def test_a_forged_event_fails_its_link_and_names_it(tmp_path):
    path = str(tmp_path / "b.sqlite3")
    st = BackupStore(path)
    dev = device()
    bid = st.take(dev).backup
    st.close()
    forge(path, 12)
    st = BackupStore(path)
    with pytest.raises(StoreError, match="event 12 does not lead to the hash chain head"):
        st.load(bid)


def test_a_fully_forged_backup_is_caught_by_the_device(tmp_path, monkeypatch, capsys):
    # The case: the forged backup restored "verified" and a later
    # incremental backup of the genuine device said "no change".
    path = str(tmp_path / "b.sqlite3")
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    dev = device()
    monkeypatch.setattr(commands, "open_device", lambda port, timeout, **kw: dev)
    st = BackupStore(path)
    bid = st.take(dev).backup
    st.close()
    assert commands.main(["verify", "--db", path, "--port", "x"]) == 0
    assert "the device agrees with backup %d" % bid in capsys.readouterr().out
    forge(path, 12, links=True)
    st = BackupStore(path)
    st.load(bid)                           # consistent in itself: only a second copy can tell
    code = commands.main(["verify", "--db", path, "--port", "x"])
    out = capsys.readouterr().out
    assert code == 1 and "event 12 is not the same (the first that differs)" in out, out
    r = st.take(dev)
    assert not r.duplicate and r.backup != bid
    assert any("differs from backup %d after event 11" % bid in n for n in r.notes), r.notes
    assert r.head == dev.head.hex()


def test_a_forgery_before_what_the_device_holds(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "b.sqlite3")
    dev = device()
    monkeypatch.setattr(commands, "open_device", lambda port, timeout, **kw: dev)
    st = BackupStore(path)
    st.take(dev)
    st.close()
    forge(path, 5, links=True)
    dev.compact(20)                        # the device holds events 11..30 now
    code = commands.main(["verify", "--db", path, "--port", "x", "--json"])
    import json
    d = json.loads(capsys.readouterr().out)
    assert code == 1 and not d["holds"] and d["differs_at"] == 10, d
    assert "at or before event 10" in d["why"]
    st = BackupStore(path)
    r = st.take(dev)
    assert not r.duplicate
    assert any("hash chains differ" in n for n in r.notes), r.notes
    b = st.load(r.backup)                  # a new lineage from the device's snapshot
    assert b.base_snap is not None and b.base_head == dev.head.hex() and b.head == dev.head.hex()


def test_verify_a_backup_alone_and_after_the_device_moved_on(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "b.sqlite3")
    dev = device()
    st = BackupStore(path)
    bid = st.take(dev).backup
    from dicetray.link import ports
    monkeypatch.setattr(ports, "find", lambda: [])
    assert commands.main(["verify", "--db", path, "--backup", str(bid)]) == 0
    out = capsys.readouterr().out
    assert "every hash chain link holds" in out and "checked alone" in out
    monkeypatch.setattr(commands, "open_device", lambda port, timeout, **kw: dev)
    play(dev, 4, seed=5)                   # the device goes on: its head covers the backup's
    assert commands.main(["verify", "--db", path, "--backup", str(bid), "--port", "x"]) == 0
    assert "the device goes on to event 34" in capsys.readouterr().out


def test_restore_carries_the_chain(tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "b.sqlite3")
    dev = device()
    dev.compact(10)
    st = BackupStore(path)
    bid = st.take(dev).backup             # a baseline: the device's snapshot and its head
    b = st.load(bid)
    assert b.base_snap is not None and b.base_head == dev.head.hex()
    other = FakeDevice(system=0, cid=99)
    monkeypatch.setattr(commands, "open_device", lambda port, timeout, **kw: other)
    assert commands.main(["restore", str(bid), "--db", path, "--port", "x", "--yes"]) == 0
    assert "verified, and its hash chain head" in capsys.readouterr().out
    assert other.head == dev.head


def test_a_database_from_before_the_chain_gets_it(tmp_path):
    path = str(tmp_path / "b.sqlite3")
    dev = device()
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
    assert not ro.has_heads and ro.load(bid).head == dev.head.hex()
    ro.close()
    st = BackupStore(path)                 # opened to write: the columns are added
    assert st.has_heads and st.load(bid).head == dev.head.hex()
    play(dev, 3, seed=4)
    r = st.take(dev)
    assert r.head == dev.head.hex() and st.load(r.backup).head == r.head


def test_on_the_real_firmware(tmp_path, capsys):
    # The simulator runs the unmodified firmware: its head (status --json,
    # CHAIN) is what the host computes, survives a reboot, catches a fully
    # forged backup, and a restore from past event 1 goes on from the
    # backup's head.
    sys.path.insert(0, os.path.dirname(__file__))
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
