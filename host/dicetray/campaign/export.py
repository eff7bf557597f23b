"""Campaign views for the host: tracker dicts, event names, the log in
words, CSV/JSON export.

An export holds the campaign alone: its id, rule system, state schema, state
(encoded and as readable trackers) and its events, each with what the rules
core makes of it when it folds the campaign as the device did (outcome,
notes, a sentence, sessions). Nothing of the device or of the moment of
export goes in, and every list is in a fixed order, so the same campaign
exports byte for byte the same wherever it lives (docs/backup.md). An
export of a backup adds when each event was first backed up (`backup`,
`seen`): the one thing only the backup database knows.
"""

import json
import re
import time

from .. import backup as bk
from . import tracked
from ..rules import campaign as cp
from ..rules import codec, events, expedition, hunt, hunt_more, paths, paths_more, systems

FORMAT = "dicetray-export"
FORMAT_VERSION = 2


def system_name(system):
    """'hunt' for 0 ...; ValueError for an unknown number."""
    return systems.get(system).NAME


def kind_names(system):
    """{kind: NAME} of every event kind of `system`, core kinds included."""
    m = systems.get(system)
    names = {}
    for e in events.CORE + events.TABLES[system]:  # the declared events (dicetray rules SYSTEM)
        names[e[0]] = e[1].split(" ")[0]  # a kind with ops ("FOE new", "FOE hit"): FOE
    lo, hi = m.KINDS
    if hasattr(m, "KIND_NAMES"):
        for i, n in enumerate(m.KIND_NAMES):
            names[lo + i] = n
        return names
    # Module constants in the system's kind range, in definition order; limits
    # (MAX_*) and role numbers share the range by accident and are skipped.
    for n, v in vars(m).items():
        if (
            isinstance(v, int)
            and lo <= v <= hi
            and n.isupper()
            and v not in names
            and not n.startswith(("MAX_", "ROLE_", "DEFAULT_", "_"))
        ):
            names[v] = n
    return names


def kind_name(system, kind):
    return kind_names(system).get(kind, "KIND_%d" % kind)


def kind_number(system, name):
    """Event kind for a name such as 'ROLL' or a number as text; ValueError lists choices."""
    if name.isdigit():
        return int(name)
    names = kind_names(system)
    for k, n in names.items():
        if n == name.upper():
            return k
    raise ValueError(
        "unknown event kind %r for %s: one of %s"
        % (name, system_name(system), ", ".join(names[k] for k in sorted(names)))
    )


def diff_trackers(a, b, system):
    """Lines of what changed from trackers `a` to trackers `b` of `system`,
    each field in the rules' words (tracked.label), never its identifier."""
    names = {}
    for t in (a, b):
        names.update({("c", c["index"]): c["name"] for c in t["characters"]})
        names.update({("t", x["index"]): x["name"] for x in t["talismans"]})

    def who(i):
        return names.get(("c", i), "character %d" % i)

    def tal(i):
        return names.get(("t", i), "talisman %d" % i)

    def change(what, k, old, new, role=None):
        words, how = tracked.label(system, what, k, role)
        if what == "tal" and k == "role":
            return "%s %s -> %s" % (
                words,
                tracked.role_words(system, old),
                tracked.role_words(system, new),
            )
        return "%s %s -> %s" % (
            words,
            "?" if old is None else tracked.reading(how, old, who, tal),
            tracked.reading(how, new, who, tal),
        )

    out = []
    for k, v in b["counters"].items():
        if a["counters"].get(k) != v:
            out.append(change("counter", k, a["counters"].get(k), v))
    ac = {c["index"]: c for c in a["characters"]}
    for ch in b["characters"]:
        old = ac.pop(ch["index"], None)
        if old is None:
            out.append("character %d %s joins" % (ch["index"], ch["name"]))
            continue
        for k, v in ch["fields"].items():
            if old["fields"].get(k) != v:
                out.append("%s: %s" % (ch["name"], change("char", k, old["fields"].get(k), v)))
    for ch in ac.values():
        out.append("character %d %s is gone" % (ch["index"], ch["name"]))
    at = {t["index"]: t for t in a["talismans"]}
    for t in b["talismans"]:
        old = at.pop(t["index"], None)
        if old is None:
            out.append("talisman %d %s is new: %d/%d" % (t["index"], t["name"], t["n"], t["cap"]))
        elif old != t:
            what = ["%d/%d -> %d/%d" % (old["n"], old["cap"], t["n"], t["cap"])]
            if old["name"] != t["name"]:
                what.append("renamed from %s" % old["name"])
            for k in ("policy", "link", "role", "owner", "a", "b"):
                if old[k] != t[k]:
                    what.append(change("tal", k, old[k], t[k], t["role"]))
            out.append("talisman %d %s: %s" % (t["index"], t["name"], ", ".join(what)))
    for t in at.values():
        out.append("talisman %d %s is deleted" % (t["index"], t["name"]))
    return out


