"""The `paths` rule system: d12 pools, basic/opposed/prolonged tests, helpers."""
import sys

from rules import campaign as cp, systems
from rules import paths as P
from rules import paths_more as PM
from rules import talisman as tl
from rules.dice import Dice, new_pool
from support import raises, raises_unchanged


def new(*names):
    c = cp.Campaign(systems.PATHS, cid=3)
    for n in names:
        c.act(cp.CHAR_ADD, (), n)
    return c


def test_alex_six_dice_keyed_in_against_easy():
    # Seed: 6d12 for an Easy (2) action: 1, 5, 4, 6, 11, 12 -> 3 successes, one more than needed.
    c = new("Alex")
    faces = (1, 5, 4, 6, 11, 12)
    out = c.act(P.TEST, (0, 3, 3, 0, 0, 2, 0), "Athletics", faces=faces)
    assert (out.successes, out.verdict, out.margin) == (3, 1, 1)
    assert out.faces == bytes(faces)
    assert c.events[-1][0] == P.TEST and bytes(faces) in c.events[-1]
    assert "3/2" in out.notes[0]


def test_evaluate_and_twelves():
    buf = bytearray((1, 5, 4, 6, 11, 12))
    assert P.evaluate(buf, 6) == 3
    assert P.evaluate(buf, 4) == 0
    assert P.twelves(buf, 6) == 1
    assert P.twelves(bytearray((12, 3, 12)), 3) == 2
    assert P.evaluate(bytearray((7, 8, 9, 10, 11, 12)), 6) == 7
    raises(ValueError, P.evaluate, bytearray((7, 13)), 2)
    raises(ValueError, P.evaluate, bytearray((0,)), 1)
    raises(ValueError, P.evaluate, bytearray(2), 3)


def test_loriane_eloquence_three_plus_hope_two_is_five_dice():
    assert P.pool(3, 2) == 5
    c = new("Loriane")
    out = c.act(P.TEST, (0, 3, 2, 0, 0, 3, 0), "Eloquence", dice=Dice(11))
    assert len(out.faces) == 5
    assert out.successes == P.evaluate(out.faces, 5)
    assert out.verdict == (1 if out.successes >= 3 else 0)


def test_pool_modifiers_and_never_below_one():
    assert P.pool(3, 2, 2, 0) == 7
    assert P.pool(3, 2, -2, 1) == 2
    assert P.pool(0, 1, -2, 0) == 1
    assert P.pool(1, 1, 0, 9) == 1
    for bad in ((7, 1, 0, 0), (-1, 1, 0, 0), (1, 7, 0, 0), (1, 1, 3, 0), (1, 1, -3, 0), (1, 1, 0, -1)):
        raises(ValueError, P.pool, *bad)
    c = new("Ada")
    out = c.act(P.TEST, (0, 0, 1, -2, 3, 1, 0), "", faces=(7,))
    assert out.successes == 1 and out.verdict == 1
    assert "pool raised to 1 die" in out.notes


def test_difficulty_zero_is_automatic_without_a_roll():
    c = new("Ada")
    out = c.act(P.TEST, (0, 2, 2, 0, 0, 0, 0), "Climb", dice=Dice(1))
    assert out.verdict == 1 and out.faces == b"" and out.margin == 0
    assert "automatic" in out.notes[0]
    raises_unchanged(c, c.act, P.TEST, (0, 2, 2, 0, 0, 0, 0), "Climb", faces=(7, 7, 7, 7))
    raises_unchanged(c, c.act, P.TEST, (0, 2, 2, 0, 0, 0, 0, 3), "Climb", dice=Dice(1))
    # Hidden and trivial: rolled anyway so the players cannot tell; always succeeds.
    out = c.act(P.TEST, (0, 2, 2, 0, 0, 0, 1), "Climb", faces=(1, 1, 1, 1))
    assert out.verdict == 1 and out.successes == 0


