"""The backup database opened: the file checked, the connection, the
tables a newer dicetray added (made when opened to write), every query's
sqlite3 error turned into StoreError's words."""

from __future__ import annotations

import builtins  # `list` is also a method of BackupStore: its annotations say builtins.list
import os
import pathlib
import sqlite3

from ...base.datadir import home
from .errors import NoDatabase, StoreError, check_path, error
from .schema import DB_NAME, SCHEMA, STORE_VERSION, TABLES


class Connection:
    """The database file checked and opened, its tables made or added when
    opened to write (`create`); BackupStore (writes.py) is what callers use."""

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
        check_path(path, create, explicit)
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

    def _error(self, e, what=""):
        """StoreError saying what is really wrong behind sqlite3 error `e`."""
        return error(self.path, e, what)

    def _q(self, sql, params=(), what=""):
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._error(e, what)
