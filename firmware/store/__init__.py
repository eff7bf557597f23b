"""The campaign store on flash: journal segments plus snapshots.

Files under the store's root directory (seq = records counted from 1):

    jXXXXXXXX.log  journal segment; XXXXXXXX (hex) = seq before its first record
    sXXXXXXXX.snp  snapshot: state after record XXXXXXXX
    *.tmp          a snapshot or repaired segment being written
    *.bad, *.badN  damaged files kept aside for the host; never read again

`open()` loads the newest valid snapshot and replays the journal from
where it says its events end (a segment and a byte offset); `append()` is
durable when it returns; `snapshot()` writes a new generation beside the
old, swaps it in with a rename (never over an existing file), starts a new
segment once the current one holds SEG_ROLL bytes, and compacts: the two
newest snapshot generations are kept, and the journal from the older one
on; a store made with `keep=N` also keeps the N events before that (the
device keeps 6,000, so the host can back up from any seq they hold:
`first()`). `start()` begins an empty store at a seq > 0 (a restore of a
campaign whose early journal is gone). `head` is the hash chain's head
after the last event (store/chain.py), kept in every snapshot; None where
it cannot be known (a campaign from firmware before the chain whose
journal no longer starts at event 1). See docs/store.md.
"""

from . import journal
from . import snapshot as snap
from .fs import OsFs, check_fs, LITTLEFS, FAT, HOST, UNKNOWN  # noqa: F401

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

BLOCK = 4096        # erase block of the board's flash
# Events of journal the device keeps below the compaction floor (Store(keep=)),
# so the host can back up incrementally from any seq. A segment (about 750
# events, see SEG_ROLL) takes four erase blocks on littlefs: 6,000 events
# are about 32 blocks (128 KB) of the Pico's ~1.4 MB filesystem, and up to
# a segment more before the oldest is compacted. Older events live on in
# the host's backups.
JOURNAL_KEEP = 6000
# A segment is closed at the first snapshot after it reaches this size:
# with ~21-byte records and a snapshot every 16 events it stays within four
# 4 KB erase blocks (littlefs gives each file whole blocks). Big, because a
# backup opens each segment once and a littlefs open costs a board 2.5 ms
# (docs/protocol.md, "Binary pages"): 3,072 before, one block a segment.
SEG_ROLL = 15872
META_PER_BLOCK = 16  # littlefs metadata commits (256-byte prog units) per erase
INLINE = 512         # littlefs inline_max on the rp2 port: files this small take no block of their own
ZERO = bytes(32)     # the chain's head before event 1 (chain.ZERO: store/chain.py)
TAIL_MAX = const(32)        # events appended before the chain is carried over them
# The replay's cursor, Store._rp, by slot (recover(), replay()).
_RSEGS = const(0)
_RI = const(1)
_RAT = const(2)
_RSEQ = const(3)
_RBASE = const(4)
_ROFF = const(5)
_RHEAD = const(6)
_RH = const(7)
_RTAIL = const(8)
_RSCAN = const(9)
_RCUR = const(10)
_RBUF = const(11)
_REP = const(12)
_REACH = const(13)
_RMOST = const(14)
_RN = const(15)
# The pending journal (Store(pend=True), the device's): records appended
# since the last fold, in one small file of a directory of its own. littlefs
# keeps a file of up to 512 bytes inline in its directory's metadata, so
# syncing it is one metadata commit (a 256-byte page or two programmed into
# a block erased beforehand), never the copy-on-write of a segment's tail
# block: no erase waits on an append. fold() moves the records into the
# segment and starts the directory afresh, when the device is idle.
PEND = "p"                   # the pending directory, in the store's root...
PEND_FILE = "p/p"            # ...and its one file
_PEND_MAX = const(448)       # bytes of records pending, at most (inline: 512)
_PAGES = const(15)           # 256-byte pages of a 4 KB metadata block a fresh directory can take
_PAGES_FRESH = const(3)      # taken by the directory's creation and its file's
_PAGES_FOLD = const(13)      # fold at idle once this many are taken
_COMMIT = const(40)          # bytes a commit takes beside the file's (tags, CRCs)