def test_hidden_difficulty_notes_never_depend_on_it():
    c = new("Mara")
    faces = (12, 8, 3, 2)
    notes = None
    verdicts = []
    for diff in range(0, 8):
        out = c.act(P.TEST, (0, 2, 2, 0, 0, diff, 1), "Insight", faces=faces)
        assert out.hidden == 1 and out.successes == 3
        verdicts.append(out.verdict)
        if notes is None:
            notes = out.notes
        assert out.notes == notes
    assert verdicts == [1, 1, 1, 1, 0, 0, 0, 0]
    out = c.act(P.TEST, (0, 2, 2, 0, 0, 5, 0), "Insight", faces=faces)
    assert out.notes != notes and out.margin == -2


def test_helpers_add_dice_capped_by_skill():
    c = new("Ada")
    # Skill 2: helper rolls 12, 12, 7 = 5 successes, but only 2 dice can be added.
    out = c.act(P.TEST, (0, 2, 1, 0, 0, 2, 0, 3), "Crafts",
                faces=(12, 12, 7) + (1, 2, 3, 7, 8))
    assert len(out.faces) == 8 and out.successes == 2 and out.verdict == 1
    assert "help capped at +2 (Skill 2)" in out.notes
    # Two helpers: 1 + 0 successes -> 1 extra die.
    out = c.act(P.TEST, (0, 2, 1, 0, 0, 1, 0, 2, 1), "Crafts", faces=(7, 1) + (2,) + (1, 1, 1, 12))
    assert out.successes == 2 and len(out.faces) == 7
    # Skill 0 still receives one die.
    out = c.act(P.TEST, (0, 0, 2, 0, 0, 1, 0, 2), "Crafts", faces=(9, 10) + (1, 1, 7))
    assert out.successes == 1 and "help capped at +1 (Skill 0)" in out.notes
    # A helper with no success adds nothing.
    out = c.act(P.TEST, (0, 3, 1, 0, 0, 1, 0, 2), "Crafts", faces=(1, 2) + (1, 1, 1, 1))
    assert len(out.faces) == 6 and out.verdict == 0


def test_at_most_two_helpers_and_valid_helper_pools():
    c = new("Ada")
    raises_unchanged(c, c.act, P.TEST, (0, 2, 1, 0, 0, 2, 0, 1, 1, 1), "", dice=Dice(2))
    raises_unchanged(c, c.act, P.TEST, (0, 2, 1, 0, 0, 2, 0, 0), "", dice=Dice(2))
    raises_unchanged(c, c.act, P.TEST, (0, 2, 1, 0, 0, 2, 0, 21), "", dice=Dice(2))
    raises_unchanged(c, c.act, P.OPPOSED, (0, 2, 1, 0, 0, 2, 0, 1, 1, 1), "", dice=Dice(2))
    raises_unchanged(c, c.act, P.PRO_ROLL, (0, 2, 1, 0, 0, 1, 1, 1), "", dice=Dice(2))


def test_callia_three_successes_beats_guard_one():
    c = new("Callia")
    out = c.act(P.OPPOSED, (0, 3, 2, 0, 0, 3, 0), "Infiltration",
                faces=(7, 8, 9, 1, 2) + (10, 3, 4))
    assert (out.successes, out.verdict, out.margin) == (3, 1, 2)
    assert out.notes[0] == "Callia Infiltration: 5 dice, 3 successes"
    assert out.notes[-1] == "Callia Infiltration wins"


def test_opposed_winner_ties_and_double_twelves():
    w = P.opposed_winner
    assert w(3, 0, 1, 0) == 0 and w(1, 0, 3, 0) == 1
    assert w(2, 0, 2, 0) == 0          # tie: initiator
    assert w(2, 1, 2, 1) == 0          # single 12s are not a double 12
    assert w(2, 2, 9, 1) == 0          # initiator's double 12 wins outright
    assert w(9, 1, 4, 2) == 1          # opponent's double 12 wins outright
    assert w(4, 2, 5, 3) == 1          # both double: most successes
    assert w(5, 3, 4, 2) == 0
    assert w(4, 2, 4, 2) == 0          # both double, tie: initiator


