"""The device side of the link: reads request frames from the board's
serial port, answers them, pushes live events (docs/protocol.md).

`Link(app).poll()` runs once per app loop pass: it reads what waits on the
port (never blocking), answers every whole request in it and pushes new
events to a subscribed host; it returns True while the host is talking so
the loop polls fast. Actions from the host go through the session's do(),
like button presses: the answer leaves only once the event is on flash.

At most once: the last request's (seq, CRC) and its answer line are kept;
the same request again (a host retry) gets that line again and is not
applied again. Reads (LOG, LOGB, SCREEN) are the exception: a read changes
nothing, so it is answered afresh every time and never replaces the
cached answer; the host keeps a window of LOGs in flight, and the hub
asks for SCREEN between an ACT and its retry.
"""

import gc
import json
from binascii import crc32, hexlify, unhexlify
from struct import pack, pack_into, unpack_from

from . import frame as fr
from rules import campaign as cp
from rules import codec
from rules.systems import NAMES
from session import BLOCK

FIRMWARE = "0.1.0"
QUIET_MS = 250     # the loop polls fast this long after the host's last frame
PUSH_MAX = 4       # event frames pushed per loop pass (the port drops a flood)
# LOG pages answered per loop pass; more wait for the next pass, in order
# (the keys and the screen get their turn). On the simulator the number is
# what its heap has room for: it collects garbage only between passes
# (simboard/desktop.py GC_HEADROOM), a text page and its host calls take 43 KB
# of it, and a pass stops while SIM_SPARE is still free. The spare is
# large because free is not room: with 123 KB free, in holes between the
# garbage of earlier passes, a page's 5.5 KB found no place (measured
# under load; tests/host/test_link_window.py).
PAGES_MAX = 8
SIM_PAGE = 48 * 1024
SIM_SPARE = 160 * 1024
TICKS_MASK = (1 << 30) - 1
SLOTS_PAGE = 24    # campaign slots per SLOTS answer (~120 bytes of JSON each)
LOG_ANSWER = fr.LOG | fr.ANSWER
LOGB_ANSWER = fr.LOGB | fr.ANSWER
_FREE = getattr(gc, "mem_free", None)


class _Full(Exception):
    """A page is full: stops a journal scan early."""


def _room():
    return fr.MAX_ANS_PAYLOAD - 16  # an events or snapshot page, after its varints


