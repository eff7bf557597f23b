"""paths' fights, apart from paths.py so that boot
does not load them: "Depending on the desired action, the timeframe for a
prolonged test may vary. However, only a simple prolonged test can be
carried out during combat." (Simple: "1 turn".)

COMBAT (68): on 1 starts a fight (text: its name), a talisman of role
FIGHT for as long as it lasts; on 0 (or a TAL_DEL of it) ends it. While
it lasts, PRO_ROLL refuses a prolonged test whose timeframe is not a
turn. A talisman rather than a counter: a campaign that never fought
keeps the state bytes it always had.

PATH (69): who, path 0..5, its level, then its five Skills' levels (each
0..6): a character's sheet, one Path at a time. "To make a Skill test,
the player rolls a number of dice equal to their level in the required
Skill, plus the level of that Skill's Path." The levels are the
character's fields (paths has no CHAR_FIELDS of its own: a character
gets all 36 at its first PATH, so a campaign that never set a sheet
keeps its state bytes): field 6p is Path p, 6p + 1 + j its Skill j, in
the seed's table order (PATHS, SKILLS below).
"""

from . import core
from . import talisman as tl
from .core import Outcome
from .paths import TIMEFRAMES, PRO_ROLL, MAX_PATH, MAX_SKILL

COMBAT = 68
PATH = 69
FIGHT = 2    # the talisman role of the fight under way
SIMPLE = 0   # the timeframe of a simple prolonged test: 1 turn

# The seed's table: the six Paths, then each Path's five Skills in its
# column. Bytes, not a tuple of str: a str constant is looked up in the
# interned strings when the module loads, and every interned name makes
# each new str's lookup longer (docs/architecture.md). Two names are
# shortened to fit a row beside a level: Myths of The Ruin, Clandestine
# Networks; the seed's "Resiliance" is spelt Resilience.
PATHS = b"Legacy|Hope|Dogma|Secrets|Fear|Lies"
SKILLS = (b"Beasts|Healing|Erudition|Crafts|Languages|Empathy|Eloquence|Resilience|Artistry|"
          b"Etiquette|Zeal|Authority|Tracking|Faith|MIR|Instinct|Survival|Investigation|Twisting|"
          b"Myths of Ruin|Combat|Marksmanship|Unarmed Combat|Intimidation|Strength|Manipulation|"
          b"Infiltration|Dexterity|Politics|Clan. Networks")
NSKILLS = 30
FIELDS = 36  # a character's fields once it has a sheet: 6 a Path


def path_name(p):
    """Path p's name (0 Legacy .. 5 Lies)."""
    return PATHS.split(b"|")[p].decode()


def skill_name(k):
    """Skill k's name (0..29: Path k // 5, its Skill k % 5)."""
    return SKILLS.split(b"|")[k].decode()


def skill_of(name):
    """The Skill named `name` (0..29), or -1."""
    b = name.encode()
    for k, s in enumerate(SKILLS.split(b"|")):
        if s == b:
            return k
    return -1


def level(ch, f):
    """Character ch's level in field f (6p: Path p; 6p + 1 + j: its Skill
    j): 0 before its sheet is set."""
    return ch.v[f] if f < len(ch.v) else 0


def skill_field(k):
    """The field of Skill k (and k // 5 * 6 that of its Path)."""
    return k // 5 * 6 + 1 + k % 5


def pool_of(ch, k):
    """(Skill level, Path level) of character ch for Skill k."""
    return level(ch, skill_field(k)), level(ch, k // 5 * 6)


def in_combat(c):
    """The FIGHT talisman's index while a fight is under way, else -1."""
    return c.find(FIGHT)


def apply(c, kind, args, text, src):
    """COMBAT; or, for a PRO_ROLL that paths.py found is not a simple test
    during a fight, its refusal (one entry point: paths.py interns no name
    of this module's at boot)."""
    if kind == COMBAT:
        return combat(c, args, text)
    if kind == PATH:
        return _path(c, args)
    if kind != PRO_ROLL:
        raise ValueError("unknown paths event kind %d (64 TEST, 65 OPPOSED, 66 PRO_OPEN, 67 PRO_ROLL,"
                         " 68 COMBAT, 69 PATH)" % kind)
    _refuse(c.tals[args[0]])


def _refuse(t):
    raise ValueError("only a simple prolonged test can be carried out during combat:"
                     " %s takes 1 %s a roll, not 1 turn" % (t.name, TIMEFRAMES[(t.b >> 7) & 3]))


def combat(c, args, text):
    if len(args) != 1:
        raise ValueError("COMBAT takes on (1: a fight starts, 0: it ends); text = its name")
    on = args[0]
    core.flag("on (1: a fight starts, 0: it ends)", on)
    t = in_combat(c)
    out = Outcome(COMBAT)
    if not on:
        if t < 0:
            raise ValueError("no fight is under way")
        out.note("%s ends" % c.tals[t].name)
        c.tals[t] = None
        out.tal = t
        return out
    if t >= 0:
        raise ValueError("a fight is already under way (%s): end it first" % c.tals[t].name)
    name = text or "Combat"
    for i in range(len(c.tals)):  # reuse a deleted slot: fights come and go
        if c.tals[i] is None:
            c.tals[i] = tl.Talisman(name, 1, tl.CLAMP, tl.NONE, FIGHT)
            out.tal = i
            break
    else:
        out.tal = c.new_tal(name, 1, tl.CLAMP, tl.NONE, FIGHT)
    out.note("%s starts: only simple (1 turn) prolonged tests" % name)
    return out


def _path(c, args):
    if len(args) != 8:
        raise ValueError("PATH takes who, path (0 Legacy .. 5 Lies), its level, then its five"
                         " Skills' levels")
    i, p = args[0], args[1]
    ch = c.char(i)
    core.span("path", p, 0, 5)
    core.span("the Path's level", args[2], 0, MAX_PATH)
    for j in range(5):
        core.span("a Skill's level", args[3 + j], 0, MAX_SKILL)
    v = ch.v
    while len(v) < FIELDS:
        v.append(0)
    for j in range(6):
        v[6 * p + j] = args[2 + j]
    out = Outcome(PATH)
    s = "%s: %s %d" % (ch.name, path_name(p), args[2])
    for j in range(5):
        if args[3 + j]:
            s += ", %s %d" % (skill_name(5 * p + j), args[3 + j])
    out.note(s)
    return out