def test_opposed_act_initiator_and_double_twelve():
    c = new("Callia")
    # Tie 1-1: the player initiated and wins; the opponent initiated and wins.
    assert c.act(P.OPPOSED, (0, 1, 1, 0, 0, 1, 0), "", faces=(7, 1, 8)).verdict == 1
    assert c.act(P.OPPOSED, (0, 1, 1, 0, 0, 1, 1), "", faces=(7, 1, 8)).verdict == 0
    # Opponent's double 12 (4 successes) beats the player's 5 successes.
    out = c.act(P.OPPOSED, (0, 3, 2, 0, 0, 2, 0), "", faces=(7, 8, 9, 10, 11, 12, 12))
    assert out.verdict == 0 and out.margin == 1 and "double 12" in out.notes[1]
    # Both double: 6 successes beat 4.
    out = c.act(P.OPPOSED, (0, 2, 1, 0, 0, 2, 1), "", faces=(12, 12, 7, 12, 12))
    assert out.verdict == 1 and out.successes == 5


def test_opposed_refuses_bad_pools():
    c = new("Callia")
    raises_unchanged(c, c.act, P.OPPOSED, (0, 3, 2, 0, 0, 0, 0), "", dice=Dice(1))
    raises_unchanged(c, c.act, P.OPPOSED, (0, 3, 2, 0, 0, 3, 2), "", dice=Dice(1))
    # Two 20-die helpers + 20 opponent dice could exceed the 64 faces of an event.
    raises_unchanged(c, c.act, P.OPPOSED, (0, 6, 6, 0, 0, 20, 0, 20, 20), "", dice=Dice(1))


def test_prolonged_healing_three_attempts_eight_successes():
    # Healing (Legacy) (1 day, 3 max.) 8 successes.
    c = new("Ada")
    out = c.act(P.PRO_OPEN, (0, 8, 3, 2, 0), "Healing")
    t = out.tal
    tal = c.tals[t]
    assert (tal.cap, tal.role, tal.owner, tal.policy) == (8, P.PROLONGED, 0, tl.CLAMP)
    assert out.notes == ["Healing (1 day, 3 max.) 8 successes"]
    assert P.open_tests(c) == 1 and P.open_tests(c, 0) == 1 and P.open_tests(c, 1) == 0
    out = c.act(P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(12, 9, 1, 2))
    assert (out.successes, out.verdict, tal.n, tal.a) == (3, 2, 3, 1)
    out = c.act(P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(7, 8, 1, 2))
    assert (out.verdict, tal.n, out.margin) == (2, 5, -3)
    out = c.act(P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(7, 8, 1, 2))
    assert out.verdict == 0 and tal.n == 7 and P.status(tal) == P.ST_FAILED
    assert "no attempts left" in out.notes[-1]
    assert P.open_tests(c) == 0
    raises_unchanged(c, c.act, P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(12, 12, 12, 12))
    # Undo the last roll: open again, and a third roll with 3 successes fills it.
    c.undo()  # refolds: the talisman is a new object
    tal = c.tals[t]
    assert P.status(tal) == P.ST_OPEN and tal.n == 5 and tal.a == 2
    out = c.act(P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(12, 8, 1, 2))
    assert out.verdict == 1 and P.status(c.tals[t]) == P.ST_SUCCEEDED
    assert "succeeded" in out.notes[-1]
    raises_unchanged(c, c.act, P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(1, 1, 1, 1))


def test_prolonged_zero_successes_fails_and_no_maximum():
    c = new("Ada")
    t = c.act(P.PRO_OPEN, (0, 10, 0, 1, 0), "Dig").tal
    for _ in range(4):
        assert c.act(P.PRO_ROLL, (t, 1, 1, 0, 0), "", faces=(7, 1)).verdict == 2
    assert c.tals[t].a == 4
    out = c.act(P.PRO_ROLL, (t, 1, 1, 0, 0), "", faces=(1, 6))
    assert out.verdict == 0 and "0 successes" in out.notes[-1]
    assert P.status(c.tals[t]) == P.ST_FAILED


