"""A campaign staged beside the current one, then swapped in: a restore
(the host's `restore`, docs/backup.md; the link only carries its
requests) and a new campaign (Session.new_campaign). The session's work,
in a module of its own so that a boot, which does neither, loads none of it.
A restored campaign replaces every copy of itself on the flash (the same
id and system: the current campaign or another slot) and leaves every
other campaign in its slot.

The backup's snapshot and events are written into a new slot's staging
directory nN/ (session.py's flash layout) and checked as they come: the
snapshot's CRC, every event folded by the rules, and, for a journal from
event 1, the fold compared with the snapshot. commit() reads the staged
store back as a boot would and only then renames nN/ to cN/, the one
atomic step: before it a reset boots the old campaign, after it the new.
Loaded at the first restore or new campaign, never at a boot of a tray
that has a campaign.
"""

from binascii import crc32

from rules import campaign as cp
from session import ROOT, SNAP_EVERY
import store

MAX_SNAP = 16384   # a restore's snapshot: a few KB; refused beyond this


def stage(s, n):
    """nN/, emptied of what a power cut or reset left: where campaign n is
    written before it is swapped in."""
    path = "%s/n%d" % (ROOT, n)
    s.fs.mkdir(path)
    from store.slots import clear
    clear(s.fs, path)
    return path


def adopt(s, path, n):
    """Make the campaign staged in `path` slot n, the current one: one
    rename (atomic on littlefs; a reset before it boots the old one)."""
    s.fs.rename(path, "%s/c%d" % (ROOT, n))
    s.n = n
    s.load()


def new_campaign(s, system, name=""):
    """Campaign n+1 of `system` on session `s`: its first snapshot staged
    (and its name when it has one: event 1, RENAME of the campaign itself,
    so a fold from event 1 names it too), then swapped in; the old one
    stays on flash. ValueError, before anything is written: a system or a
    name the rules refuse. (The link calls this for the host's NEW, not
    Session.new_campaign: session.py loads at every boot.)"""
    if not 0 <= system <= 2:
        raise ValueError("rule system %d is not 0 hunt, 1 paths or 2 expedition" % system)
    bad = name and cp.name_error(name)
    if bad:
        raise ValueError("the campaign's name: " + bad)
    n = s.n + 1
    path = stage(s, n)
    c = cp.Campaign(system, s._cid(), cp.UNDO_DEPTH)
    st = store.Store(s.fs, path, s.kind, store.JOURNAL_KEEP)
    st.open()
    st.snapshot(cp.encode_snapshot(c), 0)
    if name:
        c.act(cp.RENAME, (2, 0), name)
        st.append(c.events[-1])
        st.snapshot(cp.encode_snapshot(c))   # the slot lists its name at once (store/slots.py)
    st.close()
    adopt(s, path, n)


