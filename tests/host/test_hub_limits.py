"""The hub's bounds before anything is checked:
its page's HTTP and its local command socket against half-open and
trickling connections, long lines, nested JSON, tokens that are not ASCII,
a rebound DNS name, and an action line that argparse would read loosely."""

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from dicetray.hub import server
from dicetray.link import wire
from dicetray.hub.server import Hub
from dicetray.hub.view import View
from dicetray.cli.pageline import parse_action
from dicetray.hub.web import Web

from linkutil import ROOT, wait_for


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = str(tmp_path / "home")
    os.makedirs(h)
    monkeypatch.setenv("DICETRAY_HOME", h)
    return h


REACHED = []


def unreachable(tray):
    """The page's way to a tray, which no refused action may take."""
    REACHED.append(tray)
    raise RuntimeError("no tray here")


@pytest.fixture
def page(home):
    """The page of a hub that holds one tray that is never there, bounded
    small: 8 connections, 0.5 s a request; its log lines."""
    lines = []
    hub = Hub(["t=" + os.path.join(home, "nowhere")])
    web = Web(View(hub), "127.0.0.1", 0, keeper="k33p", conns=8, request_s=0.5,
              log=lines.append, connect=unreachable, parse_action=parse_action)
    yield web, lines
    web.close()
    hub.close()


def port_of(web):
    return web.server.server_address[1]


def answer(s, timeout=10):
    """Everything `s` receives until the other end closes it (or `timeout` s)."""
    s.settimeout(timeout)
    out = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                return out
            out += b
    except (ConnectionResetError, TimeoutError):
        return out


def trickle(socks, data, stop):
    """Send `data` on each socket a byte at a time, 0.1 s apart (slowloris)."""
    for b in data:
        for s in socks:
            try:
                s.sendall(bytes([b]))
            except OSError:
                pass
        if stop.wait(0.1):
            return


def one_line_each(lines):
    return all("\n" not in ln and "Traceback" not in ln for ln in lines)


def flood(server, port, trickled):
    """8 connections that trickle `trickled` a byte every 0.1 s take every
    slot of `server` (its cap: 8); 100 more, half open, are answered at
    once by the accepting thread (no thread each). Returns their answers
    and then the 8's, which end at their whole deadline."""
    base = threading.active_count()
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(8)]
    stop = threading.Event()
    t = threading.Thread(target=trickle, args=(held, trickled, stop))
    t.start()
    try:
        assert wait_for(lambda: server.active == 8, 10)
        more = [socket.create_connection(("127.0.0.1", port)) for _ in range(100)]
        for s in more:
            s.sendall(trickled[:16])                     # half a request, and never the rest
        assert threading.active_count() <= base + 8 + 2   # a thread a served connection, no more
        refused = [answer(s) for s in more]
        for s in more:
            s.close()
        late = [answer(s) for s in held]
        assert wait_for(lambda: server.active == 0, 10)
        return refused, late
    finally:
        stop.set()
        t.join()
        for s in held:
            s.close()


def test_half_open_page_connections_are_capped_and_timed_out(page, capfd):
    web, lines = page
    web.request_s = 2.0     # the slots stay taken while the flood is refused
    refused, late = flood(web.server, port_of(web), b"GET /state HTTP/1.1\r\n" * 20)
    for got in refused:
        assert got.startswith(b"HTTP/1.0 503 ") and b"8 connections are open" in got, got
    assert not [got for got in late if b"200 OK" in got]
    with urllib_get(web.url() + "state") as r:           # and the page serves again
        assert r.status == 200
    assert any("refused a connection: 8 are open" in ln for ln in lines), lines
    assert any("timed out" in ln for ln in lines), lines
    assert one_line_each(lines) and len(lines) <= 4, lines  # a flood is a line, not 100
    assert "Traceback" not in capfd.readouterr().err


def urllib_get(url, headers=None):
    import urllib.request
    return urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10)


