"""Every rule system's events, declared: kind, name, arguments with their
ranges, and what each event changes. What `dicetray rules SYSTEM [--json]`
lists, so a keeper, a test or a script can see what the tray can do.

One table per system, and CORE for the campaign's own events (kinds
1..11, in every system) (small tuples; the device never reads this
module, so it is not in the firmware nor in its image). Kind
numbers and names are the system modules' own (KIND_NAMES, the kind
constants); tests/host/test_rules_listing.py checks every entry against
the module: the name is the module's constant for that kind, a sample of
the arguments is accepted by `apply`, one past either end of every range
is refused, and so is a missing or an extra argument.

The tables live here, in the host, not in the rules' hunt.py, paths.py
and expedition.py, because those are imported at boot (the campaign's
system) and this text is read only by the host: on MicroPython every
byte of a loaded .mpy costs about 70 fuel (docs/architecture.md), boot
must not get slower, and the image not larger, for a listing the device
never shows.

An entry: (kind, name, args, optional, dice, changes). `args` are
(name, low, high, meaning); the last `optional` of them may be left out
(oldest forms first: the shorter form keeps the meaning it always had);
optional -1: the arguments repeat (REST: two codes per character).
A reference to a character is -1..7 or 0..7 (MAX_CHARS 8), to a
talisman 0..31 (MAX_TALS 32); the campaign must hold it.
"""

CHAR = 7    # the highest character index (core.MAX_CHARS - 1)
TAL = 31    # the highest talisman index (core.MAX_TALS - 1)
CAP = 64    # the largest capacity (talisman.MAX_CAP)

# The core's events (campaign.py, kinds 1..11), the same in every system.
# A bound of None: the core does not limit it (a talisman's role and its
# two numbers are the system's; nofill is a flag, any non-zero sets it).
CORE = (
    (1, "UNDO", (), 0, "", "the last event not undone is taken back (the device keeps 32)"),
    (2, "REDO", (), 0, "", "the last undone event again, its dice as they fell"),
    (3, "CHAR_ADD", (), 0, "", "a new character (text: the name; at most 8)"),
    (4, "TAL_NEW", (("cap", 1, CAP, "capacity: slashes to fill it"),
                    ("policy", 0, 1, "what a fill does with more slashes: 0 clamp, 1 carry into link"),
                    ("link", -1, TAL, "the talisman a fill slashes, -1 none"),
                    ("role", None, None, "the system's role for it (0: a plain talisman)"),
                    ("owner", -1, CHAR, "the character it belongs to, -1 none"),
                    ("a", None, None, "the role's first number"),
                    ("b", None, None, "the role's second number")), 0, "",
     "a talisman at 0 slashes (text: its name; at most 32)"),
    (5, "SLASH", (("tal", 0, TAL, "the talisman"), ("slashes", 1, CAP, "how many"),
                  ("nofill", None, None, "non-zero: stop one short of filling it")), 0, "",
     "slashes, and what its fills trigger (links, the system's roles)"),
    (6, "UNSLASH", (("tal", 0, TAL, "the talisman"), ("slashes", 1, None, "how many to remove")), 0, "",
     "slashes removed (not below 0)"),
    (7, "CLEAR", (("tal", 0, TAL, "the talisman"),), 0, "", "the talisman's slashes to 0"),
    (8, "TAL_DEL", (("tal", 0, TAL, "the talisman (no other may link to it)"),), 0, "", "the talisman is gone"),
    (9, "TAL_CAP", (("tal", 0, TAL, "the talisman"), ("cap", 1, CAP, "the new capacity")), 0, "",
     "its capacity (its slashes cut to it)"),
    (10, "DICE", (("sides", 2, 100, "sides of each die"), ("n", 1, 20, "dice")), 0, "n dice",
     "nothing: a free roll, its faces and total recorded"),
    (11, "RENAME", (("what", 0, 2, "0 a character, 1 a talisman, 2 the campaign (which: 0)"),
                    ("which", 0, TAL, "its number (a character: 0..7)")), 0, "",
     "the name (text: the new one); the campaign's is its state's end (`dicetray campaigns new "
     "--name` gives it as event 1)"),
)

