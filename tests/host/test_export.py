"""Export: the campaign alone, deterministic, identical after a restore onto
another device. The devices are the real firmware (RamTrays:
tests/host/ramtray.py), read through the host's real Device."""
import csv
import re
import io
import json

from ramtray import RamTray, play, serve

from dicetray.campaign import document, export
from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.rules import campaign as cp, expedition


def _export(tray, fmt, capsys, monkeypatch):
    trays = serve({"dev": tray})
    assert trays.main(["export", "--format", fmt]) == 0
    return capsys.readouterr().out


def test_restored_campaign_exports_byte_for_byte(tmp_path, capsys, monkeypatch):
    dev = play(RamTray(system=1, cid=321, name="tray-A"), 90)
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    bid = st.take(dev.device()).backup
    other = RamTray(system=0, cid=5, name="tray-B", seed=99)
    od = other.device()
    od.set_clock(1234567)
    od.restore(*st.restore_payload(bid))
    assert od.info()["clock"] >= 1234567 and od.info()["device"] == "tray-B"
    for fmt in ("json", "csv"):
        a = _export(dev, fmt, capsys, monkeypatch)
        b = _export(other, fmt, capsys, monkeypatch)
        assert a == b and "tray-A" not in a and "tray-B" not in b
    # a backup exports the same campaign too: only what the backup database
    # knows (when each event was backed up, and so paths' sessions) is added
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path))
    out = tmp_path / "x.json"
    assert cli.main(["export", "--format", "json", "--backup", str(bid), "--db", st.path,
                          "--output", str(out)]) == 0
    backed, device = json.loads(out.read_text()), json.loads(_export(dev, "json", capsys,
                                                                      monkeypatch))
    assert backed != device
    assert _campaign_only(backed) == _campaign_only(device)
    assert {e["backup"] for e in backed["events"]} == {bid}
    assert {e["backup"] for e in device["events"]} == {None}
    assert {e["seen"] for e in device["events"]} == {None}
    assert [s["ended_by"] for s in backed["sessions"]] == ["backup %d" % bid]
    assert [s["ended_by"] for s in device["sessions"]] == [None]


def _campaign_only(doc):
    """An export without what only a backup export has (backup, seen and,
    for paths and expedition, the sessions that backups end)."""
    doc = json.loads(json.dumps(doc))
    for e in doc["events"]:
        for k in ("backup", "seen", "session"):
            del e[k]
    del doc["sessions"]
    return doc


def test_json_content():
    dev = play(RamTray(system=0, cid=8), 25)
    doc = export.document(0, 8, dev.state(), dev.device().events(0))
    text = export.to_json(doc)
    assert text == export.to_json(json.loads(text))  # sorted, stable
    d = json.loads(text)
    assert d["campaign"] == 8 and d["system"] == "hunt" and d["first"] == 1 and d["last"] == 25
    assert d["events"][0]["name"] == "CHAR_ADD" and d["events"][0]["text"] == "Ada"
    assert [e["seq"] for e in d["events"]] == list(range(1, 26))
    assert d["state"]["events"] == 25 and d["state"]["characters"][1]["name"] == "Bo"
    assert bytes.fromhex(d["state"]["hex"]) == dev.state()
    assert not set(d) & {"device", "firmware", "created", "exported"}


