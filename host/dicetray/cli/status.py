"""`dicetray ports` and `dicetray status`: what a command can talk to, and
what the device says of itself, in words a keeper reads (the internals:
`status -v`, `status --json`)."""

import time

from .. import backup as bk
from ..campaign.export import article, plural
from .common import Opened, db_option, json_option, port_options, print_json, backup_store, adder


def _ports(args):
    from ..link import hubclient as hub
    from ..link import ports

    found = [p.as_dict() for p in ports.usb() + ports.simulators(web=True)]
    reg = hub.find()
    if reg is not None:  # the hub's trays: a command reaches them with --tray NAME
        at = {t["port"]: t for t in hub.trays(reg)}
        found = [p for p in found if p["port"] not in at] + [
            _hub_tray(t, reg, ports.simulator_at(t["port"])) for t in at.values()
        ]
    if args.json:
        print_json(found)
        return 0
    if not found:
        print("no board or simulator found: plug the tray in, or start `dicetray sim`")
        return 0
    for p in found:
        print("%-20s %-4s %s" % (p["port"], p["kind"], p["description"]))
    return 0


def _hub_tray(t, reg, sim):
    """A hub's tray as `ports` lists it: kind hub, and what it is when it
    is a simulator."""
    said = "tray %s at the hub (pid %s): %s" % (t["tray"], reg["pid"], t["state"])
    if t["state"] == "up":
        said += ", %s campaign %s, %s" % (t["system"], t["campaign"], plural(t["events"], "event"))
    elif t["why"]:
        said += " (%s)" % t["why"]
    d = {"port": t["port"], "kind": "hub", "tray": t["tray"], "state": t["state"]}
    if sim is not None:
        said += "; " + article(sim.description)
        d.update(simulator=sim.simulator, flash=sim.flash)
    d["description"] = said
    return d


def _where(dev, info):
    """What the device is and where ({"port", "description"} and, for a
    simulator, "simulator" and "flash"): a simulator's kind and flash
    folder, a board's USB name; through the hub, the tray it serves."""
    from ..link import ports

    port, via = getattr(dev, "port", None), ""
    reg = getattr(dev, "reg", None)  # a HubDevice: the hub knows the tray's port
    if reg is not None:
        from ..link import hubclient as hub

        for t in hub.trays(reg):
            if t.get("device") == info.get("device"):
                port, via = t["port"], "tray %s at the hub, " % t["tray"]
    d = {"port": port}
    sim = port and ports.simulator_at(port)
    if sim:
        d.update(simulator=sim.simulator, flash=sim.flash)
        d["description"] = via + article(sim.description)
        return d
    usb = [p for p in ports.usb() if p.device == port]
    d["description"] = "%s%son %s" % (via, usb[0].description + " " if usb else "", port)
    return d


def _ago(seconds):
    """'just now', '5 minutes ago', '3 hours ago', '2 days ago'."""
    if seconds < 90:
        return "just now"
    for unit, n, below in (("minute", 60, 5400), ("hour", 3600, 129600), ("day", 86400, None)):
        if below is None or seconds < below:
            return plural(int(seconds / n + 0.5), unit) + " ago"


def _last_backup(args, info):
    """The newest backup of the device's campaign in the backup database,
    as a dict (None: none, or no database yet)."""
    try:
        st = backup_store(args)
    except bk.NoDatabase:
        return None
    try:
        mine = [
            r
            for r in st.list()
            if r["campaign"] == info.get("campaign") and r["system"] == info.get("system")
        ]
    finally:
        st.close()
    if not mine:
        return None
    r = max(mine, key=lambda r: r["id"])
    return {"backup": r["id"], "last": r["last"], "created": r["created"], "database": st.path}


def backup_words(b, events, now=None):
    """The last backup of the campaign, against the device's `events`, in words."""
    if b is None:
        return "none of this campaign yet: `dicetray backup` takes one"
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(b["created"]))
    said = "backup %d, taken %s (%s): " % (
        b["backup"],
        when,
        _ago((now or time.time()) - b["created"]),
    )
    if b["last"] == events:
        return said + "it holds every event the device has"
    if b["last"] < events:
        n = events - b["last"]
        return said + "the device has %s since: `dicetray backup` takes %s" % (
            plural(n, "event"),
            "it" if n == 1 else "them",
        )
    return said + "it holds %s, more than the device's %d (an older backup restored onto it)" % (
        plural(b["last"], "event"),
        events,
    )


