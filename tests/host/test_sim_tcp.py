"""The simulator on a TCP socket: `dicetray sim --tcp`
serves the port as socket://127.0.0.1:N, which every --port and mpremote
take (a simulator for systems without ptys); `--port` before the command
as well as after it."""

import json
import os
import socket
import subprocess
import sys
import time

from dicetray import cli
from dicetray.link.client import Device
from dicetray.link.transport import is_url
from dicetray.sim.tcp import BUSY, SerialTcp

from linkutil import ROOT, Sim, write_flash


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _read(port, n, wait=2.0):
    end = time.monotonic() + wait
    while time.monotonic() < end:
        d = port.read(n)
        if d:
            return d
        time.sleep(0.01)
    return b""


def test_serial_tcp_is_one_port_with_one_client_at_a_time():
    port = SerialTcp(0)
    try:
        assert port.path.startswith("socket://127.0.0.1:") and is_url(port.path)
        port.write(b"nobody")                       # no client: dropped, counted
        assert port.dropped == 6
        n = int(port.path.rsplit(":", 1)[1])
        a = socket.create_connection(("127.0.0.1", n), timeout=5)
        a.sendall(b"hello")
        assert _read(port, 64) == b"hello"
        port.write(b"back")
        assert a.recv(16) == b"back"
        b = socket.create_connection(("127.0.0.1", n), timeout=5)
        port.read(64)                               # the simulator's poll sees b
        got = b""
        while True:
            d = b.recv(256)
            if not d:
                break
            got += d
        assert got == BUSY                           # b is told, and closed
        a.sendall(b"still")
        assert _read(port, 64) == b"still"          # a keeps the port
        a.close()
        assert _read(port, 64, 0.3) == b""          # a's end closed: the port is free
        c = socket.create_connection(("127.0.0.1", n), timeout=5)
        c.sendall(b"next")
        assert _read(port, 64) == b"next"
        c.close()
        b.close()
    finally:
        port.close()


def test_a_taken_tcp_port_is_refused_in_one_line():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"))
        r = subprocess.run([sys.executable, "-m", "dicetray.sim", "--headless", "--tcp",
                            str(s.getsockname()[1])], capture_output=True, text=True, env=env,
                           timeout=60)
        assert r.returncode == 2 and "cannot listen on 127.0.0.1:" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    finally:
        s.close()


def test_every_kind_of_command_over_tcp_and_port_first(tmp_path, capsys):
    flash = str(tmp_path / "flash")
    db = str(tmp_path / "b.sqlite3")
    write_flash(flash, 300, slot=1)
    sim = Sim(flash, extra=["--tcp"])
    try:
        url = sim.port
        assert url.startswith("socket://127.0.0.1:")
        code, out, err = run(capsys, "status", "--port", url, "--json")
        assert code == 0, err
        assert json.loads(out)["events"] == 300
        code, out, err = run(capsys, "--port", url, "status", "--json")   # before the command
        assert code == 0 and json.loads(out)["events"] == 300, err
        code, out, err = run(capsys, "--port", url, "roll", "--pool", "4", "--json")
        assert code == 0 and json.loads(out)["seq"] == 301, err
        code, out, err = run(capsys, "backup", "--port", url, "--db", db)
        assert code == 0, err
        code, out, err = run(capsys, "--port", url, "verify", "--db", db)
        assert code == 0, err
        code, out, err = run(capsys, "--port=" + url, "export", "--format", "json", "--db", db)
        assert code == 0 and len(json.loads(out)["events"]) == 301, err
        code, out, err = run(capsys, "--port", url, "campaigns", "--json")
        assert code == 0 and json.loads(out)["slots"], err
        dev = Device.open(url)                      # the API takes the URL too
        try:
            assert dev.info()["events"] == 301
            code, out, err = run(capsys, "--port", url, "status")
            assert code == 1 and "device error" in err   # the port has its one client
        finally:
            dev.close()
        code, out, err = run(capsys, "--port", url, "status")
        assert code == 0, err
    finally:
        sim.stop()


def test_mpremote_reaches_the_repl_over_tcp(tmp_path):
    flash = str(tmp_path / "flash")
    write_flash(flash, 10, slot=1)
    sim = Sim(flash, extra=["--tcp"])
    try:
        r = subprocess.run([sys.executable, "-m", "mpremote", "connect", sim.port, "exec",
                            "print(6 * 7)"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and "42" in r.stdout, r.stdout + r.stderr
    finally:
        sim.stop()
