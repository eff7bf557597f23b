"""What is wrong with a backup database, in words: StoreError and its
kinds, the checks of the file before SQLite is asked, and what an
sqlite3 error really means (read-only, missing, in use, a full disk;
"damaged" only when the file's content is)."""

import os
import stat

from .schema import DB_NAME, SQLITE_HEADER


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


def kind(mode):
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


def sqlite_name(e):
    """SQLite's error name (Python 3.11+), else ''."""
    return getattr(e, "sqlite_errorname", None) or ""


def corrupt(e):
    """Whether sqlite3 error `e` says the file's content is damaged."""
    n, m = sqlite_name(e), str(e)
    return (
        n.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_IOERR"))
        or "malformed" in m
        or "not a database" in m
        or "disk I/O" in m
    )


def check_path(path, create, explicit):
    """StoreError before SQLite is asked, for what it would only call
    "unable to open database file"."""
    d = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise StoreError(
            "%s is a directory, not a backup database: give --db a file, "
            "e.g. --db %s" % (path, os.path.join(path, DB_NAME))
        )
    if os.path.exists(path):
        check_file(path)
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


def check_file(path):
    """StoreError for a --db that exists and holds no SQLite database: a
    device (/dev/null), a FIFO, a file of something else (SQLite would
    call these damaged, or write into them). An empty file is a new database."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise StoreError(
                "%s is not a database file (it is %s): give --db a backup database, "
                "or a new file name for `dicetray backup` to create" % (path, kind(st.st_mode))
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


def error(path, e, what=""):
    """StoreError saying what is really wrong behind an sqlite3 error:
    read-only file or directory, missing, a directory, in use, a full
    disk; "damaged" only when the file's content is."""
    name, msg = sqlite_name(e), str(e)
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
            check_path(path, True, True)
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
    return damaged(path, e, what)


def damaged(path, e, what=""):
    return StoreError(
        "backup database %s is damaged%s (%s): keep the file, copy it aside and "
        "restore from another backup or an older copy of it" % (path, what, e)
    )
