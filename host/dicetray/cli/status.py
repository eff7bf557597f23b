"""`dicetray ports` and `dicetray status`: what a command can talk to, and
what the device says of itself."""

from .common import _Dev, _json, _port, _print_json, adder


def _ports(args):
    from ..hub import client as hub
    from ..link import ports

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
        info = dev.info(heap=True)
    if args.json:
        _print_json(info)
        return 0
    print(
        "device    %s (firmware %s, protocol %s, schema %s)"
        % (info.get("device"), info.get("firmware"), info.get("protocol"), info.get("schema"))
    )
    print(
        "campaign  %s%s (%s)"
        % (
            info.get("campaign"),
            " %s" % info["name"] if info.get("name") else "",
            info.get("system"),
        )
    )
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
    if "scrub" in info:
        print("scrub     " + _scrub_words(info["scrub"]))
    if "heap_free" in info:
        print("heap      %d bytes free, %d used" % (info["heap_free"], info["heap_used"]))
    for line in info.get("damage", ()):
        print("damage    " + line)
    return 0


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

    p = add("ports", _ports, "the boards (by USB id) and running simulators a command can talk to")
    _json(p)

    p = add("status", _status, "the device's firmware, rule system, campaign and event count")
    _port(p)
    _json(p)
