"""Backup database errors say what is really wrong: a
read-only file or directory, a missing directory, a --db that is a
directory, a mistyped --db, a database in use; only `dicetray backup`
creates a database; every intact backup stays listable when others are
damaged. Everything in tmp_path (DICETRAY_HOME too); the device is the
real firmware (a RamTray, tests/host/ramtray.py).

root ignores file permissions: the read-only cases are also made with a
connection SQLite opens read-only (URI mode=ro), which binds root too; the
chmod cases skip when the process can write anyway (root), saying so."""
import json
import os
import pathlib
import sqlite3

import pytest

from ramtray import RamTray, Trays, play

from dicetray.backup import BackupStore, StoreError

BLAME = ("damaged", "restore from another backup")


@pytest.fixture
def dev(tmp_path, monkeypatch):
    """The tray every command talks to (st.take(dev.device()) for the store's own calls)."""
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    return play(RamTray(system=0, cid=4242), 40)


def run(tray, capsys, *argv):
    code = Trays({"dev": tray}).main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def honest(err, *words):
    """One line naming the real cause, none of the words that blame the data."""
    assert err.count("\n") == 1, err
    for w in words:
        assert w in err, err
    for w in BLAME:
        assert w not in err, err


def skip_if_writable(path):
    if os.access(path, os.W_OK):
        pytest.skip("this process can write %s despite its mode (root): the read-only case "
                    "is covered through SQLite's URI mode=ro" % path)


def test_read_only_database_through_sqlite_uri_mode(tmp_path, dev):
    db = str(tmp_path / "b.sqlite3")
    st = BackupStore(db)
    d = dev.device()
    bid = st.take(d).backup
    play(dev, 5, seed=9)
    st.db.close()
    st.db = sqlite3.connect(pathlib.Path(db).as_uri() + "?mode=ro", uri=True,
                            isolation_level=None)
    with pytest.raises(StoreError) as e:
        st.take(d)
    honest(str(e.value) + "\n", "read-only", db, "nothing was added")
    assert [b["id"] for b in st.list()] == [bid] and st.load(bid).last == 40  # reading works


def test_read_only_database_file(tmp_path, dev, capsys):
    db = str(tmp_path / "b.sqlite3")
    assert run(dev, capsys, "backup", "--db", db)[0] == 0
    play(dev, 5, seed=9)
    os.chmod(db, 0o444)
    skip_if_writable(db)
    code, out, err = run(dev, capsys, "backup", "--db", db)
    assert code == 1
    honest(err, "is read-only", db)
    code, out, err = run(dev, capsys, "backups", "--db", db, "--json")
    assert code == 0 and [b["last"] for b in json.loads(out)["backups"]] == [40]
    assert run(dev, capsys, "backups", "show", "1", "--db", db)[0] == 0


def test_read_only_directory(tmp_path, dev, capsys):
    d = tmp_path / "ro"
    d.mkdir()
    db = str(d / "b.sqlite3")
    assert run(dev, capsys, "backup", "--db", db)[0] == 0
    play(dev, 5, seed=9)
    d.chmod(0o555)
    try:
        skip_if_writable(str(d))
        code, out, err = run(dev, capsys, "backup", "--db", db)
        assert code == 1
        honest(err, "directory %s" % d, "read-only")
        code, out, err = run(dev, capsys, "backups", "--db", db, "--json")
        assert code == 0 and len(json.loads(out)["backups"]) == 1
        new = str(d / "new.sqlite3")
        code, out, err = run(dev, capsys, "backup", "--db", new)
        assert code == 1 and not os.path.exists(new)
        honest(err, "cannot create", "read-only")
    finally:
        d.chmod(0o755)