def test_csv_is_the_events_alone_for_a_spreadsheet(capsys, monkeypatch):
    # A header, then the event rows and nothing else (one
    # roll gave 48 lines: campaign fields, talisman internals, a hex blob).
    dev = play(RamTray(system=2, cid=8), 20)
    rows = list(csv.reader(io.StringIO(_export(dev, "csv", capsys, monkeypatch))))
    assert rows[0] == list(export.CSV_COLUMNS) == [
        "event", "session", "summary", "faces", "successes", "verdict", "margin", "notes",
        "undone", "kind", "text", "backup", "seen"]
    col = {c: i for i, c in enumerate(rows[0])}
    assert [int(r[0]) for r in rows[1:]] == list(range(1, 21))       # one row an event, in order
    assert rows[1][col["summary"]] == "Ada joins" and rows[1][col["kind"]] == "CHAR_ADD"
    rolls = [r for r in rows[1:] if r[col["verdict"]]]
    assert rolls and all(r[col["faces"]] and r[col["summary"]].startswith(r[col["summary"]].split(":")[0])
                         for r in rolls)
    text = "\n".join(",".join(r) for r in rows)
    hexes = {ev.hex() for ev in dev.journal()} | {dev.state().hex()}
    assert not any(h in text for h in hexes)                          # no bytes as hex
    for internal in ("spare number", "its CAT", "state", "campaign,", "talisman,"):
        assert internal not in text, internal
    # --state: the trackers instead, one row each, in the game's words
    trays = serve({"dev": dev})
    assert trays.main(["export", "--format", "csv", "--state"]) == 0
    state = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert state[0] == ["tracker", "value", "talisman", "character"]
    assert state[1][0] == "Turn" and state[1][1].endswith(", day %d" % dev.c.x[expedition.DAY])
    assert any(r[0] == "Ada" and r[2:] == ["", "0"] and "HP " in r[1] for r in state), state
    assert state[-1][0] == "Campaign" and "turn " in state[-1][1]
    assert not any(x in ",".join(map(",".join, state)) for x in ("spare number", "its CAT"))
    assert trays.main(["export", "--format", "json", "--state"]) == 2   # the JSON has it already


def test_csv_names_a_spreadsheet_would_run_are_text(tmp_path, capsys, monkeypatch):
    """OWASP's CSV injection rule: a text cell that begins
    with = + - @ tab or CR gets a leading ' and is quoted; numbers the tool
    writes (ints, the args column's "-1") stay as they are. On main the
    names went out as formulas."""
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path))
    tray = RamTray(system=0, cid=8)
    trays = serve({"dev": tray})
    names = ["=1+1", "@SUM(A1)", "-2+3", "+cmd|' /C'"]
    for n in names:
        assert trays.main(["char", "--", n]) == 0
    for i in range(len(names)):
        assert trays.main(["roll", "--pool", "2", "--char", str(i)]) == 0
    assert trays.main(["rename", "char", "0", "--", "=HYPERLINK()"]) == 0
    capsys.readouterr()
    out = tmp_path / "x.csv"
    assert trays.main(["export", "--format", "csv", "-o", str(out)]) == 0
    text = out.read_text()
    rows = list(csv.reader(io.StringIO(text)))
    col = {c: i for i, c in enumerate(export.CSV_COLUMNS)}
    ev = rows[1:]
    assert [r[col["text"]] for r in ev[:4]] == ["'" + n for n in names]
    assert [r[col["summary"]] for r in ev[:4]] == ["'%s joins" % n for n in names]
    assert ev[4][col["summary"]].startswith("'=1+1 rolls 2d6: ")
    assert ev[-1][col["text"]] == "'=HYPERLINK()"
    # every such cell is quoted in the file, and no cell of it begins a formula
    for n in names:
        assert '"\'%s"' % n.replace('"', '""') in text
    assert not [c for r in rows for c in r if c and c[0] in "=+@\t\r"]
    assert not [c for r in rows for c in r if c[:1] == "-"]
    # the trackers' names too (--state)
    assert trays.main(["export", "--format", "csv", "--state", "-o", str(out)]) == 0
    state = list(csv.reader(io.StringIO(out.read_text())))
    assert [r[0] for r in state if r[3] == "0"] == ["'=HYPERLINK()"]
    assert not [c for r in state for c in r if c and c[0] in "=+-@\t\r"]
    # and a campaign without such names exports as csv.writer writes it
    plain = play(RamTray(system=1, cid=9), 60)
    doc = export.document(1, 9, plain.state(), plain.device().events(0))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in csv.reader(io.StringIO(export.to_csv(doc))):
        w.writerow(r)
    assert export.to_csv(doc) == buf.getvalue()


def test_kind_names():
    assert export.kind_name(0, 32) == "ROLL"
    assert export.kind_name(1, 64) == "TEST"
    assert export.kind_name(2, 99) == "DAMAGE"  # not MAX_POINTS
    assert export.kind_name(2, 109) == "TURN"
    assert export.kind_number(2, "turn") == 109
    assert export.kind_name(0, 1) == "UNDO"


# --- the log a keeper reads --------------------------------

def _doc(tray):
    """export.document of what the tray's Device reads: info, snapshot, events."""
    dev = tray.device()
    info = dev.info()
    snap = cp.decode_snapshot(dev.snapshot()[1], None, False)
    return export.document(snap.system, info["campaign"], cp.encode_state(snap), dev.events(0))


