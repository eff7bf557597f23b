"""The device screens of monsters, NPCs and character generation (runs under pytest and on
MicroPython): Home > Foes (Up from Roll) adds a monster, hits it with the
last combat result, +s and half, runs the rounds; a sheet's Abilities
rolls them, improves one and counts a Boon."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK
from rules import campaign as cp, codec, expedition as ex
from rules import expedition_foes as ef, expedition_chars as ec
from ui.screen import lr
from fakeapp import make, press


def _foes():
    a, b, s = make(2)
    rows = press(a, K_UP, K_OK)                    # home's last item: Foes
    assert rows[0] == "FOES" and rows[1] == "+ new foe" and rows[2] == "Next round"
    return a, b, s


def test_add_a_monster_and_hit_it_with_the_last_result():
    a, b, s = _foes()
    rows = press(a, K_OK)                          # + new foe
    assert rows[0] == "NEW FOE" and rows[6] == "HP 4 Save 2" and rows[7] == "OK: add"
    rows = press(a, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT)   # Level 3, elite
    assert rows[1].endswith("<3>") and rows[2].endswith("<elite>") and rows[6] == "HP 12 Save 3"
    assert rows[3] == lr("HP", "<auto>") and rows[4] == lr("Follows", "none")
    rows = press(a, K_OK)
    kind, args, _f, text = codec.decode_event(s.log[-1])
    assert kind == ef.FOE and args == [0, 3, 1, 0, -1] and text == "Foe 1"
    assert rows[3] == lr("Foe 1", "12/12") and rows[2] == "Next round"
    rows = press(a, K_DOWN, K_DOWN, K_LEFT)        # Left on it: 1 damage, its morale prompt
    assert rows[0] == "MORALE CHECK"
    rows = press(a, K_OK)
    assert rows[3] == lr("Foe 1", "11/12")
    # A combat won by 3 (through the session, as the builder's roll would be)
    s.do(ex.COMBAT, (-1, 2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 3), "", (6, 6, 6, 6, 1, 2))
    assert s.c.last.margin == 4
    rows = press(a, K_OK)                          # the foe
    assert rows[:4] == ["Foe 1", "L3 elite", lr("HP", "11/12"), "Save Ob 3, 6d"]
    assert rows[4].endswith("<4>")                 # the last result's damage
    rows = press(a, K_DOWN, K_RIGHT, K_DOWN, K_RIGHT, K_DOWN, K_OK)   # +1s, halved, Hit
    kind, args, _f, _t = codec.decode_event(s.log[-1])
    assert args == [1, 0, 4, 0, 1, 1]              # (4 + 1) / 2 = 3
    assert rows[2] == lr("HP", "8/12")
    press(a, K_DOWN, K_DOWN, K_OK)                 # Remove (below its test/save)
    assert ef.foes(s.c) == [] and a.top().head == "FOES"


def test_rounds_limit_class_resources_and_end():
    a, b, s = _foes()
    s.do(cp.CHAR_ADD, (), "Ada")
    s.do(ex.SHEET, (0, 4, 4, 3, 3, 0, 0, 0))
    rows = press(a, K_DOWN, K_OK)                  # Next round: the fight starts
    assert rows[0] == "OUTCOME" and rows[1:4] == ["round 1: one", "Class Resource", "each"]
    rows = press(a, K_OK)                          # read: Foes again
    assert rows[0] == "FOES     round 1" and a.top().menu.items[-1] == "End fight"
    s.do(ex.USE_RES, (0, 1))
    try:
        s.do(ex.USE_RES, (0, 1))
        raise AssertionError("a second resource in a round")
    except ValueError:
        pass
    rows = press(a, K_OK, K_OK)                    # the next round, its notes read
    assert rows[0] == "FOES     round 2"
    s.do(ex.USE_RES, (0, 1))
    rows = press(a, K_UP, K_UP, K_OK)              # End fight, one wrap up: it asks
    assert rows[0] == "END THE FIGHT?" and rows[1] == "after round 2"
    rows = press(a, K_BACK)                        # fight on
    assert rows[0] == "FOES     round 2"
    rows = press(a, K_OK, K_OK)                    # ended
    assert rows[0] == "FOES" and s.c.find(ef.FIGHT_ROLE) == -1


def test_a_sheet_rolls_and_improves_abilities():
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Ada")
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK)   # Characters > Ada
    rows = press(a, K_UP, K_UP)                    # Abilities, just above Rename
    assert a.top().menu.items[-2:] == ["Abilities", "Rename"]
    rows = press(a, K_OK)
    assert rows[0].endswith("ABILITIES") and rows[1] == "Roll abilities"
    rows = press(a, K_OK)
    assert rows[0] == "OUTCOME"                    # its six Abilities: more than the toast's rows
    rows = press(a, K_OK)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == ec.ABIL and args == [0, 0] and len(faces) == 12
    t = ec.record(s.c, 0)
    vals = [(faces[2 * k] + faces[2 * k + 1]) // 2 for k in range(6)]
    assert [ec.get(s.c.tals[t], k) for k in range(6)] == vals
    assert rows[1] == lr("Might", "%d " % vals[0]).rstrip()
    press(a, K_OK)                                 # an attempt on Might
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert args == [2, 0, 0] and len(faces) == 2
    rows = press(a, K_UP, K_UP, K_OK)              # Boons (above Retire): one more
    assert ec.record(s.c, 0) == t and [r for r in rows if r.startswith("Boons")]
    n = s.c.tals[t].n
    assert n in (3, 4)                             # 2, +1 if Might improved, +1
    press(a, K_BACK)
    assert a.top().menu.items[-1] == "Rename"


def test_a_sheet_retires_its_character_for_a_new_one():
    # "When you retire a character, your may choose one (and only one) of
    # the three following benefits for your new character": Abilities >
    # Retire, the heir, the benefit and its pick, OK.
    a, b, s = make(2)
    for i, n in enumerate(("Ada", "Bo")):
        s.do(cp.CHAR_ADD, (), n)
        s.do(ec.ABIL, (ec.OP_SET, i, 3, 3, 3, 3, 3, 3))
    for _ in range(3):
        s.do(ec.ABIL, (ec.OP_BOON, 0))             # Ada: 5 Boons, one full set
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK)   # Characters > Ada
    press(a, K_UP, K_UP, K_OK)                     # Abilities
    press(a, K_UP)                                 # Retire, the last row
    assert a.top().menu.items[a.top().menu.sel] == "Retire"
    rows = press(a, K_OK)
    assert rows[0].endswith("RETIRE") and rows[1] == lr("Heir", "Bo")
    press(a, K_DOWN, K_DOWN, K_RIGHT)              # Pick: Might (M.....)
    assert a.top().menu.items[2] == lr("Pick", "M.....")
    press(a, K_OK)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == ec.ABIL and args == [5, 0, 1, 0, 1]
    assert ec.get(s.c.tals[ec.record(s.c, 1)], 0) == 4 and ec.retired(s.c.tals[ec.record(s.c, 0)])
    press(a, K_BACK)                               # the result, then Ada's Abilities
    assert a.top().menu.items[-1] == "Retired: an NPC"
