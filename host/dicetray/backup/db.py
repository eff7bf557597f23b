"""The backup database: one SQLite file of immutable campaign versions.

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
- runs: events a damaged journal gave between two damaged records (no
  state before them to fold from): kept with the version taken then, in
  `events`, named with their gaps, never a version (BackupStore.runs).
- folds: each backup's campaign after its last event with the host's undo
  window (encode_snapshot, zlib) and the state of its events digest,
  written with the backup: the next backup folds and digests only the new
  events from there.
- the hash chain (firmware/store/chain.py): every event row keeps the
  chain's head after it (`link`), every backup the head after its last
  event, every base the head after its snapshot; load() checks every link
  (naming the first event that does not lead to its own), take() (take.py)
  that the device's own head agrees with the stored history before
  building on it.

A backup is written in one transaction (BackupStore.write, the database's
only write of a version) and its row is read only when complete = 1, so a
host killed mid-backup leaves earlier versions intact and never a partial
one that looks whole. Every read verifies what it reads and raises
StoreError naming the backup, event or file that is damaged, or what else
is wrong with the file (read-only, missing, a directory, in use).

What a backup continues is planned by plan.py (pure: data in, plan
out); the device read, the fold and the checks before the write are
take.py's, which BackupStore.take calls.
"""

from __future__ import annotations

import builtins  # `list` is also a method of BackupStore: its annotations say builtins.list
import os
import pathlib
import sqlite3
import stat
import time
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..base.datadir import home  # noqa: F401  (the backups live there)
from ..rules import campaign as cp
from ..rules import codec, systems
from .history import Backup, Run, Sha256, digest, events_digest, fold, sha, unhex, walk

