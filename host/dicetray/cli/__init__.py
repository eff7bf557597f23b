"""The `dicetray` command: `main(argv)` is its one entry (the `dicetray`
script). One module a command group, each with `register(sub)` adding its
commands' parsers (each sets `run(args) -> exit status`); COMMANDS is the
table, in the order `--help` lists them (as mpremote's command table):

    odds       odds SYSTEM --pool N [--hard] [--target K | --versus M] [--json]
    rules      rules SYSTEM [--json]
    status     ports, status
    backups    backup, backups [show ID | diff ID1 ID2], restore ID, verify
    campaigns  campaigns [switch SLOT | delete SLOT]
    export     export, stats
    watch      watch
    actions    roll, slash, unslash, rest, turn, undo, redo, risk, dice, char, rename, act
    deploy     deploy
    serve      serve (the table hub: dicetray.hub)
    sim        sim (the simulator: its own arguments, passed through)

Every device command takes --port (auto-detect without it) and --tray
(a hub's tray), every backup command --db. Exit status: 0 done, 1 device
or data error (or the device refused an action), 2 bad arguments (one
line on stderr naming the argument and what is allowed), 130 Ctrl-C,
141 when whoever read stdout went away (as SIGPIPE ends a Unix tool: no
message); a stdout that cannot be written otherwise (a full disk) is one
line and 1 (cli/stdout.py).
"""

import importlib
import sys

from ..base.ctrlc import interruptible
from . import stdout
from .words import PROG, UsageError, Parser, subparsers, unknown_message, unknown_option
from .words import version

COMMANDS = (
    "odds",
    "rules",
    "status",
    "backups",
    "campaigns",
    "export",
    "watch",
    "actions",
    "deploy",
    "serve",
    "sim",
)

__all__ = [
    "main",
    "build_parser",
    "parse",
    "port_first",
    "UsageError",
    "COMMANDS",
    "PROG",
    "Parser",
    "subparsers",
]


def port_first(argv):
    """`dicetray --port P COMMAND ...` (the order of mpremote's and
    Meshtastic's users) read as `dicetray COMMAND ... --port P`: a leading
    --port (or --tray) is moved to the end, where the command's own --port takes it
    (a command without one refuses it by name, as it would there); before a
    `--`, whose words after it are all arguments (`char -- -x`)."""
    moved = []
    i = 0
    while i < len(argv):
        if argv[i] in ("--port", "--tray") and i + 1 < len(argv):
            moved += argv[i : i + 2]
            i += 2
        elif argv[i].startswith(("--port=", "--tray=")):
            moved.append(argv[i])
            i += 1
        else:
            break
    if not moved or i == len(argv) or argv[i] == "sim":
        return argv
    rest = argv[i:]
    end = rest.index("--") if "--" in rest else len(rest)
    return rest[:end] + moved + rest[end:]


def build_parser():
    """The top-level parser with every subcommand."""
    p = Parser(
        prog=PROG,
        description="Dicetray host tool: odds, backup, restore, "
        "export, live watch, remote actions, deploy and the simulator.",
    )
    p.add_argument("--version", action="version", version="%(prog)s " + version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name in COMMANDS:
        importlib.import_module("." + name, __name__).register(sub)
    return p


def parse(parser, argv):
    """parser.parse_args(argv), an unknown option named first (UsageError)."""
    try:
        return parser.parse_args(argv)
    except UsageError:
        bad = unknown_option(parser, argv)
        if bad is None:
            raise
        p, opt = bad
        raise UsageError(unknown_message(p, opt), p.prog)


def main(argv=None, open_device=None):
    """Entry point of the `dicetray` script; returns the exit status.

    `open_device(port, timeout, tray=None, **kw)`: how the device commands
    open their tray (default common.open_device: through the hub when one
    runs, else on the port); a script or a test that has its own Device
    gives it here. A Ctrl-C ends any command (exit 130), even in a process
    started with SIGINT ignored (dicetray.base.ctrlc)."""
    with interruptible():
        return _main(argv, open_device)


def _main(argv, open_device):
    argv = sys.argv[1:] if argv is None else list(argv)
    with stdout.guarded() as out:
        try:
            code = _run(argv, open_device)
        except stdout.Lost:  # `dicetray rules hunt | head -1`, `> /dev/full`: settled below
            code = 1
    lost = stdout.settle(out, PROG)
    return code if lost is None else lost


def _run(argv, open_device):
    if argv[:1] == ["sim"]:
        from .sim import run

        return run(argv[1:])
    argv = port_first(argv)
    try:
        parser = build_parser()
        try:
            args = parse(parser, argv)
        except SystemExit as e:  # --help, --version
            return e.code or 0
        args.open_device = open_device
        return args.run(args) or 0
    except UsageError as e:
        sys.stderr.write("%s: error: %s\n" % (e.prog, e))
        return 2
    except KeyboardInterrupt:  # a device command says more itself (common.wrapped)
        sys.stderr.write("%s: interrupted (Ctrl-C): nothing was done\n" % PROG)
        return 130
