"""hunt's afflictions and setups, apart from hunt.py so
that boot, which imports hunt.py for a hunt campaign, does not load them:
hunt.py hands these over on first use (an import costs about 60,000 fuel
then, once; every name and string here would cost boot about 12,000).

- AFFLICT (48): char, lasting 0/1; text = the affliction. "An exorcist
  gains one pathos when they fail a roll, take an injury or affliction":
  an AFFLICTION talisman (capacity 1, owner the exorcist, a = lasting) and
  +1 pathos. "Afflictions are ongoing negative effects that last until the
  end of the hunt unless stated otherwise": SIN_END and NEW_HUNT end the
  ones that are not lasting; a slash (filling it) ends one early.
- ROLL's optional 8th and 9th arguments: grant (-1, or the character a
  setup roll is for: "On a success, an exorcist chooses one character
  (including themselves) and an action roll they will perform") makes a
  SETUP talisman for that character on a success (text = the roll it is
  for); setup (-1, or a SETUP talisman of the roller) spends it: "An
  action roll may benefit only once from setup", so a roll names one.
  What a setup grants is cut off in the seed: the dice the table agrees
  on go in the roll's advantages.
"""

from . import core
from . import hunt as h
from .core import Outcome

AFFLICT = 48
_DEATH = 7  # hunt._DEATH_STRESS, a const there (no global of hunt's on MicroPython)
ROLE_AFFLICTION = 6  # owner = the exorcist, name = the affliction, a = 1: lasts past the hunt
ROLE_SETUP = 7       # owner = the exorcist granted it, name = the roll it is for


def apply(c, kind, args, text, src):
    """AFFLICT, a ROLL with setup arguments (8 or 9 of them), or what a
    NEW_HUNT or SIN_END ends here (called by hunt.py, after its own work;
    one entry point, so hunt.py interns no name of this module's at boot)."""
    if kind == h.NEW_HUNT or kind == h.SIN_END:
        _end_hunt(c, kind == h.NEW_HUNT)
        return None
    out = Outcome(kind)
    if kind == AFFLICT:
        _afflict(c, args, text, out)
    else:
        _roll(c, args, text, src, out)
    return out


def _owner(c, tal):
    return c.chars[tal.owner].name if 0 <= tal.owner < len(c.chars) else "nobody"


def tals(c, role, owner):
    """Indices of the live talismans of `role` owned by `owner`."""
    return [t for t in range(len(c.tals))
            if c.tals[t] is not None and c.tals[t].role == role and c.tals[t].owner == owner]


def _afflict(c, args, text, out):
    if len(args) != 2:
        raise ValueError("AFFLICT takes char, lasting 0/1 (1: it outlasts the hunt); text = the"
                         " affliction")
    i, lasting = args
    ch = core.alive(c, i, h.DEAD)
    core.flag("lasting", lasting)
    if not text:
        raise ValueError("an affliction needs a name")
    for t in tals(c, ROLE_AFFLICTION, i):
        if c.tals[t].name == text:
            raise ValueError("%s is already afflicted: %s" % (ch.name, text))
    if not h._has_room(c):
        raise ValueError("no room for another talisman (32): clear a hook or an affliction first")
    out.tal = h._new_tal(c, text, 1, ROLE_AFFLICTION, i)
    c.tals[out.tal].a = lasting
    h._gain_pathos(ch)
    c.note("%s afflicted: %s%s; pathos %d" % (ch.name, text, " (lasting)" if lasting else "",
                                             ch.v[h.PATHOS]))


def _roll(c, args, text, src, out):
    if len(args) > 9:
        raise ValueError("ROLL takes char, skill, advantages, agony 0/1, removed dice, hard 0/1,"
                         " target[, grant: the character a setup roll is for (-1 none)[, setup:"
                         " the roller's setup talisman this roll benefits from (-1 none)]]")
    i = args[0]
    grant = args[7]
    use = args[8] if len(args) > 8 else -1
    if grant != -1:
        core.alive(c, grant, h.DEAD)
        if i == -1:
            raise ValueError("a setup is an exorcist's action roll: name who rolls")
        if not h._has_room(c):
            raise ValueError("no room for another talisman (32): spend a setup first")
    if use != -1:
        st = c.tal(use)
        if st.role != ROLE_SETUP:
            raise ValueError("talisman %d is not a setup" % use)
        if st.owner != i:
            raise ValueError("that setup was granted to %s, not to who rolls" % _owner(c, st))
    h._roll(c, args[:7], text, src, out)  # validates the rest before it changes anything
    if use != -1:
        c.note("%s benefits from the setup %s" % (c.chars[i].name, c.tals[use].name))
        c.tals[use] = None
    if grant != -1 and out.successes:
        out.tal = h._new_tal(c, text or "Setup", 1, ROLE_SETUP, grant)
        c.note(("Setup %s for %s" % (text, c.chars[grant].name)) if text
               else "a setup for %s" % c.chars[grant].name)


def on_fill(c, t, src):
    """A slash that fills an affliction ends it (its cure); a setup, spends it."""
    tal = c.tals[t]
    if tal.role == ROLE_AFFLICTION:
        c.tals[t] = None
        c.note("%s is no longer afflicted: %s" % (_owner(c, tal), tal.name))
    elif tal.role == ROLE_SETUP:
        c.tals[t] = None
        c.note("%s's setup %s is spent" % (_owner(c, tal), tal.name))


def _end_hunt(c, setups):
    """The hunt ends: its afflictions (not the lasting ones), and with
    `setups` (a new hunt) the setups not used."""
    for t in range(len(c.tals)):
        tal = c.tals[t]
        if tal is None:
            continue
        if tal.role == ROLE_AFFLICTION and not tal.a:
            c.note("%s: %s ends with the hunt" % (_owner(c, tal), tal.name))
            c.tals[t] = None
        elif tal.role == ROLE_SETUP and setups:
            c.tals[t] = None


# --- what an event will draw, for a screen that shows the dice first ---------
def rest_heals(c):
    """The d3s a REST draws before the exorcists' 2d3 each: 1 when its
    pressure step heals the Sin (pressure not full, the Sin in its palace
    and not yet executed or spared), else 0 (hunt.on_slash)."""
    p = c.find(h.ROLE_PRESSURE)
    if p < 0 or c.tals[p].filled() or c.find(h.ROLE_SIN) < 0:
        return 0
    return 1 if c.x[h.X_PALACE] and not c.x[h.X_OUTCOME] else 0


def kills(c, i, taken):
    """Whether `taken` stress in one move kills exorcist i: 7 or more, or
    any on the brink of death (hunt._stress)."""
    return taken >= _DEATH or (taken > 0 and c.chars[i].v[h.BRINK] == 1)


def answers(c):
    """Whether a trauma answer can be expended now (hunt._stress): one
    answered and not yet expended, and the Sin not yet executed or spared."""
    return c.x[h.X_ANSWERED] > c.x[h.X_EXPENDED] and c.find(h.ROLE_SIN) >= 0 \
        and not c.x[h.X_OUTCOME]
