"""`dicetray backup`, `backups [show ID | diff ID1 ID2]`, `restore ID` and
`verify`: the backup database and the device (the work is in
dicetray.backup and dicetray.ops.restore; here the words)."""

import argparse
import sys

from .. import backup as bk
from ..campaign import export as ex
from ..campaign import tracked
from ..ops import restore as rs
from ..base.progress import Progress
from ..rules import campaign as cp
from ..ops.actions import system_of
from .common import (
    Fail,
    PROG,
    Opened,
    confirm,
    db_option,
    json_option,
    port_options,
    print_json,
    backup_store,
    adder,
)
from .campaigns import leave_slot, visit_slot


def _backup(args):
    st = backup_store(args, create=True)
    visit = None
    with Opened(args) as dev:
        if getattr(args, "slot", None) is not None:
            visit = visit_slot(dev, args.slot)
        try:
            with Progress("fetching events") as p:
                r = st.take(dev, progress=p)
        finally:
            if visit is not None:
                leave_slot(dev, visit)
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
        "damage": r.damage,
        "unchecked": None
        if r.unchecked is None
        else dict(zip(("first", "last", "why"), r.unchecked)),
        "database": st.path,
    }
    if visit is not None:
        out["slot"] = {"backed_up": visit["now"], "was": args.slot, "current": visit["back"]}
    if args.json:
        print_json(out)
        return 0
    for n in r.notes:
        print("note: " + n)
    if visit is not None:
        print(
            "note: slot %d was made current for the backup and the tray switched back: campaign "
            "%d is current again, now slot %d; the one backed up is now slot %d"
            % (args.slot, visit["cid"], visit["back"], visit["now"])
        )
    if r.duplicate and r.damage:
        print(
            "no new version: the device's head and the events read are backup %d's "
            "(campaign %d, %s, event %d), but the device reports damage (above): "
            "`dicetray verify` compares every event it holds"
            % (r.backup, r.cid, b["system"], r.last)
        )
    elif r.duplicate:
        print(
            "no change since backup %d (campaign %d, %s, event %d): no new version%s"
            % (
                r.backup,
                r.cid,
                b["system"],
                r.last,
                ""
                if r.unchecked is None
                else "; events %d..%d were not read: the device's hash chain head vouches for "
                "them, and %s (`dicetray verify` reads them all)" % r.unchecked,
            )
        )
    elif b["first"] > r.last:  # a baseline with no events after its snapshot
        print(
            "backup %d taken: campaign %d (%s), its state after event %d and no events; %s "
            "read from the device"
            % (r.backup, r.cid, b["system"], r.last, ex.plural(r.fetched, "event"))
        )
    else:
        held = r.last - b["first"] + 1
        print(
            "backup %d taken: campaign %d (%s), events %d..%d, %s; %s"
            % (
                r.backup,
                r.cid,
                b["system"],
                b["first"],
                r.last,
                "all new" if added == held else "%d of them new" % added,
                _read(r.fetched, added),
            )
        )
    return 0


def _read(fetched, added):
    """What the backup read from the device, in words: the events read
    again (already backed up) are the check that the new ones follow on
    ("(1 new); 2 events read" would say neither)."""
    said = "%s read from the device" % ex.plural(fetched, "event")
    again = fetched - added
    if again > 0:
        said += " (%d already backed up, read again to check the new %s on)" % (
            again,
            "one follows" if added == 1 else "ones follow",
        )
    return said


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


def _span(first, last):
    """A backup's events for the list: '1..40'; 'none' for a campaign with
    no events yet (it said '1..0'); 'none after 40' for one that holds the
    device's state after event 40 and no events (a baseline)."""
    if first <= last:
        return "%d..%d" % (first, last)
    return "none" if last == 0 else "none after %d" % last


