"""Bounds on what a client of the hub can cost it before it is known
(docs/hub.md, Limits): both listening sockets (the local command socket
and the page's HTTP) serve at most a fixed number of connections at once,
give each a deadline for its whole request and a cap on its bytes, and
report what they refuse in one line, never a traceback.

    Bounded   a socketserver mixin: the connection cap (one more is told
              "busy" from the accepting thread and closed, so a flood
              costs no thread) and one-line errors
    Reader    a socket's reads against a deadline and a byte budget
    Log       one line a refusal, at most one line a kind every few seconds
    same      a token compared in constant time, whatever text it is
"""

import collections
import hmac
import io
import socket
import sys
import threading
import time

LINGER_S = 1.0  # a refused connection is closed this long after its answer...
LINGER_MAX = 256  # ...this many at most at once (more: closed at once)


class Refused(OSError):
    """A client went past a bound (too many bytes); the message says which."""


def same(got, want):
    """Whether `got` (anything a client sent) is the secret `want`: compared
    as bytes in constant time, so text that is not ASCII is a mismatch, not
    an error."""
    if not isinstance(got, str):
        return False
    return hmac.compare_digest(got.encode("utf-8", "surrogatepass"), want.encode("utf-8"))


class Log:
    """`say(line)` for the hub's refusals: a kind of refusal is said at most
    once every `every` seconds, with how many more came meanwhile, so a
    flood of bad connections is a line, not a flood of lines."""

    def __init__(self, say=None, every=10.0):
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.every = every
        self.lock = threading.Lock()
        self.last = {}  # kind -> (when said, how many since)

    def note(self, kind, line):
        now = time.monotonic()
        with self.lock:
            when, more = self.last.get(kind, (None, 0))
            if when is not None and now - when < self.every:
                self.last[kind] = (when, more + 1)
                return
            self.last[kind] = (now, 0)
        if more:
            line += " (and %d more like it in the last %g s)" % (more, self.every)
        try:
            self.say(line)
        except Exception:
            pass  # a closed terminal never stops the hub


class Reader(io.RawIOBase):
    """The reads of socket `sock`, each waiting only for what is left of a
    deadline `seconds` from now (None: no deadline), and at most `budget`
    bytes in all (None: any): a client that trickles its request one byte
    at a time still meets the deadline. `lift()` lifts both once a request
    is in. Past the deadline a read raises TimeoutError; past the budget,
    Refused."""

    def __init__(self, sock, seconds=None, budget=None):
        self.sock = sock
        self.bound(seconds, budget)

    def bound(self, seconds=None, budget=None):
        self.end = None if seconds is None else time.monotonic() + seconds
        self.budget = budget

    def lift(self):
        self.bound()

    def readable(self):
        return True

    def readinto(self, b):
        if self.budget is not None:
            if self.budget <= 0:
                raise Refused("more than its bytes' bound")
            b = memoryview(b)[: self.budget]
        if self.end is None:
            self.sock.settimeout(None)
        else:
            left = self.end - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request took longer than its deadline")
            self.sock.settimeout(left)
        n = self.sock.recv_into(b)
        if self.budget is not None:
            self.budget -= n
        return n


class Bounded:
    """A mixin for a socketserver threading server (put it first): at most
    `cap` connections at once; one more gets `busy` (bytes) and is closed
    by the accepting thread. `log` (a Log) hears of refusals and errors."""

    block_on_close = False  # closing the hub never waits for a client
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # a burst of connections is accepted and answered, not dropped

    def __init__(self, address, handler, cap, busy, log, what):
        self.cap = cap
        self.busy = busy
        self.log = log
        self.what = what  # "the hub's socket", "the page": who is speaking in the log
        self.gate = threading.Lock()
        self.active = 0
        self.closing = collections.deque()  # (when, socket): refused, answered, closed soon
        super().__init__(address, handler)

    def process_request(self, request, client_address):
        with self.gate:
            full = self.active >= self.cap
            if not full:
                self.active += 1
        if full:
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._left()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._left()

    def _left(self):
        with self.gate:
            self.active -= 1

    def _refuse(self, request):
        # Answered and half closed now, closed a moment later (the accepting
        # thread's loop): closed at once, the request the client sends meanwhile
        # would make it a reset, and a reset can lose the answer on its way.
        try:
            request.setblocking(False)
            request.send(self.busy)  # a few bytes into an empty send buffer: never blocks
            request.shutdown(socket.SHUT_WR)
            self.closing.append((time.monotonic() + LINGER_S, request))
        except OSError:
            self.shutdown_request(request)
        while len(self.closing) > LINGER_MAX:
            _close(self.closing.popleft()[1])
        self.log.note(
            "busy",
            "%s: refused a connection: %d are open, its limit" % (self.what, self.cap),
        )

    def service_actions(self):
        super().service_actions()
        now = time.monotonic()
        while self.closing and self.closing[0][0] <= now:
            _close(self.closing.popleft()[1])

    def server_close(self):
        super().server_close()
        while self.closing:
            _close(self.closing.popleft()[1])

    def handle_error(self, request, client_address):
        e = sys.exc_info()[1]
        self.log.note("error", "%s: a connection failed: %s: %s" % (self.what, type(e).__name__, e))


def _close(sock):
    """Close a refused connection, what it sent read first (so no reset)."""
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass
    sock.close()
