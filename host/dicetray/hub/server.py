"""The hub: every tray's port in one process, served to every other
`dicetray` command on a local socket (docs/hub.md).

`Hub(ports)` holds a Tray (tray.py) for each port given, or, without
ports, for every board and simulator `dicetray ports` finds, looked for
again every SCAN_S so that a tray plugged in later (or a replugged one on
a new port) joins. A tray that comes back under another port keeps its
name: trays are known by their device id.

The socket is TCP on 127.0.0.1 (every OS has it), on a port the OS
picks; the hub writes it, its pid and a random token into
<home>/hub.json (mode 0600) while it runs. A client must send the token:
another user of the machine cannot read the file, so cannot act on the
trays. Until a connection has sent it, the connection is bounded
(limits.py): CLIENTS at once, its first line within FIRST_S and FIRST_MAX
bytes; after it, a line of LINE_MAX (a restore's) and no deadline.
"""

import io
import json
import os
import queue
import secrets
import socketserver
import threading

from .. import __version__
from ..link import ports as portfinder
from ..link.client import DeviceError
from ..link import wire
from ..link.wire import TICK_S, registration, running
from . import limits
from .tray import Tray

SCAN_S = 2.0
CLIENTS = 128  # connections at once: every command, watcher and page action is one
FIRST_S = 5.0  # a connection's first line (its token) comes within this, whole
FIRST_MAX = 64 * 1024  # ...and is at most this long: a client starts with a small call
LINE_MAX = 16 * 1024 * 1024  # a line once the token is known: a restore of 200,000 events
WRITE_S = 60.0  # a client that stops reading is dropped after this


class HubError(Exception):
    """The hub cannot start (another one runs, no socket)."""


class Hub:
    """The trays on `ports` (a list of PATH or NAME=PATH; empty: found
    ones), served on 127.0.0.1:`listen_port` (0: any free one)."""

    def __init__(
        self,
        ports=(),
        timeout=2.0,
        listen_port=0,
        opener=None,
        clients=CLIENTS,
        first_s=FIRST_S,
        log=None,
    ):
        """`clients`, `first_s`: the socket's bounds (CLIENTS, FIRST_S);
        `log(line)`: where refusals are said (default stderr)."""
        self.timeout = timeout
        self.opener = opener
        self.clients = clients
        self.first_s = first_s
        self.log = limits.Log(log)
        self.token = secrets.token_hex(16)
        self.lock = threading.Lock()
        self.trays = {}  # name -> Tray
        self.sinks = []  # f(tray, seq, ev), f(tray) on state: the page, forwarding, backups
        self.watchers = []
        self.scanning = not ports
        self.stopping = threading.Event()
        self.server = None
        self.started = False  # trays given here start with start(): after the sinks are in
        self.listen_port = listen_port
        for p in ports:
            name, _eq, path = (
                p.rpartition("=") if "=" in p and "://" not in p.split("=", 1)[0] else ("", "", p)
            )
            self.add(path, name or None)

    # --- trays ---------------------------------------------------------------
    def add(self, port, name=None):
        """A tray on `port`, named tray1, tray2... unless `name`; started
        now if the hub runs, else by start() (so no sink misses its first "up")."""
        with self.lock:
            if name is None:
                k = 1
                while "tray%d" % k in self.trays:
                    k += 1
                name = "tray%d" % k
            elif name in self.trays:
                raise HubError("two trays named %s: give each --port NAME=PORT its own name" % name)
            t = Tray(name, port, self, self.timeout, self.opener)
            self.trays[name] = t
            run = self.started
        return t.start() if run else t

    def pick(self, name=None, port=None):
        """The tray a command asked for (--tray NAME, --port PORT, or the only one)."""
        with self.lock:
            trays = dict(self.trays)
        if name is not None:
            if name not in trays:
                raise DeviceError(
                    "no tray named %s at the hub (it has: %s)"
                    % (name, ", ".join(sorted(trays)) or "none yet")
                )
            return trays[name]
        if port is not None:
            for t in trays.values():
                if t.port == port:
                    return t
            raise DeviceError(
                "the hub does not hold %s (it has: %s)"
                % (port, ", ".join("%s on %s" % (t.name, t.port) for t in trays.values()) or "none")
            )
        if not trays:
            raise DeviceError("the hub serves no tray yet: plug one in or start `dicetray sim`")
        if len(trays) > 1:
            raise DeviceError(
                "the hub serves several trays (%s): choose one with --tray NAME"
                % ", ".join(sorted(trays))
            )
        return next(iter(trays.values()))

    def on_event(self, tray, seq, ev):
        for s in list(self.sinks):
            try:
                s.event(tray, seq, ev)
            except Exception:
                pass  # a sink's fault never stops a tray

    def on_state(self, tray):
        if tray.state == "up":
            self._adopt(tray)
        for s in list(self.sinks):
            try:
                s.state(tray)
            except Exception:
                pass

    def _adopt(self, tray):
        """A tray that came up on a new port, with the device id of one
        that went down: it takes that one's name, and the old one goes."""
        dev = (tray.info or {}).get("device")
        with self.lock:
            for name, old in list(self.trays.items()):
                if (
                    old is not tray
                    and old.state != "up"
                    and dev is not None
                    and (old.info or {}).get("device") == dev
                ):
                    del self.trays[tray.name]
                    del self.trays[name]
                    tray.name = name
                    self.trays[name] = tray
                    old.stopping = True
                    return

    def _scan(self):
        while not self.stopping.wait(SCAN_S):
            held = {t.port for t in list(self.trays.values())}
            for p in portfinder.find():
                if p.device not in held:
                    self.add(p.device)

    # --- the socket ------------------------------------------------------------
    def start(self):
        """Open the socket, announce it (<home>/hub.json) and start looking
        for trays; returns the registration."""
        other = running()
        if other is not None and int(other["pid"]) != os.getpid():
            raise HubError(
                "a hub is already running (pid %s): one hub serves every tray; "
                "stop it first" % other["pid"]
            )
        busy = wire.line(
            _refusal(
                "the hub is busy: %d connections are open, its limit; "
                "try again when a command or watcher ends" % self.clients
            )
        )
        try:
            self.server = _Server(
                ("127.0.0.1", self.listen_port),
                _Handler,
                self.clients,
                busy,
                self.log,
                "hub socket",
            )
        except OSError as e:
            raise HubError("cannot listen on 127.0.0.1:%d: %s" % (self.listen_port, e)) from None
        self.server.hub = self
        threading.Thread(target=self.server.serve_forever, name="hub-socket", daemon=True).start()
        # Known before a tray starts: a tray that answers at once starts the
        # automatic backups, which connect through it (autobackup.py).
        reg = self.reg = {
            "pid": os.getpid(),
            "port": self.server.server_address[1],
            "token": self.token,
            "version": __version__,
        }
        with self.lock:
            self.started = True
            given = list(self.trays.values())
        for t in given:
            t.start()
        if self.scanning:
            for p in portfinder.find():
                self.add(p.device)
            threading.Thread(target=self._scan, name="hub-scan", daemon=True).start()
        self._announce(reg)
        return reg

    def _announce(self, reg):
        path = registration()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".%d" % os.getpid()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(reg, f)
        os.replace(tmp, path)

    def close(self):
        """Stop serving, close every port, withdraw the registration."""
        self.stopping.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            reg = running()
            if reg is not None and int(reg["pid"]) == os.getpid():
                try:
                    os.remove(registration())
                except OSError:
                    pass
        for t in list(self.trays.values()):
            t.stop()