def test_prolonged_hidden_and_helpers():
    c = new("Ada", "Bo")
    t = c.act(P.PRO_OPEN, (-1, 9, 0, 0, 1), "Library").tal
    out = c.act(P.PRO_ROLL, (t, 1, 1, 0, 0, 2), "", faces=(7, 7) + (8, 1, 1))
    assert out.notes[-1] == "Library 1/?" and out.hidden == 1
    assert "9" not in "".join(out.notes)
    assert c.tals[t].n == 1  # helper's 2 successes capped at Skill 1


def test_prolonged_refusals():
    c = new("Ada")
    raises_unchanged(c, c.act, P.PRO_OPEN, (0, 8, 3, 2, 0), "")
    raises_unchanged(c, c.act, P.PRO_OPEN, (0, 0, 3, 2, 0), "X")
    raises_unchanged(c, c.act, P.PRO_OPEN, (0, 65, 3, 2, 0), "X")
    raises_unchanged(c, c.act, P.PRO_OPEN, (0, 8, -1, 2, 0), "X")
    raises_unchanged(c, c.act, P.PRO_OPEN, (0, 8, 3, 4, 0), "X")
    raises_unchanged(c, c.act, P.PRO_OPEN, (5, 8, 3, 2, 0), "X")
    raises_unchanged(c, c.act, P.PRO_OPEN, (0, 8, 3, 2), "X")
    c.act(cp.TAL_NEW, (4, tl.CLAMP, -1, 0, -1, 0, 0), "Clock")
    raises_unchanged(c, c.act, P.PRO_ROLL, (0, 1, 1, 0, 0), "", faces=(7, 7))
    raises_unchanged(c, c.act, P.PRO_ROLL, (3, 1, 1, 0, 0), "", faces=(7, 7))
    t = c.act(P.PRO_OPEN, (0, 8, 3, 2, 0), "X").tal
    raises_unchanged(c, c.act, P.PRO_ROLL, (t, 1, 1, 0, 0), "", faces=(7, 13))
    raises_unchanged(c, c.act, P.PRO_ROLL, (t, 1, 1, 0, 0), "", faces=(7,))
    raises_unchanged(c, c.act, P.PRO_ROLL, (t, 1, 9, 0, 0), "", faces=(7, 7))


def test_invalid_tests_leave_state_unchanged():
    c = new("Ada")
    c.act(P.PRO_OPEN, (0, 8, 3, 2, 0), "Heal")
    for args in ((0, 2, 2, 0, 0, 8, 0), (0, 2, 2, 0, 0, -1, 0), (0, 2, 2, 3, 0, 2, 0),
                 (0, 7, 2, 0, 0, 2, 0), (0, 2, 2, 0, -1, 2, 0), (0, 2, 2, 0, 0, 2, 2),
                 (4, 2, 2, 0, 0, 2, 0), (0, 2, 2, 0, 0, 2)):
        raises_unchanged(c, c.act, P.TEST, args, "", dice=Dice(1))
    raises_unchanged(c, c.act, P.TEST, (0, 1, 1, 0, 0, 2, 0), "", faces=(7, 7, 7))
    raises_unchanged(c, c.act, 90, (), "")
    e = raises(ValueError, c.act, P.TEST, (0, 1, 1, 0, 0, 9, 0), "", faces=(7, 7))
    assert "difficulty 9" in str(e) and "0 (automatic)..7" in str(e)


