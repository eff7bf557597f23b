"""expedition's procedures on the device's own keys (runs under pytest
and on MicroPython), the builder and Foes: the combat check against a
tracked foe (COMBAT: the loser's damage, a tie's, threat, supporters, a
melee, blocks), who rolls filling the Ability and a foe its Level and
Save (FOE resist), the forms' Score from the last used, a failure's
margin; Foes' rows and a foe's own test or save. The sheet and the
clocks: test_screens_expedition_sheet.py (it says why two files)."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK
from rules import campaign as cp, expedition as ex
from rules import expedition_foes as ef, expedition_chars as ec, expedition_spells as sp
from ui.screen import lr
from fakeapp import press
from expedition_app import on_home, last_event, selected, to_row, char_v, hits, verdict

_APP = []


def _app():
    """This file's one app, on home (expedition_app.on_home)."""
    return on_home(_APP)


# --- items 3, 6 and 9: the combat check, the builder knows the table ------------------------
def _builder(a):
    return press(a, K_OK)


def _combat(a, s, level=3):
    """A tracked monster (Foe 1); the builder in combat mode, Ada against it."""
    t = s.do(ef.FOE, (ef.OP_NEW, level, 0, 0, -1), "Foe 1").tal
    _builder(a)
    press(a, K_RIGHT, K_RIGHT, K_RIGHT)              # Mode: test -> combat (the last)
    press(a, K_DOWN, K_RIGHT)                        # Who: Ada
    to_row(a, "Against")
    rows = press(a, K_RIGHT)                         # the foe
    return t, rows


def test_a_combat_check_deals_the_margin_to_the_loser():
    a, s = _app()
    t, rows = _combat(a, s)
    assert a.top().menu.items[7] == lr("Against", "Foe 1")
    assert "Opp. level 3" not in " ".join(a.top().menu.items)    # the foe's own
    assert rows[0] == lr("ROLL", "3d6 v6")             # Ada 2 + 1, Level 3 + 3
    rows = press(a, K_OK)
    kind, args, faces, _t = last_event(s)
    assert kind == ex.COMBAT
    assert args == [0, 1, 0, 0, 0, 0, -1, 3, 0, 0, 0, 0, 0, 0, 0, 3 | ex.FOE_B | (t + 1) * ef.TRACKED]
    # Each side's faces on a row of its own, named: who rolls and the foe.
    lines = a.top().lines
    k = [i for i in range(len(lines)) if " succ" in lines[i]][0]
    assert lines[0] == "Ada: " + " ".join(str(f) for f in faces[:3])
    assert " ".join(lines[1:k]) == "Foe 1: " + " ".join(str(f) for f in faces[3:])
    m = hits(faces[:3]) - hits(faces[3:])
    hp = ef.hp(s.c.tals[t])
    succ, margin = verdict(rows)
    if m > 0:
        assert hp == 8 - m and succ.endswith("WINS") and margin == "margin +%d" % m
    elif m < 0:
        assert char_v(s)[ex.HP] == max(0, 4 + m) and hp == 8
        assert succ.endswith("LOSES") and margin == "margin %d" % m   # a loss as one
    else:
        assert hp == 7 and char_v(s)[ex.HP] == 3 and succ.endswith("TIE")


def test_a_tie_deals_one_to_everyone_and_says_so():
    # "In case of any ties ..., all participants in the exchange take one damage."
    a, s = _app()
    t, _rows = _combat(a, s)
    for _ in range(60):
        press(a, K_OK)
        kind, args, faces, _t = last_event(s)
        if hits(faces[:3]) == hits(faces[3:]):
            break
        press(a, K_OK)
        s.do(cp.UNDO)
    text = " ".join(a.top().lines)                  # the result's lines, scrolled or not
    assert ef.hp(s.c.tals[t]) == 7 and char_v(s)[ex.HP] == 3
    assert "Foe 1 takes 1" in text and "Ada takes 1" in text


