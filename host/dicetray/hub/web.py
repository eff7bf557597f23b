"""The live page of the table (docs/hub.md, The live page): HTTP on
127.0.0.1 (or the LAN with --listen, which needs --token).

    GET /          the page (page.py): every tray side by side
    GET /state     the View's snapshot as JSON
    GET /events    server-sent events: the snapshot at once, then again at every change
    POST /act      a remote action (actions.py): {"tray", "action"}, with the
                   keeper's token in X-Dicetray-Keeper; off without --keeper-token

With a token, every request must carry it (`?token=T`, which the printed
URL has): the page is the campaign's, and a LAN is more than the table.
The keeper's token is another secret: a page shown to the players can
read, never act, and a web page elsewhere in the browser cannot make the
tray roll (it can neither read the secret nor send the header without
the page's own origin). Without a token, a request must name the page's
own host (127.0.0.1:PORT, localhost:PORT, [::1]:PORT): a web page whose
DNS name was rebound to 127.0.0.1 names its own, and is refused.

Every connection is bounded before anything is checked (limits.py):
CONNS at once (one more gets 503), its whole request within REQUEST_S
and REQUEST_MAX bytes, a body of MAX_BODY nesting at most DEPTH.
"""

import io
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

from . import actions, limits, page
from ..link import wire

KEEPALIVE_S = 15.0  # a comment line on a quiet stream, so proxies and browsers keep it
MAX_BODY = 4096  # an action's request: a tray's name and a command line
DEPTH = 4  # ...which nests one level: {"tray", "action"}
CONNS = 64  # connections at once: each open page holds one (its event stream)
REQUEST_S = 10.0  # a request's line, headers and body come within this, whole
REQUEST_MAX = 64 * 1024  # ...and in at most this many bytes
WRITE_S = 30.0  # a page that stops reading its stream is dropped after this