def _when(t):
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def _backups(args):
    if args.sub == "show":
        return _show(args)
    if args.sub == "diff":
        return _diff(args)
    try:
        st = backup_store(args)
    except bk.NoDatabase as e:
        if args.db is not None:
            raise
        st, path = None, e.path  # no backup taken yet: nothing to list, nothing created
    rows = st.list() if st else []
    bad = st.incomplete() if st else 0
    unreadable = st.unreadable if st else []
    if args.json:
        print_json(
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
            "%4s  %-10s %-10s %-16s %-13s %-19s %s"
            % ("ID", "CAMPAIGN", "SYSTEM", "DEVICE", "EVENTS", "CREATED", "NOTE")
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
                "%4d  %-10d %-10s %-16s %-13s %-19s %s"
                % (
                    r["id"],
                    r["campaign"],
                    r["system"],
                    (r["device"] or "?")[:16],
                    _span(r["first"], r["last"]),
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


def _summary(b, runs=()):
    """(backup b's campaign folded, its summary for --json with `runs`)."""
    c = b.fold()
    t = ex.trackers(c)
    return c, {
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
        "runs": [
            {
                "run": r.id,
                "backup": r.backup,
                "first": r.first,
                "last": r.last,
                "folded": False,
                "anchor": r.anchor,
                "checked": r.checked,
                "gap": r.gap,
            }
            for r in runs
        ],
    }


def _show(args):
    st = backup_store(args, want=args.id)
    runs = st.runs(args.id)
    c, s = _summary(st.load(args.id), runs)
    if args.json:
        print_json(s)
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
    for r in runs:  # events a damaged journal gave between its damaged records
        print("run %d (kept with backup %d): %s" % (r.id, r.backup, r.words()))
    for line in tracked.lines(c, every=True):
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
    st = backup_store(args, want=args.id1)
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
        "changes": ex.diff_trackers(ta, tb, b.system),
    }
    if args.json:
        print_json(out)
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


def _restore(args):
    st = backup_store(args, want=args.id)
    with Opened(args) as dev:
        plan = rs.plan(st, args.id, dev, args.force_schema, args.force_system, Progress)
        print("\n".join(plan.lines))
        if args.dry_run:
            print("dry run: nothing sent, the device is unchanged")
            return 0
        if not confirm("restore backup %d, as the device's current campaign?" % args.id, args.yes):
            print("restore cancelled: the device is unchanged")
            return 1
        done = rs.apply(plan, dev, Progress)
    print(done.line)
    print("slots: " + done.slots_line)
    return 0


def _verify(args):
    """Check a backup's hash chain end to end (every event's link), then
    against the device, event by event: exit 0 when both hold, 1 naming
    what differs (dicetray.backup.verify)."""
    st = backup_store(args, want=args.backup)
    dev_wanted = args.port is not None or args.backup is None
    if args.backup is None:
        with Opened(args) as dev:
            info = dev.info()
            cur = st.newest(info["campaign"], system_of(info))
            if cur is None:
                raise Fail(
                    "no backup of the device's campaign %s (%s) in %s: `dicetray backup` "
                    "takes one" % (info["campaign"], info["system"], st.path)
                )
            return _verify_against(st.load(cur[1]), dev, info, args)
    b = st.load(args.backup)  # StoreError names the first event whose link fails
    if not dev_wanted:
        from ..link import ports

        if not ports.find():
            return _verify_alone(b, args)
    with Opened(args) as dev:
        return _verify_against(b, dev, dev.info(), args)


def _verify_alone(b, args):
    """No device: the backup checked against itself, and said to be only that."""
    why = (
        "backup %d was checked against itself only: every event leads to the hash chain "
        "link stored with it%s. That shows it was not edited carelessly, not that it "
        "matches the device or any other copy (whoever edits a copy can recompute its "
        "chain); no device was found: with the tray connected, or --port P, `dicetray "
        "verify --backup %d` compares it with the device event by event"
        % (
            b.id,
            ", up to head %s" % b.head
            if b.head
            else " (its chain's start is not known: taken from a device without a chain)",
            b.id,
        )
    )
    if args.json:
        print_json(
            {
                "backup": b.id,
                "backup_head": b.head,
                "checked": "backup alone",
                "device": None,
                "holds": True,
                "differs_at": None,
                "why": why,
            }
        )
    else:
        print(why)
    return 0


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


def _verify_against(b, dev, info, args):
    _say_backup(b, args)
    v = bk.verify.against(b, dev, info)
    if args.json:
        print_json(
            {
                "backup": b.id,
                "backup_head": b.head,
                "checked": "backup and device",
                "device": info.get("device"),
                "device_events": info["events"],
                "device_head": info.get("head"),
                "compared": v.compared,
                "damage": v.damage,
                "holds": v.holds,
                "differs_at": v.at,
                "why": v.why,
            }
        )
    else:
        print(v.why)
    return 0 if v.holds else 1


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add("backup", _backup, "back up the device's campaign (incremental, deduplicated)")
    p.add_argument(
        "--slot",
        type=int,
        metavar="N",
        help="back up the campaign in slot N (`dicetray campaigns` lists them): the "
        "tray switches to it for the backup and back (both get new slot numbers)",
    )
    port_options(p)
    db_option(p)
    json_option(p)

    p = add("backups", _backups, "list backups; `backups show ID`, `backups diff ID1 ID2`")
    db_option(p)
    json_option(p)
    bs = p.add_subparsers(dest="sub", metavar="show|diff", parser_class=type(p))
    q = bs.add_parser("show", help="a backup's campaign, system, events and trackers")
    q.add_argument("id", type=int, metavar="ID", help="the backup (`dicetray backups` lists them)")
    db_option(q, default=argparse.SUPPRESS)  # keep `backups --db X show 1` working
    json_option(q, default=argparse.SUPPRESS)
    q = bs.add_parser("diff", help="events and tracker changes between two backups, in words")
    q.add_argument("id1", type=int, metavar="ID1", help="the earlier backup")
    q.add_argument("id2", type=int, metavar="ID2", help="the later backup")
    db_option(q, default=argparse.SUPPRESS)
    json_option(q, default=argparse.SUPPRESS)
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
    port_options(p)
    db_option(p)

    p = add(
        "verify",
        _verify,
        "check a backup's hash chain end to end and every event the device holds against "
        "it: exit 0 when they hold, 1 naming the first event that differs",
    )
    p.add_argument(
        "--backup",
        type=int,
        metavar="ID",
        help="the backup to check (default: the newest backup of the device's campaign)",
    )
    port_options(p)
    db_option(p)
    json_option(p)
