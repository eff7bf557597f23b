"""The key paths: how each event the rules core accepts is made on the
device's own keys, in the screens' words. `dicetray rules SYSTEM --keys`
walks them on the firmware's screens (host/dicetray/keyscript.py) into a
script for `dicetray sim --headless --script` (docs/ui.md, "The key
script").

Host only, as events.py beside it: the device never reads it, so it is not
in the firmware (tests/mpy's screen walks read it on MicroPython too).

An entry is (name, steps) or (name, why). name: an event as
catalog/events.py names it ("CHAR_ADD", "FOE hit"). steps, a tuple: a
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
    ("ROUND end", ("Foes", "End fight", "OK")),
    ("MORALE", ("Foes", "Morale check", "OK")),
    ("REACTION", ("Foes", "Reaction")),
    ("DISTANCE", ("Foes", "Distance")),
    ("FOE save", ("Foes", "Foe 1", "Its test/save", "OK")),
    ("ABIL roll", ("Characters", "Ada", "Abilities", "Roll abilities")),
    ("ABIL swap", ("Characters", "Ada", "Abilities", "Might >", "OK")),
    ("ABIL improve", ("Characters", "Ada", "Abilities", "Might")),
    ("ABIL boon", ("Characters", "Ada", "Abilities", "Boons")),
    ("ABIL set", ("Characters", "Ada", "Abilities", "Set by hand", "OK")),
    ("SHEET", ("Characters", "Ada", "Set the sheet", "Max HP > 6", "HP > 6", "Max CR > 2",
               "CR > 2", "Armor > light", "Shield > yes", "OK")),
    ("DAMAGE", ("Characters", "Ada", "Take damage", "Points > 3", "Use armor > yes", "OK")),
    ("VAR_DAMAGE", ("Characters", "Ada", "Damage dice", "Save: half > yes", "OK")),
    ("USE_RES", ("Characters", "Ada", "CR <")),
    ("COMBAT", ("Roll", "Mode > combat", "Who > Ada", "Against > Foe 1", "OK")),
    ("FOE resist", ("Roll", "Mode < test", "Resist > Foe 1 Ob2", "OK")),
    ("SPELL learn", ("Spells", "+ learn", "OK")),
    ("SPELL channel", ("Spells", "Spell 1", "OK")),
    ("SPELL mutate", ("Spells", "Mutate", "OK")),
    ("SPELL master", ("Spells", "Mastery check", "OK")),
    ("LONG_REST", ("Turns", "Long rest")),
    ("SET_FREQ", ("Turns", "Encounter rate", "Area < populous", "OK")),
    ("USAGE_NEW", ("Turns", "Usage dice", "+ new usage die", "OK")),
    ("USAGE_ROLL", ("Turns", "Usage dice", "Torches")),
    ("EXT_NEW", ("Turns", "Extended tests", "+ new extended", "OK")),
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
    ("PROJECT_NEW", ("Town", "Projects", "+ new project", "OK")),
    ("PROJECT_TICK", ("Town", "Projects", "Project 1")),
    ("DESPERATE", ("Town", "Desperate return")),
    ("DOWN_OUT", ("Characters", "Bram", "HP <", "LEFT", "LEFT", "LEFT", "Down & Out >")),
    ("ABIL roll", ("Characters", "Bram", "Abilities", "Roll abilities")),
    ("ABIL retire", ("Characters", "Ada", "Abilities", "Retire", "OK")),
    # Down and Out with no aid by the end of the Turn: a third character dies.
    ("CHAR_ADD", ("Characters", "+ add")),
    ("DAMAGE", ("Characters", "Cass", "Take damage", "Points > 4", "OK")),
    ("DOWN_OUT", ("Characters", "Cass", "Down & Out", "Aid given < no", "OK")),
)

PROCEDURES = (HUNT, PATHS, EXPEDITION)
