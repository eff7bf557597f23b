"""`dicetray sim --web`: the tray in a web page, served on 127.0.0.1.

The page is the static site `make web` builds in build/web/ (tools/web.py:
MicroPython's WebAssembly port, the firmware as .mpy, web/index.html and
web/dicetray.js); this builds it when it is missing or older than its
sources, then serves that directory on 127.0.0.1 and prints the address.
It opens nothing by itself. The page keeps its flash in the browser's
storage for its origin, so the same port finds the same campaign again
(default DEFAULT_PORT; `--port N`, 0 for any free one). See
docs/simulator.md, "In a web page".
"""

import functools
import http.server
import os
import subprocess
import sys

from ..base import checkout

ROOT = checkout.ROOT
SITE = os.path.join(ROOT, "build", "web")
TOOL = checkout.tool_path("web")
DEFAULT_PORT = 8017

TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".html": "text/html",
    ".bin": "application/octet-stream",
    ".json": "application/json",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files of the site, quietly, with the types a browser needs
    for a module script and streaming wasm compilation."""

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def log_message(self, fmt, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt site is seen at the next reload
        http.server.SimpleHTTPRequestHandler.end_headers(self)


def ensure_built(site=SITE, err=sys.stderr):
    """Build the site if it is missing or stale; returns an error line or None."""
    if os.path.isfile(TOOL):
        try:
            stale = checkout.tool("web").stale(site)
        except ImportError:  # tools/ without its dependencies: let the build say why
            stale = True
        if not stale:
            return None
        print("dicetray sim --web: building %s (make web)" % site, file=err, flush=True)
        r = subprocess.run(
            [sys.executable, TOOL, "--quiet", "--out", site], cwd=ROOT, stdout=subprocess.DEVNULL
        )
        if r.returncode:
            return "building the page failed (above): run `make web` to see why"
    if not os.path.isfile(os.path.join(site, "index.html")):
        return "no page in %s: run `make web` in the repository" % site
    return None


def server(port=DEFAULT_PORT, site=SITE, host="127.0.0.1"):
    """A ThreadingHTTPServer for the site (not started)."""
    handler = functools.partial(Handler, directory=site)
    return http.server.ThreadingHTTPServer((host, port), handler)


def main(args, err=sys.stderr):
    """Build if needed, then serve until Ctrl-C; returns the exit status."""
    problem = ensure_built(err=err)
    if problem:
        print("dicetray sim --web: %s" % problem, file=err)
        return 1
    port = DEFAULT_PORT if args.port is None else args.port
    try:
        srv = server(port)
    except OSError as e:
        print(
            "dicetray sim --web: cannot listen on 127.0.0.1:%d (%s): pass --port N "
            "(another number; the flash in the browser is kept per port)" % (port, e.strerror or e),
            file=err,
        )
        return 1
    url = "http://127.0.0.1:%d/" % srv.server_address[1]
    print("web: %s  (Ctrl-C stops)" % url, flush=True)
    from ..link.ports import announced

    try:
        with announced(url, "web"):  # `dicetray ports` lists the page
            srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0