def test_sqlite_read_only_names_are_told_apart(tmp_path):
    """What SQLite answers for a read-only directory or a journal it cannot
    roll back, which a root test run never sees from the filesystem."""
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    ro = "attempt to write a readonly database"
    for name, msg, words in (("SQLITE_READONLY_DIRECTORY", ro, ("directory", "read-only")),
                             ("SQLITE_READONLY_ROLLBACK", ro, ("interrupted write", "writable")),
                             ("SQLITE_READONLY", ro, ("is read-only",)),
                             ("SQLITE_BUSY", "database is locked", ("in use",)),
                             ("SQLITE_FULL", "database or disk is full", ("is full",))):
        e = sqlite3.OperationalError(msg)
        e.sqlite_errorname = name
        honest(str(st._error(e)) + "\n", *words)
    e = sqlite3.DatabaseError("database disk image is malformed")
    e.sqlite_errorname = "SQLITE_CORRUPT"
    assert "is damaged" in str(st._error(e))    # and damage is still called damage


def test_database_in_use(tmp_path, dev):
    db = str(tmp_path / "b.sqlite3")
    st = BackupStore(db)
    d = dev.device()
    st.take(d)
    play(dev, 3, seed=2)
    st.db.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError) as e:
            st.take(d)
        honest(str(e.value) + "\n", "in use", db)
    finally:
        other.execute("ROLLBACK")
    assert not st.take(d).duplicate   # and once it is free, the backup goes in


def test_missing_directory(tmp_path, dev, capsys):
    db = str(tmp_path / "nope" / "b.sqlite3")
    code, out, err = run(dev, capsys, "backup", "--db", db)
    assert code == 1
    honest(err, "no such directory %s" % (tmp_path / "nope"))
    code, out, err = run(dev, capsys, "backups", "--db", db)
    assert code == 1
    honest(err, "no backup database", "no such directory")
    assert not (tmp_path / "nope").exists()


def test_db_is_a_directory(tmp_path, dev, capsys):
    for argv in (("backup",), ("backups",), ("backups", "show", "1"), ("export", "--format",
                                                                      "json", "--backup", "1")):
        code, out, err = run(dev, capsys, *argv, "--db", str(tmp_path))
        assert code == 1, argv
        honest(err, "%s is a directory" % tmp_path)


def test_a_mistyped_db_is_not_created(tmp_path, dev, capsys):
    db = str(tmp_path / "backupz.sqlite3")
    for argv in (("backups",), ("backups", "show", "1"), ("backups", "diff", "1", "2"),
                 ("restore", "1", "--yes"), ("export", "--format", "csv", "--backup", "1"),
                 ("stats", "--backup", "1")):
        code, out, err = run(dev, capsys, *argv, "--db", db)
        assert code == 1, argv
        honest(err, "no backup database %s" % db, "`dicetray backup`")
        assert not os.path.exists(db), argv
    assert run(dev, capsys, "backup", "--db", db)[0] == 0      # backup creates it
    code, out, err = run(dev, capsys, "backups", "--db", db, "--json")
    assert code == 0 and len(json.loads(out)["backups"]) == 1


def test_only_backup_creates_the_default_database(tmp_path, dev, capsys):
    path = tmp_path / "home" / "backups.sqlite3"
    code, out, err = run(dev, capsys, "backups")
    assert code == 0 and "no backups in %s" % path in out
    code, out, err = run(dev, capsys, "backups", "show", "1")
    assert code == 1
    honest(err, "no backup 1", "`dicetray backup`")
    assert not path.parent.exists()
    assert run(dev, capsys, "backup")[0] == 0 and path.exists()


def test_another_sqlite_file_is_not_taken_over(tmp_path, dev, capsys):
    other = tmp_path / "notes.sqlite3"
    c = sqlite3.connect(str(other))
    c.execute("CREATE TABLE notes (t TEXT)")
    c.commit()
    c.close()
    for argv in (("backup",), ("backups",)):
        code, out, err = run(dev, capsys, *argv, "--db", str(other))
        assert code == 1
        honest(err, "not a dicetray backup database")
    c = sqlite3.connect(str(other))
    assert [r[0] for r in c.execute("SELECT name FROM sqlite_master")] == ["notes"]


