"""The chain holds on the device: one old record
on the tray's flash rewritten with valid checks (a free roll 3 2 -> 6 6,
its CRC and check byte recomputed). The device's head comes from its
snapshot, so before this nothing saw it: `verify` said "the same
history", an incremental backup "no change", the scrub nothing. Now the
scrub chains the journal and reports the break (status --json, the Info
screen), `verify` reads every event the device holds and names the first
that differs, and a backup says what it did not read and what the
device's scrub found. The tray is the real firmware in this process
(tests/host/ramtray.py)."""

import json

from ramtray import RamTray, play, serve

from dicetray.backup import BackupStore
from dicetray.rules import campaign as cp, codec


def tray_with_rolls(n=60, rolls=(5, 12, 20), **kw):
    """A hunt tray of n events with free rolls of 2d6 (faces 3 2) at `rolls`."""
    tray = RamTray(system=0, cid=31, **kw)
    play(tray, 1)
    while tray.nevents < n:
        if tray.nevents + 1 in rolls:
            tray.act(cp.DICE, (6, 2), faces=(3, 2))
        else:
            play(tray, 1, seed=tray.nevents)
    return tray


def forge(tray, seq):
    """Rewrite free roll `seq` on the tray's flash as 6 6, its record valid."""
    ev = codec.encode_event(cp.DICE, (6, 2), bytes((6, 6)))
    tray.replace_event(seq, ev)
    return ev


def scrub_cycle(tray, steps=40):
    """Run the tray's scrub (Session.scrub, as the idle loop does) for a
    few full cycles; the warnings it raised."""
    got = []
    for _ in range(steps):
        w = tray.s.scrub()
        if w is not None:
            got.append(w)
    return got


