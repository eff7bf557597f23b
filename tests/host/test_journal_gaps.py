"""A backup keeps every event of a damaged journal that reads, on the real
firmware in this process (tests/host/ramtray.py):
a first backup used to keep only the device's state, with no event at
all, when one old record's header was damaged; then the events before the
damage and after it, but not those between two damaged records. Now the
events before the damage are a version of their own, the device's state
with the events after the damage another, and every run between two
damaged records is kept with it, not folded, chained where the device
recorded a head within it, and named with its gaps (docs/backup.md, "When
the device's journal is damaged"). The simulator runs the same in
test_journal_damage_sim.py."""

import csv
import io
import json
import sqlite3

from linkutil import damage_record
from ramtray import RamTray, play

import pytest

from dicetray import cli
from dicetray.ops import restore
from dicetray.backup import BackupStore, StoreError
from dicetray.link.client import DeviceError, JournalDamaged
from dicetray.rules import campaign as cp
from dicetray.rules import codec

HEADER, EVENT = 2, 11   # a byte of a record's header (its check fails), of its event (its CRC)
TWO = ((42, HEADER), (100, EVENT))
THREE = ((42, HEADER), (100, EVENT), (110, EVENT))


def damaged_tray(damage=TWO, cid=5):
    """A hunt tray of 200 events in segments of ~30 (bases 0, 32, 60, 92,
    128, 160, 192, each with the head the device recorded), with a byte
    of each (event, offset in its record) of `damage` flipped (all long
    covered by snapshots). (tray, its 200 events as they were)."""
    tray = RamTray(system=0, cid=cid, roll=600)
    play(tray, 200)
    whole = tray.journal()
    st = tray.s.st
    segs = st.segments()
    for seq, at in damage:
        b = max(x for x in segs if x < seq)
        damage_record(tray.fs.files["%s/j%08x.log" % (st.root, b)], b, seq, at)
    tray.boot()
    return tray, whole


def held(st):
    """{seq: event} of every event the database holds (any lineage)."""
    return {s: bytes(ev) for s, ev in st.db.execute("SELECT seq, ev FROM events")}


def every_readable_is_held(st, whole, damage):
    bad = {seq for seq, _at in damage}
    got = held(st)
    missing = [s for s in range(1, len(whole) + 1) if s not in bad and got.get(s) != whole[s - 1]]
    assert missing == [], "events that read and are not in the database: %s" % missing


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_read_names_every_gap_and_carries_what_it_read():
    tray, whole = damaged_tray()
    with pytest.raises(JournalDamaged) as e:
        tray.device().events(0)
    assert [g[:2] for g in e.value.gaps] == [[42, 42], [100, 100]]
    assert "damaged at event 42" in str(e.value) and "1 more damaged: events 100..100" in str(e.value)
    assert e.value.since == 0 and len(e.value.events) == 200
    assert [ev for ev in e.value.events if ev is not None] == whole[:41] + whole[42:99] + whole[100:]
    assert e.value.bases == tray.s.st.segments() == [0, 32, 60, 92, 128, 160, 192]


def test_two_damaged_records_every_event_that_reads_is_kept(tmp_path):
    tray, whole = damaged_tray()
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    r = st.take(tray.device())
    assert not r.duplicate and r.last == 200
    every_readable_is_held(st, whole, TWO)
    rows = {x["id"]: x for x in st.list()}
    assert [(x["first"], x["last"]) for x in rows.values()] == [(1, 41), (101, 200)]
    before, after = st.load(r.backup - 1), st.load(r.backup)
    assert before.events == whole[:41]
    assert after.events == whole[100:] and after.base_snap is not None
    assert cp.encode_state(after.fold()) == tray.state()
    # The events between the two damaged records: a run, kept with the
    # version after them, not a version of its own.
    (k,) = st.runs(r.backup)
    assert (k.first, k.last, k.backup) == (43, 99, r.backup) and k.events == whole[42:99]
    assert (k.anchor, k.checked) == (60, 92)   # the heads the device recorded at 60 and 92
    assert k.links[:17] == [None] * 17 and None not in k.links[17:]   # 43..59: no head before them
    assert k.links[17] == tray.device().chain(60)
    assert "read between damaged events 42..42 (j00000020.log: record header check failed) " \
        "and 100..100 (j0000005c.log: record fails its CRC)" in k.gap, k.gap
    assert st.runs(before.id) == []
    said = " ".join(r.notes)
    assert "events 42..42 (j" in said and "events 100..100 (j" in said, said
    assert "events 1..41, before the damage, are in backup %d" % before.id in said, said
    assert "events 43..99, read between damaged events, are kept with this version" in said, said
    assert "before its damaged journal" in rows[before.id]["gap"]