def test_combat_threat_supporters_a_melee_and_blocks():
    a, s = _app()
    s.do(ex.SHEET, (0, 4, 4, 0, 0, 1, 0, 0))          # Ada: light armor
    t, rows = _combat(a, s)
    to_row(a, "Threatened")
    press(a, K_LEFT)                                 # the foe threatens no one here
    to_row(a, "Supporters")
    rows = press(a, K_RIGHT, K_RIGHT)                # two supporters: +2d
    assert rows[0] == lr("ROLL", "5d6 v6")
    to_row(a, "PCs in it")                              # the others' initials: Bram's only
    assert selected(a) == lr("PCs in it", ".")            # (who rolls is not among them)
    rows = press(a, K_RIGHT)
    assert selected(a) == lr("PCs in it", "B")
    to_row(a, "Use armor")
    press(a, K_RIGHT, K_OK)
    kind, args, _f, _t = last_event(s)
    assert args[12:15] == [2, 0b10, 1] and args[15] & 3 == 1     # Bram among 2; armor; A threatens
    press(a, K_OK)                                   # the result closed: the builder
    to_row(a, "Into melee")
    rows = press(a, K_RIGHT, K_OK)                   # and a melee: not both
    assert rows[0] == "REFUSED" and "not both" in " ".join(rows)
    press(a, K_OK)
    to_row(a, "Supporters")
    press(a, K_LEFT, K_LEFT)
    rows = press(a, K_UP)
    assert rows[0] == lr("ROLL", "2d6 v6")           # firing into a melee: -1d
    press(a, K_OK)
    assert last_event(s)[1][12:14] == [-1, 0b10]


def test_who_rolls_fills_the_ability_from_the_sheet():
    a, s = _app()
    s.do(ec.ABIL, (ec.OP_SET, 0, 3, 5, 2, 4, 1, 6))
    _builder(a)
    rows = press(a, K_DOWN, K_RIGHT)                 # Who: Ada
    assert rows[2] == lr("Who", "Ada") and rows[3] == lr("Might", "3")
    assert rows[0] == lr("ROLL", "5d6")
    rows = press(a, K_DOWN, K_RIGHT)                 # her Agility
    assert rows[3] == lr("Agility", "5") and rows[0] == lr("ROLL", "7d6")
    rows = press(a, K_LEFT, K_LEFT)                  # Might, then by hand: the score stays
    assert rows[3] == lr("Ability", "by hand") and rows[4] == lr("Score", "3")
    rows = press(a, K_DOWN, K_RIGHT)                 # a relic's +1, dialled
    assert rows[4] == lr("Score", "4") and rows[0] == lr("ROLL", "6d6")
    press(a, K_OK)
    assert last_event(s)[1][:2] == [4, 1]


def test_a_tracked_foe_fills_the_level_and_its_save_the_ob():
    # "A monster's Save ... is the Obstacle Rating for player characters to
    # resist their Moves."
    a, s = _app()
    t = s.do(ef.FOE, (ef.OP_NEW, 5, 0, 0, -1), "Troll").tal   # Level 5: Save 4, 8 dice
    _builder(a)
    to_row(a, "Resist")
    rows = press(a, K_RIGHT)
    assert selected(a) == lr("Resist", "Troll Ob4")
    assert "Ob" not in [r.split()[0] for r in a.top().menu.items]   # the Save is the Ob
    press(a, K_OK)
    kind, args, faces, _t = last_event(s)
    assert kind == ef.FOE and args == [ef.OP_RESIST, t, 1, 0, 0, 0] and len(faces) == 3
    press(a, K_OK, K_UP)
    to_row(a, "Mode")
    press(a, K_RIGHT, K_RIGHT)                       # test -> monster
    to_row(a, "Against")
    rows = press(a, K_RIGHT)
    assert rows[0] == lr("ROLL", "3d6 v8") and selected(a) == lr("Against", "Troll")
    press(a, K_OK)
    assert last_event(s)[1][6] == 5                       # VERSUS against Level 5


def test_the_forms_start_from_the_last_score_used():
    a, s = _app()
    s.do(ex.SHEET, (0, 4, 4, 3, 3, 0, 0, 0))
    t = s.do(sp.SPELL, (sp.LEARN, 0, 4, 2), "Miasma").tal
    press(a, *(K_DOWN,) * 5 + (K_OK,))               # Spells
    rows = press(a, K_OK)                            # Miasma's Channeling Test
    assert rows[1] == lr("Score", "<3>")
    press(a, K_RIGHT, K_RIGHT, K_OK, K_OK)           # Score 5, channeled, read: Spells
    rows = press(a, K_OK)                            # the next opens at 5
    assert last_event(s)[1][:3] == [sp.CHANNEL, t, 5] and rows[1] == lr("Score", "<5>")
    press(a, K_BACK)
    s.do(ec.ABIL, (ec.OP_SET, 0, 3, 3, 3, 3, 6, 3))  # Abilities rolled: her Knowledge
    rows = press(a, K_OK)
    assert rows[1] == lr("Score", "<6>")


