"""`dicetray serve`: the table hub in the foreground (docs/hub.md).

    dicetray serve [--port [NAME=]PORT]... [--timeout S] [--http-port N] [--listen --token T]
                   [--keeper-token K] [--forward URL]... [--backup-every N [--db FILE]]

Prints `hub: 127.0.0.1:N` and `http: URL` (the live page) when it is
ready (and `keeper: URL`, the page with remote actions, with
--keeper-token, and a `forward` line a URL with its queue), then a line
as each tray comes up or goes down and as a forwarding URL fails or
delivers again; what a client was refused goes to stderr, a line each.
Ctrl-C stops it (exit 0) and closes every port.
"""

import argparse
import os
import sys
import threading
import time

from ..base.datadir import home
from ..campaign.export import plural
from .autobackup import AutoBackup
from ..link.hubclient import HubDevice
from .feed import Feed
from .forward import Forwarder, QueueError, check, label
from .server import Hub, HubError
from .view import View
from .web import Web

HTTP_PORT = 8018  # beside the simulator's web page (8017): a bookmark on the table's TV


class _Say:
    """The hub's lines on stdout: a tray up or down."""

    def __init__(self):
        self.seen = {}

    def state(self, tray):
        now = (tray.state, tray.why)
        if self.seen.get(tray.name) == now:
            return
        self.seen[tray.name] = now
        if tray.state == "up":
            i = tray.info or {}
            print(
                "tray %s: up on %s (device %s, %s campaign %s, %s)"
                % (
                    tray.name,
                    tray.port,
                    i.get("device"),
                    i.get("system"),
                    i.get("campaign"),
                    plural(i.get("events") or 0, "event"),
                ),
                flush=True,
            )
        else:
            print("tray %s: %s (%s)" % (tray.name, tray.state, tray.why), flush=True)

    def event(self, tray, seq, ev):
        pass


def _when(t):
    return "never" if t is None else time.strftime("%H:%M:%S", time.localtime(t))


class _SayForward:
    """The hub's lines about forwarding: each URL's queue as the hub
    starts, then a line as a URL stops delivering (or fails another way)
    and as it delivers again, with its queue and its last delivery."""

    def __init__(self, fwd):
        self.fwd = fwd
        self.lock = threading.Lock()
        self.said = {}  # url -> the error last said (None: delivering)
        self.names = {u: "forward %d %s" % (n, label(u)) for n, u in enumerate(fwd.urls, 1)}
        for u, st in fwd.stats().items():
            print("%s: %d queued" % (self.names[u], st["pending"]), flush=True)
        fwd.listeners.append(self.changed)
        for u in fwd.urls:
            self.changed(u)  # what failed before this (catching up as trays came up)

    def changed(self, url):
        st = self.fwd.stats()[url]
        failing = (st["last_error_at"] or 0) > (st["last_success"] or 0)
        now = st["last_error"] if failing else None
        with self.lock:
            if self.said.get(url) == now:
                return
            self.said[url] = now
            print(
                "%s: %s; %d queued%s, last delivered %s"
                % (
                    self.names[url],
                    "not delivered: %s" % now if now else "delivering again",
                    st["pending"],
                    ", %d held in memory" % st["held"] if st["held"] else "",
                    _when(st["last_success"]),
                ),
                flush=True,
            )


def _web(view, args, reg):
    """The page's server on --http-port (HTTP_PORT by default, any free
    port when that one is taken); its remote actions reach a tray through
    the hub's socket, as any client's do."""
    host = "0.0.0.0" if args.listen else "127.0.0.1"
    port = HTTP_PORT if args.http_port is None else args.http_port
    kw = dict(
        token=args.token,
        keeper=args.keeper_token,
        connect=lambda tray: HubDevice(reg, tray=tray),
        parse_action=args.parse_action,
    )
    try:
        return Web(view, host, port, **kw)
    except OSError as e:
        if args.http_port is not None:
            raise HubError(
                "cannot serve the page on %s:%d: %s (choose another --http-port)" % (host, port, e)
            ) from None
        return Web(view, host, 0, **kw)


