"""A sample of every event of every rule system: for each system a
campaign that has what its events act on (characters, talismans, a spell,
a tracked foe, a fight...) and, for each event kind (or kind and op),
arguments and text the rules core accepts. Shared by test_rules_listing.py
(each accepted, its ranges' ends refused) and test_labels.py (what a player
reads of each)."""

from dicetray.rules import campaign as cp, systems
from dicetray.rules import expedition as E, hunt as H, paths as P
from dicetray.rules import expedition_chars as EC, expedition_foes as EF
from dicetray.rules import expedition_spells as ES, expedition_town as ET


def _hunt():
    c = cp.Campaign(systems.HUNT, cid=1)
    for n in ("Ada", "Bo"):
        c.act(cp.CHAR_ADD, (), n)
    c.act(H.NEW_HUNT, (2, 1))
    c.act(cp.TAL_NEW, (4, 0, -1, 0, -1, 0, 0), "Task")          # 5: a task
    c.act(H.HOOK, (0,), "Debt")                                  # 6: Ada's hook
    c.act(H.ROLL, (0, 3, 0, 0, 0, 0, -1, 0), "Aim", faces=(6, 6, 6))   # 7: Ada's setup
    sin = c.find(H.ROLE_SIN)
    c.act(cp.SLASH, (sin, c.tals[sin].cap, 0))
    c.act(H.BURST, (0, 0))
    c.act(H.TRAUMA, ())
    return c


def _paths():
    c = cp.Campaign(systems.PATHS, cid=2)
    for n in ("Ada", "Bo"):
        c.act(cp.CHAR_ADD, (), n)
    c.act(P.PRO_OPEN, (0, 8, 3, 0, 0), "Healing")                # 0
    return c


def _expedition():
    c = cp.Campaign(systems.EXPEDITION, cid=3)
    for n in ("Ada", "Bo"):
        c.act(cp.CHAR_ADD, (), n)
    c.act(E.SHEET, (0, 5, 8, 2, 3, 2, 1, 0))
    c.act(E.SHEET, (1, 0, 8, 2, 3, 0, 0, 0))
    c.act(E.USAGE_NEW, (6, -1, 1), "Torches")                    # 0
    c.act(E.PROJECT_NEW, (4, -1), "Wall")                        # 1
    c.act(E.EXT_NEW, (3, 0), "Climb")                            # 2
    c.act(E.DAMAGE, (1, 1, 0))                                   # Bo: down and out
    c.act(ES.SPELL, (0, 0, 4, 5), "Fire")                         # 3: Ada's spell
    c.act(EF.FOE, (0, 3, 0, 0, -1), "Orc")                       # 4: a tracked monster
    c.act(EC.ABIL, (4, 0, 3, 3, 3, 3, 3, 3))                     # 5: Ada's Abilities
    c.act(EF.ROUND, (0,))                                        # 6: a fight, round 1
    c.act(ET.TOWN, (1, 0, 2, 8, 1, 1))                            # Ada: Wealth 2, Cash 8
    c.act(ET.TOWN, (9, -1, 3), "Guild")                           # 7: a Faction, +3
    c.act(cp.CHAR_ADD, (), "Cy")                                   # a new character
    c.act(EC.ABIL, (4, 2, 3, 3, 3, 3, 3, 3))                     # 8: Cy's Abilities
    c.act(EF.FOE, (0, 3, 0, 0, 1), "Hound")                      # 9: Bo's Follower
    return c