def test_undo_redo_and_replay_give_the_same_state():
    c = new("Ada", "Bo")
    d = Dice(21)
    t = c.act(P.PRO_OPEN, (1, 6, 0, 1, 0), "Ritual").tal
    s0 = cp.encode_state(c)
    c.act(P.PRO_ROLL, (t, 3, 2, 1, 0, 3), "", dice=d)
    s1 = cp.encode_state(c)
    c.undo()
    assert cp.encode_state(c)[6:] == s0[6:]  # past the event counter
    c.redo()
    assert cp.encode_state(c) != s1 and cp.encode_state(c)[6:] == s1[6:]
    c.act(P.TEST, (0, 2, 2, -1, 0, 3, 1, 2), "Faith", dice=d)
    c.act(P.OPPOSED, (1, 3, 3, 0, 1, 4, 1), "", dice=d)
    c.undo()
    r = cp.replay(c.system, c.events, c.cid)
    assert cp.encode_state(r) == cp.encode_state(c)
    s = cp.encode_state(c)
    back = cp.decode_state(s)
    assert cp.encode_state(back) == s
    assert P.status(back.tals[t]) == P.status(c.tals[t]) and back.tals[t].a == c.tals[t].a
    c.undo()
    c.undo()
    assert c.tals[t].n == 0  # the roll is undone, the test still open
    c.undo()
    assert c.tals == [] and P.open_tests(c) == 0


def test_failed_flag_survives_encoding():
    c = new("Ada")
    t = c.act(P.PRO_OPEN, (0, 5, 0, 0, 0), "Dig").tal
    c.act(P.PRO_ROLL, (t, 1, 1, 0, 0), "", faces=(1, 1))
    back = cp.decode_state(cp.encode_state(c))
    assert P.status(back.tals[t]) == P.ST_FAILED and P.open_tests(back) == 0
    raises_unchanged(back, back.act, P.PRO_ROLL, (t, 1, 1, 0, 0), "", faces=(7, 7))


def test_roll_pool_allocates_nothing():
    d = Dice(5)
    buf = new_pool()
    P.roll_pool(d, buf, 10)  # warm up (first calls may intern or cache)
    P.evaluate(buf, 10)
    res = bytearray(4)
    locked = sys.implementation.name == "micropython"
    if locked:
        import micropython
        micropython.heap_lock()
    try:
        s = P.roll_pool(d, buf, 10)
        e = P.evaluate(buf, 10)
        k = P.twelves(buf, 10)
        n = P.pool(3, 2, -2, 1)
        w = P.opposed_winner(s, k, e, 0)
        res[0] = s
        res[1] = e
        res[2] = n
        res[3] = w
    finally:
        if locked:
            micropython.heap_unlock()
    assert res[0] == res[1]
    assert res[2] == 2 and res[3] == 0
    assert all(1 <= f <= 12 for f in buf[:10])
    raises(ValueError, P.roll_pool, d, buf, 0)
    raises(ValueError, P.roll_pool, d, buf, 21)


def test_only_a_simple_prolonged_test_during_combat():
    # "Depending on the desired action, the timeframe for a prolonged test may
    # vary. However, only a simple prolonged test can be carried out during
    # combat." (Simple: "1 turn".)
    c = new("Ada")
    heal = c.act(P.PRO_OPEN, (0, 8, 3, 2, 0), "Healing").tal          # 1 day
    pick = c.act(P.PRO_OPEN, (0, 3, 0, 0, 0), "Lockpick").tal         # 1 turn: simple
    c.act(P.PRO_ROLL, (heal, 3, 3, 0, 0), faces=(7, 1, 1, 1, 1, 1))   # before the fight: fine
    out = c.act(PM.COMBAT, (1,), "Ambush")
    assert PM.in_combat(c) == out.tal and c.tals[out.tal].name == "Ambush"
    e = raises_unchanged(c, c.act, P.PRO_ROLL, (heal, 3, 3, 0, 0), faces=(7,) * 6)
    assert "only a simple prolonged test can be carried out during combat" in str(e)
    assert "1 day" in str(e)
    out = c.act(P.PRO_ROLL, (pick, 3, 3, 0, 0), faces=(7, 7, 1, 1, 1, 1))
    assert out.verdict == 2 and c.tals[pick].n == 2
    c.act(P.TEST, (0, 3, 3, 0, 0, 2, 0), faces=(7,) * 6)              # other tests go on
    raises_unchanged(c, c.act, PM.COMBAT, (1,))                        # one fight at a time
    raises_unchanged(c, c.act, PM.COMBAT, (2,))
    c.act(PM.COMBAT, (0,))
    assert PM.in_combat(c) == -1
    raises_unchanged(c, c.act, PM.COMBAT, (0,))
    out = c.act(P.PRO_ROLL, (heal, 3, 3, 0, 0), faces=(7, 1, 1, 1, 1, 1))
    assert out.verdict == 2 and c.tals[heal].n == 2
    # Fights come and go in one talisman slot; undo takes a fight back.
    n = len(c.tals)
    for _ in range(40):
        c.act(PM.COMBAT, (1,))
        c.act(PM.COMBAT, (0,))
    assert len(c.tals) == n
    c.act(PM.COMBAT, (1,))
    c.undo()
    assert PM.in_combat(c) == -1