def test_three_damaged_records_show_export_and_restore(tmp_path, capsys):
    tray, whole = damaged_tray(THREE)
    db = tmp_path / "b.sqlite3"
    st = BackupStore(str(db))
    r = st.take(tray.device())
    every_readable_is_held(st, whole, THREE)
    assert [(x["first"], x["last"]) for x in st.list()] == [(1, 41), (111, 200)]
    runs = st.runs(r.backup)
    assert [(k.first, k.last) for k in runs] == [(43, 99), (101, 109)]
    assert [k.events for k in runs] == [whole[42:99], whole[100:109]]
    assert (runs[1].anchor, runs[1].links) == (None, [None] * 9)   # no segment base in 100..109
    assert "not chained: the device recorded no hash chain head within them" in runs[1].gap

    # `backups show` names each run and its gaps.
    code, out, err = run(capsys, "backups", "show", r.backup, "--db", db)
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if ln.startswith("run ")]
    assert len(lines) == 2, out
    assert lines[0].startswith("run %d (kept with backup %d): events 43..99, not folded"
                               % (runs[0].id, r.backup)), lines
    assert "between damaged events 42..42 (" in lines[0] and "and 100..100 (" in lines[0]
    assert "events 101..109, not folded" in lines[1]
    assert "between damaged events 100..100 (" in lines[1] and "and 110..110 (" in lines[1]
    code, out, err = run(capsys, "backups", "show", r.backup, "--db", db, "--json")
    assert [(x["first"], x["last"], x["folded"]) for x in json.loads(out)["runs"]] == [
        (43, 99, False), (101, 109, False)]

    # The export holds them apart from the folded log, marked not folded.
    code, out, err = run(capsys, "export", "--backup", r.backup, "--format", "json", "--db", db)
    assert code == 0, err
    doc = json.loads(out)
    assert [e["seq"] for e in doc["events"]] == list(range(111, 201))
    assert [(x["first"], x["last"], x["folded"]) for x in doc["runs"]] == [
        (43, 99, False), (101, 109, False)]
    evs = doc["runs"][0]["events"]
    assert [bytes.fromhex(e["hex"]) for e in evs] == whole[42:99]
    assert all(e["outcome"] is None and e["session"] is None and e["summary"] for e in evs)
    assert all(e["backup"] == r.backup for e in evs)
    code, out, err = run(capsys, "export", "--backup", r.backup, "--format", "csv", "--db", db)
    rows = list(csv.reader(io.StringIO(out)))
    notes = rows[0].index("notes")
    assert [int(r[0]) for r in rows[1:]] == list(range(111, 201)) + list(range(43, 100)) + \
        list(range(101, 110))               # the events, then each run's, not folded
    run_rows = rows[91:]
    assert all(r[notes].startswith("not folded: read between") and r[1] == "" for r in run_rows)
    assert all(not r[notes].startswith("not folded") for r in rows[1:91])

    # The last version restores as before: the device's own state.
    fresh = RamTray(system=0, cid=77, name="ram-2")
    dev = fresh.device()
    p = restore.plan(st, r.backup, dev)
    done = restore.apply(p, dev)
    assert done.line.startswith("restored backup %d" % r.backup)
    assert fresh.state() == tray.state() and fresh.nevents == 200
    # And onto the damaged tray itself: what reads is compared, the
    # damaged records named, and its journal replaced (the read's
    # JournalDamaged used to refuse it).
    dev = tray.device()
    p = restore.plan(st, r.backup, dev)
    assert "the device's journal is damaged: events 42..42, events 100..100, events " \
        "110..110 cannot be read; the restore replaces it" in p.lines, p.lines
    restore.apply(p, dev)
    assert tray.state() == fresh.state() and dev.info().get("damage") is None
    assert tray.head == fresh.head


