"""What every device command shares: the device opened for it (open_device,
Opened: through the hub when one runs), its errors in one line and their exit
status (wrapped: Usage 2, Fail 1, a device error 1, Ctrl-C 130), the backup
database (backup_store) and the options every command takes (--port, --db,
--json, --timeout)."""

import argparse
import json
import sys

from .. import backup as bk
from ..link.errors import is_device_error
from ..ops import restore as rs
from ..ops.connect import open_device
from ..ops.errors import Fail, Usage
from .words import PROG


# What a Ctrl-C (SIGINT) leaves behind, by command: said in the one line it
# ends with (exit 130). `watch` just stops on it (exit 130, no line).
INTERRUPTED = {
    "backup": "nothing was stored (a backup is written in one transaction): run it again",
    # (once sending began, restore.apply says what the device holds: its Interrupted)
    "restore": "nothing was sent: the device holds its old campaign",
    "export": "the export was not finished (an --output file is only ever replaced by a whole one)",
    "deploy": "the copy to the board may be incomplete: run deploy again",
    "campaigns": "a switch, a delete or a new campaign is one rename on the device: it "
    "was done or not (`dicetray campaigns` says which)",
}


ACTED = (
    "an action sent before the Ctrl-C may have been applied: `dicetray status` "
    "shows the device's last event"
)


def wrapped(name, fn):
    def run(args):
        try:
            return fn(args) or 0
        except KeyboardInterrupt as e:
            if name == "watch":
                return 130
            sys.stderr.write(
                "%s %s: interrupted (Ctrl-C): %s\n"
                % (
                    PROG,
                    name,
                    str(e)  # what the work cut short knows (restore.Interrupted)
                    or INTERRUPTED.get(
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
        except Exception as e:
            if is_device_error(e):
                hint = getattr(e, "hint", None)  # what to do, where the error knows it
                sys.stderr.write(
                    "%s %s: device error: %s%s\n" % (PROG, name, e, ": " + hint if hint else "")
                )
                return 1
            raise

    return run


class Opened:
    """`with Opened(args) as dev:` opens the device named by --port and closes it."""

    def __init__(self, args):
        self.port = getattr(args, "port", None)
        self.timeout = getattr(args, "timeout", 2.0)
        self.dev = None
        # restore --force-schema must reach a device whose schema differs
        self.kw = {"check_schema": False} if getattr(args, "force_schema", False) else {}
        if getattr(args, "tray", None) is not None:
            self.kw["tray"] = args.tray
        self.open = getattr(args, "open_device", None) or open_device

    def __enter__(self):
        self.dev = self.open(self.port, self.timeout, **self.kw)
        return self.dev

    def __exit__(self, *exc):
        try:
            self.dev.close()
        except Exception:
            pass
        return False


def backup_store(args, create=False, want=None):
    """The backup database of --db (default under $DICETRAY_HOME). Only
    `backup` creates it; for the others a missing database is an error
    (`want`: the backup ID the command asked for, named in it)."""
    try:
        return bk.BackupStore(getattr(args, "db", None), create=create)
    except bk.NoDatabase as e:
        if want is not None:
            raise Fail("no backup %s: %s" % (want, e))
        raise


def print_json(obj):
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")


def confirm(question, yes, what="restore"):
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


def seconds(text):
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


def port_options(p):
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
        type=seconds,
        default=2.0,
        metavar="S",
        help="seconds to wait for each answer, above 0 (default 2)",
    )


def sub_port_options(q):
    """--port and --timeout on a subcommand's parser too, without defaults
    there (they would undo `campaigns --port X switch 1`)."""
    port_options(q)
    for a in q._actions:
        if {"--port", "--timeout", "--tray"} & set(a.option_strings):
            a.default = argparse.SUPPRESS


def db_option(p, **kw):
    p.add_argument(
        "--db",
        metavar="FILE",
        **kw,
        help="backup database (default: $DICETRAY_HOME/%s)" % bk.DB_NAME,
    )


def json_option(p, what="one JSON object on stdout", **kw):
    p.add_argument("--json", action="store_true", help=what, **kw)


def adder(sub):
    """add(name, fn, help, **kw): a command's parser on `sub`, its run the
    command's function wrapped in wrapped (one line for each error)."""

    def add(name, fn, help, **kw):
        p = sub.add_parser(name, help=help, description=help, **kw)
        p.set_defaults(run=wrapped(name, fn))
        return p

    return add
