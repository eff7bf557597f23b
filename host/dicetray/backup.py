"""The host's backup store: one SQLite database of immutable campaign versions.

    st = BackupStore()                      # $DICETRAY_HOME/backups.sqlite3
    r = st.take(dev)                        # incremental; r.backup, r.duplicate, r.notes
    st.list(); b = st.load(3)               # load verifies hashes and refolds
    snap, events, seq = st.restore_payload(3)

Tables (docs/backup.md has the full schema and the reasons):
- campaigns: one row per lineage of a device campaign (cid, system). A device
  whose history no longer matches the stored one (an older backup restored
  and played on) gets a new lineage whose `parent`/`fork` say where it split.
- events: every event once, keyed by (lineage, seq), with its CRC-32. A
  lineage reads events up to its fork from its parent.
- bases: device snapshots a backup starts from when the device had already
  compacted events the host never saw (the gap is written in the backup).
- backups: immutable versions (seq range, state and its SHA-256, a digest
  of the events it covers, a complete flag). SQLite triggers refuse any
  DELETE and any UPDATE except the one that marks a new row complete.

A backup is written in one transaction and its row is read only when
complete = 1, so a host killed mid-backup leaves earlier versions intact and
never a partial one that looks whole. Every read verifies what it reads and
raises StoreError naming the backup, event or file that is damaged.
"""

import hashlib
import os
import sqlite3
import time
import zlib

from .datadir import home  # noqa: F401  (the backups live there)
from .rules import campaign as cp
from .rules import codec, systems

STORE_VERSION = 1
DB_NAME = "backups.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns (
    id      INTEGER PRIMARY KEY,
    cid     INTEGER NOT NULL,        -- the device's campaign id
    system  INTEGER NOT NULL,        -- 0 hunt, 1 paths, 2 expedition
    schema  INTEGER NOT NULL,        -- state schema (codec.VERSION)
    parent  INTEGER REFERENCES campaigns(id),
    fork    INTEGER,                 -- last seq shared with parent
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    campaign INTEGER NOT NULL REFERENCES campaigns(id),
    seq      INTEGER NOT NULL,
    ev       BLOB NOT NULL,
    crc      INTEGER NOT NULL,       -- zlib.crc32(ev)
    PRIMARY KEY (campaign, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bases (
    id       INTEGER PRIMARY KEY,
    campaign INTEGER NOT NULL REFERENCES campaigns(id),
    seq      INTEGER NOT NULL,       -- the snapshot is the state after this event
    snap     BLOB NOT NULL,          -- campaign.encode_snapshot bytes from the device
    sha      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS backups (
    id         INTEGER PRIMARY KEY,
    campaign   INTEGER NOT NULL REFERENCES campaigns(id),
    base       INTEGER REFERENCES bases(id),   -- NULL: folds from a new campaign
    first      INTEGER NOT NULL,     -- oldest event held (1 = full history)
    last       INTEGER NOT NULL,     -- newest event covered
    state      BLOB NOT NULL,        -- campaign.encode_state after `last`
    state_sha  TEXT NOT NULL,
    events_sha TEXT NOT NULL,        -- digest of events first..last
    gap        TEXT NOT NULL,        -- '' or what the device no longer had
    device     TEXT NOT NULL,        -- where it came from (not part of exports)
    firmware   TEXT NOT NULL,
    created    REAL NOT NULL,
    complete   INTEGER NOT NULL DEFAULT 0
);
CREATE TRIGGER IF NOT EXISTS backups_keep BEFORE DELETE ON backups
BEGIN SELECT RAISE(ABORT, 'backups are never deleted'); END;
CREATE TRIGGER IF NOT EXISTS backups_frozen BEFORE UPDATE ON backups
WHEN OLD.complete = 1 OR NEW.complete != 1 OR NEW.state IS NOT OLD.state OR NEW.last != OLD.last
BEGIN SELECT RAISE(ABORT, 'a backup is immutable'); END;
CREATE TRIGGER IF NOT EXISTS events_keep BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'stored events are never deleted'); END;
CREATE TRIGGER IF NOT EXISTS events_frozen BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'stored events are immutable'); END;
CREATE TRIGGER IF NOT EXISTS bases_frozen BEFORE UPDATE ON bases
BEGIN SELECT RAISE(ABORT, 'stored snapshots are immutable'); END;
CREATE TRIGGER IF NOT EXISTS bases_keep BEFORE DELETE ON bases
BEGIN SELECT RAISE(ABORT, 'stored snapshots are never deleted'); END;
"""


class StoreError(Exception):
    """Damaged or inconsistent backup data, or a backup that cannot be taken."""


def sha(b):
    return hashlib.sha256(b).hexdigest()


def events_digest(first, events):
    """SHA-256 over the events first..first+len-1 with their seq and length."""
    h = hashlib.sha256()
    for i, ev in enumerate(events):
        h.update(b"%d:%d:" % (first + i, len(ev)))
        h.update(ev)
    return h.hexdigest()


def snapshot_bytes(s):
    """dev.snapshot() may answer bytes or (seq, bytes)."""
    return s[1] if isinstance(s, tuple) else s


def fold(system, cid, base, events, depth=None):
    """The campaign: `base` (encode_snapshot bytes or None for a new
    campaign) with `events` applied. ValueError if an event does not apply."""
    if base:
        c = cp.decode_snapshot(base, depth, False)
    else:
        c = cp.Campaign(system, cid, depth, False)
    for ev in events:
        c.apply(ev)
    return c


class Backup:
    """One verified backup version (see BackupStore.load)."""

    def __init__(self, row, cid, system, schema, base_seq, base_snap, events):
        (self.id, self.lineage, self.base, self.first, self.last, self.state, self.state_sha,
         self.events_sha, self.gap, self.device, self.firmware, self.created, _c) = row
        self.cid, self.system, self.schema = cid, system, schema
        self.base_seq = base_seq      # the fold starts after this seq (0: a new campaign)
        self.base_snap = base_snap    # None: a new campaign
        self.events = events          # history: events first..last

    def fold(self, depth=None):
        """The campaign this backup holds (depth: the undo window to keep)."""
        return fold(self.system, self.cid, self.base_snap,
                    self.events[self.base_seq - self.first + 1:], depth)

    def campaign(self):
        return self.fold()


class Result:
    """What take() did: `backup` (the new or the identical old version),
    `duplicate` (True: nothing new, no version added), `fetched` (events
    that crossed the wire), `notes` (gaps, forks)."""

    def __init__(self, backup_id, duplicate, fetched, notes, last, cid):
        self.backup = backup_id
        self.duplicate = duplicate
        self.fetched = fetched
        self.notes = notes
        self.last = last
        self.cid = cid


class _Mismatch(Exception):
    """The fetched history does not fold to the device's state."""