def test_a_restore_names_the_damaged_events_it_would_discard(tmp_path):
    tray, whole = damaged_tray(((150, HEADER),))
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    old = RamTray(system=0, cid=5)
    for ev in whole[:100]:                    # the same campaign's first 100 events
        kind, args, faces, text = codec.decode_event(ev)
        old.act(kind, args, text, faces)
    assert old.journal() == whole[:100]
    bid = st.take(old.device()).backup
    p = restore.plan(st, bid, tray.device())
    i = p.lines.index("the device's 100 events after event 100 are not in backup %d and would be "
                      "discarded:" % bid)
    assert p.lines[i + 50] == "  event 150: damaged on the device: it cannot be read"
    assert p.lines[i + 49].startswith("  event 149: ") and p.lines[i + 100].startswith("  event 200")


def test_a_damaged_read_that_overlaps_a_backup_it_cannot_match_is_a_lineage_of_its_own(tmp_path):
    # The newest backup holds 1..100 of a history that parts from the
    # device's after event 50; the read from event 100 meets damage at 150
    # and 170, so event 100 (which would have shown the two differ) is in
    # a run, not compared: stored in a lineage of its own, not refused
    # for an event 100 that is not the stored one.
    tray, whole = damaged_tray(((150, HEADER), (170, EVENT)))
    old = RamTray(system=0, cid=5)
    for ev in whole[:50]:
        kind, args, faces, text = codec.decode_event(ev)
        old.act(kind, args, text, faces)
    play(old, 50, seed=99)
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    prev = st.take(old.device()).backup
    assert st.load(prev).events[99] != whole[99]
    r = st.take(tray.device())
    rows = {x["id"]: x for x in st.list()}
    assert rows[r.backup]["lineage"] != rows[prev]["lineage"]
    assert rows[r.backup]["parent"] == rows[prev]["lineage"]
    assert [(k.first, k.last) for k in st.runs(r.backup)] == [(100, 149), (151, 169)]
    assert [k.events for k in st.runs(r.backup)] == [whole[99:149], whole[150:169]]
    assert "not shown to continue backup %d through the damage" % prev in " ".join(r.notes)
    assert st.load(prev).events == old.journal()


def test_a_later_backup_keeps_naming_them(tmp_path, capsys):
    tray, whole = damaged_tray(THREE)
    db = tmp_path / "b.sqlite3"
    st = BackupStore(str(db))
    dev = tray.device()
    first = st.take(dev)
    play(tray, 12, seed=9)
    later = st.take(dev)                      # reads only the new events: no damage in its way
    assert not later.duplicate and later.fetched <= 13
    assert [(k.first, k.last, k.backup) for k in st.runs(later.backup)] == [
        (43, 99, first.backup), (101, 109, first.backup)]
    code, out, err = run(capsys, "export", "--backup", later.backup, "--format", "json", "--db", db)
    assert [x["first"] for x in json.loads(out)["runs"]] == [43, 101]
    every_readable_is_held(st, whole, THREE)
    n = st.db.execute("SELECT count(*) FROM runs").fetchone()[0]
    assert n == 2