class Link:
    """The link on `port` (default: the board's serial) for App `app`."""

    def __init__(self, app, port=None, rx=None):
        self.app = app
        self.s = app.s
        self.port = port if port is not None else app.b.serial
        self.rx = rx if rx is not None else bytearray(128)  # link.waiting hands its buffer over
        self.lines = fr.Lines(fr.MAX_REQ)
        self.kseq = -1         # the last request: seq and CRC of its text...
        self.kcrc = 0
        self.last = None       # ...and its answer line
        self.t = -QUIET_MS     # ticks of the host's last frame
        self.bad = 0           # frames dropped: torn, corrupt or too long
        self.retried = 0       # requests answered from the cache
        self.sub = False
        self.pushed = 0        # last event seq pushed to the subscriber
        self.snap = None       # (seq, bytes) served page by page
        self.stage = None      # a restore in progress (see _r_begin)
        self.clock = None      # (unix seconds, ticks) of the last clock set
        self.ending = False
        self._id = None
        # An events collection in progress (_collect, _take): attributes,
        # not locals, so the frames stay small. The journal is read through
        # the store's reader (store/paging.py), which keeps the scan's
        # cursor, the segment list and their paths.
        self._croom = self._cn = self._cmost = 0
        self._cout = bytearray()
        self._rd = None        # the store's Reader, asked for at the first page
        self._page = None      # fr.Page for LOG and LOGB answers, made on the first...
        self._pdata = None     # ...and the views of it a segment is read into (LOG...
        self._bdata = None     # ...and LOGB)
        self._paged = 0        # LOG pages answered in this loop pass...
        self._pages = -1       # ...and how many it may (-1: not counted yet)
        self._scr = None       # fr.Page for SCREEN answers, made on the first
        self._later = []       # (seq, payload, type, text): what waits for the next pass
        # The simulator's heap is collected between passes only: its pages
        # a pass are counted from the free heap (_page_room).
        self._sim = app.b.name == "sim"

    # --- the loop ---------------------------------------------------------------
    def poll(self, n=0):
        """Serve the port once; True while the host is active. n: bytes
        already read into self.rx (the first ones, from link.waiting)."""
        now = self.app.b.ticks_ms()
        self._paged = 0
        self._pages = -1
        if self._later:
            self._serve_later()
        if not n and not self._later:
            n = self.port.read_into(self.rx)
        if n:
            self.t = now
            self._take_in(n)
        if self.sub and self.pushed < self.s.st.seq:
            self._push()
        if self.ending:
            self.ending = False
            self.app.live = False   # App.run returns: main.py ends, the REPL takes the port
        return ((now - self.t) & TICKS_MASK) < QUIET_MS

    # Every pass calls poll and a LOG page goes through the functions below
    # it: each keeps its frame within the 11 words MicroPython puts on the C
    # stack (a bigger one is a heap allocation per call, ~0.7 ms on the rp2
    # port in a fragmented heap, and on the simulator a frame its collector
    # can free under it: docs/architecture.md).
    def _take_in(self, n):
        """Answer the requests in the n bytes read, and in what follows them."""
        k = 0
        while n:
            self.lines.push(self.rx, n, self._line)
            k += 1
            if k >= 8 or self._later:
                break
            n = self.port.read_into(self.rx)

    def _line(self, text):
        if text is None:
            self._too_long()
            return
        f = self._decode(text)
        if f is None or f[0] & fr.ANSWER:
            return             # torn or corrupt (the host retries), or our own echoed back
        if self._later:        # behind pages that wait for the next pass: in order
            self._later.append((f[1], f[2], f[0], bytes(text)))
        elif f[0] == fr.LOG or f[0] == fr.LOGB:  # a read: answered afresh, the cache left as it is
            self._log(f[1], f[2], f[0])
        elif f[0] == fr.SCREEN:  # the same: a page asks often, between an ACT and its retry
            self._screen(f[1])
        else:
            self._answer(text, f[0], f[1], f[2])

    def _decode(self, text):
        try:
            return fr.decode(text)
        except ValueError:
            self.bad += 1      # torn or corrupt: the host retries after its timeout
            return None

    def _too_long(self):
        self.bad += 1
        self.port.write(fr.encode(fr.ERR, 0, ("request frame longer than %d bytes refused"
                                               % fr.MAX_REQ).encode()))

    def _answer(self, text, typ, seq, p):
        k = crc32(text)
        if seq == self.kseq and k == self.kcrc and self.last is not None:
            self.retried += 1
            self.port.write(self.last)
            return
        try:
            line = fr.encode(typ | fr.ANSWER, seq, self._dispatch(typ, p))
        except ValueError as e:
            # Every refusal has words: a bare ValueError (MicroPython's
            # UnicodeError has none) is named by its type and the request.
            line = self._err(seq, str(e) or "%s in request 0x%02x" % (type(e).__name__, typ))
        except OSError as e:
            line = self._err(seq, "flash error: %s" % e)
        self.kseq = seq
        self.kcrc = k
        self.last = line
        self.port.write(line)

    def _serve_later(self):
        """The LOG pages a full pass left, first (before reading more)."""
        later = self._later
        while later and self._page_room():
            seq, p, typ, text = later.pop(0)
            if typ == fr.LOG or typ == fr.LOGB:
                self._pages_of(seq, p, True, typ)
            elif typ == fr.SCREEN:
                self._screen(seq)
            else:
                self._answer(text, typ, seq, p)

    def _page_room(self):
        """Whether this pass has room for one more LOG page."""
        if self._pages < 0:
            self._pages = PAGES_MAX
            if self._sim:
                self._pages = max(1, min(PAGES_MAX, (gc.mem_free() - SIM_SPARE) // SIM_PAGE))
        return self._paged < self._pages

    def _screen(self, seq):
        """SCREEN: the display's framebuffer and the ring's colours as the
        app last wrote them (App.rgb; zeros before its first frame). Built
        in a page kept for it, as the hub asks every second: the base64
        text is then a board's one allocation of size."""
        d = self.app.b.display
        rgb = self.app.rgb
        n = len(d.buffer)
        pg = self._scr
        if pg is None:
            pg = self._scr = fr.Page(3 + n + len(rgb))
        b = pg.body
        k = fr.HEAD            # the payload: width, height, LEDs, framebuffer, R,G,B
        b[k] = d.width
        b[k + 1] = d.height
        b[k + 2] = len(rgb) // 3
        b[k + 3:k + 3 + n] = d.buffer
        b[k + 3 + n:len(b) - fr.CRC] = rgb
        text = pg.text(fr.SCREEN | fr.ANSWER, seq, 3 + n + len(rgb))
        self.port.write(b"#")
        self.port.write(text)

    def _err(self, seq, msg):
        return fr.encode(fr.ERR, seq, msg.encode()[:fr.MAX_ANS_PAYLOAD])

    def _dispatch(self, typ, p):
        if typ == fr.INFO:
            if p == b"gc":
                gc.collect()  # heap_free is then what the live data leaves
            return self._info(p == b"gc" or p == b"heap")
        if typ == fr.EVENTS:
            return self._events(p)
        if typ == fr.SEGS:
            return self._segments(p)
        if typ == fr.SNAP:
            return self._snap(p)
        if typ == fr.CHAIN:
            return self._chain(p)
        if typ == fr.ACT:
            return self._act(p)
        if typ == fr.HELLO:
            return self._hello(p)
        if typ == fr.SUB:
            since = codec.get_int(p, 0)[0]
            head = self.s.st.seq
            if since > head or (since >= 0 and since < self._first() - 1):
                raise ValueError("subscribe since %d: the device holds events %d..%d"
                                 % (since, self._first(), head))
            self.sub = True
            self.pushed = head if since < 0 else since
            return _ints(head)
        if typ == fr.UNSUB:
            self.sub = False
            return b""
        if typ == fr.CLOCK:
            try:
                t = json.loads(bytes(p))["unix"]
            except (ValueError, KeyError, TypeError):
                raise ValueError("CLOCK needs JSON {\"unix\": seconds}")
            self.clock = (t, self.app.b.ticks_ms())
            return b""
        if typ == fr.R_BEGIN:
            return self._r_begin(p)
        if typ == fr.R_SNAP:
            return self._r_snap(p)
        if typ == fr.R_EVENTS:
            return self._r_events(p)
        if typ == fr.R_COMMIT:
            return self._r_commit()
        if typ == fr.R_ABORT:
            self._r_abort()
            return b""
        if typ == fr.SLOTS:
            return self._slots(p)
        if typ == fr.SWITCH:
            return self._switch(p)
        if typ == fr.DELETE:
            return self._delete(p)
        if typ == fr.NEW:
            return self._new(p)
        if typ == fr.END:
            self._r_abort()
            self._later.clear()
            self.sub = False
            self.s.st.close()
            self.ending = True
            return b""
        raise ValueError("unknown request type %d: this firmware speaks protocol %d "
                         "(upgrade the firmware if the host is newer)" % (typ, fr.PROTOCOL))

    # --- requests ---------------------------------------------------------------
    def _hello(self, p):
        try:
            d = json.loads(bytes(p))
            proto = d["protocol"]
        except (ValueError, KeyError, TypeError):
            raise ValueError("HELLO needs JSON {\"protocol\": n}")
        if proto != fr.PROTOCOL:
            raise ValueError("protocol mismatch: the host speaks %d, this firmware %d: upgrade the %s"
                             % (proto, fr.PROTOCOL, "firmware (dicetray deploy)" if proto > fr.PROTOCOL
                                else "host tool (pip install -U dicetray)"))
        self.sub = False
        self._later.clear()    # what an earlier host left unanswered
        self._r_abort()
        return self._info()

    def info(self):
        """The handshake/info fields (a dict)."""
        st = self.s.st
        c = self.s.c
        d = {"device": self.device_id(), "firmware": FIRMWARE, "protocol": fr.PROTOCOL,
             "schema": codec.VERSION, "system": NAMES[c.system], "campaign": c.cid,
             "events": st.seq, "first": self._first(), "keep": st.keep, "slot": self.s.n, "bad": self.bad,
             "head": _hex(st.head), "retried": self.retried, "board": self.app.b.name,
             "name": c.name}
        # The scrub's last whole cycle (store/scrub.py): the events whose
        # chain it checked from a recorded head to the device's, or a break.
        sc = getattr(st, "scrubbed", None) or (0, -1, -1, True)
        d["scrub"] = {"cycles": sc[0], "broken": not sc[3],
                      "chain": [sc[1], sc[2]] if sc[3] and 0 < sc[1] <= sc[2] else None}
        for w in self.s.warnings:   # what the boot (or the scrub since) found damaged, as the screen said
            if w[0] == "STORE DAMAGE":
                d["damage"] = d.get("damage", []) + w[1].split("\n")
        if self.clock is not None:
            d["clock"] = self.clock[0] + ((self.app.b.ticks_ms() - self.clock[1]) & TICKS_MASK) // 1000
        return d

    def _info(self, heap=False):
        """The info JSON; with the heap's figures if asked (gc.mem_free and
        mem_alloc each walk the heap: 18 ms on a board, too dear for every
        HELLO and INFO)."""
        d = self.info()
        if heap and _FREE is not None:  # MicroPython's gc; CPython's (host tests) has none
            d["heap_free"] = _FREE()
            d["heap_used"] = gc.mem_alloc()
            low = getattr(self.app.b, "low", -1)   # a board that watches its collections
            if low >= 0:
                d["heap_low"] = low
        return json.dumps(d).encode()

    def device_id(self):
        """The device's id (deviceid.py), asked for once."""
        if self._id is None:
            from deviceid import get
            self._id = get(self.s)
        return self._id

    def _snap(self, p):
        off = codec.get_int(p, 0)[0]
        if off == 0 or self.snap is None:
            st = self.s.st
            self.snap = (st.seq, cp.encode_snapshot(self.s.c), st.head)
        seq, data = self.snap[0], self.snap[1]
        if not 0 <= off <= len(data):
            raise ValueError("snapshot offset %d is outside 0..%d" % (off, len(data)))
        out = bytearray(_ints(seq, len(data), off))
        out.extend(data[off:off + _room()])
        return out

    def _chain(self, p):
        """CHAIN: the hash chain's head after event `seq` (32 bytes; empty:
        unknown). The device knows it now, at the snapshot it last sent,
        and at the base of a journal segment it holds where it recorded
        one (store/anchors.py): the oldest's lets the host chain every
        event the device holds."""
        seq = codec.get_int(p, 0)[0]
        st = self.s.st
        h = None
        if seq == st.seq:
            h = st.head
        elif self.snap is not None and seq == self.snap[0]:
            h = self.snap[2]
        elif seq in self._segs():
            h = st.head_at(seq)
            if h is None:
                raise ValueError("the device recorded no chain head after event %d" % seq)
        else:
            raise ValueError("the device knows its chain's head after event %d (its last)%s, "
                             "and at its journal segments' bases, not after %d"
                             % (st.seq, "" if self.snap is None else
                                " and %d (its snapshot)" % self.snap[0], seq))
        return b"" if h is None else h

    def _since(self, p):
        """(since, index after it) of a request naming the last event the
        host has; ValueError if the device cannot serve what follows it."""
        since, i = codec.get_int(p, 0)
        head = self.s.st.seq
        first = self._first()
        if since < first - 1:
            raise ValueError("events %d..%d are no longer on the device (its journal starts "
                             "at %d): back up from %d" % (since + 1, first - 1, first, first - 1))
        if since > head:
            raise ValueError("since %d is beyond the device's last event %d" % (since, head))
        return since, i

    def _events(self, p):
        since, i = self._since(p)
        head = self.s.st.seq
        flags = codec.get_int(p, i)[0] if i < len(p) else 0
        out = bytearray()
        if flags & fr.EV_RAM and head - since > self._in_ram():
            n = 0        # not all in RAM: the host reads the journal (SEGS, LOG)
        else:
            n = self._collect(since, _room(), out, 255)
        return _ints(since + 1, n, head) + out

    def _in_ram(self):
        return len(self.s.c.events) if self.s.c.journal else 0

    def _segments(self, p):
        """The journal segments that hold the events after `since`: their
        bases, oldest first (a segment holds the events after its base up
        to the next one's, the last up to the head)."""
        since = self._since(p)[0]
        segs = self._segs()
        head = self.s.st.seq
        k = 0
        while k + 1 < len(segs) and segs[k + 1] <= since:
            k += 1
        n = len(segs) - k if since < head else 0
        out = bytearray(_ints(head, n))
        prev = 0
        for j in range(k, k + n):
            codec.put_int(out, segs[j] - prev)
            prev = segs[j]
        return out

    def _log(self, seq, p, typ):
        """LOG: base u32, offset u32, count u8: a page of each of `count`
        journal segments from `base` on (the first from `offset`, the
        others from their start), one frame each; LOGB: the same request,
        every page of each segment, binary frames. As long as this pass
        has room (the rest waits in self._later, in order)."""
        if len(p) != 9 or not p[8]:
            self.port.write(self._err(seq, "LOG needs base u32, offset u32, count u8 >= 1"))
        else:
            self._pages_of(seq, p, False, typ)

    def _segment(self, seq, b):
        """Whether segment b is on the device (else the ERR is sent); the
        page made at the first."""
        if b not in self._segs():
            self.port.write(self._err(seq, "journal segment %d is not on the device (compacted "
                                           "since?): list them again (SEGS)" % b))
            return False
        if self._page is None:
            pg = self._page = fr.Page(12 + fr.LOG_PAGE)
            self._pdata = pg.mv[fr.HEAD + 8:fr.HEAD + 8 + fr.LOG_PAGE]
            self._bdata = pg.mv[fr.HEAD + 12:fr.HEAD + 12 + fr.LOG_PAGE]
        return True

    def _pages_of(self, seq, p, front, typ):
        """The pages a LOG or LOGB asks for, segment by segment while the
        pass has room; the rest waits in self._later, in order."""
        b, off, count = unpack_from("<IIB", p)
        if not self._segment(seq, b):
            return
        segs = self._segs()
        i = segs.index(b)
        try:
            while count and i < len(segs):
                if self._page_room():
                    if typ == fr.LOG:
                        off = self._page_out(seq, segs[i], off)
                    else:
                        off = self._binary_segment(seq, segs[i], off)
                if off >= 0:   # the pass is full
                    p = pack("<IIB", segs[i], off, count)
                    self._later.insert(0 if front else len(self._later), (seq, p, typ, None))
                    return
                off = 0
                count -= 1
                i += 1
        except OSError as e:
            self.port.write(self._err(seq, "flash error: %s" % e))

    def _binary_segment(self, seq, b, off):
        """LOGB: the pages of segment b from off through one open of its
        file (2.5 ms of littlefs on a board: docs/protocol.md), while the
        pass has room: -1 once its last is sent, else the offset it
        stopped at."""
        f = self._reader().open(b)
        try:
            size = f.seek(0, 2)
            f.seek(off)
            while self._page_room():
                self._paged += 1
                off += self._binary_page(seq, f, b, off, size)
                if off >= size:
                    return -1
            return off
        finally:
            f.close()

    def _binary_page(self, seq, f, b, off, size):
        """One LOGB frame: base u32, offset u32, size u32 (the segment's,
        when opened), then its bytes from off; how many."""
        n = f.readinto(self._bdata) or 0
        pack_into("<III", self._page.body, fr.HEAD, b, off, size)
        self.port.write(self._page.binary(LOGB_ANSWER, seq, 12 + n))
        return n

    def _page_out(self, seq, b, off):
        """The LOG frame of segment b from off: base u32, offset u32 and
        the segment's bytes from there, LOG_PAGE at most (fewer: its end);
        -1: the segment is done (as _binary_segment says)."""
        self._paged += 1
        n = self._read_page(b, off)
        text = self._page.text(LOG_ANSWER, seq, n)
        self.port.write(b"#")
        self.port.write(text)
        return -1

    def _read_page(self, b, off):
        pack_into("<II", self._page.body, fr.HEAD, b, off)
        return 8 + self._reader().read(b, off, self._pdata)

    def _collect(self, since, room, out, most):
        """Append (varint len, event) of events since+1.. to out while they
        fit in `room` bytes (at most `most`); returns how many."""
        evs = self.s.c.events if self.s.c.journal else ()
        back = self.s.st.seq - since
        if back <= len(evs):  # the recent ones are in RAM
            return self._from_ram(evs, len(evs) - back, room, out, most)
        # Small frames and few locals from here on: a collection in the
        # simulator must never find a big frame active (simboard/desktop.py).
        self._croom = room
        self._cout = out
        self._cn = 0
        self._cmost = most
        try:
            for b in self._segs():   # the store's reader, current: self._rd
                if b >= self._start(since):
                    self._rd.scan(b, since, self._take)
        except _Full:
            pass
        self._cout = bytearray()
        return self._cn

    def _from_ram(self, evs, i, room, out, most):
        n = 0
        while i < len(evs) and n < most and len(out) + len(evs[i]) + 2 <= room:
            codec.put_int(out, len(evs[i]))
            out.extend(evs[i])
            n += 1
            i += 1
        return n

    def _start(self, since):
        start = 0
        for b in self._segs():
            if b <= since:
                start = b
        return start

    def _segs(self):
        """The store's journal segment bases, oldest first (its reader
        lists them again only when they may have changed)."""
        return self._reader().segments()

    def _reader(self):
        """The store's journal reader (Store.paging), one per store: a
        campaign switched to brings its own."""
        st = self.s.st
        rd = self._rd
        if rd is None or rd.st is not st:
            rd = self._rd = st.paging()
        return rd

    def _first(self):
        segs = self._segs()
        seq = self.s.st.seq
        return (segs[0] if segs and segs[0] < seq else seq) + 1

    def _take(self, ev):
        out = self._cout
        if len(out) + len(ev) + 2 > self._croom or self._cn >= self._cmost:
            raise _Full()  # the reader's cursor stays before this record
        codec.put_int(out, len(ev))
        out.extend(ev)
        self._cn += 1

    def _push(self):
        for _ in range(PUSH_MAX):
            if self.pushed >= self.s.st.seq:
                return
            out = bytearray(_ints(self.pushed + 1))
            k = len(out)
            if not self._collect(self.pushed, fr.MAX_ANS_PAYLOAD, out, 1):
                return
            n, i = codec.get_int(out, k)   # drop the length: a push holds one event
            self.pushed += 1
            self.port.write(fr.encode(fr.PUSH, 0, out[:k] + out[i:]))

    def _act(self, p):
        try:
            d = json.loads(bytes(p))
            kind = d["kind"]
            args = d.get("args", ())
            text = d.get("text", "")
            faces = d.get("faces")
            after = d.get("after")
        except (ValueError, KeyError, TypeError, AttributeError):
            raise ValueError("ACT needs JSON {\"kind\": n, \"args\": [..], \"text\": s}")
        if after is not None and after != self.s.st.seq:
            # The host acts on the journal as it last saw it: not if an
            # event came in between (the keys, or this very request before
            # a reset made the device forget its answer: docs/protocol.md).
            raise ValueError("stale: the device is at event %d, not %s" % (self.s.st.seq, after))
        if not isinstance(kind, int) or not isinstance(text, str):
            raise ValueError("ACT kind must be an int and text a string")
        for a in args:
            if not isinstance(a, int):
                raise ValueError("ACT args must be ints")
        if faces is not None:
            faces = bytes(faces)
        out = self.s.do(kind, args, text, faces)   # on flash when it returns
        self.app.applied(kind, out)
        return json.dumps({"seq": self.s.st.seq, "kind": out.kind, "successes": out.successes,
                           "verdict": out.verdict, "margin": out.margin,
                           "faces": list(out.faces), "notes": out.notes,
                           "hidden": out.hidden}).encode()

    # --- restore (the session stages it: staging.py) -----------------------------
    def _r_begin(self, p):
        try:
            d = json.loads(bytes(p))
            seq, first, count, size, crc = d["seq"], d["first"], d["count"], d["size"], d["crc"]
            head = d.get("head")   # the chain's head after seq (a restore from past event 1)
            if head is not None:
                head = unhexlify(head)
                if len(head) != 32:
                    raise ValueError
        except (ValueError, KeyError, TypeError):
            raise ValueError("R_BEGIN needs JSON {seq, first, count, size, crc[, head: 64 hex]}")
        self._r_abort()
        from staging import Restore   # the session's: loaded at the first restore
        self.stage = Restore(self.s, seq, first, count, size, crc, head)
        return _ints(self.stage.n)

    def _stage(self):
        g = self.stage
        if g is None:
            raise ValueError("no restore in progress: send R_BEGIN first")
        return g

    def _r_snap(self, p):
        off, i = codec.get_int(p, 0)
        return _ints(self._stage().snapshot(off, p[i:]))

    def _r_events(self, p):
        g = self._stage()
        idx, i = codec.get_int(p, 0)
        evs = []
        while i < len(p):
            m, i = codec.get_int(p, i)
            ev = bytes(p[i:i + m])
            i += m
            if len(ev) != m:
                raise ValueError("restore event %d is cut short" % (idx + len(evs)))
            evs.append(ev)
        g.events(idx, evs)
        return _ints(g.next)

    def _r_commit(self):
        self._stage().commit()
        self.stage = None
        self.snap = None
        self.pushed = self.s.st.seq
        self.app.restored()
        return self._info()

    def _r_abort(self):
        g = self.stage
        self.stage = None
        if g is not None:
            g.abort()

    # --- campaign slots (the session does the work: session.py, store/slots.py) --
    def _slots(self, p):
        lo = codec.get_int(p, 0)[0] if p else 0
        got, nxt = self.s.campaigns(lo, SLOTS_PAGE)
        out = []
        for n, cid, sysno, events, size, blocks, name in got:
            out.append({"slot": n, "campaign": cid, "events": events, "bytes": size,
                        "blocks": blocks, "current": n == self.s.n, "name": name,
                        "system": NAMES[sysno] if 0 <= sysno < len(NAMES) else None})
        return json.dumps({"current": self.s.n, "slots": out, "block": BLOCK,
                           "next": nxt if nxt >= 0 else None}).encode()

    def _switch(self, p):
        self._r_abort()   # a staged restore was for the slot after the old current one
        if self.s.switch(codec.get_int(p, 0)[0]):
            self.snap = None
            self.pushed = self.s.st.seq
            self.app.restored("Switched")
        return self._info()

    def _new(self, p):
        """NEW: a new campaign, as Settings > New campaign makes one (the
        session stages and swaps it in; the old one keeps its slot).
        "from": the slot the host saw current; another one now (this
        request applied before a reset made the device forget its answer:
        every new campaign, switch and restore takes a higher slot) is
        refused as stale, so a retry never makes a second."""
        try:
            d = json.loads(bytes(p))
            system = d["system"]
            name = d.get("name", "")
            was = d.get("from")
        except (ValueError, KeyError, TypeError, AttributeError):
            raise ValueError("NEW needs JSON {\"system\": 0..2, \"name\": s, \"from\": slot}")
        if not isinstance(system, int) or not isinstance(name, str):
            raise ValueError("NEW system must be an int and name a string")
        if was is not None and was != self.s.n:
            raise ValueError("stale: the current campaign is slot %d, not %s" % (self.s.n, was))
        self._r_abort()   # a staged restore was for the slot the new campaign takes
        from staging import new_campaign   # the session's: loaded now
        new_campaign(self.s, system, name)
        self.snap = None
        self.pushed = self.s.st.seq
        self.app.restored("New campaign")
        return self._info()

    def _delete(self, p):
        n = codec.get_int(p, 0)[0]
        size, blocks = self.s.delete(n)
        self.app.top().refresh()   # a Campaigns screen lists it no more
        self.app.dirty = True
        return json.dumps({"slot": n, "bytes": size, "blocks": blocks}).encode()


def _hex(h):
    return None if h is None else hexlify(h).decode()


def _ints(*vals):
    out = bytearray()
    for v in vals:
        codec.put_int(out, v)
    return out