HUNT = (
    (32, "ROLL", (("who", -1, CHAR, "the exorcist who rolls, -1 none"),
                  ("skill", 0, 3, "skill dice"),
                  ("adv", 0, 3, "advantage dice (the +3D limit)"),
                  ("agony", 0, 1, "1: divine agony, +pathos dice (max 3)"),
                  ("minus", 0, 20, "dice removed"),
                  ("hard", 0, 1, "1: only a 6 succeeds"),
                  ("target", -1, TAL, "a task or the Sin the successes slash, -1 none"),
                  ("grant", -1, CHAR, "a setup roll: on a success, who gets the setup (text: the roll it is for)"),
                  ("setup", -1, TAL, "the roller's setup talisman this roll benefits from (once)")),
     2, "the pool (2 dice if it is 0 or fewer), then triggered 1d3 heals",
     "successes slash the target; a failure gives the roller +1 pathos; agony once a session, one exorcist a scene; "
     "grant: a SETUP talisman for that character; setup: spends it"),
    (33, "RISK", (("who", -1, CHAR, "the acting exorcist, -1 none"),), 0, "1d6, then triggered heals",
     "a 1 slashes tension (first time in a non-combat scene) and the exorcist's hooks"),
    (34, "SCENE_END", (("next_combat", 0, 1, "1: the next scene is a fight"),), 0,
     "1d6 per exorcist at the sin cap, then heals",
     "a non-combat scene slashes tension; sin overflow checks; the per-scene flags reset"),
    (35, "SCENE", (("combat", 0, 1, "1: this scene is a fight"),), 0, "", "marks the current scene"),
    (36, "STRESS", (("who", 0, CHAR, "the exorcist"), ("stress", 1, 30, "stress in one move"),
                    ("answer", 0, 1, "1: expend a trauma answer (-1d3 stress, the Sin takes as much)"),
                    ("defy", 0, 1, "1: defy fate (only when the stress would kill)")), 0,
     "1d3 if answer; 1d6 if defy", "stress, injuries (+1 pathos each), the brink, instant death"),
    (37, "BURST", (("who", 0, CHAR, "the exorcist"), ("substitute", 0, 1, "1: gain 1d3 sin instead")), 0,
     "1d3 if substitute", "a psyche burst spent, or sin gained (cap 10)"),
    (38, "HOOK", (("who", 0, CHAR, "the exorcist (text: the hook)"),), 0, "",
     "a new hook (capacity 3), or a slash on the one of that name"),
    (39, "REST", (("code", 0, 33, "two per character: 0 bursts, 1 stress, 2+t hook t"),), -1,
     "heals from the pressure step, then 2d3 per living exorcist",
     "pressure +1 (and its triggers); each die regains bursts, heals stress or clears hook slashes"),
    (40, "KIT", (("who", 0, CHAR, "the exorcist (text: the item)"), ("points", 1, 5, "kit points spent")), 0,
     "", "kit points"),
    (41, "NEW_HUNT", (("cat", 0, 20, "the Sin's CAT"), ("in_palace", 0, 1, "1: the fight starts in its palace")), 0,
     "", "tension, pressure, the Sin, trauma answers, bursts and kit reset; the hunt's afflictions and setups end"),
    (42, "SESSION_END", (), 0, "", "all pathos lost; divine agony available again"),
    (43, "TRAUMA", (), 0, "", "one trauma question answered (max 3)"),
    (44, "SIN_END", (("spare", 0, 1, "1: spare (all 3 answers), 0: execute"),), 0, "",
     "the Sin's fate; every exorcist keeps half their sin and loses stress, injuries, hooks and the hunt's afflictions"),
    (45, "PALACE", (("inside", 0, 1, "1: the Sin enters its palace, 0: leaves it"),), 0, "",
     "where the Sin is; a new outing counts its own 4 slashes"),
    (46, "WITNESS", (("who", 0, CHAR, "the exorcist"),), 0, "", "+1 pathos"),
    (47, "FACE", (("face", 2, 6, "the success face"),), 0, "", "dice succeed on face+ (hard rolls stay 6)"),
    (48, "AFFLICT", (("who", 0, CHAR, "the exorcist (text: the affliction)"),
                     ("lasting", 0, 1, "1: it outlasts the hunt (\"unless stated otherwise\")")), 0, "",
     "an AFFLICTION talisman and +1 pathos; it ends with the hunt (SIN_END, NEW_HUNT) or a slash"),
)

_PATHS_POOL = (("skill", 0, 6, "Skill"), ("path", 0, 6, "Path"),
               ("situation", -2, 2, "situation modifier dice"),
               ("minus", 0, 20, "negative conditions (dice)"))
_HELP = (("help1", 1, 20, "helper 1's own pool"), ("help2", 1, 20, "helper 2's own pool"))

PATHS = (
    (64, "TEST", (("who", -1, CHAR, "who tests, -1 none (text: the Skill)"),) + _PATHS_POOL +
     (("difficulty", 0, 7, "0 automatic, 1 very easy .. 7 near impossible"),
      ("hidden", 0, 1, "1: hidden difficulty")) + _HELP, 2,
     "helper 1, helper 2, the pool", "nothing: the verdict and margin are the outcome"),
    (65, "OPPOSED", (("who", -1, CHAR, "who tests, -1 none (text: the Skill)"),) + _PATHS_POOL +
     (("opp_pool", 1, 20, "the opponent's dice"), ("initiator", 0, 1, "1: the opponent initiated")) + _HELP, 2,
     "helper 1, helper 2, the pool, the opponent's pool", "nothing: who wins is the outcome"),
    (66, "PRO_OPEN", (("who", -1, CHAR, "whose test, -1 none (text: its name)"),
                      ("difficulty", 1, 64, "successes required"),
                      ("max_attempts", 0, 64, "0 no limit"),
                      ("timeframe", 0, 3, "0 turn (simple), 1 hour, 2 day, 3 week"),
                      ("hidden", 0, 1, "1: the players are not told how long")), 0, "",
     "a PROLONGED talisman"),
    (67, "PRO_ROLL", (("t", 0, TAL, "the prolonged test"),) + _PATHS_POOL + _HELP, 2,
     "helper 1, helper 2, the pool",
     "successes slash the test; it succeeds when full, fails on 0 successes or out of attempts; "
     "during combat only a simple (1 turn) test"),
    (68, "COMBAT", (("on", 0, 1, "1: a fight starts (text: its name), 0: it ends"),), 0, "",
     "a FIGHT talisman while the fight lasts"),
    (69, "PATH", (("who", 0, CHAR, "whose sheet"),
                  ("path", 0, 5, "0 Legacy, 1 Hope, 2 Dogma, 3 Secrets, 4 Fear, 5 Lies"),
                  ("level", 0, 6, "the Path's level"),
                  ("skill1", 0, 6, "its first Skill's level (the seed's table, top down)"),
                  ("skill2", 0, 6, "its second Skill's level"), ("skill3", 0, 6, "its third Skill's level"),
                  ("skill4", 0, 6, "its fourth Skill's level"), ("skill5", 0, 6, "its fifth Skill's level")),
     0, "", "the character's levels in that Path and its Skills (the builder fills a pool from them)"),
)

