"""The remote actions as operations, with no front-end: each builds its
event from the rules' events table (catalog/events.py) out of parsed
arguments (`build(args, system, state)`) and `perform` sends it to a tray
and says it in words. The command line (cli/actions.py: `dicetray roll`,
`slash`, ...) and the hub's page (hub/actions.py) both do them here."""

from ..campaign import export as ex
from ..campaign import odds
from ..catalog import events
from ..link.errors import is_device_error
from ..rules import campaign as cp
from ..rules import core, hunt, systems
from .errors import Fail, Usage
from .restore import device_state


def system_of(info):
    """The number of the rule system a tray's INFO names; Fail when it is none."""
    try:
        return systems.number(info["system"])
    except ValueError as e:
        raise Fail("the device reports %s" % e)


def _refuse(option, system, what):
    """Usage naming an option this system has no use for: 'OPTION; the
    device runs SYSTEM, whose COMMAND takes ...'."""
    return Usage("%s; the device runs %s, %s" % (option, systems.NAMES[system], what))


# hunt's roll is judged by the rules core alone: at least one success
# (docs/rules/hunt.md, Dice; the seed: "most tasks take only one success,
# unless they're complex enough to have a talisman"). A count of successes
# needed would be a verdict of the host's that the stored event, the export,
# the stats and the hub do not share, so `roll` takes none for hunt.
HUNT_TARGET = (
    "--target %d: a hunt roll takes no target: the rules make it a success on one "
    "success; a task that takes more successes is a talisman its successes slash: "
    "give --tal T (`dicetray watch` lists them as `tal T`)"
)


def roll_event(system, pool, target=None, hard=False, char=-1, tal=-1, pathos=None):
    """(kind, args) of a pool roll in `system`; Usage names a bad value.
    hunt pools of 7..9 dice take divine agony: `pathos` is the rolling
    character's (its agony dice are min(pathos, 3), as the rules core has it)."""
    bad = odds.pool_error(system, pool)
    if bad:
        raise Usage(bad)
    if system == systems.HUNT and target is not None:
        raise Usage(HUNT_TARGET % target)
    if target is not None:
        bad = odds.target_error(system, target)
        if bad:
            raise Usage(bad)
    if system == systems.HUNT:
        agony = 0
        if pool > 6:
            if char == -1:
                raise Usage(
                    "--pool %d needs divine agony (skill 3 + advantages 3 + up to 3 agony "
                    "dice, one per pathos): give --char I, the exorcist who rolls" % pool
                )
            if pathos is None:
                raise Usage(
                    "--pool %d needs divine agony: the character's pathos is not known" % pool
                )
            agony = min(pathos, 3)
            if agony == 0:
                raise Fail(
                    "--pool %d needs divine agony, and character %d has no pathos: the "
                    "most that character rolls now is 6 dice" % (pool, char)
                )
            if pool - agony > 6:
                raise Fail(
                    "--pool %d: character %d's divine agony adds %s (pathos %d), so the "
                    "most that character rolls is %d dice"
                    % (pool, char, ex.plural(agony, "die", "dice"), pathos, 6 + agony)
                )
        base = pool - agony
        skill = min(base, 3)
        return events.args(
            systems.HUNT,
            "ROLL",
            who=char,
            skill=skill,
            adv=base - skill,
            agony=1 if agony else 0,
            minus=0,
            hard=1 if hard else 0,
            target=tal,
        )
    takes = (
        "whose roll takes --pool, --target (the difficulty) and --char"
        if system == systems.PATHS
        else "whose roll takes --pool and --target (the Obstacle)"
    )
    if hard:
        raise _refuse("--hard is for hunt (only a 6 succeeds)", system, takes)
    if tal != -1:
        raise _refuse("--tal is for hunt (a task or the Sin the successes slash)", system, takes)
    if system == systems.PATHS:
        t = 1 if target is None else target
        if pool > 14:  # the odds take pools help makes (to 20); a test alone does not
            raise Usage(
                "--pool %d: a paths test without helpers rolls at most 14 dice "
                "(Skill 6 + Path 6 + situation +2); bigger pools need helpers, "
                "on the tray's builder" % pool
            )
        skill = min(pool, 6)
        path = min(pool - skill, 6)
        return events.args(
            systems.PATHS,
            "TEST",
            who=char,
            skill=skill,
            path=path,
            situation=pool - skill - path,
            minus=0,
            difficulty=t,
            hidden=0,
        )
    if char != -1:
        raise _refuse(
            "--char names who rolls", system, "whose test names no character: leave --char out"
        )
    t = 1 if target is None else target
    ability = max(0, min(pool - 2, 10))
    rest = pool - 2 - ability
    penalty = -rest if rest < 0 else 0
    bonus = min(max(rest, 0), 2)
    helpers = max(rest, 0) - bonus
    return events.args(
        systems.EXPEDITION,
        "TEST",
        ability=ability,
        ob=t,
        bonus=bonus,
        penalty=penalty,
        helpers=helpers,
        plus_s=0,
        minus_s=0,
        ext=-1,
    )