def test_a_foes_damage_starts_from_a_combat_won_against_a_level():
    a, s = _app()
    t = s.do(ef.FOE, (ef.OP_NEW, 1, 0, 0, -1), "Foe 1").tal
    s.do(ex.COMBAT, (0, 2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 3 | ex.FOE_B),
         "", (6, 6, 6, 6, 1, 2, 3))
    rows = press(a, K_UP, K_OK, K_DOWN, K_DOWN, K_OK)   # Foes > Foe 1
    assert rows[4] == lr("Damage", "<4>")            # won by 4: not applied yet
    press(a, K_BACK, K_BACK)
    s.do(ex.COMBAT, (0, 2, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, 0, 0, 0,
                     3 | ex.FOE_B | (t + 1) * ef.TRACKED), "", (6, 6, 6, 6, 1, 2, 3, 1))
    rows = press(a, K_UP, K_OK, K_DOWN, K_DOWN, K_OK)
    assert rows[4] == lr("Damage", "<1>")            # the tracked foe took it already


def test_a_failure_shows_its_margin_as_a_failure():
    a, s = _app()
    _builder(a)
    to_row(a, "Ob")
    press(a, *(K_RIGHT,) * 5)                        # Ob 6 on 3 dice: a failure
    rows = press(a, K_OK)
    kind, args, faces, _t = last_event(s)
    assert verdict(rows) == (lr("%d succ" % hits(faces), "FAILURE"),
                              "margin -%d" % (6 - hits(faces)))


# --- Foes ------------------------------------------------------------------------
def test_the_foes_stay_below_next_round_and_end_fight_is_not_next_to_one():
    a, s = _app()
    for n in range(6):
        s.do(ef.FOE, (ef.OP_NEW, 1, 0, 0, -1), "Foe %d" % (n + 1))
    s.do(ef.ROUND, (ef.OP_NEXT,))
    rows = press(a, K_UP, K_OK, K_DOWN)              # Foes, on Next round
    assert rows[1:6] == ["+ new foe", "Next round"] + [lr("Foe %d" % n, "4/4") for n in (1, 2, 3)]
    m = a.top().menu
    for i in range(2, 8):                            # from each foe, Up or Down: never those
        for d in (-1, 1):
            assert m.items[(i + d) % len(m.items)] not in ("End fight", "Reaction", "Distance")
    rows = press(a, K_UP, K_UP, K_OK)                # Up from + new foe wraps to End fight: asks
    assert rows[0] == "END THE FIGHT?" and s.c.find(ef.FIGHT_ROLE) >= 0


def test_a_foes_own_test_or_save():
    a, s = _app()
    t = s.do(ef.FOE, (ef.OP_NEW, 3, 0, 0, -1), "Orc").tal
    press(a, K_UP, K_OK, K_DOWN, K_DOWN, K_OK)       # Foes > Orc
    to_row(a, "Its test/save")
    rows = press(a, K_OK)
    assert rows[0] == lr("Orc", "6d6 Ob2") and rows[7].startswith("Odds ")
    rows = press(a, K_RIGHT, K_DOWN, K_RIGHT)        # Ob 3, a strength: +1d
    assert rows[0] == lr("Orc", "7d6 Ob3")
    rows = press(a, K_OK)
    kind, args, faces, _t = last_event(s)
    assert kind == ef.FOE and args == [ef.OP_SAVE, t, 3, 1, 0] and len(faces) == 7
    assert rows[0] == lr("RESULT", "test/save")
    assert rows[2].endswith("SUCCESS" if hits(faces) >= 3 else "FAILURE")


def test_the_title_and_the_odds_kept_are_the_pools_own():
    # The builder's title is kept while the dice are, and odds lines by
    # their figures (ui/expedition_more.py head, ui/poolodds.py): another
    # mode with the same dice, or any Ob, shows its own; at most 32 kept.
    from ui import poolodds
    a, s = _app()
    rows = _builder(a)
    assert rows[0] == lr("ROLL", "3d6") and rows[7] == "Odds 87.5%"
    rows = press(a, K_RIGHT)                         # versus, the same 3 dice: a new title
    assert rows[0] == lr("ROLL", "3d6 v3")
    rows = press(a, K_LEFT)
    assert rows[0] == lr("ROLL", "3d6")
    to_row(a, "Ob")
    for ob in range(2, 31):
        rows = press(a, K_RIGHT)
        assert selected(a) == lr("Ob", str(ob)) and rows[0] == lr("ROLL", "3d6")
        assert len(poolodds._MEMO) <= 32
    assert rows[7] == "Odds 0.0%"
    rows = press(a, *(K_LEFT,) * 29)                 # back to Ob 1: the same line as at first
    assert rows[7] == "Odds 87.5%"