_EXP_SIDE = (("ability", 0, 14, "Ability 0..10, or a monster's Level 0..14 (foe)"),
             ("bonus", 0, 18, "bonus dice, every source together"),
             ("penalty", 0, 2, "penalty dice"), ("helpers", 0, 7, "helping dice"),
             ("plus_s", 0, 6, "+Ns (widens a success)"), ("minus_s", 0, 6, "-Ns (removed first)"))


def _side(p):
    return tuple((p + a[0], a[1], a[2], a[3]) for a in _EXP_SIDE)


def _fighter(p):
    return ((p + "char", -1, CHAR, "a character, -1 an NPC or a monster"),
            (p + "ability", -1, 14, "Ability (a monster: its Level), -1 helpless"),
            (p + "bonus", 0, 18, "bonus dice"), (p + "penalty", 0, 2, "penalty dice"),
            (p + "plus_s", 0, 6, "+Ns (extra damage)"), (p + "minus_s", 0, 6, "-Ns"))


# TOWN buy's and wealth's optional last argument: what is bought (the
# seed's "specific modification[s]" of buying).
_WHAT = ("what", 0, 3, "0 other, 1 a hireling, 2 a medium or large animal, 3 a building or boat")
_WHAT_DOES = ("the 2nd hireling (animal) this Town Phase +1 Cash, the 3rd +2...; one building or boat a "
              "Town Phase")