class Report:
    """What recovery found. `errors` is for the screen: real damage."""

    def __init__(self, fs_kind):
        self.fs = fs_kind
        self.errors = []   # damage: the UI must show these
        self.notes = []    # quiet facts (a torn tail dropped)
        self.aside = []    # (old name, new name) of files kept aside
        self.torn = 0      # bytes of torn tail ignored
        self.snap = -1     # seq of the snapshot loaded, -1 for none
        self.seq = 0       # seq of the last event recovered
        if fs_kind != LITTLEFS and fs_kind != HOST:
            self.notes.append("filesystem is %s, not littlefs: its own metadata "
                              "is not power-cut safe" % fs_kind)

    def ok(self):
        return not self.errors


def _name(prefix, seq, ext):
    return "%s%08x.%s" % (prefix, seq, ext)


def _parse(name, prefix, ext):
    """seq of a store file name such as j0000002a.log (ext '.log'), or -1."""
    # Names of other kinds are turned away before any slicing: on
    # MicroPython every new str costs a search of the interned-string
    # table, and a store directory holds about forty names.
    if len(name) != 13 or not name.startswith(prefix) or not name.endswith(ext):
        return -1
    try:
        return int(name[1:9], 16)
    except ValueError:
        return -1


def _split(names):
    """A store directory's names by kind, in one pass: (segments j*.log,
    snapshots s*.snp, leftovers *.tmp), the first two in seq order (the
    hex is fixed width, so the strings sort as their seqs do, and only the
    ones used get parsed). Names of other kinds (aside files) are left out."""
    logs, snaps, tmps = [], [], []
    for nm in names:
        if len(nm) == 13:
            if nm.endswith(".log"):
                if nm.startswith("j"):
                    logs.append(nm)
            elif nm.endswith(".snp"):
                if nm.startswith("s"):
                    snaps.append(nm)
            elif nm.endswith(".tmp"):
                tmps.append(nm)
    logs.sort()
    snaps.sort()
    return logs, snaps, tmps