def trackers(c):
    """The campaign's trackers as plain data (fixed order): counters,
    characters with their fields, live talismans by index."""
    m = c.rules
    chars = []
    for i, ch in enumerate(c.chars):
        chars.append({"index": i, "name": ch.name, "fields": dict(zip(m.CHAR_FIELDS, ch.v))})
    tals = []
    for i, t in enumerate(c.tals):
        if t is None:
            continue
        tals.append(
            {
                "index": i,
                "name": t.name,
                "n": t.n,
                "cap": t.cap,
                "policy": t.policy,
                "link": t.link,
                "role": t.role,
                "owner": t.owner,
                "a": t.a,
                "b": t.b,
            }
        )
    return {"counters": dict(zip(m.COUNTERS, c.x)), "characters": chars, "talismans": tals}


def event_record(system, seq, ev):
    """One event as plain data."""
    kind, args, faces, text = codec.decode_event(ev)
    return {
        "seq": seq,
        "kind": kind,
        "name": kind_name(system, kind),
        "args": list(args),
        "faces": list(faces),
        "text": text,
        "hex": ev.hex(),
    }


# --- the log in words --------------------------------------------------------

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


class _Names:
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
    n = _Names(c)
    a = list(args)
    try:  # a system's event read by the names its table gives (rules/events.py)
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


def kind_live(c, kind):
    """The kind whose outcome an action reports: REDO reports the action it
    brings back (the newest on `c`'s redo stack)."""
    if kind == cp.REDO and c is not None and c.undone:
        return codec.decode_event(c.undone[-1])[0]
    return kind


def lead_live(system, c, kind, args, text=""):
    """lead() for an action about to apply to campaign `c` as it is now (the
    device's, a live view's): UNDO and REDO name the action they take back
    or bring back."""
    if kind == cp.UNDO and c is not None and c.done:
        k, a, _f, t = codec.decode_event(c.done[-1])
        return "undo: takes back " + lead(system, c, k, a, t)
    if kind == cp.REDO and c is not None and c.undone:
        k, a, _f, t = codec.decode_event(c.undone[-1])
        return "redo: " + lead(system, c, k, a, t) + " again"
    if kind in (cp.UNDO, cp.REDO):
        return "undo" if kind == cp.UNDO else "redo"
    return lead(system, c, kind, args, text)


def live(c, seq, ev, public=False):
    """Event `seq` (bytes `ev`) applied to the live view `c` (watch's, the
    hub page's): (line in words with its number and the rules' notes, the
    kind it reports, the Outcome). `public` (a page the players see): a
    hidden outcome (for the GM's eyes) is left out of the line. ValueError
    if it does not follow (a gap: seq is not c.nevents + 1) or does not
    replay here; `c` is then stale: read it again from the device."""
    if seq != c.nevents + 1:
        raise ValueError("event %d does not follow event %d" % (seq, c.nevents))
    kind, a, _f, text = codec.decode_event(ev)
    said = lead_live(c.system, c, kind, a, text)
    wkind = kind_live(c, kind)
    out = c.apply(ev)
    if kind != cp.UNDO:
        kind = wkind
    faces = list(out.faces) if out is not None else []
    line = sentence(c.system, kind, said, faces, out)
    more = notes(kind, out, said) if kind != cp.UNDO else []
    return _view_line(c.system, seq, kind, said, faces, out, line, more, public), kind, out