EXPEDITION = (
    (96, "TEST", (_EXP_SIDE[0], ("ob", 1, 30, "the Obstacle")) + _EXP_SIDE[1:] +
     (("ext", -1, TAL, "an extended test it counts for, -1 none"),
      ("foe", 0, 1, "1: a monster's test, ability = its Level")), 1,
     "the pool", "an extended test: a slash on a success, a failure counted"),
    (97, "VERSUS", _side("a_") + _side("b_") + (("foes", 0, 3, "bit 0 A, bit 1 B is a monster by its Level"),), 1,
     "A's pool, B's pool", "nothing: the winner and margin are the outcome"),
    (98, "COMBAT", _fighter("a_") + _fighter("b_") +
     (("group", -7, 18, "> 0: A leads that many supporters (+1d each); < 0: A fires into a melee of that many allies (-1d)"),
      ("allies", 0, 255, "bit i: character i is a supporter / engaged ally"),
      ("blocks", 0, 65535, "bits 2i armor, 2i+1 shield of character i"),
      ("threat", 0, 16 * (TAL + 1) + 15, "bit 0 A threatens B, bit 1 B threatens A; bit 2 A, bit 3 B a monster by"
       " Level; bits 4-9 (16 x (t + 1)): side B is tracked foe t, its own dice, its HP takes B's damage")), 0,
     "A's pool, B's pool, then on a stray shot the ally die and 3d6",
     "damage = the margin (+Ns) to the loser it threatens; a tie hurts both 1; blocks, bonus HP, HP, Down and Out;"
     " a tracked foe's HP (out of action, morale prompts)"),
    (99, "DAMAGE", (("char", 0, CHAR, "who"), ("amount", 0, 99, "damage"),
                    ("block", 0, 3, "1 armor, 2 shield, 3 both")), 0, "", "blocks, bonus HP, then HP; 0 HP: down and out"),
    (100, "VAR_DAMAGE", (("char", -1, CHAR, "who, -1 an enemy (reported)"), ("dice", 1, 20, "damage dice"),
                         ("block", 0, 3, "1 armor, 2 shield, 3 both"), ("half", 0, 1, "1: saved for half")), 0,
     "the damage pool", "as DAMAGE, one point a success"),
    (101, "HEAL", (("char", 0, CHAR, "who"), ("amount", 1, 99, "HP")), 0, "", "HP up to max"),
    (102, "BONUS_HP", (("char", 0, CHAR, "who"), ("amount", 1, 99, "bonus HP (the pool stays at most 99)")), 0, "",
     "the bonus HP pool"),
    (103, "BONUS_END", (("char", 0, CHAR, "who"),), 0, "", "the bonus HP pool expires"),
    (104, "SHEET", (("char", 0, CHAR, "who"), ("hp", 0, 99, "HP (at most max)"), ("max_hp", 1, 99, "max HP"),
                    ("res", 0, 99, "class resources (at most max)"), ("max_res", 0, 99, "max class resources"),
                    ("armor", 0, 2, "0 none, 1 light, 2 heavy"), ("shield", 0, 1, "a shield"),
                    ("xp", 0, 9999, "XP")), 0, "", "the character's sheet"),
    (105, "USE_RES", (("char", 0, CHAR, "who"), ("amount", 1, 99, "class resources spent (at most held)"),
                      ("more", 0, 1, "1: a power that may spend more than one a Round")), 1, "",
     "class resources; during a tracked fight (ROUND) one a Round each unless more"),
    (106, "DOWN_OUT", (("char", 0, CHAR, "who"), ("aided", 0, 1, "1 medical aid, 0 none by the end of the Turn")), 0,
     "2d6 per roll owed, a d6 per Trauma", "the Down and Out table (XP, max HP, death)"),
    (107, "SHORT_REST", (("mask", 0, 255, "bit i: character i rests; 0 everyone who can"),
                         ("turn", 0, 1, "1: it occupies an Exploration Turn")), 1,
     "with turn 1: as an exploration TURN", "+1 HP, +1 class resource (twice a day); with turn 1 a turn passes"),
    (108, "LONG_REST", (), 0, "", "all HP, class resources and blocks back; day + 1"),
    (109, "TURN", (("kind", 0, 2, "0 exploration, 2 overland, 1 overland on the countdown"),), 0,
     "a d12 if a check is due, then the per-turn usage dice", "the turn, the encounter and usage countdowns"),
    (110, "SET_FREQ", (("turns", 1, 3, "an encounter check every 1..3 turns"),), 0, "",
     "the encounter frequency; the countdown restarts"),
    (111, "ENC_CHECK", (), 0, "d12", "nothing (an extra check)"),
    (112, "USAGE_NEW", (("sides", 4, 12, "4, 6, 8, 10 or 12"), ("owner", -1, CHAR, "whose, -1 the party's"),
                        ("per_turn", 0, 1, "1: checked on turns (torches)")), 0, "", "a USAGE talisman (text: name)"),
    (113, "USAGE_ROLL", (("t", 0, TAL, "the usage die"),), 0, "one die of its size",
     "a 1-2 steps it down (spent after a d4)"),
    (114, "REACTION", (), 0, "d10", "nothing (aggressive, cautious, friendly)"),
    (115, "MORALE", (("sides", 6, 10, "6, 8 or 10"), ("modifier", -1, 1, "-1..+1")), 0, "one die",
     "nothing (holds on 5+)"),
    (116, "DISTANCE", (), 0, "d6", "nothing (1 extremely close .. 6 very far)"),
    (117, "DESPERATE", (("char", 0, CHAR, "who"),
                        ("cash", 0, 1, "1: a 3 halves the Cash (0, or left out: noted only, as before)")), 1,
     "d6, and a d6 on a 5", "max HP - 2, or death; with cash 1, a 3: Cash halved (the half lost rounded up)"),
    (118, "PROJECT_NEW", (("ticks", 4, 10, "ticks"), ("owner", -1, CHAR, "whose, -1 the party's")), 0, "",
     "a PROJECT talisman (text: name)"),
    (119, "PROJECT_TICK", (("t", 0, TAL, "the project"),), 0, "", "one tick"),
    (120, "EXT_NEW", (("need", 1, 20, "successful tests needed"), ("max_fail", 0, 20, "failures allowed, 0 no limit")),
     0, "", "an EXTENDED talisman (text: name)"),
) + (
    # Kinds with an op (SPELL 124, TOWN 125): one entry per op, its first
    # argument the op (its low and high the same); the name says which.
    (121, "FOE new", (("op", 0, 0, "0: a tracked monster or NPC (text: its name)"),
                      ("level", 0, 20, "a monster's Level 0..14; an NPC's Pool 0..20 dice"),
                      ("tier", 0, 3, "0 monster, 1 elite (+50% HP), 2 legendary (+100% HP), 3 NPC"),
                      ("hp", 0, 64, "Toughness as indicated; 0: 2 + 2 a Level (with the tier's more)"),
                      ("owner", -1, CHAR, "the character whose Follower it is, -1 none")), 0, "",
     "a FOE talisman: cap = Toughness, n = damage taken; its Save = ceil(Level / 2) + 1 (a Follower: refused "
     "while its owner's lost one waits for the next session)"),
    (121, "FOE hit", (("op", 1, 1, "1: damage to a foe (the party's damage result)"),
                      ("foe", 0, TAL, "the FOE talisman"), ("amount", 0, 99, "damage (a combat margin)"),
                      ("dice", 0, 20, "variable damage dice, one point a success"),
                      ("plus_s", 0, 6, "+Ns, added before halving"), ("half", 0, 1, "1: saved for half (round up)")),
     0, "the damage dice", "the foe's HP; 0 HP: out of action; morale prompts (first damage, below 1/3; "
     "a group's first one down, half the side out)"),
    (121, "FOE heal", (("op", 2, 2, "2: HP back"), ("foe", 0, TAL, "the FOE talisman"),
                       ("amount", 1, 64, "HP")), 0, "", "the foe's HP, up to its Toughness"),
    (121, "FOE save", (("op", 3, 3, "3: the foe's test or save"), ("foe", 0, TAL, "the FOE talisman"),
                       ("ob", 1, 30, "the Obstacle (a PC's power: its successes)"),
                       ("bonus", 0, 18, "bonus dice (strengths)"), ("penalty", 0, 2, "penalty dice (weaknesses)")), 0,
     "Level + 3 dice (an NPC: its Pool)", "nothing: the verdict is the outcome"),
    (121, "FOE resist", (("op", 4, 4, "4: a character resists the foe's Move"), ("foe", 0, TAL, "the FOE talisman"),
                         ("ability", 0, 10, "the character's Ability"), ("bonus", 0, 18, "bonus dice"),
                         ("penalty", 0, 2, "penalty dice"), ("helpers", 0, 7, "helping dice")), 0,
     "2 + Ability dice", "nothing: Ob = the foe's Save"),
    (121, "FOE remove", (("op", 5, 5, "5: the foe leaves the fight"), ("foe", 0, TAL, "the FOE talisman")), 0, "",
     "the FOE talisman is deleted"),
    (121, "FOE lost", (("op", 6, 6, "6: a Follower died or departed"),
                       ("foe", 0, TAL, "the FOE talisman (a character's Follower)")), 0, "",
     "the FOE talisman is deleted; its owner's next Follower joins from the next session (TOWN start)"),
    (122, "ROUND next", (("op", 0, 0, "0: a fight starts, or its next round"),), 0, "",
     "a FIGHT talisman (n = the round); one Class Resource a Round each again"),
    (122, "ROUND end", (("op", 1, 1, "1: the fight ends"),), 0, "", "the FIGHT talisman is deleted"),
    (123, "ABIL roll", (("op", 0, 0, "0: roll a new character's Abilities"), ("char", 0, CHAR, "who")), 0,
     "12 d6: 2d6 / 2 rounded down per Ability, Might .. Discipline",
     "an ABILITIES talisman (\"Boons\": n = Boons, 2 to start; a = the six Abilities)"),
    (123, "ABIL swap", (("op", 1, 1, "1: swap two Abilities (creation, once)"), ("char", 0, CHAR, "who"),
                        ("j", 0, 5, "an Ability, 0 Might .. 5 Discipline"), ("k", 0, 5, "the other")), 0, "",
     "the two Abilities"),
    (123, "ABIL improve", (("op", 2, 2, "2: one attempt of Improve an Ability"), ("char", 0, CHAR, "who"),
                           ("ability", 0, 5, "an Ability not yet tried, 0 Might .. 5 Discipline")), 0,
     "2d6", "2d6 / 2 over the base: +1 and a Boon; else it counts as tried (all six: start over)"),
    (123, "ABIL boon", (("op", 3, 3, "3: a Boon gained (text: which)"), ("char", 0, CHAR, "who")), 0, "",
     "the Boons count"),
    (123, "ABIL set", (("op", 4, 4, "4: set the Abilities by hand"), ("char", 0, CHAR, "who"),
                       ("might", 0, 10, "Might"), ("agility", 0, 10, "Agility"), ("presence", 0, 10, "Presence"),
                       ("acuity", 0, 10, "Acuity"), ("knowledge", 0, 10, "Knowledge"),
                       ("discipline", 0, 10, "Discipline")), 0, "", "the six Abilities"),
    (123, "ABIL retire", (("op", 5, 5, "5: the character retires, an NPC now"), ("char", 0, CHAR, "who retires"),
                          ("heir", 0, CHAR, "the new character replacing them (rolled, no improvement yet)"),
                          ("benefit", 0, 2, "0 +1 to Abilities, 1 Businesses, 2 Reputation"),
                          ("pick", 0, 63, "0: a mask of Abilities, one a full five Boons; 1: 0; 2: the Faction")),
     0, "1d8 (Reputation)", "the heir's Abilities, Businesses or a Faction's Reputation; the record retired"),
    (124, "SPELL learn", (("op", 0, 0, "0: learn a spell (text: its name)"), ("char", 0, CHAR, "the sorcerer"),
                          ("ability", 0, 5, "its channeling Ability: 0 Might .. 5 Discipline"),
                          ("ob", 1, 7, "its channeling Ob")), 0, "",
     "a SPELL talisman (owner, a = Ability, b = Ob; a slash = lost until a long rest)"),
    (124, "SPELL channel", (("op", 1, 1, "1: a Channeling Test"), ("spell", 0, TAL, "the SPELL talisman"),
                            ("score", 0, 10, "the sorcerer's score in the spell's Ability"),
                            ("bonus", 0, 18, "bonus dice"), ("penalty", 0, 2, "penalty dice"),
                            ("plus_s", 0, 6, "+Ns"), ("minus_s", 0, 6, "-Ns"),
                            ("taken", 0, 99, "damage already taken while channeling (+1 Ob a point)"),
                            ("atk", -1, 14, "an attacker's Ability (a monster: Level), -1 none: the test is the defence"),
                            ("atk_foe", 0, 1, "1: the attacker is a monster by its Level"),
                            ("atk_bonus", 0, 18, "its bonus dice"), ("atk_penalty", 0, 2, "its penalty dice"),
                            ("atk_plus", 0, 6, "its +Ns (damage)"),
                            ("blocks", 0, 3, "the sorcerer's blocks on the attack: 1 armor, 2 shield")), 6,
     "the pool, the attacker's pool, a d100 on zero successes",
     "one Control spent; Ob = the spell's + 1 a Slot of armor and shield + damage taken; a failure: damage = the "
     "margin, the spell lost; zero successes: a MUTATION talisman"),
    (124, "SPELL mutate", (("op", 2, 2, "2: a random Mutation (text: its name, optional)"),
                           ("char", 0, CHAR, "who mutates")), 0, "d100",
     "a MUTATION talisman (a = the d100)"),
    (124, "SPELL master", (("op", 3, 3, "3: a Spell Mastery Check (text: the spell)"),
                           ("char", 0, CHAR, "the sorcerer"),
                           ("ability", 0, 5, "its channeling Ability: 0 Might .. 5 Discipline"),
                           ("ob", 1, 7, "its channeling Ob (the check's is one more)"),
                           ("score", 0, 10, "the sorcerer's score in that Ability"),
                           ("bonus", 0, 18, "bonus dice (sorcerous materials, understanding)"),
                           ("penalty", 0, 2, "penalty dice")), 0,
     "2 + score dice", "a success: a SPELL talisman, as learn; a failure: a NEVER talisman, and that spell is "
     "refused to the sorcerer from then on"),
    (125, "TOWN start", (("op", 0, 0, "0: a new Town Phase (a session's)"),), 0, "",
     "every character's free purchases, improvement attempts and income roll are available again; hirelings, "
     "animals and a building or boat count afresh; a lost Follower's replacement may join"),
    (125, "TOWN sheet", (("op", 1, 1, "1: set the town statistics"), ("char", 0, CHAR, "who"),
                         ("wealth", 0, 10, "Wealth"), ("cash", 0, 9999, "Cash dice"),
                         ("businesses", 0, 10, "Businesses"), ("circles", 0, 6, "Circles (+Nd)")), 0, "",
     "the character's Wealth, Cash, Businesses and Circles"),
    (125, "TOWN cash", (("op", 2, 2, "2: Cash gained (treasure, a job) or lost"), ("char", 0, CHAR, "who"),
                        ("change", -9999, 9999, "Cash dice (Cash stays 0..9999)")), 0, "", "Cash"),
    (125, "TOWN buy", (("op", 3, 3, "3: a Cash test for a Cost over the Wealth"), ("char", 0, CHAR, "who"),
                       ("cost", 1, 40, "the Cost (Ob = Cost - Wealth, 1..30)"),
                       ("dice", 1, 60, "Cash dice wagered (spent; at most held)"), _WHAT), 1,
     "the wagered dice", "Cash - the dice; verdict: bought or not; bought: " + _WHAT_DOES),
    (125, "TOWN wealth", (("op", 4, 4, "4: a Wealth purchase"), ("char", 0, CHAR, "who"),
                          ("cost", 0, 10, "the Cost, at most the Wealth"), _WHAT), 1, "",
     "purchases this Town Phase + 1: three free, then +1 Cash cumulative (the 4th 1, the 5th 2...); "
     + _WHAT_DOES),
    (125, "TOWN sell", (("op", 5, 5, "5: sell assets, call in debts"), ("char", 0, CHAR, "who"),
                        ("points", 1, 10, "Wealth points sold (at most held)")), 0, "",
     "Wealth - points; Cash + twice each former rating"),
    (125, "TOWN income", (("op", 6, 6, "6: the Businesses roll, once a session"), ("char", 0, CHAR, "who")), 0,
     "Businesses dice", "Cash + the successes"),
    (125, "TOWN improve", (("op", 7, 7, "7: wager Cash on a Town Ability, once a session each"),
                           ("char", 0, CHAR, "who"),
                           ("which", 0, 3, "0 Circles, 1 Wealth, 2 Businesses, 3 Stronghold (the company's)"),
                           ("dice", 1, 60, "Cash dice wagered (spent)")), 0, "the wagered dice",
     "Cash - the dice; on a success against the table's Ob, the rank + 1 (a STRONGHOLD talisman)"),
    (125, "TOWN circles", (("op", 8, 8, "8: a Circles check"), ("char", 0, CHAR, "who"),
                           ("presence", 0, 10, "Presence"), ("ob", 1, 30, "the Ob from the Circles Factors"),
                           ("faction", -1, TAL, "a FACTION whose Reputation adds +1d a point, -1 none"),
                           ("bonus", 0, 18, "other bonus dice"), ("penalty", 0, 2, "penalty dice")), 0,
     "2 + Presence + Circles + Reputation + bonus - penalty dice (up to 46: past a pool's 20)",
     "nothing (failed by 3+: the Enmity Clause)"),
    (125, "TOWN repute", (("op", 9, 9, "9: Reputation with a Faction changes"),
                          ("faction", -1, TAL, "the FACTION talisman, -1 a new one (text: its name)"),
                          ("change", -20, 20, "points (the score stays -10..10)")), 0, "",
     "a FACTION talisman's Reputation"),
    (125, "TOWN recognize", (("op", 10, 10, "10: is a member recognized?"),
                             ("faction", 0, TAL, "the FACTION talisman")), 0, "d12",
     "nothing (recognized on a d12 at most the Reputation)"),
    (125, "TOWN downtime", (("op", 11, 11, "11: the character's Downtime Action (text: what)"),
                            ("char", 0, CHAR, "who")), 0, "",
     "the Town Phase's one Downtime Action used (a project it advances: PROJECT_TICK)"),
    (125, "TOWN goods", (("op", 12, 12, "12: sell a good by dice (text: the good, optional)"),
                         ("char", 0, CHAR, "who"), ("cost", 1, 40, "the good's Cost, over the Wealth")), 0,
     "Cost - Wealth dice", "Cash + the successes"),
)