class _Said:
    """The device's answer to ACT as an Outcome for ex.sentence / ex.notes."""

    def __init__(self, r):
        self.successes = r.get("successes", 0)
        self.verdict = r.get("verdict", 0)
        self.margin = r.get("margin", 0)
        self.hidden = r.get("hidden", 0)
        self.notes = list(r.get("notes") or ())


class Refused(Exception):
    """The device refused an action (its words); `kind`, `args`: what was asked."""

    def __init__(self, message, kind, args):
        Exception.__init__(self, message)
        self.kind, self.args_ = kind, args


def perform(dev, build, args, words=True):
    """The action `build(args, system, state)` -> (kind, args, text) done
    on the open device `dev`: (the device's answer, the lines that say it,
    empty without `words`). Refused when the device refuses it; Usage or
    Fail when the arguments do not fit the device's campaign."""
    info = dev.info()
    system = system_of(info)
    got = []

    def state():
        if not got:
            got.append(device_state(dev))
        return got[0]

    kind, a, text = build(args, system, state)
    said, wkind = None, kind
    if words:  # the words need the names of the campaign before the action
        said = ex.lead_live(system, state(), kind, a, text)
        wkind = ex.kind_live(state(), kind)
    try:
        r = dev.act(kind, tuple(a), text)
    except Exception as e:
        if not is_device_error(e):
            raise
        raise Refused(_which(str(e), state), kind, list(a)) from None
    if not words:
        return r, []
    out = _Said(r)  # the verdict is the rules core's, as the device stored the event
    line = ex.sentence(system, wkind, said, list(r.get("faces") or ()), out)
    lines = ["event %s: %s" % (r.get("seq"), line)]
    lines += ["  " + n for n in (ex.notes(wkind, out, said) if kind != cp.UNDO else ())]
    return r, lines


def _which(refusal, state):
    """The device's refusal of a talisman or character number that its
    campaign does not hold, with the numbers it does hold (the keeper's
    next try); any other refusal as it is."""
    c = None
    if "no talisman number" in refusal or "no character number" in refusal:
        try:
            c = state()
        except Exception as e:  # the refusal is said anyway, without the list
            if not is_device_error(e):
                raise
    if c is None:
        return refusal
    if "no talisman number" in refusal:
        have = ["%d %s" % (i, t.name) for i, t in enumerate(c.tals) if t is not None]
        return refusal + (
            "; its talismans: " + ", ".join(have) if have else "; the campaign has no talismans"
        )
    have = ["%d %s" % (i, ch.name) for i, ch in enumerate(c.chars)]
    return refusal + (
        "; its characters: " + ", ".join(have)
        if have
        else "; the campaign has no characters yet (`dicetray char NAME` adds one)"
    )


def build_roll(args, system, state):
    pathos = None
    if system == systems.HUNT and args.pool > 6 and args.char != -1:
        c = state()
        if not 0 <= args.char < len(c.chars):
            raise Fail(
                "--char %d: the device's campaign has %s"
                % (
                    args.char,
                    "no characters yet (`dicetray char NAME` adds one)"
                    if not c.chars
                    else "characters 0..%d" % (len(c.chars) - 1),
                )
            )
        pathos = c.chars[args.char].v[hunt.PATHOS]
    k, a = roll_event(system, args.pool, args.target, args.hard, args.char, args.tal, pathos)
    return k, a, ""


def build_slash(args, system, state):
    return events.args(system, "SLASH", tal=args.tal, slashes=args.k, nofill=int(args.nofill)) + (
        "",
    )


