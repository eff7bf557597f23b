"""`dicetray rules SYSTEM`: a rule system's events, from catalog/events.py;
which of them the device's keys cannot make yet (catalog/keypaths.py);
with --keys, the key script that makes the others (dicetray/keyscript.py)."""

import json
import sys

from ..campaign import odds
from .common import Fail, wrapped
from .words import PROG, UsageError

RULES = PROG + " rules"


def register(sub):
    p = sub.add_parser(
        "rules",
        help="a rule system's events: kind, name, arguments with ranges, what each changes",
        description="Every event the rule system's core applies (the table in "
        "dicetray.catalog.events, checked against the rules themselves): its kind "
        "number, name, arguments with their ranges ([...] optional), the dice it "
        "draws, what it changes and, where the device's keys cannot make it yet, why "
        "(host only). --keys prints instead a script for the simulator that makes "
        "every other one on the device's keys. No device needed.",
    )
    p.add_argument("system", metavar="SYSTEM", help="hunt, paths or expedition")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object")
    out.add_argument(
        "--keys",
        action="store_true",
        help="a script for `dicetray sim --headless --script` that, from a fresh flash, "
        "starts a campaign of SYSTEM on Settings and makes every event the keys can make",
    )
    p.set_defaults(run=wrapped("rules", _run_rules))


def _run_rules(args):
    from .. import keyscript
    from ..catalog import events
    from ..rules import systems

    try:
        s = odds.system_number(args.system)
    except ValueError as e:
        raise UsageError(str(e), RULES)
    if args.keys:
        try:
            sys.stdout.write(keyscript.script(s))
        except keyscript.KeyPathError as e:
            raise Fail("no key script: %s" % e)
        return 0
    m = systems.get(s)
    evs = events.listing(s)
    host_only = keyscript.host_only(s)
    for e in evs:
        if e["name"] in host_only:
            e["host_only"] = host_only[e["name"]]
    if args.json:
        print(json.dumps({"system": m.NAME, "kinds": list(m.KINDS), "events": evs}))
        return 0
    lines = ["core: event kinds 1..31 (every system)"]
    for k, e in enumerate(evs):
        if not e["core"] and (k == 0 or evs[k - 1]["core"]):
            lines.append("%s: event kinds %d..%d" % (m.NAME, m.KINDS[0], m.KINDS[1]))
        given = [_arg(a) for a in e["args"]]
        k = sum(1 for a in e["args"] if not a["optional"])
        sig = ", ".join(given[:k])
        for i, g in enumerate(given[k:]):  # each optional one nested in the one before
            sig += "[%s%s" % (", " if sig or i else "", g)
        sig += "]" * (len(given) - k)
        if e["repeats"]:
            sig += ", ..."
        lines.append("%3d %s (%s)" % (e["kind"], e["name"], sig))
        for a in e["args"]:
            lines.append("      %-14s %s" % (a["name"], a["means"]))
        if e["dice"]:
            lines.append("      dice: %s" % e["dice"])
        lines.append("      changes: %s" % e["changes"])
        if "host_only" in e:
            lines.append("      host only: %s" % e["host_only"])
    print("\n".join(lines))
    return 0


def _arg(a):
    """'cap 1..64'; 'slashes 1..' or 'role' where the core sets no bound."""
    lo, hi = a["min"], a["max"]
    if lo is None and hi is None:
        return a["name"]
    return "%s %s..%s" % (a["name"], "" if lo is None else lo, "" if hi is None else hi)