TABLES = (HUNT, PATHS, EXPEDITION)


def listing(system):
    """The events of system 0..2, the core's first, as dicts (for the
    host's listing and JSON; "core": true on the core's; a bound the core
    does not set is None)."""
    out = []
    for kind, name, args, opt, dice, changes in CORE + TABLES[system]:
        n = len(args)
        out.append({
            "kind": kind, "name": name, "core": kind < 32,
            "args": [{"name": a[0], "min": a[1], "max": a[2], "means": a[3],
                      "optional": opt > 0 and i >= n - opt} for i, a in enumerate(args)],
            "repeats": opt < 0, "dice": dice, "changes": changes})
    return out


def entry(system, name):
    """The entry of event `name` ("SLASH", "ROLL", "FOE hit") in system 0..2:
    the core's or the system's."""
    for e in CORE + TABLES[system]:
        if e[1] == name:
            return e
    raise ValueError("%s is not an event of system %d" % (name, system))


def args(system, name, **values):
    """(kind, arguments) of event `name` from its arguments by name, in the
    order the table gives: what a host builds an action with, so no caller
    counts positions. The table's optional last arguments may be left out
    (not one before another that is given); ValueError names a missing or
    unknown argument."""
    kind, _name, spec, opt, _dice, _changes = entry(system, name)
    names = [a[0] for a in spec]
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise ValueError("%s takes %s, not %s" % (name, ", ".join(names), ", ".join(unknown)))
    out = []
    for i, n in enumerate(names):
        if n in values:
            out.append(values[n])
            continue
        if opt > 0 and i >= len(names) - opt and not any(m in values for m in names[i:]):
            break
        raise ValueError("%s needs its argument %s" % (name, n))
    return kind, tuple(out)


