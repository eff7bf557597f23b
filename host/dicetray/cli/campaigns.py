"""`dicetray campaigns [switch SLOT | delete SLOT | new SYSTEM [--name NAME]]`:
the campaign slots on the device's flash, and a new campaign on it."""

import argparse

from .. import backup as bk
from ..campaign import export as ex
from ..rules import systems
from ..rules.core import name_error
from .common import (
    Fail,
    Usage,
    Opened,
    confirm,
    db_option,
    json_option,
    port_options,
    print_json,
    backup_store,
    sub_port_options,
    adder,
)


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
    return "campaign %s%s (%s, %s, %d KB)" % (
        t["campaign"] if t["campaign"] >= 0 else "unreadable",
        " %s" % t["name"] if t.get("name") else "",
        t["system"] or "unknown system",
        ex.plural(t["events"], "event"),
        t["kb"],
    )


def visit_slot(dev, n):
    """Switch to slot n for a while (backup --slot); what leave_slot needs to
    switch back."""
    d = _slots(dev)
    _slot(d, n, "back up")
    if n == d["current"]:
        return None
    info = dev.switch(n)
    cur = _slot(d, d["current"], "back up")
    return {"back": d["current"], "now": info["slot"], "cid": cur["campaign"]}


def leave_slot(dev, visit):
    info = dev.switch(visit["back"])
    visit["back"] = info["slot"]


def _campaigns(args):
    if args.sub == "new":
        _new_args(args)  # refused before the device is opened
    with Opened(args) as dev:
        if args.sub == "switch":
            return _switch(args, dev)
        if args.sub == "delete":
            return _delete(args, dev)
        if args.sub == "new":
            return _new(args, dev)
        d = _slots(dev)
    if args.json:
        print_json(d)
        return 0
    print(
        "  %4s  %-10s %-10s %7s  %-24s %s"
        % ("SLOT", "CAMPAIGN", "SYSTEM", "EVENTS", "FLASH", "NAME")
    )
    for t in d["slots"]:
        print(
            "%s %4d  %-10s %-10s %7d  %-24s %s"
            % (
                "*" if t["current"] else " ",
                t["slot"],
                t["campaign"] if t["campaign"] >= 0 else "unreadable",
                t["system"] or "?",
                t["events"],
                "%4d KB  (%d bytes)" % (t["kb"], t["bytes"]),
                t.get("name") or "",
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
            print_json(dev.info())
        else:
            print("slot %d is already the current campaign: nothing changed" % args.slot)
        return 0
    old = _slot(d, d["current"], "switch from")
    info = dev.switch(args.slot)
    if args.json:
        print_json(info)
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
        st = backup_store(args)
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
    if not confirm(
        "delete slot %d from the device's flash? It cannot be undone" % args.slot,
        args.yes,
        "delete",
    ):
        print("delete cancelled: the device is unchanged")
        return 1
    got = dev.delete(args.slot)
    got["kb"] = _kb(got["blocks"], d.get("block", 4096))
    if args.json:
        print_json(got)
        return 0
    print(
        "deleted slot %d: %d KB of flash freed (%d bytes of files)"
        % (args.slot, got["kb"], got["bytes"])
    )
    return 0


def _new_args(args):
    """The rule system's number from SYSTEM, and --name checked as the
    device's rules check it: Usage (exit 2) naming what is wrong."""
    try:
        args.sysno = systems.number(args.system)
    except ValueError as e:
        raise Usage(str(e)) from None
    bad = args.name is not None and name_error(args.name)
    if bad:
        raise Usage("--name: %s" % bad)


def _new(args, dev):
    """A new campaign on the device, staged and swapped in as its Settings >
    New campaign does; the current one stays in its slot. Asks first."""
    info = dev.info()
    d = _slots(dev)
    cur = _slot(d, d["current"], "keep")
    if not args.json:  # stdout is the one JSON object then
        print("now: slot %d, %s" % (cur["slot"], _what(cur)))
    if not confirm(
        "start a new %s campaign%s on the device? The current one stays on flash in slot %d"
        % (args.system, " named %s" % args.name if args.name else "", cur["slot"]),
        args.yes,
        "start a new campaign",
    ):
        print("new campaign cancelled: the device is unchanged")
        return 1
    got = dev.new_campaign(args.sysno, args.name or "")
    if args.json:
        print_json(got)
        return 0
    print(
        "new campaign %s%s (%s) is the current one, slot %d; campaign %s stays on flash as "
        "slot %d (`dicetray campaigns switch %d` goes back)"
        % (
            got["campaign"],
            " %s" % got["name"] if got.get("name") else "",
            got["system"],
            got["slot"],
            info["campaign"],
            cur["slot"],
            cur["slot"],
        )
    )
    return 0


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add(
        "campaigns",
        _campaigns,
        "the campaigns on the device's flash (slot, id, system, "
        "events, flash used, name); `campaigns switch SLOT`, `campaigns delete SLOT`, "
        "`campaigns new SYSTEM`",
    )
    port_options(p)
    json_option(p)
    cs = p.add_subparsers(dest="sub", metavar="switch|delete|new", parser_class=type(p))
    q = cs.add_parser(
        "switch", help="make the campaign in SLOT the current one (it becomes the highest slot)"
    )
    q.add_argument(
        "slot", type=int, metavar="SLOT", help="the slot (`dicetray campaigns` lists them)"
    )
    sub_port_options(q)
    json_option(q, default=argparse.SUPPRESS)
    q = cs.add_parser(
        "delete",
        help="delete the campaign in SLOT from the flash (never the current one); asks first",
    )
    q.add_argument(
        "slot", type=int, metavar="SLOT", help="the slot (`dicetray campaigns` lists them)"
    )
    q.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    sub_port_options(q)
    db_option(q)
    json_option(q, default=argparse.SUPPRESS)
    q = cs.add_parser(
        "new",
        help="start a new campaign on the device, as its Settings > New campaign does (the "
        "current one stays on flash in its slot); asks first",
    )
    q.add_argument("system", metavar="SYSTEM", help="its rule system: hunt, paths or expedition")
    q.add_argument(
        "--name",
        metavar="NAME",
        help="the campaign's name, 1 to 12 characters (letters, digits, space, ASCII punctuation)",
    )
    q.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    sub_port_options(q)
    json_option(q, default=argparse.SUPPRESS)
    p.set_defaults(sub=None)
