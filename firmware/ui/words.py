"""The game's words for what a character's sheet and the Talismans list
show, by rule system (loaded when a sheet or Talismans first opens: not
with the builder, whose every key would pay a longer search of the
interned strings for these names, nor at boot).

SHEET[system]: each CHAR_FIELDS field -> (its label, the words of its
values 0, 1..., or None: the number); hunt's adds its stress talisman's
row. Where the label is a rule's own abbreviation it is the seed's: CR,
the Class Resource. `tal_value(c, t)`: what Talismans shows right of a
talisman's name instead of its slashes (None: its slashes, n/cap).
"""

_YES_NO = ("no", "yes")

SHEET = (
    {"stress": ("Stress", None), "injuries": ("Injuries", None), "sin": ("Sin", None),
     "marks": ("Sin marks", None), "bursts": ("Bursts", None), "pathos": ("Pathos", None),
     "kit": ("Kit points", None), "agony_used": ("Agony used", _YES_NO), "dead": ("Dead", _YES_NO),
     "brink": ("Brink", _YES_NO), "check": ("Overflow", ("-",))},
    {},
    {"hp": ("HP", None), "max_hp": ("Max HP", None), "bonus_hp": ("Bonus HP", None),
     "res": ("CR", None), "max_res": ("Max CR", None), "armor": ("Armor", ("none", "light", "heavy")),
     "shield": ("Shield", _YES_NO), "spent": ("Blocked", ("-", "armor", "shield", "both")),
     "xp": ("XP", None), "dead": ("Dead", _YES_NO), "rests": ("Short rests", None),
     "down": ("Down & Out", None)},
)


def tal_value(c, t):
    """What Talismans shows right of talisman t's name, None: its slashes.
    The roles by number (each system's rules name them; their modules are
    not loaded for this). hunt: an affliction or a setup, nothing (curing
    one fills it, using the other spends it). paths: a prolonged test its
    successes of a hidden total, `3/?`; the fight, nothing. expedition: a
    usage die the die it is now, `d4` or `spent`; a foe its HP as Foes
    shows it; the fight its round; Abilities and Boons the Boons; a spell
    `lost` until a long rest; a Faction its Reputation; the Stronghold
    its rating; a mutation its d100; a spell never learned `never`."""
    r = t.role
    s = c.system
    if s == 0:
        return "" if r == 6 or r == 7 else None   # ROLE_AFFLICTION, ROLE_SETUP
    if s == 1:
        if r == 1:  # PROLONGED
            return "%d/%s" % (t.n, "?" if (t.b >> 9) & 1 else str(t.cap))
        return "" if r == 2 else None             # the fight
    if r == 1:      # a usage die
        from rules import expedition as m
        n = m.usage_sides(t)
        return ("d%d" % n) if n else "spent"
    if r == 16:     # a foe: its HP left
        return ("%d/%d" % (t.cap - t.n, t.cap)) if t.cap - t.n else "out"
    if r == 17:     # the fight
        return "round %d" % t.n
    if r == 18 or r == 11:  # Abilities and Boons; the Stronghold
        return str(t.n)
    if r == 8:      # a spell
        return "lost" if t.n else ""
    if r == 10:     # a Faction
        return ("+%d" % t.a) if t.a > 0 else str(t.a)
    if r == 9:      # a mutation
        return "d100 %d" % t.a
    if r == 12:     # a spell never to be learned
        return "never"
    return None
