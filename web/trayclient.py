"""The page's client for a real tray (docs/simulator.md, "Connect a tray").

It runs in the page's MicroPython, beside the page's own tray, and speaks
the tray's link protocol (docs/protocol.md) with the firmware's own
modules: `link.frame` (the frame codec the host imports too), `rules`
(codec, snapshots, the fold a restore is checked with) and
`store.journal` (the scanner that checks every journal record of a LOG
page, as the device's boot does); and with the host's own, which the
site loads beside this module: `payloads` (host/dicetray/link/payloads.py:
the requests and answers as bytes, the snapshot's pages read) and
`eventsdigest` (host/dicetray/backup/eventsdigest.py: the events digest).
The page's JavaScript only moves bytes between the Web Serial port and
this module:

    c = Client(seed)
    c.start("backup")                # or "connect", "status", "check", "restore"
    r = c.step()                     # JSON: {"wait": ms} | {"done": result} | {"error": why}
    c.take()                         # base64 of the bytes to write to the port now
    c.feed(b64)                      # base64 of bytes read from the port

A tab cannot block, so every operation is a generator: it yields the ms
it can wait for an answer, and the page resumes it when bytes come in or
that time is up. Nothing here is named like a firmware module (the page's
MicroPython runs the page's tray from the same sys.modules).

The backup file (format "dicetray-backup", version 1) is written and
checked here: see FORMAT below and docs/simulator.md.
"""

import hashlib
import io
import json
import time
from binascii import a2b_base64, b2a_base64, crc32, hexlify
from struct import pack

import payloads
from eventsdigest import events_digest
from link import frame as fr
from rules import campaign as cp
from rules import batch, codec
from rules.systems import NAMES
from store import chain, journal

FORMAT = "dicetray-backup"
VERSION = 1
HOST = "web-page"     # what HELLO says the host is
TIMEOUT_MS = 2000     # each answer (the host tool's default)
RETRIES = 4
BOOT_MS = 15000       # a restarted app may take this long to answer
COMMIT_MS = 10000     # R_COMMIT refolds and verifies on the device
BREATHE = 200         # events folded or hashed between two yields to the page


class TrayError(Exception):
    """What went wrong, in words, with what to do."""


class AtRepl(TrayError):
    """The tray sits at the MicroPython REPL: its app is not running."""


def _b64(data):
    return b2a_base64(data)[:-1].decode()


def _unb64(text, what):
    try:
        return a2b_base64(text.encode())
    except Exception:
        raise TrayError("%s is not base64: the file is damaged" % what)


def _hex(h):
    return hexlify(h.digest()).decode()


def sha256(data):
    return _hex(hashlib.sha256(data))


def _text(p):
    try:
        return bytes(p).decode()
    except Exception:
        return repr(bytes(p))


def unpack_events(p, i, n):
    try:
        return batch.unpack(p, i, n)
    except ValueError as e:
        raise TrayError("the tray sent %s" % e)


class _Segment:
    """The store's fs interface over one journal segment read in LOG pages,
    so the firmware's own scanner checks its records."""

    def __init__(self, data):
        self.data = data

    def open(self, path, mode):
        return io.BytesIO(self.data)


def status_lines(info):
    """What `dicetray status -v` prints (host/dicetray/cli/status.py) of
    the device's info: its campaign and journal in the same words; the
    device's own numbers (the page knows no port and no backup database)."""
    last = info.get("events") or 0
    out = ["device    %s (firmware %s, protocol %s, schema %s)" % (
        info.get("device"), info.get("firmware"), info.get("protocol"), info.get("schema")),
        "campaign  %s%s (%s), %d event%s" % (
            info.get("campaign"), " " + info["name"] if info.get("name") else "",
            info.get("system"), last, "" if last == 1 else "s")]
    first = info.get("first", 1)
    if first > 1:
        out.append("journal   it holds events %d..%s: %s compacted" % (
            first, last, "event 1 was" if first == 2 else "events 1..%d were" % (first - 1)))
    if "heap_free" in info:
        out.append("heap      %d bytes free, %d used" % (info["heap_free"], info["heap_used"]))
    for line in info.get("damage", ()):
        out.append("damage    " + line)
    if info.get("head") is not None:
        h = info["head"]
        out.append("head      %s" % (h if isinstance(h, (str, int)) else json.dumps(h)))
    return out


