"""A session with a tray on its serial link (docs/protocol.md): the port
opened and the handshake, a numbered request and its answer (asked again
with the same number after a timeout: the device answers a retry from its
cache without applying it twice), the frames read beside the REPL, and an
app found stopped (at the REPL) restarted. The reads (reads.py) and the
calls (client.py's Device) are built on it.
"""

import json
import random
import time
from collections import deque
from collections.abc import Callable, Generator
from typing import Any, Concatenate, ParamSpec, TypeVar

from .. import __version__
from ..rules import codec
from . import frame as fr
from . import payloads, ports
from .errors import AtRepl, DeviceError, check_timeout
from .transport import Transport, TransportError

BOOT_S = 15.0  # how long a restarted app may take to answer
CUT_QUIET = 0.2  # a binary frame still short after this long without a byte was cut
RECOVER = 2  # how many times one call restarts an app that stopped under it

_P = ParamSpec("_P")
_R = TypeVar("_R")
_S = TypeVar("_S", bound="Session")


STOPPED = "the app stopped (a Ctrl-C on the line?)"


def recovering(
    fn: Callable[Concatenate[_S, _P], _R],
) -> Callable[Concatenate[_S, _P], _R]:
    """A read that a stopped app does not end: on AtRepl in the middle of
    it (a Ctrl-C byte on the line stops the app, as mpremote does on
    purpose), restart the app and read again, from the start (reads change
    nothing), up to RECOVER times; Device.open(restart=False) turns it off."""

    def run(self, *a, **kw):
        for k in range(RECOVER + 1):
            try:
                return fn(self, *a, **kw)
            except AtRepl:
                if not self.restart or k == RECOVER:
                    raise
                self.recover()

    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


