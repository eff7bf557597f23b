"""The device finds damage in its old journal itself (issue 12, item 4 (a)):
the real firmware in the desktop simulator, one flipped bit in a record a
snapshot covers. The boot does not read it and says nothing; the app's
background scrub (Store.scrub_step, one segment every few idle seconds)
finds it, and `dicetray status --json` shows it in `damage`."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import linkutil  # noqa: E402
from linkutil import Sim  # noqa: E402

from dicetray import cli  # noqa: E402


def _status(capsys, port):
    code = cli.main(["status", "--json", "--port", port])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_the_scrub_finds_an_old_damaged_record_and_status_shows_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 600, roll=3072)   # segments of ~160 events: several
    root = os.path.join(flash, "dicetray", "c1")
    segs = sorted(n for n in os.listdir(root) if n.endswith(".log"))
    assert len(segs) >= 3, segs
    p = os.path.join(root, segs[1])
    b = bytearray(open(p, "rb").read())
    b[200] ^= 0x04                                   # inside an old record's header
    open(p, "wb").write(bytes(b))
    sim = Sim(flash)
    try:
        info = _status(capsys, sim.port)
        assert info["events"] == 600 and "damage" not in info, info   # the boot says nothing
        t0 = time.monotonic()
        got = []

        # Asked every 2 s: the tray's idle work (the scrub among it) waits
        # while a host is talking (ui/app.py, the link's quiet time), and a
        # status every half second on a loaded machine, each taking longer
        # than that, left it no idle moment (two CI runs at once failed so).
        def found():
            time.sleep(2.0)
            got[:] = _status(capsys, sim.port).get("damage", [])
            return bool(got)
        # The second segment is checked at the scrub's second step: two
        # SCRUB_MS (5 s) of the app's idle loop after the boot.
        assert linkutil.wait_for(found, 60), "no damage reported after %d s" % (time.monotonic() - t0)
        assert len(got) == 1, got
        assert got[0].startswith("events 170..") and "of the journal are damaged" in got[0], got
        assert "record header check failed" in got[0] and segs[1] in got[0], got
        assert "dicetray backup keeps what is intact" in got[0], got
        # Found once: later steps do not add it again; nothing was moved aside.
        time.sleep(6)
        assert _status(capsys, sim.port)["damage"] == got
        assert sorted(n for n in os.listdir(root) if n.endswith(".log")) == segs
        assert not [n for n in os.listdir(root) if ".bad" in n]
        code = cli.main(["status", "--port", sim.port])
        out = capsys.readouterr().out
        assert code == 0 and "damage    events 170.." in out, out
    finally:
        sim.stop()
