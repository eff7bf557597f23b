"""Line noise and the REPL, a Ctrl-C on either
side, a port another program holds, a --port that is no tray, --timeout,
and the simulator's ids.

The simulator tests run the real firmware (tests/host/linkutil.py Sim);
the others use pseudo-terminals, or the real firmware in this process
(tests/host/ramtray.py). No test asserts a time."""

import fcntl
import os
import random
import signal
import subprocess
import sys
import termios
import threading

import pytest

import linkutil
from ramtray import RamTray, play, serve
from linkutil import Sim

from dicetray import backup as bk
from dicetray import cli
from dicetray.cli import backups
from dicetray.link import transport
from dicetray.link.client import AtRepl, Device, DeviceError
from dicetray.link.transport import Transport, TransportError
from dicetray.rules import campaign as cp


def run(capsys, *argv, open_device=None):
    try:
        code = cli.main(list(argv), open_device=open_device)
    except KeyboardInterrupt:   # (pytest would take it as its own Ctrl-C and stop)
        pytest.fail("a KeyboardInterrupt escaped `dicetray %s`" % " ".join(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# --- 5. line noise: the simulator outlives any bytes, the host recovers ---------

NOISE = [
    b"\x03\xff\r",                        # Ctrl-C, a byte that is not UTF-8, Enter
    b"\x03\xc3(\xfe\xff\r\n",               # invalid UTF-8 sequences at the friendly REPL
    b"\x03\x01\xff\xfe\x04\x02",            # ... and as a raw REPL command
    b"\x03raise SystemExit\r",            # the code's sys.exit(): a soft reboot, not the end
    b"\x03\x01import sys; sys.exit()\x04\x02",
    b"\x03x = 1\r\x03\x03\x03",             # Ctrl-C around a command
    b"\x03\x05A\x01\x02",                   # raw-paste asked for and declined
]


def test_the_simulator_survives_line_noise_at_its_repl(tmp_path):
    """Today a Ctrl-C then a non-UTF-8 byte and Enter killed the simulator
    ("traceback above", none shown)."""
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 10)
    sim = Sim(flash)
    try:
        rnd = random.Random(12)
        noise = NOISE + [bytes(rnd.randrange(256) for _ in range(300)) for _ in range(4)]
        for chunk in noise:
            t = Transport(sim.port)
            t.write(chunk)
            t.drain(0.2, 3)
            t.close()
            assert sim.p.poll() is None, "the simulator died on %r" % chunk
        dev = Device.open(sim.port)          # recovers as `status` does: restarts the app
        assert dev.info()["events"] == 10
        dev.close()
    finally:
        out, err = sim.stop()
    assert "crashed" not in err and "VM failed" not in err, err


def test_a_ctrl_c_on_the_line_mid_session_is_recovered(tmp_path):
    """A Ctrl-C byte stops the app (as mpremote does on purpose): reads,
    actions and a subscription restart it and go on, nothing missed and
    nothing applied twice. Today each raised AtRepl."""
    flash = str(tmp_path / "flash")
    c = linkutil.write_flash(flash, 300)
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        dev.t.write(b"\x03")
        assert dev.events(0) == c.events                # a read: restarted and read again
        dev.t.write(b"\x03")
        seq, snap = dev.snapshot()
        assert seq == 300 and cp.encode_state(cp.decode_snapshot(snap, None, False)) \
            == cp.encode_state(c)
        it = dev.subscribe(since=299, timeout=10)
        assert next(it)[0] == 300
        dev.t.write(b"\x03")
        out = dev.act(cp.DICE, (6, 3))                  # restarted, then acted once
        assert out["seq"] == 301
        assert next(it)[0] == 301                       # subscribed again after the restart
        dev.t.write(b"\x03")
        dev.act(cp.DICE, (6, 1))
        assert next(it)[0] == 302
        it.close()
        assert dev.info()["events"] == 302 and dev.recovered == 4
        dev.close()
        # A backup, the command, with the app stopped after the handshake.
        db = str(tmp_path / "b.sqlite3")
        opened = []

        def noisy(port, timeout, **kw):
            d = Device.open(port, timeout, **kw)
            d.t.write(b"\x03")
            opened.append(d)
            return d
        assert cli.main(["backup", "--port", sim.port, "--db", db, "--json"],
                        open_device=noisy) == 0
        assert opened[0].recovered == 1
        assert bk.BackupStore(db, create=False).list()[0]["last"] == 302
    finally:
        sim.stop()


def test_a_stopped_app_is_one_line_when_it_cannot_recover(monkeypatch, capsys):
    """AtRepl (a kind of DeviceError) ended in a 25-line traceback: the
    commands matched DeviceError by its exact class name."""
    def at_repl(port, timeout, **kw):
        raise AtRepl("the tray on /dev/x is at the MicroPython REPL, not running the app: ...")
    for cmd in (["watch"], ["backup"], ["status"], ["turn"]):
        code, out, err = run(capsys, *cmd, open_device=at_repl)
        assert code == 1 and err.count("\n") == 1 and "device error: the tray on /dev/x" in err


def test_a_ctrl_c_on_the_host_ends_in_one_line(tmp_path, monkeypatch, capsys):
    """SIGINT (KeyboardInterrupt) in a command: one line, exit 130, and a
    backup stores nothing partial; `watch` stops quietly, exit 130 too
    (Ctrl-C is how it stops). Today: a traceback."""
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    trays = serve({"dev": play(RamTray(system=0, cid=4242), 40)})
    dev, opener = trays["dev"], trays.open_device
    db = str(tmp_path / "b.sqlite3")
    assert run(capsys, "backup", "--db", db, open_device=opener)[0] == 0
    play(dev, 10, seed=3)
    real = backups.backup_store

    def store(args, **kw):
        st = real(args, **kw)

        def fault(stage):
            if stage == "events":
                raise KeyboardInterrupt
        st.fault = fault
        return st
    monkeypatch.setattr(backups, "backup_store", store)   # the backup command's database
    code, out, err = run(capsys, "backup", "--db", db, open_device=opener)
    assert code == 130 and err.count("\n") == 1 and "interrupted (Ctrl-C)" in err \
        and "nothing was stored" in err
    monkeypatch.setattr(backups, "backup_store", real)
    assert [b["last"] for b in bk.BackupStore(db, create=False).list()] == [40]
    assert run(capsys, "backup", "--db", db, open_device=opener)[0] == 0   # the next takes it all

    def interrupted(port, timeout, **kw):
        raise KeyboardInterrupt
    assert run(capsys, "watch", open_device=interrupted) == (130, "", "")
    code, out, err = run(capsys, "turn", open_device=interrupted)
    assert code == 130 and err.count("\n") == 1 and "may have been applied" in err
    code, out, err = run(capsys, "status", open_device=interrupted)
    assert code == 130 and err.count("\n") == 1 and "nothing was changed" in err
    # before any command runs (loading the parser): the tool's own line
    def parser_interrupted():
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "build_parser", parser_interrupted)
    try:
        assert cli.main(["status"]) == 130
    except KeyboardInterrupt:
        pytest.fail("a KeyboardInterrupt escaped cli.main")
    assert capsys.readouterr().err == "dicetray: interrupted (Ctrl-C): nothing was done\n"


