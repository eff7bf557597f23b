"""`dicetray deploy`: the firmware built (.mpy) and copied to a board with
mpremote (the operation: ops/deploy.py)."""

from .common import adder


def _deploy(args):
    from ..ops.deploy import deploy

    return deploy(args.port, args.board, args.dry_run)


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add("deploy", _deploy, "build the firmware (.mpy) and copy it to a board with mpremote")
    p.add_argument("--port", metavar="PORT", help="what `mpremote connect` takes (default auto)")
    p.add_argument("--board", metavar="NAME", help="write board=NAME to /config.txt")
    p.add_argument("--dry-run", action="store_true", help="build and print the steps only")
