"""expedition's procedures on the device's own keys (runs under pytest
and on MicroPython), the sheet and the clocks: each test presses
keys from the home screen, reads the screens and ends in the event
journaled. The sheet set by hand (SHEET), one blow of N with blocks
(DAMAGE), damage dice saved for half (VAR_DAMAGE), Down and Out without
aid; a long rest, usage dice, the encounter rate, extended tests and
projects. The builder, combat and Foes: test_screens_expedition_combat.py.

One app for the whole file (many App instances in one MicroPython test
VM can crash it, and so can one file's too many screens: two files): each
test starts on home with the campaign undone back to Ada and Bram."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from rules import expedition as ex
from rules import expedition_spells as sp
from ui.screen import lr
from fakeapp import press
from expedition_app import on_home, last_event, selected, to_row, char_v, hits, verdict

_APP = []


def _app():
    """This file's one app, on home (expedition_app.on_home)."""
    return on_home(_APP)


def _sheet(a, who="Ada"):
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK)          # Characters
    to_row(a, who)
    return press(a, K_OK)


# --- the sheet ------------------------------------------------------------------
def test_the_sheet_sets_hp_class_resources_armor_shield_and_xp():
    a, s = _app()
    _sheet(a)
    to_row(a, "Set the sheet")
    rows = press(a, K_OK)
    assert rows[0] == lr("Ada", "SHEET") and rows[1] == lr("Max HP", "<4>")
    assert rows[2] == lr("HP", "<4>") and rows[3] == lr("Max CR", "<0>")
    assert rows[5] == lr("Armor", "<none>") and rows[6] == "CR: Control etc"
    assert rows[7] == "OK: set"
    press(a, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT, K_RIGHT)     # max HP 6, HP 6
    rows = press(a, K_DOWN, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT)   # max CR 2, CR 1
    assert rows[3] == lr("Max CR", "<2>") and rows[4] == lr("CR", "<1>")
    rows = press(a, K_DOWN, K_RIGHT, K_DOWN, K_RIGHT, K_DOWN, K_RIGHT)   # light, shield, 1 XP
    assert a.top().menu.items[4:] == [lr("Armor", "<light>"), lr("Shield", "<yes>"),
                                      lr("XP", "<1>")]
    press(a, K_OK)
    kind, args, _f, _t = last_event(s)
    assert kind == ex.SHEET and args == [0, 6, 6, 1, 2, 1, 1, 1]
    assert a.top().menu.items[0] == lr("HP", "<6>")            # back on the sheet
    # A sorcerer channels from a fresh campaign: the Control is there.
    s.do(sp.SPELL, (sp.LEARN, 0, 4, 2), "Miasma")
    press(a, K_BACK, K_BACK, *(K_DOWN,) * 5 + (K_OK, K_OK))   # Spells > Miasma
    rows = press(a, K_OK)
    assert last_event(s)[0] == sp.SPELL and last_event(s)[1][:2] == [sp.CHANNEL, 0]
    assert rows[0] == lr("RESULT", "channel") and char_v(s)[ex.RES] == 0


def test_the_sheet_form_keeps_hp_and_cr_within_their_maximum():
    a, s = _app()
    _sheet(a)
    to_row(a, "Set the sheet")
    press(a, K_OK)
    rows = press(a, K_LEFT, K_LEFT)                  # max HP 2: HP follows it down
    assert rows[1] == lr("Max HP", "<2>") and rows[2] == lr("HP", "<2>")
    press(a, K_OK)
    assert last_event(s)[1][:3] == [0, 2, 2]


# --- one blow of N, blocks, damage dice -------------------------------------------
def test_a_five_point_blow_on_four_hp_owes_one_down_and_out_roll():
    # "Roll again on the table for each separate time that you take damage
    # while unconscious": one blow, one instance, one roll owed.
    a, s = _app()
    _sheet(a)
    to_row(a, "Take damage")
    rows = press(a, K_OK)
    assert rows[0] == lr("Ada", "HP 4/4") and rows[1] == lr("Points", "<1>")
    assert rows[2] == lr("Use armor", "none") and rows[3] == lr("Use shield", "none")
    rows = press(a, *(K_RIGHT,) * 4)
    assert rows[1] == lr("Points", "<5>") and rows[6] == "HP 4 -> 0 DOWN"
    assert rows[7] == "OK: take it"
    rows = press(a, K_OK)
    kind, args, _f, _t = last_event(s)
    assert kind == ex.DAMAGE and args == [0, 5, 0]
    assert char_v(s)[ex.HP] == 0 and char_v(s)[ex.DOWN] == 1
    assert rows[0] == "DAMAGE" and "DOWN AND OUT" in " ".join(rows)


