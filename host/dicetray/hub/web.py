"""The live page of the table (docs/hub.md, The live page): HTTP on
127.0.0.1 (or the LAN with --listen, which needs --token).

    GET /          the page (page.py): every tray side by side
    GET /state     the View's snapshot as JSON
    GET /events    server-sent events: the snapshot at once, then again at every change

With a token, every request must carry it (`?token=T`, which the printed
URL has): the page is the campaign's, and a LAN is more than the table.
"""

import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from . import page

KEEPALIVE_S = 15.0   # a comment line on a quiet stream, so proxies and browsers keep it


class Web:
    """The page of `view` on host:port (port 0: any free one)."""

    def __init__(self, view, host="127.0.0.1", port=0, token=None):
        self.view = view
        self.token = token
        self.server = _Server((host, port), _Handler)
        self.server.web = self
        self.stopping = False
        threading.Thread(target=self.server.serve_forever, name="hub-web", daemon=True).start()

    def url(self):
        host, port = self.server.server_address[:2]
        shown = "127.0.0.1" if host in ("127.0.0.1", "0.0.0.0", "") else host
        return "http://%s:%d/%s" % (shown, port, "?token=" + self.token if self.token else "")

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
        pass                          # the hub's terminal is for trays coming and going

    def _allowed(self, query):
        want = self.server.web.token
        got = (parse_qs(query).get("token") or [""])[0]
        return want is None or secrets.compare_digest(got, want)

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
            self._send(403, "text/plain; charset=utf-8",
                       b"this page needs its token: open the URL `dicetray serve` printed\n")
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
            pass                      # the page was closed
        finally:
            with view.changed:
                view.watching -= 1