def _view_line(system, seq, kind, said, faces, out, line, more, public):
    """A live view's line of event `seq`: its sentence `line` and notes
    `more`; `public`: a hidden outcome is left out."""
    if public and out is not None and out.hidden:
        return "%5d  %s (the outcome is the GM's)" % (
            seq,
            sentence(system, kind, said, faces, None),
        )
    return "%5d  %s%s" % (seq, line, "; " + "; ".join(more) if more else "")


def recent(system, cid, events, first=1, base=None, base_seq=0, n=12, public=False):
    """The last `n` events of a journal (log()'s arguments) as a live view
    says them (live()'s lines), oldest first: [(seq, line, faces,
    outcome())], so a view opened on a tray that already has events shows
    its last rolls at once. [] if the journal does not replay here (the
    view then starts with the next event, as before)."""
    try:
        entries, _c = log(system, cid, events, first, base, base_seq)
    except ValueError:
        return []
    out = []
    for e in entries[-n:] if n > 0 else ():
        line = _view_line(system, e.seq, e.kind, e.lead, e.faces, e.out, e.line, e.notes, public)
        said = outcome(e.kind, e.out)
        hide = said is None or (public and said["hidden"])
        out.append((e.seq, line, e.faces, None if hide else said))
    return out


_LINE_VERDICT = {
    "success": "success",
    "failure": "failure",
    "win": "wins",
    "loss": "loses",
    "tie": "a tie",
    "open": "still open",
}

# Notes that only repeat what the sentence already says.
_SAID = {
    hunt.ROLL: re.compile(r"\d+D( hard)?( keep lower)?: \d+ success(es)?$"),
    hunt.RISK: re.compile(r"Risk die \d+$"),
}


def sentence(system, kind, lead_text, faces, out, side_a="A"):
    """The lead, the faces and, for a roll, its successes and verdict:
    'Ada rolls 3d6 (hard): 6 4 2, 1 success, success' (`side_a`: who
    side A of a versus roll or combat check is)."""
    s = lead_text
    if faces:
        s += ": " + " ".join(map(str, faces))
    words = None
    if out is not None:
        v = verdict_word(kind, out.verdict)
        if kind == paths.TEST and not faces and not out.hidden:
            words = "automatic success"
        elif v is not None and kind in (expedition.VERSUS, expedition.COMBAT):
            words = (
                "a tie" if v == "tie" else "%s %s by %d" % (side_a, _LINE_VERDICT[v], out.margin)
            )
        elif v is not None:
            words = "%s, %s" % (plural(out.successes, "success"), _LINE_VERDICT[v])
        elif kind == cp.DICE:
            words = "total %d" % out.successes
        if words and out.hidden:
            words += " (hidden from the players)"
    if words:
        s += (", " if faces else ": ") + words
    return s


def notes(kind, out, said=""):
    """The rules' notes of an Outcome, less those the sentence already says."""
    if out is None:
        return []
    pat = _SAID.get(kind)
    return [x for x in out.notes if x != said and not (pat and pat.match(x))]


def outcome(kind, out):
    """A roll's outcome as plain data ({successes, verdict, margin, hidden}),
    None for an event that is not a roll."""
    if out is None or kind not in VERDICTS:
        return None
    return {
        "successes": out.successes,
        "verdict": verdict_word(kind, out.verdict),
        "margin": out.margin,
        "hidden": bool(out.hidden),
    }


class Entry:
    """One event of the log as the rules core reads it: `out` its Outcome
    (None when it was not folded), `lead` and `line` its words, `notes`,
    `undid` (an UNDO/REDO: the seq it takes back / brings back, None if
    that is before the log), `undone` (an action taken back and never
    redone: the seq of the UNDO)."""

    def __init__(self, seq, kind, args, faces, text):
        self.seq, self.kind, self.args, self.faces, self.text = seq, kind, args, faces, text
        self.out = None
        self.lead = self.line = ""
        self.notes = []
        self.undid = None
        self.undone = None
        self.folded = False


