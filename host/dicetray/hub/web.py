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
the page's own origin).
"""

import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

from . import actions, page

KEEPALIVE_S = 15.0  # a comment line on a quiet stream, so proxies and browsers keep it
MAX_BODY = 4096  # an action's request: a tray's name and a command line


class Web:
    """The page of `view` on host:port (port 0: any free one)."""

    def __init__(self, view, host="127.0.0.1", port=0, token=None, keeper=None, connect=None):
        """`keeper`: the keeper's token, which turns remote actions on;
        `connect(tray)`: an open device of that tray (the hub's HubDevice)."""
        self.view = view
        self.token = token
        self.keeper = keeper
        self.connect = connect
        self.server = _Server((host, port), _Handler)
        self.server.web = self
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


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass  # the hub's terminal is for trays coming and going

    def _allowed(self, query):
        want = self.server.web.token
        got = (parse_qs(query).get("token") or [""])[0]
        return want is None or secrets.compare_digest(got, want)

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
        u = urlsplit(self.path)
        if not self._allowed(u.query):
            self._send(
                403,
                "text/plain; charset=utf-8",
                b"this page needs its token: open the URL `dicetray serve` printed\n",
            )
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
        if u.path != "/act":
            self._json(404, {"error": "no such action: POST /act"})
            return
        if not self._allowed(u.query):
            self._json(
                403, {"error": "this page needs its token: open the URL `dicetray serve` printed"}
            )
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
        if not secrets.compare_digest(self.headers.get("X-Dicetray-Keeper", ""), web.keeper):
            self._json(
                403,
                {"error": "not the keeper's token: open the keeper's URL `dicetray serve` printed"},
            )
            return
        try:
            n = int(self.headers.get("Content-Length", ""))
            if not 0 < n <= MAX_BODY:
                raise ValueError("%d bytes" % n)
            req = json.loads(self.rfile.read(n))
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
            self._json(200, actions.run(line, lambda: web.connect(tray)))
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
