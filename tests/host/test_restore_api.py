"""The restore as a script uses it: dicetray.ops.restore's
plan (reads, changes nothing, says what it would do) and apply (sends,
then reads it all back), on a real simulator."""

import os

import pytest

from dicetray.ops import restore
from dicetray.backup import BackupStore
from dicetray.link.client import Device
from dicetray.rules import campaign as cp
from dicetray.rules import hunt

from linkutil import Sim


def test_plan_then_apply_from_a_script(tmp_path):
    sim = Sim(str(tmp_path / "f"), str(tmp_path / "home"))
    try:
        with Device.open(sim.port) as dev:
            dev.act(cp.CHAR_ADD, (), "Ada")
            for k in range(6):
                dev.act(hunt.ROLL, (0, 2, 1, 0, 0, 0, -1))
            st = BackupStore(os.path.join(str(tmp_path), "b.sqlite3"))
            bid = st.take(dev).backup
            kept = dev.events(0)
            dev.act(hunt.SCENE_END, (1,))            # played on after the backup
            before = dev.info()["events"]
            seen = []

            def progress(label, total=None):
                seen.append(label)
                return restore._quiet(label, total)

            p = restore.plan(st, bid, dev, progress=progress)
            assert dev.info()["events"] == before == 8           # planning changed nothing
            assert p.last == 7 and p.first == 1
            assert any("event 8: the scene ends, a fight next" in ln for ln in p.lines), p.lines
            done = restore.apply(p, dev, progress)
            assert dev.info()["events"] == 7 and dev.events(0) == kept
            assert done.held == 1 and done.line.startswith("restored backup %d" % bid)
            assert "verified one by one" in done.line
            assert seen == ["reading the device's events", "sending backup %d" % bid,
                            "reading back events"]
            b = st.load(bid)
            b.schema += 1                            # as a backup of a later firmware
            st.load = lambda bid, **kw: b
            with pytest.raises(restore.RestoreError,
                               match="upgrade the firmware, or add --force-schema"):
                restore.plan(st, bid, dev)
            assert dev.info()["events"] == 7          # refused: nothing changed
            st.close()
    finally:
        sim.stop()
