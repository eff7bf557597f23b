"""argparse's messages in the tool's words: one line naming the argument
and what is allowed (`Parser`), an unknown option named before anything
else, and the version."""

import argparse
import difflib
import re

PROG = "dicetray"


def version():
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
        return version()
    raise AttributeError(name)


class UsageError(Exception):
    """A bad argument: reported as one line and exit status 2."""

    def __init__(self, message, prog=PROG):
        Exception.__init__(self, message)
        self.prog = prog


_INVALID_INT = re.compile(r"argument (\S+): invalid (int|float) value: (.*)$")
_CHOICE = re.compile(r"argument (\S+): invalid choice: (.*) \(choose from (.*)\)$")
_REQUIRED = re.compile(r"the following arguments are required: (.*)$")
_TAKES = re.compile(r"argument (\S+): (takes .*)$")  # a type's own words (common.seconds)


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
            sub = subparsers(parser)
            return "a COMMAND is needed: %s (`%s --help` says what each does)" % (
                ", ".join(sub.choices) if sub else "",
                parser.prog,
            )
        return "missing %s (`%s --help` shows what each is)" % (m.group(1), parser.prog)
    return message


class Parser(argparse.ArgumentParser):
    # argparse prints the whole usage before an error; one line is enough
    # (and `--help` still shows the usage).
    def error(self, message):
        raise UsageError(_words(message, self), self.prog)


def subparsers(p):
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


NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


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
        if t.startswith("-") and len(t) > 1 and not NUMBER.match(t):
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
            sub = subparsers(p)
            if sub is not None:
                if t not in sub.choices:
                    return None  # an unknown command: that is the error to name
                p = sub.choices[t]
        i += 1
    return None


def unknown_message(p, opt):
    opts = []
    for a in p._actions:
        if a.option_strings and not isinstance(a, argparse._HelpAction):
            longs = [o for o in a.option_strings if o.startswith("--")] or a.option_strings
            opts.append(longs[0])
    sub = subparsers(p)
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