def build_unslash(args, system, state):
    return events.args(system, "UNSLASH", tal=args.tal, slashes=args.k) + ("",)


_REST_HUNT = (
    "whose rest takes 2 spend codes per character (CODE ...: 0 bursts, 1 stress, 2+t hook t)"
)


_REST_EXP = (
    "whose rest takes --long (a long rest) or --mask M (a short rest for the characters "
    "in bit mask M; without either, a short rest for everyone who can; a short rest "
    "occupies an Exploration Turn unless --no-turn)"
)


def build_rest(args, system, state):
    if system == systems.HUNT:
        if args.long:
            raise _refuse("--long is expedition's long rest", system, _REST_HUNT)
        if args.mask is not None:
            raise _refuse("--mask is expedition's short rest", system, _REST_HUNT)
        if args.no_turn:
            raise _refuse("--no-turn is expedition's short rest", system, _REST_HUNT)
        return hunt.REST, tuple(args.codes or ()), ""  # the codes repeat: two a character
    if system == systems.EXPEDITION:
        if args.codes:
            raise _refuse(
                "CODE arguments (%s) are hunt's spend codes" % " ".join(map(str, args.codes)),
                system,
                _REST_EXP,
            )
        if args.long and args.mask is not None:
            raise Usage("give --long or --mask, not both: a long rest is everyone's")
        if args.long and args.no_turn:
            raise Usage("--no-turn is for a short rest (a long rest takes no turn)")
        if args.long:
            return events.args(systems.EXPEDITION, "LONG_REST") + ("",)
        # "A short rest occupies one Exploration Turn": turn 1 passes one
        # as TURN does; without it, a rest inside an overland turn.
        turn = {} if args.no_turn else {"turn": 1}
        return events.args(systems.EXPEDITION, "SHORT_REST", mask=args.mask or 0, **turn) + ("",)
    raise Usage("the device runs paths, which has no rest (rest is for hunt and expedition)")


def build_turn(args, system, state):
    if system == systems.EXPEDITION:
        if args.combat:
            raise _refuse(
                "--combat is for hunt (the next scene is a fight)",
                system,
                "whose turn takes --overland (an overland turn; without it, an exploration turn)",
            )
        if args.safe and not args.overland:
            raise Usage("--safe is for an overland turn: give --overland --safe")
        # TURN 2: an encounter check every overland turn; 1: on the
        # countdown (travel by boat or in a very safe place).
        return events.args(
            systems.EXPEDITION, "TURN", kind=(1 if args.safe else 2) if args.overland else 0
        ) + ("",)
    if system == systems.HUNT:
        if args.overland or args.safe:
            what = (
                "--overland is expedition's overland turn"
                if args.overland
                else "--safe is expedition's overland turn by boat or in a safe place"
            )
            raise _refuse(
                what,
                system,
                "whose turn ends the scene and takes --combat (the next scene is a fight)",
            )
        return events.args(
            systems.HUNT,
            "SCENE_END",  # a scene passes
            next_combat=1 if args.combat else 0,
        ) + ("",)
    raise Usage("the device runs paths, which has no turns (turn is for hunt and expedition)")


def build_risk(args, system, state):
    if system != systems.HUNT:
        raise Usage(
            "risk is hunt's risk die; the device runs %s, which has none" % systems.NAMES[system]
        )
    return events.args(systems.HUNT, "RISK", who=args.char) + ("",)


def build_dice(args, system, state):
    return events.args(system, "DICE", sides=args.sides, n=args.n) + ("",)


def _name(name):
    """The name, or Usage with the rules core's words (checked here too, so
    a long name is not refused as an oversized frame)."""
    bad = core.name_error(name)
    if bad:
        raise Usage(bad)
    return name


def build_char(args, system, state):
    return events.args(system, "CHAR_ADD") + (_name(args.name),)


def build_rename(args, system, state):
    what = 0 if args.what == "char" else 1
    return events.args(system, "RENAME", what=what, which=args.index) + (_name(args.name),)


def build_act(args, system, state):
    try:
        k = ex.kind_number(system, args.kind)
    except ValueError as e:
        raise Usage(str(e))
    return k, tuple(args.args), args.text


def build_simple(kind):
    return lambda args, system, state: (kind, (), "")