def test_armor_and_a_shield_block_one_blow_once_a_day():
    # "Each set of armor and each shield may be activated once per day ...
    # to reduce the damage taken by the Block rating"; their whole Block.
    a, s = _app()
    s.do(ex.SHEET, (0, 8, 8, 0, 0, 2, 1, 0))          # heavy armor (4), a shield (2)
    _sheet(a)
    to_row(a, "Take damage")
    press(a, K_OK, *(K_RIGHT,) * 6)                  # 7 points
    rows = press(a, K_DOWN, K_RIGHT, K_DOWN, K_RIGHT)
    assert rows[2] == lr("Use armor", "<yes>") and rows[3] == lr("Use shield", "<yes>")
    assert rows[6] == "HP 8 -> 7"                    # 7 - 4 - 2
    press(a, K_OK)
    assert last_event(s)[1] == [0, 7, 3] and char_v(s)[ex.HP] == 7 and char_v(s)[ex.SPENT] == 3
    press(a, K_OK)                                   # the message closed: the sheet
    to_row(a, "Take damage")
    rows = press(a, K_OK)                            # spent until a long rest
    assert rows[2] == lr("Use armor", "spent") and rows[3] == lr("Use shield", "spent")


def test_damage_dice_a_success_a_point_saved_for_half_rounded_up():
    a, s = _app()
    s.do(ex.SHEET, (0, 9, 9, 0, 0, 0, 0, 0))
    _sheet(a)
    to_row(a, "Damage dice")
    rows = press(a, K_OK)
    assert rows[1] == lr("Dice", "<2>") and rows[2] == lr("Save: half", "<no>")
    assert rows[6] == "each 4+: 1 point" and rows[7] == "OK: roll 2d6"
    rows = press(a, K_RIGHT, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT)   # 5 dice, saved
    assert rows[6] == "half, rounded up" and rows[7] == "OK: roll 5d6"
    rows = press(a, K_OK)
    kind, args, faces, _t = last_event(s)
    assert kind == ex.VAR_DAMAGE and args == [0, 5, 0, 1] and len(faces) == 5
    d = (hits(faces) + 1) // 2
    assert char_v(s)[ex.HP] == 9 - d
    assert rows[0] == lr("RESULT", "5d6") and verdict(rows)[0].startswith("%d succ" % hits(faces))


def test_down_and_out_without_aid_is_death():
    # "If you don't receive medical aid by the end of the Turn, you die."
    a, s = _app()
    s.do(ex.DAMAGE, (0, 4, 0))
    _sheet(a)
    to_row(a, "Down & Out")
    rows = press(a, K_OK)
    assert rows[0] == lr("DOWN & OUT", "Ada") and rows[1] == lr("Aid given", "<yes>")
    assert rows[5] == "1 roll(s) owed" and rows[7] == "OK: roll 2d6"
    rows = press(a, K_LEFT)
    assert rows[1] == lr("Aid given", "<no>") and rows[6] == "no aid: death"
    assert rows[7] == "OK: dies"
    rows = press(a, K_OK)
    assert last_event(s)[:2] == (ex.DOWN_OUT, [0, 0]) and char_v(s)[ex.DEAD] == 1
    assert rows[0] == "DOWN AND OUT" and rows[1] == "Ada is dead"   # the death first


# --- items 4 and 5: rests, usage dice, encounters, extended tests, projects -----------------
def test_a_long_rest_brings_everything_back_and_a_new_day():
    a, s = _app()
    s.do(ex.SHEET, (0, 4, 4, 3, 3, 1, 0, 0))
    t = s.do(sp.SPELL, (sp.LEARN, 0, 4, 7), "Miasma").tal
    s.do(sp.SPELL, (sp.CHANNEL, t, 0, 0, 0, 0, 0, 0), "", (4, 1))   # fails: lost, hurt
    s.do(ex.DAMAGE, (0, 3, 1))
    press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)   # Turns
    to_row(a, "Long rest")
    rows = press(a, K_OK)                            # its notes: more than two rows, a page
    assert last_event(s)[0] == ex.LONG_REST and rows[0] == "OUTCOME"
    assert "Miasma back" in " ".join(rows[1:7])
    rows = press(a, K_OK)
    assert rows[0] == lr("TURN 0", "day 2")
    v = char_v(s)
    assert (v[ex.HP], v[ex.RES], v[ex.SPENT]) == (4, 3, 0) and s.c.tals[t].n == 0


