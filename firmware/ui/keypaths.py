"""The key paths: how each event the rules core accepts is made on the
device's own keys, in the screens' words. `dicetray rules SYSTEM --keys`
walks them on the firmware's screens (host/dicetray/keyscript.py) into a
script for `dicetray sim --headless --script` (docs/ui.md, "The key
script").

Host only, as rules/events.py: the device never imports this module, so
a boot loads nothing of it (the host reads it as dicetray.fwui.keypaths).

An entry is (name, steps) or (name, why). name: an event as
rules/events.py names it ("CHAR_ADD", "FOE hit"). steps, a tuple: a
procedure that makes it, walked from home with the cursor on Roll and
back home (the walker presses Back until home shows); the walk fails
when the steps journal no such event. why, a str: the keys cannot make
it yet, and why (`dicetray rules --json` says it as "host_only"); a new
screen turns the str into its steps. A step:

    "Row"                the cursor onto the row that reads Row (the row is
                         Row, or Row then a space and its value), then OK
    "Row >", "Row <"     the cursor there, then Right (Left) once
    "Row > v", "Row < v" the cursor there, then Right (Left) until the row
                         shows the value v (`<v>`, `< v >` or `... v`); a
                         page of notes on the way (OUTCOME) closed with OK
    "OK", "BACK", "ROLL", "UP", "DOWN", "LEFT", "RIGHT": that key, once
    "long OK", "long BACK", "long ROLL": that key held

Rows are found on the screen as it is when the step comes (a menu's
rows, else the rows drawn), so a row that moves is still found, and one
that is gone or renamed stops the walk, naming the screen and its rows.
The procedures run in order, START first, then CORE, then the system's:
one may rely on what one before it made (a character, a foe, Wealth),
and what the last leaves is where tests/host/test_keyscript.py looks for
screens that make a kind still marked host only (keep a foe there).
"""

# A new campaign of the system (%s: its name on Settings' System row,
# whose OK asks to start one), after the first run's tour, which the
# walk's first Back skips.
START = ("Settings", "System > %s", "OK", "OK")

# The core's events, in every system, before the system's own.
CORE = (
    ("CHAR_ADD", ("Characters", "+ add")),
    ("CHAR_ADD", ("Characters", "+ add")),
    ("RENAME", ("Characters", "Ada", "Rename", "OK")),
    ("TAL_NEW", ("Talismans", "+ new", "Capacity > 6", "OK")),
    ("SLASH", ("Talismans", "Clock 1 >")),
    ("UNSLASH", ("Talismans", "Clock 1 <")),
    ("CLEAR", ("Talismans", "Clock 1", "Clear")),
    ("TAL_CAP", ("Talismans", "Clock 1", "Capacity", "Capacity > 8", "OK")),
    ("TAL_DEL", ("Talismans", "Clock 1", "Delete")),
    ("UNDO", ("long BACK",)),
    ("REDO", ("long OK",)),
    ("DICE", "no screen rolls free dice outside a pool's rules (a free roll here, before each "
             "system's procedures, would change every die the script's seeded walk rolls after it)"),
)

HUNT = (
    ("ROLL", ("Roll", "OK")),
    ("RISK", ("Scenes", "Risk die > Ada", "Risk die")),
    ("SCENE_END", ("Scenes", "New scene: calm")),
    ("SCENE", ("Scenes", "Fight breaks out")),
    ("STRESS", ("Characters", "Ada", "Stress >")),
    ("STRESS", ("Characters", "Bram", "Stress", "Stress > 7", "OK", "Defy fate")),
    ("BURST", ("Characters", "Ada", "Bursts <")),
    ("KIT", ("Characters", "Ada", "Kit points", "OK")),
    ("WITNESS", ("Characters", "Ada", "Pathos >")),
    ("AFFLICT", ("Characters", "Ada", "Afflictions", "+ for the hunt")),
    ("HOOK", ("Characters", "Ada", "Hooks", "+ gain a hook", "OK")),
    ("REST", ("Scenes", "Rest", "OK")),
    ("TRAUMA", ("Scenes", "The hunt", "Answer found")),
    ("STRESS", ("Characters", "Ada", "Stress", "Answer > yes", "OK")),
    ("NEW_HUNT", ("Scenes", "The hunt", "New hunt", "Sin's CAT > 2", "In palace > yes", "OK")),
    ("PALACE", ("Scenes", "The hunt", "Sin goes outside")),
    ("SESSION_END", ("Scenes", "The hunt", "End of session", "OK")),
    ("SIN_END", ("Talismans", "Sin > 10/10", "BACK", "Scenes", "The hunt", "Execute the Sin")),
    ("FACE", ("Scenes", "The hunt", "Success on > 5+", "Success on < 4+")),
)

PATHS = (
    ("TEST", ("Roll", "OK")),
    ("OPPOSED", ("Roll", "Mode > opposed", "OK")),
    ("PATH", ("Characters", "Ada", "Legacy", "Legacy > 2", "Healing > 3", "OK")),
    ("TEST", ("Roll", "Mode < test", "Who > Ada", "Test of > Healing", "OK")),
    ("PRO_OPEN", ("Roll", "Mode > prolonged", "Test", "Attempts > 3", "OK")),
    ("PRO_ROLL", ("Roll", "OK")),
    ("COMBAT", ("Fight", "Fight starts")),
)

