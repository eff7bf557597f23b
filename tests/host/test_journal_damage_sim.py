"""Damage on the device's flash met by the tool: one
flipped bit in an old journal record that a snapshot covers. The boot of
the device does not read those records (docs/store.md, recovery step 3);
the host does, and names the events, says what to do, keeps what is
intact in a backup (every event that reads), and never
exports or counts a silent part."""

import json
import os

import linkutil
from linkutil import Sim

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.fwstore import chain
from dicetray.link.client import Device
from dicetray.rules import campaign as cp


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_damaged_old_record_is_named_and_what_is_intact_is_kept(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 600, roll=3072)   # segments of ~160 events: several
    sim = Sim(flash)
    try:
        port = ("--port", sim.port)
        assert run(capsys, "backup", *port)[0] == 0          # backup 1 holds events 1..600
        sim.stop()
        root = os.path.join(flash, "dicetray", "c1")
        seg = sorted(n for n in os.listdir(root) if n.endswith(".log"))[1]
        p = os.path.join(root, seg)
        b = bytearray(open(p, "rb").read())
        b[200] ^= 0x04                                       # inside an old record's header
        open(p, "wb").write(bytes(b))
        sim = Sim(flash)
        port = ("--port", sim.port)
        with Device.open(sim.port) as dev:
            for _ in range(3):
                dev.act(cp.DICE, (6, 2))
            want = dev.snapshot()

        code, out, err = run(capsys, "export", "--format", "csv", "-o", str(tmp_path / "x.csv"),
                             *port)
        assert code == 1 and not (tmp_path / "x.csv").exists()
        # Read past: only the record whose header fails is lost.
        assert "damaged at event 170" in err and "events 170..170 cannot be read" in err
        assert "`dicetray backup` keeps every event that reads" in err and err.count("\n") == 1
        code, out, err = run(capsys, "stats", *port)
        assert code == 1 and "damaged at event 170" in err

        # An incremental backup reads only what is new: the damage is not in
        # its way; what it did not read, the device's own report covers.
        code, out, err = run(capsys, "backup", "--json", *port)
        r = json.loads(out)
        assert code == 0 and r["fetched"] == 4, r                 # and its anchor
        assert all(n.startswith("the device reports") for n in r["notes"]), r["notes"]
        # A first backup (another database) reads it all: it meets the
        # damage, names it, and keeps every event that reads (it used to keep
        # the state and the events after the snapshot).
        db = str(tmp_path / "fresh.sqlite3")
        code, out, err = run(capsys, "backup", "--json", "--db", db, *port)
        assert code == 0, err
        r = json.loads(out)
        assert r["new"] and r["last"] == 603
        said = " ".join(r["notes"])
        assert "events 170..170 (j000000a0.log: record header check failed) could not be read" \
            in said, said
        old = BackupStore(str(tmp_path / "home" / "backups.sqlite3")).load(1)
        fresh = BackupStore(db)
        kept = fresh.load(r["backup"])
        assert kept.base_snap is not None and kept.first == 171 and kept.last == 603
        assert kept.events[:430] == old.events[170:600]
        assert cp.encode_state(kept.fold()) == cp.encode_state(cp.decode_snapshot(want[1]))
        before = fresh.load(r["backup"] - 1)                      # the events before the damage
        assert before.first == 1 and before.last == 169 and before.events == old.events[:169]
        assert "events 1..169, before the damage, are in backup %d" % before.id in said, said
        assert cp.encode_state(before.fold()) == cp.encode_state(
            cp.replay(0, old.events[:169], old.cid))
        code, out, err = run(capsys, "backup", "--db", db, *port)
        assert code == 0 and "backup %d" % r["backup"] in out, out
        # The first backup still holds the damaged events, whole.
        code, out, err = run(capsys, "export", "--format", "csv", "--backup", "1",
                             "-o", str(tmp_path / "one.csv"))
        assert code == 0 and (tmp_path / "one.csv").exists()
    finally:
        sim.stop()


def test_damage_the_boot_found_is_in_status(tmp_path, monkeypatch, capsys):
    """What the boot's STORE DAMAGE screen says is in
    `status` and `status --json` too (here: both snapshots damaged; the
    campaign keeps its id and is rebuilt from its journal)."""
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    flash = str(tmp_path / "flash")
    c = linkutil.write_flash(flash, 40)
    cdir = os.path.join(flash, "dicetray", "c1")
    snaps = [nm for nm in os.listdir(cdir) if nm.endswith(".snp")]
    assert len(snaps) == 2
    for nm in snaps:
        b = bytearray(open(os.path.join(cdir, nm), "rb").read())
        b[-3] ^= 0xFF                                   # the state's body: its headers still read
        open(os.path.join(cdir, nm), "wb").write(bytes(b))
    sim = Sim(flash)
    try:
        assert cli.main(["status", "--json", "--port", sim.port]) == 0
        info = json.loads(capsys.readouterr().out)
        assert info["campaign"] == c.cid and info["events"] == 40
        assert any("no snapshot readable" in d for d in info["damage"]), info
        assert cli.main(["status", "--port", sim.port]) == 0
        out = capsys.readouterr().out
        assert "damage    no snapshot readable: the campaign is rebuilt from its journal as hunt" in out
    finally:
        sim.stop()


