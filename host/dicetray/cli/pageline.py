"""The hub's page reads its action lines with the command line's own
parser (docs/hub.md, Remote actions): `dicetray serve` hands
`parse_action` to the hub, which never imports the command line.

The parser is the terminal's, so a line is checked first for what argparse
would read loosely or act on by itself: every option must be one of the
command's own, spelled out in full (`--po 3` is not `--pool 3`), and
`--help`, `--version`, `--port`, `--tray` are the terminal's (help would
print to the hub's stdout and end the request).
"""

import difflib
import shlex

from . import build_parser, parse
from .words import NUMBER, UsageError, subparsers


class LineError(ValueError):
    """A line that is not an action the page takes, in words."""


TERMINALS = ("-h", "--help", "--version", "--port", "--tray")  # the terminal's, never the page's


def takes(parser):
    """The commands the page takes, in words: the action commands (those
    whose parser has a `build`)."""
    sub = subparsers(parser)
    names = sorted(n for n, p in sub.choices.items() if p.get_default("build") is not None)
    return "the page takes " + ", ".join(names)


def _check_options(parser, argv):
    """LineError unless `argv` is an action command whose every option is
    its own, whole, and not the terminal's."""
    cmd = subparsers(parser).choices.get(argv[0])
    if cmd is None or cmd.get_default("build") is None:
        raise LineError("%s is not an action: %s" % (argv[0], takes(parser)))
    for a in argv[1:]:
        if a == "--":
            break  # the rest are values, as argparse reads them
        if not a.startswith("-") or a == "-" or NUMBER.match(a):
            continue
        name = a.split("=", 1)[0]
        if name in TERMINALS or (name.startswith("-h") and not name.startswith("--")):
            raise LineError(
                "%s is the terminal's: the page's action runs on its card's "
                "tray (`dicetray %s --help` says what it takes)" % (a, argv[0]),
            )
        if name not in cmd._option_string_actions:
            own = sorted(
                o for o in cmd._option_string_actions if o.startswith("--") and o not in TERMINALS
            )
            near = difflib.get_close_matches(name, own, 1)
            raise LineError(
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


def parse_action(line):
    """The parsed arguments of action `line` (what the keeper typed), whose
    `build` makes the event (ops/actions.py); LineError says why not."""
    try:
        argv = shlex.split(line)
    except ValueError as e:
        raise LineError("cannot read %r: %s" % (line, e)) from None
    parser = build_parser()
    if not argv:
        raise LineError("type an action, e.g. roll --pool 3 (%s)" % takes(parser))
    _check_options(parser, argv)
    try:
        return parse(parser, argv)
    except UsageError as e:
        raise LineError(str(e)) from None
    except SystemExit:  # what argparse does by itself: never the hub's to do
        raise LineError("%s: not an action line (%s)" % (line, takes(parser))) from None