def test_each_roll_carries_the_outcome_the_device_gave():
    # Each outcome as the device answered its ACT, through the host's Device.
    dev = play(RamTray(system=0, cid=8), 20)
    said = {}
    for args in ((0, 2, 1, 0, 0, 0, -1), (1, 3, 3, 0, 0, 1, -1), (-1, 0, 0, 0, 0, 0, -1)):
        r = dev.device().act(32, args)
        said[r["seq"]] = r
    dev2 = play(RamTray(system=1, cid=9), 5)
    for args in ((0, 3, 2, 0, 0, 3, 0), (1, 2, 2, 0, 0, 2, 1), (0, 0, 0, 0, 0, 0, 0)):
        r = dev2.device().act(64, args)
        said[(1, r["seq"])] = r
    r = dev2.device().act(65, (0, 3, 3, 0, 0, 4, 0))
    said[(1, r["seq"])] = r
    dev3 = play(RamTray(system=2, cid=10), 5)
    r = dev3.device().act(97, (2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0))
    said[(2, r["seq"])] = r
    for d, key in ((dev, lambda s: s), (dev2, lambda s: (1, s)), (dev3, lambda s: (2, s))):
        doc = _doc(d)
        for e in doc["events"]:
            r = said.get(key(e["seq"]))
            if r is None:
                continue
            o = e["outcome"]
            assert o["successes"] == r["successes"] and o["margin"] == r["margin"]
            assert o["verdict"] == export.VERDICTS[e["kind"]][r["verdict"]]
            assert e["notes"] == [n for n in r["notes"] if n in e["notes"]]
    roll = [e for e in _doc(dev)["events"] if e["seq"] in said][1]
    assert roll["summary"].startswith("Bo rolls 6d6 (hard): ")
    assert roll["summary"].endswith("%d success%s, %s" % (
        roll["outcome"]["successes"], "" if roll["outcome"]["successes"] == 1 else "es",
        roll["outcome"]["verdict"]))
    auto = [e for e in _doc(dev2)["events"] if e["kind"] == 64 and e["args"][5] == 0][0]
    assert auto["summary"].endswith("at difficulty 0: automatic success") and not auto["faces"]
    vs = _doc(dev3)["events"][-1]
    assert vs["summary"].startswith("versus test: A Ability 2 against B Ability 1: ")
    assert vs["outcome"]["verdict"] in ("win", "loss", "tie")
    # events that are not rolls have notes and a sentence, no outcome
    free = [e for e in _doc(dev)["events"] if e["name"] == "CHAR_ADD"][0]
    assert free["outcome"] is None and free["summary"] == "Ada joins" and free["notes"] == []


def test_undone_actions_and_what_undo_takes_back():
    dev = RamTray(system=0, cid=3)
    dev.act(cp.CHAR_ADD, (), "Ada")           # 1
    dev.act(32, (0, 1, 0, 0, 0, 0, -1))       # 2
    dev.act(cp.UNDO)                          # 3: takes back 2
    dev.act(cp.REDO)                          # 4: brings 2 back
    dev.act(cp.DICE, (6, 1))                  # 5
    dev.act(cp.UNDO)                          # 6: takes back 5 for good
    dev.act(34, (0,))                         # 7
    ev = {e["seq"]: e for e in _doc(dev)["events"]}
    assert ev[2]["undone"] is None and ev[5]["undone"] == 6 and ev[7]["undone"] is None
    assert ev[3]["summary"] == "undo: takes back event 2, Ada rolls 1d6"
    assert ev[4]["summary"] == "redo: event 2 again, Ada rolls 1d6"
    assert ev[6]["summary"] == "undo: takes back event 5, free roll of 1d6"
    assert ev[5]["summary"].startswith("free roll of 1d6: ") and "total" in ev[5]["summary"]


