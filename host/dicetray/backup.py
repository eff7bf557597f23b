"""The host's backup store: one SQLite database of immutable campaign versions.

    st = BackupStore()                      # $DICETRAY_HOME/backups.sqlite3
    r = st.take(dev)                        # incremental; r.backup, r.duplicate, r.notes
    st.list(); b = st.load(3)               # load verifies hashes and refolds
    snap, events, seq = st.restore_payload(3)
    BackupStore(path, create=False)         # read only what exists (every command but backup)

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
- folds: each backup's campaign after its last event with the host's undo
  window (encode_snapshot, zlib) and the state of its events digest,
  written with the backup: the next backup folds and digests only the new
  events from there.
- the hash chain (firmware/store/chain.py): every event row keeps the
  chain's head after it (`link`), every backup the head after its last
  event, every base the head after its snapshot; load() checks every link
  (naming the first event that does not lead to its own), take() that the
  device's own head agrees with the stored history before building on it.

A backup is written in one transaction and its row is read only when
complete = 1, so a host killed mid-backup leaves earlier versions intact and
never a partial one that looks whole. Every read verifies what it reads and
raises StoreError naming the backup, event or file that is damaged, or what
else is wrong with the file (read-only, missing, a directory, in use).

Every fold here keeps an undo window of HOST_DEPTH effective actions (twice
the device's), so an undo refolds at most 2 * HOST_DEPTH actions instead of
the whole history: an operation costs what it touches (show, restore,
export, stats: every event they hold; an incremental backup: its new
events only).
"""

import hashlib
import os
import pathlib
import sqlite3
import struct
import time
import zlib

from .datadir import home  # noqa: F401  (the backups live there)
from .fwstore import chain
from .rules import campaign as cp
from .rules import codec, systems