def request(web, method, path, body=None, headers=None):
    """(status, body) of one request, with the headers given (Host among them)."""
    c = http.client.HTTPConnection("127.0.0.1", port_of(web), timeout=10)
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def test_a_request_for_another_host_is_refused_without_a_token(page):
    """DNS rebinding: a web page at evil.example, its name rebound to
    127.0.0.1, reaches the page with `Host: evil.example:PORT`."""
    web, lines = page
    port = port_of(web)
    for host in ("evil.example:%d" % port, "evil.example", "127.0.0.1:1", ""):
        code, body = request(web, "GET", "/state", headers={"Host": host})
        assert code == 403 and b"answers to 127.0.0.1:%d" % port in body, (host, body)
        code, body = request(web, "POST", "/act", b'{"tray": "t", "action": "undo"}',
                             {"Host": host, "X-Dicetray-Keeper": "k33p"})
        assert code == 403, (host, body)
    for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "LOCALHOST:%d" % port,
                 "[::1]:%d" % port):
        code, body = request(web, "GET", "/state", headers={"Host": host})
        assert code == 200 and json.loads(body)["trays"] == [], host
    assert any("refused a request for host" in ln for ln in lines)


def test_tokens_that_are_not_ascii_and_nested_json_get_4xx_and_one_line(home, capfd):
    lines = []
    hub = Hub(["t=" + os.path.join(home, "nowhere")])
    web = Web(View(hub), "127.0.0.1", 0, token="s3cret", keeper="k33p", log=lines.append,
              connect=unreachable, parse_action=parse_action)
    try:
        code, body = request(web, "GET", "/state?token=%C3%A9t%C3%A9")
        assert code == 403 and b"needs its token" in body
        code, body = request(web, "GET", "/state?token=%ED%A0%80")    # not even UTF-8
        assert code == 403
        act = "/act?token=s3cret"
        code, body = request(web, "POST", act, b'{"tray": "t", "action": "undo"}',
                             {"X-Dicetray-Keeper": "k\xe9\xe9p".encode("latin-1")})
        assert code == 403 and b"keeper" in body
        for deep in (b"[" * 4000, b'{"a":' * 600 + b"1" + b"}" * 600, b"[" * 5 + b"]" * 5):
            code, body = request(web, "POST", act, deep, {"X-Dicetray-Keeper": "k33p"})
            assert code == 400, body
            assert b"nested deeper than" in body and b"\n" not in body.strip(), body
        code, body = request(web, "POST", act, b"x" * 5000, {"X-Dicetray-Keeper": "k33p"})
        assert code == 400 and b"at most 4096 bytes" in body
    finally:
        web.close()
        hub.close()
    assert one_line_each(lines)
    assert "Traceback" not in capfd.readouterr().err


def test_an_action_line_never_reaches_argparse_loosely(page, capfd):
    """`--help` would print the usage on the hub's stdout
    and end the request; an abbreviation (`--po 3`, `--poo 3`) would be
    taken as an option the keeper never typed."""
    web, lines = page
    port = port_of(web)
    del REACHED[:]

    def act(line):
        code, body = request(web, "POST", "/act", json.dumps({"tray": "t", "action": line}),
                             {"Host": "127.0.0.1:%d" % port, "X-Dicetray-Keeper": "k33p"})
        return code, json.loads(body)["error"]

    for line in ("roll --help", "roll -h", "roll --pool 3 -h3", "roll --pool=3 --tray=t",
                 "--help", "--version"):
        code, why = act(line)
        assert code == 400 and ("terminal's" in why or "is not an action" in why), (line, why)
    for line in ("roll --po 3", "roll --poo 3", "roll --pool 3 --hel", "roll --pool 3 --he",
                 "slash 0 1 --ver", "roll --pool 3 --tr t"):
        code, why = act(line)
        assert code == 400 and "spelled out in full" in why, (line, why)
    code, why = act("roll --poo 3")
    assert "did you mean --pool?" in why and "roll takes --char" in why
    out = capfd.readouterr()
    assert "usage:" not in out.out and "usage:" not in out.err
    assert REACHED == []
    code, why = act("roll --pool 2")           # a whole line goes on to the tray
    assert code == 503 and "cannot reach the tray" in why and REACHED == ["t"]