# --- 6. one port, many clients -----------------------------------------------------

HOLD = ("import fcntl, os, sys, time\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n")


@pytest.fixture
def pty_pair():
    m, s = os.openpty()
    yield m, s, os.ttyname(s)
    for fd in (m, s):
        try:
            os.close(fd)
        except OSError:
            pass


def test_a_busy_port_names_who_holds_it(pty_pair, tmp_path, monkeypatch, capsys):
    """Today: pyserial's "Could not exclusively lock port" at once."""
    _m, _s, path = pty_pair
    script = tmp_path / "hold.py"
    script.write_text(HOLD)
    holder = subprocess.Popen([sys.executable, str(script), path, "table-screen"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == b"held\n"
        monkeypatch.setattr(transport, "LOCK_WAIT", 0.3, raising=False)
        with pytest.raises(TransportError) as e:     # PortBusy
            Transport(path)
        msg = str(e.value)
        assert "in use by pid %d (%s hold.py %s table-screen)" % (
            holder.pid, os.path.basename(sys.executable), path) in msg
        assert "stop that one" in msg and "kill %d" % holder.pid in msg
        # the table's everyday case, a second screen, has its answer: the hub
        assert "for a second screen at the table, start `dicetray serve` instead" in msg
        assert type(e.value).__name__ == "PortBusy" and e.value.holders[0][0] == holder.pid
        code, out, err = run(capsys, "roll", "--pool", "2", "--port", path)
        assert code == 1 and err.count("\n") == 1 and "in use by pid %d" % holder.pid in err
    finally:
        holder.kill()
        holder.wait()


def test_a_busy_port_is_tried_again_briefly(pty_pair, monkeypatch):
    _m, _s, path = pty_pair
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    monkeypatch.setattr(transport, "LOCK_WAIT", 60.0, raising=False)   # generous: the release comes first
    threading.Timer(0.3, os.close, (fd,)).start()
    t = Transport(path)                                # waited for it instead of failing
    t.close()


# watch started with SIGINT at its default, and ignored, as a script's
# background job starts (`make test &`): Ctrl-C ends it either way.
@pytest.mark.parametrize("sigint", [signal.SIG_DFL, signal.SIG_IGN], ids=["default", "ignored"])
def test_watch_holds_the_simulator_and_roll_says_so(tmp_path, monkeypatch, capsys, sigint):
    """The case that failed: `dicetray watch` on the table's second screen."""
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 5)
    sim = Sim(flash)
    w = None
    try:
        env = dict(os.environ, PYTHONPATH=os.path.join(linkutil.ROOT, "host"))
        w = subprocess.Popen([sys.executable, "-m", "dicetray", "watch", "--port", sim.port],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))
        assert w.stdout.readline().startswith(b"watching campaign")
        monkeypatch.setattr(transport, "LOCK_WAIT", 0.2, raising=False)
        code, out, err = run(capsys, "turn", "--port", sim.port)
        assert code == 1 and err.count("\n") == 1
        assert "in use by pid %d (" % w.pid in err and "dicetray watch --port %s" % sim.port in err
        assert "start `dicetray serve` instead" in err
        w.send_signal(signal.SIGINT)                   # Ctrl-C: watch stops, in no lines
        try:
            _out, werr = w.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("`dicetray watch` ran on after a Ctrl-C")
        assert w.returncode == 130 and werr == b""
        code, out, err = run(capsys, "turn", "--port", sim.port)
        assert code == 0, err
    finally:
        if w is not None and w.poll() is None:
            w.kill()
        sim.stop()