class _Plan:
    """What take() will store: the lineage (None: new), its parent and fork,
    the base snapshot, stored history `old` from `first`, fetched `new`
    events from seq `new_from`, notes for the user."""

    def __init__(self):
        self.camp = self.parent = self.fork = None
        self.base_seq, self.base_snap, self.base_id = 0, None, None
        self.first, self.new_from = 1, 1
        self.old, self.new = [], []
        self.notes = []
        self.baseline = False


class BackupStore:
    """The SQLite database of backups (created on first use)."""

    def __init__(self, path=None):
        if path is None:
            d = home()
            try:
                os.makedirs(d, exist_ok=True)
            except OSError as e:
                raise StoreError("cannot create the data directory %s (%s): set DICETRAY_HOME "
                                 "to a writable directory" % (d, e.strerror))
            path = os.path.join(d, DB_NAME)
        self.path = path
        self.fault = None  # tests: called with a stage name in the middle of take()
        try:
            self.db = sqlite3.connect(path, isolation_level=None, timeout=10)
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
            v = self.db.execute("SELECT value FROM meta WHERE key='store_version'").fetchone()
            if v is None:
                self.db.execute("INSERT INTO meta VALUES ('store_version', ?)", (str(STORE_VERSION),))
            elif int(v[0]) > STORE_VERSION:
                raise StoreError("backup database %s is store version %s, this dicetray reads %d: "
                                 "upgrade dicetray" % (path, v[0], STORE_VERSION))
        except sqlite3.DatabaseError as e:
            raise self._damaged(e)

    def close(self):
        self.db.close()

    def _damaged(self, e, what=""):
        return StoreError("backup database %s is damaged%s (%s): keep the file, copy it aside and "
                          "restore from another backup or an older copy of it"
                          % (self.path, what, e))

    def _q(self, sql, params=(), what=""):
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._damaged(e, what)

    # --- reading -------------------------------------------------------------
    def _lineage(self, camp):
        r = self._q("SELECT cid, system, schema, parent, fork FROM campaigns WHERE id=?", (camp,))
        if not r:
            raise StoreError("backup database %s: campaign lineage %d is missing" % (self.path, camp))
        return r[0]

    def _events(self, camp, lo, hi, who="campaign"):
        """Events lo..hi of lineage `camp` (its parent's up to the fork), CRC-checked."""
        out = []
        if lo > hi:
            return out
        cid, _s, _v, parent, fork = self._lineage(camp)
        if parent is not None and lo <= fork:
            out = self._events(parent, lo, min(hi, fork), who)
            lo = fork + 1
            if lo > hi:
                return out
        rows = self._q("SELECT seq, ev, crc FROM events WHERE campaign=? AND seq BETWEEN ? AND ? "
                       "ORDER BY seq", (camp, lo, hi), " reading events of %s" % who)
        want = lo
        for seq, ev, crc in rows:
            if seq != want:
                raise StoreError("%s: event %d of campaign %d is missing from %s"
                                 % (who, want, cid, self.path))
            if zlib.crc32(ev) != crc:
                raise StoreError("%s: event %d of campaign %d is damaged (CRC mismatch) in %s"
                                 % (who, seq, cid, self.path))
            out.append(bytes(ev))
            want += 1
        if want != hi + 1:
            raise StoreError("%s: event %d of campaign %d is missing from %s"
                             % (who, want, cid, self.path))
        return out

    def _row(self, bid):
        r = self._q("SELECT id, campaign, base, first, last, state, state_sha, events_sha, gap, "
                    "device, firmware, created, complete FROM backups WHERE id=?", (bid,),
                    " reading backup %s" % bid)
        if not r:
            raise StoreError("no backup %s in %s: `dicetray backups` lists them" % (bid, self.path))
        if not r[0][12]:
            raise StoreError("backup %s is incomplete (a backup was interrupted): it cannot be used; "
                             "take a new one with `dicetray backup`" % bid)
        return r[0]

    def load(self, bid, verify=True):
        """Backup `bid` with its events, verified: hashes, CRCs, and (verify)
        that its events fold to its recorded state. StoreError names damage."""
        row = self._row(bid)
        who = "backup %d" % bid
        camp, base, first, last, state, ssha, esha = row[1:8]
        cid, system, schema, _p, _f = self._lineage(camp)
        if sha(state) != ssha:
            raise StoreError("%s is damaged: its state does not match its SHA-256 (in %s); "
                             "other backups are unaffected" % (who, self.path))
        base_seq, snap = 0, None
        if base is not None:
            b = self._q("SELECT seq, snap, sha FROM bases WHERE id=?", (base,), " reading " + who)
            if not b or sha(b[0][1]) != b[0][2]:
                raise StoreError("%s is damaged: its base snapshot %s is missing or fails its "
                                 "SHA-256 (in %s)" % (who, base, self.path))
            base_seq, snap = b[0][0], bytes(b[0][1])
        events = self._events(camp, first, last, who)
        if events_digest(first, events) != esha:
            raise StoreError("%s is damaged: its events %d..%d do not match their digest (in %s)"
                             % (who, first, last, self.path))
        bk = Backup(row, cid, system, schema, base_seq, snap, events)
        bk.state = bytes(state)
        if verify:
            try:
                c = bk.fold()
            except ValueError as e:
                raise StoreError("%s is damaged: its events do not replay (%s)" % (who, e))
            if cp.encode_state(c) != bk.state:
                raise StoreError("%s is damaged: its events do not fold to its recorded state" % who)
        return bk

    def list(self):
        """Complete backups, oldest first, as dicts (no verification)."""
        rows = self._q(
            "SELECT b.id, b.campaign, c.cid, c.system, b.first, b.last, b.state_sha, b.gap, "
            "b.device, b.firmware, b.created, c.parent, c.fork, "
            "(SELECT seq FROM bases WHERE id=b.base) "
            "FROM backups b JOIN campaigns c ON c.id=b.campaign WHERE b.complete=1 ORDER BY b.id",
            (), " listing backups")
        out = []
        for r in rows:
            out.append({"id": r[0], "lineage": r[1], "campaign": r[2],
                        "system": systems.NAMES[r[3]] if 0 <= r[3] < 3 else str(r[3]),
                        "first": r[4], "last": r[5], "events": r[5] - r[4] + 1,
                        "state_sha256": r[6], "gap": r[7], "device": r[8], "firmware": r[9],
                        "created": r[10], "parent": r[11], "fork": r[12], "base_seq": r[13] or 0})
        return out

    def incomplete(self):
        """How many interrupted (never completed) backup rows exist."""
        return self._q("SELECT count(*) FROM backups WHERE complete=0")[0][0]

    def restore_payload(self, bid, depth=cp.UNDO_DEPTH):
        """(snapshot, events, seq, first) for Device.restore: `events` are
        the journal events numbered from `first`; `snapshot` is the campaign
        after event `seq` with the device's undo window. A full backup sends
        its whole history (first 1, seq = its last event, the snapshot
        refolded exactly as the device folds); a baseline sends the device
        snapshot it started from (seq = its event) and the events after it."""
        b = self.load(bid)
        if b.base_snap is None:
            return cp.encode_snapshot(b.fold(depth)), list(b.events), b.last, b.first
        return b.base_snap, b.events[b.base_seq - b.first + 1:], b.base_seq, b.base_seq + 1

    # --- taking a backup ------------------------------------------------------
    def _current(self, cid, system):
        """(lineage id, newest complete backup row id) for this campaign, or None."""
        r = self._q("SELECT b.campaign, b.id FROM backups b JOIN campaigns c ON c.id=b.campaign "
                    "WHERE c.cid=? AND c.system=? AND b.complete=1 ORDER BY b.id DESC LIMIT 1",
                    (cid, system))
        return r[0] if r else None

    def _stage(self, name):
        if self.fault:
            self.fault(name)

    def take(self, dev, progress=None, now=None):
        """Back up the device's campaign: fetch only events after the newest
        backup, verify that they fold to the device's state, and store a new
        version in one transaction (or report that nothing changed)."""
        info = dev.info()
        try:
            system = systems.number(info["system"])
        except ValueError as e:
            raise StoreError("the device runs %s" % e)
        if info["schema"] != codec.VERSION:
            raise StoreError("the device's state schema is %d, this host reads %d: upgrade the %s"
                             % (info["schema"], codec.VERSION,
                                "host tool" if info["schema"] > codec.VERSION else "firmware"))
        cid, n, dfirst = info["campaign"], info["events"], info.get("first", 1)
        fetched = [0]

        def fetch(since):
            evs = dev.events(since, progress) if progress else dev.events(since)
            fetched[0] += len(evs)
            return [bytes(e) for e in evs]

        cur = self._current(cid, system)
        prev, damaged = None, None
        if cur:
            try:
                prev = self.load(cur[1])
            except StoreError as e:
                damaged = str(e)
        p = self._plan(prev, n, dfirst, fetch)
        if damaged:
            p.notes.insert(0, "%s: this version does not build on it" % damaged)
        if not p.baseline:
            try:
                c, events, last = self._check(p, system, cid, dev, fetch)
            except _Mismatch:
                if dfirst <= 1:
                    raise StoreError("backup not taken: the device's events do not fold to the "
                                     "state it reports; nothing was stored")
                p.notes.append("the stored history does not lead to the device's state: "
                               "this version starts from the device's snapshot")
                if p.camp is not None:  # not a continuation after all
                    p.parent, p.camp, p.fork = p.camp, None, 0
                p.baseline = True
        if p.baseline:
            self._baseline(p, dev, dfirst, fetch)
            try:
                c, events, last = self._check(p, system, cid, dev, fetch)
            except _Mismatch:
                raise StoreError("backup not taken: the device's events after its snapshot do not "
                                 "fold to the state it reports; nothing was stored")
        self._stage("fetched")
        state = cp.encode_state(c)
        if (prev is not None and p.camp == prev.lineage and last == prev.last
                and sha(state) == prev.state_sha and not p.baseline):
            return Result(prev.id, True, fetched[0], p.notes, last, cid)
        new = events[p.new_from - p.first:]
        bid = self._write(p, cid, system, last, state, events_digest(p.first, events),
                          info, new, now)
        return Result(bid, False, fetched[0], p.notes, last, cid)

    def _plan(self, prev, n, dfirst, fetch):
        """Which lineage the device continues and which events to fetch."""
        p = _Plan()
        if prev is None:
            if dfirst > 1:
                p.notes.append("events 1..%d were compacted on the device before the first "
                               "backup: this version starts from the device's snapshot"
                               % (dfirst - 1))
                p.baseline = True
            else:
                p.new = fetch(0)
            return p
        a = prev.last
        if n >= a and dfirst > a + 1:
            p.camp = prev.lineage
            p.notes.append("events %d..%d were compacted on the device before they were backed "
                           "up: this version starts from the device's snapshot" % (a + 1, dfirst - 1))
            p.baseline = True
            return p
        if n >= a and (dfirst <= a or a == prev.base_seq):
            if a > prev.base_seq:
                evs = fetch(a - 1)  # one stored event too: it must match
                ok = bool(evs) and evs[0] == prev.events[-1]
                evs = evs[1:]
            else:  # a baseline version: its anchor event is not stored
                evs, ok = fetch(a), True
            if ok:
                p.camp = prev.lineage
                p.base_seq, p.base_snap, p.base_id = prev.base_seq, prev.base_snap, prev.base
                p.first, p.old, p.new_from, p.new = prev.first, prev.events, a + 1, evs
                return p
        # The device's history does not continue the stored one (an older
        # backup restored and played on, a reset...): a new lineage.
        evs = fetch(dfirst - 1)
        fork = dfirst - 1
        for i, ev in enumerate(evs):
            s = dfirst + i
            if s > a or s < prev.first or prev.events[s - prev.first] != ev:
                break
            fork = s
        p.parent = prev.lineage
        p.notes.append("the device's history differs from backup %d after event %d: stored as "
                       "a new lineage (older versions are kept)" % (prev.id, fork))
        if prev.first == 1 and prev.base is None and fork <= a:
            p.fork, p.old, p.new_from = fork, prev.events[:fork], fork + 1
            p.new = evs[fork + 1 - dfirst:]
        elif dfirst <= 1:
            p.fork, p.new = 0, evs
        else:
            p.fork = 0
            p.baseline = True
        return p

    def _baseline(self, p, dev, dfirst, fetch):
        """Start the version from the device's snapshot plus what it still has."""
        snap = snapshot_bytes(dev.snapshot())
        try:
            p.base_seq = cp.decode_snapshot(snap, None, False).nevents
        except ValueError as e:
            raise StoreError("the device's snapshot does not decode (%s): backup not taken" % e)
        p.base_snap, p.base_id = snap, None
        p.first = p.new_from = dfirst
        p.old = []
        p.new = fetch(dfirst - 1)
        if p.base_seq < dfirst - 1 or p.base_seq > dfirst - 1 + len(p.new):
            raise StoreError("the device's snapshot (event %d) is outside the events it holds "
                             "(%d..%d): backup not taken" % (p.base_seq, dfirst,
                                                              dfirst - 1 + len(p.new)))

    def _check(self, p, system, cid, dev, fetch):
        """Fold the plan's history and compare it with the device's own state
        (fetching what the device added meanwhile). Raises _Mismatch."""
        events = list(p.old) + list(p.new)
        last = p.first + len(events) - 1
        try:
            c = fold(system, cid, p.base_snap, events[p.base_seq - p.first + 1:])
        except ValueError:
            raise _Mismatch()
        for _ in range(4):
            snap = snapshot_bytes(dev.snapshot())
            try:
                d = cp.decode_snapshot(snap, None, False)
            except ValueError as e:
                raise StoreError("the device's snapshot does not decode (%s): backup not taken" % e)
            if d.nevents <= last:
                break
            more = fetch(last)  # the device moved on while we read
            try:
                for ev in more:
                    c.apply(ev)
            except ValueError:
                raise _Mismatch()
            p.new = list(p.new) + more
            events += more
            last += len(more)
        if d.nevents != last or cp.encode_state(d) != cp.encode_state(c):
            raise _Mismatch()
        return c, events, last

    def _write(self, p, cid, system, last, state, esha, info, new, now):
        camp, base_id = p.camp, p.base_id
        db = self.db
        t = time.time() if now is None else now
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if camp is None:
                    camp = db.execute("INSERT INTO campaigns (cid, system, schema, parent, fork, "
                                      "created) VALUES (?,?,?,?,?,?)",
                                      (cid, system, codec.VERSION, p.parent, p.fork, t)).lastrowid
                if p.baseline:
                    base_id = db.execute("INSERT INTO bases (campaign, seq, snap, sha) VALUES "
                                         "(?,?,?,?)", (camp, p.base_seq, p.base_snap,
                                                       sha(p.base_snap))).lastrowid
                bid = db.execute(
                    "INSERT INTO backups (campaign, base, first, last, state, state_sha, "
                    "events_sha, gap, device, firmware, created, complete) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,0)",
                    (camp, base_id, p.first, last, state, sha(state), esha, " ".join(p.notes),
                     str(info.get("device", "")), str(info.get("firmware", "")), t)).lastrowid
                for i, ev in enumerate(new):
                    s = p.new_from + i
                    old = db.execute("SELECT ev FROM events WHERE campaign=? AND seq=?",
                                     (camp, s)).fetchone()
                    if old is None:
                        db.execute("INSERT INTO events VALUES (?,?,?,?)",
                                   (camp, s, ev, zlib.crc32(ev)))
                    elif bytes(old[0]) != ev:
                        raise StoreError("stored event %d of campaign %d differs from the "
                                         "device's: backup not taken" % (s, cid))
                    if i == len(new) // 2:
                        self._stage("events")
                self._stage("row")
                db.execute("UPDATE backups SET complete=1 WHERE id=?", (bid,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as e:
            raise self._damaged(e, " while writing a backup (nothing was added)")
        return bid