class Store:
    """Journal + snapshots under directory `root` of filesystem `fs`."""

    def __init__(self, fs, root, kind=None, keep=0, roll=SEG_ROLL, pend=False):
        self.fs = fs
        self.keep = keep        # events of old journal kept below the compaction floor
        self.roll = roll        # segment size that closes it at the next snapshot
        self.root = root
        self.kind = check_fs(root, kind if kind is not None else getattr(fs, "kind", None))
        self.seq = 0            # last record written or recovered
        self._head = ZERO       # the chain's head after event seq - len(_tail) (None: unknown)
        self._tail = []         # events after it not hashed yet (see head)
        self.snaps = []         # seqs of the snapshot generations on flash, oldest first
        self._f = None          # open segment file, appends go there
        self._seg = 0           # base seq of the segment appends go to
        self._new = True        # create the segment ("wb") rather than append to it
        self._len = 0           # bytes in the current segment
        self._lseq = 0          # the last event in the segments (seq less the pending ones)
        # pend=True: appends go to the pending file, fold() moves them on.
        # Any store reads the pending file (a device's store opened by
        # anything else: the slots, a staging, the host).
        self._pmode = pend
        self._pend = bytearray()  # the pending records (_PEND_MAX bytes once there are any)
        self._plen = 0          # bytes of records pending
        self._pf = None         # the pending file, open for appends
        self._pages = _PAGES    # pages of the pending directory's block taken (full: start afresh)
        self._fstage = 0        # the next step of a fold (fold_step)
        self._buf = bytearray(journal.HDR + journal.MAX_REC)
        self._mv = memoryview(self._buf)
        # bytes: written; syncs/renames/removes: operations; blocks: data
        # erase blocks touched; meta: metadata commits (see erases()).
        self.stats = {"bytes": 0, "syncs": 0, "renames": 0, "removes": 0,
                      "blocks": 0, "meta": 0}

    def _p(self, name):
        return self.root + "/" + name

    # --- recovery ------------------------------------------------------------
    def open(self, each=None):
        """Recover: return (state bytes or None, [event bytes after it], Report).

        Never raises for anything found on flash: damage is put in
        report.errors and the damaged file is renamed aside. If `each` is
        given, it is called with every event instead of collecting them.
        recover() and replay() are the same in steps (a boot's).
        """
        events = []
        state, rep = self.recover()
        self.replay(each if each is not None else events.append)
        return state, events, rep

    def recover(self):
        """Recovery's first part: the newest snapshot that reads (damaged
        ones set aside) and where the journal after it starts; returns
        (state bytes or None, Report). replay() then hands out the events
        after it and ends the recovery."""
        fs = self.fs
        self.close()
        self._plen = 0
        self._fstage = 0
        fs.mkdir(self.root)
        rep = Report(self.kind)
        logs, snaps, tmps = _split(fs.listdir(self.root))
        # A repaired segment (.tmp) is complete once its damaged original
        # has been moved aside: finish that rename, else drop the copy.
        for nm in tmps:
            b = _parse(nm, "j", ".tmp")
            if b >= 0:
                live = _name("j", b, "log")
                if live in logs:
                    self._remove(nm)
                else:
                    self._rename(nm, live)
                    logs.append(live)
                    logs.sort()
        snaps = [s for s in (_parse(nm, "s", ".snp") for nm in snaps) if s >= 0]

        state = None
        base = 0
        seg = off = 0   # where the events after the snapshot start
        head = ZERO
        while snaps:
            s = snaps[-1]
            nm = _name("s", s, "snp")
            try:
                seq, st, seg, off, head = snap.read(fs, self._p(nm))
                if seq != s:
                    raise ValueError("it says seq %d" % seq)
                state = st
                base = s
                break
            except (ValueError, OSError) as e:
                rep.errors.append("snapshot %s damaged (%s): using the one before" % (nm, e))
                self._aside(nm, rep)
                snaps.pop()
        self.snaps = snaps
        rep.snap = base if state is not None else -1
        if state is None:
            seg = off = 0
            head = ZERO
        if head is None and base:
            from .chain import rechain   # a snapshot from before the chain (once)
            head = rechain(self, base)

        # The segments from the snapshot's on, oldest first (the names sort
        # as their seqs); the first must be that one (or none at all).
        k = len(logs)
        low = _name("j", seg, "log")
        while k and logs[k - 1] >= low:
            k -= 1
        # The replay's cursor (one list, its slots by const index: every
        # attribute name a boot loads is one more interned string for each
        # new str to be looked up against, docs/performance.md).
        self._rp = [
            [b for b in (_parse(nm, "j", ".log") for nm in logs[k:]) if b >= 0],
            0,          # _RI: the next segment's index
            -1,         # _RAT: the byte it goes on at in it (-1: not begun)
            seg,        # _RSEQ: the last event seq read
            base,       # _RBASE: the snapshot's seq...
            off,        # _ROFF: ...and where its events start in the first segment
            head,       # _RHEAD: the chain's head after event...
            base,       # _RH: ...this one
            [],         # _RTAIL: the events after it not hashed yet
            None,       # _RSCAN: the last segment's Scan...
            None,       # _RCUR: ...and its base
            bytearray(journal.CHUNK),
            rep,        # _REP
            None,       # _REACH: the taker of the events
            0,          # _RMOST: a step's events...
            0,          # _RN: ...and how many handed out in this one
        ]  # type: list
        return state, rep

    def replay(self, each, most=0):
        """Hand the events after the recovered snapshot to each(event),
        oldest first: `most` of them (0: all) a call; True while more
        remain (call again). The call that reaches the end finishes the
        recovery: damage set aside or repaired, the pending journal read,
        where appends go. Memory stays bounded however long the journal:
        nothing is kept but the events not hashed into the chain yet
        (fewer than TAIL_MAX)."""
        r = self._rp
        if r is None:
            return False
        segs = r[_RSEGS]
        rep = r[_REP]
        r[_REACH] = each
        r[_RMOST] = most
        r[_RN] = 0
        while r[_RI] < len(segs):
            b = segs[r[_RI]]
            nm = _name("j", b, "log")
            if r[_RAT] < 0:
                if b != r[_RSEQ]:
                    seq = r[_RSEQ]
                    rep.errors.append("journal %s should start after event %d: events %d..%d "
                                      "missing" % (nm, seq, min(seq, b) + 1, max(seq, b)))
                    for b2 in segs[r[_RI]:]:
                        self._aside(_name("j", b2, "log"), rep)
                    r[_RSCAN] = None
                    break
                first = r[_RI] == 0
                s = self._scan(nm, b, r[_RBASE] if first else b, r[_ROFF] if first else 0,
                               self._out, r[_RBUF], rep)
            else:
                try:
                    s = journal.scan(self.fs, self._p(nm), r[_RSEQ], self._out, r[_RBUF], r[_RAT])
                except OSError as e:
                    s = journal.Scan(r[_RSEQ])
                    s.good = r[_RAT]
                    s.status = journal.BAD
                    s.why = "unreadable: %s" % e
            r[_RSEQ] = s.seq
            r[_RSCAN] = s
            r[_RCUR] = b
            if s.status == journal.MORE:
                r[_RAT] = s.good
                return True
            r[_RAT] = -1
            r[_RI] += 1
            if s.status == journal.TORN:
                rep.torn += s.tail
                rep.notes.append("%s: torn tail of %d bytes dropped" % (nm, s.tail))
            elif s.status == journal.BAD:
                rep.errors.append("journal %s damaged after event %d (%s): later events kept aside"
                                  % (nm, s.seq, s.why))
                self._repair(nm, s.good, rep)
                for b2 in segs[r[_RI]:]:
                    self._aside(_name("j", b2, "log"), rep)
                break
        self._end(r)
        return False

    def _out(self, ev):
        """The replay's out(): the event to its taker and onto the chain's
        tail, hashed in once the tail is long (a long replay keeps no
        event); true once this step has handed out its `most`."""
        r = self._rp
        if r[_RHEAD] is not None:
            t = r[_RTAIL]
            t.append(ev)
            if len(t) >= TAIL_MAX:
                from .chain import over
                r[_RHEAD] = over(r[_RHEAD], r[_RH] + 1, t)
                r[_RH] += len(t)
                r[_RTAIL] = []
        r[_REACH](ev)
        r[_RN] += 1
        return r[_RN] == r[_RMOST]

    def _end(self, r):
        """The end of a replay: the pending journal, the chain, where
        appends go."""
        rep = r[_REP]
        seq = r[_RSEQ]
        base = r[_RBASE]
        s = r[_RSCAN]
        if seq < base:
            # The journal ends inside what the snapshot covers (damage: those
            # records were synced before it was written). The state is
            # whole; appends go on after the snapshot, in a segment of its own.
            rep.errors.append("journal ends at event %d, before the snapshot's %d: events "
                              "%d..%d are only in the snapshot" % (seq, base, seq + 1, base))
            seq = base
            s = None
        self._lseq = seq
        r[_RMOST] = 0
        seq = self._recover_pend(seq, self._out, rep)
        self.seq = seq
        # A journal with no snapshot may start past event 1 (damage): no chain then.
        if r[_RHEAD] is not None and r[_RH] + len(r[_RTAIL]) == seq:
            self._head, self._tail = r[_RHEAD], r[_RTAIL]
        else:
            self._head, self._tail = None, []
        rep.seq = seq
        self._rp = None
        # Where appends go: continue a segment that ends cleanly, else start
        # a segment after the last good event ("wb" also clears a segment
        # that holds nothing committed).
        if s is not None and (s.status == journal.OK or (s.status == journal.BAD and s.good)):
            self._seg, self._new, self._len = r[_RCUR], False, s.good
        else:
            self._fresh(self._lseq)

    def _recover_pend(self, seq, out, rep):
        """The pending records after event `seq` (the segments' last):
        out() each, keep them pending; returns the last event's seq. Records
        the segments hold already (a fold cut before the file was emptied)
        are passed over; a record past a gap or failing its checks is
        damage: the file is set aside."""
        p = self._p(PEND_FILE)
        try:
            f = self.fs.open(p, "rb")
        except OSError:
            return seq        # none: a store from before, or a fold just done
        try:
            data = f.read(_PEND_MAX + journal.MAX_REC)
        finally:
            f.close()
        if len(data) < journal.HDR:
            return seq
        first = journal.first_seq(data)
        skip = [0, 0]         # records, bytes the segments hold already

        def take(ev):
            if first + skip[0] <= seq:
                skip[0] += 1
                skip[1] += journal.HDR + len(ev)
            else:
                out(ev)
        r = journal.scan(self.fs, p, first - 1, take) if 0 < first <= seq + 1 else None
        if r is None or r.status == journal.BAD:
            why = r.why if r is not None else "it starts at event %d" % first
            got = r.seq if r is not None and r.seq > seq else seq
            rep.errors.append("pending journal damaged after event %d (%s): set aside"
                              % (got, why))
            self._aside(PEND_FILE, rep, "pend")
            if r is None:
                return seq
        elif r.status == journal.TORN:
            rep.torn += r.tail
            rep.notes.append("pending journal: torn tail of %d bytes dropped" % r.tail)
        n = r.good - skip[1]
        if n > 0:
            if not self._pend:
                self._pend = bytearray(_PEND_MAX)
            self._pend[0:n] = data[skip[1]:r.good]
            self._plen = n
            return r.seq
        return seq

    def _scan(self, nm, b, after, at, out, buf, rep):
        """Scan segment nm (base b) for the events after seq `after`,
        starting at byte `at` where the snapshot says they begin."""
        if at:
            try:
                r = journal.scan(self.fs, self._p(nm), after, out, buf, at)
                if r.status != journal.BAD or r.seq > after:
                    return r
            except OSError:
                pass
            # The offset did not lead to the next record: read the whole
            # segment instead (slow, but what damage handling expects).
            rep.notes.append("%s: read from its start (snapshot offset %d failed)" % (nm, at))
        try:
            return self._range(b, after, journal.MAX_SEQ, out)
        except OSError as e:
            r = journal.Scan(b)
            r.status = journal.BAD
            r.why = "unreadable: %s" % e
            return r

    def _range(self, b, lo, hi, out):
        """Scan segment b from its start, handing out the events numbered
        lo+1..hi (stopping where out() says: journal.MORE); returns the Scan."""
        at = [b]

        def take(ev):
            at[0] += 1
            if lo < at[0] <= hi:
                return out(ev)
        return journal.scan(self.fs, self._p(_name("j", b, "log")), b, take)

    def _repair(self, nm, good, rep):
        """Keep the good prefix of damaged segment nm live; move nm aside."""
        if good:
            tmp = nm[:9] + ".tmp"
            f = self.fs.open(self._p(nm), "rb")
            try:
                data = f.read(good)
            finally:
                f.close()
            g = self.fs.open(self._p(tmp), "wb")
            try:
                g.write(data)
                self.fs.sync(g)
            finally:
                g.close()
            self.stats["meta"] += 1
            self._count(0, good)
            # open() finishes the swap if power fails between the renames.
            self._aside(nm, rep)
            self._rename(tmp, nm)
        else:
            self._aside(nm, rep)

    def _aside(self, nm, rep, stem=None):
        """Rename nm to STEM.bad (STEM.badN if taken; STEM: nm's seq part)."""
        names = self.fs.listdir(self.root)
        stem = stem or nm[:9]
        new = stem + ".bad"
        k = 1
        while new in names:
            k += 1
            new = stem + ".bad%d" % k
        self._rename(nm, new)
        rep.aside.append((nm, new))

    # --- writing -------------------------------------------------------------
    def append(self, ev):
        """Append one event; it is on flash (synced) when this returns."""
        n = journal.pack(self._buf, self.seq + 1, ev)
        if self._pmode:
            self._append_pend(n)
            self.seq += 1
        else:
            self.settle()
            self._write_seg(self._mv[:n], self.seq)
            self.seq += 1
            self._lseq = self.seq
        if self._head is not None:
            self._tail.append(bytes(ev))
            if len(self._tail) >= TAIL_MAX:
                self.head   # settles the tail: a store that never snapshots keeps no long one

    def _write_seg(self, b, last):
        """Append records `b` to the segment and sync; `last`: the seq the
        segment ends at before them (where a fresh one starts if this fails)."""
        f = self._f
        if f is None:
            f = self.fs.open(self._p(_name("j", self._seg, "log")), "wb" if self._new else "ab")
            if self._new:
                self.stats["meta"] += 1
            self._f = f
            self._new = False
        try:
            f.write(b)
            self.fs.sync(f)
        except Exception:
            # A part of the records may be in the file: a torn tail now, so
            # later records go to a fresh segment after the last good one.
            self.close()
            self._fresh(last)
            raise
        n = len(b)
        self._count(self._len, self._len + n)
        self._len += n

    def _append_pend(self, n):
        """The record in self._buf[:n] appended to the pending file and synced."""
        plen = self._plen + n
        pages = (plen + _COMMIT + 255) >> 8
        if self._pf is None or plen > _PEND_MAX or self._pages + pages > _PAGES:
            # Slow: no idle moment came to fold (or, after a boot, to open
            # the file): done now, with the erases that come with it.
            self.fold()
            plen = self._plen + n
            pages = (plen + _COMMIT + 255) >> 8
        f = self._pf
        if not self._pend:
            self._pend = bytearray(_PEND_MAX)
        self._pend[self._plen:plen] = self._mv[:n]
        try:
            f.write(self._mv[:n])
            self.fs.sync(f)
        except Exception:
            # Part of the record may be in the file: fold() rewrites it.
            self._close_pend()
            raise
        self._plen = plen
        self._pages += pages
        self.stats["meta"] += 1
        self.stats["syncs"] += 1
        self.stats["bytes"] += n

    def backlog(self):
        """Events appended since the newest snapshot (what a boot replays)."""
        return self.seq - (self.snaps[-1] if self.snaps else 0)

    def pending(self):
        """Events appended that fold() has not moved into a segment yet."""
        return self.seq - self._lseq

    def due(self):
        """True when fold() should run at the next idle moment: the pending
        directory's metadata block is filling up, or its file is not open
        yet (after a boot, or a failed append)."""
        return self._pmode and (self._pf is None or self._pages >= _PAGES_FOLD)

    def fold(self):
        """Move the pending records into the journal's segment and start
        the pending directory afresh: every step of fold_step()."""
        while self.fold_step():
            pass

    def fold_step(self):
        """One step of a fold, each at most about one erase, so that an
        idle moment's work never holds the keys long; True while more
        remain. 1: the pending records written to the segment and synced
        (the segment's copy-on-write erase happens here, at idle). 2: the
        pending file and directory removed. 3, for a store that appends
        there: the directory made afresh (a new metadata pair, erased now,
        not when a commit finds its block full: littlefs compacts a full
        block on that commit, an erase inside an append) and its file
        opened, empty. A cut between steps leaves records in both places:
        the boot passes over the copies the segment holds."""
        fs = self.fs
        stage = self._fstage
        if stage == 0:
            self._close_pend()        # an append now goes the slow way: fold() ends this
            if self._plen:
                self._write_seg(memoryview(self._pend)[:self._plen], self._lseq)
                self._plen = 0
            self._lseq = self.seq
            self._fstage = 1
            return True
        if stage == 1:
            for op, p in ((fs.remove, self._p(PEND_FILE)), (fs.rmdir, self._p(PEND))):
                try:
                    op(p)
                    self.stats["meta"] += 1
                except OSError:
                    pass      # not there (a cut in the last fold, or the first one)
            self._fstage = 2 if self._pmode else 0
            return self._pmode
        fs.mkdir(self._p(PEND))
        self._pf = fs.open(self._p(PEND_FILE), "wb")
        self._pages = _PAGES_FRESH
        self._fstage = 0
        self.stats["meta"] += 2
        self.stats["blocks"] += 1
        return False

    def _close_pend(self):
        f = self._pf
        self._pf = None
        if f is not None:
            try:
                f.close()
            except Exception:
                pass

    def snapshot(self, state, seq=None, compact=True):
        """Write a snapshot of `state` (the state after event `seq`, which
        must be the last event appended) and compact. Returns False if a
        snapshot of this seq is already the newest. compact=False leaves
        the compaction to a later compact() (an idle moment's next step:
        each about one erase at most)."""
        if seq is None:
            seq = self.seq
        if seq != self.seq:
            raise ValueError("a snapshot must cover every event: seq %d, journal at %d"
                             % (seq, self.seq))
        if self.snaps and self.snaps[-1] == seq:
            return False
        self.settle()
        # The journal goes on in the current segment until it holds
        # SEG_ROLL bytes, then in a new one named after this snapshot; the
        # snapshot says where, so recovery reads no record it covers.
        roll = self._len >= self.roll
        seg = seq if roll else self._seg
        off = 0 if roll else self._len
        base = _name("s", seq, "")
        tmp = base + "tmp"
        n = snap.write(self.fs, self._p(tmp), seq, state, seg, off, self.head)
        self.stats["meta"] += 1  # the file's creation
        self._count(0, n)
        got = snap.read(self.fs, self._p(tmp))
        if got[0] != seq or got[1] != state or got[2] != seg or got[3] != off \
                or got[4] != self.head:
            raise OSError("snapshot %s did not read back as written" % tmp)
        self._rename(tmp, base + "snp")
        self.snaps.append(seq)
        if roll:
            self.close()
            self._fresh(seq)
        if compact:
            self._compact()
        if roll:
            from .anchors import keep
            keep(self, seq)         # the new segment's head (and the scrub's) on flash
        return True

    def compact(self):
        """The compaction a snapshot(compact=False) left (also safe any
        time: it keeps the two newest snapshots and what they need)."""
        self._compact()

    def _compact(self):
        # Keep the two newest generations; the journal from the older one on
        # lets the older one stand in if the newer is ever found damaged.
        keep = self.snaps[-2:]
        floor = keep[0] if len(keep) == 2 else 0
        self.snaps = keep
        logs, snaps, tmps = _split(self.fs.listdir(self.root))
        cut = floor - self.keep  # segments wholly at or below it go (the oldest first)
        # A segment holds the events up to the next one's base (for the last
        # on flash: up to the segment appends go to, when that is a newer
        # one not created yet). Bases are parsed oldest first up to the
        # first that stays.
        bases = []
        for nm in logs:
            b = _parse(nm, "j", ".log")
            if b >= 0:
                bases.append(b)
                if b > cut:
                    break
        cur = self._seg
        for i in range(len(bases)):
            nxt = bases[i + 1] if i + 1 < len(bases) else (cur if cur > bases[i] else -1)
            if 0 <= nxt <= cut:
                self._remove(_name("j", bases[i], "log"))
        for nm in snaps:
            if 0 <= _parse(nm, "s", ".snp") < floor:
                self._remove(nm)
        for nm in tmps:
            if _parse(nm, "s", ".tmp") >= 0:
                self._remove(nm)

    @property
    def head(self):
        """The hash chain's head after the last event (32 bytes; None:
        unknown): the events appended or replayed since it was last asked
        for are hashed now (store/chain.py, imported then, not at boot)."""
        t = self._tail
        if t and self._head is not None:
            from .chain import over
            self._head = over(self._head, self.seq - len(t) + 1, t)
            self._tail = []
        return self._head

    def start(self, state, seq, head=None):
        """Begin an empty store at event `seq`: its snapshot `state` stands
        for events 1..seq, which this store will never hold; `head`: the
        chain's head after seq (None: unknown)."""
        if self.seq or self.snaps:
            raise ValueError("start() needs an empty store")
        self.seq = self._lseq = seq
        self._head, self._tail = head, []
        self._fresh(seq)
        self.snapshot(state, seq)
        from .anchors import keep
        keep(self, seq)             # the first segment's base: its head, on flash

    def first(self):
        """The oldest event seq the journal on flash still holds (seq + 1 if none)."""
        self.settle()
        lo = self.seq
        for nm in self._logs():
            b = _parse(nm, "j", ".log")
            if b >= 0:   # the oldest
                return (b if b < lo else lo) + 1
        return lo + 1

    def read(self, lo, hi):
        """The events numbered lo+1..hi, read from the journal on flash
        (fewer, the newest ones, if it no longer holds them all)."""
        self.settle()
        out = []
        bases = self.segments()
        for i in range(len(bases)):
            b = bases[i]
            end = bases[i + 1] if i + 1 < len(bases) else self.seq
            if end > lo and b < hi:
                self._range(b, lo, hi, out.append)
        return out

    def segments(self):
        """Bases of the journal segments on flash, ascending."""
        self.settle()
        return [b for b in (_parse(nm, "j", ".log") for nm in self._logs()) if b >= 0]

    def _logs(self):
        return _split(self.fs.listdir(self.root))[0]

    def head_at(self, base):
        """The chain's head after event `base`, as the device recorded it
        at a journal segment's base (store/anchors.py; None: unknown)."""
        from .anchors import get
        return get(self, base)

    def paging(self):
        """The journal's public reader (store/paging.py Reader: segments,
        their pages, events after a seq with a cursor), loaded at the
        link's first page, not at boot. Named as its module: every name
        this file holds is interned at boot, and a new one makes each
        later string's lookup dearer (+0.2 % of a boot for `reader`)."""
        self.settle()
        from .paging import paging
        return paging(self)

    # --- scrub ---------------------------------------------------------------
    def scrub_step(self):
        """Check one more journal segment, the oldest first, cycling: None
        while clean, else what is damaged, in words (store/scrub.py, loaded
        on the first step, not at boot). Reads only, once the pending
        records are folded."""
        self.settle()
        from .scrub import step
        return step(self)

    def _fresh(self, seq):
        """Appends go to a new segment, its first record event seq + 1."""
        self._seg, self._new, self._len = seq, True, 0

    def settle(self):
        """Fold the pending records, if any, so that the segments hold the
        whole journal: before anything reads or compacts them."""
        if self.seq != self._lseq:
            self.fold()

    def close(self):
        """Close the open segment and pending file (appends reopen them)."""
        self._close_pend()
        if self._f is not None:
            f = self._f
            self._f = None
            try:
                f.close()
            except Exception:
                pass

    # --- bookkeeping ---------------------------------------------------------
    def _rename(self, a, b):
        self.fs.rename(self._p(a), self._p(b))
        self.stats["renames"] += 1
        self.stats["meta"] += 1

    def _remove(self, nm):
        self.fs.remove(self._p(nm))
        self.stats["removes"] += 1
        self.stats["meta"] += 1

    def _count(self, old, new):
        """A sync that grew a file from old to new bytes: littlefs copies the
        partly filled last block and writes any new ones."""
        s = self.stats
        s["bytes"] += new - old
        s["syncs"] += 1
        s["meta"] += 1
        if new > old and new > INLINE:
            if old <= INLINE:
                old = 0     # out of the metadata: every block is new
            s["blocks"] += (new - 1) // BLOCK - old // BLOCK + 1

    def erases(self):
        """Estimated erase-block erases so far (data blocks + metadata)."""
        return self.stats["blocks"] + self.stats["meta"] // META_PER_BLOCK