class Session:
    """A tray on a serial port, after the handshake (use Device.open)."""

    def __init__(
        self, transport: Transport, timeout: float = 2.0, retries: int = 4, restart: bool = True
    ) -> None:
        check_timeout(timeout)
        self.t = transport
        self.restart = restart  # restart the app when it is found stopped (at the REPL)
        self.recovered = 0  # times it was restarted after stopping mid-session
        self.port = transport.port
        self.timeout = timeout
        self.retries = retries
        self.seq = random.randrange(1, 0xFFFF)
        self.frames: deque[fr.Frame] = deque()  # whole frames read, not yet taken
        self.lines = fr.FastLines(fr.MAX_ANS + 64, self.frames.append)
        self.window = fr.WINDOW  # journal reads in flight...
        self.pages = fr.PAGES  # ...each for this many segments (LOG)
        self.binary = True  # LOGB until the device refuses it (firmware before it)
        self.heard = 0.0  # time.monotonic() of the last bytes read
        self.pushes: deque[tuple[int, bytes]] = deque()  # (seq, event) pushed by the device
        self.last_info: dict[str, Any] | None = None
        self.head: int | None = None  # the device's last event as last seen (info, an act's answer)
        self.tries = 0  # writes of the last request: more than 1 after a timeout
        # How far the last restore() went, for one cut short: "sending" (the
        # device has not been told to swap: it keeps its campaign), "commit"
        # (told: it may have swapped), "done" (it answered the swap).
        self.restore_stage: str | None = None

    # --- opening ------------------------------------------------------------
    @classmethod
    def open(
        cls: type[_S],
        port: str | None = None,
        timeout: float = 2.0,
        restart: bool = True,
        check_schema: bool = True,
    ) -> _S:
        """Open `port` (None: auto-detect one board or simulator), handshake
        and check versions. A device at the REPL is soft-rebooted into the
        app when `restart` (else DeviceError says so). DeviceError names
        the problem: no device, several, REPL, version mismatch (and which
        side to upgrade)."""
        if port is None:
            found = ports.find()
            if not found:
                raise DeviceError(
                    "no Dicetray found: plug the tray in by USB, start the simulator "
                    "(dicetray sim), or name the port with --port"
                )
            if len(found) > 1:
                raise DeviceError(
                    "several possible trays: %s: choose one with --port"
                    % ", ".join("%s (%s)" % (p.device, p.description) for p in found)
                )
            port = found[0].device
        check_timeout(timeout)
        try:
            t = Transport(port)
        except TransportError as e:
            raise DeviceError(str(e)) from None
        dev = cls(t, timeout, restart=restart)
        try:
            dev.hello(restart)
            if check_schema:
                dev.check_versions()
        except BaseException:
            dev.close()
            raise
        return dev

    def hello(self, restart: bool = True) -> dict[str, Any]:
        """The handshake; returns the device's info."""
        body = payloads.hello(__version__)
        try:
            try:
                self.last_info = json.loads(self._request(fr.HELLO, body, retries=1))
            except DeviceError as e:
                if isinstance(e, AtRepl) or not str(e).startswith("no answer"):
                    raise
                self._probe_repl()
                raise
        except AtRepl:
            if not restart:
                raise
            self.restart_app()
            self.last_info = json.loads(self._request(fr.HELLO, body, timeout=BOOT_S, retries=1))
        self.head = self.last_info["events"]
        return self.last_info

    def _probe_repl(self) -> None:
        # Ctrl-B: at the raw REPL it returns to the friendly one, which
        # prints its banner and '>>> '; to the app it is a byte outside any
        # frame, skipped. (Never Ctrl-C: that would stop a running app.)
        self.t.write(b"\r\x02")
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            self._read(0.1)

    def recover(self) -> dict[str, Any]:
        """The app stopped under a session (AtRepl: its REPL has the port):
        restart it and handshake again, as Device.open does."""
        self.recovered += 1
        self.restart_app()
        self.last_info = json.loads(
            self._request(fr.HELLO, payloads.hello(__version__), timeout=BOOT_S, retries=1)
        )
        self.head = self.last_info["events"]
        return self.last_info

    def restart_app(self) -> None:
        """Leave the REPL and soft-reboot into main.py (the app): Ctrl-C
        clears a line, Ctrl-B leaves the raw REPL, Ctrl-D soft-reboots."""
        self.t.write(b"\r\x03\x02\x04")
        time.sleep(0.2)
        self.t.drain(0.2, 2.0)
        self.lines.seen = b""
        self.frames.clear()

    def check_versions(self) -> None:
        """Refuse a device whose state schema this host cannot read or write."""
        i = self.last_info or self.info()
        if i.get("schema") != codec.VERSION:
            side = (
                "host tool (pip install -U dicetray)"
                if i.get("schema", 0) > codec.VERSION
                else "firmware (dicetray deploy)"
            )
            raise DeviceError(
                "state schema mismatch: the device has %s, this host %d: upgrade the %s"
                % (i.get("schema"), codec.VERSION, side)
            )

    # --- frames -------------------------------------------------------------
    def _got(self, text: bytes | None) -> None:
        f = payloads.frame(text)
        if f is not None:
            self.frames.append(f)

    def _read(self, wait: float) -> bool:
        try:
            data = self.t.read(wait)
        except TransportError as e:
            raise DeviceError("lost the link: %s" % e) from None
        now = time.monotonic()
        if not data and now - self.heard > CUT_QUIET:
            self.lines.quiet(self._got)
        if data:
            self.heard = now
            self.lines.push(data, len(data), self._got)
            seen = self.lines.seen  # the bytes outside binary frames
            if payloads.at_repl(seen):
                self.lines.seen = b""
                raise AtRepl(
                    "the tray on %s is at the MicroPython REPL, not running the app: "
                    "press Ctrl-D in a terminal on it (soft reboot) or let dicetray "
                    "restart it" % self.port
                )
        return bool(data)

    def _frame(self, deadline: float) -> fr.Frame | None:
        while not self.frames:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._read(min(left, 0.05))
        return self.frames.popleft()

    def _line(self, typ: int, payload: bytes) -> tuple[int, bytes]:
        """(seq, line) of a new request."""
        try:
            self.seq, line = payloads.request(self.seq, typ, payload)
        except ValueError as e:
            raise DeviceError(str(e)) from None
        return self.seq, line

    def _write(self, line: bytes) -> None:
        try:
            self.t.write(line)
        except TransportError as e:
            raise DeviceError("lost the link: %s" % e) from None

    def _request(
        self,
        typ: int,
        payload: bytes = b"",
        timeout: float | None = None,
        retries: int | None = None,
    ) -> bytes:
        seq, line = self._line(typ, payload)
        want = typ | fr.ANSWER
        timeout = self.timeout if timeout is None else timeout
        tries = 1 + (self.retries if retries is None else retries)
        self.tries = 0
        for _ in range(tries):
            self.tries += 1
            self._write(line)  # the same seq and bytes: the device answers a retry from its cache
            deadline = time.monotonic() + timeout
            while True:
                f = self._frame(deadline)
                if f is None:
                    break
                ft, fs, fp = f
                if ft == fr.PUSH:
                    self.keep_push(fp)
                elif fs != seq:
                    continue  # an answer to an earlier try, or not ours
                elif ft == fr.ERR:
                    raise DeviceError(bytes(fp).decode("utf-8", "replace"))
                elif ft == want:
                    return bytes(fp)
        raise DeviceError(
            "no answer from %s after %d tries: is the Dicetray app running on it?"
            % (self.port, tries)
        )

    def keep_push(self, payload: bytes | bytearray) -> None:
        """Keep a PUSH frame's (seq, event), for pushed() to hand out."""
        self.pushes.append(payloads.pushed(payload))

    def drive(self, reads: Generator[tuple[int, bytes], bytes, _R]) -> _R:
        """Run one of payloads.py's reads: each request it yields is made
        and its answer sent back; returns what the read returns."""
        answer = None
        while True:
            try:
                typ, payload = reads.send(answer)  # type: ignore[arg-type]  # None to start it
            except StopIteration as e:
                return e.value
            answer = self._request(typ, payload)

    # --- requests -----------------------------------------------------------
    @recovering
    def info(self, collect: bool = False, heap: bool = False) -> dict[str, Any]:
        """The device's info: device, firmware, protocol, schema, system,
        campaign, events (the last seq), first (the oldest seq it holds),
        slot, board, bad (frames dropped), retried (answers from the cache),
        and with `heap`, heap_free and heap_used. collect: the device
        collects garbage first (heap implied), so heap_free is the heap its
        live data leaves free."""
        ask = b"gc" if collect else b"heap" if heap else b""
        self.last_info = json.loads(self._request(fr.INFO, ask))
        self.head = self.last_info["events"]
        return self.last_info

    def close(self) -> None:
        self.t.close()

    def __enter__(self: _S) -> _S:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def wire(self) -> tuple[int, int]:
        """(bytes sent, bytes received) on the port so far."""
        return self.t.sent, self.t.received