def test_a_damaged_backup_cut_short_stores_nothing(tmp_path):
    # The version before the damage, the runs and the version after it
    # are planned from the device, then written in one transaction: a
    # link lost after the read, or a write cut short, stores none of them
    # (the version before the damage used to be stored on its own).
    tray, _whole = damaged_tray(THREE)
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    dev = tray.device()

    def lost():
        raise DeviceError("the device stopped answering")
    dev.snapshot = lost
    with pytest.raises(DeviceError):
        st.take(dev)
    assert st.list() == [] and held(st) == {}
    dev = tray.device()

    def boom(stage):
        if stage == "row":
            raise RuntimeError("injected")
    st.fault = boom
    with pytest.raises(RuntimeError):
        st.take(dev)
    st.fault = None
    assert st.list() == [] and held(st) == {}
    assert st.db.execute("SELECT count(*) FROM runs").fetchone()[0] == 0
    r = st.take(dev)
    assert len(st.list()) == 2 and len(st.runs(r.backup)) == 2


def test_a_run_that_does_not_lead_to_the_recorded_head_is_kept_unchained(tmp_path):
    tray, whole = damaged_tray()
    seq = 75
    forged = whole[seq - 1][:-1] + bytes((whole[seq - 1][-1] ^ 1,))
    tray.replace_event(seq, forged)           # valid CRC: only the chain sees it
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    r = st.take(tray.device())
    (k,) = st.runs(r.backup)
    assert k.events[seq - 43] == forged and k.anchor is None and k.links == [None] * 57
    assert "do not lead from the hash chain head the device recorded after event 60 " \
        "to the one it recorded after event 92" in k.gap
    assert any("events 43..99, read between" in n and "not chained" in n for n in r.notes), r.notes


def test_a_database_from_before_runs_opens_and_upgrades(tmp_path):
    path = str(tmp_path / "b.sqlite3")
    tray = play(RamTray(system=0, cid=9), 60)
    st = BackupStore(path)
    bid = st.take(tray.device()).backup
    st.close()
    # What a database before runs holds: the same tables, no runs.
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript("DROP TRIGGER runs_frozen; DROP TRIGGER runs_keep; DROP TABLE runs;")
    old = {n: sql for n, sql in db.execute("SELECT name, sql FROM sqlite_master")}
    db.close()
    ro = BackupStore(path, create=False)      # read only: nothing added
    assert not ro.has_runs and ro.runs(bid) == []
    listed, b = ro.list(), ro.load(bid)
    with pytest.raises(StoreError, match="has no table for the events read between damaged"):
        ro.take(damaged_tray(THREE, cid=6)[0].device())   # refused, not dropped
    assert ro.list() == listed
    ro.close()
    st = BackupStore(path)                    # opened to write: the table is added
    assert st.has_runs and st.runs(bid) == []
    now = {n: sql for n, sql in st.db.execute("SELECT name, sql FROM sqlite_master")}
    assert {n: now[n] for n in old} == old    # every older table as it was
    assert st.list() == listed
    again = st.load(bid)
    assert (again.events, again.state, again.head) == (b.events, b.state, b.head)
    # A damaged journal backed up into it keeps its runs.
    tray2, whole = damaged_tray(THREE, cid=6)
    r = st.take(tray2.device())
    assert [(k.first, k.last) for k in st.runs(r.backup)] == [(43, 99), (101, 109)]
    assert st.list()[0] == listed[0]


def test_the_hub_passes_on_what_the_read_carries():
    # `dicetray serve` relays a tray's errors by their attributes: the
    # events a damaged read carries, its gaps and the segments' bases
    # reach the backup as well.
    import io

    from dicetray.link import hubclient as hc, wire

    tray, whole = damaged_tray()
    with pytest.raises(JournalDamaged) as e:
        tray.device().events(0)
    err = wire.read(io.BytesIO(wire.line({"err": wire.error(e.value)})))["err"]
    got = wire.rebuild(err, hc.KINDS, None)
    assert isinstance(got, JournalDamaged) and str(got) == str(e.value)
    assert got.gaps == e.value.gaps and got.since == 0 and got.events == e.value.events
    assert got.bases == e.value.bases