@pytest.fixture
def hub(home):
    lines = []
    h = Hub(["t=" + os.path.join(home, "nowhere")], clients=8, first_s=0.5, log=lines.append)
    reg = h.start()
    yield h, reg, lines
    h.close()


def ask(reg, msg):
    """The hub's answer to one line on a new connection."""
    s = socket.create_connection(("127.0.0.1", reg["port"]), timeout=10)
    try:
        s.sendall(msg if isinstance(msg, bytes) else wire.line(msg))
        f = s.makefile("rb")
        return wire.read(f)
    finally:
        s.close()


def test_half_open_socket_connections_are_capped_and_timed_out(hub, capfd):
    h, reg, lines = hub
    h.first_s = 2.0         # the slots stay taken while the flood is refused
    refused, late = flood(h.server, reg["port"], b'{"token": "' + b"0" * 100)
    for got in refused:
        assert b"the hub is busy: 8 connections are open" in got, got
    for got in late:
        assert b"no whole request within 2 s" in got, got
    assert ask(reg, {"token": reg["token"], "call": "trays"})["ok"][0]["tray"] == "t"
    assert one_line_each(lines) and len(lines) <= 4, lines
    assert "Traceback" not in capfd.readouterr().err


def test_the_socket_refuses_bad_tokens_and_nested_json_in_one_line(hub, capfd):
    h, reg, lines = hub
    for token in ("\u00e9t\u00e9", "\ud800", 7, None, ["x"]):
        ans = ask(reg, {"token": token, "call": "trays"})
        assert "wrong token" in ans["err"]["msg"], ans
    for deep in (b"[" * 60000 + b"\n", b'{"token": ' + b"[" * 40 + b"]" * 40 + b"}\n"):
        ans = ask(reg, deep)
        assert "nested deeper than 32 levels" in ans["err"]["msg"], ans
    ans = ask(reg, b'{"token": "\xff"}\n')
    assert "not a JSON message" in ans["err"]["msg"]
    assert ask(reg, {"token": reg["token"], "call": "trays"})["ok"]
    assert one_line_each(lines), lines
    assert "Traceback" not in capfd.readouterr().err


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for ln in f:
            if ln.startswith("VmRSS:"):
                return int(ln.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_a_long_line_on_the_socket_is_refused_with_bounded_memory(home):
    """A 64 MB line, to `dicetray serve` itself: refused once
    past the first line's bound (64 KB), the hub growing by far less."""
    env = dict(os.environ, DICETRAY_HOME=home, PYTHONPATH=os.path.join(ROOT, "host"))
    p = subprocess.Popen([sys.executable, "-m", "dicetray", "serve", "--port", "t=/nonexistent",
                          "--http-port", "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().startswith("hub: 127.0.0.1:")
        reg = server.running()
        time.sleep(0.5)
        before = rss_kb(p.pid)
        s = socket.create_connection(("127.0.0.1", reg["port"]), timeout=10)
        sent = 0
        try:
            chunk = b"x" * (1 << 20)
            while sent < 64 << 20:
                s.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass                                        # the hub closed it: refused
        got = answer(s, 5)
        s.close()
        grown = rss_kb(p.pid) - before
        assert grown < 8 * 1024, "the hub grew by %d KB" % grown
        assert sent < 64 << 20 or b"longer than 65536 bytes" in got
        s = socket.create_connection(("127.0.0.1", reg["port"]), timeout=10)
        s.sendall(wire.line({"token": reg["token"], "call": "trays"}))
        assert wire.read(s.makefile("rb"))["ok"][0]["tray"] == "t"   # still serving
        s.close()
    finally:
        p.terminate()
        out, err = p.communicate(timeout=30)
    said = [ln for ln in err.splitlines() if "hub socket" in ln]
    assert said == ["hub socket: refused a connection: a line longer than 65536 bytes"], err
    assert "Traceback" not in err