def log(system, cid, events, first=1, base=None, base_seq=0, depth=bk.HOST_DEPTH):
    """(entries, campaign): every event of `events` (seqs from `first`)
    with its outcome and words, folded by the rules core the way the device
    folded it: from a new campaign (`base` None, `first` 1), or from the
    snapshot `base` (encode_snapshot bytes) after event `base_seq`; events
    up to `base_seq` are described but not folded (no outcome). The
    campaign is the fold's end (None if nothing was folded). ValueError
    names an event that does not replay."""
    entries = []
    for i, ev in enumerate(events):
        kind, args, faces, text = codec.decode_event(ev)
        entries.append(Entry(first + i, kind, list(args), list(faces), text))
    if base is None and first > 1:
        start = len(events)  # nothing to fold from
        c = None
    else:
        start = 0 if base is None else max(0, base_seq - first + 1)
        c = bk.start(system, cid, base, depth)
    for e in entries[:start]:
        _unfolded(system, e)
    if c is None:
        return entries, None
    done = [None] * len(c.done)  # the seq of each effective action (None: before the log)
    undone = [None] * len(c.undone)
    by = {}  # seq -> the UNDO that last took it back
    at = {e.seq: e for e in entries}
    for e in entries[start:]:
        ev = events[e.seq - first]
        if e.kind not in (cp.UNDO, cp.REDO):
            e.lead = lead(system, c, e.kind, e.args, e.text)
        try:
            out = c.apply(ev)
        except ValueError as err:
            if e.kind == cp.UNDO and depth is not None and c.depth is not None:
                return log(system, cid, events, first, base, base_seq, None)
            raise ValueError(
                "event %d (%s) does not replay: %s" % (e.seq, kind_name(system, e.kind), err)
            )
        e.folded = True
        if e.kind == cp.UNDO:
            s = done.pop() if done else None
            undone.append(s)
            e.undid = s
            if s is not None:
                by[s] = e.seq
            e.lead = (
                "undo: takes back event %d, %s" % (s, at[s].lead)
                if s in at
                else "undo: takes back an action from before event %d" % first
            )
            e.out = None
            e.notes = []
        elif e.kind == cp.REDO:
            s = undone.pop() if undone else None
            done.append(s)
            e.undid = s
            e.lead = (
                "redo: event %d again, %s" % (s, at[s].lead)
                if s in at
                else "redo: an action from before event %d again" % first
            )
            e.out = None
            e.notes = notes(out.kind, out)
        else:
            done.append(e.seq)
            undone = []
            e.out = out
        side_a = "A"
        if e.kind == expedition.COMBAT and system == systems.EXPEDITION and e.args:
            side_a = _Names(c).who(e.args[0], "the NPC")
        e.line = sentence(system, e.kind, e.lead, e.faces, e.out, side_a)
        if e.kind != cp.REDO:
            e.notes = notes(e.kind, e.out, e.lead)
    live = set(done)
    for s, u in by.items():
        if s not in live and s in at:
            at[s].undone = u
    return entries, c


def _unfolded(system, e):
    """Entry `e` in words with no fold (no state before it is known): its
    sentence, no outcome or notes."""
    e.lead = lead(system, None, e.kind, e.args, e.text)
    e.line = sentence(system, e.kind, e.lead, e.faces, None)
    if e.kind in (cp.UNDO, cp.REDO):
        e.line = e.lead = "undo" if e.kind == cp.UNDO else "redo"


