"""The tray's memory at every campaign length, on the desktop simulator
(real MicroPython, its ~1 MB heap collected only at the app's safe points:
simboard/desktop.py): a journal of JOURNAL_KEEP events after the empty
snapshot boots and is snapshotted at once; with every snapshot damaged it
is rebuilt from the journal; a host that acts without a pause leaves a
snapshot every SNAP_MAX events, so a power cut then replays few; and an
incremental backup of 2,400 events made live after 3,200 completes
(docs/store.md, "Boot replays"). The same on the rp2 port:
tests/board/test_long_journal.py."""

import os

import linkutil
from linkutil import Sim

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.link.client import Device
from dicetray.rules import campaign as cp

import session  # noqa: E402  (firmware/, on the path through linkutil)
import store

FULL = store.JOURNAL_KEEP


def snaps(flash):
    root = os.path.join(flash, "dicetray", "c1")
    return sorted(int(nm[1:9], 16) for nm in os.listdir(root) if nm.endswith(".snp"))


def state_of(dev):
    return cp.encode_state(cp.decode_snapshot(dev.snapshot()[1]))


def test_a_full_journal_after_the_empty_snapshot_boots(tmp_path):
    flash = str(tmp_path / "flash")
    c = linkutil.write_flash(flash, FULL, snap_every=linkutil.NO_SNAPSHOT)
    assert snaps(flash) == [0]
    sim = Sim(flash)
    try:
        with Device.open(sim.port) as dev:
            info = dev.info()
            assert info["events"] == FULL and "damage" not in info
            assert state_of(dev) == cp.encode_state(c)
        assert snaps(flash)[-1] == FULL  # the boot snapshotted its long replay
        sim.kill()  # a power cut: the next boot replays nothing
        sim = Sim(flash)
        with Device.open(sim.port) as dev:
            assert dev.info()["events"] == FULL and state_of(dev) == cp.encode_state(c)
    finally:
        sim.stop()


def test_every_snapshot_damaged_a_full_journal_is_rebuilt(tmp_path):
    flash = str(tmp_path / "flash")
    c = linkutil.write_flash(flash, FULL)
    assert linkutil.damage_snapshots(flash) == 2  # their headers still name it
    sim = Sim(flash)
    try:
        with Device.open(sim.port) as dev:
            info = dev.info()
            assert info["events"] == FULL and info["campaign"] == c.cid
            assert any("rebuilt from its journal as hunt" in d for d in info["damage"]), info
            assert state_of(dev) == cp.encode_state(c)
        assert snaps(flash)[-1] == FULL
    finally:
        sim.stop()


def test_a_host_that_never_pauses_leaves_a_short_replay(tmp_path):
    flash = str(tmp_path / "flash")
    sim = Sim(flash)
    try:
        with Device.open(sim.port) as dev:
            for k in range(4 * session.SNAP_MAX):
                dev.act(cp.DICE, (6, 1 + k % 5))  # back to back: no idle moment
            want = state_of(dev)
        sim.kill()
        assert snaps(flash)[-1] > 4 * session.SNAP_MAX - session.SNAP_MAX
        sim = Sim(flash)
        with Device.open(sim.port) as dev:
            assert dev.info()["events"] == 4 * session.SNAP_MAX and state_of(dev) == want
    finally:
        sim.stop()


def test_an_incremental_backup_of_2400_live_events_after_3200(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 3200)
    sim = Sim(flash)
    try:
        port = ["--port", sim.port]
        assert cli.main(["backup"] + port) == 0
        with Device.open(sim.port) as dev:
            for k in range(2400):  # a long session: the heap as it leaves it
                dev.act(cp.DICE, (6, 1 + k % 10))
        capsys.readouterr()
        assert cli.main(["backup"] + port) == 0, capsys.readouterr().err
        assert "2400 of them new" in capsys.readouterr().out
        with Device.open(sim.port) as dev:
            held = dev.events(0)
        kept = BackupStore(str(tmp_path / "home" / "backups.sqlite3")).load(2)
        assert kept.first == 1 and kept.last == 5600 and kept.events == [bytes(e) for e in held]
        sim.stop(alive=True)
    finally:
        sim.stop()
