"""The reads of a tray's campaign (docs/protocol.md): its snapshot, its
chain head, and its events, from the device's RAM (EVENTS pages) or, for
older ones, from the journal on its flash as it is (SEGS, then LOGB or
LOG pages, a window of them in flight, each checked here by the store's
own record format: records.py). A read changes nothing on the device, so
a lost answer is simply asked again.
"""

import time
from collections import deque
from collections.abc import Callable
from struct import unpack_from
from typing import Any

from ..rules import batch
from . import frame as fr
from . import payloads
from .errors import DeviceError, JournalDamaged
from .records import records
from .session import Session, recovering
from .tray import Progress

READ_QUIET = 0.5  # a window of reads asks again after this long without a frame

# A read request for Reads._window: (type, payload) or, for LOG and LOGB,
# (type, payload, the (base, offset) of the segment pages it asks for).
_Read = tuple[int, bytes] | tuple[int, bytes, list[tuple[int, int]]]


def _plan(keys: list[tuple[int, int]], b: int, size: int) -> None:
    """In `keys`, the (base, offset) of the pages a LOGB request owes,
    segment b's first page becomes all of its pages, from its size."""
    for i, (kb, off) in enumerate(keys):
        if kb == b:
            n = max(1, -(-(size - off) // fr.LOG_PAGE))
            keys[i : i + 1] = [(b, off + k * fr.LOG_PAGE) for k in range(n)]
            return


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


class Reads(Session):
    """A session's reads: several in flight, re-asked by what the answers
    show was lost (Device adds the calls that change something)."""

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
                send((r[0], payloads.log_request(b, off, 1), [(b, off)]), r[4] + 1)

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
                self.keep_push(fp)
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

    @recovering
    def snapshot(self) -> tuple[int, bytes]:
        """(seq, encode_snapshot bytes) of the campaign after event seq, as it is now."""
        return self.drive(payloads.snapshot())

    @recovering
    def chain(self, seq: int) -> bytes | None:
        """The device's hash chain head after event `seq` (32 bytes), or
        None where the device does not know it (a campaign from firmware
        before the chain). The device knows it after its last event and
        after the snapshot it last sent (snapshot()); DeviceError for any
        other seq, and from firmware that predates the request."""
        p = self._request(fr.CHAIN, payloads.ints(seq))
        if p and len(p) != 32:
            raise DeviceError("the device answered a chain head of %d bytes, not 32" % len(p))
        return bytes(p) if p else None

    @recovering
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
            deque([(fr.EVENTS, payloads.events_request(cur)), (fr.SEGS, payloads.ints(cur))]),
            lambda typ, req, ans: first_page.__setitem__(typ, ans),
        )
        p = first_page[fr.EVENTS]
        while True:
            try:
                n, head, i = payloads.events_page(p, cur)
            except ValueError as e:
                raise DeviceError("the device %s" % e) from None
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
            p = self._request(fr.EVENTS, payloads.events_request(cur))

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
            p = self._request(fr.SEGS, payloads.ints(since))
        head, bases = payloads.segments(p)
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
                todo.append((fr.LOG, payloads.log_request(b, len(buf), 1), [(b, len(buf))]))
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
                todo.append((fr.LOGB, payloads.log_request(b, 0, 1), [(b, 0)]))
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
            todo.append((typ, payloads.log_request(run[0], 0, len(run)), [(b, 0) for b in run]))
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