class Restore:
    """A restore into slot session.n + 1: snapshot `size` bytes (CRC
    `crc`) standing for events 1..seq, and journal events first..first +
    count - 1; `head` the chain's head after seq (32 bytes, None: unknown).
    ValueError names what does not fit."""

    def __init__(self, s, seq, first, count, size, crc, head=None):
        if not 0 < size <= MAX_SNAP:
            raise ValueError("a snapshot of %d bytes: this firmware takes 1..%d" % (size, MAX_SNAP))
        if first < 1 or count < 0 or not first - 1 <= seq <= first - 1 + count:
            raise ValueError("restore of events %d..%d with a snapshot at %d: the snapshot must "
                             "be within them" % (first, first + count - 1, seq))
        if first > 1 and seq != first - 1:
            raise ValueError("a journal from event %d needs the snapshot at %d, not %d"
                             % (first, first - 1, seq))
        self.s = s
        self.n = s.n + 1
        self.path = stage(s, self.n)
        self.seq, self.first, self.count, self.head, self.crc = seq, first, count, head, crc
        self.snap = bytearray(size)
        self.got = 0             # snapshot bytes received
        self.next = first        # the next event expected
        self.st = None           # the staged Store, once the snapshot is in
        self.c = None            # the campaign folded so far
        self.target = None       # the snapshot a journal from event 1 must fold to
        self.ok = True           # False once refused: only abort() is left
        self.matched = False     # the fold has met the snapshot

    def _live(self):
        if not self.ok:
            raise ValueError("this restore failed: abort it and start again")

    def _fail(self, msg):
        self.ok = False
        return ValueError(msg)

    def snapshot(self, off, data):
        """The snapshot's bytes from `off`; returns how many are in."""
        self._live()
        if off != self.got:
            raise ValueError("snapshot bytes expected at offset %d, not %d" % (self.got, off))
        buf = self.snap
        if off + len(data) > len(buf):
            raise ValueError("snapshot longer than the %d bytes announced" % len(buf))
        buf[off:off + len(data)] = data
        self.got = off + len(data)
        if self.got == len(buf):
            self._open()
        return self.got

    def _open(self):
        snap = bytes(self.snap)
        self.snap = None
        if crc32(snap) & 0xFFFFFFFF != self.crc:
            raise self._fail("restore snapshot CRC mismatch: the bytes were damaged on the way")
        try:
            base = cp.decode_snapshot(snap, cp.UNDO_DEPTH, False)
        except ValueError as e:
            raise self._fail("restore snapshot refused: %s" % e)
        if base.nevents != self.seq:
            raise self._fail("the snapshot covers %d events, not %d" % (base.nevents, self.seq))
        st = self.st = store.Store(self.s.fs, self.path, self.s.kind, store.JOURNAL_KEEP)
        st.open()
        if self.first == 1:
            c = cp.Campaign(base.system, base.cid, cp.UNDO_DEPTH, False)
            st.snapshot(cp.encode_snapshot(c), 0)
            self.target = snap
            self._check(c)
        else:
            st.start(snap, self.seq, self.head)
            c = base
            self.matched = True
        self.c = c

    def _check(self, c):
        # Replaying the journal from the start must give the snapshot exactly.
        if c.nevents == self.seq:
            if cp.encode_snapshot(c) != self.target:
                raise self._fail("events 1..%d do not fold to the snapshot at %d: the backup "
                                 "is inconsistent" % (self.seq, self.seq))
            self.matched = True
            self.target = None

    def events(self, idx, evs):
        """Events numbered idx, idx + 1, ... (bytes each): each folded, then
        written to the staged journal; ValueError stops at the first that
        does not fit (one the rules refuse fails the restore)."""
        self._live()
        c = self.c
        if c is None:
            raise ValueError("send the whole snapshot (R_SNAP) before the events")
        if idx != self.next:
            raise ValueError("restore events expected from %d, not %d" % (self.next, idx))
        st = self.st
        for ev in evs:
            if self.next >= self.first + self.count:
                raise ValueError("more events than the %d announced" % self.count)
            try:
                c.apply(ev)
            except ValueError as e:
                raise self._fail("restore event %d refused, nothing changed: %s" % (self.next, e))
            st.append(ev)
            self.next += 1
            if st.seq % SNAP_EVERY == 0:   # the live store's cadence
                st.snapshot(cp.encode_snapshot(c))
            if not self.matched:
                self._check(c)

    def commit(self):
        """Read the staged campaign back as a boot would, then make it the
        current one (the rename) and delete its copies in other slots;
        ValueError if it is incomplete or does not read back as written."""
        self._live()
        c = self.c
        last = self.first + self.count - 1
        if c is None or self.next != last + 1 or not self.matched:
            raise ValueError("restore incomplete: %d of %d events staged"
                             % (self.next - self.first, self.count))
        st = self.st
        want = cp.encode_snapshot(c)
        st.snapshot(want)
        st.close()
        self.st = None
        chk = store.Store(self.s.fs, self.path, self.s.kind, store.JOURNAL_KEEP)
        state, evs, rep = chk.open()
        chk.close()
        if not rep.ok() or rep.seq != last or state is None:
            raise self._fail("staged campaign did not read back: %s" % "; ".join(rep.errors))
        c2 = cp.decode_snapshot(state, cp.UNDO_DEPTH, False)
        for ev in evs:
            c2.apply(ev)
        if cp.encode_snapshot(c2) != want:
            raise self._fail("staged campaign did not read back as written")
        # One campaign, one slot: the copies of it on the flash (the current
        # one a restore replaces, an older one in another slot) go once the
        # restored one is current; other campaigns keep their slots. A reset
        # between the rename and a delete leaves a copy (nothing is lost).
        s = self.s
        copies = [t[0] for t in s.campaigns()[0] if t[1] == c.cid and t[2] == c.system]
        adopt(s, self.path, self.n)
        from store.slots import delete
        for n in copies:
            delete(s, n, ROOT)

    def abort(self):
        """Drop the staged store (its files stay until the next staging of
        that slot clears them: nN/ is never booted)."""
        if self.st is not None:
            self.st.close()
            self.st = None
