"""Each system's events in words: the lead of an event's sentence
(who does what, with which pool), its verdict's words, plural and
article; Names, a campaign's characters and talismans by index."""

from ..catalog import events
from ..rules import expedition, hunt, hunt_more, paths, paths_more
from .kinds import kind_name


# The roll events and what their verdict (Outcome.verdict) says, per kind.
VERDICTS = {
    hunt.ROLL: {1: "success", 0: "failure"},
    paths.TEST: {1: "success", 0: "failure"},
    paths.OPPOSED: {1: "win", 0: "loss"},  # the character's side
    paths.PRO_ROLL: {1: "success", 0: "failure", 2: "open"},  # the prolonged test so far
    expedition.TEST: {1: "success", 0: "failure"},
    expedition.VERSUS: {1: "win", 0: "loss", 2: "tie"},  # side A
    expedition.COMBAT: {1: "win", 0: "loss", 2: "tie"},  # side A
}


def verdict_word(kind, verdict):
    """'success', 'failure', 'win', 'loss', 'tie' or 'open' for a roll
    event's verdict; None for an event that is not a roll."""
    return VERDICTS.get(kind, {}).get(verdict) if kind in VERDICTS else None


def plural(n, word, many=None):
    """'1 event', '2 events', '1 success', '0 successes'."""
    if n == 1:
        return "%d %s" % (n, word)
    return "%d %s" % (
        n,
        many or (word + "es" if word.endswith(("s", "sh", "ch", "x")) else word + "s"),
    )