def run(args):
    """Run the hub until Ctrl-C; the exit status."""
    if args.listen and not args.token:
        sys.stderr.write(
            "dicetray serve: error: --listen serves the page to the whole network: "
            "give it a --token (a secret the page's URL carries)\n"
        )
        return 2
    if args.keeper_token is not None and (not args.keeper_token or args.keeper_token == args.token):
        sys.stderr.write(
            "dicetray serve: error: --keeper-token lets its holder act on every "
            "tray: give a secret of its own, not empty and not the page's --token "
            "(which whoever sees the page has)\n"
        )
        return 2
    for url in args.forward or ():
        try:
            check(url)
        except ValueError as e:
            sys.stderr.write("dicetray serve: error: %s\n" % e)
            return 2
    fwd = None
    if args.forward:
        path = args.forward_queue or os.path.join(home(), "hub-forward.db")
        try:
            fwd = Forwarder(args.forward, path)
        except (QueueError, OSError) as e:
            sys.stderr.write(
                "dicetray serve: error: cannot open the forwarding queue %s: %s "
                "(give another with --forward-queue FILE)\n" % (path, e)
            )
            return 1
    try:
        hub = Hub(args.port or (), timeout=args.timeout, listen_port=args.hub_port)
    except HubError as e:
        sys.stderr.write("dicetray serve: error: %s\n" % e)
        return 2
    hub.sinks.append(_Say())
    view = View(hub)
    hub.sinks.append(view)
    if fwd is not None:
        view.add_feed(Feed(fwd))
    auto = None
    if args.backup_every:
        auto = AutoBackup(hub, args.backup_every, args.db, say=lambda line: print(line, flush=True))
        hub.sinks.append(auto)
    web = None
    try:
        reg = hub.start()
        web = _web(view, args, reg)
    except HubError as e:
        sys.stderr.write("dicetray serve: error: %s\n" % e)
        hub.close()
        return 1
    print(
        "hub: 127.0.0.1:%d (pid %d; every dicetray command goes through it%s)"
        % (reg["port"], reg["pid"], "" if args.port else "; looking for trays"),
        flush=True,
    )
    print("http: %s" % web.url(), flush=True)
    if args.keeper_token:
        print("keeper: %s (remote actions: the keeper's alone)" % web.url(keeper=True), flush=True)
    if fwd is not None:
        _SayForward(fwd)
        fwd.start()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        web.close()
        if auto is not None:
            auto.close()  # the session's last events, backed up through the hub
        hub.close()
        if fwd is not None:
            fwd.stop()
    return 0


def _positive(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("takes a number of events, 1 or more, not %s" % text)
    return n


def register(sub, seconds, parse_action):
    """Add `serve` to an argparse subparsers object; `seconds` reads
    --timeout, `parse_action(line)` the page's action lines (both the
    command line's, handed in)."""
    p = sub.add_parser(
        "serve",
        help="the table hub: hold every tray's port and serve every "
        "other dicetray command through it (docs/hub.md)",
        description="the table hub: hold every tray's port and serve every "
        "other dicetray command through it (docs/hub.md)",
    )
    p.add_argument(
        "--port",
        action="append",
        metavar="[NAME=]PORT",
        help="a tray's port (repeatable; NAME= names it; default: every board and "
        "simulator found, looked for again every 2 s)",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        default=2.0,
        metavar="S",
        help="seconds to wait for each answer from a tray (default 2)",
    )
    p.add_argument(
        "--hub-port",
        type=int,
        default=0,
        metavar="N",
        help="the local TCP port of the hub's socket (default: any free one)",
    )
    p.add_argument(
        "--http-port",
        type=int,
        metavar="N",
        help="the live page's port (default %d, or any free one if it is taken)" % HTTP_PORT,
    )
    p.add_argument(
        "--listen",
        action="store_true",
        help="serve the page to the network, not only this machine (needs --token)",
    )
    p.add_argument(
        "--token",
        metavar="SECRET",
        help="a secret every page request must carry (?token=SECRET in the URL)",
    )
    p.add_argument(
        "--keeper-token",
        metavar="SECRET",
        help="turn on remote actions from the page: the keeper's URL (printed) "
        "carries SECRET, which must differ from --token",
    )
    p.add_argument(
        "--forward",
        action="append",
        metavar="URL",
        help="post every event as JSON to URL (repeatable; a Discord webhook, or a "
        "URL ending #discord or #slack, gets a chat message); queued on disk",
    )
    p.add_argument(
        "--forward-queue",
        metavar="FILE",
        help="the queue of what is not delivered yet (default $DICETRAY_HOME/hub-forward.db)",
    )
    p.add_argument(
        "--backup-every",
        type=_positive,
        metavar="N",
        help="back up each tray every N events, when it comes up, and when the hub "
        "stops (incremental, into the usual database)",
    )
    p.add_argument(
        "--db",
        metavar="FILE",
        help="the backup database of --backup-every (default: $DICETRAY_HOME's)",
    )
    p.set_defaults(run=run, parse_action=parse_action)
    return p