class Args(tuple):
    """An event's arguments, by position as recorded and by the names its
    table entry gives: `a.who`, `a.skill`; an optional one left out reads
    as None. `given(*names)`: the values of those that are there."""

    names = ()   # the entry's argument names (set on each instance)

    def __new__(cls, names, values):
        t = tuple.__new__(cls, values)
        t.names = names
        return t

    def __getattr__(self, name):
        try:
            i = self.names.index(name)
        except ValueError:
            raise AttributeError("no argument %s (the event takes %s)"
                                 % (name, ", ".join(self.names))) from None
        return self[i] if i < len(self) else None

    def given(self, *names):
        return [v for v in (getattr(self, n) for n in names) if v is not None]


def _entry_of(system, kind, values):
    """The entry of a recorded event `kind` with arguments `values` in
    system 0..2: where several share the kind (FOE's ops), the one whose
    first argument's range holds values[0]; None if the table has none."""
    found = None
    for e in CORE if kind < 32 else TABLES[system]:
        if e[0] == kind:
            found = found or e
            spec = e[2]
            if spec and values and spec[0][1] <= values[0] <= spec[0][2]:
                return e
    return found


def named(system, kind, values):
    """Args of event `kind` in system 0..2 (the entry whose first
    argument's range holds values[0] where several share the kind: FOE's
    ops); positions only (no names) for a kind the table does not list."""
    found = _entry_of(system, kind, values)
    names = [a[0] for a in found[2]] if found else []
    return Args(names, values)


