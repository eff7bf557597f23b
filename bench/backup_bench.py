"""Backup figures on long campaigns, measured, never asserted.

For a hunt campaign of 1,000 and one of 20,000 events, 5 % of them undos,
written straight to a desktop simulator's flash with the firmware's own
store (it keeps the newest 6,000 events on flash, as a board does), and a
backup database that already holds its whole history (a full backup from
event 1, taken in process from the same journal, as a user who backs up
as the campaign grows has one):

- backup with nothing new (over the simulator's link), median of 5;
- incremental backup of 100 new events (95 free rolls and 5 undos played
  on the simulator first, not timed), median of 5 (each a new version);
- `backups show` of the newest backup (in process, output discarded),
  median of 3;
- `restore` of the full backup onto the simulator (`restore ID --yes`),
  once.

Each row: wall seconds (device and link included), the host's own CPU
seconds (this process only: the simulator is another process), the
events the host folded (Campaign.apply) and the rule applications it ran
(Campaign._do: what an undo's refold costs is there), the events fetched
from the device. The first two rows are the ones that should not grow
with the campaign; show and restore touch every event they hold.
`main(sizes)` takes other sizes (`python bench/backup_bench.py 1000 5000`).
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

import linkutil  # noqa: E402
from dicetray import cli  # noqa: E402
from dicetray.backup import BackupStore  # noqa: E402
from dicetray.link.client import Device  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402
from dicetray.rules import codec, systems  # noqa: E402
from dicetray.rules.dice import Dice  # noqa: E402

SIZES = (1000, 20000)
UNDO_EVERY = 20  # one action in 20 is an undo: 5 %
NEW = 100  # the incremental backup's new events


def make_campaign(n, seed=7, system=0, cid=12345):
    """A campaign of n events like linkutil.make_events, with 5 % undos."""
    c = cp.Campaign(system, cid, cp.UNDO_DEPTH)
    d = Dice(seed)
    c.act(cp.CHAR_ADD, (), "Ann")
    c.act(cp.CHAR_ADD, (), "Bo")
    i = 0
    while c.nevents < n:
        i += 1
        if i % UNDO_EVERY == 0 and c.done:
            c.act(cp.UNDO)
        elif i % 5 == 0 and c.tals:
            try:
                c.act(cp.SLASH, (i % len(c.tals), 1, 0), dice=d)
            except ValueError:
                c.act(cp.DICE, (6, 2), dice=d)
        else:
            c.act(cp.DICE, (6, 1 + i % 10), dice=d)
    return c


class Journal:
    """The campaign as a device that never compacted (seeds the database)."""

    def __init__(self, c):
        self.c = c

    def info(self):
        c = self.c
        return {
            "device": "bench-journal",
            "firmware": "",
            "protocol": 1,
            "schema": codec.VERSION,
            "system": systems.NAMES[c.system],
            "campaign": c.cid,
            "events": c.nevents,
            "first": 1,
        }

    def snapshot(self):
        return self.c.nevents, cp.encode_snapshot(self.c)

    def events(self, since, progress=None):
        return list(self.c.events[since:])


class Count:
    """Counts Campaign.apply (events folded) and Campaign._do (rule
    applications, refolds included) while it is on."""

    def __init__(self):
        self.apply = self.do = 0
        self._a, self._d = cp.Campaign.apply, cp.Campaign._do
        me = self

        def apply(c, *a, **k):
            me.apply += 1
            return me._a(c, *a, **k)

        def do(c, *a, **k):
            me.do += 1
            return me._d(c, *a, **k)

        cp.Campaign.apply, cp.Campaign._do = apply, do

    def close(self):
        cp.Campaign.apply, cp.Campaign._do = self._a, self._d


def timed(fn):
    """(result, wall s, host CPU s, events folded, rule applications)."""
    n = Count()
    try:
        w0, c0 = time.perf_counter(), time.process_time()
        r = fn()
        w1, c1 = time.perf_counter(), time.process_time()
    finally:
        n.close()
    return r, w1 - w0, c1 - c0, n.apply, n.do


def median(runs):
    """The run of median wall time among `runs` (tuples from timed())."""
    return sorted(runs, key=lambda r: r[1])[len(runs) // 2]


def quiet(argv):
    """cli.main(argv) with its output kept: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def measure(n, tmp):
    c = make_campaign(n)
    flash = os.path.join(tmp, "flash%d" % n)
    home = os.path.join(tmp, "home%d" % n)
    linkutil.write_campaign(flash, c)
    db = os.path.join(tmp, "b%d.sqlite3" % n)
    st = BackupStore(db)
    r = {"events": n}
    res, w, cpu, fo, do = timed(lambda: st.take(Journal(c)))
    full = res.backup
    r["seed"] = (w, cpu, fo, do, res.fetched)
    sim = linkutil.Sim(flash, home)
    try:
        dev = Device.open(sim.port, timeout=10)
        r["first"] = dev.info().get("first", 1)
        runs = [timed(lambda: st.take(dev)) for _ in range(5)]
        res, w, cpu, fo, do = median(runs)
        r["nochange"] = (w, cpu, fo, do, res.fetched)
        r["nochange_dup"] = all(x[0].duplicate for x in runs)
        runs = []
        for _ in range(5):
            for i in range(NEW):
                if i % UNDO_EVERY == UNDO_EVERY - 1:
                    dev.act(cp.UNDO)
                else:
                    dev.act(cp.DICE, (6, 1 + i % 10))
            runs.append(timed(lambda: st.take(dev)))
        res, w, cpu, fo, do = median(runs)
        r["incr"] = (w, cpu, fo, do, res.fetched)
        bid = runs[-1][0].backup
        dev.close()
        runs = [timed(lambda: quiet(["backups", "show", str(bid), "--db", db])) for _ in range(3)]
        (code, out, err), w, cpu, fo, do = median(runs)
        r["show"] = (w, cpu, fo, do, 0)
        r["show_ok"] = all(x[0][0] == 0 for x in runs)
        (code, out, err), w, cpu, fo, do = timed(
            lambda: quiet(
                ["restore", str(full), "--yes", "--port", sim.port, "--db", db, "--timeout", "10"]
            )
        )
        r["restore"] = (w, cpu, fo, do, 0)
        r["restore_exit"] = code
        r["restore_said"] = (
            (out.strip().splitlines() or [""])[-1] if code == 0 else err.strip()[:150]
        )
    finally:
        st.close()
        sim.stop()
    return r


