"""The tray's memory at every campaign length on the rp2 port's own heap
(236 KB, its collector as on a board): a journal of JOURNAL_KEEP events
after the empty snapshot boots and is snapshotted at boot; with every
snapshot damaged it is rebuilt from the journal; an incremental backup of
2,400 events after 3,200 completes. The free heap after a collection at
the end of each is printed with -s (make bench has the rows). The same on
the desktop simulator: tests/host/test_long_journal_sim.py."""

import os
import sys

import boards

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.link.client import Device
from dicetray.rules import campaign as cp
from dicetray.sim import lfsimage

sys.path.insert(0, os.path.join(boards.uf2.ROOT, "tests", "host"))
import linkutil  # noqa: E402

import store  # noqa: E402  (firmware/, on the path through linkutil)

FULL = store.JOURNAL_KEEP
BOOT_S = 600  # wall seconds a long replay may take on a loaded machine


def install(tmp_path, n, snap_every=32, damage=False):
    """A campaign of n events (linkutil's) on a board flash image; returns
    (the host's campaign, the image's path)."""
    host = tmp_path / ("host%d" % n)
    c = linkutil.write_flash(str(host), n, snap_every=snap_every)
    if damage:
        linkutil.damage_snapshots(str(host))  # the state's body: its headers still name it
    flash = tmp_path / "flash.bin"
    lfsimage.install(str(flash), lfsimage.files_of(str(host)))
    return c, flash


def snaps(flash):
    return sorted(
        int(p[-12:-4], 16)
        for p in lfsimage.read(str(flash))
        if p.startswith("/dicetray/c1/") and p.endswith(".snp")
    )


def state_of(dev):
    return cp.encode_state(cp.decode_snapshot(dev.snapshot()[1]))


def test_a_full_journal_after_the_empty_snapshot_boots(tmp_path):
    c, flash = install(tmp_path, FULL, linkutil.NO_SNAPSHOT)
    with boards.board(flash, seed=2) as em:
        ns = em.wait_app(BOOT_S)
        with Device.open(em.port, timeout=10.0) as dev:
            info = dev.info(collect=True)
            assert info["events"] == FULL and "damage" not in info
            assert state_of(dev) == cp.encode_state(c)
    print(
        "\nboot with %d events to replay: %.0f ms emulated, heap free after it %d"
        % (FULL, ns / 1e6, info["heap_free"])
    )
    assert snaps(flash)[-1] == FULL  # snapshotted at boot
    with boards.board(flash, seed=3) as em:  # the next boot replays nothing
        em.wait_app()
        with Device.open(em.port, timeout=10.0) as dev:
            assert dev.info()["events"] == FULL and state_of(dev) == cp.encode_state(c)


def test_every_snapshot_damaged_a_full_journal_is_rebuilt(tmp_path):
    c, flash = install(tmp_path, FULL, damage=True)
    with boards.board(flash, seed=2) as em:
        ns = em.wait_app(BOOT_S)
        with Device.open(em.port, timeout=10.0) as dev:
            info = dev.info(collect=True)
            assert info["events"] == FULL and info["campaign"] == c.cid
            assert any("rebuilt from its journal as hunt" in d for d in info["damage"]), info
            assert state_of(dev) == cp.encode_state(c)
    print(
        "\nrebuild of %d events: %.0f ms emulated, heap free after it %d"
        % (FULL, ns / 1e6, info["heap_free"])
    )
    assert snaps(flash)[-1] == FULL


def test_an_incremental_backup_of_2400_events_after_3200(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    _c, flash = install(tmp_path, 3200)
    with boards.board(flash, seed=2) as em:
        em.wait_app()
        assert cli.main(["backup", "--port", em.port]) == 0
    c, flash = install(tmp_path, 5600)  # the same campaign, 2,400 events on
    with boards.board(flash, seed=2) as em:
        em.wait_app()
        capsys.readouterr()
        assert cli.main(["backup", "--port", em.port]) == 0, capsys.readouterr().err
        assert "2400 of them new" in capsys.readouterr().out
        with Device.open(em.port, timeout=10.0) as dev:
            info = dev.info(collect=True)
    kept = BackupStore(str(tmp_path / "home" / "backups.sqlite3")).load(2)
    assert kept.first == 1 and kept.last == 5600 and kept.events == c.events
    with capsys.disabled():
        print("\nbackup of 2,400 new events after 3,200: heap free after it %d" % info["heap_free"])