# --- 9. a --port that is no tray; --timeout --------------------------------------

def test_a_shells_terminal_is_refused_untouched(pty_pair):
    """Today the handshake was written into the shell's terminal and the
    terminal left raw."""
    m, s, path = pty_pair
    sh = subprocess.Popen(["sh", "-i"], stdin=s, stdout=s, stderr=s, start_new_session=True,
                          preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    try:
        os.set_blocking(m, False)
        assert linkutil.wait_for(lambda: _read(m))   # its prompt
        before = termios.tcgetattr(s)
        with pytest.raises(DeviceError) as e:
            Device.open(path, timeout=0.3)
        assert ("%s is the terminal of pid %d (sh -i), not a Dicetray: nothing was sent" % (
            path, sh.pid)) in str(e.value)
        assert _read(m) == b""                          # nothing written into it...
        assert termios.tcgetattr(s) == before           # ... and its settings as they were
    finally:
        sh.kill()
        sh.wait()


def _read(fd):
    try:
        return os.read(fd, 4096)
    except (BlockingIOError, OSError):
        return b""


def test_the_terminal_settings_are_restored_on_close(pty_pair):
    """A tty with no tray on it (nobody answers): the handshake fails, and
    the port's termios are put back as they were (today: left raw)."""
    m, s, path = pty_pair
    before = termios.tcgetattr(s)
    assert before[3] & termios.ICANON                   # a fresh pty is cooked
    with pytest.raises(DeviceError, match="no answer"):
        Device.open(path, timeout=0.2)
    assert termios.tcgetattr(s) == before
    t = Transport(path)                                 # and after a session that worked
    assert not termios.tcgetattr(s)[3] & termios.ICANON
    t.close()
    assert termios.tcgetattr(s) == before


@pytest.mark.parametrize("value", ["0", "-1", "-0.5", "nan", "inf"])
def test_a_timeout_of_zero_or_less_is_refused(value, monkeypatch, capsys):
    trays = serve({"dev": RamTray()})
    tray = trays["dev"]
    code, out, err = run(capsys, "status", "--timeout", value, open_device=trays.open_device)
    assert code == 2 and err == ("dicetray status: error: --timeout takes the seconds to wait for "
                                 "each answer, a number above 0 (default 2), not %s\n" % value)
    assert not tray.devices                             # refused before the port was opened
    assert run(capsys, "status", "--timeout", "0.5", open_device=trays.open_device)[0] == 0
    assert [d.timeout for d in tray.devices] == [0.5]
    with pytest.raises(DeviceError, match="timeout of 0 seconds cannot work"):
        Device.open("/dev/null", timeout=0)


# --- 9. every new simulator flash gets its own ids ---------------------------------

def _ids(flash):
    sim = Sim(flash)
    try:
        dev = Device.open(sim.port)
        i = dev.info()
        dev.close()
        return i["device"], i["campaign"]
    finally:
        sim.stop()


def test_each_new_simulator_flash_gets_its_own_ids(tmp_path):
    """Headless (virtual time, the dice seeded 1) every simulator was
    sim-01c67ea6 with campaign 29785766."""
    a = _ids(str(tmp_path / "a"))
    b = _ids(str(tmp_path / "b"))
    assert a[0] != b[0] and a[1] != b[1]
    assert _ids(str(tmp_path / "a")) == a               # a flash keeps its own


@pytest.mark.parametrize("damage", [b"\xff\xfe\x80garbage", b"", b"   \n", b"x" * 300, b"sim-\x00\x01"])
def test_a_damaged_device_id_file_is_replaced_not_fatal(tmp_path, monkeypatch, capsys, damage):
    """A damaged /dicetray/id.txt made every command
    fail with an empty "device error:". The device makes a new id; the
    campaign is untouched."""
    flash = str(tmp_path / "flash")
    c = linkutil.write_flash(flash, 20)
    with open(os.path.join(flash, "dicetray", "id.txt"), "wb") as f:
        f.write(damage)
    sim = Sim(flash)
    try:
        monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
        assert cli.main(["status", "--json", "--port", sim.port]) == 0
        import json
        info = json.loads(capsys.readouterr().out)
        assert info["device"].startswith("sim-") and len(info["device"]) == 12
        assert info["events"] == 20 and info["campaign"] == c.cid
    finally:
        sim.stop()
    with open(os.path.join(flash, "dicetray", "id.txt"), "rb") as f:
        assert f.read().decode() == info["device"]        # written back, whole
