"""The device's own screens for what the rules core does (runs under
pytest and on MicroPython): each test presses keys
from the home screen to the screen and ends in the event journaled.
Foes: an NPC (its Pool and HP as given), a monster's HP from a bestiary
entry, a Follower. Town: the town sheet, Recognize. Abilities: swap any
two, set them by hand. A sheet's class resources: spend more than one.
hunt: afflictions, setups in the builder; paths: a fight."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from rules import campaign as cp, codec, expedition as ex, hunt, hunt_more as hm
from rules import expedition_foes as ef, expedition_town as tw, expedition_chars as ec
from rules import paths_more as pm
from ui import hunt_more as uhm
from ui.screen import lr
from fakeapp import make, press


def _last(s):
    """(kind, args, faces, text) of the newest event journaled."""
    return codec.decode_event(s.log[-1])


def _campaign(system, *names):
    """The app on a new campaign of `system` with characters `names`."""
    a, b, s = make(system)
    for n in names:
        s.do(cp.CHAR_ADD, (), n)
    return a, b, s


def _expedition(*names):
    return _campaign(2, *names)


# --- Foes --------------------------------------------------------------
def test_a_new_npc_takes_its_pool_and_its_hp_as_given():
    a, b, s = _expedition()
    press(a, K_UP, K_OK, K_OK)                      # Foes > + new foe
    rows = press(a, K_DOWN, K_LEFT)                 # tier: monster, the first: it stays
    assert rows[2] == lr("Tier", "<monster>")
    rows = press(a, K_RIGHT, K_RIGHT, K_RIGHT)      # elite, legendary, NPC
    assert rows[2] == lr("Tier", "<NPC>") and rows[1] == lr("Pool", "<1>")
    rows = press(a, K_UP, K_RIGHT, K_RIGHT, K_RIGHT)  # Pool 4
    assert rows[1] == lr("Pool", "<4>") and rows[6] == "HP 4 Pool 4d"
    rows = press(a, K_DOWN, K_DOWN, K_RIGHT, K_RIGHT)   # HP 4 -> 6
    assert rows[3] == lr("HP", "<6>") and rows[6] == "HP 6 Pool 4d"
    rows = press(a, K_OK)
    kind, args, _f, text = _last(s)
    assert kind == ef.FOE and args == [ef.OP_NEW, 4, ef.NPC, 6, -1] and text == "NPC 1"
    assert rows[3] == lr("NPC 1", "6/6")             # below + new foe and Next round
    assert rows[6:] == ["NPC 1: NPC 4d,", "HP 6"]
    rows = press(a, K_DOWN, K_DOWN, K_OK)           # the NPC: its Pool, no Save
    assert rows[1:4] == ["4d NPC", lr("HP", "6/6"), "Pool 4d"]


def test_a_new_npc_never_asks_for_hp_by_the_formula():
    # "Non-player characters have Toughness (Hit Points) as indicated": HP
    # stays 1..64 for an NPC (Left stops at 1, never `auto`).
    a, b, s = _expedition()
    press(a, K_UP, K_OK, K_OK, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT, K_DOWN)
    rows = press(a, *(K_LEFT,) * 4)                 # 4, 3, 2, 1, then 1 again (not auto)
    assert rows[3] == lr("HP", "<1>")
    press(a, K_OK)
    assert _last(s)[1] == [ef.OP_NEW, 1, ef.NPC, 1, -1]


def test_a_monster_takes_its_hp_from_a_bestiary_entry():
    a, b, s = _expedition()
    press(a, K_UP, K_OK, K_OK, K_RIGHT)             # Level 2: HP 6 by the formula
    rows = press(a, K_DOWN, K_RIGHT, K_DOWN)        # elite: 9
    assert rows[3] == lr("HP", "<auto>") and rows[6] == "HP 9 Save 2"
    rows = press(a, *(K_RIGHT,) * 7)                # the bestiary's 7 (taken as is)
    assert rows[3] == lr("HP", "<7>") and rows[6] == "HP 7 Save 2"
    rows = press(a, K_OK)
    assert _last(s)[1] == [ef.OP_NEW, 2, ef.ELITE, 7, -1]
    assert rows[3] == lr("Foe 1", "7/7")


def test_a_follower_belongs_to_its_character():
    a, b, s = _expedition("Ada", "Bram")
    press(a, K_UP, K_OK, K_OK)
    rows = press(a, K_UP, K_RIGHT, K_RIGHT)         # Follows: Ada, then Bram
    assert rows[4] == lr("Follows", "Bram")
    rows = press(a, K_OK)
    kind, args, _f, text = _last(s)
    assert args == [ef.OP_NEW, 1, 0, 0, 1] and text == "Follower 1"
    t = ef.foes(s.c)[0]
    assert s.c.tals[t].owner == 1
    assert rows[0] == "OUTCOME"                     # its note, three rows: a page
    rows = press(a, K_OK, K_DOWN, K_DOWN, K_OK)     # read; the foe: whose, in the title
    assert rows[0] == lr("Follower 1", "Bram")


# --- Town ---------------------------------------------------------------
def _town(a):
    press(a, *(K_DOWN,) * 6)
    return press(a, K_OK)


def test_the_town_sheet_sets_starting_circles_and_businesses():
    # A new character's Boons on Circles and Businesses: Town > Town sheet
    # (Up from the top: the last row).
    a, b, s = _expedition("Ada")
    _town(a)
    rows = press(a, K_UP, K_OK)
    assert rows[0] == lr("Ada", "TOWN SHEET") and rows[7] == "OK: set"
    press(a, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT)   # Wealth 2, Cash 3
    rows = press(a, K_DOWN, K_RIGHT, K_DOWN, K_RIGHT, K_RIGHT)      # Businesses 1, Circles 2
    assert rows[3] == lr("Businesses", "<1>") and rows[4] == lr("Circles", "<2>")
    rows = press(a, K_OK)
    kind, args, _f, _t = _last(s)
    assert kind == tw.TOWN and args == [tw.SHEET, 0, 2, 3, 1, 2]
    assert rows[0] == "OUTCOME"                     # its note: more than Town's toast row
    rows = press(a, K_OK)
    assert rows[:4] == ["TOWN     < Ada >", "Wealth 2  Cash 3", "Businesses 1", "Circles 2"]
    rows = press(a, K_OK)                           # it starts from the values now
    assert rows[1] == lr("Wealth", "<2>") and rows[4] == lr("Circles", "<2>")


def test_recognize_rolls_a_d12_against_a_faction():
    a, b, s = _expedition("Ada")
    s.do(tw.TOWN, (tw.REPUTE, -1, 4), "Guild")
    t = tw.factions(s.c)[0]
    _town(a)
    rows = press(a, K_UP, K_UP, K_OK)               # Recognize
    assert rows[0] == "RECOGNIZE" and rows[1] == lr("Faction", "Guild")
    assert rows[6] == "Reputation 4"
    rows = press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert kind == tw.TOWN and args == [tw.RECOGNIZE, t] and len(faces) == 1
    assert rows[0] == ("RECOGNIZED" if faces[0] <= 4 else "NOT RECOGNIZED")
    rows = press(a, K_OK)                           # in the form's place: Town
    assert a.top().__class__.__name__ == "Town"


def test_recognize_without_a_faction_says_how_to_get_one():
    a, b, s = _expedition("Ada")
    _town(a)
    rows = press(a, K_UP, K_UP, K_OK)
    assert rows[0] == "RECOGNIZE" and "Reputation" in " ".join(rows)
    assert not s.log[1:]                            # nothing journaled


# --- Abilities -----------------------------------------------------------
def _abilities(a):
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK)    # Characters > the first
    return press(a, K_UP, K_UP, K_OK)               # Abilities, just above Rename


def test_swap_any_two_abilities():
    # Might and Knowledge: a pair the old Right (swap with the next) never reached.
    a, b, s = _expedition("Ada")
    s.do(ec.ABIL, (ec.OP_SET, 0, 1, 2, 3, 4, 5, 6))
    _abilities(a)
    rows = press(a, K_RIGHT)                        # on Might: the swap form
    assert rows[0] == lr("Ada", "SWAP") and rows[1] == lr("Swap", "Might")
    assert rows[2] == lr("With", "Agility") and rows[6] == "scores 1 <> 2"
    rows = press(a, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT)
    assert rows[2] == lr("With", "Knowledge") and rows[6] == "scores 1 <> 5"
    rows = press(a, K_OK)
    kind, args, _f, _t = _last(s)
    assert kind == ec.ABIL and args == [ec.OP_SWAP, 0, 0, 4]
    rec = s.c.tals[ec.record(s.c, 0)]
    assert [ec.get(rec, k) for k in range(6)] == [5, 2, 3, 4, 1, 6]
    assert rows[0] == "OUTCOME"                     # the six Abilities: a page of notes
    rows = press(a, K_OK)
    assert rows[1] == lr("Might", "5 ").rstrip() and rows[0].endswith("ABILITIES")


def test_every_pair_of_abilities_is_reachable():
    # Each of the 30 ordered pairs from the Abilities screen, each swap
    # undone (long Back) before the next: the swap is once a character.
    from fakeapp import long
    a, b, s = _expedition("Ada")
    s.do(ec.ABIL, (ec.OP_SET, 0, 1, 2, 3, 4, 5, 6))
    _abilities(a)
    for j in range(6):
        for k in range(6):
            if j == k:
                continue
            press(a, K_RIGHT, K_DOWN)
            k0 = (j + 1) % 6                        # With starts at the next; it stops at the ends
            press(a, *((K_RIGHT,) * (k - k0) if k > k0 else (K_LEFT,) * (k0 - k)))
            press(a, K_OK, K_OK)                    # swapped, its notes read
            assert _last(s)[1] == [ec.OP_SWAP, 0, j, k] and a.top().menu.sel == j
            long(a, K_BACK)
        press(a, K_DOWN)


def test_set_an_ability_by_hand():
    # A relic or a Mutation changes an Ability: Set by hand, below them.
    a, b, s = _expedition("Ada")
    s.do(ec.ABIL, (ec.OP_SET, 0, 1, 2, 3, 4, 5, 6))
    _abilities(a)
    rows = press(a, *(K_DOWN,) * 6)
    assert rows[0].endswith("ABILITIES") and "Set by hand" in rows
    rows = press(a, K_OK)
    assert rows[0] == lr("Ada", "SET") and rows[3] == lr("Presence", "<3>")
    press(a, K_DOWN, K_DOWN, K_RIGHT, K_RIGHT)      # Presence 3 -> 5
    press(a, K_OK)
    kind, args, _f, _t = _last(s)
    assert kind == ec.ABIL and args == [ec.OP_SET, 0, 1, 2, 5, 4, 5, 6]


def test_set_by_hand_before_any_roll():
    a, b, s = _expedition("Ada")
    rows = _abilities(a)
    assert rows[1] == "Roll abilities" and rows[2] == "Set by hand"
    rows = press(a, K_DOWN, K_OK)
    assert rows[1] == lr("Might", "<3>")            # 3 each to start with
    press(a, K_LEFT, K_OK)
    assert _last(s)[1] == [ec.OP_SET, 0, 2, 3, 3, 3, 3, 3]


# --- class resources -------------------------------------------------------
def test_spend_more_than_one_class_resource():
    a, b, s = _expedition("Ada")
    s.do(ex.SHEET, (0, 4, 4, 3, 3, 0, 0, 0))
    s.do(ef.ROUND, (ef.OP_NEXT,))                   # a tracked fight: one a Round...
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK)    # Characters > Ada
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_OK)   # res: OK spends any number
    assert rows[0] == lr("Ada", "CR 3/3") and rows[1] == lr("Spend", "<1>")
    rows = press(a, K_RIGHT, K_DOWN, K_RIGHT)       # 2, ...unless the power says so
    assert rows[2] == lr("More/Round", "<yes>")
    press(a, K_OK)
    kind, args, _f, _t = _last(s)
    assert kind == ex.USE_RES and args == [0, 2, 1]
    assert s.c.chars[0].v[ex.RES] == 1 and a.top().menu.items[3] == lr("CR", "<1 ")


def test_spend_two_without_more_is_the_short_form():
    a, b, s = _expedition("Ada")
    s.do(ex.SHEET, (0, 4, 4, 3, 3, 0, 0, 0))
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK, K_DOWN, K_DOWN, K_DOWN, K_OK)
    press(a, K_RIGHT, K_OK)                         # 2, and More/Round left at no
    assert _last(s)[1] == [0, 2]


# --- hunt afflictions and setups, paths' fight ---------------------------------
def test_afflict_an_exorcist_and_cure_it():
    a, b, s = _campaign(0, "Ada")
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK)    # Characters > Ada
    rows = press(a, K_UP, K_UP)
    assert a.top().menu.items[-2:] == ["Afflictions", "Rename"]
    rows = press(a, K_OK)
    assert rows[0] == lr("Ada", "AFFLICTIONS") and rows[1:3] == ["+ for the hunt", "+ lasting"]
    rows = press(a, K_DOWN, K_OK)                   # + lasting
    kind, args, _f, text = _last(s)
    assert kind == hm.AFFLICT and args == [0, 1] and text == "Affliction 1"
    assert rows[0] == "OUTCOME"                     # its note: three rows
    rows = press(a, K_OK)
    assert rows[1] == lr("Afflicti", "lasting") and rows[3] == "+ lasting"
    assert s.c.chars[0].v[hunt.PATHOS] == 1
    t1 = hm.tals(s.c, hm.ROLE_AFFLICTION, 0)[0]
    press(a, K_UP, K_OK, K_OK)                      # + for the hunt; its note read
    assert _last(s)[1] == [0, 0] and _last(s)[3] == "Affliction 2"
    press(a, K_UP, K_UP, K_OK)                      # Affliction 1: cured
    rows = press(a, K_OK)                           # its notes read
    kind, args, _f, _t = _last(s)
    assert kind == cp.SLASH and args == [t1, 1, 0]
    t = hm.tals(s.c, hm.ROLE_AFFLICTION, 0)
    assert len(t) == 1 and s.c.tals[t[0]].name == "Affliction 2"
    assert rows[1] == "Affliction 2"


def test_a_setup_roll_and_a_roll_that_uses_it():
    a, b, s = _campaign(0, "Ada", "Bram")
    assert uhm._SETUP == hm.ROLE_SETUP
    rows = press(a, K_OK, K_RIGHT)                  # builder, who: Ada
    rows = press(a, *(K_DOWN,) * 7)                 # Setup for
    assert rows[6] == lr("Setup for", "-")
    rows = press(a, K_RIGHT, K_RIGHT)
    assert rows[6] == lr("Setup for", "Bram")
    press(a, K_ROLL)
    kind, args, faces, _t = _last(s)
    assert kind == hunt.ROLL and args == [0, 0, 0, 0, 0, 0, -1, 1]
    # A granted setup (the faces as a hand roll: a success), then Bram uses it.
    s.do(hunt.ROLL, (0, 1, 0, 0, 0, 0, -1, 1), "", (6,))
    st = hm.tals(s.c, hm.ROLE_SETUP, 1)[-1]
    press(a, K_BACK)                                # the result, back on the builder
    rows = press(a, *(K_UP,) * 7, K_RIGHT)          # who: Bram
    assert rows[1] == lr("Who", "Bram")
    rows = press(a, *(K_DOWN,) * 7, K_LEFT, K_LEFT)  # Setup for: Ada, then none again
    assert rows[6] == lr("Setup for", "-")
    rows = press(a, K_DOWN, K_RIGHT)                # Uses: Bram's setup
    assert rows[6] == lr("Uses", "Setup")
    press(a, K_ROLL)
    kind, args, _f, _t = _last(s)
    assert kind == hunt.ROLL and args == [1, 0, 0, 0, 0, 0, -1, -1, st]
    assert s.c.tals[st] is None                     # spent
    rows = press(a, K_ROLL)                         # again: without the spent setup
    assert rows[0].startswith("RESULT") and _last(s)[1] == [1, 0, 0, 0, 0, 0, -1]
    assert a.pool.v["setup"] == -1


def test_the_hunt_builder_keeps_the_short_roll():
    # Without a setup the builder's ROLL is the 7-argument form it always was.
    p = uhm.Pool()
    c = cp.Campaign(0, cid=1)
    assert len(p.action(c)[1]) == 7
    assert p.take(hunt.ROLL, [0, 1, 0, 0, 0, 0, -1, 1, 3]) and p.v["grant"] == 1 and p.v["setup"] == 3
    assert p.take(hunt.ROLL, [0, 1, 0, 0, 0, 0, -1]) and p.v["grant"] == p.v["setup"] == -1


def test_a_paths_fight_starts_and_ends_from_home():
    a, b, s = make(1)
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN)
    assert rows[7] == "Fight" and b.display.inv[7]
    rows = press(a, K_OK)
    assert rows[0] == "FIGHT" and rows[1] == "no fight" and rows[2] == "Fight starts"
    rows = press(a, K_OK)
    kind, args, _f, _t = _last(s)
    assert kind == pm.COMBAT and args == [1] and pm.in_combat(s.c) >= 0
    assert rows[0] == "OUTCOME" and rows[1] == "Combat starts:"   # the note: a page
    rows = press(a, K_OK)
    assert rows[1] == "Combat under way"
    press(a, K_UP)                                  # Fight starts is the first row: it stays
    assert a.top().menu.sel == 0
    press(a, K_DOWN, K_OK)
    assert _last(s)[1] == [0] and pm.in_combat(s.c) == -1