if TYPE_CHECKING:  # the types a script sees; nothing of them is imported to run
    from ..link.tray import Tray
    from .take import Result

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
CREATE TABLE IF NOT EXISTS runs (
    id         INTEGER PRIMARY KEY,
    campaign   INTEGER NOT NULL REFERENCES campaigns(id),
    backup     INTEGER NOT NULL REFERENCES backups(id),  -- the version it was kept with
    first      INTEGER NOT NULL,     -- its events first..last are in `events`
    last       INTEGER NOT NULL,
    events_sha TEXT NOT NULL,        -- digest of them (as a version's)
    anchor     INTEGER,              -- its chain starts after this event (NULL: not chained)
    head       TEXT,                 -- the device's recorded chain head after `anchor` (hex)
    checked    INTEGER,              -- the last event a head the device recorded confirmed
    gap        TEXT NOT NULL         -- the damage around it and what its chain showed
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
CREATE TRIGGER IF NOT EXISTS runs_frozen BEFORE UPDATE ON runs
BEGIN SELECT RAISE(ABORT, 'stored runs are immutable'); END;
CREATE TRIGGER IF NOT EXISTS runs_keep BEFORE DELETE ON runs
BEGIN SELECT RAISE(ABORT, 'stored runs are never deleted'); END;
"""


# Every table of SCHEMA (folds and runs were added to the store version's
# first schema: a database without them gets them when opened to write)
TABLES = {"meta", "campaigns", "events", "bases", "backups", "folds", "runs"}

SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database


def _kind(mode):
    """What a file that is not a regular one is, in words."""
    for test, word in (
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return word
    return "not a regular file"


class StoreError(Exception):
    """Damaged or inconsistent backup data, or a backup that cannot be taken."""


class Overtaken(Exception):
    """Another backup of the campaign was stored while this one was made:
    nothing was written (take.take makes this one again from it)."""


class NoDatabase(StoreError):
    """The backup database does not exist (and was not to be created)."""

    def __init__(self, msg, path):
        StoreError.__init__(self, msg)
        self.path = path


def _name(e):
    """SQLite's error name (Python 3.11+), else ''."""
    return getattr(e, "sqlite_errorname", None) or ""


def _corrupt(e):
    n, m = _name(e), str(e)
    return (
        n.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_IOERR"))
        or "malformed" in m
        or "not a database" in m
        or "disk I/O" in m
    )


LIST_SQL = (
    "SELECT b.id, b.campaign, c.cid, c.system, b.first, b.last, b.state_sha, b.gap, "
    "b.device, b.firmware, b.created, c.parent, c.fork, "
    "(SELECT seq FROM bases WHERE id=b.base), c.id "
    "FROM backups b LEFT JOIN campaigns c ON c.id=b.campaign WHERE b.complete=1 %s "
    "ORDER BY b.id"
)


class BackupStore:
    """The SQLite database of backups.

    `create` (what `dicetray backup` does): make the database (and the
    default data directory) if it does not exist yet, and add the tables a
    newer dicetray uses. Without it (every other command) the database is
    only read: a missing file raises NoDatabase and nothing is created."""

    def __init__(self, path: str | None = None, create: bool = True):
        explicit = path is not None
        if path is None:
            d = home()
            if create:
                try:
                    os.makedirs(d, exist_ok=True)
                except OSError as e:
                    raise StoreError(
                        "cannot create the data directory %s (%s): set DICETRAY_HOME "
                        "to a writable directory" % (d, e.strerror)
                    )
            path = os.path.join(d, DB_NAME)
        self.path = path
        self.fault = None  # tests: called with a stage name in the middle of take()
        self.unreadable: builtins.list = []  # list(): (backup id, why) of rows not read
        self.has_folds = False
        self.has_heads = False
        self.has_runs = False
        self._check_path(create, explicit)
        uri = pathlib.Path(os.path.abspath(path)).as_uri() + ("?mode=rwc" if create else "?mode=rw")
        try:
            self.db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        except sqlite3.DatabaseError as e:
            raise self._error(e)
        try:
            self.db.execute("PRAGMA foreign_keys=ON")
            tables = {
                r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if tables and "meta" not in tables:
                raise StoreError(
                    "%s is an SQLite database but not a dicetray backup database "
                    "(it has no store version): check --db" % path
                )
            if create:
                self.db.execute("PRAGMA synchronous=FULL")
                if not tables >= TABLES:
                    self.db.executescript(SCHEMA)  # the tables a newer dicetray added
                    tables |= TABLES
            elif not tables:
                raise NoDatabase(
                    "%s is an empty database, not a backup database: check --db "
                    "(only `dicetray backup` creates one)" % path,
                    path,
                )
            v = self.db.execute("SELECT value FROM meta WHERE key='store_version'").fetchone()
            if v is None and create:
                self.db.execute(
                    "INSERT INTO meta VALUES ('store_version', ?)", (str(STORE_VERSION),)
                )
            elif v is None:
                raise StoreError(
                    "backup database %s has no store version: it is damaged or not "
                    "a backup database; check --db" % path
                )
            elif int(v[0]) > STORE_VERSION:
                raise StoreError(
                    "backup database %s is store version %s, this dicetray reads %d: "
                    "upgrade dicetray" % (path, v[0], STORE_VERSION)
                )
            self.has_folds = "folds" in tables
            self.has_runs = "runs" in tables
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
                    self.db.execute(
                        "ALTER TABLE %s ADD COLUMN %s %s"
                        % (table, col, "BLOB" if col == "link" else "TEXT")
                    )
                else:
                    have = False
        return have

    def close(self) -> None:
        self.db.close()

    # --- what is wrong with the file ---------------------------------------------
    def _check_path(self, create, explicit):
        """StoreError before SQLite is asked, for what it would only call
        "unable to open database file"."""
        path = self.path
        d = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise StoreError(
                "%s is a directory, not a backup database: give --db a file, "
                "e.g. --db %s" % (path, os.path.join(path, DB_NAME))
            )
        if os.path.exists(path):
            self._check_file(path)
            return
        if not create:
            if not explicit:
                raise NoDatabase(
                    "there is no backup database at %s yet: `dicetray backup` creates it" % path,
                    path,
                )
            raise NoDatabase(
                "no backup database %s%s: check --db (only `dicetray backup` "
                "creates one)" % (path, "" if os.path.isdir(d) else " (no such directory %s)" % d),
                path,
            )
        if not os.path.isdir(d):
            raise StoreError(
                "no such directory %s for the backup database %s: create it "
                "first, or give --db a file in an existing directory" % (d, os.path.basename(path))
            )
        if not os.access(d, os.W_OK):
            raise StoreError(
                "cannot create the backup database %s: its directory %s is "
                "read-only; make it writable, or give --db a file in a writable "
                "directory" % (path, d)
            )

    def _check_file(self, path):
        """StoreError for a --db that exists and holds no SQLite database: a
        device (/dev/null), a FIFO, a file of something else (SQLite would
        call these damaged, or write into them). An empty file is a new database."""
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                raise StoreError(
                    "%s is not a database file (it is %s): give --db a backup database, "
                    "or a new file name for `dicetray backup` to create" % (path, _kind(st.st_mode))
                )
            with open(path, "rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except OSError:
            return  # SQLite's own error says what is wrong (_error)
        if head and head != SQLITE_HEADER:
            raise StoreError(
                "%s is not a database file (it does not begin as an SQLite database "
                "does; if it was a backup database, keep it: its start is overwritten): "
                "check --db; nothing was written to it" % path
            )

    def _error(self, e, what=""):
        """StoreError saying what is really wrong behind an sqlite3 error:
        read-only file or directory, missing, a directory, in use, a full
        disk; "damaged" only when the file's content is."""
        name, msg = _name(e), str(e)
        path = self.path
        d = os.path.dirname(os.path.abspath(path))
        if name.startswith("SQLITE_READONLY") or "readonly" in msg:
            if name == "SQLITE_READONLY_ROLLBACK":
                return StoreError(
                    "backup database %s holds an interrupted write that only a "
                    "writable database can roll back (%s): make it writable and "
                    "run again (its complete backups are intact)" % (path, msg)
                )
            if name == "SQLITE_READONLY_DIRECTORY" or (
                os.access(path, os.W_OK) and not os.access(d, os.W_OK)
            ):
                return StoreError(
                    "the directory %s of backup database %s is read-only (SQLite "
                    "writes a journal beside the database)%s: make the directory "
                    "writable, or copy the database into a writable one and give "
                    "--db the copy" % (d, path, what)
                )
            return StoreError(
                "backup database %s is read-only%s: make it writable (chmod u+w), "
                "or give --db a writable copy; reading it (backups, restore, "
                "export, stats) works as it is" % (path, what)
            )
        if name == "SQLITE_CANTOPEN" or "unable to open" in msg:
            try:
                self._check_path(True, True)
            except StoreError as s:
                return s
            return StoreError(
                "cannot open backup database %s (%s): check that it and its "
                "directory can be read and written" % (path, msg)
            )
        if name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in msg:
            return StoreError(
                "backup database %s is in use by another dicetray (%s)%s: try "
                "again when it has finished" % (path, msg, what)
            )
        if name == "SQLITE_FULL" or "disk is full" in msg:
            return StoreError(
                "the disk holding backup database %s is full (%s)%s: free some "
                "space and try again" % (path, msg, what)
            )
        return self._damaged(e, what)

    def _damaged(self, e, what=""):
        return StoreError(
            "backup database %s is damaged%s (%s): keep the file, copy it aside and "
            "restore from another backup or an older copy of it" % (self.path, what, e)
        )

    def _q(self, sql, params=(), what=""):
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._error(e, what)

    # --- reading -------------------------------------------------------------
    def _lineage(self, camp):
        r = self._q("SELECT cid, system, schema, parent, fork FROM campaigns WHERE id=?", (camp,))
        if not r:
            raise StoreError(
                "backup database %s: campaign lineage %d is missing" % (self.path, camp)
            )
        return r[0]

    def _events(self, camp, lo, hi, who="campaign", links=None):
        """Events lo..hi of lineage `camp` (its parent's up to the fork),
        CRC-checked; `links`: a list their stored chain heads are appended to."""
        out: list[bytes] = []
        if lo > hi:
            return out
        cid, _s, _v, parent, fork = self._lineage(camp)
        if parent is not None and lo <= fork:
            out = self._events(parent, lo, min(hi, fork), who, links)
            lo = fork + 1
            if lo > hi:
                return out
        rows = self._q(
            "SELECT seq, ev, crc, %s FROM events WHERE campaign=? AND seq BETWEEN ? "
            "AND ? ORDER BY seq" % ("link" if self.has_heads else "NULL"),
            (camp, lo, hi),
            " reading events of %s" % who,
        )
        want = lo
        for seq, ev, crc, lk in rows:
            if links is not None:
                links.append(lk)
            if seq != want:
                raise StoreError(
                    "%s: event %d of campaign %d is missing from %s" % (who, want, cid, self.path)
                )
            if zlib.crc32(ev) != crc:
                raise StoreError(
                    "%s: event %d of campaign %d is damaged (CRC mismatch) in %s"
                    % (who, seq, cid, self.path)
                )
            out.append(bytes(ev))
            want += 1
        if want != hi + 1:
            raise StoreError(
                "%s: event %d of campaign %d is missing from %s" % (who, want, cid, self.path)
            )
        return out

    def _row(self, bid):
        # An id beyond SQLite's 64-bit integers is in no row (sqlite3 would
        # raise OverflowError for it).
        r = (
            self._q(
                "SELECT id, campaign, base, first, last, state, state_sha, events_sha, gap, "
                "device, firmware, created, complete FROM backups WHERE id=?",
                (bid,),
                " reading backup %s" % bid,
            )
            if -(2**63) <= bid < 2**63
            else None
        )
        if not r:
            raise StoreError("no backup %s in %s: `dicetray backups` lists them" % (bid, self.path))
        if not r[0][12]:
            raise StoreError(
                "backup %s is incomplete (a backup was interrupted): it cannot be used; "
                "take a new one with `dicetray backup`" % bid
            )
        return r[0]

    def load(self, bid: int, verify: bool = True, events: bool = True) -> Backup:
        """Backup `bid` with its events, verified: hashes, CRCs, and (verify)
        that its events fold to its recorded state. StoreError names damage.
        events=False: only the row, its state and its base, checked (take())."""
        row = self._row(bid)
        who = "backup %d" % bid
        camp, base, first, last, state, ssha, esha = row[1:8]
        cid, system, schema, _p, _f = self._lineage(camp)
        if sha(state) != ssha:
            raise StoreError(
                "%s is damaged: its state does not match its SHA-256 (in %s); "
                "other backups are unaffected" % (who, self.path)
            )
        base_seq, snap, bhead = 0, None, None
        if base is not None:
            b = self._q(
                "SELECT seq, snap, sha%s FROM bases WHERE id=?"
                % (", head" if self.has_heads else ""),
                (base,),
                " reading " + who,
            )
            if not b or sha(b[0][1]) != b[0][2]:
                raise StoreError(
                    "%s is damaged: its base snapshot %s is missing or fails its "
                    "SHA-256 (in %s)" % (who, base, self.path)
                )
            base_seq, snap = b[0][0], bytes(b[0][1])
            bhead = b[0][3] if self.has_heads else None
        evs: list[bytes] | None = None
        links: list = []
        if events:
            evs = self._events(camp, first, last, who, links)
            if events_digest(first, evs) != esha:
                raise StoreError(
                    "%s is damaged: its events %d..%d do not match their digest "
                    "(in %s)" % (who, first, last, self.path)
                )
        bk = Backup(row, cid, system, schema, base_seq, snap, evs)
        bk.state = bytes(state)
        bk.base_head = bhead
        if self.has_heads:
            bk.head = self._q("SELECT head FROM backups WHERE id=?", (bid,), " reading " + who)[0][
                0
            ]
        if events:
            bk.links = links
            heads, bad = bk.walk_chain()
            got = bk.head_at(last, heads) if bad is None else None
            if bad is not None:
                raise StoreError(
                    "%s does not hold: its event %d does not lead to the hash chain "
                    "head stored with it (in %s): it was changed after it was backed "
                    "up; restore from a backup that holds it as it was, or verify "
                    "against the device (`dicetray verify --backup %d`)"
                    % (who, bad, self.path, bid)
                )
            if got is not None and bk.head is not None and got.hex() != bk.head:
                raise StoreError(
                    "%s does not hold: its events do not lead to its hash chain head "
                    "(in %s): its history was changed after it was backed up" % (who, self.path)
                )
            if bk.head is None and got is not None:
                bk.head = got.hex()  # a backup from before the chain: computed, not stored
        if verify and events:
            try:
                c = bk.fold()
            except ValueError as e:
                raise StoreError("%s is damaged: its events do not replay (%s)" % (who, e))
            if cp.encode_state(c) != bk.state:
                raise StoreError(
                    "%s is damaged: its events do not fold to its recorded state" % who
                )
        return bk

    def resumable(self, bid):
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
        r = (
            self._q(
                "SELECT depth, snap, sha, digest FROM folds WHERE backup=?",
                (bid,),
                " reading " + who,
            )
            if self.has_folds
            else []
        )
        if r:
            depth, snap, s, dg = r[0]
            try:
                c = (
                    cp.decode_snapshot(zlib.decompress(snap), depth, False)
                    if sha(snap) == s
                    else None
                )
                h = Sha256(bytes(dg))
            except (ValueError, zlib.error):
                c = None
            if (
                c is not None
                and c.nevents == b.last
                and cp.encode_state(c) == b.state
                and h.copy().hexdigest() == b.events_sha
            ):
                b.anchor = (
                    self._events(b.lineage, b.last, b.last, who)[0] if b.last >= b.first else None
                )
                return b, c, h, None
            note = (
                "the stored fold of backup %d is damaged (in %s): its events were read and "
                "folded instead" % (bid, self.path)
            )
        b = self.load(bid, verify=False)
        try:
            c = fold(b.system, b.cid, b.base_snap, b.folded_events())
        except ValueError as e:
            raise StoreError("%s is damaged: its events do not replay (%s)" % (who, e))
        if cp.encode_state(c) != b.state:
            raise StoreError("%s is damaged: its events do not fold to its recorded state" % who)
        b.anchor = b.events[-1] if b.events else None
        return b, c, digest(b.first, b.events, Sha256()), note

    def list(self) -> builtins.list[dict[str, Any]]:
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
                out.append(
                    {
                        "id": r[0],
                        "lineage": r[1],
                        "campaign": r[2],
                        "system": systems.NAMES[r[3]] if 0 <= r[3] < 3 else str(r[3]),
                        "first": r[4],
                        "last": r[5],
                        "events": r[5] - r[4] + 1,
                        "state_sha256": r[6],
                        "gap": r[7],
                        "device": r[8],
                        "firmware": r[9],
                        "created": r[10],
                        "parent": r[11],
                        "fork": r[12],
                        "base_seq": r[13] or 0,
                    }
                )
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

    def incomplete(self) -> int | None:
        """How many interrupted (never completed) backup rows exist (None:
        the database cannot count them: list() names what is unreadable)."""
        try:
            return self.db.execute("SELECT count(*) FROM backups WHERE complete=0").fetchone()[0]
        except sqlite3.DatabaseError as e:
            if _corrupt(e):
                return None
            raise self._error(e)

    def restore_payload(
        self, bid: int, depth: int = cp.UNDO_DEPTH, loaded: Backup | None = None
    ) -> tuple[bytes, builtins.list[bytes], int, int]:
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

    def runs(self, bid: int) -> builtins.list[Run]:
        """The runs backup `bid` carries (docs/backup.md, "When the
        device's journal is damaged"): events of its lineage that a
        damaged journal gave between damaged records, kept with it or an
        earlier version of its lineage, before its first event; oldest
        first, each checked as a version's events are (CRC, digest, each
        stored link from the head the device recorded). StoreError names
        the one that fails; none in a database from before runs."""
        if not self.has_runs:
            return []
        row = self._row(bid)
        camp, first = row[1], row[3]
        rows = self._q(
            "SELECT r.id, r.backup, r.first, r.last, r.events_sha, r.anchor, r.head, "
            "r.checked, r.gap, b.created FROM runs r JOIN backups b ON b.id=r.backup "
            "WHERE r.campaign=? AND r.backup<=? AND r.last<? AND b.complete=1 ORDER BY r.first",
            (camp, bid, first),
            " reading the runs of backup %d" % bid,
        )
        out = []
        for r in rows:
            who = "run %d of backup %d" % (r[0], bid)
            links: builtins.list = []
            evs = self._events(camp, r[2], r[3], who, links)
            if events_digest(r[2], evs) != r[4]:
                raise StoreError(
                    "%s is damaged: its events %d..%d do not match their digest (in %s)"
                    % (who, r[2], r[3], self.path)
                )
            bad = walk(r[2], evs, links, r[5], unhex(r[6]))[1]
            if bad is not None:
                raise StoreError(
                    "%s does not hold: its event %d does not lead to the hash chain head "
                    "stored with it (in %s): it was changed after it was backed up"
                    % (who, bad, self.path)
                )
            out.append(Run(r, evs, links))
        return out

    # --- taking a backup: what take.py's take() reads and writes -------------
    def newest(self, cid, system):
        """(lineage id, newest complete backup row id) for this campaign, or None."""
        r = self._q(
            "SELECT b.campaign, b.id FROM backups b JOIN campaigns c ON c.id=b.campaign "
            "WHERE c.cid=? AND c.system=? AND b.complete=1 ORDER BY b.id DESC LIMIT 1",
            (cid, system),
        )
        return r[0] if r else None

    def stage(self, name):
        """take() has come to stage `name` ("fetched", "events", "row"): a
        test's `fault` hook may stop it there (nothing is stored)."""
        if self.fault:
            self.fault(name)

    def take(
        self,
        dev: Tray,
        progress: Callable[..., Any] | None = None,
        now: float | None = None,
    ) -> Result:
        """Back up the device's campaign: fetch only events after the newest
        backup, verify that they fold to the device's state, and store a new
        version in one transaction (or report that nothing changed).

        The newest backup's events are read and checked (CRCs, digest), not
        refolded: the new events fold onto its stored fold."""
        from .take import take

        return take(self, dev, progress, now)

    def fold_kept(self, bid):
        """Whether backup `bid` has its fold stored (a database that does not
        read counts as having it: nothing is added to it)."""
        try:
            return bool(
                self.has_folds
                and self.db.execute("SELECT 1 FROM folds WHERE backup=?", (bid,)).fetchone()
            )
        except sqlite3.DatabaseError:
            return True  # nothing to add to a database that does not read

    def keep_fold(self, bid, c, h):
        """Store the fold of an existing backup that has none (a database
        from before folds were kept) so the next backup starts from it. A
        cache, checked at every use: a database that cannot take it (read-
        only) is left as it is, and a damaged one stays (never replaced)."""
        if not self.has_folds or c.depth is None:
            return
        snap = zlib.compress(cp.encode_snapshot(c))
        try:
            self.db.execute(
                "INSERT OR IGNORE INTO folds (backup, depth, snap, sha, digest) VALUES (?,?,?,?,?)",
                (bid, c.depth, snap, sha(snap), h.state()),
            )
        except sqlite3.DatabaseError:
            pass

    def write(self, p, cid, system, last, state, h, info, now, c, head=None, links=None, over=None):
        """Write version `p` (plan.py's TakePlan: its fetched events `new` from
        `new_from`, the state after `last`, the events digest `h`, the
        fold `c`, the chain's head after `last` and after each new event)
        in one transaction with what the plan carries from a damaged
        journal (damaged.py): `p.before`, the version of the events
        before its damage, written first (its plan and the same values
        as a tuple), and `p.runs`, the events read between damaged
        records (damaged.Kept). A note may be a callable: given the ids
        written before this version, it gives the words. `over`: the
        newest version the plan was made from (newest's, or None):
        another one found there in the transaction raises Overtaken. The
        version's id; StoreError: nothing was added."""
        db = self.db
        t = time.time() if now is None else now
        before = p.before
        if p.runs and not self.has_runs:
            raise StoreError(
                "backup not taken: backup database %s has no table for the events read "
                "between damaged records (a database from before them, opened to read "
                "only): `dicetray backup` adds it" % self.path
            )
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if self.newest(cid, system) != over:  # a backup run at the same time stored it
                    raise Overtaken()
                done, camp = [], p.camp
                if before is not None:
                    bp, blast, bstate, bh, bc, bhead, blinks = before
                    b0, camp0 = self._insert(
                        bp, None, cid, system, blast, bstate, bh, bc, bhead, blinks, info, t
                    )
                    done.append(b0)
                    camp = camp0 if camp is None else camp
                p.notes = [n(done) if callable(n) else n for n in p.notes]
                bid, camp = self._insert(
                    p, camp, cid, system, last, state, h, c, head, links, info, t
                )
                done.append(bid)
                for r in p.runs:
                    self._insert_run(camp, bid, cid, r)
                self.stage("row")
                for b in done:
                    db.execute("UPDATE backups SET complete=1 WHERE id=?", (b,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as e:
            raise self._error(e, " while writing a backup (nothing was added)")
        return bid

    def _insert(self, p, camp, cid, system, last, state, h, c, head, links, info, t):
        """write's rows of one version (in its transaction): its lineage
        (`camp`, None: the plan's, or a new one), base, row, fold and new
        events. (backup id, lineage id)."""
        db = self.db
        camp = p.camp if camp is None else camp
        base_id = p.base_id
        fsnap = (
            zlib.compress(cp.encode_snapshot(c)) if c.depth is not None and self.has_folds else None
        )
        if camp is None:
            camp = db.execute(
                "INSERT INTO campaigns (cid, system, schema, parent, fork, "
                "created) VALUES (?,?,?,?,?,?)",
                (cid, system, codec.VERSION, p.parent, p.fork, t),
            ).lastrowid
        if p.baseline:
            bh = p.base_head.hex() if p.base_head is not None else None
            base_id = db.execute(
                "INSERT INTO bases (campaign, seq, snap, sha, head) VALUES (?,?,?,?,?)",
                (camp, p.base_seq, p.base_snap, sha(p.base_snap), bh),
            ).lastrowid
        bid = db.execute(
            "INSERT INTO backups (campaign, base, first, last, state, state_sha, "
            "events_sha, gap, device, firmware, created, complete, head) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,0,?)",
            (
                camp,
                base_id,
                p.first,
                last,
                state,
                sha(state),
                h.hexdigest(),
                " ".join(p.notes),
                str(info.get("device", "")),
                str(info.get("firmware", "")),
                t,
                head,
            ),
        ).lastrowid
        if fsnap is not None:
            db.execute(
                "INSERT INTO folds (backup, depth, snap, sha, digest) VALUES (?,?,?,?,?)",
                (bid, c.depth, fsnap, sha(fsnap), h.state()),
            )
        self._put(camp, cid, p.new_from, p.new, links)
        return bid, camp

    def _insert_run(self, camp, bid, cid, r):
        """A run of events a damaged journal gave (damaged.Kept), kept with
        version `bid` of lineage `camp`: its events stored as a version's."""
        self._put(camp, cid, r.first, r.events, r.links)
        self.db.execute(
            "INSERT INTO runs (campaign, backup, first, last, events_sha, anchor, head, "
            "checked, gap) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                camp,
                bid,
                r.first,
                r.last,
                events_digest(r.first, r.events),
                r.anchor,
                r.head,
                r.checked,
                r.gap,
            ),
        )

    def _put(self, camp, cid, first, events, links):
        """Events first.. into lineage `camp`, each once: one it already
        holds must be the same bytes (StoreError, the transaction rolled
        back)."""
        db = self.db
        for i, ev in enumerate(events):
            s = first + i
            old = db.execute(
                "SELECT ev FROM events WHERE campaign=? AND seq=?", (camp, s)
            ).fetchone()
            if old is None:
                db.execute(
                    "INSERT INTO events (campaign, seq, ev, crc, link) VALUES (?,?,?,?,?)",
                    (camp, s, ev, zlib.crc32(ev), links[i] if links else None),
                )
            elif bytes(old[0]) != ev:
                raise StoreError(
                    "stored event %d of campaign %d differs from the "
                    "device's: backup not taken" % (s, cid)
                )
            if i == len(events) // 2:
                self.stage("events")