def health_words(info):
    """(word, sentence): the device's own checks of its flash, in words."""
    damage = info.get("damage") or []
    sc = info.get("scrub") or {}
    if damage or sc.get("broken"):
        return "damaged", (
            "damaged: %s: `dicetray backup` keeps every event that reads, and restoring "
            "the last backup puts a whole journal back (docs/backup.md)"
            % (
                "the device found damage on its flash (below)"
                if damage
                else "its journal does not hold its hash chain"
            )
        )
    if sc.get("cycles") and sc.get("chain"):
        return "good", (
            "good: the device read every event it holds and checked them against their hash "
            "chain (%s since it booted)"
            % ("once" if sc["cycles"] == 1 else "%d times" % sc["cycles"])
        )
    if sc.get("cycles"):
        return "good", "good: the device read every event it holds and found nothing damaged"
    return "good", (
        "good so far: nothing damaged found at boot; the device reads its whole journal "
        "when it is left idle a while"
    )


def _status(args):
    with Opened(args) as dev:
        info = dev.info(heap=args.verbose or args.json)
        where = _where(dev, info)
    last = _last_backup(args, info)
    word, health = health_words(info)
    if args.json:
        info.update({k: v for k, v in where.items() if k != "description"})
        print_json(dict(info, where=where["description"], health=word, last_backup=last))
        return 0
    name = " %s" % info["name"] if info.get("name") else ""
    print("device    %s: %s" % (info.get("device"), where["description"]))
    print(
        "campaign  %s%s (%s), %s"
        % (
            info.get("campaign"),
            name,
            info.get("system"),
            plural(info.get("events") or 0, "event"),
        )
    )
    print("backup    " + backup_words(last, info.get("events") or 0))
    print("health    " + health)
    for line in info.get("damage", ()):
        print("damage    " + line)
    if args.verbose:
        _internals(info)
    return 0


def _internals(info):
    """status -v: what the device reports of itself beyond the words above."""
    print(
        "firmware  %s (protocol %s, state schema %s, board profile %s, slot %s)"
        % (
            info.get("firmware"),
            info.get("protocol"),
            info.get("schema"),
            info.get("board"),
            info.get("slot"),
        )
    )
    first = info.get("first", 1)
    if first > 1:
        print(
            "journal   it holds events %d..%s: %s compacted"
            % (
                first,
                info.get("events"),
                "event 1 was" if first == 2 else "events 1..%d were" % (first - 1),
            )
        )
    if "head" in info:
        print(
            "chain     %s"
            % (
                info["head"]
                or "unknown (a campaign from firmware before the hash chain whose first "
                "events are compacted: a restore gives it one)"
            )
        )
    if "scrub" in info:
        print("scrub     " + _scrub_words(info["scrub"]))
    if "heap_free" in info:
        print("heap      %d bytes free, %d used" % (info["heap_free"], info["heap_used"]))


def _scrub_words(sc):
    """The device's scrub verdict (its info's `scrub`), in words."""
    if sc.get("broken"):
        return "its journal does not hold its hash chain (the damage line names the events)"
    if not sc.get("cycles"):
        return "its journal not checked against its hash chain since it booted (when idle it is)"
    if sc.get("chain"):
        return "its journal holds its hash chain over events %d..%d (checked by the device %s)" % (
            sc["chain"][0],
            sc["chain"][1],
            "once since it booted"
            if sc["cycles"] == 1
            else "%d times since it booted" % sc["cycles"],
        )
    return "its journal's records checked; no recorded chain head to check the chain from"


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add(
        "ports",
        _ports,
        "the boards (by USB id) and running simulators a command can talk to, each with what it "
        "is and its flash folder (and `dicetray sim --web` pages, which no command reaches)",
    )
    json_option(p)

    p = add(
        "status",
        _status,
        "the device, its campaign, the last backup of it and the device's health, in words",
    )
    port_options(p)
    db_option(p)
    json_option(
        p, "the device's own report (info) with the health and last backup, as one JSON object"
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also the internals: firmware, protocol, schema, chain head, the scrub's "
        "last cycle, heap",
    )
