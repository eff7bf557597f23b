"""A webhook receiver on 127.0.0.1 for the forwarding tests, whose
behaviour a test switches."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """A webhook on 127.0.0.1: `mode` is "ok", "fail" (500), "busy" (429,
    Retry-After: 0), "refuse" (400 for ids in `bad`), "stall" (no answer),
    "redirect" (302 to /moved, where a GET is answered 200: what a client
    that follows redirects would count as delivered), "trickle" (a 204,
    one byte every `trickle_s` seconds), "slow" (a 204 after `trickle_s`
    seconds). `auth`: each post's Authorization header (None: none)."""

    def __init__(self):
        self.mode = "ok"
        self.bad = set()
        self.got = []             # the bodies it answered 2xx, in order
        self.gets = 0             # GETs of /moved (a redirect followed)
        self.tries = 0
        self.trickle_s = 1.0
        self.auth = []
        self.release = threading.Event()
        rx = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                rx.gets += 1
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                rx.tries += 1
                rx.auth.append(self.headers.get("Authorization"))
                mode = rx.mode
                if mode == "stall":
                    rx.release.wait(30)
                    return
                if mode == "trickle":
                    for b in b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n":
                        if rx.release.wait(rx.trickle_s):
                            return
                        self.wfile.write(bytes([b]))
                        self.wfile.flush()
                    rx.got.append(body)
                    return
                if mode == "slow":
                    rx.got.append(body)          # taken; its answer comes late
                    if rx.release.wait(rx.trickle_s):
                        return
                    self.send_response(204)
                    self.end_headers()
                    return
                if mode == "redirect":
                    self.send_response(302)
                    self.send_header("Location", "/moved")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if mode == "fail" or (mode == "refuse" and body.get("id") in rx.bad):
                    self.send_response(500 if mode == "fail" else 400)
                    self.end_headers()
                    return
                if mode == "busy":
                    self.send_response(429)
                    self.send_header("Retry-After", "0")
                    self.end_headers()
                    rx.mode = "ok"
                    return
                rx.got.append(body)
                self.send_response(204)
                self.end_headers()

        self.srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.srv.daemon_threads = True
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d/hook" % self.srv.server_address[1]

    def ids(self):
        return [b.get("id") for b in self.got]

    def close(self):
        self.release.set()
        self.srv.shutdown()
        self.srv.server_close()
