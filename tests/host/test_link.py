"""The serial link end to end: the real firmware on the simulator, over a
real pseudo-terminal, driven by the host client (dicetray.link)."""

import contextlib
import io
import json
import os
import subprocess
import sys
import time

import pytest

import linkutil
from linkutil import Sim, upto

from dicetray import cli
from dicetray.link import frame as fr
from dicetray.link import ports
from dicetray.link.client import AtRepl, Device, DeviceError
from dicetray.link.transport import Transport, TransportError
from dicetray.rules import campaign as cp
from dicetray.rules import codec

N = 5000


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A simulator holding a 5,000-event campaign, and that campaign."""
    flash = str(tmp_path_factory.mktemp("big") / "flash")
    c = linkutil.write_flash(flash, N)
    sim = Sim(flash)
    dev = Device.open(sim.port, timeout=3)
    yield sim, dev, c
    dev.close()
    sim.stop()


def test_handshake_info(big):
    sim, dev, c = big
    i = dev.hello()
    assert i["protocol"] == fr.PROTOCOL and i["schema"] == codec.VERSION
    assert i["system"] == "hunt" and i["campaign"] == c.cid
    assert i["events"] == N and i["first"] == 1 and i["firmware"]
    assert i["keep"] == 6000   # store.JOURNAL_KEEP: what restore plans with (docs/backup.md)
    assert i["device"] and dev.info()["device"] == i["device"]


def test_version_mismatch_names_the_side_to_upgrade(big):
    sim, dev, c = big
    for proto, side in ((fr.PROTOCOL + 1, "upgrade the firmware"), (fr.PROTOCOL - 1, "upgrade the host")):
        with pytest.raises(DeviceError) as e:
            dev._request(fr.HELLO, json.dumps({"protocol": proto}).encode())
        assert "protocol mismatch" in str(e.value) and side in str(e.value)
    with pytest.raises(DeviceError, match="unknown request type 99"):
        dev._request(99)
    assert dev.hello()["events"] >= N


def test_events_paged_and_snapshot(big):
    sim, dev, c = big
    seen = []
    evs = dev.events(0, progress=lambda done, total: seen.append((done, total)))
    assert evs == c.events[:len(evs)] and len(evs) >= N
    assert len(seen) >= 5 and seen[-1][0] == seen[-1][1]   # at each journal segment, progress to the end
    assert dev.events(N - 10)[:10] == c.events[N - 10:N]
    assert dev.events(dev.info()["events"]) == []
    with pytest.raises(DeviceError, match="beyond the device's last event"):
        dev.events(10 ** 6)
    seq, snap = dev.snapshot()
    if seq == N:
        assert snap == cp.encode_snapshot(c)
    d = cp.decode_snapshot(snap)
    assert d.cid == c.cid and d.nevents == seq


def test_action_on_flash_before_answer_and_subscribe(tmp_path):
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 40)
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        it = dev.subscribe(since=39, timeout=5)
        assert next(it)[0] == 40                        # catching up first
        out = dev.act(cp.DICE, (6, 4))
        assert out["seq"] == 41 and len(out["faces"]) == 4 and out["successes"] == sum(out["faces"])
        out2 = dev.act(cp.CHAR_ADD, (), "Cy")
        assert out2["notes"] == ["Cy joins"]
        got = [next(it), next(it)]
        assert [s for s, _ in got] == [41, 42]
        assert codec.decode_event(got[0][1])[2] == bytes(out["faces"])
        with pytest.raises(DeviceError, match="no talisman number 99"):
            dev.act(cp.SLASH, (99, 1, 0))
        it.close()
        dev.set_clock(1_700_000_000)
        assert abs(dev.info()["clock"] - 1_700_000_000) < 5
        # Pull the plug right after the answer: the event is on flash.
        out3 = dev.act(cp.DICE, (6, 2))
        sim.kill()
        dev.close()
        sim = Sim(flash)
        dev = Device.open(sim.port)
        i = dev.info()
        assert i["events"] == 43 == out3["seq"]
        assert codec.decode_event(dev.events(42)[0])[2] == bytes(out3["faces"])
        dev.close()
    finally:
        sim.stop()


def test_retried_request_applied_once(big):
    sim, dev, c = big
    before = dev.info()
    dev.seq += 1
    line = fr.encode(fr.ACT, dev.seq, json.dumps({"kind": cp.DICE, "args": [6, 3]}).encode())
    answers = []
    for _ in range(3):          # the answer "lost" twice: the host sends it again
        dev.t.write(line)
        deadline = time.monotonic() + linkutil.HANG
        f = dev._frame(deadline)
        while f is not None and f[1] != dev.seq:
            f = dev._frame(deadline)
        assert f is not None and f[0] == fr.ACT | fr.ANSWER
        answers.append(f[2])
    assert answers[0] == answers[1] == answers[2]
    after = dev.info()
    assert after["events"] == before["events"] + 1
    assert after["retried"] == before["retried"] + 2


def test_restore_swaps_atomically_and_refuses_bad_input(tmp_path):
    flash = str(tmp_path / "flash")
    old = linkutil.write_flash(flash, 100)
    new = linkutil.make_events(700, seed=99, cid=777)
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        snap = cp.encode_snapshot(new)
        bad = list(new.events)
        bad[300] = codec.encode_event(cp.SLASH, (31, 1, 0))
        with pytest.raises(DeviceError, match="restore event 301 refused"):
            dev.restore(snap, bad, len(bad))
        with pytest.raises(DeviceError, match="do not fold to the snapshot"):
            dev.restore(cp.encode_snapshot(old), new.events[:100], 100)
        with pytest.raises(DeviceError, match="CRC|snapshot"):
            dev.restore(b"DS" + bytes(10), new.events, len(new.events))
        assert dev.info()["campaign"] == old.cid and dev.events(0) == old.events
        steps = []
        i = dev.restore(snap, new.events, len(new.events), progress=lambda d, t: steps.append(d))
        assert steps[-1] == 700
        assert (i["campaign"], i["events"], i["first"]) == (777, 700, 1)
        assert dev.events(0) == new.events and dev.snapshot() == (700, snap)
        # A restore from a snapshot at seq 650 and the events after it.
        mid = linkutil.make_events(650, seed=99, cid=777)
        i = dev.restore(cp.encode_snapshot(mid), new.events[650:], 650, first=651)
        assert (i["events"], i["first"]) == (700, 651)
        assert dev.snapshot() == (700, snap)
        with pytest.raises(DeviceError, match="no longer on the device"):
            dev.events(0)
        dev.close()
        sim.stop()
        sim = Sim(flash)          # what a reboot finds: the new campaign
        dev = Device.open(sim.port)
        assert dev.snapshot() == (700, snap) and dev.events(650) == new.events[650:]
        dev.close()
    finally:
        sim.stop()


def test_repl_beside_the_app(tmp_path):
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 10)
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        dev.end_session()                    # the app stops, the REPL takes the port
        # Each reply is read up to the prompt it ends with (linkutil.upto),
        # not until a quiet spell: a loaded machine makes the simulator
        # pause longer than any spell (a CI run saw an empty reply).
        assert upto(dev.t, b">>> ").endswith(b">>> ")
        dev.t.write(b"6*7\r")
        assert b"42\r\n>>> " in upto(dev.t, b"42\r\n>>> ")
        # The raw REPL, as mpremote drives it.
        dev.t.write(b"\r\x01")
        assert upto(dev.t, b"CTRL-B to exit\r\n>").endswith(b"raw REPL; CTRL-B to exit\r\n>")
        dev.t.write(b"print('hi', 1+1)\x04")
        assert upto(dev.t, b"\x04\x04>") == b"OKhi 2\r\n\x04\x04>"
        dev.t.write(b"\x02")
        upto(dev.t, b">>> ")
        dev.close()
        with pytest.raises(AtRepl, match="REPL"):
            Device.open(sim.port, restart=False)
        dev = Device.open(sim.port)          # soft-reboots into the app
        assert dev.info()["events"] == 10
        dev.t.write(b"\x03")                 # Ctrl-C stops the app, as on a board
        assert b">>> " in upto(dev.t, b">>> ")
        assert dev.hello()["events"] == 10   # noticed the REPL, restarted the app
        dev.close()
    finally:
        sim.stop()


def test_mpremote_on_a_running_device(tmp_path):
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 5)
    sim = Sim(flash)
    try:
        r = subprocess.run([sys.executable, "-m", "mpremote", "connect", sim.port, "exec",
                            "print('from', 'mpremote')"], capture_output=True, timeout=60)
        assert b"from mpremote" in r.stdout, (r.stdout, r.stderr)
        dev = Device.open(sim.port)          # back to the app afterwards
        assert dev.info()["events"] == 5
        dev.close()
    finally:
        sim.stop()


def test_ports_and_transport(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path))
    assert ports.simulators() == []
    f = ports.register_sim("/dev/null")
    assert [p.device for p in ports.simulators()] == ["/dev/null"]
    with open(os.path.join(ports.sims_dir(), "999999999.port"), "w") as out:
        out.write("/dev/null\n")             # a simulator that is gone
    assert len(ports.simulators()) == 1 and not os.path.exists(
        os.path.join(ports.sims_dir(), "999999999.port"))
    os.remove(f)
    monkeypatch.setattr(ports, "usb", lambda: [])
    with pytest.raises(DeviceError, match="no Dicetray found"):
        Device.open()
    with pytest.raises(TransportError, match="1200 baud"):
        Transport("/dev/null", 1200)
    with pytest.raises(DeviceError, match="cannot open"):
        Device.open(str(tmp_path / "nope"))


def test_cli_simulator_announces_its_port(tmp_path):
    flash = str(tmp_path / "flash")
    home = str(tmp_path / "home")
    sim = Sim(flash, home=home)
    try:
        env_home = os.environ.get("DICETRAY_HOME")
        os.environ["DICETRAY_HOME"] = home
        try:
            assert linkutil.wait_for(lambda: [p.device for p in ports.simulators()] == [sim.port])
            # what it is and where its flash is, in ports and status
            p = ports.simulators()[0]
            said = "desktop simulator (pid %d), flash folder %s" % (sim.p.pid, os.path.abspath(flash))
            assert (p.what, p.flash, p.description) == ("desktop", os.path.abspath(flash), said)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                assert cli.main(["status", "--port", sim.port]) == 0
            assert out.getvalue().splitlines()[0].endswith(": a " + said), out.getvalue()
        finally:
            if env_home is None:
                del os.environ["DICETRAY_HOME"]
            else:
                os.environ["DICETRAY_HOME"] = env_home
    finally:
        sim.stop()
    assert os.listdir(os.path.join(home, "sims")) == []


def test_an_act_on_a_journal_that_moved_is_refused_then_redone_once(tmp_path):
    """ACT names the last event the host saw: the device refuses it when
    another came in since (here: the host's view made stale by hand, as
    a key press at the table would) and the client acts again on the new
    head, once; a retried request that finds its own event applied gets
    AnswerLost instead (tests/board/test_powercut.py does that across a reset)."""
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 20)
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        head = dev.info()["events"]
        line = fr.encode(fr.ACT, 7, json.dumps({"kind": cp.DICE, "args": [6, 1], "after": head - 1}).encode())
        dev.t.write(line)
        f = dev._frame(time.monotonic() + linkutil.HANG)
        while f is not None and f[1] != 7:
            f = dev._frame(time.monotonic() + linkutil.HANG)
        assert f[0] == fr.ERR and bytes(f[2]).decode() == \
            "stale: the device is at event %d, not %d" % (head, head - 1)
        assert dev.info()["events"] == head            # refused: nothing applied
        dev.head = head - 1                             # the client's view, stale
        out = dev.act(cp.DICE, (6, 2))
        assert out["seq"] == head + 1 == dev.info()["events"] and dev.head == head + 1
        dev.close()
    finally:
        sim.stop()
