"""The device finds damage in its old journal itself:
the real firmware in the desktop simulator, one flipped bit in a record a
snapshot covers. The boot does not read it and says nothing; the app's
background scrub (Store.scrub_step, one segment every few idle seconds)
finds it, shows it, and `dicetray status --json` shows it in `damage`.

Driven by the simulator's virtual clock, not the wall clock: a script's
screenshots are taken at moments of the device's own time, however slow a
loaded machine makes it (a wait of 61 s of wall time for the idle work
failed under load: the host's polls kept the tray from idling). The test
waits for each screenshot to be written, then asks the tray; the script's
last event is far enough off that the tray is still running then."""

import json
import os

import fbtext
import linkutil
from linkutil import Sim

from dicetray import cli

# Of the device's clock: the boot done; the scrub's second step (two
# SCRUB_MS, ui/app.py) checks the damaged segment; a cycle of steps later.
SHOTS = (1000, 20000, 60000)
END_MS = 24 * 3600 * 1000


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
    shots = [str(tmp_path / ("at%d.png" % t)) for t in SHOTS]
    script = tmp_path / "script.txt"
    script.write_text("".join("%d screenshot %s\n" % (t, s) for t, s in zip(SHOTS, shots))
                      + "%d quit\n" % END_MS)
    sim = Sim(flash, extra=["--script", str(script)])
    try:
        def screen(k):
            assert sim.wait_file(shots[k]), "no screenshot at %d ms of the tray's clock" % SHOTS[k]
            return fbtext.text(fbtext.from_png(shots[k]))

        assert "DAMAGE" not in screen(0)             # the boot says nothing
        shown = screen(1)
        assert "STORE DAMAGE" in shown, shown        # the scrub found it and shows it
        got = _status(capsys, sim.port).get("damage", [])
        assert len(got) == 1, got
        assert got[0].startswith("events 170..") and "of the journal are damaged" in got[0], got
        assert "record header check failed" in got[0] and segs[1] in got[0], got
        assert "dicetray backup keeps what is intact" in got[0], got
        # Found once: later steps do not add it again; nothing was moved aside.
        assert screen(2) == shown
        assert _status(capsys, sim.port)["damage"] == got
        assert sorted(n for n in os.listdir(root) if n.endswith(".log")) == segs
        assert not [n for n in os.listdir(root) if ".bad" in n]
        code = cli.main(["status", "--port", sim.port])
        out = capsys.readouterr().out
        assert code == 0 and "damage    events 170.." in out, out
    finally:
        sim.stop()