def test_hunt_sessions_end_at_a_session_end_that_stands(capsys, monkeypatch):
    dev = play(RamTray(system=0, cid=8), 10)
    dev.act(42)            # 11: session 1 ends
    dev.act(cp.DICE, (6, 2))
    dev.act(42)            # 13: undone, so no end
    dev.act(cp.UNDO)       # 14
    dev.act(cp.DICE, (6, 2))
    dev.act(42)            # 16: session 2 ends
    dev.act(cp.DICE, (6, 1))
    doc = json.loads(_export(dev, "json", capsys, monkeypatch))
    assert [(s["session"], s["first"], s["last"], s["ended_by"]) for s in doc["sessions"]] == [
        (1, 1, 11, "SESSION_END"), (2, 12, 16, "SESSION_END"), (3, 17, 17, None)]
    assert [e["session"] for e in doc["events"]] == [1] * 11 + [2] * 5 + [3]
    assert doc["events"][12]["undone"] == 14
    rows = list(csv.reader(io.StringIO(_export(dev, "csv", capsys, monkeypatch))))
    assert [r[1] for r in rows[1:]] == ["1"] * 11 + ["2"] * 5 + ["3"]   # the session column
    assert rows[13][export.CSV_COLUMNS.index("undone")] == "14"


def test_backup_export_times_and_sessions_from_backups(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path))
    tray = play(RamTray(system=1, cid=30), 10)
    dev = tray.device()
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    t0 = 1767300000  # 2026-01-01T20:40:00Z
    assert st.take(dev, now=t0).backup == 1
    play(tray, 5, seed=8)
    assert st.take(dev, now=t0 + 86400).backup == 2
    assert st.take(dev, now=t0 + 86400 * 2).duplicate   # nothing new: no version, no session
    play(tray, 3, seed=9)
    assert st.take(dev, now=t0 + 86400 * 7).backup == 3
    trays = serve({"dev": tray})
    assert trays.main(["export", "--format", "json", "--backup", "3", "--db", st.path]) == 0
    doc = json.loads(capsys.readouterr().out)
    ev = {e["seq"]: e for e in doc["events"]}
    assert (ev[1]["backup"], ev[1]["seen"]) == (1, "2026-01-01T20:40:00Z")
    assert (ev[10]["backup"], ev[11]["backup"], ev[15]["backup"], ev[16]["backup"]) == (1, 2, 2, 3)
    assert ev[15]["seen"] == "2026-01-02T20:40:00Z" and ev[18]["seen"] == "2026-01-08T20:40:00Z"
    assert [(s["first"], s["last"], s["ended_by"], s["seen"]) for s in doc["sessions"]] == [
        (1, 10, "backup 1", "2026-01-01T20:40:00Z"), (11, 15, "backup 2", "2026-01-02T20:40:00Z"),
        (16, 18, "backup 3", "2026-01-08T20:40:00Z")]
    # an older backup's export is the same for the events it holds
    assert trays.main(["export", "--format", "json", "--backup", "2", "--db", st.path]) == 0
    old = json.loads(capsys.readouterr().out)
    assert [(e["backup"], e["seen"]) for e in old["events"]] == \
        [(ev[s]["backup"], ev[s]["seen"]) for s in range(1, 16)]
    # the device's export has no backup times and, in paths, one session
    doc = json.loads(_export(tray, "json", capsys, monkeypatch))
    assert {(e["backup"], e["seen"], e["session"]) for e in doc["events"]} == {(None, None, 1)}
    rows = list(csv.reader(io.StringIO(_export(tray, "csv", capsys, monkeypatch))))
    assert {r[export.CSV_COLUMNS.index("seen")] for r in rows[1:]} == {""}


