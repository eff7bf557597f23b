"""A backup keeps every event of a damaged journal that reads (issue 26,
item 8), on the real firmware in this process (tests/host/ramtray.py):
a first backup used to keep only the device's state, with no event at
all, when one old record's header was damaged. Now the events before the
damage are a version of their own, the device's state with the events
after the damage another, and the gaps and anything between two of them
are named. The simulator runs the same in test_journal_damage_sim.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from ramtray import RamTray, play  # noqa: E402

import pytest  # noqa: E402

from dicetray.backup import BackupStore  # noqa: E402
from dicetray.link.client import JournalDamaged  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402


def _offsets(img):
    out, i = [], 0
    while i < len(img):
        out.append(i)
        i += 11 + (img[i] | (img[i + 1] << 8))
    return out


def damaged_tray():
    """A hunt tray of 200 events in segments of ~30, with event 42's
    header and event 100's bytes damaged (both long covered by snapshots)."""
    tray = RamTray(system=0, cid=5, roll=600)
    play(tray, 200)
    whole = tray.journal()
    st = tray.s.st
    segs = st.segments()
    for seq, at in ((42, 2), (100, 11)):
        b = max(x for x in segs if x < seq)
        img = tray.fs.files["%s/j%08x.log" % (st.root, b)]
        img[_offsets(img)[seq - b - 1] + at] ^= 0x04
    tray.boot()
    return tray, whole


def test_a_read_names_every_gap_and_carries_what_it_read():
    tray, whole = damaged_tray()
    with pytest.raises(JournalDamaged) as e:
        tray.device().events(0)
    assert [g[:2] for g in e.value.gaps] == [[42, 42], [100, 100]]
    assert "damaged at event 42" in str(e.value) and "1 more damaged: events 100..100" in str(e.value)
    assert e.value.since == 0 and len(e.value.events) == 200
    assert [ev for ev in e.value.events if ev is not None] == whole[:41] + whole[42:99] + whole[100:]


def test_a_first_backup_keeps_every_event_that_reads(tmp_path):
    tray, whole = damaged_tray()
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    r = st.take(tray.device())
    assert not r.duplicate and r.last == 200
    rows = {x["id"]: x for x in st.list()}
    assert [(x["first"], x["last"]) for x in rows.values()] == [(1, 41), (101, 200)]
    before, after = st.load(r.backup - 1), st.load(r.backup)
    assert before.events == whole[:41]
    assert after.events == whole[100:] and after.base_snap is not None
    assert cp.encode_state(after.fold()) == tray.state()
    said = " ".join(r.notes)
    assert "events 42..42 (j" in said and "events 100..100 (j" in said, said
    assert "events 1..41, before the damage, are in backup %d" % before.id in said, said
    assert "events 43..99 read but not kept" in said, said
    assert "before its damaged journal" in rows[before.id]["gap"]


def test_the_hub_passes_on_what_the_read_carries():
    # `dicetray serve` relays a tray's errors by their attributes: the
    # events a damaged read carries and its gaps reach the backup as well.
    import io

    from dicetray.hub import client as hc, wire

    tray, whole = damaged_tray()
    with pytest.raises(JournalDamaged) as e:
        tray.device().events(0)
    err = wire.read(io.BytesIO(wire.line({"err": wire.error(e.value)})))["err"]
    got = wire.rebuild(err, hc.KINDS, None)
    assert isinstance(got, JournalDamaged) and str(got) == str(e.value)
    assert got.gaps == e.value.gaps and got.since == 0 and got.events == e.value.events
