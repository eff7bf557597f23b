"""The host's client for the tray's serial link (docs/protocol.md).

    from dicetray.link.client import Device, DeviceError
    with Device.open() as dev:          # port None: the one board or simulator found
        dev.info()                      # {"device", "firmware", "protocol", "schema",
                                        #  "system", "campaign", "events", "first", ...}
        seq, snap = dev.snapshot()      # encode_snapshot bytes, after event `seq`
        evs = dev.events(since)         # every event with seq > since, paged
        dev.act(kind, args, text)       # applied and on flash when it returns
        for seq, ev in dev.subscribe(): # events as they happen
            ...

Every request is numbered; a lost answer is asked for again with the same
number and the device answers it from its cache without applying it
twice. Journal reads go several at a time (a window of fr.WINDOW in
flight, docs/protocol.md); everything else one at a time. Every refusal
raises DeviceError with the device's own message.
"""

import json
import re
import random
import select
import socket
import time
from binascii import crc32
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from struct import pack, unpack_from
from typing import Any, Concatenate, ParamSpec, TypeVar

from .. import __version__
from ..rules import batch, codec
from ..rules.systems import NAMES
from . import frame as fr
from . import ports
from .errors import AnswerLost, AtRepl, DeviceError, JournalDamaged, check_timeout
from .records import records
from .tray import Progress, Screen
from .transport import Transport, TransportError

BOOT_S = 15.0  # how long a restarted app may take to answer
READ_QUIET = 0.5  # a window of reads asks again after this long without a frame
CUT_QUIET = 0.2  # a binary frame still short after this long without a byte was cut
RECOVER = 2  # how many times one call restarts an app that stopped under it
POLL_S = 0.005  # poll() on a port with no fd to select on: how often it looks at `wake`

# A read request for Device._window: (type, payload) or, for LOG and LOGB,
# (type, payload, the (base, offset) of the segment pages it asks for).
_Read = tuple[int, bytes] | tuple[int, bytes, list[tuple[int, int]]]
_P = ParamSpec("_P")
_R = TypeVar("_R")
_D = TypeVar("_D", bound="Device")


STOPPED = "the app stopped (a Ctrl-C on the line?)"


def _recovering(
    fn: Callable[Concatenate["Device", _P], _R],
) -> Callable[Concatenate["Device", _P], _R]:
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


_STALE = re.compile(r"stale: the device is at event (\d+)")
_STALE_NEW = "stale: the current campaign is"


def _woken(wake: socket.socket | None, wait: float) -> bool:
    """Whether `wake` had something to read within `wait` seconds (read and dropped)."""
    if wake is None or not select.select([wake], [], [], wait)[0]:
        return False
    try:
        wake.recv(4096)
    except OSError:  # a non-blocking socket another reader emptied first
        pass
    return True


def _ints(*vals: int) -> bytes:
    out = bytearray()
    for v in vals:
        codec.put_int(out, v)
    return bytes(out)


