"""Remote actions from the live page (docs/hub.md, Remote actions).

The keeper types what they would type after `dicetray` (`roll --pool 3`,
`slash 0 2`, `turn`, `undo`): the line is parsed by the command line's own
parser and done by the command's own code (cli.actions.perform), through the
hub like any other client, so the page takes exactly the words, checks and
at-most-once of the terminal, and its answer is the terminal's lines.

The parser is the terminal's, so a line is checked first for what argparse
would read loosely or act on by itself: every option must be one of the
command's own, spelled out in full (`--po 3` is not `--pool 3`), and
`--help`, `--version`, `--port`, `--tray` are the terminal's (help would
print to the hub's stdout and end the request).
"""

import difflib
import shlex

from .. import cli
from ..cli import actions as acts
from ..cli import common
from ..cli import words

TERMINALS = ("-h", "--help", "--version", "--port", "--tray")  # the terminal's, never the page's


class ActionError(Exception):
    """An action not done: `status` the HTTP status, the message what to do."""

    def __init__(self, status, message):
        Exception.__init__(self, message)
        self.status = status


def takes(parser):
    """The commands the page takes, in words: the action commands (those
    whose parser has a `build`)."""
    sub = cli._subparsers(parser)
    names = sorted(n for n, p in sub.choices.items() if p.get_default("build") is not None)
    return "the page takes " + ", ".join(names)


def _check_options(parser, argv):
    """ActionError unless `argv` is an action command whose every option is
    its own, whole, and not the terminal's."""
    cmd = cli._subparsers(parser).choices.get(argv[0])
    if cmd is None or cmd.get_default("build") is None:
        raise ActionError(400, "%s is not an action: %s" % (argv[0], takes(parser)))
    for a in argv[1:]:
        if a == "--":
            break  # the rest are values, as argparse reads them
        if not a.startswith("-") or a == "-" or words._NUMBER.match(a):
            continue
        name = a.split("=", 1)[0]
        if name in TERMINALS or (name.startswith("-h") and not name.startswith("--")):
            raise ActionError(
                400,
                "%s is the terminal's: the page's action runs on its card's "
                "tray (`dicetray %s --help` says what it takes)" % (a, argv[0]),
            )
        if name not in cmd._option_string_actions:
            own = sorted(
                o for o in cmd._option_string_actions if o.startswith("--") and o not in TERMINALS
            )
            near = difflib.get_close_matches(name, own, 1)
            raise ActionError(
                400,
                "%s is not an option of %s%s: the page takes options spelled out in "
                "full (%s takes %s)"
                % (
                    name,
                    argv[0],
                    " (did you mean %s?)" % near[0] if near else "",
                    argv[0],
                    ", ".join(own) or "none",
                ),
            )


def run(line, connect):
    """Do the action of command `line` on `connect()` (an open device,
    closed here): {"seq", "lines", "answer"}; ActionError says why not."""
    try:
        argv = shlex.split(line)
    except ValueError as e:
        raise ActionError(400, "cannot read %r: %s" % (line, e)) from None
    parser = cli.build_parser()
    if not argv:
        raise ActionError(400, "type an action, e.g. roll --pool 3 (%s)" % takes(parser))
    _check_options(parser, argv)
    try:
        args = cli.parse(parser, argv)
    except cli.UsageError as e:
        raise ActionError(400, str(e)) from None
    except SystemExit:  # what argparse does by itself: never the hub's to do
        raise ActionError(400, "%s: not an action line (%s)" % (line, takes(parser))) from None
    build = args.build
    try:
        dev = connect()
    except Exception as e:
        raise ActionError(503, "cannot reach the tray: %s" % e) from None
    try:
        r, lines = acts.perform(dev, build, args)
    except acts.Refused as e:
        raise ActionError(409, "refused by the device: %s" % e) from None
    except (common.Usage, common.Fail) as e:
        raise ActionError(400, str(e)) from None
    except Exception as e:
        if not common._is_device_error(e):
            raise
        raise ActionError(503, "device error: %s" % e) from None
    finally:
        dev.close()
    return {"seq": r.get("seq"), "lines": lines, "answer": r}