def test_a_finished_prolonged_test_shows_what_was_rolled():
    # 10 successes against 8: `10/8`, margin +2 (the talisman stops at 8).
    c = new("Ada")
    t = c.act(P.PRO_OPEN, (0, 8, 3, 2, 0), "Healing").tal
    c.act(P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(12, 12, 1, 1))      # 4/8
    out = c.act(P.PRO_ROLL, (t, 4, 2, 0, 0), "", faces=(12, 12, 12, 1, 1, 1))  # 6 more: 10
    assert (out.verdict, out.successes, out.margin) == (1, 6, 2)
    assert out.notes[-1] == "Healing succeeded: 10/8" and c.tals[t].n == 8
    # Still open: the distance, as before.
    t = c.act(P.PRO_OPEN, (0, 8, 0, 0, 0), "Dig").tal
    out = c.act(P.PRO_ROLL, (t, 2, 2, 0, 0), "", faces=(12, 8, 1, 1))
    assert (out.verdict, out.margin) == (2, -5) and out.notes[-1] == "Dig 3/8"


def test_a_path_and_its_skills_on_the_sheet():
    # "the player rolls a number of dice equal to their level in the required
    # Skill, plus the level of that Skill's Path": Loriane's Eloquence 3 and
    # Path of Hope 2 give 5 dice.
    c = new("Loriane", "Bo")
    assert c.chars[0].v == []                       # no sheet yet: the state as before
    out = c.act(PM.PATH, (0, 1, 2, 0, 3, 0, 1, 0))  # Hope 2: Eloquence 3, Artistry 1
    assert out.notes == ["Loriane: Hope 2, Eloquence 3, Artistry 1"]
    ch = c.chars[0]
    assert len(ch.v) == PM.FIELDS and c.chars[1].v == []
    k = PM.skill_of("Eloquence")
    assert (k, PM.skill_name(k), PM.path_name(k // 5)) == (6, "Eloquence", "Hope")
    assert PM.pool_of(ch, k) == (3, 2) and P.pool(*PM.pool_of(ch, k)) == 5
    assert PM.pool_of(ch, PM.skill_of("Healing")) == (0, 0)   # Legacy: not set
    assert PM.pool_of(c.chars[1], k) == (0, 0)
    # The state keeps it, an undo takes it back, old states fold unchanged.
    c2 = cp.decode_state(cp.encode_state(c))
    assert c2.chars[0].v == ch.v
    c.undo()
    assert c.chars[0].v == []
    for bad in ((0, 6, 2, 0, 0, 0, 0, 0), (0, 1, 7, 0, 0, 0, 0, 0), (0, 1, 2, 0, 0, 0, 0, -1),
                (2, 1, 2, 0, 0, 0, 0, 0), (0, 1, 2, 0, 0, 0, 0)):
        raises_unchanged(c, c.act, PM.PATH, bad)
    assert [PM.skill_of(PM.skill_name(k)) for k in range(PM.NSKILLS)] == list(range(PM.NSKILLS))
    assert max(len(PM.skill_name(k)) for k in range(PM.NSKILLS)) == 14   # a row with its level