def status(trays, capsys):
    assert trays.main(["status", "--json", "--port", "x"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_forged_old_record_is_caught_by_verify_the_scrub_and_backup(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    path = str(tmp_path / "b.sqlite3")
    trays = serve({"x": tray_with_rolls()}, "x")
    tray = trays["x"]
    st = BackupStore(path)
    bid = st.take(tray.device()).backup
    st.close()
    # No change, said with what vouches for the events it did not read:
    # the device's head, its journal not yet checked against it since boot.
    assert trays.main(["backup", "--db", path, "--port", "x"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("no change since backup %d" % bid), out
    assert "events 1..59 were not read: the device's hash chain head vouches for them, " \
        "and its scrub has not checked them against it since it booted" in out, out
    assert scrub_cycle(tray) == []                      # a clean journal: nothing to say
    assert trays.main(["backup", "--db", path, "--port", "x"]) == 0
    assert capsys.readouterr().out.strip() == \
        "no change since backup %d (campaign 31, hunt, event 60): no new version" % bid
    info = status(trays, capsys)
    assert info["scrub"]["cycles"] >= 1 and info["scrub"]["chain"] == [1, 60], info["scrub"]
    assert trays.main(["status", "-v", "--port", "x"]) == 0   # the scrub's own words: internals
    assert "scrub     its journal holds its hash chain over events 1..60" in capsys.readouterr().out

    forged = forge(tray, 12)
    tray.boot()                                         # the head: the snapshot's, as before
    assert tray.s.st.read(11, 12) == [forged]
    head = tray.head

    # verify reads every event the device holds and names the one that differs.
    code = trays.main(["verify", "--db", path, "--port", "x"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "event 12" in out and "the same history" not in out, out
    code = trays.main(["verify", "--db", path, "--port", "x", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1 and d["holds"] is False and d["differs_at"] == 12, d

    # An export from the device chains what it reads: it does not show the forged roll.
    code = trays.main(["export", "--format", "json", "--port", "x", "-o", str(tmp_path / "x.json")])
    err = capsys.readouterr().err
    assert code == 1 and not (tmp_path / "x.json").exists(), err
    assert "events 1..60 do not lead to the hash chain head it reports" in err, err

    # The scrub recomputes the chain over the journal: the break is damage.
    got = scrub_cycle(tray)
    assert len(got) == 1 and got[0][0] == "STORE DAMAGE", got
    assert "hash chain" in got[0][1] and "event 60" in got[0][1], got
    info = status(trays, capsys)
    assert any("hash chain" in x for x in info["damage"]), info
    assert info["scrub"]["chain"] is None, info["scrub"]
    from ui.info import Info                            # Settings > Info, on the tray

    tray.app.push(Info(tray.app))
    tray.app.render()
    assert tray.b.display.rows[5] == "Chain     BROKEN", tray.b.display.rows
    tray.app.pop()

    # An incremental backup reads only what is new: it says what the
    # device's scrub found instead of a bare "no change".
    code = trays.main(["backup", "--db", path, "--port", "x", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and not r["new"] and r["backup"] == bid, r
    assert any("hash chain" in n and "verify" in n for n in r["notes"]), r["notes"]
    # The device keeps working: it acts and snapshots on.
    play(tray, 20, seed=9)
    assert tray.nevents == 80 and tray.head != head


def test_verify_names_the_damage_the_device_reports(tmp_path, monkeypatch, capsys):
    # A device whose boot or scrub found damage does not
    # "agree" with a backup, whatever its head says.
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    path = str(tmp_path / "b.sqlite3")
    trays = serve({"x": tray_with_rolls(40)}, "x")
    tray = trays["x"]
    st = BackupStore(path)
    st.take(tray.device())
    st.close()
    tray.s.warnings.append(("STORE DAMAGE", "journal j00000000.log damaged after event 3"))
    code = trays.main(["verify", "--db", path, "--port", "x", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1 and d["holds"] is False, d
    assert d["damage"] == ["journal j00000000.log damaged after event 3"], d
    assert "damaged after event 3" in d["why"], d


def test_verify_of_a_backup_alone_says_it_checks_it_against_itself(
    tmp_path, monkeypatch, capsys
):
    path = str(tmp_path / "b.sqlite3")
    st = BackupStore(path)
    bid = st.take(tray_with_rolls(30).device()).backup
    st.close()
    from dicetray import cli
    from dicetray.link import ports

    monkeypatch.setattr(ports, "find", lambda: [])
    assert cli.main(["verify", "--db", path, "--backup", str(bid)]) == 0
    out = capsys.readouterr().out
    assert "against itself only" in out and "not that it matches" in out, out
    assert cli.main(["verify", "--db", path, "--backup", str(bid), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)                 # JSON, and only JSON
    assert d["device"] is None and d["checked"] == "backup alone" and d["holds"], d


def test_a_forgery_in_a_compacted_journal(tmp_path, monkeypatch, capsys):
    # The journal no longer starts at event 1: the scrub chains it from the
    # head the tray recorded at its oldest segment's base (store/anchors.py),
    # which CHAIN gives the host too, so an export checks it as well.
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    path = str(tmp_path / "b.sqlite3")
    trays = serve({"x": tray_with_rolls(90, rolls=(5, 12, 20, 70, 75), keep=10, roll=200)}, "x")
    tray = trays["x"]
    first = tray.first()
    assert 20 < first < 70, first
    st = BackupStore(path)
    st.take(tray.device())
    st.close()
    assert scrub_cycle(tray) == []
    assert status(trays, capsys)["scrub"]["chain"] == [first, 90]
    forge(tray, 70)
    tray.boot()
    got = scrub_cycle(tray)
    assert len(got) == 1 and "hash chain breaks in events" in got[0][1], got
    code = trays.main(["export", "--format", "csv", "--port", "x", "-o", str(tmp_path / "x.csv")])
    err = capsys.readouterr().err
    assert code == 1 and "do not lead to the hash chain head" in err, err
    code = trays.main(["verify", "--db", path, "--port", "x", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1 and d["differs_at"] == 70 and d["compared"] == [first, 90], d
    assert "changed on its flash after it was chained" in d["why"], d


def test_a_flash_from_before_the_anchors_boots_backs_up_and_is_chained(tmp_path):
    # What firmware before the anchors left: the same journal and snapshots,
    # no anchors file. It boots and backs up as before; the scrub chains
    # it from event 1 and the next segment's start writes what it learned.
    tray = tray_with_rolls(90, roll=200)
    root = tray.s.st.root
    for p in [p for p in tray.fs.files if p.startswith(root + "/h")]:
        del tray.fs.files[p]
    tray.boot()
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    r = st.take(tray.device())
    assert r.last == 90 and r.head == tray.head.hex()
    assert scrub_cycle(tray) == [] and tray.s.st.scrubbed[1:] == (1, 90, True)
    while not [p for p in tray.fs.files if p.startswith(root + "/h")]:
        play(tray, 1, seed=tray.nevents)
    tray.boot()
    from store import anchors

    bases = tray.s.st.segments()
    assert all(anchors.get(tray.s.st, b) is not None for b in bases), bases
