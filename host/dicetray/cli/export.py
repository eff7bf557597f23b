"""`dicetray export` and `dicetray stats`: a campaign's events and state as
CSV or JSON, and its dice's fairness, from the device or a backup."""

import sys

from .. import backup as bk
from ..campaign import export as ex
from ..base import outfile
from ..base.progress import Progress
from ..rules import campaign as cp
from .common import (
    Fail,
    Usage,
    Opened,
    db_option,
    json_option,
    port_options,
    print_json,
    backup_store,
    adder,
)
from .backups import first_seen


def _source(args, st=None):
    """(system, cid, state, events, first, base) from --backup ID or the device."""
    if getattr(args, "backup", None) is not None:
        b = (st or backup_store(args, want=args.backup)).load(args.backup)
        return b.system, b.cid, b.state, b.events, b.first, b.base_snap, b.base_seq
    with Opened(args) as dev:
        info = dev.info()
        first = info.get("first", 1)
        snap = bk.snapshot_bytes(dev.snapshot())
        with Progress("fetching events", total=info["events"]) as p:
            evs = [bytes(e) for e in dev.events(first - 1, p)]
        why = bk.verify.unchained(dev, info, first, evs)
    if why is not None:
        raise Fail(why + "; nothing is exported or counted from them")
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
    try:
        outfile.write(path, text)
    except OSError as e:
        raise Fail("cannot write %s (%s): choose another --output" % (path, e.strerror))


def _export(args):
    if args.state and args.format != "csv":
        raise Usage(
            "--state is for --format csv: the JSON export holds the state already (its `state`)"
        )
    seen = None
    if args.backup is not None:
        # Loaded without its fold: document() folds it once and checks the
        # fold ends in the backup's state.
        st = backup_store(args, want=args.backup)
        b = st.load(args.backup, verify=False)
        rows = st.list()
        row = {r["id"]: r for r in rows}.get(b.id)
        seen = first_seen(rows, row, b.first, b.last) if row else []
        runs = st.runs(b.id)  # what a damaged journal gave between damaged records
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
        runs = []
    try:
        doc = ex.document(system, cid, state, events, first, base, base_seq, seen, runs)
    except ValueError as e:
        raise Fail("%s: %s" % (who, e))
    if args.state:  # the trackers the events folded to, checked against the state above
        _write_out(ex.state_csv(cp.decode_state(state)), args.output)
    else:
        _write_out(ex.render(doc, args.format), args.output)
    return 0


def _stats(args):
    from ..campaign import stats

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
        print_json(rep)
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
    if not rep["characters"]:
        print("  no rolls yet")
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


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add(
        "export",
        _export,
        "the campaign's events (each roll with its outcome, in words, "
        "by session) as CSV for a spreadsheet, or everything (events, sessions, state) as "
        "JSON (the campaign alone: identical wherever it lives; a backup's export adds when "
        "each event was backed up)",
    )
    p.add_argument(
        "--format",
        choices=("csv", "json"),
        required=True,
        help="csv (a header, then one row per event, for a spreadsheet) or json (everything)",
    )
    p.add_argument(
        "--state",
        action="store_true",
        help="with csv: the trackers instead of the events, a row each in the game's words "
        "(what `backups show` lists)",
    )
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE (default stdout)")
    p.add_argument(
        "--backup",
        type=int,
        metavar="ID",
        help="export a backup instead of the device (adds the backup times)",
    )
    port_options(p)
    db_option(p)

    p = add("stats", _stats, "dice fairness (chi-square, p-value) and success rates")
    p.add_argument("--plot", metavar="FILE.png", help="also draw a histogram PNG (matplotlib)")
    p.add_argument("--backup", type=int, metavar="ID", help="a backup instead of the device")
    port_options(p)
    db_option(p)
    json_option(p)