def _hexs(b):
    return hexlify(b).decode()


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


class Backup:
    """A backup file, checked (Backup.load): the campaign and what a restore sends."""

    def __init__(self, doc):
        self.doc = doc
        self.system = doc["system"]
        self.sysno = NAMES.index(self.system)
        self.cid = doc["campaign"]
        self.first = doc["first"]
        self.last = doc["last"]
        self.events = []
        self.snap = None       # encode_snapshot after `last`, as the tray gave it
        self.state = None      # encode_state after `last`
        self.payload = None    # (snapshot, events, seq, first) for the restore


def _need(doc, key, kind, what):
    v = doc.get(key)
    if not isinstance(v, kind) or isinstance(v, bool):
        raise TrayError("the file has no %s (%r): it is not a whole backup file" % (what, key))
    return v


def load(text):
    """Generator: check a backup file's text as a restore needs it;
    returns a Backup. TrayError names what is wrong (nothing is sent)."""
    try:
        doc = json.loads(text)
    except Exception:
        raise TrayError("not a Dicetray backup file: it is not JSON (damaged or cut short?)")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        if isinstance(doc, dict) and doc.get("format") == "dicetray-flash":
            raise TrayError("this is a flash export of the page's own tray (Import flash takes it), "
                            "not a backup of a tray")
        raise TrayError("not a Dicetray backup file (format %s)" % FORMAT)
    if doc.get("version") != VERSION:
        raise TrayError("a backup file of version %r: this page reads version %d (a newer page "
                        "may read it)" % (doc.get("version"), VERSION))
    schema = _need(doc, "schema", int, "state schema")
    if schema != codec.VERSION:
        raise TrayError("the file has state schema %d, this page's firmware %d: use a page and a "
                        "tray of the same firmware" % (schema, codec.VERSION))
    if doc.get("system") not in NAMES:
        raise TrayError("the file names no rule system this firmware has (%r; it has %s)"
                        % (doc.get("system"), ", ".join(NAMES)))
    _need(doc, "campaign", int, "campaign id")
    first = _need(doc, "first", int, "first event")
    last = _need(doc, "last", int, "last event")
    evs = _need(doc, "events", list, "events")
    if first < 1 or last != first - 1 + len(evs):
        raise TrayError("the file says events %d..%d but holds %s: it is damaged"
                        % (first, last, _plural(len(evs), "event")))
    b = Backup(doc)
    for i, e in enumerate(evs):
        if not isinstance(e, str):
            raise TrayError("event %d in the file is not text: it is damaged" % (first + i))
        b.events.append(_unb64(e, "event %d" % (first + i)))
    yield 0
    if events_digest(first, b.events) != doc.get("events_sha256"):
        raise TrayError("the file's events do not match their digest (events_sha256): the file "
                        "is damaged or was edited")
    sn = _need(doc, "snapshot", dict, "snapshot")
    data = _unb64(_need(sn, "data", str, "snapshot data"), "the snapshot")
    if crc32(data) & 0xFFFFFFFF != sn.get("crc32"):
        raise TrayError("the file's snapshot fails its CRC (snapshot.crc32): the file is damaged")
    try:
        c = cp.decode_snapshot(data, None, False)
    except ValueError as e:
        raise TrayError("the file's snapshot does not decode (%s): the file is damaged" % e)
    if (c.system, c.cid, c.nevents) != (b.sysno, b.cid, last) or sn.get("seq") != last:
        raise TrayError("the file's snapshot is of campaign %d (%s) after event %d, the file says "
                        "%d (%s) after %d: it is damaged" % (c.cid, NAMES[c.system], c.nevents,
                                                             b.cid, b.system, last))
    b.snap = data
    b.state = cp.encode_state(c)
    if sha256(b.state) != doc.get("state_sha256"):
        raise TrayError("the file's state does not match its digest (state_sha256): the file is "
                        "damaged or was edited")
    if first == 1:
        # The whole history: fold it as the tray will (a new campaign, the
        # device's undo window) and require the file's state at its end.
        f = cp.Campaign(b.sysno, b.cid, cp.UNDO_DEPTH, False)
        for i, ev in enumerate(b.events):
            try:
                f.apply(ev)
            except ValueError as e:
                raise TrayError("event %d in the file does not apply (%s): the file is damaged"
                                % (i + 1, e))
            if i % BREATHE == BREATHE - 1:
                yield 0
        if cp.encode_state(f) != b.state:
            raise TrayError("the file's events do not fold to its snapshot: the file is damaged")
        head = doc.get("head")
        if head is not None:
            yield 0
            if _hexs(chain.over(chain.ZERO, 1, b.events)) != head:
                raise TrayError("the file's events do not match its hash chain's head (head): the "
                                "file is damaged or was edited")
        b.payload = (cp.encode_snapshot(f), b.events, last, 1)
    else:
        # The tray had compacted events 1..first-1: the file's snapshot is
        # the base, and its events are history (as the host's restore of a
        # baseline backup: docs/backup.md).
        for i, ev in enumerate(b.events):
            try:
                codec.decode_event(ev)
            except ValueError as e:
                raise TrayError("event %d in the file does not decode (%s): the file is damaged"
                                % (first + i, e))
        b.payload = (data, [], last, last + 1)
    return b