# Class resources (Control...) start at 0, and only SHEET sets them.
_NO_RES = "a character's class resources start at 0, and only SHEET, which has no screen, sets them"

EXPEDITION = (
    ("TEST", ("Roll", "OK")),
    ("VERSUS", ("Roll", "Mode > versus", "OK")),
    ("DAMAGE", ("Characters", "Ada", "HP <")),
    ("HEAL", ("Characters", "Ada", "HP >")),
    ("BONUS_HP", ("Characters", "Ada", "Bonus HP >")),
    ("BONUS_END", ("Characters", "Ada", "Bonus HP <")),
    ("TURN", ("Turns", "Explore turn")),
    ("SHORT_REST", ("Turns", "Short rest")),
    ("ENC_CHECK", ("Turns", "Extra enc check")),
    ("FOE new", ("Foes", "+ new foe", "OK")),
    ("FOE hit", ("Foes", "Foe 1 <")),
    ("FOE heal", ("Foes", "Foe 1 >")),
    ("FOE new", ("Foes", "+ new foe", "Follows > Bram", "OK")),
    ("FOE lost", ("Foes", "Follower 2", "Lost: died/left")),
    ("FOE new", ("Foes", "+ new foe", "OK")),
    ("FOE remove", ("Foes", "Foe 2", "Remove")),
    ("ROUND next", ("Foes", "Next round")),
    ("ROUND end", ("Foes", "End fight")),
    ("MORALE", ("Foes", "Morale check", "OK")),
    ("REACTION", ("Foes", "Reaction")),
    ("DISTANCE", ("Foes", "Distance")),
    ("ABIL roll", ("Characters", "Ada", "Abilities", "Roll abilities")),
    ("ABIL swap", ("Characters", "Ada", "Abilities", "Might >", "OK")),
    ("ABIL improve", ("Characters", "Ada", "Abilities", "Might")),
    ("ABIL boon", ("Characters", "Ada", "Abilities", "Boons")),
    ("ABIL set", ("Characters", "Ada", "Abilities", "Set by hand", "OK")),
    ("SPELL learn", ("Spells", "+ learn", "OK")),
    ("SPELL mutate", ("Spells", "Mutate", "OK")),
    ("SPELL master", ("Spells", "Mastery check", "OK")),
    ("TOWN start", ("Town", "New Town Phase", "OK")),
    ("TOWN sheet", ("Town", "Town sheet", "Wealth > 2", "Cash > 4", "Businesses > 1", "OK")),
    ("TOWN cash", ("Town", "Cash +/-", "OK")),
    ("TOWN buy", ("Town", "Cash buy", "OK")),
    ("TOWN wealth", ("Town", "Wealth buy", "OK")),
    ("TOWN sell", ("Town", "Sell Wealth", "OK")),
    ("TOWN goods", ("Town", "Sell a good", "OK")),
    ("TOWN income", ("Town", "Income roll")),
    ("TOWN improve", ("Town", "Improve", "OK")),
    ("TOWN circles", ("Town", "Circles check", "OK")),
    ("TOWN repute", ("Town", "Reputation", "OK")),
    ("TOWN recognize", ("Town", "Recognize", "OK")),
    ("TOWN downtime", ("Town", "Downtime")),
    ("DESPERATE", ("Town", "Desperate return")),
    ("DOWN_OUT", ("Characters", "Bram", "HP <", "LEFT", "LEFT", "LEFT", "Down & Out >")),
    ("ABIL roll", ("Characters", "Bram", "Abilities", "Roll abilities")),
    ("ABIL retire", ("Characters", "Ada", "Abilities", "Retire", "OK")),
    ("COMBAT", "no screen makes a combat check (the builder's versus mode records a versus test "
               "and applies no damage)"),
    ("VAR_DAMAGE", "no screen rolls variable damage to a character"),
    ("SHEET", "no screen sets a character's sheet (max HP, class resources, armor, shield, XP)"),
    ("USE_RES", "spending needs class resources: " + _NO_RES),
    ("LONG_REST", "no screen takes a long rest"),
    ("SET_FREQ", "no screen sets the encounter frequency"),
    ("USAGE_NEW", "no screen makes a usage die"),
    ("USAGE_ROLL", "no screen rolls a usage die after a scene's use (a turn rolls those checked on "
                   "turns within its own event)"),
    ("PROJECT_NEW", "no screen makes a project"),
    ("PROJECT_TICK", "no screen ticks a project"),
    ("EXT_NEW", "no screen makes an extended test (the builder's Extended picks one there is)"),
    ("FOE save", "no screen rolls a foe's test or save (the builder's monster mode records a "
                 "versus test)"),
    ("FOE resist", "no screen rolls a character's resistance to a foe's Move (the builder's test "
                   "at the Save Ob shown records a test)"),
    ("SPELL channel", "a Channeling Test spends a Control: " + _NO_RES),
)

PROCEDURES = (HUNT, PATHS, EXPEDITION)