def test_turns_wraps_onto_the_clocks_below():
    # No row of expedition's Turns ends anything: Up from the first reaches
    # the last (hunt's Scenes and paths' Fight stop there: test_words.py).
    a, s = _app()
    n = s.c.nevents
    press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)   # Turns, on Explore turn
    press(a, K_UP)
    assert selected(a) == "Extended tests" and s.c.nevents == n


def test_usage_dice_are_made_and_rolled_as_dice():
    # "roll the listed die once after using such an item in a scene ... On
    # a result of 1-2, step down the die type by one step"
    a, s = _app()
    press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)
    to_row(a, "Usage dice")
    rows = press(a, K_OK)
    assert rows[0] == "USAGE DICE" and rows[1] == "+ new usage die"
    rows = press(a, K_OK)
    assert rows[1] == lr("Item", "Torches") and rows[2] == lr("Die", "<d6>")
    assert rows[3] == lr("Whose", "party") and rows[4] == lr("On turns", "<yes>")
    rows = press(a, K_OK)
    kind, args, _f, text = last_event(s)
    assert kind == ex.USAGE_NEW and args == [6, -1, 1] and text == "Torches"
    assert rows[1] == lr("Torches", "d6")
    for _ in range(60):                              # after a scene's use, until a 1-2
        rows = press(a, K_OK)                        # (the cursor on the new die)
        kind, args, faces, _t = last_event(s)
        assert kind == ex.USAGE_ROLL and len(faces) == 1
        if faces[0] <= 2:
            break
    assert rows[1] == lr("Torches", "d4") and "now d4" in " ".join(rows[6:8])


def test_the_encounter_rate_of_a_populous_dungeon():
    a, s = _app()
    press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)
    to_row(a, "Encounter rate")
    rows = press(a, K_OK)
    assert rows[1] == lr("Area", "<average>") and rows[6] == "every other turn"
    rows = press(a, K_LEFT)
    assert rows[1] == lr("Area", "<populous>") and rows[6] == "check each turn"
    press(a, K_OK)
    assert last_event(s)[:2] == (ex.SET_FREQ, [1])
    rows = press(a, K_BACK)
    assert rows[2] == lr("Next encounter", "1")


def test_an_extended_test_made_then_rolled_from_the_builder():
    a, s = _app()
    press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)
    to_row(a, "Extended tests")
    press(a, K_OK, K_OK)                             # + new extended
    rows = press(a, K_RIGHT, K_DOWN, K_RIGHT, K_RIGHT)   # 4 successes, 2 failures allowed
    assert rows[1] == lr("Successes", "<4>") and rows[2] == lr("Failures", "<2>")
    rows = press(a, K_OK)
    kind, args, _f, text = last_event(s)
    assert kind == ex.EXT_NEW and args == [4, 2] and text == "Test 1"
    assert rows[1] == lr("Test 1", "0/4")
    rows = press(a, K_OK)                            # the builder on it
    assert rows[0].startswith("ROLL") and a.pool.v["ext"] == 0
    press(a, K_ROLL)
    assert last_event(s)[0] == ex.TEST and last_event(s)[1][7] == 0


def test_a_project_is_made_and_ticked_in_town():
    a, s = _app()
    press(a, *(K_DOWN,) * 6 + (K_OK,))               # Town
    to_row(a, "Projects")
    press(a, K_OK, K_OK)                             # + new project
    rows = press(a, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT)   # 8 ticks, Ada's
    assert rows[1] == lr("Ticks", "<8>") and rows[2] == lr("Whose", "Ada")
    rows = press(a, K_OK)
    assert last_event(s)[:2] == (ex.PROJECT_NEW, [8, 0]) and rows[1] == lr("Project 1", "0/8")
    rows = press(a, K_OK)
    assert last_event(s)[:2] == (ex.PROJECT_TICK, [0]) and rows[1] == lr("Project 1", "1/8")