def run_records(system, runs):
    """The runs a backup carries (BackupStore.runs: events a damaged
    journal gave between its damaged records) as export data, each with
    its events in words and `folded` false: no state before them is
    known, so no outcome, notes, session or undone (docs/backup.md)."""
    out = []
    for r in runs:
        seen = utc(r.created)
        evs = []
        for i, ev in enumerate(r.events):
            rec = event_record(system, r.first + i, ev)
            e = Entry(rec["seq"], rec["kind"], rec["args"], rec["faces"], rec["text"])
            _unfolded(system, e)
            rec.update(
                session=None,
                outcome=None,
                notes=[],
                summary=e.line,
                undone=None,
                backup=r.backup,
                seen=seen,
            )
            evs.append(rec)
        out.append(
            {
                "run": r.id,
                "first": r.first,
                "last": r.last,
                "folded": False,
                "gap": r.gap,
                "anchor": r.anchor,
                "checked": r.checked,
                "backup": r.backup,
                "seen": seen,
                "events": evs,
            }
        )
    return out


def utc(t):
    """A backup time (Unix seconds) as ISO 8601 UTC: '2025-03-01T20:15:07Z'."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def sessions(system, entries, seen=None):
    """[(session number, first seq, last seq, what ended it or None)] and
    {seq: session number}. A session ends after a hunt SESSION_END that
    stands (not undone), the rules' own end of a session; paths and
    expedition have no such event, so with `seen` (a backup export:
    [(lo, hi, backup id, time)]) a session ends where a backup ended.
    Numbered from 1 at the log's first event."""
    ends = {}
    if system == systems.HUNT:
        for e in entries:
            if e.kind == hunt.SESSION_END and e.undone is None:
                ends[e.seq] = "SESSION_END"
    elif seen:
        for lo, hi, bid, _t in seen:
            ends[hi] = "backup %d" % bid
    out, of = [], {}
    n, lo = 1, None
    for e in entries:
        if lo is None:
            lo = e.seq
        of[e.seq] = n
        if e.seq in ends:
            out.append((n, lo, e.seq, ends[e.seq]))
            n, lo = n + 1, None
    if lo is not None:
        out.append((n, lo, entries[-1].seq, None))
    return out, of


def document(system, cid, state, events, first=1, base=None, base_seq=0, seen=None, runs=()):
    """The export as a dict: `state` is encode_state bytes, `events` the
    journal from seq `first` on, folded from a new campaign or from the
    snapshot `base` after event `base_seq` (events up to it get no
    outcome). `seen` (a backup export only): [(lo, hi, backup id, Unix
    time)], events lo..hi first held by that backup, taken then.
    `runs` (a backup export: BackupStore.runs): the events a damaged
    journal gave between its damaged records, under `runs` (only when
    there are any), never folded. ValueError: an event does not replay,
    or the fold does not end in `state`."""
    c = cp.decode_state(state)
    if c.system != system:
        raise ValueError("state is of system %d, not %d" % (c.system, system))
    entries, end = log(system, cid, events, first, base, base_seq)
    if end is not None and cp.encode_state(end) != state:
        raise ValueError("its events do not fold to its state")
    when = {}
    for lo, hi, bid, t in seen or ():
        for s in range(lo, hi + 1):
            when[s] = (bid, utc(t))
    ss, of = sessions(system, entries, seen)
    recs = []
    for i, e in enumerate(entries):
        r = event_record(system, e.seq, events[i])
        bid, t = when.get(e.seq, (None, None))
        r.update(
            session=of[e.seq],
            outcome=outcome(e.kind, e.out),
            notes=e.notes,
            summary=e.line,
            undone=e.undone,
            backup=bid,
            seen=t,
        )
        recs.append(r)
    doc = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "campaign": cid,
        "system": system_name(system),
        "schema": codec.VERSION,
        "first": first,
        "last": first + len(events) - 1,
        "events": recs,
        "sessions": [
            {
                "session": n,
                "first": lo,
                "last": hi,
                "ended_by": why,
                "seen": when.get(hi, (None, None))[1],
            }
            for n, lo, hi, why in ss
        ],
        "state": {"hex": state.hex(), "events": c.nevents, **trackers(c)},
    }
    if runs:
        doc["runs"] = run_records(system, runs)
    return doc


