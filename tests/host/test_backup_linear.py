"""The host's work grows with the events an operation touches, never with
the square of the campaign. Counted, not timed: the
events folded (Campaign.apply), the rule applications (Campaign._do, where
an undo's refold shows), the events read from the database and fetched
from the device. bench/backup_bench.py has the times. The device is the real
firmware (a RamTray, tests/host/ramtray.py): its own rules are the
firmware's `rules`, not dicetray.rules, so only the host's work is counted."""
import hashlib
import random

import pytest

from ramtray import RamTray, play, serve

from dicetray import backup as bk
from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.rules import campaign as cp

# The most rule applications one UNDO may cost on the host: a refold of
# the window (fewer than 2 * HOST_DEPTH effective actions), plus itself.
PER_UNDO = 2 * bk.HOST_DEPTH


class Work:
    """Counts what the host does while it is on (a monkeypatch fixture)."""

    def __init__(self, monkeypatch, store=None):
        self.apply = self.do = self.read = 0
        apply, do = cp.Campaign.apply, cp.Campaign._do

        def counted_apply(c, *a, **k):
            self.apply += 1
            return apply(c, *a, **k)

        def counted_do(c, *a, **k):
            self.do += 1
            return do(c, *a, **k)
        monkeypatch.setattr(cp.Campaign, "apply", counted_apply)
        monkeypatch.setattr(cp.Campaign, "_do", counted_do)
        if store is not None:
            events = store._events

            def counted_events(camp, lo, hi, who="campaign", links=None):
                out = events(camp, lo, hi, who, links)
                self.read += len(out)
                return out
            monkeypatch.setattr(store, "_events", counted_events)

    def reset(self):
        self.apply = self.do = self.read = 0


def undos(events):
    return sum(1 for ev in events if cp.codec.decode_event(ev)[0] == cp.UNDO)


def device(n, seed=3, cid=77):
    """A tray with n events, about 10 % of them undos."""
    return play(RamTray(system=0, cid=cid), n, seed=seed)


@pytest.mark.parametrize("n", [300, 4000])
def test_incremental_backup_touches_only_the_new_events(tmp_path, monkeypatch, n):
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    tray = device(n)
    dev = tray.device()
    st.take(dev)
    w = Work(monkeypatch, st)
    play(tray, 100, seed=11)
    journal = tray.journal()
    new = journal[-100:]
    r = st.take(dev)
    assert not r.duplicate and r.last == n + 100
    assert r.fetched == 101                       # the 100 and the one it starts with
    assert w.apply == 100                         # folded from the stored fold, not from event 1
    assert w.do <= 100 + undos(new) * PER_UNDO    # an undo refolds a window, not the history
    assert w.read <= 1                            # the stored event the device's must match
    # and the version is whole: load() checks every event, the digest and the fold
    b = st.load(r.backup)
    assert b.state == tray.state() and len(b.events) == n + 100
    assert b.events_sha == hashlib.sha256(b"".join(
        b"%d:%d:%s" % (i + 1, len(e), e) for i, e in enumerate(journal))).hexdigest()


@pytest.mark.parametrize("n", [300, 4000])
def test_backup_with_nothing_new_folds_nothing(tmp_path, monkeypatch, n):
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    dev = device(n).device()
    first = st.take(dev).backup
    w = Work(monkeypatch, st)
    r = st.take(dev)
    assert r.duplicate and r.backup == first and r.fetched == 1
    assert (w.apply, w.do) == (0, 0) and w.read <= 1


def test_several_increments_each_costs_its_own_events(tmp_path, monkeypatch):
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    tray = device(2000)
    dev = tray.device()
    st.take(dev)
    w = Work(monkeypatch, st)
    for k in range(5):
        w.reset()
        play(tray, 40, seed=20 + k)
        r = st.take(dev)
        assert r.fetched == 41 and w.apply == 40 and w.read <= 1
    assert [b["last"] for b in st.list()] == [2000, 2040, 2080, 2120, 2160, 2200]
    for b in st.list():
        st.load(b["id"])


def test_a_fold_with_many_undos_is_linear(monkeypatch):
    c = cp.Campaign(0, 5, cp.UNDO_DEPTH)
    from dicetray.rules.dice import Dice
    d = Dice(4)
    r = random.Random(2)
    while c.nevents < 3000:
        if c.done and r.random() < 0.3:
            c.act(cp.UNDO)
        else:
            c.act(cp.DICE, (6, 2), dice=d)
    w = Work(monkeypatch)
    f = bk.fold(0, 5, None, c.events)
    assert cp.encode_state(f) == cp.encode_state(c)
    assert w.apply == 3000 and w.do <= 3000 + undos(c.events) * PER_UNDO


def test_show_folds_the_backup_once(tmp_path, monkeypatch, capsys):
    db = str(tmp_path / "b.sqlite3")
    st = BackupStore(db)
    tray = device(3000)
    bid = st.take(tray.device()).backup
    w = Work(monkeypatch)
    assert cli.main(["backups", "show", str(bid), "--db", db]) == 0
    assert "events 1..3000" in capsys.readouterr().out
    assert w.apply == 3000 and w.do <= 3000 + undos(tray.journal()) * PER_UNDO


def test_restore_and_stats_fold_what_they_send(tmp_path, monkeypatch, capsys):
    db = str(tmp_path / "b.sqlite3")
    st = BackupStore(db)
    tray = device(3000)
    bid = st.take(tray.device()).backup
    fresh = RamTray(system=0, cid=1)
    trays = serve({"dev": fresh})
    w = Work(monkeypatch)
    assert trays.main(["restore", str(bid), "--yes", "--db", db]) == 0
    assert "verified" in capsys.readouterr().out
    assert fresh.snapshot() == tray.snapshot()
    # one fold to verify the backup, one with the device's window to send
    journal = tray.journal()
    assert w.apply == 2 * 3000 and w.do <= 2 * (3000 + undos(journal) * PER_UNDO)
    w.reset()
    assert trays.main(["stats", "--backup", str(bid), "--db", db, "--json"]) == 0
    assert w.apply == 2 * 3000 and w.do <= 2 * (3000 + undos(journal) * PER_UNDO)