def name(system, kind, values):
    """The name of a recorded event as the table gives it ("ROLL", "FOE
    hit"), or "kind N" for one it does not list."""
    found = _entry_of(system, kind, values)
    return found[1] if found else "kind %d" % kind


# --- Labels: the trackers in the rules' words ----------------------------
# The state's field names (each system's COUNTERS and CHAR_FIELDS, a
# talisman's n, cap, policy, link, role, owner, a and b) are identifiers, for
# code and the JSON export. A player reads these words instead, the rules'
# own (the seed texts, docs/rules/*.md): `dicetray watch`, `backups show` and
# `diff`, the hub's page and the CSV export (host/dicetray/campaign/tracked.py says
# them). Host only, as the tables above.
#
# A label is (words, reading): the reading None is the number itself; YES:
# 0 no, 1 yes; WHO: a character's name, -1 nobody; TAL: a talisman's name, -1
# none; a tuple: the words for 0, 1, ... (a number past its end as the
# number); a string: the number put in it with %d. A field whose label is
# None is not shown (its number is in the JSON export and the state).
# tests/host/test_labels.py: every field of every system has a label.

YES = "yes"
WHO = "who"
TAL = "tal"

# Campaign counters, by system (its COUNTERS).
COUNTER_LABELS = (
    {   # hunt
        "face": ("dice succeed on", "%d+"),
        "scene": ("scene", None),
        "combat": ("this scene", ("no fight", "a fight")),
        "risk_tension": ("a risk die slashed tension this scene", YES),
        "agony_user": ("divine agony this scene", WHO),
        "answered": ("trauma questions answered", None),
        "expended": ("trauma answers expended", None),
        "palace": ("the Sin", ("outside its palace", "in its palace")),
        "outcome": ("the Sin's fate", ("active", "executed", "spared")),
        "session": ("session", None),
        "hunt": ("hunt", None),
        "risk": ("last risk die", ("none",)),
    },
    {},  # paths keeps no counters
    {   # expedition
        "turn": ("turn", None),
        "turn_kind": ("last turn", ("exploration", "overland on the countdown", "overland")),
        "freq": ("encounter checks", ("never", "every turn", "every 2 turns", "every 3 turns")),
        "enc_left": ("turns to the next encounter check", None),
        "use_left": ("exploration turns to the next usage check", None),
        "day": ("day", None),
    },
)