def article(word):
    """'a hunt', 'an expedition'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


class Names:
    """Characters and talismans by index in the campaign before an event
    (None: not known, e.g. before the snapshot an export starts from)."""

    def __init__(self, c):
        self.c = c

    def who(self, i, nobody=None):
        if i == -1:
            return nobody
        c = self.c
        if c is not None and 0 <= i < len(c.chars):
            return c.chars[i].name
        return "character %d" % i

    def tal(self, t):
        c = self.c
        if c is not None and 0 <= t < len(c.tals) and c.tals[t] is not None:
            return c.tals[t].name
        return "talisman %d" % t

    def pathos(self, i):
        c = self.c
        if c is not None and 0 <= i < len(c.chars):
            return c.chars[i].v[hunt.PATHOS]
        return None


def _subject(who, verb, rest):
    """'Ada rolls 3d6' or, with nobody named, 'roll 3d6'."""
    return ("%s %s %s" % (who, verb[1], rest)) if who else ("%s %s" % (verb[0], rest))


def _times(k):
    return "" if k == 1 else " %d times" % k


def _helpers(hs):
    return "" if not hs else ", helped by %s" % " and ".join("%dd12" % h for h in hs)


def _lead_core(n, kind, a, text):
    """Words for a core event, its arguments read by name (events.CORE)."""
    if not 0 < kind <= len(events.CORE):
        return None
    name = events.CORE[kind - 1][1]  # the table lists kinds 1.. in order
    if name == "CHAR_ADD":
        return "%s joins" % text
    if name == "TAL_NEW":
        return "new talisman %s (0/%d)" % (text, a.cap)
    if name == "SLASH":
        return "slash %s%s%s" % (
            n.tal(a.tal),
            _times(a.slashes),
            " (may not fill it)" if a.nofill else "",
        )
    if name == "UNSLASH":
        return "unslash %s%s" % (n.tal(a.tal), _times(a.slashes))
    if name == "CLEAR":
        return "clear %s" % n.tal(a.tal)
    if name == "TAL_DEL":
        return "delete %s" % n.tal(a.tal)
    if name == "TAL_CAP":
        return "%s gets capacity %d" % (n.tal(a.tal), a.cap)
    if name == "DICE":
        return "free roll of %dd%d" % (a.n, a.sides)
    if name == "RENAME" and a.what == 2:
        return "the campaign is named %s" % text
    if name == "RENAME" and a.which is not None:
        if a.what == 2:  # the campaign's own name
            return "the campaign is named %s" % text
        return "%s is renamed %s" % (n.who(a.which) if a.what == 0 else n.tal(a.which), text)
    return None


def _lead_hunt(n, kind, a, text):
    if kind == hunt.ROLL:
        i, skill, adv, agony, minus, hard, target = a[:7]  # the table's order (events.py)
        extra = 0
        if agony:
            p = n.pathos(i)
            extra = min(p, 3) if p is not None else 0
        k = skill + adv + extra - minus
        dice = "%dd6" % k if k > 0 else "2d6 keep the lower"
        s = _subject(n.who(i), ("roll", "rolls"), dice)
        if hard:
            s += " (hard)"
        if agony:
            s += " with divine agony"
        if target != -1:
            s += " for %s" % n.tal(target)
        if a.grant not in (None, -1):
            s += ", a setup for %s" % n.who(a.grant)
        if a.setup not in (None, -1):
            s += ", with the setup %s" % n.tal(a.setup)
        return s
    if kind == hunt_more.AFFLICT:
        return "%s is afflicted: %s%s" % (n.who(a.who), text, " (lasting)" if a.lasting else "")
    if kind == hunt.RISK:
        return _subject(n.who(a.who), ("roll", "rolls"), "the risk die")
    if kind == hunt.SCENE_END:
        return "the scene ends" + (", a fight next" if a.next_combat else "")
    if kind == hunt.SCENE:
        return "a fight breaks out" if a.combat else "the fight is over"
    if kind == hunt.STRESS:
        s = "%s takes %d stress" % (n.who(a.who), a.stress)
        if a.answer:
            s += ", answering a trauma question"
        if a.defy:
            s += ", defying fate"
        return s
    if kind == hunt.BURST:
        return "%s %s" % (
            n.who(a.who),
            "takes sin instead of a psyche burst" if a.substitute else "spends a psyche burst",
        )
    if kind == hunt.HOOK:
        return "%s gains the hook %s" % (n.who(a.who), text)
    if kind == hunt.REST:
        return "the exorcists rest"
    if kind == hunt.KIT:
        return "%s spends %s on %s" % (
            n.who(a.who),
            plural(a.points, "kit point"),
            text or "an item",
        )
    if kind == hunt.NEW_HUNT:
        return "a new hunt: Sin CAT %d%s" % (a.cat, ", in its palace" if a.in_palace else "")
    if kind == hunt.SESSION_END:
        return "the session ends"
    if kind == hunt.TRAUMA:
        return "a trauma question is answered"
    if kind == hunt.SIN_END:
        return "the Sin is spared" if a.spare else "the Sin is executed"
    if kind == hunt.PALACE:
        return "the Sin enters its palace" if a.inside else "the Sin leaves its palace"
    if kind == hunt.WITNESS:
        return "%s witnesses an ally's death or sin overflow" % n.who(a.who)
    if kind == hunt.FACE:
        return "dice now succeed on %d+" % a.face
    return None


def _paths_pool(skill, path, situation, minus):
    s = "Skill %d + Path %d" % (skill, path)
    if situation:
        s += " %+d" % situation
    if minus:
        s += " - %d" % minus
    return s


def _lead_paths(n, kind, a, text):
    if kind == paths.TEST:
        s = _subject(
            n.who(a.who), ("test", "tests"), _paths_pool(a.skill, a.path, a.situation, a.minus)
        )
        s += " (hidden difficulty)" if a.hidden else " at difficulty %d" % a.difficulty
        return s + _helpers(a.given("help1", "help2")) + (" (%s)" % text if text else "")
    if kind == paths.OPPOSED:
        s = _subject(
            n.who(a.who), ("test", "tests"), _paths_pool(a.skill, a.path, a.situation, a.minus)
        )
        s += " against %dd12 (%s)" % (
            a.opp_pool,
            "the opponent initiates" if a.initiator else "initiating",
        )
        return s + _helpers(a.given("help1", "help2")) + (" (%s)" % text if text else "")
    if kind == paths.PRO_OPEN:
        who, need, most, frame, hidden = (
            a.who,
            a.difficulty,
            a.max_attempts,
            a.timeframe,
            a.hidden,
        )
        s = "prolonged test %s opens" % text
        if n.who(who):
            s += " for %s" % n.who(who)
        s += ": %s successes needed, a roll per %s" % (
            "?" if hidden else need,
            paths.TIMEFRAMES[frame] if 0 <= frame < 4 else frame,
        )
        if most:
            s += ", at most %s" % plural(most, "attempt")
        return s
    if kind == paths.PRO_ROLL:
        return "roll for the prolonged test %s: %s%s" % (
            n.tal(a.t),
            _paths_pool(a.skill, a.path, a.situation, a.minus),
            _helpers(a.given("help1", "help2")),
        )
    if kind == paths_more.COMBAT:
        return "%s starts" % (text or "a fight") if a.on else "the fight ends"
    return None


def _mods(bonus, penalty, helpers=0):
    """' +2 bonus -1 penalty +1 helping', what is there of it."""
    s = " +%d bonus" % bonus if bonus else ""
    if penalty:
        s += " -%d penalty" % penalty
    if helpers:
        s += " +%d helping" % helpers
    return s


def _exp_pool(ability, bonus, penalty, helpers):
    return "Ability %d%s" % (ability, _mods(bonus, penalty, helpers))


def _exp_side(monster, ability, bonus, penalty, helpers):
    if not monster:
        return _exp_pool(ability, bonus, penalty, helpers)
    return (
        "a Level %d monster" % ability
        + _exp_pool(ability, bonus, penalty, helpers)[len("Ability %d" % ability) :]
    )


def _s(plus, minus):
    return (" +%ds" % plus if plus else "") + (" -%ds" % minus if minus else "")


def _lead_expedition(n, kind, a, text):
    E = expedition
    if kind == E.TEST:
        s = "test: %s against Ob %d%s" % (
            _exp_side(a.foe, a.ability, a.bonus, a.penalty, a.helpers),
            a.ob,
            _s(a.plus_s, a.minus_s),
        )
        if a.ext != -1:
            s += ", for %s" % n.tal(a.ext)
        return s
    if kind == E.VERSUS:
        foes = a.foes or 0
        return "versus test: A %s%s against B %s%s" % (
            _exp_side(foes & 1, a.a_ability, a.a_bonus, a.a_penalty, a.a_helpers),
            _s(a.a_plus_s, a.a_minus_s),
            _exp_side(foes & 2, a.b_ability, a.b_bonus, a.b_penalty, a.b_helpers),
            _s(a.b_plus_s, a.b_minus_s),
        )
    if kind == E.COMBAT:
        sa = (
            "helpless"
            if a.a_ability == -1
            else (
                _exp_side(a.threat & E.FOE_A, a.a_ability, a.a_bonus, a.a_penalty, 0)
                + _s(a.a_plus_s, a.a_minus_s)
            )
        )
        sb = (
            "helpless"
            if a.b_ability == -1
            else (
                _exp_side(a.threat & E.FOE_B, a.b_ability, a.b_bonus, a.b_penalty, 0)
                + _s(a.b_plus_s, a.b_minus_s)
            )
        )
        foe = (a.threat >> 4) - 1  # a tracked foe on side B (E.TRACKED)
        return "combat check: %s (%s) against %s (%s)" % (
            n.who(a.a_char, "an NPC"),
            sa,
            n.tal(foe) if foe >= 0 else n.who(a.b_char, "an NPC"),
            sb,
        )
    if kind == E.DAMAGE:
        return "%s takes %d damage" % (n.who(a.char, "an NPC"), a.amount)
    if kind == E.VAR_DAMAGE:
        return "%s takes %dd6 damage%s" % (
            n.who(a.char, "an NPC"),
            a.dice,
            ", halved (saved)" if a.half else "",
        )
    if kind == E.HEAL:
        return "%s heals %d" % (n.who(a.char), a.amount)
    if kind == E.BONUS_HP:
        return "%s gains %d bonus HP" % (n.who(a.char), a.amount)
    if kind == E.BONUS_END:
        return "%s's bonus HP end" % n.who(a.char)
    if kind == E.SHEET:
        return "%s's sheet is set" % n.who(a.char)
    if kind == E.USE_RES:
        return "%s spends %s" % (n.who(a.char), plural(a.amount, "class resource"))
    if kind == E.DOWN_OUT:
        return "%s is down and out, %s" % (
            n.who(a.char),
            "with medical aid" if a.aided else "unaided",
        )
    if kind == E.SHORT_REST:
        return "a short rest (an exploration turn)" if a.turn else "a short rest"
    if kind == E.LONG_REST:
        return "a long rest"
    if kind == E.TURN:
        return (
            (
                "an exploration turn",
                "an overland turn on the encounter countdown",
                "an overland turn",
            )[a.kind]
            if 0 <= a.kind <= 2
            else None
        )
    if kind == E.SET_FREQ:
        return "an encounter check every %s" % plural(a.turns, "turn")
    if kind == E.ENC_CHECK:
        return "an encounter check"
    if kind == E.USAGE_NEW:
        return "new usage die %s (d%d)" % (text, a.sides)
    if kind == E.USAGE_ROLL:
        return "usage roll for %s" % n.tal(a.t)
    if kind == E.REACTION:
        return "a reaction roll"
    if kind == E.MORALE:
        return "a morale check (d%d%s)" % (a.sides, " %+d" % a.modifier if a.modifier else "")
    if kind == E.DISTANCE:
        return "an encounter distance roll"
    if kind == E.DESPERATE:
        return "%s rolls on Desperate Returns" % n.who(a.char)
    if kind == E.PROJECT_NEW:
        return "new project %s (%d ticks)" % (text, a.ticks)
    if kind == E.PROJECT_TICK:
        return "project %s ticks" % n.tal(a.t)
    if kind == E.EXT_NEW:
        return "new extended test %s (%s needed%s)" % (
            text,
            plural(a.need, "success"),
            ", %s allowed" % plural(a.max_fail, "failure") if a.max_fail else "",
        )
    return None


_ABILITIES = ("Might", "Agility", "Presence", "Acuity", "Knowledge", "Discipline")
_TIERS = (
    "a Level %d monster",
    "a Level %d elite monster",
    "a Level %d legendary monster",
    "an NPC (Pool %d)",
)


def _lead_expedition_ops(n, kind, a, text):
    """Words for expedition's kinds with an op (121..125), read by the
    names of their op's entry (events.py: "FOE new", "SPELL channel"...)."""
    op = a.op
    if kind == 121:  # FOE
        if op == 0:
            s = "new foe %s: %s" % (text, _TIERS[a.tier] % a.level if 0 <= a.tier < 4 else a.level)
            if a.hp:
                s += ", Toughness %d" % a.hp
            return s + (", %s's Follower" % n.who(a.owner) if a.owner != -1 else "")
        if op == 1:
            hit = " + ".join(
                ["%d" % a.amount] * bool(a.amount or not a.dice) + ["%dd6" % a.dice] * bool(a.dice)
            )
            return "%s takes %s damage%s%s" % (
                n.tal(a.foe),
                hit,
                _s(a.plus_s, 0),
                ", halved (saved)" if a.half else "",
            )
        if op == 2:
            return "%s heals %d HP" % (n.tal(a.foe), a.amount)
        if op == 3:
            return "%s tests against Ob %d%s" % (n.tal(a.foe), a.ob, _mods(a.bonus, a.penalty))
        if op == 4:
            return "resisting %s: %s against its Save" % (
                n.tal(a.foe),
                _exp_pool(a.ability, a.bonus, a.penalty, a.helpers),
            )
        if op == 5:
            return "%s leaves the fight" % n.tal(a.foe)
        if op == 6:  # FOE lost (op, foe): read by position
            return "%s is lost: died or departed" % n.tal(a[1])
    if kind == 122:  # ROUND
        return "the next round of the fight" if op == 0 else "the fight ends"
    if kind == 123:  # ABIL
        who = n.who(a.char)
        if op == 0:
            return "%s rolls their Abilities" % who
        if op == 1:
            return "%s swaps %s and %s" % (who, _ABILITIES[a.j], _ABILITIES[a.k])
        if op == 2:
            return "%s tries to improve %s" % (who, _ABILITIES[a.ability])
        if op == 3:
            return "%s gains a Boon%s" % (who, ": " + text if text else "")
        if op == 4:
            vals = (a.might, a.agility, a.presence, a.acuity, a.knowledge, a.discipline)
            return "%s's Abilities are set: %s" % (
                who,
                ", ".join("%s %d" % kv for kv in zip(_ABILITIES, vals)),
            )
        if op == 5:
            return "%s retires, %s takes their place, with %s" % (
                who,
                n.who(a.heir),
                ("+1 to Abilities", "Businesses", "Reputation")[a.benefit],
            )
    if kind == 124:  # SPELL
        if op == 0:
            return "%s learns the spell %s (%s, Ob %d)" % (
                n.who(a.char),
                text,
                _ABILITIES[a.ability],
                a.ob,
            )
        if op == 1:
            s = "channeling %s: score %d%s%s" % (
                n.tal(a.spell),
                a.score,
                _mods(a.bonus, a.penalty),
                _s(a.plus_s, a.minus_s),
            )
            if a.taken:
                s += ", %d damage taken" % a.taken
            if a.atk not in (None, -1):
                s += ", attacked by %s" % (
                    ("a Level %d monster" if a.atk_foe else "Ability %d") % a.atk
                )
            return s
        if op == 2:
            return "%s mutates%s" % (n.who(a.char), ": " + text if text else "")
        if op == 3:  # SPELL master (op, char, ability, ob, score, bonus, penalty)
            return "%s tries to master the spell %s (%s, Ob %d): score %d%s" % (
                n.who(a[1]),
                text,
                _ABILITIES[a[2]],
                a[3],
                a[4],
                _mods(a[5], a[6]),
            )
    if kind == 125:  # TOWN
        if op == 0:
            return "a new Town Phase"
        who = n.who(a.char) if "char" in a.names else None
        if op == 1:
            return "%s's town sheet is set: Wealth %d, Cash %d, Businesses %d, Circles %d" % (
                who,
                a.wealth,
                a.cash,
                a.businesses,
                a.circles,
            )
        if op == 2:
            return "%s %s %d Cash" % (who, "gains" if a.change >= 0 else "loses", abs(a.change))
        if op == 3:
            return "%s tests Cash for a Cost %d, wagering %d Cash dice" % (who, a.cost, a.dice)
        if op == 4:
            return "%s makes a Wealth purchase of Cost %d" % (who, a.cost)
        if op == 5:
            return "%s sells %s" % (who, plural(a.points, "Wealth point"))
        if op == 6:
            return "%s rolls Businesses for income" % who
        if op == 7:
            return "%s wagers %d Cash dice to improve %s" % (
                who,
                a.dice,
                ("Circles", "Wealth", "Businesses", "the Stronghold")[a.which],
            )
        if op == 8:
            return "%s makes a Circles check against Ob %d%s" % (
                who,
                a.ob,
                " with %s" % n.tal(a.faction) if a.faction != -1 else "",
            )
        if op == 9:
            return "Reputation with %s %+d" % (
                n.tal(a.faction) if a.faction != -1 else "a new Faction, " + text,
                a.change,
            )
        if op == 10:
            return "is a member of %s recognized?" % n.tal(a.faction)
        if op == 11:
            return "%s's Downtime Action: %s" % (who, text or "unnamed")
        if op == 12:  # TOWN goods (op, char, cost)
            return "%s sells %s of Cost %d" % (n.who(a[1]), text or "a good", a[2])
    return None


def _lead_exp(n, kind, a, text):
    if kind >= 121:
        return _lead_expedition_ops(n, kind, a, text)
    return _lead_expedition(n, kind, a, text)


_LEADS = (_lead_hunt, _lead_paths, _lead_exp)


def lead(system, c, kind, args, text=""):
    """What an event does, in words, from the campaign `c` before it (for
    names; None if not known): 'Ada rolls 3d6 (hard)'. UNDO and REDO are
    worded by the log (`log`), which knows what they take back."""
    n = Names(c)
    a = list(args)
    try:  # a system's event read by the names its table gives (catalog/events.py)
        a = events.named(system, kind, a)
        s = _lead_core(n, kind, a, text) if kind < 32 else _LEADS[system](n, kind, a, text)
    except (IndexError, TypeError, ValueError, AttributeError):
        s = None
    if s is None:  # an event this tool has no words for (a newer firmware's)
        s = kind_name(system, kind).lower().replace("_", " ")
        if a:
            s += " " + " ".join(map(str, a))
        if text:
            s += " '%s'" % text
    return s
