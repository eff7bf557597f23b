"""The remote actions' commands: `dicetray roll`, `slash`, `unslash`,
`rest`, `turn`, `undo`, `redo`, `risk`, `dice`, `char`, `rename`, `act`.
Each command's parser carries its `build` (ops/actions.py), which the
hub's page reads its action lines with too (cli/pageline.py)."""

import sys

from ..ops.actions import (
    Refused,
    build_act,
    build_char,
    build_dice,
    build_rename,
    build_rest,
    build_risk,
    build_roll,
    build_slash,
    build_turn,
    build_unslash,
    perform,
    build_simple,
)
from ..rules import campaign as cp
from ..rules import core
from .common import PROG, Opened, json_option, port_options, print_json, wrapped


def _action(build, cmd):
    """A remote command: `build(args, system, state)` -> (kind, args, text),
    `state()` the device's campaign (read once, when asked for)."""

    def run(args):
        with Opened(args) as dev:
            try:
                r, lines = perform(dev, build, args, words=not args.json)
            except Refused as e:
                if args.json:
                    print_json({"refused": str(e), "kind": e.kind, "args": e.args_})
                sys.stderr.write("%s %s: refused by the device: %s\n" % (PROG, cmd, e))
                return 1
        if args.json:
            print_json(r)
        for ln in lines:
            print(ln)
        return 0

    return run


def register(sub):
    """Add this group's commands to an argparse subparsers object."""

    def action(name, build, help):
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(run=wrapped(name, _action(build, name)), acts=True, build=build)
        port_options(p)
        json_option(p, "the device's answer as one JSON object")
        return p

    p = action(
        "roll",
        build_roll,
        "roll a pool in the device's rule system (hunt ROLL, paths TEST, expedition TEST)",
    )
    p.add_argument(
        "--pool",
        type=int,
        required=True,
        metavar="N",
        help="dice: hunt 0..9 (skill + advantages, 7..9 with divine agony: --char; "
        "0 = 2d6 keep the lower), paths 1..12 (Skill + Path), expedition 1..20 "
        "(2 + Ability, bonus and helping dice); the same ranges as `dicetray odds`",
    )
    p.add_argument(
        "--target",
        type=int,
        metavar="K",
        help="what the tray's rules judge the roll against: paths the difficulty 1..7 "
        "(1 very easy .. 7 near impossible; default 1), expedition the Obstacle 1..30 "
        "(default 1). hunt takes none: a roll succeeds on one success, and a task that "
        "takes more is a talisman (--tal)",
    )
    p.add_argument("--hard", action="store_true", help="hunt: only a 6 succeeds")
    p.add_argument(
        "--char",
        type=int,
        default=-1,
        metavar="I",
        help="hunt, paths: the acting character's number (0 is the first added)",
    )
    p.add_argument(
        "--tal",
        type=int,
        default=-1,
        metavar="T",
        help="hunt: a task or the Sin the successes slash",
    )

    tal_help = (
        "the talisman's number (`dicetray watch` and `dicetray backups show ID` list "
        "them as `tal T`)"
    )

    p = action("slash", build_slash, "slash a talisman")
    p.add_argument("tal", type=int, metavar="T", help=tal_help)
    p.add_argument(
        "k", type=int, nargs="?", default=1, metavar="K", help="how many slashes (1..64, default 1)"
    )
    p.add_argument("--nofill", action="store_true", help="may not fill the last slash")

    p = action("unslash", build_unslash, "remove slashes from a talisman")
    p.add_argument("tal", type=int, metavar="T", help=tal_help)
    p.add_argument(
        "k",
        type=int,
        nargs="?",
        default=1,
        metavar="K",
        help="how many slashes to remove (default 1)",
    )

    p = action(
        "rest", build_rest, "rest (hunt REST with spend codes; expedition short or long rest)"
    )
    p.add_argument(
        "codes",
        type=int,
        nargs="*",
        metavar="CODE",
        help="hunt: 2 spend codes per character (0 bursts, 1 stress, 2+t hook t)",
    )
    p.add_argument("--long", action="store_true", help="expedition: a long rest")
    p.add_argument(
        "--mask",
        type=int,
        metavar="M",
        help="expedition: a short rest for the characters in bit mask M (bit i = "
        "character i; default: everyone who has a short rest left)",
    )
    p.add_argument(
        "--no-turn",
        action="store_true",
        help="expedition: the short rest takes no Exploration Turn (a rest inside an "
        "overland turn); by default it occupies one, with its encounter and usage "
        "checks",
    )

    p = action("turn", build_turn, "a turn passes (expedition TURN; hunt: a scene ends)")
    p.add_argument(
        "--overland",
        action="store_true",
        help="expedition: an overland turn (an encounter check every turn)",
    )
    p.add_argument(
        "--safe",
        action="store_true",
        help="expedition, with --overland: travel by boat or in a very safe place "
        "(checks on the encounter countdown: half at the default frequency)",
    )
    p.add_argument("--combat", action="store_true", help="hunt: the next scene is a fight")

    action("undo", build_simple(cp.UNDO), "undo the last action")

    action("redo", build_simple(cp.REDO), "redo the last undone action")

    p = action("risk", build_risk, "hunt: the admin's risk die")
    p.add_argument(
        "--char",
        type=int,
        default=-1,
        metavar="I",
        help="the acting exorcist's number (hooks slash on a 1)",
    )

    p = action("dice", build_dice, "a free roll with no rule attached")
    p.add_argument("sides", type=int, metavar="SIDES", help="sides of each die (2..100)")
    p.add_argument(
        "n", type=int, nargs="?", default=1, metavar="N", help="how many dice (1..20, default 1)"
    )

    name_help = core.NAME_RULE + " (quote a name with spaces)"

    p = action("char", build_char, "add a character")
    p.add_argument("name", metavar="NAME", help=name_help)

    p = action(
        "rename", build_rename, "rename a character or a talisman (undo gives the old name back)"
    )
    p.add_argument(
        "what",
        choices=("char", "tal"),
        metavar="char|tal",
        help="char: a character, tal: a talisman or clock",
    )
    p.add_argument(
        "index",
        type=int,
        metavar="I",
        help="its number (`dicetray watch` and `dicetray backups show ID` list them "
        "as `char I` and `tal T`)",
    )
    p.add_argument("name", metavar="NAME", help=name_help)

    p = action("act", build_act, "any event of the device's rule system, by name or number")
    p.add_argument(
        "kind",
        metavar="KIND",
        help="the event's name or number, e.g. ROLL, SCENE_END, TEST or 47 (a wrong "
        "name lists the device's)",
    )
    p.add_argument(
        "args",
        type=int,
        nargs="*",
        metavar="ARG",
        help="the event's whole-number arguments, in the order docs/rules/ gives for the event",
    )
    p.add_argument(
        "--text",
        default="",
        metavar="TEXT",
        help="the event's text, for the events that take one (a name)",
    )