# (campaign maker, {kind: (sample args, text)}); every optional argument given.
SAMPLES = {
    systems.HUNT: (_hunt, {
        32: ((0, 1, 1, 0, 0, 0, 5, 1, 7), "Aim"), 33: ((0,), ""), 34: ((0,), ""), 35: ((1,), ""),
        36: ((1, 2, 0, 0), ""), 37: ((0, 1), ""), 38: ((1,), "Oath"), 39: ((2 + 6, 1, 0, 1), ""),
        40: ((0, 2), "Knife"), 41: ((3, 0), ""), 42: ((), ""), 43: ((), ""), 44: ((0,), ""),
        45: ((0,), ""), 46: ((1,), ""), 47: ((5,), ""), 48: ((1, 0), "Blind")}),
    systems.PATHS: (_paths, {
        64: ((0, 3, 2, 1, 0, 3, 0, 4, 2), "Eloquence"), 65: ((0, 3, 2, 0, 0, 5, 1, 3, 3), ""),
        66: ((1, 5, 2, 1, 0), "Study"), 67: ((0, 2, 2, 0, 0, 2, 2), ""), 68: ((1,), "Ambush"),
        69: ((1, 3, 2, 1, 0, 4, 0, 2), "")}),
    systems.EXPEDITION: (_expedition, {
        96: ((3, 4, 3, 1, 2, 1, 1, 2, 0), ""), 97: ((2, 2, 0, 1, 0, 0, 9, 1, 0, 0, 1, 0, 2), ""),
        98: ((0, 2, 1, 0, 1, 0, -1, 3, 0, 0, 0, 0, 0, 0, 1, 3 | E.FOE_B | 5 * EF.TRACKED), ""),
        99: ((0, 2, 1), ""),
        100: ((0, 3, 2, 1), ""), 101: ((0, 2), ""), 102: ((0, 3), ""), 103: ((0,), ""),
        104: ((0, 3, 6, 1, 2, 1, 1, 5), ""), 105: ((0, 1, 0), ""), 106: ((1, 1), ""),
        107: ((1, 1), ""), 108: ((), ""), 109: ((2,), ""), 110: ((3,), ""), 111: ((), ""),
        112: ((8, 0, 0), "Oil"), 113: ((0,), ""), 114: ((), ""), 115: ((8, 1), ""), 116: ((), ""),
        117: ((0, 1), ""), 118: ((6, 0), "Map"), 119: ((1,), ""), 120: ((2, 1), "Run"),
        (124, 0): ((0, 0, 4, 5), "Miasma"), (124, 1): ((1, 3, 2, 1, 0, 1, 0, 1, 3, 1, 1, 0, 1, 1), ""),
        (124, 2): ((2, 0), "Gills"), (124, 3): ((3, 0, 2, 3, 4, 2, 1), "Bind"), (125, 0): ((0,), ""), (125, 1): ((1, 0, 4, 10, 2, 1), ""),
        (125, 2): ((2, 0, 5), ""), (125, 3): ((3, 0, 6, 4, 1), ""), (125, 4): ((4, 0, 2, 3), ""),
        (125, 5): ((5, 0, 2), ""), (125, 6): ((6, 0), ""), (125, 7): ((7, 0, 1, 3), ""),
        (125, 8): ((8, 0, 3, 4, 7, 1, 1), ""), (125, 9): ((9, 7, 2), ""), (125, 10): ((10, 7), ""),
        (125, 11): ((11, 0), "Learn a spell"), (125, 12): ((12, 0, 5), "Rowboat"),
        (121, 0): ((0, 3, 1, 0, 0), "Wolf"), (121, 1): ((1, 4, 2, 2, 1, 1), ""), (121, 2): ((2, 4, 1), ""),
        (121, 3): ((3, 4, 3, 1, 0), ""), (121, 4): ((4, 4, 2, 0, 0, 0), ""), (121, 5): ((5, 4), ""), (121, 6): ((6, 9), ""),
        (122, 0): ((0,), ""), (122, 1): ((1,), ""),
        (123, 0): ((0, 1), ""), (123, 1): ((1, 0, 0, 1), ""), (123, 2): ((2, 0, 2), ""),
        (123, 3): ((3, 0), "Tough"), (123, 4): ((4, 0, 1, 2, 3, 4, 5, 6), ""),
        (123, 5): ((5, 0, 2, 0, 0), "")}),
}