ROWS = (
    ("seed", "full backup from event 1, in process"),
    ("nochange", "backup, nothing new"),
    ("incr", "backup, %d new events (5 undos)" % NEW),
    ("show", "backups show (newest: N + 500 events)"),
    ("restore", "restore the full backup (--yes)"),
)


def main(sizes=SIZES):
    tmp = tempfile.mkdtemp(prefix="dicetray-backupbench-")
    try:
        rs = [measure(n, tmp) for n in sizes]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        "backup on long campaigns (hunt, 5 %% undos; the simulator keeps the newest %d "
        "events on flash)" % 6000
    )
    print(
        "  wall s (device and link included) / host CPU s / events folded / rule "
        "applications / events fetched"
    )
    head = "  %-38s" % "operation"
    for r in rs:
        head += " | %-36s" % ("%s events" % format(r["events"], ","))
    print(head + (" | wall ratio" if len(rs) == 2 else ""))
    for key, name in ROWS:
        line = "  %-38s" % name
        for r in rs:
            w, cpu, fo, do, fe = r[key]
            line += " | %7.3f %7.3f %7d %7d %5d" % (w, cpu, fo, do, fe)
        if len(rs) == 2:
            line += " | %.1fx" % (rs[1][key][0] / max(rs[0][key][0], 1e-9))
        print(line)
    for r in rs:
        print(
            "  %s events: device holds %d.., no-change backup %s, show %s, restore exit %d: %s"
            % (
                format(r["events"], ","),
                r["first"],
                "deduplicated" if r["nochange_dup"] else "made a NEW version",
                "ok" if r["show_ok"] else "FAILED",
                r["restore_exit"],
                r["restore_said"],
            )
        )
    return rs


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or SIZES)