def test_intact_backups_stay_listed_when_a_page_is_damaged(tmp_path, dev, capsys):
    db = str(tmp_path / "b.sqlite3")
    st = BackupStore(db)
    d = dev.device()
    for k in range(60):
        play(dev, 2, seed=k)
        st.take(d)
    rows = st.list()
    assert len(rows) == 60
    state = st.load(30).state
    page = st.db.execute("PRAGMA page_size").fetchone()[0]
    st.close()
    data = bytearray(open(db, "rb").read())
    at = data.find(state)
    assert at >= 0 and data.find(state, at + 1) < 0
    start = at // page * page
    assert start > 0 and data[start] == 0x0D           # a table leaf page, not page 1
    data[start] = 0xFF                                  # the page no longer parses
    open(db, "wb").write(bytes(data))
    code, out, err = run(dev, capsys, "backups", "--db", db, "--json")
    got = json.loads(out)
    listed = [b["id"] for b in got["backups"]]
    lost = [u["id"] for u in got["unreadable"]]
    assert code == 1 and 30 in lost and 30 not in listed
    assert sorted(listed + lost) == list(range(1, 61)) and len(listed) >= 30
    code, out, err = run(dev, capsys, "backups", "--db", db)
    assert code == 1 and err.count("\n") == 1 and "cannot be read" in err and "30" in err
    assert "%4d " % listed[0] in out and "%4d " % listed[-1] in out
    for i in (listed[0], listed[-1]):                   # and they restore
        assert run(dev, capsys, "backups", "show", str(i), "--db", db)[0] == 0
        fresh = RamTray(system=0, cid=1)
        info = fresh.device().restore(*BackupStore(db, create=False).restore_payload(i))
        assert info["events"] == BackupStore(db, create=False).load(i).last


# --- an id out of range, a file that is no database ------------------------------

def test_a_backup_id_beyond_sqlite_integers_is_no_backup(tmp_path, dev, capsys):
    """On main: OverflowError's traceback (sqlite3 cannot bind the number)."""
    db = str(tmp_path / "b.sqlite3")
    assert run(dev, capsys, "backup", "--db", db)[0] == 0
    huge = "99999999999999999999999"
    for argv in (("backups", "show", huge), ("backups", "diff", "1", huge),
                 ("export", "--format", "csv", "--backup", huge), ("stats", "--backup", huge),
                 ("verify", "--backup", huge), ("restore", huge, "--yes"),
                 ("backups", "show", "--db", db, "--", "-" + huge)):
        code, out, err = run(dev, capsys, *argv, *(("--db", db) if "--" not in argv else ()))
        assert code == 1, argv
        honest(err, "no backup ", huge + " in " + db, "`dicetray backups` lists them")


def test_a_db_that_is_no_database_file_is_named_and_not_written(tmp_path, dev, capsys):
    """On main: /dev/null was "damaged (disk I/O error)" (and, as root, SQLite
    made /dev/null-journal); a file of something else was "damaged"."""
    journal = "/dev/null-journal"
    had = os.path.exists(journal)
    for argv in (("backup",), ("backups",), ("backups", "show", "1")):
        code, out, err = run(dev, capsys, *argv, "--db", "/dev/null")
        assert code == 1, argv
        honest(err, "/dev/null is not a database file (it is a character device)")
    assert os.path.exists(journal) == had
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"shopping: dice, more dice\n")
    for argv in (("backup",), ("backups",)):
        code, out, err = run(dev, capsys, *argv, "--db", str(notes))
        assert code == 1, argv
        assert err.count("\n") == 1 and "%s is not a database file" % notes in err, err
        assert "nothing was written to it" in err and "damaged" not in err
    assert notes.read_bytes() == b"shopping: dice, more dice\n"
    assert "notes.txt-journal" not in os.listdir(tmp_path)
    empty = tmp_path / "empty.sqlite3"          # an empty file is a new database
    empty.write_bytes(b"")
    assert run(dev, capsys, "backup", "--db", str(empty))[0] == 0