# Character fields, by system (its CHAR_FIELDS).
CHAR_LABELS = (
    {   # hunt
        "injuries": ("injuries", None),
        "sin": ("sin", None),
        "marks": ("sin marks", None),
        "bursts": ("psyche bursts", None),
        "pathos": ("pathos", None),
        "kit": ("kit points", None),
        "agony_used": ("divine agony used this session", YES),
        "dead": ("dead", YES),
        "brink": ("on the brink of death", YES),
        "check": ("last sin overflow check", ("none",)),
    },
    {},  # paths keeps no character fields
    {   # expedition
        "hp": ("HP", None),
        "max_hp": ("max HP", None),
        "bonus_hp": ("bonus HP", None),
        "res": ("Class Resources", None),
        "max_res": ("max Class Resources", None),
        "armor": ("armor", ("none", "light", "heavy")),
        "shield": ("shield", YES),
        "spent": ("blocks used today", ("none", "armor", "shield", "armor and shield")),
        "xp": ("XP", None),
        "dead": ("dead", YES),
        "rests": ("short rests today", None),
        "down": ("Down and Out rolls owed", None),
    },
)

# A talisman's fields (talisman.py), the same in every system; `role`, `a`
# and `b` read by ROLE_LABELS.
TAL_LABELS = {
    "n": ("slashes", None),
    "cap": ("capacity", None),
    "policy": ("when it fills", ("it stops", "it carries into its link")),
    "link": ("carries into", TAL),
    "role": ("what it is", None),
    "owner": ("belongs to", WHO),
}

# Each system's talisman roles: role -> (what it is, label of a, label of
# b); a or b None: the role leaves it spare (it reads "spare number 1/2").
_PLAIN = ("a talisman", None, None)
ROLE_LABELS = (
    {   # hunt (hunt.py ROLE_*, hunt_more.py)
        0: ("a task", None, None),
        1: ("tension", None, None),
        2: ("pressure", None, None),
        3: ("the Sin", ("its CAT", None),
            ("slashes taken outside its palace this outing", None)),
        4: ("stress", None, None),
        5: ("a hook", None, None),
        6: ("an affliction", ("it outlasts the hunt", YES), None),
        7: ("a setup", None, None),
    },
    {   # paths (paths.py PROLONGED, paths_more.py FIGHT)
        0: _PLAIN,
        1: ("a prolonged test", ("attempts made (+128 once it failed)", None),
            ("its attempts, timeframe and hidden flag, packed", None)),
        2: ("a fight", None, None),
    },
    {   # expedition (expedition.py, _foes, _spells, _town, _chars)
        0: _PLAIN,
        1: ("a usage die", ("its first die", "d%d"), ("checked on turns", YES)),
        2: ("a project", None, None),
        3: ("an extended test", ("failures allowed (0 no limit)", None), ("failures", None)),
        8: ("a spell", ("its Ability", ("Might", "Agility", "Presence", "Acuity", "Knowledge",
                                        "Discipline")), ("its Ob", None)),
        9: ("a mutation", ("its d100", None), None),
        10: ("a Faction", ("Reputation", None), None),
        11: ("the Stronghold", None, None),
        12: ("a spell never to be learned (a failed Spell Mastery Check)", None, None),
        16: ("a foe", ("its Level (an NPC: its Pool) + 32 a tier", None), None),
        17: ("the fight", ("who spent a Class Resource this Round (bit a character)", None),
             None),
        18: ("Abilities and Boons", ("the six Abilities, 4 bits each from Might", None),
             ("the improvement under way, packed", None)),
    },
)
SPARE = ("spare number 1", "spare number 2")