def _plan(keys: list[tuple[int, int]], b: int, size: int) -> None:
    """In `keys`, the (base, offset) of the pages a LOGB request owes,
    segment b's first page becomes all of its pages, from its size."""
    for i, (kb, off) in enumerate(keys):
        if kb == b:
            n = max(1, -(-(size - off) // fr.LOG_PAGE))
            keys[i : i + 1] = [(b, off + k * fr.LOG_PAGE) for k in range(n)]
            return


def pack_events(events: Sequence[bytes], start: int, room: int) -> tuple[bytes, int]:
    """(varint len, event)* of events[start:] that fit in room bytes; returns (bytes, n)."""
    try:
        return batch.pack(events, start, room)
    except ValueError as e:
        raise DeviceError(str(e)) from None


def _whole(
    out: list[bytes | None], gaps: list[list[Any]], since: int, bases: list[int]
) -> list[bytes]:
    """Device.events' answer: the events, or JournalDamaged naming the
    first damaged range and carrying every event that reads and the
    segments' bases it read."""
    if not gaps:
        return out  # type: ignore[return-value]  # no None without a gap
    gaps.sort()
    g = gaps[0]
    raise JournalDamaged(g[0], g[2], g[3], g[1], gaps, out, since, sorted(set(bases)))


def unpack_events(p: bytes, i: int, n: int) -> tuple[list[bytes], int]:
    """n (varint len, event) from payload p at i; returns (list, next i)."""
    try:
        return batch.unpack(p, i, n)
    except ValueError as e:
        raise DeviceError("the device sent %s" % e) from None


class Device:
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
        cls: type[_D],
        port: str | None = None,
        timeout: float = 2.0,
        restart: bool = True,
        check_schema: bool = True,
    ) -> _D:
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

    def _hello_body(self) -> bytes:
        return json.dumps({"protocol": fr.PROTOCOL, "host": __version__}).encode()

    def hello(self, restart: bool = True) -> dict[str, Any]:
        """The handshake; returns the device's info."""
        body = self._hello_body()
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
            self._request(fr.HELLO, self._hello_body(), timeout=BOOT_S, retries=1)
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
        if text is None:
            return
        try:
            self.frames.append(fr.decode(bytes(text)))
        except ValueError:
            pass  # torn or damaged: the retry gets it again

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
            if b">>> " in seen or b"raw REPL; CTRL-B to exit" in seen:
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
        self.seq = self.seq % 0xFFFF + 1
        line = fr.encode(typ, self.seq, payload)
        if len(line) > fr.MAX_REQ:
            raise DeviceError(
                "request of %d bytes exceeds the %d-byte frame limit" % (len(line), fr.MAX_REQ)
            )
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
                    s, i = codec.get_int(fp, 0)
                    self.pushes.append((s, bytes(fp[i:])))
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

    def _window(self, todo: deque[_Read], got: Callable[[int, bytes, bytes], object]) -> None:
        """Read requests, several in flight. `todo` is a deque of (type,
        payload) or, for LOG and LOGB, (type, payload, pages): the (base,
        offset) of each segment page the request asks for, one answer frame
        each (LOGB: its first page; the first answer's segment size tells
        the others).
        got(type, payload, answer) handles every answer frame and may append
        more to `todo`. At most self.window requests are out at once.

        The device answers in the order it reads, so an answer means that
        whatever was asked before it and is still unanswered was lost (a
        torn or damaged frame, either way): that goes again at once. What
        no later answer reveals (the last pages asked for) goes again after
        READ_QUIET s without a frame; the window gives up after as long a
        silence as a single request would (timeout x (1 + retries)). Only
        for requests that change nothing on the device: a repeat is simply
        served again."""
        out: dict[int, list[Any]] = {}  # seq -> [type, payload, line, order, tries, pages]
        order = [0]
        quiet = min(self.timeout, READ_QUIET)
        give_up = self.timeout * (1 + self.retries)

        def send(item: _Read, tries: int = 1) -> None:
            typ, payload = item[0], item[1]
            seq, line = self._line(typ, payload)
            order[0] += 1
            pages = list(item[2]) if len(item) > 2 else [None]
            # [type, payload, line, order, tries, pages owed, LOGB: segments whose pages are known]
            out[seq] = [typ, payload, line, order[0], tries, pages, set()]
            self._write(line)

        def again(r: list[Any], pages: list[Any]) -> None:
            """Ask again for what r still owes (LOG, LOGB: those pages, one each)."""
            if r[0] not in (fr.LOG, fr.LOGB):
                send((r[0], r[1]), r[4] + 1)
                return
            for b, off in pages:
                send((r[0], pack("<IIB", b, off, 1), [(b, off)]), r[4] + 1)

        heard = time.monotonic()
        r: list[Any] | None
        while todo or out:
            while todo and len(out) < self.window:
                send(todo.popleft())
            f = self._frame(time.monotonic() + quiet)
            if f is None:  # nothing for a while: all of it again
                tries = max(r[4] for r in out.values())
                if time.monotonic() - heard > give_up:
                    raise DeviceError(
                        "no answer from %s after %d tries: is the Dicetray app "
                        "running on it?" % (self.port, tries)
                    )
                for seq, r in sorted(out.items(), key=lambda kv: kv[1][3]):
                    del out[seq]
                    again(r, r[5])
                continue
            ft, fs, fp = f
            if ft == fr.PUSH:
                s, i = codec.get_int(fp, 0)
                self.pushes.append((s, bytes(fp[i:])))
                continue
            r = out.get(fs)
            if r is None:
                continue  # an answer to an earlier try
            if ft == fr.ERR:
                raise DeviceError(bytes(fp).decode("utf-8", "replace"))
            if ft != r[0] | fr.ANSWER:
                continue
            # (base, offset) of a LOG or LOGB page; None: a request without pages
            key: Any = tuple(unpack_from("<II", fp, 0)) if r[0] in (fr.LOG, fr.LOGB) else None
            if r[0] == fr.LOGB and key[0] not in r[6]:  # its size says the segment's pages
                _plan(r[5], key[0], unpack_from("<I", fp, 8)[0])
                r[6].add(key[0])
            keys = r[5]
            if key not in keys:
                continue  # a page it sent already
            k = keys.index(key)
            lost = r[5][:k]
            r[5] = r[5][k + 1 :]
            if not r[5]:
                del out[fs]
            for seq, r2 in sorted(out.items(), key=lambda kv: kv[1][3]):
                if r2[3] < r[3]:  # asked before it, never answered: lost
                    del out[seq]
                    again(r2, r2[5])
            if lost:
                again(r, lost)
            heard = time.monotonic()
            got(r[0], r[1], bytes(fp))

    # --- requests -----------------------------------------------------------
    @_recovering
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

    @_recovering
    def snapshot(self) -> tuple[int, bytes]:
        """(seq, encode_snapshot bytes) of the campaign after event seq, as it is now."""
        while True:
            p = self._request(fr.SNAP, _ints(0))
            seq, i = codec.get_int(p, 0)
            total, i = codec.get_int(p, i)
            off, i = codec.get_int(p, i)
            data = bytearray(p[i:])
            ok = True
            while len(data) < total:
                p = self._request(fr.SNAP, _ints(len(data)))
                s2, i = codec.get_int(p, 0)
                t2, i = codec.get_int(p, i)
                o2, i = codec.get_int(p, i)
                if (s2, t2, o2) != (seq, total, len(data)):
                    ok = False  # another client asked for a new snapshot: start over
                    break
                data.extend(p[i:])
            if ok:
                return seq, bytes(data)

    @_recovering
    def chain(self, seq: int) -> bytes | None:
        """The device's hash chain head after event `seq` (32 bytes), or
        None where the device does not know it (a campaign from firmware
        before the chain). The device knows it after its last event and
        after the snapshot it last sent (snapshot()); DeviceError for any
        other seq, and from firmware that predates the request."""
        p = self._request(fr.CHAIN, _ints(seq))
        if p and len(p) != 32:
            raise DeviceError("the device answered a chain head of %d bytes, not 32" % len(p))
        return bytes(p) if p else None

    @_recovering
    def events(self, since: int, progress: Progress | None = None) -> list[bytes]:
        """Every event with seq > since, in order. progress(done, total) is
        called after each page. DeviceError if the device no longer holds
        event since+1; JournalDamaged if records on its flash fail their
        checks (naming the first damaged events), raised once everything
        else was read: it carries every event that reads (`events`, None
        for each that does not), every damaged range (`gaps`) and the
        journal segments' bases (`bases`).

        What the device holds in RAM (its last 64 to 128 events) comes in
        EVENTS pages; anything older is read from the journal on its flash
        as it is, a segment a page, a window of pages in flight (LOG), and
        checked here."""
        out: list[bytes | None] = []
        gaps: list[list[Any]] = []
        bases: list[int] = []
        cur = since
        # The first page and the journal's segments at once (one round
        # trip): the SEGS answer is used if the events are not all in RAM.
        first_page: dict[int, bytes] = {}
        self._window(
            deque([(fr.EVENTS, _ints(cur, fr.EV_RAM)), (fr.SEGS, _ints(cur))]),
            lambda typ, req, ans: first_page.__setitem__(typ, ans),
        )
        p = first_page[fr.EVENTS]
        while True:
            first, i = codec.get_int(p, 0)
            n, i = codec.get_int(p, i)
            head, i = codec.get_int(p, i)
            if first != cur + 1:
                raise DeviceError("the device answered events from %d, not %d" % (first, cur + 1))
            if n == 0 and cur < head:  # not (or no longer) all in RAM: the journal
                segs = first_page.pop(fr.SEGS, None) if cur == since else None  # SEGS of `since`
                evs, head = self._journal(cur, progress, since, segs, gaps, bases)
                if not evs:
                    raise DeviceError(
                        "the device holds neither in RAM nor in its journal the "
                        "events after %d (its last is %d)" % (cur, head)
                    )
                out.extend(evs)
                cur += len(evs)
                if cur >= head:
                    return _whole(out, gaps, since, bases)
            else:
                got, i = unpack_events(p, i, n)
                out.extend(got)
                cur += n
                if progress is not None:
                    progress(cur - since, head - since)
                if n == 0 or cur >= head:
                    return _whole(out, gaps, since, bases)
            p = self._request(fr.EVENTS, _ints(cur, fr.EV_RAM))

    def _journal(
        self,
        since: int,
        progress: Progress | None = None,
        origin: int | None = None,
        p: bytes | None = None,
        gaps: list[list[Any]] | None = None,
        seen: list[int] | None = None,
    ) -> tuple[list[bytes | None], int]:
        """(the events after `since` up to the device's head, that head),
        read from its journal segments: SEGS (p: its answer if at hand),
        then LOGB pages in a window (LOG from firmware before LOGB). A
        segment whose records fail (again, for LOGB) is read past its
        damage: its events that do not read are None, the damage is
        appended to `gaps` (records()), the segments' bases to `seen`."""
        if gaps is None:
            gaps = []
        if p is None:
            p = self._request(fr.SEGS, _ints(since))
        head, i = codec.get_int(p, 0)
        n, i = codec.get_int(p, i)
        bases: list[int] = []
        b = 0
        for _ in range(n):
            d, i = codec.get_int(p, i)
            b += d
            bases.append(b)
        if seen is not None:
            seen.extend(bases)
        ends = bases[1:] + [head]
        data = {b: bytearray() for b in bases}
        done: dict[int, list[bytes | None]] = {}
        size: dict[int, int] = {}  # LOGB: base -> the segment's size
        # base -> {offset: page} come before a page lost before them
        ahead: dict[int, dict[int, bytes]] = {}
        reread: set[int] = set()  # LOGB: segments read again, a record of theirs having failed
        origin = since if origin is None else origin

        def got(typ: int, req: bytes, ans: bytes) -> None:
            b, off = unpack_from("<II", ans, 0)
            j = 8 if typ == fr.LOG else 12
            buf = data[b]
            if b in done or off < len(buf):
                return  # an answer repeated by a retry
            if off > len(buf):  # a page after one lost on the way: kept for later
                ahead.setdefault(b, {})[off] = ans[j:]
                return
            buf += ans[j:]
            more = ahead.get(b, {})
            while len(buf) in more:
                buf += more.pop(len(buf))
            if typ == fr.LOG and len(ans) - j >= fr.LOG_PAGE:  # a full page: it may go on
                todo.append((fr.LOG, pack("<IIB", b, len(buf), 1), [(b, len(buf))]))
                return
            if typ == fr.LOGB:
                # The size its file had at the first answer: it held the
                # events SEGS listed (a segment only grows), and the pages
                # asked for are those of that size.
                if len(buf) < size.setdefault(b, unpack_from("<I", ans, 8)[0]):
                    return
            k = bases.index(b)
            # A LOGB page's CRC covers its header only, the records check
            # themselves: a record that fails may have been hit on the
            # way. Damage is what fails when read again (a LOG page's CRC
            # covers it all: at once), and it is read past.
            bad: list[list[Any]] | None = None if typ == fr.LOGB and b not in reread else []
            try:
                evs, last = records(bytes(buf), b, max(since, b), ends[k], bad)
                if last < ends[k]:
                    if bad is None:
                        raise JournalDamaged(last + 1, b, "", ends[k])
                    lo = max(last, since)
                    bad.append([lo + 1, ends[k], b, "the segment ends after event %d" % last])
                    evs += [None] * (ends[k] - lo)
            except JournalDamaged:
                reread.add(b)
                data[b] = bytearray()
                ahead.pop(b, None)
                todo.append((fr.LOGB, pack("<IIB", b, 0, 1), [(b, 0)]))
                return
            gaps.extend(bad or ())
            done[b] = evs
            data[b] = bytearray()
            if progress is not None:
                progress(sum(len(v) for v in done.values()) + since - origin, head - origin)

        todo: deque[_Read] = deque()
        typ = fr.LOGB if self.binary else fr.LOG
        for k in range(0, len(bases), self.pages):
            run = bases[k : k + self.pages]
            todo.append((typ, pack("<IIB", run[0], 0, len(run)), [(b, 0) for b in run]))
        try:
            self._window(todo, got)
        except DeviceError as e:
            if not (self.binary and str(e).startswith("unknown request type")):
                raise
            self.binary = False  # firmware before LOGB: its text pages
            return self._journal(since, progress, origin, p, gaps)
        out = []
        for b in bases:
            out.extend(done[b])
        return out, head

    def act(
        self,
        kind: int,
        args: Iterable[int] = (),
        text: str = "",
        faces: Iterable[int] | None = None,
    ) -> dict[str, Any]:
        """Apply an action on the device (as a button press would); returns
        {"seq", "kind", "successes", "verdict", "margin", "faces", "notes",
        "hidden"} once its event is on flash. DeviceError: refused (the
        rules' message), nothing changed; AnswerLost: applied once, but the
        device reset before answering.

        Each ACT names the last event the host saw ("after"): the device
        refuses it if another came in since. So a retry that reaches the
        device after a reset (which forgets the answer cache) is not applied
        a second time, and an action never lands on a journal that moved
        under it (the keys at the table): the host looks again and retries."""
        d: dict[str, Any] = {"kind": int(kind), "args": [int(a) for a in args], "text": text}
        if faces is not None:
            d["faces"] = [int(f) for f in faces]
        stopped = 0
        for _ in range(8):
            if self.head is None:
                self.info()
            d["after"] = self.head
            try:
                out = json.loads(self._request(fr.ACT, json.dumps(d).encode()))
            except AtRepl:
                # The app stopped with the ACT sent: it may have been applied
                # first. Restarted, the device says where its journal is.
                if not self.restart or stopped >= RECOVER:
                    raise
                stopped += 1
                self.recover()
                # (head == after + 1: an int, which mypy cannot narrow from Any)
                if self.head == d["after"] + 1 and self._is(self.head, d):  # type: ignore[arg-type]
                    raise AnswerLost(self.head, STOPPED) from None  # type: ignore[arg-type]
                continue
            except DeviceError as e:
                m = _STALE.match(str(e))
                if m is None:
                    raise
                now = int(m.group(1))
                retried = self.tries > 1
                self.head = now
                if retried and now == d["after"] + 1 and self._is(now, d):
                    raise AnswerLost(now) from None
                continue  # someone else acted: again, on the new head
            self.head = out["seq"]
            return out
        raise DeviceError(
            "the device's journal kept moving while acting (a key held down?): "
            "nothing was applied; try again"
        )

    def _is(self, seq: int, d: dict[str, Any]) -> bool:
        """Whether event seq is the action d (kind, args, text; faces if given)."""
        evs = self.events(seq - 1)
        if not evs:
            return False
        kind, args, faces, text = codec.decode_event(evs[0])
        return (
            kind == d["kind"]
            and list(args) == d["args"]
            and text == d["text"]
            and ("faces" not in d or list(faces) == d["faces"])
        )

    def set_clock(self, unix_seconds: float | None = None) -> None:
        """Set the device's clock (default: now)."""
        if unix_seconds is None:
            unix_seconds = int(time.time())
        self._request(fr.CLOCK, json.dumps({"unix": int(unix_seconds)}).encode())

    # --- a subscription a caller drives (the hub's tray thread) ------------
    def sub(self, since: int) -> int:
        """Subscribe from event `since` (-1: new events only): the device
        pushes each event it appends, taken by poll() and handed out by
        pushed(). Returns the device's head. An app restarted since
        (`recovered` moved on) lost it: subscribe again."""
        self.pushes.clear()
        head, _i = codec.get_int(self._request(fr.SUB, _ints(since)), 0)
        return head

    def poll(self, wait: float, wake: socket.socket | None = None) -> bool:
        """Wait up to `wait` seconds for the device to send something, or
        for `wake` to be readable (another thread has work for the
        caller: what it sent is read and dropped), and keep the events it
        pushed; True if a push came."""
        if not self.frames:
            fd = self.t.fileno()
            if fd is None:  # nothing to select on: look at `wake` every POLL_S
                end = time.monotonic() + wait
                while not self._read(min(POLL_S, max(0, end - time.monotonic()))):
                    if _woken(wake, 0) or time.monotonic() >= end:
                        return False
            else:
                r, _w, _x = select.select([fd] + ([wake] if wake else []), [], [], wait)
                if wake in r:
                    _woken(wake, 0)
                if fd not in r:
                    return False
                self._read(0.01)
        came = False
        while self.frames:
            f = self.frames.popleft()
            if f[0] == fr.PUSH:
                s, i = codec.get_int(f[2], 0)
                self.pushes.append((s, bytes(f[2][i:])))
                came = True
        return came

    def pushed(self) -> Generator[tuple[int, bytes], None, None]:
        """The (seq, event) the device pushed, in order, each handed out once
        (a read in between may keep more: they follow)."""
        while self.pushes:
            yield self.pushes.popleft()

    def subscribe(
        self, since: int = -1, timeout: float | None = None
    ) -> Generator[tuple[int, bytes], None, None]:
        """Yield (seq, event) as the device appends events (since: also the
        ones after that seq first; -1: only new ones). With `timeout`, stop
        after that many quiet seconds. Closing the iterator unsubscribes.

        An app that stops meanwhile (AtRepl: a Ctrl-C on the line) is
        restarted and subscribed to again from the last event yielded, so
        nothing is missed (RECOVER times in a row at most); so is one that
        another call on this Device restarted (its subscription went with
        the old app)."""
        self.pushes.clear()
        last = since
        stopped = 0
        epoch: int | None = None  # self.recovered when last subscribed
        try:
            quiet = time.monotonic()
            while True:
                try:
                    if epoch != self.recovered:
                        epoch = self.recovered
                        head = self.sub(last)
                        if last < 0:
                            last = head  # from now: the pushes start after it
                        continue
                    if self.pushes:
                        item = self.pushes.popleft()
                        last = max(last, item[0])
                        stopped = 0
                        yield item
                        quiet = time.monotonic()
                        continue
                    f = self._frame(time.monotonic() + 0.2)
                    if f is not None and f[0] == fr.PUSH:
                        s, i = codec.get_int(f[2], 0)
                        self.pushes.append((s, bytes(f[2][i:])))
                    elif timeout is not None and time.monotonic() - quiet > timeout:
                        return
                except AtRepl:
                    if not self.restart or stopped >= RECOVER:
                        raise
                    stopped += 1
                    self.recover()  # and subscribe again, above
        finally:
            try:
                self._request(fr.UNSUB)
            except DeviceError:
                pass

    def restore(
        self,
        snapshot: bytes,
        events: Iterable[bytes],
        seq: int,
        first: int = 1,
        progress: Progress | None = None,
        head: bytes | None = None,
    ) -> dict[str, Any]:
        """Replace the device's campaign, atomically.

        `events` are the journal events numbered first, first+1, ...;
        `snapshot` is encode_snapshot of the campaign after event `seq`
        (first-1 <= seq < first+len(events)). With first=1 (the whole
        history) the device replays every event from a new campaign and
        checks that it meets the snapshot at seq; with first>1 the
        snapshot must be at first-1 and is the base. The device stages it
        all in a new store, verifies it as a boot would read it, and swaps
        it in with one rename: a reset leaves the old campaign or the new
        one. `head`: the hash chain's head after `seq` (bytes) for a
        restore from past event 1 (the device chains the events on from
        it; with first=1 it chains them from the start). Returns the
        device's new info."""
        snapshot = bytes(snapshot)
        events = [bytes(e) for e in events]
        begin: dict[str, Any] = {
            "seq": seq,
            "first": first,
            "count": len(events),
            "size": len(snapshot),
            "crc": crc32(snapshot) & 0xFFFFFFFF,
        }
        if head is not None and first > 1:
            begin["head"] = bytes(head).hex()
        self.restore_stage = "sending"
        self._request(fr.R_BEGIN, json.dumps(begin).encode())
        try:
            room = fr.MAX_REQ_PAYLOAD - 5
            off = 0
            while off < len(snapshot):
                chunk = snapshot[off : off + room]
                self._request(fr.R_SNAP, _ints(off) + chunk)
                off += len(chunk)
            k = 0
            while k < len(events):
                data, n = pack_events(events, k, room)
                self._request(fr.R_EVENTS, _ints(first + k) + data)
                k += n
                if progress is not None:
                    progress(k, len(events))
            self.restore_stage = "commit"
            self.last_info = json.loads(self._request(fr.R_COMMIT, timeout=max(self.timeout, 10.0)))
            self.restore_stage = "done"
        except AtRepl:
            # No R_ABORT: the app that stopped dropped what it staged.
            raise DeviceError(
                "%s during the restore: a restore is swapped in atomically, so the "
                "device holds its old campaign, or the new one if the commit was "
                "reached: `dicetray status` says which; restore again if it is "
                "the old" % STOPPED
            ) from None
        except BaseException:
            try:
                self._request(fr.R_ABORT, retries=0)
            except DeviceError:
                pass
            raise
        return self.last_info

    # --- campaign slots (docs/protocol.md, docs/store.md) ------------------------
    def _slot_request(
        self,
        typ: int,
        payload: bytes = b"",
        lacks: str = "keeps no list of its campaign slots",
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """A slot request's JSON answer; a firmware without the request
        is told to upgrade, naming what it `lacks`."""
        try:
            return json.loads(self._request(typ, payload, timeout))
        except DeviceError as e:
            if str(e).startswith("unknown request type"):
                raise DeviceError(
                    "this firmware %s (it answers: %s): upgrade the firmware (dicetray deploy)"
                    % (lacks, e)
                ) from None
            raise

    @_recovering
    def campaigns(self) -> dict[str, Any]:
        """The campaign slots on the device's flash, lowest first:
        {"current": slot, "block": 4096, "slots": [{"slot", "campaign",
        "system", "events", "bytes", "blocks", "current"}]} (bytes: the
        sum of the slot's file sizes; blocks: the littlefs blocks they
        take). Pages of SLOTS until the device says there is no next."""
        out: dict[str, Any] | None = None
        lo = 0
        while True:
            d = self._slot_request(fr.SLOTS, _ints(lo))
            if out is None:
                out = d
            else:
                out["slots"].extend(d["slots"])
            if d.get("next") is None:
                out.pop("next", None)
                return out
            lo = d["next"]

    @_recovering
    def screen(self) -> Screen:
        """What the tray shows now: {"width", "height", "fb": the display's
        framebuffer (MONO_VLSB bytes), "leds": 3 bytes R,G,B an LED of the
        ring}. A read: never cached on the device, never applied."""
        try:
            p = self._request(fr.SCREEN)
        except DeviceError as e:
            if str(e).startswith("unknown request type"):
                raise DeviceError(
                    "this firmware has no SCREEN request: it cannot show its "
                    "screen to the host (it answers: %s): upgrade the firmware "
                    "(dicetray deploy)" % e
                ) from None
            raise
        w, h, n = (p[0], p[1], p[2]) if len(p) >= 3 else (0, 0, 0)  # a short one: refused below
        size = w * h // 8
        if len(p) != 3 + size + 3 * n:
            raise DeviceError(
                "a SCREEN answer of %d bytes for %dx%d and %d LEDs: the firmware "
                "and the host tool disagree (upgrade both)" % (len(p), w, h, n)
            )
        return {"width": w, "height": h, "fb": p[3 : 3 + size], "leds": p[3 + size :]}

    def switch(self, slot: int) -> dict[str, Any]:
        """Make campaign slot `slot` current (it becomes the highest slot:
        its number changes, its campaign id does not); returns the device's
        new info. DeviceError: no such slot."""
        self.last_info = self._slot_request(fr.SWITCH, _ints(slot))
        self.head = self.last_info["events"]
        return self.last_info

    def delete(self, slot: int) -> dict[str, Any]:
        """Delete campaign slot `slot`, which must not be the current one;
        returns {"slot", "bytes", "blocks"}: what it held on flash."""
        return self._slot_request(fr.DELETE, _ints(slot))

    def new_campaign(self, system: int, name: str = "") -> dict[str, Any]:
        """Start a new campaign of rule system 0..2 (named `name`: its
        event 1), staged and swapped in as the device's Settings > New
        campaign does; the old one keeps its slot. Returns the device's new
        info. DeviceError: refused (the device's words: a system or a name
        its rules refuse), nothing made.

        At most once: NEW names the slot current now ("from"). A retry
        that reaches the device after it made the campaign (a reset lost
        the answer cache, or the app stopped and was restarted) is refused
        as stale, and the campaign this request made is returned; one that
        someone else made meanwhile (the keys) is an error, nothing made."""
        was = self.info()
        d = {"system": int(system), "name": name, "from": was["slot"]}
        stopped = 0
        for _ in range(RECOVER + 2):
            try:
                got = self._slot_request(
                    fr.NEW,
                    json.dumps(d).encode(),
                    "cannot start a campaign for the host",
                    max(self.timeout, 10.0),
                )
            except AtRepl:
                if not self.restart or stopped >= RECOVER:
                    raise
                stopped += 1
                now = self.recover()
                if now["slot"] != was["slot"]:
                    return self._made(now, d, was, True)
                continue  # the app stopped before it: ask again
            except DeviceError as e:
                if not str(e).startswith(_STALE_NEW):
                    raise
                return self._made(self.info(), d, was, self.tries > 1)
            self.last_info = got
            self.head = got["events"]
            return self.last_info
        raise DeviceError(
            "the app kept stopping while a new campaign was asked for: `dicetray "
            "campaigns` says whether it was made"
        )

    def _made(
        self, now: dict[str, Any], d: dict[str, Any], was: dict[str, Any], sent: bool
    ) -> dict[str, Any]:
        """`now`, the device's info after NEW `d` was refused as stale, if
        it is the campaign that NEW made (its system, name and events, in a
        slot above the old one); else DeviceError: another one came (`sent`:
        a try of NEW may have reached the device before it)."""
        if (
            now.get("system") == NAMES[d["system"]]
            and now.get("name", "") == d["name"]
            and now["events"] == (1 if d["name"] else 0)
            and now["slot"] > was["slot"]
        ):
            return now
        raise DeviceError(
            "the device's current campaign changed while a new one was asked for (campaign %s "
            "in slot %s, not slot %s): %s; `dicetray campaigns` lists them"
            % (
                now["campaign"],
                now["slot"],
                d["from"],
                "the new one may be among them" if sent else "nothing was made",
            )
        )

    def end_session(self) -> None:
        """Stop the app and leave the port to the REPL (for mpremote); the
        next Device.open restarts the app."""
        try:
            self._request(fr.END)
        except AtRepl:
            pass  # the REPL's prompt came with (or before) END's answer: ended as asked

    def close(self) -> None:
        self.t.close()

    def __enter__(self: _D) -> _D:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def wire(self) -> tuple[int, int]:
        """(bytes sent, bytes received) on the port so far."""
        return self.t.sent, self.t.received
