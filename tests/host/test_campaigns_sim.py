"""Campaign slots end to end over the simulator:
`dicetray campaigns` lists what a restore leaves on flash (the campaign it
displaced), `campaigns delete` frees it, `campaigns switch` survives a reboot, `backup --slot`
backs up a campaign that is not current; the flash figures checked against
littlefs itself (littlefs-python, configured as the rp2 port's VfsLfs2)."""

import json
import os

import pytest

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.link.client import Device

from linkutil import Sim, write_flash

import store  # firmware/, on pytest's pythonpath
from store import slots


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _dir_files(flash, n):
    """{path in slot n: bytes} of its files, those in its directories too
    (the pending journal's p/p, docs/store.md)."""
    root = os.path.join(flash, "dicetray", "c%d" % n)
    out = {}
    for base, _dirs, files in os.walk(root):
        for name in files:
            p = os.path.join(base, name)
            out[os.path.relpath(p, root)] = os.path.getsize(p)
    return out


def _dirs(flash, n):
    """The directories in slot n's (each a littlefs metadata pair: 2 blocks)."""
    root = os.path.join(flash, "dicetray", "c%d" % n)
    return [d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))]


def test_a_restore_leaves_the_old_slot_and_delete_frees_it(tmp_path, capsys):
    flash = str(tmp_path / "flash")
    db = str(tmp_path / "b.sqlite3")
    write_flash(flash, 1000, slot=1)
    write_flash(str(tmp_path / "other"), 1000, seed=3, cid=54321)   # another tray's campaign
    other = Sim(str(tmp_path / "other"))
    try:
        with Device.open(other.port) as dev:
            bk = BackupStore(db, create=True)
            bid = bk.take(dev).backup
    finally:
        other.stop()
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        snap, events, seq, first = bk.restore_payload(bid)
        assert dev.restore(snap, events, seq, first=first)["slot"] == 2
        d = dev.campaigns()
        dev.close()
        old = _dir_files(flash, 1)                     # what the restore left behind
        assert d["current"] == 2 and [t["slot"] for t in d["slots"]] == [1, 2]
        t1 = d["slots"][0]
        assert (t1["campaign"], t1["system"], t1["events"], t1["current"]) == (12345, "hunt", 1000, False)
        assert t1["bytes"] == sum(old.values())
        assert t1["blocks"] == 2 + 2 * len(_dirs(flash, 1)) + sum(
            (k + 4095) // 4096 for k in old.values() if k > 512)
        code, out, err = run(capsys, "campaigns", "--port", sim.port)
        assert code == 0, err
        lines = out.splitlines()
        assert lines[0].split() == ["SLOT", "CAMPAIGN", "SYSTEM", "EVENTS", "FLASH", "NAME"]
        assert lines[1].split()[:6] == ["1", "12345", "hunt", "1000", str(t1["blocks"] * 4), "KB"]
        assert lines[2].split()[:2] == ["*", "2"]
        assert "2 campaigns" in lines[3]
        # the current one is refused, by the tool and by the device
        code, out, err = run(capsys, "campaigns", "delete", "2", "--yes", "--port", sim.port)
        assert code == 1 and "current campaign" in err and "campaigns switch" in err
        dev = Device.open(sim.port)
        with pytest.raises(Exception) as e:
            dev.delete(2)
        assert "slot 2 is the current campaign" in str(e.value)
        dev.close()
        code, out, err = run(capsys, "campaigns", "delete", "7", "--yes", "--port", sim.port)
        assert code == 1 and "no campaign slot 7" in err and "1, 2" in err
        code, out, err = run(capsys, "campaigns", "delete", "1", "--yes", "--json", "--port",
                             sim.port, "--db", db)
        assert code == 0, err
        got = json.loads(out.splitlines()[-1])
        assert got == {"slot": 1, "bytes": sum(old.values()), "blocks": t1["blocks"],
                       "kb": t1["blocks"] * 4}
        assert sorted(os.listdir(os.path.join(flash, "dicetray"))) == ["c2", "id.txt"]
        code, out, err = run(capsys, "campaigns", "--json", "--port", sim.port)
        d = json.loads(out)
        assert [t["slot"] for t in d["slots"]] == [2] and d["slots"][0]["events"] == 1000
    finally:
        sim.stop()


def test_switch_survives_a_reboot_and_backup_slot_switches_back(tmp_path, capsys):
    flash = str(tmp_path / "flash")
    db = str(tmp_path / "b.sqlite3")
    write_flash(flash, 300, slot=1)
    write_flash(flash, 40, seed=9, slot=2)
    sim = Sim(flash)
    try:
        code, out, err = run(capsys, "campaigns", "switch", "1", "--port", sim.port)
        assert code == 0, err
        assert "now slot 3" in out and "stays on flash as slot 2" in out
    finally:
        sim.kill()                                      # the plug pulled
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        info = dev.info()
        assert (info["slot"], info["events"]) == (3, 300)
        d = dev.campaigns()
        assert [(t["slot"], t["events"], t["current"]) for t in d["slots"]] == [
            (2, 40, False), (3, 300, True)]
        dev.close()
        code, out, err = run(capsys, "campaigns", "switch", "3", "--port", sim.port)
        assert code == 0 and "already the current campaign" in out
        # a campaign that is not current, backed up: switched to and back
        code, out, err = run(capsys, "backup", "--slot", "2", "--json", "--port", sim.port,
                             "--db", db)
        assert code == 0, err
        b = json.loads(out)
        assert b["last"] == 40 and b["slot"] == {"backed_up": 4, "was": 2, "current": 5}
        dev = Device.open(sim.port)
        info = dev.info()
        assert (info["slot"], info["events"]) == (5, 300)   # back on the 300-event campaign
        dev.close()
        rows = BackupStore(db).list()
        assert [(r["campaign"], r["last"]) for r in rows] == [(12345, 40)]
        # backed up now: delete asks nothing more than --yes
        code, out, err = run(capsys, "campaigns", "delete", "4", "--yes", "--port", sim.port,
                             "--db", db)
        assert code == 0 and "no backup" not in out and "KB of flash freed" in out
    finally:
        sim.stop()


def test_the_flash_figure_is_what_littlefs_takes():
    """slots.usage's blocks against littlefs v2 configured as the rp2 port's
    VfsLfs2 (4 KB blocks, read 32, prog 256, cache 4 x 256 = 1,024 bytes,
    so files up to 512 bytes are inlined in the directory's metadata)."""
    littlefs = pytest.importorskip("littlefs")
    import tempfile
    for n in (0, 20, 60, 300, 1000, 3000, 6000):
        flash = tempfile.mkdtemp()
        root = os.path.join(flash, "dicetray", "c1")
        os.makedirs(root)
        if n:
            write_flash(flash, n, slot=1, snap_every=16)
        fs = littlefs.LittleFS(block_size=4096, block_count=352, read_size=32, prog_size=256,
                               lookahead_size=32, cache_size=1024)
        fs.mkdir("dicetray")
        before = fs.used_block_count
        fs.mkdir("dicetray/c1")
        for name in sorted(os.listdir(root)):
            with open(os.path.join(root, name), "rb") as src, fs.open("dicetray/c1/" + name, "wb") as f:
                f.write(src.read())
        size, blocks = slots.usage(store.OsFs(), root)
        assert blocks == fs.used_block_count - before, (n, size, blocks)


def test_more_slots_than_one_answer_holds(tmp_path):
    """SLOTS answers 24 at a time; the client asks for the rest."""
    flash = str(tmp_path / "flash")
    for n in range(1, 31):
        write_flash(flash, 2 + n % 3, slot=n)
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        d = dev.campaigns()
        dev.close()
    finally:
        sim.stop()
    assert [t["slot"] for t in d["slots"]] == list(range(1, 31)) and d["current"] == 30
    assert [t["events"] for t in d["slots"]] == [2 + n % 3 for n in range(1, 31)]
    assert [t["current"] for t in d["slots"]] == [False] * 29 + [True] and "next" not in d


def test_a_new_campaign_from_the_host_on_the_simulator(tmp_path, capsys):
    """End to end over the simulator's serial port: the
    new campaign is current, named, its old one kept in slot 1, and both
    are there after the plug is pulled."""
    flash = str(tmp_path / "flash")
    write_flash(flash, 50, slot=1)
    sim = Sim(flash)
    try:
        code, out, err = run(capsys, "campaigns", "new", "expedition", "--name", "Westmarch",
                             "--yes", "--port", sim.port)
        assert code == 0, err
        assert "(expedition) is the current one, slot 2; campaign 12345 stays on flash as slot 1" in out
    finally:
        sim.kill()                                      # the plug pulled
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        info = dev.info()
        assert (info["slot"], info["system"], info["name"], info["events"]) == (
            2, "expedition", "Westmarch", 1)
        d = dev.campaigns()
        assert [(t["slot"], t["campaign"], t["events"], t["name"]) for t in d["slots"]] == [
            (1, 12345, 50, ""), (2, info["campaign"], 1, "Westmarch")]
        out = dev.act(96, (3, 2, 0, 0, 0, 0, 0, -1))     # an expedition TEST: it plays on
        assert out["seq"] == 2
        dev.close()
    finally:
        sim.stop()