class Client:
    """The link to one tray (see the module's docstring)."""

    def __init__(self, seed=1):
        self.lines = fr.Lines(fr.MAX_ANS + 64)
        self.frames = []
        self.out = bytearray()
        self.seq = seed % 0xFFFF
        self.tail = b""
        self.repl = False
        self.op = None
        self.info = None
        self.pending = None     # (Backup, the tray as the plan saw it) for "restore"
        self.timeout = TIMEOUT_MS
        self.retries = RETRIES
        self.sent = 0
        self.received = 0
        self.counts = {}        # requests sent, by type (tests look at LOG)

    # --- bytes in and out: the page moves them --------------------------------
    def feed(self, text):
        data = a2b_base64(text.encode())   # the port's binascii takes bytes only
        self.received += len(data)
        self.lines.push(data, len(data), self._got)
        tail = self.tail + data
        self.tail = tail[-64:]
        if payloads.at_repl(tail):
            self.tail = b""
            self.repl = True

    def _got(self, text):
        f = payloads.frame(text)
        if f is not None:
            self.frames.append(f)

    def take(self):
        if not self.out:
            return ""
        d = bytes(self.out)
        self.out = bytearray()
        self.sent += len(d)
        return _b64(d)

    # --- operations: generators the page steps ----------------------------------
    def start(self, name, arg=""):
        self.op = getattr(self, "op_" + name)(arg)

    def cancel(self):
        self.op = None

    def step(self):
        if self.op is None:
            return json.dumps({"error": "no operation in progress"})
        try:
            return json.dumps({"wait": next(self.op)})
        except StopIteration as e:
            self.op = None
            return json.dumps({"done": e.value})
        except TrayError as e:
            self.op = None
            return json.dumps({"error": str(e)})
        except Exception as e:   # a bug of this page: said as one, never hidden
            self.op = None
            return json.dumps({"error": "the page's tray client failed (%s: %s)" % (type(e).__name__, e)})

    def stats(self):
        return json.dumps({"sent": self.sent, "received": self.received,
                           "requests": dict(("%d" % k, v) for k, v in self.counts.items())})

    # --- requests -----------------------------------------------------------------
    def _line(self, typ, payload):
        try:
            self.seq, line = payloads.request(self.seq, typ, payload)
        except ValueError as e:
            raise TrayError(str(e))
        self.counts[typ] = self.counts.get(typ, 0) + 1
        return self.seq, line

    def _wait(self, deadline):
        """Until a frame is in (returned) or the deadline (None)."""
        while not self.frames:
            if self.repl:
                self.repl = False
                raise AtRepl("the tray is at the MicroPython REPL, not running its app")
            left = time.ticks_diff(deadline, time.ticks_ms())
            if left <= 0:
                return None
            yield left
        return self.frames.pop(0)

    def _sleep(self, ms):
        end = time.ticks_add(time.ticks_ms(), ms)
        while True:
            left = time.ticks_diff(end, time.ticks_ms())
            if left <= 0:
                return
            yield left

    def request(self, typ, payload=b"", timeout=None, retries=None):
        """The answer's payload; TrayError with the tray's own words when
        it refuses. A retry is the same line: the tray answers it from its
        cache and never applies a request twice (docs/protocol.md)."""
        seq, line = self._line(typ, payload)
        want = typ | fr.ANSWER
        timeout = self.timeout if timeout is None else timeout
        tries = 1 + (self.retries if retries is None else retries)
        for _ in range(tries):
            self.out.extend(line)
            deadline = time.ticks_add(time.ticks_ms(), timeout)
            while True:
                f = yield from self._wait(deadline)
                if f is None:
                    break
                ft, fs, fp = f
                if fs != seq or ft == fr.PUSH:
                    continue     # an answer to an earlier try, a push, not ours
                if ft == fr.ERR:
                    raise TrayError(_text(fp))
                if ft == want:
                    return bytes(fp)
        raise TrayError("no answer from the tray after %d tries: is the Dicetray app running on it "
                        "(and is it the tray's port)?" % tries)

    def hello(self):
        """The handshake (restarting an app found stopped at the REPL, as
        the host tool does); returns the tray's info."""
        body = payloads.hello(HOST)
        try:
            try:
                p = yield from self.request(fr.HELLO, body, retries=1)
            except AtRepl as e:
                raise e
            except TrayError as e:
                if not str(e).startswith("no answer"):
                    raise
                # Ctrl-B: at the raw REPL it brings the friendly one's
                # prompt; to the app it is a byte outside any frame.
                self.out.extend(b"\r\x02")
                yield from self._sleep(500)
                if not self.repl:
                    raise e
                raise AtRepl("at the REPL")
        except AtRepl:
            self.out.extend(b"\r\x03\x02\x04")   # clear the line, leave raw REPL, soft reboot
            yield from self._sleep(400)
            self.frames = []
            self.repl = False
            self.tail = b""
            p = yield from self.request(fr.HELLO, body, timeout=BOOT_MS, retries=1)
        self.info = json.loads(p)
        if self.info.get("schema") != codec.VERSION:
            raise TrayError("state schema mismatch: the tray has %s, this page %d: %s" % (
                self.info.get("schema"), codec.VERSION,
                "this page is older than the tray's firmware (use a newer page)"
                if (self.info.get("schema") or 0) > codec.VERSION
                else "upgrade the tray's firmware (dicetray deploy, or the release UF2)"))
        return self.info

    def read_info(self, heap=False):
        p = yield from self.request(fr.INFO, b"heap" if heap else b"")
        self.info = json.loads(p)
        return self.info

    def snapshot(self):
        """(seq, encode_snapshot bytes) of the tray's campaign, paged (SNAP)."""
        return (yield from self.drive(payloads.snapshot()))

    def drive(self, reads):
        """Run one of payloads.py's reads: each request it yields is made
        and its answer sent back; returns what the read returns."""
        answer = None
        while True:
            try:
                typ, payload = reads.send(answer)
            except StopIteration as e:
                return e.value
            answer = yield from self.request(typ, payload)

    def events(self, since):
        """Every event after `since`: from the tray's RAM (EVENTS) when
        they are all there, else from its journal on flash (SEGS, LOG)."""
        out = []
        cur = since
        while True:
            p = yield from self.request(fr.EVENTS, payloads.events_request(cur))
            try:
                n, head, i = payloads.events_page(p, cur)
            except ValueError as e:
                raise TrayError("the tray %s" % e)
            if n == 0 and cur < head:
                evs, head = yield from self._journal(cur)
                if not evs:
                    raise TrayError("the tray holds neither in RAM nor in its journal the events "
                                    "after %d (its last is %d)" % (cur, head))
            else:
                evs, i = unpack_events(p, i, n)
            out.extend(evs)
            cur += len(evs)
            if not evs or cur >= head:
                return out

    def _journal(self, since):
        p = yield from self.request(fr.SEGS, payloads.ints(since))
        head, bases = payloads.segments(p)
        ends = bases[1:] + [head]
        out = []
        for k, b in enumerate(bases):
            data = bytearray()
            while True:     # a segment page at a time; a full page may have more after it
                ans = yield from self.request(fr.LOG, payloads.log_request(b, len(data), 1))
                if len(ans) < 8 or ans[0:8] != pack("<II", b, len(data)):
                    raise TrayError("the tray answered another journal page than segment %d at %d"
                                    % (b, len(data)))
                data.extend(ans[8:])
                if len(ans) - 8 < fr.LOG_PAGE:
                    break
            out.extend(self._records(bytes(data), b, max(since, b), ends[k]))
            yield 0
        return out, head

    def _records(self, data, base, lo, hi):
        """Events lo+1..hi of a segment whose first record is base+1,
        checked by the firmware's scanner (store/journal.py: header check,
        length, seq, CRC)."""
        got = []
        r = journal.scan(_Segment(data), "j", base, got.append)
        if r.seq < hi:
            why = r.why or "the segment ends after event %d" % r.seq
            raise TrayError("the tray's journal is damaged at event %d (segment j%08x.log: %s): "
                            "events %d..%d cannot be read from the tray; `dicetray backup` on a "
                            "computer keeps what is intact" % (r.seq + 1, base, why, r.seq + 1, hi))
        return got[lo - base:hi - base]

    # --- what the page offers -----------------------------------------------------
    def op_connect(self, arg):
        yield from self.hello()
        info = yield from self.read_info(heap=True)   # what `dicetray status` shows
        return {"info": info, "lines": status_lines(info)}

    def op_status(self, arg):
        info = yield from self.read_info(heap=True)
        return {"info": info, "lines": status_lines(info)}

    def op_backup(self, arg):
        """The tray's campaign as one document (FORMAT): its snapshot and
        every event its journal holds, checked here as a restore checks it."""
        info = yield from self.read_info()
        for _ in range(3):
            seq, snap = yield from self.snapshot()
            first = info.get("first", 1)
            evs = yield from self.events(first - 1)
            if first - 1 <= seq <= first - 1 + len(evs):
                break
            info = yield from self.read_info()   # it compacted or moved meanwhile: again
        else:
            raise TrayError("the tray's campaign kept changing while it was read (keys pressed at "
                            "the table?): nothing was saved; try again")
        evs = evs[:seq - first + 1]   # events after the snapshot came in meanwhile: not this backup
        try:
            c = cp.decode_snapshot(snap, None, False)
        except ValueError as e:
            raise TrayError("the tray's snapshot does not decode (%s): use a page of the tray's "
                            "firmware version" % e)
        if c.nevents != seq:
            raise TrayError("the tray's snapshot covers %d events, not %d" % (c.nevents, seq))
        doc = {"format": FORMAT, "version": VERSION,
               "device": info.get("device"), "firmware": info.get("firmware"),
               "protocol": info.get("protocol"), "schema": codec.VERSION,
               "system": NAMES[c.system], "campaign": c.cid, "slot": info.get("slot"),
               "first": first, "last": seq,
               "snapshot": {"seq": seq, "crc32": crc32(snap) & 0xFFFFFFFF, "data": _b64(snap)},
               "state_sha256": sha256(cp.encode_state(c)),
               "events_sha256": events_digest(first, evs),
               "events": [_b64(e) for e in evs]}
        if info.get("head") is not None and info.get("events") == seq:
            doc["head"] = info["head"]   # the tray's hash chain after `last` (load checks it)
        yield 0
        yield from load(json.dumps(doc))   # what a restore would refuse is refused now
        return doc

    def op_check(self, text):
        """Check a backup file and the tray: what a restore would change."""
        self.pending = None
        b = yield from load(text)
        info = yield from self.read_info()
        seq, snap = yield from self.snapshot()
        dc = cp.decode_snapshot(snap, None, False)
        dsys = NAMES[dc.system]
        lines = ["tray  %s: campaign %d (%s), %s" % (info.get("device"), dc.cid, dsys,
                                                      _plural(dc.nevents, "event")),
                 "file  from %s: campaign %d (%s), %s (%d..%d)" % (
                     b.doc.get("device"), b.cid, b.system, _plural(b.last, "event"), b.first, b.last)]
        if b.first > 1:
            lines.append("the tray will hold the state after event %d and no events: the file's "
                         "events %d..%d stay in the file only (its tray had compacted events "
                         "1..%d)" % (b.last, b.first, b.last, b.first - 1))
        keep = info.get("keep")
        if b.first == 1 and keep and b.last > keep:
            lines.append("the tray keeps about its last %s: events 1..%d stay in the file only "
                         "(the tray holds the state they led to)" % (_plural(keep, "event"),
                                                                     b.last - keep))
        if dsys != b.system:
            lines.append("note: the file is a %s campaign and the tray runs %s: the restore "
                         "goes ahead anyway" % (b.system, dsys))
        slot = info.get("slot")
        p = yield from self.request(fr.SLOTS, payloads.ints(0))     # the first page: 24 slots
        slots = json.loads(bytes(p))["slots"]
        lines.append("the restored campaign becomes the tray's current one, in the slot after "
                     "its highest")
        for t in slots:   # its copies go, as the tray does it: a campaign is in one slot
            if t["campaign"] == b.cid and t["system"] == b.system and t["slot"] != slot:
                lines.append("slot %d holds another copy of campaign %d (%s): the restore "
                             "replaces it" % (t["slot"], b.cid, _plural(t["events"], "event")))
        if (dc.cid, dc.system) != (b.cid, b.sysno):
            lines.append("the tray's current campaign %d (%s, %s) stays on its flash in slot %s "
                         "(Settings > Campaigns, or `dicetray campaigns`, lists it; switching "
                         "back to it undoes the restore)"
                         % (dc.cid, dsys, _plural(dc.nevents, "event"), slot))
        else:
            lines.append("slot %s holds the tray's current copy of campaign %d: the restore "
                         "replaces it" % (slot, b.cid))
            dfirst = max(1, info.get("first", 1))
            have = yield from self.events(dfirst - 1)
            common = min(dc.nevents, b.last)
            for s in range(max(dfirst, b.first), common + 1):
                if have[s - dfirst] != b.events[s - b.first]:
                    common = s - 1
                    break
            gone = dc.nevents - common
            if gone > 0:
                lines.append("the tray's %s after event %d %s not in the file and would be "
                             "discarded" % (_plural(gone, "event"), common,
                                            "is" if gone == 1 else "are"))
            elif b.last == dc.nevents and cp.encode_state(dc) == b.state:
                lines.append("the tray already holds this campaign at event %d: a restore "
                             "changes nothing but its slot" % b.last)
            else:
                lines.append("the file has %s the tray does not (%d..%d)" % (
                    _plural(b.last - dc.nevents, "event"), dc.nevents + 1, b.last))
        self.pending = (b, (info.get("campaign"), info.get("system"), info.get("events"),
                            info.get("slot")))
        return {"lines": lines, "file": {"campaign": b.cid, "system": b.system,
                                         "first": b.first, "last": b.last}}

    def _tray_was(self, info):
        return (info.get("campaign"), info.get("system"), info.get("events"), info.get("slot"))

    def op_restore(self, arg):
        """Restore the file `check` accepted: done and verified, or not
        done with the tray as it was (TrayError says which)."""
        if self.pending is None:
            raise TrayError("no checked file: choose the file again")
        b, was = self.pending
        self.pending = None
        info = yield from self.read_info()
        if self._tray_was(info) != was:
            raise TrayError("the tray changed since the file was checked (it is at event %s): "
                            "nothing was sent; choose the file again" % info.get("events"))
        snap, events, seq, first = b.payload
        # with the chain's head at the base (a tray with a chain)
        begin = payloads.restore_begin(snap, len(events), seq, first, b.doc.get("head"))
        committing = False
        try:
            yield from self.request(fr.R_BEGIN, begin)
            try:
                for typ, payload, _k in payloads.restore_requests(snap, events, first):
                    yield from self.request(typ, payload)
            except ValueError as e:   # an event too large for any request
                raise TrayError(str(e))
            committing = True
            p = yield from self.request(fr.R_COMMIT, timeout=COMMIT_MS)
            new = json.loads(p)
        except TrayError as e:
            refused = not isinstance(e, AtRepl) and not str(e).startswith("no answer")
            if refused or not committing:
                if not isinstance(e, AtRepl):
                    try:
                        yield from self.request(fr.R_ABORT, retries=0)
                    except TrayError:
                        pass
                raise TrayError("not restored, the tray is unchanged: %s" % e)
            # The commit's answer was lost: the tray holds one campaign or
            # the other (one rename swaps it in). Look.
            new = yield from self.hello()
            if self._tray_was(new) == was:
                raise TrayError("not restored, the tray is unchanged: %s" % e)
        # Read it back: the state, and every event it holds.
        errs = []
        now = yield from self.read_info()
        s2, snap2 = yield from self.snapshot()
        got = cp.decode_snapshot(snap2, None, False)
        if (got.cid, got.system) != (b.cid, b.sysno):
            errs.append("it holds campaign %d (%s)" % (got.cid, NAMES[got.system]))
        if now.get("events") != b.last or got.nevents != b.last:
            errs.append("it reports %s, the file has %d" % (_plural(got.nevents, "event"), b.last))
        if cp.encode_state(got) != b.state:
            errs.append("its state differs from the file's")
        if now.get("head") is not None and b.doc.get("head") is not None \
                and now["head"] != b.doc["head"]:
            errs.append("its hash chain's head differs from the file's")
        held = max(first, now.get("first", first))
        if not errs and held <= b.last:
            back = yield from self.events(held - 1)
            if back != b.events[held - b.first:]:
                errs.append("its events %d..%d differ from the file's" % (held, b.last))
        # The tray's campaign before: another one keeps its slot; this one's
        # copy was replaced (a campaign is in one slot).
        earlier = ("its earlier copy of this campaign was replaced" if was[:2] == (b.cid, b.system)
                   else "its earlier campaign is slot %s on its flash" % was[3])
        if errs:
            raise TrayError("the restore was swapped in but did not verify: the tray %s; the file "
                            "is unchanged: restore it again (%s)" % ("; ".join(errs), earlier))
        said = ("events %d..%d verified one by one" % (held, b.last) if held <= b.last
                else "no events (the file's snapshot at %d is its base)" % b.last)
        return {"info": now, "lines": status_lines(now),
                "said": "restored and verified: campaign %d (%s), state after event %d, %s; %s"
                        % (b.cid, b.system, b.last, said, earlier)}