STORE_VERSION = 1
DB_NAME = "backups.sqlite3"
# The host's undo window. The device keeps cp.UNDO_DEPTH (k): its window's
# base only moves to k actions below the top when 2k are undoable. With a
# window of 2k on the host, the host's base never passes the device's (at
# the host's slide, the device's base is at most 2k - 1 below the top), so
# every UNDO the device accepted folds here too. Anything else (a device
# with a wider window) is refolded with the whole history: fold(wide=True).
HOST_DEPTH = 2 * cp.UNDO_DEPTH

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
    link     BLOB,                   -- the hash chain's head after this event (NULL: unknown)
    PRIMARY KEY (campaign, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bases (
    id       INTEGER PRIMARY KEY,
    campaign INTEGER NOT NULL REFERENCES campaigns(id),
    seq      INTEGER NOT NULL,       -- the snapshot is the state after this event
    snap     BLOB NOT NULL,          -- campaign.encode_snapshot bytes from the device
    sha      TEXT NOT NULL,
    head     TEXT                    -- the hash chain's head after seq (hex; NULL: unknown)
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
    complete   INTEGER NOT NULL DEFAULT 0,
    head       TEXT                  -- the hash chain's head after `last` (hex; NULL: unknown)
);
CREATE TABLE IF NOT EXISTS folds (
    backup INTEGER PRIMARY KEY REFERENCES backups(id),
    depth  INTEGER NOT NULL,         -- the undo window it was folded with
    snap   BLOB NOT NULL,            -- zlib of encode_snapshot after the backup's last event
    sha    TEXT NOT NULL,            -- SHA-256 of snap
    digest BLOB NOT NULL             -- the events digest's SHA-256 state (Sha256.state())
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
CREATE TRIGGER IF NOT EXISTS folds_frozen BEFORE UPDATE ON folds
BEGIN SELECT RAISE(ABORT, 'stored folds are immutable'); END;
CREATE TRIGGER IF NOT EXISTS folds_keep BEFORE DELETE ON folds
BEGIN SELECT RAISE(ABORT, 'stored folds are never deleted'); END;
"""


class StoreError(Exception):
    """Damaged or inconsistent backup data, or a backup that cannot be taken."""


class NoDatabase(StoreError):
    """The backup database does not exist (and was not to be created)."""

    def __init__(self, msg, path):
        StoreError.__init__(self, msg)
        self.path = path


def sha(b):
    return hashlib.sha256(b).hexdigest()


def _digest(first, events, h=None):
    """The events digest's hash object (hashlib's, or `h` continued) after
    the events first..first+len-1, each as b"seq:len:" + event."""
    if h is None:
        h = hashlib.sha256()
    h.update(b"".join(b"%d:%d:%s" % (first + i, len(ev), ev) for i, ev in enumerate(events)))
    return h


def events_digest(first, events):
    """SHA-256 over the events first..first+len-1 with their seq and length."""
    return _digest(first, events).hexdigest()


_K = (0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
      0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
      0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
      0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
      0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
      0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
      0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2)
_IV = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
       0x5be0cd19)
_M = 0xffffffff


def _compress(st, block):
    """One SHA-256 block (FIPS 180-4, 6.2.2) on state `st` (8 words)."""
    w = list(struct.unpack(">16I", block))
    for i in range(16, 64):
        x, y = w[i - 15], w[i - 2]
        w.append((w[i - 16] + w[i - 7]
                  + ((x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3))
                  + ((y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10))) & _M)
    a, b, c, d, e, f, g, h = st
    for i in range(64):
        t1 = (h + ((e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7))
              + ((e & f) ^ (~e & g)) + _K[i] + w[i]) & _M
        t2 = ((a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)) \
            + ((a & b) ^ (a & c) ^ (b & c))
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & _M, c, b, a, (t1 + t2) & _M
    return tuple((x + y) & _M for x, y in zip(st, (a, b, c, d, e, f, g, h)))


class Sha256:
    """SHA-256 whose state can be saved and resumed (hashlib's cannot), so
    a backup's events digest goes on from the previous version's over the
    new events only. Pure Python (about 600 KB/s): only what take() adds
    goes through it; load() checks every digest with hashlib."""

    def __init__(self, state=None):
        self.h, self.n, self.tail = _IV, 0, b""
        if state is not None:
            if len(state) < 40:
                raise ValueError("a SHA-256 state is at least 40 bytes")
            self.h = struct.unpack(">8I", state[:32])
            self.n = struct.unpack(">Q", state[32:40])[0]
            self.tail = bytes(state[40:])
            if len(self.tail) != self.n % 64:
                raise ValueError("SHA-256 state: %d bytes pending, not %d"
                                 % (len(self.tail), self.n % 64))

    def update(self, data):
        buf = self.tail + data
        self.n += len(data)
        h, end = self.h, len(buf) - len(buf) % 64
        for i in range(0, end, 64):
            h = _compress(h, buf[i:i + 64])
        self.h, self.tail = h, buf[end:]

    def copy(self):
        return Sha256(self.state())

    def state(self):
        """The bytes Sha256(state) resumes from: words, length, pending tail."""
        return struct.pack(">8IQ", *(self.h + (self.n,))) + self.tail

    def hexdigest(self):
        pad = self.tail + b"\x80" + b"\x00" * ((55 - self.n) % 64) + struct.pack(">Q", self.n * 8)
        h = self.h
        for i in range(0, len(pad), 64):
            h = _compress(h, pad[i:i + 64])
        return struct.pack(">8I", *h).hex()


def unhex(h):
    """A chain head stored or reported as hex: its bytes, or None (unknown)."""
    return bytes.fromhex(h) if h else None


def device_head(dev, seq):
    """The device's chain head after event `seq` (bytes), or None where it
    cannot say (firmware before the chain, a head it no longer knows)."""
    from .link.client import DeviceError
    ask = getattr(dev, "chain", None)
    if ask is None:
        return None
    try:
        return ask(seq)
    except DeviceError:   # an old firmware, or a head it no longer knows
        return None


def snapshot_bytes(s):
    """dev.snapshot() may answer bytes or (seq, bytes)."""
    return s[1] if isinstance(s, tuple) else s


def start(system, cid, base=None, depth=HOST_DEPTH):
    """The campaign a fold starts from: a new one (`base` None) or the
    device snapshot `base` (encode_snapshot bytes), keeping an undo window
    of `depth` effective actions (None: every one).

    A device snapshot carries the device's window, whose midpoint is a
    state after its own depth: with fewer effective actions than `depth`
    that midpoint is not ours and is dropped (the window then refolds from
    the snapshot's base, as it should); with more (a device with a wider
    window than ours) the fold keeps the whole history."""
    if not base:
        return cp.Campaign(system, cid, depth, False)
    c = cp.decode_snapshot(base, None, False)
    if depth is not None and len(c.done) < depth:
        c.depth, c._mid = depth, None
    return c


def _undo(ev):
    try:
        return codec.decode_event(ev)[0] == cp.UNDO
    except ValueError:
        return False


def fold(system, cid, base, events, depth=HOST_DEPTH, wide=True):
    """The campaign: `base` (encode_snapshot bytes or None for a new
    campaign) with `events` applied, keeping an undo window of `depth`.
    ValueError if an event does not apply. `wide`: an UNDO that falls
    outside the window (a device that kept a wider one) refolds everything
    with the whole history instead of failing."""
    c = start(system, cid, base, depth)
    for ev in events:
        try:
            c.apply(ev)
        except ValueError:
            if not (wide and c.depth is not None and _undo(ev)):
                raise
            return fold(system, cid, base, events, None)
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
        self._c = None                # the fold, once made
        self.head = None              # the chain's head after `last` (hex; None: unknown)
        self.base_head = None         # ... after base_seq (a baseline's; None: unknown)
        self.links = None             # the stored chain head after each event (bytes or None)

    def folded_events(self):
        """The events the fold applies (after the base)."""
        return self.events[self.base_seq - self.first + 1:]

    def fold(self, depth=None):
        """The campaign this backup holds: folded once (with the host's
        window), then the same object (read it, do not change it). With
        `depth`, a new fold with exactly that undo window (restore_payload
        sends the device's)."""
        if depth is not None:
            return fold(self.system, self.cid, self.base_snap, self.folded_events(), depth,
                        wide=False)
        if self._c is None:
            self._c = fold(self.system, self.cid, self.base_snap, self.folded_events())
        return self._c

    def campaign(self):
        return self.fold()

    def walk_chain(self):
        """Walk the hash chain over the events (needs them and `links`, the
        stored head after each): (heads, bad). heads[i] is the head after
        event first+i (None where the chain's start is unknown and no link
        is stored); bad is the first event whose stored link its bytes do
        not lead to (None: every link holds)."""
        h = chain.ZERO if self.base_snap is None and self.first == 1 else None
        if self.base_snap is not None and self.base_seq < self.first:
            h = unhex(self.base_head)
        links = self.links or [None] * len(self.events)
        heads = []
        for i, ev in enumerate(self.events):
            s = self.first + i
            if self.base_snap is not None and s == self.base_seq + 1 and self.base_head:
                h = unhex(self.base_head)
            if h is not None:
                h = chain.link(h, s, ev)
                if links[i] is not None and bytes(links[i]) != h:
                    return heads, s
            elif links[i] is not None:
                h = bytes(links[i])   # no start known: each link is checked against the one before
            heads.append(h)
        return heads, None

    def head_at(self, seq, heads):
        """The chain's head after event `seq` (bytes or None) from
        walk_chain()'s heads: 0 and a baseline's snapshot have their own."""
        if self.first <= seq <= self.last:
            return heads[seq - self.first]
        if seq == self.base_seq and self.base_snap is not None:
            return unhex(self.base_head)
        return chain.ZERO if seq == 0 else None


class Result:
    """What take() did: `backup` (the new or the identical old version),
    `duplicate` (True: nothing new, no version added), `fetched` (events
    that crossed the wire), `notes` (gaps, forks)."""

    def __init__(self, backup_id, duplicate, fetched, notes, last, cid, head=None):
        self.backup = backup_id
        self.head = head          # the chain's head after `last` (hex; None: unknown)
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
    events from seq `new_from`, notes for the user. When the device
    continues the newest backup (`prev`): `resume`, its campaign (the new
    events fold onto it), `hasher`, its events digest, and `old` None
    until something needs the stored events."""

    def __init__(self):
        self.camp = self.parent = self.fork = None
        self.base_seq, self.base_snap, self.base_id = 0, None, None
        self.first, self.new_from = 1, 1
        self.old, self.new = [], []
        self.notes = []
        self.baseline = False
        self.resume = self.hasher = self.prev = None
        self.prev_head = None   # a continuation: the chain's head after prev's last (bytes)
        self.base_head = None   # a baseline: the device's head after its snapshot (bytes)


def _name(e):
    """SQLite's error name (Python 3.11+), else ''."""
    return getattr(e, "sqlite_errorname", None) or ""


def _corrupt(e):
    n, m = _name(e), str(e)
    return (n.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_IOERR"))
            or "malformed" in m or "not a database" in m or "disk I/O" in m)


LIST_SQL = ("SELECT b.id, b.campaign, c.cid, c.system, b.first, b.last, b.state_sha, b.gap, "
            "b.device, b.firmware, b.created, c.parent, c.fork, "
            "(SELECT seq FROM bases WHERE id=b.base), c.id "
            "FROM backups b LEFT JOIN campaigns c ON c.id=b.campaign WHERE b.complete=1 %s "
            "ORDER BY b.id")


class BackupStore:
    """The SQLite database of backups.

    `create` (what `dicetray backup` does): make the database (and the
    default data directory) if it does not exist yet, and add the tables a
    newer dicetray uses. Without it (every other command) the database is
    only read: a missing file raises NoDatabase and nothing is created."""

    def __init__(self, path=None, create=True):
        explicit = path is not None
        if path is None:
            d = home()
            if create:
                try:
                    os.makedirs(d, exist_ok=True)
                except OSError as e:
                    raise StoreError("cannot create the data directory %s (%s): set DICETRAY_HOME "
                                     "to a writable directory" % (d, e.strerror))
            path = os.path.join(d, DB_NAME)
        self.path = path
        self.fault = None  # tests: called with a stage name in the middle of take()
        self.unreadable = []  # list(): (backup id, why) of rows that could not be read
        self.has_folds = False
        self.has_heads = False
        self._check_path(create, explicit)
        uri = pathlib.Path(os.path.abspath(path)).as_uri() + ("?mode=rwc" if create else "?mode=rw")
        try:
            self.db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        except sqlite3.DatabaseError as e:
            raise self._error(e)
        try:
            self.db.execute("PRAGMA foreign_keys=ON")
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                raise StoreError("%s is an SQLite database but not a dicetray backup database "
                                 "(it has no store version): check --db" % path)
            if create:
                self.db.execute("PRAGMA synchronous=FULL")
                if not tables >= {"meta", "campaigns", "events", "bases", "backups", "folds"}:
                    self.db.executescript(SCHEMA)
                    tables.add("folds")
            elif not tables:
                raise NoDatabase("%s is an empty database, not a backup database: check --db "
                                 "(only `dicetray backup` creates one)" % path, path)
            v = self.db.execute("SELECT value FROM meta WHERE key='store_version'").fetchone()
            if v is None and create:
                self.db.execute("INSERT INTO meta VALUES ('store_version', ?)", (str(STORE_VERSION),))
            elif v is None:
                raise StoreError("backup database %s has no store version: it is damaged or not "
                                 "a backup database; check --db" % path)
            elif int(v[0]) > STORE_VERSION:
                raise StoreError("backup database %s is store version %s, this dicetray reads %d: "
                                 "upgrade dicetray" % (path, v[0], STORE_VERSION))
            self.has_folds = "folds" in tables
            self.has_heads = self._heads(create)
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise self._error(e)
        except StoreError:
            self.db.close()
            raise

    def _heads(self, create):
        """True when backups and bases have their chain head column; a
        database from before the chain gets it when opened to write (an
        added column leaves every stored row as it was: NULL, unknown)."""
        have = True
        for table in ("backups", "bases", "events"):
            cols = {r[1] for r in self.db.execute("PRAGMA table_info(%s)" % table)}
            col = "link" if table == "events" else "head"
            if col not in cols:
                if create:
                    self.db.execute("ALTER TABLE %s ADD COLUMN %s %s"
                                    % (table, col, "BLOB" if col == "link" else "TEXT"))
                else:
                    have = False
        return have

    def close(self):
        self.db.close()

    # --- what is wrong with the file ---------------------------------------------
    def _check_path(self, create, explicit):
        """StoreError before SQLite is asked, for what it would only call
        "unable to open database file"."""
        path = self.path
        d = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise StoreError("%s is a directory, not a backup database: give --db a file, "
                             "e.g. --db %s" % (path, os.path.join(path, DB_NAME)))
        if os.path.exists(path):
            return
        if not create:
            if not explicit:
                raise NoDatabase("there is no backup database at %s yet: `dicetray backup` "
                                 "creates it" % path, path)
            raise NoDatabase("no backup database %s%s: check --db (only `dicetray backup` "
                             "creates one)" % (path, "" if os.path.isdir(d) else
                                               " (no such directory %s)" % d), path)
        if not os.path.isdir(d):
            raise StoreError("no such directory %s for the backup database %s: create it "
                             "first, or give --db a file in an existing directory"
                             % (d, os.path.basename(path)))
        if not os.access(d, os.W_OK):
            raise StoreError("cannot create the backup database %s: its directory %s is "
                             "read-only; make it writable, or give --db a file in a writable "
                             "directory" % (path, d))

    def _error(self, e, what=""):
        """StoreError saying what is really wrong behind an sqlite3 error:
        read-only file or directory, missing, a directory, in use, a full
        disk; "damaged" only when the file's content is."""
        name, msg = _name(e), str(e)
        path = self.path
        d = os.path.dirname(os.path.abspath(path))
        if name.startswith("SQLITE_READONLY") or "readonly" in msg:
            if name == "SQLITE_READONLY_ROLLBACK":
                return StoreError("backup database %s holds an interrupted write that only a "
                                  "writable database can roll back (%s): make it writable and "
                                  "run again (its complete backups are intact)" % (path, msg))
            if name == "SQLITE_READONLY_DIRECTORY" or (
                    os.access(path, os.W_OK) and not os.access(d, os.W_OK)):
                return StoreError("the directory %s of backup database %s is read-only (SQLite "
                                  "writes a journal beside the database)%s: make the directory "
                                  "writable, or copy the database into a writable one and give "
                                  "--db the copy" % (d, path, what))
            return StoreError("backup database %s is read-only%s: make it writable (chmod u+w), "
                              "or give --db a writable copy; reading it (backups, restore, "
                              "export, stats) works as it is" % (path, what))
        if name == "SQLITE_CANTOPEN" or "unable to open" in msg:
            try:
                self._check_path(True, True)
            except StoreError as s:
                return s
            return StoreError("cannot open backup database %s (%s): check that it and its "
                              "directory can be read and written" % (path, msg))
        if name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in msg:
            return StoreError("backup database %s is in use by another dicetray (%s)%s: try "
                              "again when it has finished" % (path, msg, what))
        if name == "SQLITE_FULL" or "disk is full" in msg:
            return StoreError("the disk holding backup database %s is full (%s)%s: free some "
                              "space and try again" % (path, msg, what))
        return self._damaged(e, what)

    def _damaged(self, e, what=""):
        return StoreError("backup database %s is damaged%s (%s): keep the file, copy it aside and "
                          "restore from another backup or an older copy of it"
                          % (self.path, what, e))

    def _q(self, sql, params=(), what=""):
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._error(e, what)

    # --- reading -------------------------------------------------------------
    def _lineage(self, camp):
        r = self._q("SELECT cid, system, schema, parent, fork FROM campaigns WHERE id=?", (camp,))
        if not r:
            raise StoreError("backup database %s: campaign lineage %d is missing" % (self.path, camp))
        return r[0]

    def _events(self, camp, lo, hi, who="campaign", links=None):
        """Events lo..hi of lineage `camp` (its parent's up to the fork),
        CRC-checked; `links`: a list their stored chain heads are appended to."""
        out = []
        if lo > hi:
            return out
        cid, _s, _v, parent, fork = self._lineage(camp)
        if parent is not None and lo <= fork:
            out = self._events(parent, lo, min(hi, fork), who, links)
            lo = fork + 1
            if lo > hi:
                return out
        rows = self._q("SELECT seq, ev, crc, %s FROM events WHERE campaign=? AND seq BETWEEN ? "
                       "AND ? ORDER BY seq" % ("link" if self.has_heads else "NULL"),
                       (camp, lo, hi), " reading events of %s" % who)
        want = lo
        for seq, ev, crc, lk in rows:
            if links is not None:
                links.append(lk)
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

    def load(self, bid, verify=True, events=True):
        """Backup `bid` with its events, verified: hashes, CRCs, and (verify)
        that its events fold to its recorded state. StoreError names damage.
        events=False: only the row, its state and its base, checked (take())."""
        row = self._row(bid)
        who = "backup %d" % bid
        camp, base, first, last, state, ssha, esha = row[1:8]
        cid, system, schema, _p, _f = self._lineage(camp)
        if sha(state) != ssha:
            raise StoreError("%s is damaged: its state does not match its SHA-256 (in %s); "
                             "other backups are unaffected" % (who, self.path))
        base_seq, snap, bhead = 0, None, None
        if base is not None:
            b = self._q("SELECT seq, snap, sha%s FROM bases WHERE id=?"
                        % (", head" if self.has_heads else ""), (base,), " reading " + who)
            if not b or sha(b[0][1]) != b[0][2]:
                raise StoreError("%s is damaged: its base snapshot %s is missing or fails its "
                                 "SHA-256 (in %s)" % (who, base, self.path))
            base_seq, snap = b[0][0], bytes(b[0][1])
            bhead = b[0][3] if self.has_heads else None
        evs, links = None, []
        if events:
            evs = self._events(camp, first, last, who, links)
            if events_digest(first, evs) != esha:
                raise StoreError("%s is damaged: its events %d..%d do not match their digest "
                                 "(in %s)" % (who, first, last, self.path))
        bk = Backup(row, cid, system, schema, base_seq, snap, evs)
        bk.state = bytes(state)
        bk.base_head = bhead
        if self.has_heads:
            bk.head = self._q("SELECT head FROM backups WHERE id=?", (bid,), " reading " + who)[0][0]
        if events:
            bk.links = links
            heads, bad = bk.walk_chain()
            got = bk.head_at(last, heads) if bad is None else None
            if bad is not None:
                raise StoreError("%s does not hold: its event %d does not lead to the hash chain "
                                 "head stored with it (in %s): it was changed after it was backed "
                                 "up; restore from a backup that holds it as it was, or verify "
                                 "against the device (`dicetray verify --backup %d`)"
                                 % (who, bad, self.path, bid))
            if got is not None and bk.head is not None and got.hex() != bk.head:
                raise StoreError("%s does not hold: its events do not lead to its hash chain head "
                                 "(in %s): its history was changed after it was backed up"
                                 % (who, self.path))
            if bk.head is None and got is not None:
                bk.head = got.hex()   # a backup from before the chain: computed, not stored
        if verify and events:
            try:
                c = bk.fold()
            except ValueError as e:
                raise StoreError("%s is damaged: its events do not replay (%s)" % (who, e))
            if cp.encode_state(c) != bk.state:
                raise StoreError("%s is damaged: its events do not fold to its recorded state" % who)
        return bk

    def _head(self, bid):
        """Backup `bid` as take() builds on it: (backup, its campaign after
        its last event, its events digest as a Sha256, a note or None).

        From its stored fold when that checks (its SHA-256, the backup's
        state, the backup's events digest): then none of its events is
        read but the last one (b.anchor, CRC-checked), which the device's
        must match. Else (a backup from before folds were kept, or a
        damaged fold: the note says which) every event is read, checked,
        folded and digested. StoreError: the backup is damaged."""
        b = self.load(bid, verify=False, events=False)
        who = "backup %d" % bid
        note = None
        r = self._q("SELECT depth, snap, sha, digest FROM folds WHERE backup=?", (bid,),
                    " reading " + who) if self.has_folds else []
        if r:
            depth, snap, s, dg = r[0]
            try:
                c = cp.decode_snapshot(zlib.decompress(snap), depth, False) if sha(snap) == s \
                    else None
                h = Sha256(bytes(dg))
            except (ValueError, zlib.error):
                c = None
            if (c is not None and c.nevents == b.last and cp.encode_state(c) == b.state
                    and h.copy().hexdigest() == b.events_sha):
                b.anchor = self._events(b.lineage, b.last, b.last, who)[0] \
                    if b.last >= b.first else None
                return b, c, h, None
            note = ("the stored fold of backup %d is damaged (in %s): its events were read and "
                    "folded instead" % (bid, self.path))
        b = self.load(bid, verify=False)
        try:
            c = fold(b.system, b.cid, b.base_snap, b.folded_events())
        except ValueError as e:
            raise StoreError("%s is damaged: its events do not replay (%s)" % (who, e))
        if cp.encode_state(c) != b.state:
            raise StoreError("%s is damaged: its events do not fold to its recorded state" % who)
        b.anchor = b.events[-1] if b.events else None
        return b, c, _digest(b.first, b.events, Sha256()), note

    def list(self):
        """Complete backups, oldest first, as dicts (no verification). A row
        the database cannot give (a damaged page) is left out and named in
        `self.unreadable` as (id, why): every intact one is still listed."""
        self.unreadable = []
        try:
            rows = self.db.execute(LIST_SQL % "").fetchall()
        except sqlite3.DatabaseError as e:
            if not _corrupt(e):
                raise self._error(e, " listing backups")
            rows = self._rows_one_by_one(e)
        out = []
        for r in rows:
            try:
                if r[14] is None:
                    raise ValueError("its campaign lineage %s is missing" % r[1])
                out.append({"id": r[0], "lineage": r[1], "campaign": r[2],
                            "system": systems.NAMES[r[3]] if 0 <= r[3] < 3 else str(r[3]),
                            "first": r[4], "last": r[5], "events": r[5] - r[4] + 1,
                            "state_sha256": r[6], "gap": r[7], "device": r[8],
                            "firmware": r[9], "created": r[10], "parent": r[11],
                            "fork": r[12], "base_seq": r[13] or 0})
            except (TypeError, ValueError, IndexError) as e:
                self.unreadable.append((r[0], "its row is damaged (%s)" % e))
        return out

    def _rows_one_by_one(self, first_error):
        """The list's rows read one id at a time, so a damaged page costs
        only the rows on it. Ids run 1..max(id) with no hole (backups are
        never deleted); when max(id) itself cannot be read (the last page
        is the damaged one), a run of unreadable ids longer than a page
        holds is taken for the end."""
        try:
            hi = self.db.execute("SELECT max(id) FROM backups").fetchone()[0] or 0
        except sqlite3.DatabaseError:
            hi = None
        rows, i, run = [], 0, 0
        while hi is None or i < hi:
            i += 1
            try:
                if not self.db.execute("SELECT 1 FROM backups WHERE id=?", (i,)).fetchone():
                    break
                rows += self.db.execute(LIST_SQL % "AND b.id=?", (i,)).fetchall()
                run = 0
            except sqlite3.DatabaseError as e:
                if not _corrupt(e):
                    raise self._error(e, " listing backups")
                self.unreadable.append((i, str(e)))
                run += 1
                if hi is None and run >= 256:
                    del self.unreadable[-run:]
                    self.unreadable.append((i - run + 1, "%s (and every backup after it)" % e))
                    break
        if not rows and self.unreadable and hi is None:
            raise self._error(first_error, " listing backups")
        return rows

    def incomplete(self):
        """How many interrupted (never completed) backup rows exist (None:
        the database cannot count them: list() names what is unreadable)."""
        try:
            return self.db.execute("SELECT count(*) FROM backups WHERE complete=0").fetchone()[0]
        except sqlite3.DatabaseError as e:
            if _corrupt(e):
                return None
            raise self._error(e)

    def restore_payload(self, bid, depth=cp.UNDO_DEPTH, loaded=None):
        """(snapshot, events, seq, first) for Device.restore: `events` are
        the journal events numbered from `first`; `snapshot` is the campaign
        after event `seq` with the device's undo window. A full backup sends
        its whole history (first 1, seq = its last event, the snapshot
        refolded exactly as the device folds); a baseline sends the device
        snapshot it started from (seq = its event) and the events after it.
        `loaded`: backup `bid` as load() gave it (not read again)."""
        b = loaded if loaded is not None and loaded.id == bid else self.load(bid)
        if b.base_snap is None:
            return cp.encode_snapshot(b.fold(depth)), list(b.events), b.last, b.first
        return b.base_snap, b.folded_events(), b.base_seq, b.base_seq + 1

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
        version in one transaction (or report that nothing changed).

        The newest backup's events are read and checked (CRCs, digest), not
        refolded: the new events fold onto its stored fold."""
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
        dhead = unhex(info.get("head"))   # the device's chain head after event n
        fetched = [0]

        def fetch(since):
            evs = dev.events(since, progress) if progress else dev.events(since)
            fetched[0] += len(evs)
            return [bytes(e) for e in evs]

        cur = self._current(cid, system)
        prev, damaged, resumed, hasher, said = None, None, None, None, []
        if cur:
            try:
                prev, resumed, hasher, note = self._head(cur[1])
            except StoreError as e:
                damaged = str(e)
            else:
                said = [note] if note else []  # for the user, not the new version's gap
        from .link.client import JournalDamaged
        try:
            p, c, last = self._fetch_and_check(prev, damaged, n, dfirst, fetch, resumed, hasher,
                                               system, cid, dev, dhead)
        except JournalDamaged as e:
            # Keep what is intact: the device's state (its snapshot) and the
            # events after it; the damaged ones are named for the user.
            p = self._intact(prev, e, dev, fetch)
            try:
                c, last = self._check(p, system, cid, dev, fetch)
            except _Mismatch:
                raise StoreError("backup not taken: %s, and the device's events after its "
                                 "snapshot do not fold to the state it reports; nothing was "
                                 "stored" % e)
        self._stage("fetched")
        state = cp.encode_state(c)
        head, links = self._chain(p, dev, last)
        hx = head.hex() if head is not None else None
        if (prev is not None and p.camp == prev.lineage and last == prev.last
                and sha(state) == prev.state_sha and not p.baseline
                and (prev.head is not None or hx is None)):
            if not self._has_fold(prev.id):
                self._keep_fold(prev.id, c, hasher)
            return Result(prev.id, True, fetched[0], said + p.notes, last, cid, prev.head)
        if p.hasher is not None:  # the previous version's digest, on over the new events
            h = _digest(p.new_from, p.new, p.hasher)
        else:
            h = _digest(p.first, self._history(p), Sha256())
        bid = self._write(p, cid, system, last, state, h, info, now, c, hx, links)
        return Result(bid, False, fetched[0], said + p.notes, last, cid, hx)

    def _chain(self, p, dev, last):
        """(the new version's chain head after `last`, the head after each
        of the plan's new events), None where unknown, from where the
        plan's chain is known: the previous version's head (a
        continuation: only the new events are hashed), the device's head
        at a baseline's snapshot, or event 1. StoreError if the device's
        own head at `last` says otherwise (the events were damaged on the
        way, or the journal does not hold what the device chained)."""
        links = [None] * len(p.new)
        h, k = None, 0   # the head after event p.new_from - 1 + k
        if p.prev_head is not None:
            h = p.prev_head
        elif p.baseline:
            h, k = p.base_head, p.base_seq - p.new_from + 1
        elif p.first == 1 and p.base_snap is None and p.hasher is None:
            old = self._history(p)[:p.new_from - 1]
            h = chain.over(chain.ZERO, 1, old)
        if h is not None:
            for i in range(k, len(p.new)):
                h = chain.link(h, p.new_from + i, p.new[i])
                links[i] = h
        dh = device_head(dev, last)
        if h is not None and dh is not None and dh != h:
            raise StoreError("backup not taken: the events read from the device do not lead to "
                             "the hash chain head it reports after event %d; nothing was stored "
                             "(`dicetray verify` compares the device with a backup)" % last)
        return h, links

    def _fetch_and_check(self, prev, damaged, n, dfirst, fetch, resumed, hasher, system, cid,
                         dev, dhead=None):
        """take()'s plan, fetched and folded: (plan, campaign, last seq)."""
        p = self._plan(prev, n, dfirst, fetch, resumed, hasher, dhead)
        if damaged:
            p.notes.insert(0, "%s: this version does not build on it" % damaged)
        if not p.baseline:
            try:
                c, last = self._check(p, system, cid, dev, fetch)
            except _Mismatch:
                if dfirst <= 1:
                    raise StoreError("backup not taken: the device's events do not fold to the "
                                     "state it reports; nothing was stored")
                p.notes.append("the stored history does not lead to the device's state: "
                               "this version starts from the device's snapshot")
                if p.camp is not None:  # not a continuation after all
                    p.parent, p.camp, p.fork = p.camp, None, 0
                p.baseline = True
                p.resume = p.hasher = p.prev_head = None
        if p.baseline:
            self._baseline(p, dev, dfirst, fetch)
            try:
                c, last = self._check(p, system, cid, dev, fetch)
            except _Mismatch:
                raise StoreError("backup not taken: the device's events after its snapshot do not "
                                 "fold to the state it reports; nothing was stored")
        return p, c, last

    def _intact(self, prev, e, dev, fetch):
        """A baseline of what a damaged journal leaves readable (e: the
        client's JournalDamaged): the device's snapshot and the events after
        it, in the lineage it continues, with a note naming the damage."""
        p = _Plan()
        if prev is not None:
            p.camp = prev.lineage
        snap = snapshot_bytes(dev.snapshot())
        try:
            p.base_seq = cp.decode_snapshot(snap, None, False).nevents
        except ValueError as err:
            raise StoreError("%s, and the device's snapshot does not decode (%s): backup not "
                             "taken" % (e, err))
        if p.base_seq < e.seq:
            raise StoreError("backup not taken: %s, and its snapshot (event %d) is older: nothing "
                             "was stored; a backup that holds them restores the campaign" % (
                                 e, p.base_seq))
        p.base_snap = snap
        p.base_head = device_head(dev, p.base_seq)
        p.first = p.new_from = p.base_seq + 1
        p.new = fetch(p.base_seq)
        p.baseline = True
        p.notes.append("%s; this version keeps what is intact: the device's state at event %d "
                       "(its snapshot) and the events after it; events %d..%d are only in an "
                       "earlier backup, if one holds them (`dicetray backups`)"
                       % (e, p.base_seq, e.seq, e.last))
        return p

    def _has_fold(self, bid):
        try:
            return bool(self.has_folds and self.db.execute(
                "SELECT 1 FROM folds WHERE backup=?", (bid,)).fetchone())
        except sqlite3.DatabaseError:
            return True  # nothing to add to a database that does not read

    def _keep_fold(self, bid, c, h):
        """Store the fold of an existing backup that has none (a database
        from before folds were kept) so the next backup starts from it. A
        cache, checked at every use: a database that cannot take it (read-
        only) is left as it is, and a damaged one stays (never replaced)."""
        if not self.has_folds or c.depth is None:
            return
        snap = zlib.compress(cp.encode_snapshot(c))
        try:
            self.db.execute("INSERT OR IGNORE INTO folds (backup, depth, snap, sha, digest) "
                            "VALUES (?,?,?,?,?)", (bid, c.depth, snap, sha(snap), h.state()))
        except sqlite3.DatabaseError:
            pass

    def _plan(self, prev, n, dfirst, fetch, resumed=None, hasher=None, dhead=None):
        """Which lineage the device continues and which events to fetch
        (`resumed`, `hasher`: prev's campaign and events digest, where a
        continuation's new events fold and are digested; `dhead`: the
        device's chain head after event n, which prev's head and the new
        events must lead to for the device to continue it)."""
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
        unseen = False
        if n >= a and dfirst > a + 1:
            p.camp = prev.lineage
            p.notes.append("events %d..%d were compacted on the device before they were backed "
                           "up: this version starts from the device's snapshot" % (a + 1, dfirst - 1))
            p.baseline = True
            return p
        if n >= a and (dfirst <= a or a == prev.base_seq):
            if a > prev.base_seq:
                evs = fetch(a - 1)  # one stored event too: it must match
                ok = bool(evs) and evs[0] == prev.anchor
                evs = evs[1:]
            else:  # a baseline version: its anchor event is not stored
                evs, ok = fetch(a), True
            ph = None
            if ok:
                ph = self._prev_head(prev)
                if ph is not None and dhead is not None and \
                        chain.over(ph, a + 1, evs[:n - a]) != dhead:
                    ok = False
                    unseen = True   # the histories differ where the bytes were not compared
            if ok:
                p.prev_head = ph
                p.camp = prev.lineage
                p.base_seq, p.base_snap, p.base_id = prev.base_seq, prev.base_snap, prev.base
                p.first, p.old, p.new_from, p.new = prev.first, prev.events, a + 1, evs
                p.resume, p.hasher, p.prev = resumed, hasher, prev.id
                return p
        # The device's history does not continue the stored one (an older
        # backup restored and played on, a reset...): a new lineage.
        if prev.events is None:
            prev.events = self.load(prev.id, verify=False).events
        evs = fetch(dfirst - 1)
        fork = dfirst - 1
        same = True
        for i, ev in enumerate(evs):
            s = dfirst + i
            if s > a or s < prev.first or prev.events[s - prev.first] != ev:
                same = s > a
                break
            fork = s
        p.parent = prev.lineage
        if unseen and same:
            # Every event both hold is the same, and the chains differ: the
            # difference is before the oldest event the device still holds.
            p.notes.append("the device's history differs from backup %d at or before event %d "
                           "(their hash chains differ, every event both hold is the same): "
                           "stored as a new lineage from the device's snapshot (older versions "
                           "are kept); `dicetray verify` compares them" % (prev.id, dfirst - 1))
            p.fork = 0
            p.baseline = True
            return p
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
        p.base_head = device_head(dev, p.base_seq)
        p.first = p.new_from = dfirst
        p.old = []
        p.new = fetch(dfirst - 1)
        if p.base_seq < dfirst - 1 or p.base_seq > dfirst - 1 + len(p.new):
            raise StoreError("the device's snapshot (event %d) is outside the events it holds "
                             "(%d..%d): backup not taken" % (p.base_seq, dfirst,
                                                              dfirst - 1 + len(p.new)))

    def _history(self, p):
        """The plan's whole history: its stored events `old` (read now if a
        continuation did not need them) then the new ones."""
        if p.old is None:
            p.old = self.load(p.prev, verify=False).events
        return p.old + p.new

    def _fold(self, p, system, cid, c, more):
        """Apply `more` events to campaign `c` (None: fold the plan's whole
        history from its base). An UNDO beyond c's window (a device with a
        wider one) refolds the whole history; anything else that does not
        apply raises _Mismatch."""
        if c is not None:
            for ev in more:
                try:
                    c.apply(ev)
                except ValueError:
                    if not _undo(ev):
                        raise _Mismatch()
                    c = None
                    break
            if c is not None:
                return c
        events = self._history(p)
        try:
            return fold(system, cid, p.base_snap, events[p.base_seq - p.first + 1:])
        except ValueError:
            raise _Mismatch()

    def _check(self, p, system, cid, dev, fetch):
        """Fold the plan's history (only the new events when it resumes the
        newest backup) and compare it with the device's own state (fetching
        what the device added meanwhile). (campaign, last seq); _Mismatch."""
        last = p.new_from - 1 + len(p.new)
        c = self._fold(p, system, cid, p.resume, p.new)
        for _ in range(4):
            snap = snapshot_bytes(dev.snapshot())
            try:
                d = cp.decode_snapshot(snap, None, False)
            except ValueError as e:
                raise StoreError("the device's snapshot does not decode (%s): backup not taken" % e)
            if d.nevents <= last:
                break
            more = fetch(last)  # the device moved on while we read
            p.new = list(p.new) + more
            last += len(more)
            c = self._fold(p, system, cid, c, more)
        if d.nevents != last or cp.encode_state(d) != cp.encode_state(c):
            raise _Mismatch()
        return c, last

    def _prev_head(self, prev):
        """prev's chain head (bytes), computed from its events once if it
        was stored before the chain (None: its chain start is unknown)."""
        h = unhex(prev.head)
        if h is None:
            full = self.load(prev.id, verify=False)
            h = unhex(full.head)
            if prev.events is None:
                prev.events = full.events
        return h

    def _write(self, p, cid, system, last, state, h, info, now, c, head=None, links=None):
        camp, base_id = p.camp, p.base_id
        db = self.db
        t = time.time() if now is None else now
        esha, new = h.hexdigest(), p.new
        fsnap = zlib.compress(cp.encode_snapshot(c)) if c.depth is not None and self.has_folds \
            else None
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if camp is None:
                    camp = db.execute("INSERT INTO campaigns (cid, system, schema, parent, fork, "
                                      "created) VALUES (?,?,?,?,?,?)",
                                      (cid, system, codec.VERSION, p.parent, p.fork, t)).lastrowid
                if p.baseline:
                    bh = p.base_head.hex() if p.base_head is not None else None
                    base_id = db.execute("INSERT INTO bases (campaign, seq, snap, sha, head) "
                                         "VALUES (?,?,?,?,?)", (camp, p.base_seq, p.base_snap,
                                                                sha(p.base_snap), bh)).lastrowid
                bid = db.execute(
                    "INSERT INTO backups (campaign, base, first, last, state, state_sha, "
                    "events_sha, gap, device, firmware, created, complete, head) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,0,?)",
                    (camp, base_id, p.first, last, state, sha(state), esha, " ".join(p.notes),
                     str(info.get("device", "")), str(info.get("firmware", "")), t,
                     head)).lastrowid
                if fsnap is not None:
                    db.execute("INSERT INTO folds (backup, depth, snap, sha, digest) "
                               "VALUES (?,?,?,?,?)", (bid, c.depth, fsnap, sha(fsnap), h.state()))
                for i, ev in enumerate(new):
                    s = p.new_from + i
                    old = db.execute("SELECT ev FROM events WHERE campaign=? AND seq=?",
                                     (camp, s)).fetchone()
                    if old is None:
                        db.execute("INSERT INTO events (campaign, seq, ev, crc, link) "
                                   "VALUES (?,?,?,?,?)",
                                   (camp, s, ev, zlib.crc32(ev), links[i] if links else None))
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
            raise self._error(e, " while writing a backup (nothing was added)")
        return bid
