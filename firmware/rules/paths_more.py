"""paths' fights (issue 13 item 11), apart from paths.py so that boot
does not load them: "Depending on the desired action, the timeframe for a
prolonged test may vary. However, only a simple prolonged test can be
carried out during combat." (Simple: "1 turn".)

COMBAT (68): on 1 starts a fight (text: its name), a talisman of role
FIGHT for as long as it lasts; on 0 (or a TAL_DEL of it) ends it. While
it lasts, PRO_ROLL refuses a prolonged test whose timeframe is not a
turn. A talisman rather than a counter: a campaign that never fought
keeps the state bytes it always had.
"""

from . import core
from . import talisman as tl
from .core import Outcome
from .paths import TIMEFRAMES

COMBAT = 68
FIGHT = 2    # the talisman role of the fight under way
SIMPLE = 0   # the timeframe of a simple prolonged test: 1 turn


def in_combat(c):
    """The FIGHT talisman's index while a fight is under way, else -1."""
    return c.find(FIGHT)


def apply(c, kind, args, text, src):
    """COMBAT; or, for a PRO_ROLL that paths.py found is not a simple test
    during a fight, its refusal (one entry point: paths.py interns no name
    of this module's at boot)."""
    if kind == COMBAT:
        return combat(c, args, text)
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