def test_the_host_window_takes_every_undo_the_device_took(tmp_path):
    """Bursts of undos and redos, as deep as the device allows: the host's
    window (HOST_DEPTH) folds each campaign without its whole-history
    fallback, to the device's state, backup after backup."""
    for seed in range(6):
        r = random.Random(seed)
        st = BackupStore(str(tmp_path / ("b%d.sqlite3" % seed)))
        tray = RamTray(system=0, cid=seed)
        dev = tray.device()
        tray.act(cp.CHAR_ADD, (), "Ada")
        for _ in range(30):
            for _ in range(r.randint(1, 90)):
                tray.act(cp.DICE, (6, 1))
            for _ in range(r.randint(0, 80)):        # the device refuses beyond its window
                try:
                    tray.act(cp.UNDO if r.random() < 0.8 else cp.REDO)
                except ValueError:
                    break
            if r.random() < 0.3:
                st.take(dev)
        c = bk.fold(0, seed, None, tray.journal(), wide=False)   # never the fallback
        assert c.depth == bk.HOST_DEPTH and cp.encode_state(c) == tray.state()
        b = st.load(st.take(dev).backup)
        assert b.state == tray.state()


def test_a_device_with_a_wider_window_still_backs_up(tmp_path, monkeypatch):
    """An UNDO beyond the host's window (a firmware that keeps more than
    the host does) refolds with the whole history instead of failing."""
    from rules import campaign as fw_cp   # the tray's rules, not the host's
    monkeypatch.setattr(fw_cp, "UNDO_DEPTH", 4 * bk.HOST_DEPTH)
    tray = RamTray(system=0, cid=9)
    assert tray.c.depth == 4 * bk.HOST_DEPTH
    dev = tray.device()
    for _ in range(3 * bk.HOST_DEPTH):
        tray.act(cp.DICE, (6, 1))
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    st.take(dev)
    for _ in range(2 * bk.HOST_DEPTH):
        tray.act(cp.UNDO)
    with pytest.raises(ValueError):
        bk.fold(0, 9, None, tray.journal(), wide=False)
    assert cp.encode_state(bk.fold(0, 9, None, tray.journal())) == tray.state()
    r = st.take(dev)
    assert not r.duplicate and st.load(r.backup).state == tray.state()
    play(tray, 10, seed=5)
    assert st.load(st.take(dev).backup).state == tray.state()


def test_a_damaged_fold_is_refolded_and_said(tmp_path):
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    tray = device(200)
    dev = tray.device()
    bid = st.take(dev).backup
    blob = bytes(st.db.execute("SELECT snap FROM folds WHERE backup=?", (bid,)).fetchone()[0])
    st.close()
    data = bytearray(open(st.path, "rb").read())
    i = data.find(blob)
    assert i >= 0
    data[i + len(blob) // 2] ^= 0x10
    open(st.path, "wb").write(bytes(data))
    st = BackupStore(st.path)
    play(tray, 20, seed=8)
    r = st.take(dev)
    assert any("stored fold of backup %d is damaged" % bid in n for n in r.notes)
    assert st.list()[-1]["gap"] == ""      # a note for the user, not a gap of the version
    assert st.load(r.backup).state == tray.state()
    assert st.take(dev).duplicate          # and the new version's own fold serves


def test_a_database_from_before_folds(tmp_path, monkeypatch):
    """Backups written before the folds table: read as they are; the first
    backup reads and folds their events once, then keeps the fold."""
    st = BackupStore(str(tmp_path / "b.sqlite3"))
    tray = device(1500)
    dev = tray.device()
    bid = st.take(dev).backup
    st.db.execute("DROP TABLE folds")
    st.close()
    ro = BackupStore(st.path, create=False)
    assert not ro.has_folds and [b["id"] for b in ro.list()] == [bid]
    assert ro.load(bid).state == tray.state()
    ro.close()
    st = BackupStore(st.path)
    w = Work(monkeypatch, st)
    assert st.take(dev).duplicate and w.read == 1500
    w.reset()
    assert st.take(dev).duplicate and w.read <= 1 and w.apply == 0
    play(tray, 30, seed=2)
    w.reset()
    r = st.take(dev)
    assert w.apply == 30 and w.read <= 1 and st.load(r.backup).last == 1530


def test_sha256_resumes_as_hashlib_digests():
    r = random.Random(5)
    for n in list(range(0, 140)) + [4096, 9999]:
        data = bytes(r.randrange(256) for _ in range(n))
        k = r.randint(0, n)
        h = bk.Sha256()
        h.update(data[:k])
        h = bk.Sha256(h.state())
        h.update(data[k:])
        assert h.hexdigest() == hashlib.sha256(data).hexdigest()
    with pytest.raises(ValueError):
        bk.Sha256(b"\0" * 41)   # one pending byte, but a length of 0


def test_stats_with_the_window_count_what_the_whole_history_counts():
    from dicetray.campaign import stats
    tray = device(1500, seed=6)
    journal = tray.device().events(0)
    windowed = stats.collect(0, 77, None, journal)
    whole = stats.collect(0, 77, None, journal, depth=None)
    assert windowed[:2] == whole[:2] and windowed[2].depth == bk.HOST_DEPTH
    assert cp.encode_state(windowed[2]) == cp.encode_state(whole[2]) == tray.state()
