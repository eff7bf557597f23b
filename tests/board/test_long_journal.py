"""The tray's memory at every campaign length on the rp2 port's own heap
(236 KB, its collector as on a board): a journal of JOURNAL_KEEP events
after the empty snapshot boots and is snapshotted at boot; with every
snapshot damaged it is rebuilt from the journal; an incremental backup of
2,400 events after 3,200 completes; in each the free heap right after
every collection (the emulator's heap probe: emulator/src/heap.mjs) stays
above HEAP_TARGET, printed with -s (make bench has the rows). The same on
the desktop simulator: tests/host/test_long_journal_sim.py."""

import boards
from longjournal import HEAP_TARGET, install, low_heap

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.rules import campaign as cp
from dicetray.sim import lfsimage

import linkutil  # tests/host, on pytest's pythonpath
import store  # firmware/, on pytest's pythonpath

FULL = store.JOURNAL_KEEP
BOOT_S = 600  # wall seconds a long replay may take on a loaded machine


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
        with boards.device(em.port) as dev:
            info = dev.info(collect=True)
            assert info["events"] == FULL and "damage" not in info
            assert state_of(dev) == cp.encode_state(c)
        low = low_heap(em)
    print(
        "\nboot with %d events to replay: %.0f ms emulated, heap free after it %d, lowest %d"
        % (FULL, ns / 1e6, info["heap_free"], low)
    )
    assert low >= HEAP_TARGET
    assert snaps(flash)[-1] == FULL  # snapshotted at boot
    with boards.board(flash, seed=3) as em:  # the next boot replays nothing
        em.wait_app()
        with boards.device(em.port) as dev:
            assert dev.info()["events"] == FULL and state_of(dev) == cp.encode_state(c)


def test_every_snapshot_damaged_a_full_journal_is_rebuilt(tmp_path):
    c, flash = install(tmp_path, FULL, damage=True)
    with boards.board(flash, seed=2) as em:
        ns = em.wait_app(BOOT_S)
        with boards.device(em.port) as dev:
            info = dev.info(collect=True)
            assert info["events"] == FULL and info["campaign"] == c.cid
            assert any("rebuilt from its journal as hunt" in d for d in info["damage"]), info
            assert state_of(dev) == cp.encode_state(c)
        low = low_heap(em)
    print(
        "\nrebuild of %d events: %.0f ms emulated, heap free after it %d, lowest %d"
        % (FULL, ns / 1e6, info["heap_free"], low)
    )
    assert low >= HEAP_TARGET
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
        with boards.device(em.port) as dev:
            info = dev.info(collect=True)
        low = low_heap(em)
    assert low >= HEAP_TARGET
    kept = BackupStore(str(tmp_path / "home" / "backups.sqlite3")).load(2)
    assert kept.first == 1 and kept.last == 5600 and kept.events == c.events
    with capsys.disabled():
        print(
            "\nbackup of 2,400 new events after 3,200: heap free after it %d, lowest %d"
            % (info["heap_free"], low)
        )
