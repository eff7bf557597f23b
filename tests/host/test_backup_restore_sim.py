"""Backup and restore end to end, on real simulators over their pseudo-
terminals: a campaign played on one simulator, backed up into SQLite,
restored onto a fresh simulator, reads back bit-identical (state, undo
window and full event history) and exports byte for byte the same."""

import os

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.link.client import Device
from dicetray.rules import campaign as cp
from dicetray.rules import hunt

from linkutil import Sim


def test_backup_then_restore_onto_a_fresh_simulator(tmp_path):
    home = str(tmp_path / "home")
    a = Sim(str(tmp_path / "a"), home)
    try:
        dev = Device.open(a.port)
        for name in ("Ada", "Bo"):
            dev.act(cp.CHAR_ADD, (), name)
        for k in range(20):
            dev.act(hunt.ROLL, (k % 2, 2, 1, 0, 0, k % 3 == 0, -1))
            if k % 5 == 4:
                dev.act(hunt.SCENE_END, (0,))
        dev.act(cp.UNDO)
        store = BackupStore(os.path.join(home, "backups.sqlite3"))
        bid = store.take(dev).backup
        seq_a, snap_a = dev.snapshot()
        events_a = dev.events(0)
        dev.close()
        assert cli.main(["export", "--format", "json", "--port", a.port,
                         "-o", str(tmp_path / "a.json")]) == 0
    finally:
        a.stop()

    b = Sim(str(tmp_path / "b"), home)
    try:
        dev = Device.open(b.port)
        assert dev.info()["events"] == 0
        snap, events, seq, first = store.restore_payload(bid)
        dev.restore(snap, events, seq, first=first)
        seq_b, snap_b = dev.snapshot()
        assert (seq_b, snap_b) == (seq_a, snap_a)  # state and undo window
        assert dev.events(0) == events_a            # the whole history
        info = dev.info()
        dev.close()
        assert cli.main(["export", "--format", "json", "--port", b.port,
                         "-o", str(tmp_path / "b.json")]) == 0
    finally:
        b.stop()
    assert info["events"] == len(events_a) == seq_a
    c = cp.decode_snapshot(snap_b)
    assert cp.encode_state(c) == cp.encode_state(cp.replay(hunt.ID, events_a, c.cid))
    # The export holds the campaign alone: the same bytes from either device.
    exported = [(tmp_path / n).read_bytes() for n in ("a.json", "b.json")]
    assert exported[0] == exported[1] and b'"events"' in exported[0]
