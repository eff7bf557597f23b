"""The backup database's schema: its tables, their triggers (nothing
stored is ever changed or deleted), the store version, the file's name.
docs/backup.md has the reasons."""

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