class Web:
    """The page of `view` on host:port (port 0: any free one)."""

    def __init__(
        self,
        view,
        host="127.0.0.1",
        port=0,
        token=None,
        keeper=None,
        connect=None,
        parse_action=None,
        conns=CONNS,
        request_s=REQUEST_S,
        log=None,
    ):
        """`keeper`: the keeper's token, which turns remote actions on;
        `connect(tray)`: an open device of that tray (the hub's HubDevice);
        `parse_action(line)`: how an action line is read (the command
        line's parser, cli/pageline.py: handed in, so the hub never
        imports the command line; a keeper's page needs it);
        `conns`, `request_s`: the bounds (CONNS, REQUEST_S); `log(line)`:
        where refusals are said (default stderr)."""
        self.view = view
        self.token = token
        self.keeper = keeper
        if keeper is not None and parse_action is None:
            raise ValueError("a keeper's page reads action lines: give it parse_action")
        self.connect = connect
        self.parse_action = parse_action
        self.request_s = request_s
        self.log = limits.Log(log)
        busy = (
            "the hub's page is busy: %d connections are open, its limit; "
            "close a page or try again\n" % conns
        ).encode()
        head = (
            "HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "Content-Length: %d\r\nRetry-After: 5\r\nConnection: close\r\n\r\n" % len(busy)
        ).encode()
        self.server = _Server((host, port), _Handler, conns, head + busy, self.log, "page")
        self.server.web = self
        self.port = port = self.server.server_address[1]
        # The names a browser on this machine reaches the page by (no token: only these)
        self.hosts = {"127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port}
        if host not in ("", "0.0.0.0", "::"):
            self.hosts.add("%s:%d" % (host.lower(), port))
        self.stopping = False
        threading.Thread(target=self.server.serve_forever, name="hub-web", daemon=True).start()

    def url(self, keeper=False):
        """The page's URL with what it needs: the token, and the keeper's with `keeper`."""
        host, port = self.server.server_address[:2]
        shown = "127.0.0.1" if host in ("127.0.0.1", "0.0.0.0", "") else host
        q = [("token", self.token)] if self.token else []
        if keeper:
            q.append(("keeper", self.keeper))
        return "http://%s:%d/%s" % (shown, port, "?" + urlencode(q) if q else "")

    def close(self):
        self.stopping = True
        with self.view.changed:
            self.view.changed.notify_all()
        self.server.shutdown()
        self.server.server_close()


class _Server(limits.Bounded, ThreadingHTTPServer):
    pass


class _Handler(BaseHTTPRequestHandler):
    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        web = self.server.web
        self.reader = limits.Reader(self.request, web.request_s, REQUEST_MAX)
        self.rfile = io.BufferedReader(self.reader)

    def handle(self):
        try:
            BaseHTTPRequestHandler.handle(self)
        except limits.Refused:
            self.server.web.log.note(
                "big", "page: refused a request of more than %d bytes" % REQUEST_MAX
            )

    def log_message(self, *a):
        pass  # the hub's terminal is for trays coming and going...

    def log_error(self, fmt, *args):
        # ...and for what the page refused: one line
        self.server.web.log.note("http", "page: " + (fmt % args).splitlines()[0])

    def _in(self):
        """The request is read: its bounds lifted, a write may wait WRITE_S."""
        self.reader.lift()
        self.request.settimeout(WRITE_S)

    def _refused(self, query):
        """None if the request may be served; else (status, why)."""
        web = self.server.web
        if web.token is None:
            host = (self.headers.get("Host") or "").strip().lower()
            if host not in web.hosts:
                web.log.note("host", "page: refused a request for host %r" % host[:80])
                return 403, (
                    "this page answers to 127.0.0.1:%d and localhost:%d only, not %r "
                    "(start the hub with --token to serve other names)"
                    % (web.port, web.port, host[:80])
                )
            return None
        got = (parse_qs(query).get("token") or [""])[0]
        if not limits.same(got, web.token):
            return 403, "this page needs its token: open the URL `dicetray serve` printed"
        return None

    def _json(self, code, obj):
        self._send(code, "application/json", json.dumps(obj).encode())

    def _send(self, code, ctype, body):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self._in()
        u = urlsplit(self.path)
        no = self._refused(u.query)
        if no is not None:
            self._send(no[0], "text/plain; charset=utf-8", (no[1] + "\n").encode())
            return
        web = self.server.web
        if u.path == "/":
            self._send(200, "text/html; charset=utf-8", page.HTML.encode("utf-8"))
        elif u.path == "/state":
            self._send(200, "application/json", json.dumps(web.view.snapshot()).encode())
        elif u.path == "/events":
            self._stream(web)
        else:
            self._send(404, "text/plain; charset=utf-8", b"no such page: try /\n")

    def do_POST(self):
        u = urlsplit(self.path)
        web = self.server.web
        try:
            n = int(self.headers.get("Content-Length", ""))
        except ValueError:
            n = -1
        body = self.rfile.read(n) if 0 < n <= MAX_BODY else None
        self._in()
        no = self._refused(u.query)
        if no is not None:
            self._json(no[0], {"error": no[1]})
            return
        if u.path != "/act":
            self._json(404, {"error": "no such action: POST /act"})
            return
        if web.keeper is None:
            self._json(
                403,
                {
                    "error": "remote actions are off: start the hub with "
                    "--keeper-token SECRET and open the keeper's URL it prints"
                },
            )
            return
        if not limits.same(self.headers.get("X-Dicetray-Keeper", ""), web.keeper):
            self._json(
                403,
                {"error": "not the keeper's token: open the keeper's URL `dicetray serve` printed"},
            )
            return
        try:
            if body is None:
                raise ValueError("a body of %d bytes" % n if n >= 0 else "no Content-Length")
            req = wire.loads(body, DEPTH)
            tray, line = req["tray"], req["action"]
            if not (isinstance(tray, str) and isinstance(line, str)):
                raise ValueError("tray and action are text")
        except (ValueError, KeyError, TypeError) as e:
            self._json(
                400,
                {
                    "error": 'an action is JSON {"tray": NAME, "action": '
                    '"roll --pool 3"} of at most %d bytes (%s)' % (MAX_BODY, e)
                },
            )
            return
        if tray not in web.view.hub.trays:
            self._json(
                404,
                {
                    "error": "no tray %s at the hub: it has %s"
                    % (tray, ", ".join(web.view.hub.trays) or "none")
                },
            )
            return
        try:
            self._json(200, actions.run(line, web.parse_action, lambda: web.connect(tray)))
        except actions.ActionError as e:
            self._json(e.status, {"error": str(e)})

    def _stream(self, web):
        view = web.view
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        with view.changed:
            view.watching += 1
        try:
            seen = None
            while not web.stopping:
                snap = view.snapshot()
                if snap["version"] != seen:
                    seen = snap["version"]
                    self.wfile.write(b"data: " + json.dumps(snap).encode() + b"\n\n")
                else:
                    self.wfile.write(b": keepalive\n\n")
                self.wfile.flush()
                with view.changed:
                    if view.version == seen:
                        view.changed.wait(KEEPALIVE_S)
        except OSError:
            pass  # the page was closed
        finally:
            with view.changed:
                view.watching -= 1