class _Server(limits.Bounded, socketserver.ThreadingTCPServer):
    pass


def _refusal(msg):
    """An error line's message, as a client raises it (DeviceError)."""
    return {"err": {"type": "DeviceError", "msg": msg}}


class _Handler(socketserver.BaseRequestHandler):
    """One client connection: calls one after another, or one subscription."""

    def setup(self):
        hub = self.server.hub
        self.reader = limits.Reader(self.request, hub.first_s)
        self.rfile = io.BufferedReader(self.reader)

    def send(self, obj):
        self.request.settimeout(WRITE_S)
        self.request.sendall(wire.line(obj))

    def refuse(self, kind, why):
        """Say why to the client (if it listens) and in the log; the connection ends."""
        try:
            self.send(_refusal("the hub refused the connection: %s" % why))
        except OSError:
            pass
        self.server.hub.log.note(kind, "hub socket: refused a connection: %s" % why)

    def handle(self):
        hub = self.server.hub
        known = False  # the token came: the connection is the user's
        while True:
            try:
                msg = wire.read(self.rfile, LINE_MAX if known else FIRST_MAX)
            except TimeoutError:
                self.refuse("slow", "no whole request within %g s" % hub.first_s)
                return
            except wire.Unreadable as e:
                self.refuse("unreadable", str(e))
                return
            except OSError:
                return
            if msg is None:
                return
            if not isinstance(msg, dict) or not limits.same(msg.get("token"), hub.token):
                self.refuse("token", "wrong token (is <home>/hub.json this hub's?)")
                return
            if not known:
                known = True
                self.reader.lift()
            try:
                call = msg.get("call")
                if call == "trays":
                    self.send({"ok": [t.as_dict() for t in list(hub.trays.values())]})
                    continue
                tray = hub.pick(msg.get("tray"), msg.get("port"))
                if call == "subscribe":
                    self.subscribe(tray, *(msg.get("args") or []))
                    return
                value = tray.call(
                    call, msg.get("args") or [], msg.get("kw") or {}, progress=self.progress
                )
                self.send({"ok": value, "tray": tray.name})
            except OSError:
                return
            except Exception as e:
                try:
                    self.send({"err": wire.error(e)})
                except OSError:
                    return

    def progress(self, k, n):
        try:
            self.send({"progress": [k, n]})
        except OSError:
            pass  # the client left: the call still completes, once

    def subscribe(self, tray, since=-1):
        q = tray.listen()  # first: every event from here on reaches q
        try:
            sent = tray.last if since < 0 else since
            self.send({"ok": {"head": sent}, "tray": tray.name})
            if since >= 0:  # the ones after since, then the live ones past them
                for k, e in enumerate(tray.call("events", [since])):
                    sent = since + 1 + k
                    self.send({"push": [sent, e]})
            while True:
                try:
                    seq, ev = q.get(timeout=TICK_S)
                except queue.Empty:
                    self.send({"tick": 1})
                    continue
                if ev is None:  # another campaign, or a history rewritten: from its head
                    self.send({"reset": seq})
                    sent = seq
                elif seq > sent:
                    self.send({"push": [seq, ev]})
                    sent = seq
        finally:
            tray.unlisten(q)