def test_a_new_lineage_keeps_the_times_its_parent_saw(tmp_path, capsys, monkeypatch):
    tray = play(RamTray(system=2, cid=31), 12)
    dev = tray.device()
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    st.take(dev, now=1000)                  # 1: events 1..12
    play(tray, 4, seed=5)
    st.take(dev, now=2000)                  # 2: 1..16
    dev.restore(*st.restore_payload(1))     # back to 12, then another story
    play(tray, 2, seed=6)
    r = st.take(dev, now=3000)              # 3: a new lineage from event 12
    assert r.notes and "new lineage" in r.notes[0]
    trays = serve({"dev": tray})
    assert trays.main(["export", "--format", "json", "--backup", "3", "--db", st.path]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [e["backup"] for e in doc["events"]] == [1] * 12 + [3] * 2
    assert doc["events"][0]["seen"] == "1970-01-01T00:16:40Z"


def test_a_baseline_export_has_outcomes_after_its_snapshot(tmp_path, capsys, monkeypatch):
    # A tray that keeps 10 events below its compaction floor, in small segments.
    tray = play(RamTray(system=0, cid=32, keep=10, roll=1), 50)
    first = tray.first()
    assert first > 1                         # the device holds first..50
    dev = tray.device()
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    b = st.take(dev)
    tray.tune(keep=6000)                     # and keeps all it gets from now on
    play(tray, 6, seed=12)
    b = st.take(dev)
    assert tray.first() == first
    trays = serve({"dev": tray})
    assert trays.main(["export", "--format", "json", "--backup", str(b.backup),
                          "--db", st.path]) == 0
    doc = json.loads(capsys.readouterr().out)
    base = st.load(b.backup).base_seq
    rolls = [e for e in doc["events"] if e["kind"] == 32]
    assert rolls and all((e["outcome"] is None) == (e["seq"] <= base) for e in rolls)
    assert doc["first"] == first and doc["last"] == 56
    # the device's own export of a compacted journal: no outcome (no state before it), no error
    doc = json.loads(_export(tray, "json", capsys, monkeypatch))
    assert doc["first"] == first and all(e["outcome"] is None for e in doc["events"])


def test_a_damaged_backup_is_not_exported(tmp_path, capsys, monkeypatch):
    dev = play(RamTray(system=0, cid=33), 20)
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    bid = st.take(dev.device()).backup
    real = export.log

    def wrong(*a, **k):   # as if the events folded to another state
        entries, c = real(*a, **k)
        c.x[0] += 1
        return entries, c
    monkeypatch.setattr(document, "log", wrong)        # the log the document folds
    code = cli.main(["export", "--format", "json", "--backup", str(bid), "--db", st.path])
    err = capsys.readouterr().err
    assert code == 1 and "backup 1 is damaged: its events do not fold to its state" in err


def test_backups_diff_in_words(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path))
    dev = play(RamTray(system=0, cid=34), 40)
    trays = serve({"dev": dev})
    assert trays.main(["backup"]) == 0
    dev.act(32, (0, 2, 1, 0, 0, 1, -1))
    dev.act(cp.SLASH, (1, 1, 0))
    dev.act(cp.UNDO)
    dev.act(34, (1,))
    assert trays.main(["backup"]) == 0
    capsys.readouterr()
    assert trays.main(["backups", "diff", "1", "2"]) == 0
    out = capsys.readouterr().out
    assert "from backup 1 (events 1..40) to backup 2 (events 1..44)" in out
    assert "4 new events in backup 2:" in out
    assert re.search(r"  event 41: Ada rolls 3d6 \(hard\): [1-6] [1-6] [1-6], "
                     r"[0-3] success(es)?, (success|failure)\n", out), out
    assert "  event 42: slash Tension\n" in out
    assert "  event 43: undo: takes back event 42, slash Tension\n" in out
    assert "  event 44: the scene ends, a fight next\n" in out
    assert "KIND_" not in out and "[" not in out and " 32 " not in out
    assert trays.main(["backups", "diff", "1", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [e["seq"] for e in d["events"]] == [41, 42, 43, 44]
    assert d["events"][0]["summary"].startswith("Ada rolls 3d6 (hard): ")
    assert d["events"][1]["undone"] == 43


def test_a_combat_check_against_a_tracked_foe_names_it():
    # COMBAT's threat bits 4-9 name side B's tracked foe.
    from dicetray.rules import expedition as E, expedition_foes as EF
    c = cp.Campaign(E.ID, cid=3)
    c.act(cp.CHAR_ADD, (), "Ada")
    t = c.act(EF.FOE, (0, 3, 0, 0, -1), "Orc").tal
    a = (0, 2, 0, 0, 1, 0, -1, 3, 0, 0, 0, 0, 0, 0, 0, 3 | E.FOE_B)
    assert export.lead(2, c, E.COMBAT, a) == (
        "combat check: Ada (Ability 2 +1s) against an NPC (a Level 3 monster)"
    )
    tracked = a[:15] + (a[15] | (t + 1) * EF.TRACKED,)
    assert export.lead(2, c, E.COMBAT, tracked) == (
        "combat check: Ada (Ability 2 +1s) against Orc (a Level 3 monster)"
    )