def to_json(doc):
    """Deterministic JSON text (sorted keys, one trailing newline)."""
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


# The CSV is for a spreadsheet: a header, then one row per event and
# nothing else (the campaign's numbers, its state and every event's bytes
# are in the JSON export). `--state` writes the trackers instead, in the
# game's words (STATE_COLUMNS).
CSV_COLUMNS = (
    "event",
    "session",
    "summary",
    "faces",
    "successes",
    "verdict",
    "margin",
    "notes",
    "undone",
    "kind",
    "text",
    "backup",
    "seen",
)
STATE_COLUMNS = ("tracker", "value", "talisman", "character")


def _blank(v):
    return "" if v is None else v


# CSV injection (OWASP): a spreadsheet runs a cell that begins with one of
# these as a formula, and names and texts are the players' (`=1+1`,
# `@SUM(A1)` are names). Such a text cell is written as text: a leading '
# and the cell quoted. Numbers the tool formats itself are left as they are
# (ints, and the faces column: whole numbers joined by spaces): no formula
# is made of digits alone.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBERS = (CSV_COLUMNS.index("faces"),)


def _csv_cell(i, v, numbers=_NUMBERS):
    s = str(v)
    if isinstance(v, str) and i not in numbers and s.startswith(FORMULA_START):
        s = "'" + s
    elif not any(c in s for c in ',"\r\n'):
        return s
    return '"%s"' % s.replace('"', '""')  # RFC 4180's quoting, as csv.writer's


def _csv(rows, numbers=()):
    """csv.writer's text of `rows`, with _csv_cell's cells."""
    return "".join(
        ",".join(_csv_cell(i, v, numbers) for i, v in enumerate(row)) + "\n" for row in rows
    )


def _event_row(e, note=None):
    """An event's CSV row; `note` (a run's event, not folded) leads its notes."""
    o = e["outcome"] or {}
    return (
        e["seq"],
        _blank(e["session"]),
        e["summary"],
        " ".join(map(str, e["faces"])),
        _blank(o.get("successes")),
        _blank(o.get("verdict")),
        _blank(o.get("margin")),
        "; ".join(([note] if note else []) + e["notes"]),
        _blank(e["undone"]),
        e["name"],
        e["text"],
        _blank(e["backup"]),
        _blank(e["seen"]),
    )


def to_csv(doc):
    """Deterministic CSV for a spreadsheet: the header (CSV_COLUMNS), then
    one row per event in order: its number, session, the sentence, the
    faces, the roll's successes / verdict / margin, the rules' notes joined
    by "; ", the UNDO that took it back, its kind's name (the one `dicetray
    act` takes), its text, and in a backup export the backup that first
    held it and when. A backup's runs (events a damaged journal gave
    between its damaged records) follow as rows of their own, no session
    or outcome, their notes beginning "not folded: " and the gap. Empty
    cells for what does not apply; a text cell that a spreadsheet would run
    as a formula begins with ' (FORMULA_START)."""
    rows = [CSV_COLUMNS] + [_event_row(e) for e in doc["events"]]
    for r in doc.get("runs", ()):
        rows += [_event_row(e, "not folded: " + r["gap"]) for e in r["events"]]
    return _csv(rows, _NUMBERS)


def state_csv(c):
    """The trackers of campaign `c` as CSV (`export --state`): the header
    (STATE_COLUMNS), then a row per tracker in the tray's order and the
    game's words, as `backups show` lists them (tracked.rows, every field):
    its name, its value, and the talisman or character number the commands
    take."""
    rows = [STATE_COLUMNS] + [
        (r["name"], r["value"], _blank(r["tal"]), _blank(r["char"]))
        for r in tracked.rows(c, every=True)
    ]
    return _csv(rows)


def render(doc, fmt):
    """The export text in `fmt` ('csv' or 'json'); state_csv for the trackers."""
    if fmt == "json":
        return to_json(doc)
    if fmt == "csv":
        return to_csv(doc)
    raise ValueError("unknown export format %r: csv or json" % fmt)