def test_three_damaged_records_every_one_that_reads_is_kept(tmp_path, monkeypatch, capsys):
    """On the simulator: three damaged records in a
    journal of segments 0, 160, 320, 480 (each base's head recorded). A
    first backup keeps events 1..149 as a version, 151..499 and 501..559
    as runs (the first chained from the head recorded at 160 and checked
    at 320 and 480; the second holds no segment base: not chained), and
    the device's state with 561 on; show and export name them; the last
    version restores."""
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    flash = str(tmp_path / "flash")
    c = linkutil.write_flash(flash, 600, roll=3072)
    root = os.path.join(flash, "dicetray", "c1")
    bases = sorted(int(n[1:9], 16) for n in os.listdir(root) if n[0] == "j" and n.endswith(".log"))
    assert bases == [0, 160, 320, 480]
    damage = {150: 2, 500: 11, 560: 11}               # a header, two events' bytes (CRC)
    for seq, at in damage.items():
        b = max(x for x in bases if x < seq)
        p = os.path.join(root, "j%08x.log" % b)
        img = bytearray(open(p, "rb").read())
        linkutil.damage_record(img, b, seq, at)
        open(p, "wb").write(bytes(img))
    sim = Sim(flash)
    try:
        port = ("--port", sim.port)
        db = str(tmp_path / "b.sqlite3")
        code, out, err = run(capsys, "backup", "--json", "--db", db, *port)
        assert code == 0, err
        r = json.loads(out)
        assert r["last"] == 600 and r["first"] == 561
        st = BackupStore(db)
        got = {s: bytes(ev) for s, ev in st.db.execute("SELECT seq, ev FROM events")}
        assert [s for s in range(1, 601) if s not in damage and got.get(s) != c.events[s - 1]] == []
        assert [(x["first"], x["last"]) for x in st.list()] == [(1, 149), (561, 600)]
        runs = st.runs(r["backup"])
        assert [(k.first, k.last, k.anchor, k.checked) for k in runs] == [
            (151, 499, 160, 480), (501, 559, None, None)]
        said = " ".join(r["notes"])
        for g in ("events 150..150 (j00000000.log: record header check failed)",
                  "events 500..500 (j000001e0.log: record fails its CRC)",
                  "events 560..560 (j000001e0.log: record fails its CRC)",
                  "events 151..499, 501..559, read between damaged events, are kept"):
            assert g in said, said

        code, out, err = run(capsys, "backups", "show", str(r["backup"]), "--db", db)
        shown = [ln for ln in out.splitlines() if ln.startswith("run ")]
        assert len(shown) == 2 and "events 151..499, not folded" in shown[0], out
        assert "between damaged events 150..150 (" in shown[0] and "and 500..500 (" in shown[0]
        assert "checked against the one it recorded after event 480" in shown[0]
        assert "not chained: the device recorded no hash chain head within them" in shown[1]

        code, out, err = run(capsys, "export", "--backup", str(r["backup"]), "--format", "json",
                             "--db", db)
        doc = json.loads(out)
        assert code == 0 and [x["folded"] for x in doc["runs"]] == [False, False]
        assert [bytes.fromhex(e["hex"]) for x in doc["runs"] for e in x["events"]] == (
            c.events[150:499] + c.events[500:559])

        # The last version restores: the device's state, its journal whole again.
        code, out, err = run(capsys, "restore", str(r["backup"]), "--yes", "--db", db, *port)
        assert code == 0 and "restored backup %d" % r["backup"] in out, out + err
        assert "the device's journal is damaged: events 150..150, events 500..500, events 560..560 " \
            "cannot be read; the restore replaces it" in out, out
        with Device.open(sim.port) as dev:
            info = dev.info()
            assert info["events"] == 600 and not info.get("damage")
            assert info["head"] == chain.over(chain.ZERO, 1, c.events).hex()
            assert cp.encode_state(cp.decode_snapshot(dev.snapshot()[1])) == cp.encode_state(
                cp.replay(0, c.events, c.cid))
    finally:
        sim.stop()
