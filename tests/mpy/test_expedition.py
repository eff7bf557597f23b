"""The `expedition` rules: pools, tests, combat, Toughness, turns, usage dice, rests."""
import sys

from rules import campaign as cp, systems
from rules import expedition as ex
from rules.dice import Dice, new_pool
from support import raises, raises_unchanged

V = ex  # field indices


def new(names=("Ada", "Bo", "Cy")):
    c = cp.Campaign(systems.EXPEDITION, cid=4)
    for n in names:
        c.act(cp.CHAR_ADD, (), n)
    return c


def hp(c, i):
    return c.chars[i].v[V.HP]


def combat(a=(0, 0, 0, 0, 0, 0), b=(-1, 0, 0, 0, 0, 0), group=0, allies=0, blocks=0, threat=3):
    return tuple(a) + tuple(b) + (group, allies, blocks, threat)


# --- hot path --------------------------------------------------------------

def test_pool_size_and_caps():
    assert ex.pool(0) == 2
    assert ex.pool(3, 1, 0, 2) == 8
    assert ex.pool(0, 0, 2, 0) == 0          # never below 0 dice
    assert ex.pool(10, 2, 0, 6) == 20
    raises(ValueError, ex.pool, 10, 2, 0, 7)  # 21 dice
    raises(ValueError, ex.pool, 11)
    raises(ValueError, ex.pool, -1)
    raises(ValueError, ex.pool, 0, 3)
    raises(ValueError, ex.pool, 0, 0, 3)


def test_obstacle_and_margins():
    # Meeting the Obstacle succeeds with margin 0; one short fails by 1.
    for ob in range(1, 8):
        assert ex.resolve(ob, ob) == 0
        assert ex.resolve(ob - 1, ob) == -1
        assert ex.resolve(ob + 2, ob) == 2
    assert ex.resolve(3, 3, 1) == 1        # +1s widens a success
    assert ex.resolve(2, 3, 2) == -1       # ...but never turns a failure
    assert ex.resolve(3, 3, 0, 1) == -1    # -1s turns a bare success into a failure
    assert ex.resolve(1, 1, 0, 5) == -1    # -Ns stops at 0 successes


def test_versus_plus_never_breaks_tie_minus_does():
    assert ex.versus_margin(2, 2, 3, 0, 0, 0) == 0     # +3s on a tie: still a tie
    assert ex.versus_margin(2, 2, 0, 1, 0, 0) == -1    # -1s: tie becomes a failure
    assert ex.versus_margin(3, 2, 0, 1, 0, 0) == 0     # -1s: a win becomes a tie
    assert ex.versus_margin(4, 2, 1, 0, 0, 0) == 3     # +1s widens a win
    assert ex.versus_margin(1, 2, 5, 0, 1, 0) == -2    # B's +1s widens B's win
    assert ex.versus_margin(0, 0, 0, 0, 0, 0) == 0


def test_evaluate_and_roll_pool_agree():
    assert ex.evaluate(bytes((1, 4, 6, 3, 5)), 5) == 3
    assert ex.evaluate(bytes((1, 4, 6, 3, 5)), 2) == 1
    raises(ValueError, ex.evaluate, bytes((7,)), 1)
    raises(ValueError, ex.evaluate, bytes((6, 0, 6)), 3)
    raises(ValueError, ex.evaluate, bytes(21), 21)
    assert ex.evaluate(bytes((6,) * 20), 20) == 20
    d = Dice(8)
    buf = new_pool()
    for n in (0, 1, 10, 20):
        s = ex.roll_pool(d, buf, n)
        assert s == ex.evaluate(buf, n)
        assert 0 <= s <= n


def test_roll_pool_allocates_nothing():
    d = Dice(11)
    buf = new_pool()
    mp = sys.implementation.name == "micropython"
    if mp:
        import micropython
        micropython.heap_lock()
    try:
        s = ex.roll_pool(d, buf, 10)
        e = ex.evaluate(buf, 10)
        n = ex.pool(3, 1, 1, 2)
        m = ex.resolve(s, 3, 1, 0)
        v = ex.versus_margin(s, e, 1, 0, 0, 1)
    finally:
        if mp:
            micropython.heap_unlock()
    assert s == e and n == 7
    assert (m >= 0) == (s >= 3)
    assert v == (2 if s else 0)


# --- tests -------------------------------------------------------------------

def test_independent_test_event():
    c = new()
    # Ability 2, +1d, 1 helper: 6 dice; Ob 3; three successes meets it.
    out = c.act(ex.TEST, (2, 3, 1, 0, 1, 0, 0, -1), faces=(4, 5, 6, 1, 2, 3))
    assert (out.successes, out.verdict, out.margin) == (3, 1, 0)
    out = c.act(ex.TEST, (2, 3, 1, 0, 1, 2, 0, -1), faces=(4, 5, 6, 6, 2, 3))
    assert (out.verdict, out.margin) == (1, 3)              # +2s on a success
    out = c.act(ex.TEST, (2, 3, 1, 0, 1, 2, 0, -1), faces=(4, 5, 1, 1, 2, 3))
    assert (out.verdict, out.margin) == (0, 1)              # +2s never rescues
    out = c.act(ex.TEST, (2, 3, 1, 0, 1, 0, 1, -1), faces=(4, 5, 6, 1, 2, 3))
    assert (out.verdict, out.margin) == (0, 1)              # -1s breaks it
    # Ability 0 with two penalty dice: a 0-die pool, 0 successes.
    out = c.act(ex.TEST, (0, 1, 0, 2, 0, 0, 0, -1), faces=())
    assert (out.successes, out.verdict, out.faces) == (0, 0, b"")
    d = Dice(3)
    out = c.act(ex.TEST, (4, 3, 0, 0, 0, 0, 0, -1), dice=d)
    assert len(out.faces) == 6 and out.successes == ex.evaluate(out.faces, 6)


def test_extended_test_counts_successes_and_failures():
    c = new()
    t = c.act(ex.EXT_NEW, (2, 2), "Chase").tal
    assert t == len(c.tals) - 1
    c.act(ex.TEST, (0, 1, 0, 0, 0, 0, 0, t), faces=(6, 1))
    c.act(ex.TEST, (0, 1, 0, 0, 0, 0, 0, t), faces=(1, 1))
    assert (c.tals[t].n, c.tals[t].b) == (1, 1)
    out = c.act(ex.TEST, (0, 1, 0, 0, 0, 0, 0, t), faces=(5, 1))
    assert c.tals[t].filled() and "PASSED" in out.notes[-1]
    raises_unchanged(c, c.act, ex.TEST, (0, 1, 0, 0, 0, 0, 0, t), faces=(5, 1))
    c.act(ex.EXT_NEW, (3, 1), "Climb")
    u = len(c.tals) - 1
    out = c.act(ex.TEST, (0, 1, 0, 0, 0, 0, 0, u), faces=(1, 1))
    assert "FAILED" in out.notes[-1]
    raises_unchanged(c, c.act, ex.TEST, (0, 1, 0, 0, 0, 0, 0, u), faces=(5, 1))


def test_versus_event():
    c = new()
    args = (1, 0, 0, 0, 2, 0) + (0, 0, 0, 0, 0, 0)
    out = c.act(ex.VERSUS, args, faces=(6, 1, 1, 5, 1))
    assert (out.verdict, out.margin) == (2, 0)      # 1 vs 1 tie, +2s ignored
    out = c.act(ex.VERSUS, args, faces=(6, 6, 1, 5, 1))
    assert (out.verdict, out.margin) == (1, 3)      # wins by 1, +2s
    out = c.act(ex.VERSUS, (1, 0, 0, 0, 0, 1) + (0, 0, 0, 0, 0, 0), faces=(6, 1, 1, 5, 1))
    assert (out.verdict, out.margin) == (0, 1)      # -1s turns the tie into a loss


# --- combat ------------------------------------------------------------------

def test_combat_winner_deals_margin_plus_s():
    c = new()
    # Ada Ability 1 (3 dice) +1s vs an NPC with Ability 0 (2 dice).
    out = c.act(ex.COMBAT, combat((0, 1, 0, 0, 1, 0)), faces=(6, 6, 5, 1, 4))
    assert (out.verdict, out.margin) == (1, 3) and "enemy takes 3" in out.notes
    assert hp(c, 0) == 4
    out = c.act(ex.COMBAT, combat((0, 1, 0, 0, 1, 0)), faces=(1, 1, 1, 6, 6))
    assert (out.verdict, out.margin) == (0, 2) and hp(c, 0) == 2
    # B does not threaten Ada (she is not its target): losing costs nothing.
    c.act(ex.COMBAT, combat((0, 1, 0, 0, 0, 0), threat=1), faces=(1, 1, 1, 6, 6))
    assert hp(c, 0) == 2
    # A helpless target rolls nothing: damage = A's successes.
    out = c.act(ex.COMBAT, combat((0, 0, 0, 0, 0, 0), (1, -1, 0, 0, 0, 0)), faces=(6, 5))
    assert out.margin == 2 and hp(c, 1) == 2


def test_combat_tie_costs_both_one():
    c = new()
    out = c.act(ex.COMBAT, combat((0, 0, 0, 0, 2, 0), (1, 0, 0, 0, 0, 0)), faces=(6, 1, 5, 2))
    assert out.verdict == 2 and hp(c, 0) == 3 and hp(c, 1) == 3  # +2s never breaks it


def test_ganging_up_supporters_share_the_loss():
    c = new()
    # Ada leads Bo and Cy: Ability 0 + 2 supporters = 4 dice vs NPC Ability 3 (5 dice).
    args = combat((0, 0, 0, 0, 0, 0), (-1, 3, 0, 0, 0, 0), group=2, allies=0b110)
    out = c.act(ex.COMBAT, args, faces=(1, 1, 1, 4, 6, 6, 6, 1, 1))
    assert out.verdict == 0 and out.margin == 2
    assert (hp(c, 0), hp(c, 1), hp(c, 2)) == (2, 2, 2)
    out = c.act(ex.COMBAT, args, faces=(6, 6, 6, 6, 1, 1, 1, 1, 1))
    assert "enemy takes 4" in out.notes and (hp(c, 0), hp(c, 1), hp(c, 2)) == (2, 2, 2)
    raises_unchanged(c, c.act, ex.COMBAT, args, faces=(6, 6, 6, 1, 1, 1, 1, 1))  # 3+5 != 9


def test_firing_into_melee():
    c = new()
    # Ada Ability 2 (4 dice) -1d = 3 dice; Bo plus one NPC ally engaged (d2 picks).
    args = combat((0, 2, 0, 0, 0, 0), (-1, 3, 0, 0, 0, 0), group=-2, allies=0b10, threat=1)
    out = c.act(ex.COMBAT, args, faces=(1, 1, 1, 6, 6, 6, 6, 1, 1, 6, 6, 1))
    assert out.margin == 4 and hp(c, 1) == 2 and hp(c, 0) == 4   # 3d: two successes to Bo
    assert "stray shot: 3d = 2 to ally 1" in out.notes
    out = c.act(ex.COMBAT, args, faces=(1, 1, 1, 6, 6, 6, 6, 1, 2, 6, 6, 6))
    assert "NPC ally takes 3" in out.notes and hp(c, 1) == 2
    # Failing by exactly 3: no stray shot, no extra dice.
    out = c.act(ex.COMBAT, args, faces=(1, 1, 1, 6, 6, 6, 1, 1))
    assert len(out.faces) == 8 and hp(c, 1) == 2
    # A single engaged ally needs no die to pick it.
    one = combat((0, 2, 0, 0, 0, 0), (-1, 3, 0, 0, 0, 0), group=-1, allies=0b100, threat=1)
    c.act(ex.COMBAT, one, faces=(1, 1, 1, 6, 6, 6, 6, 1, 6, 1, 1))
    assert hp(c, 2) == 3


def test_combat_validation():
    c = new()
    raises_unchanged(c, c.act, ex.COMBAT, combat((0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0)))
    raises_unchanged(c, c.act, ex.COMBAT, combat(group=1, allies=0b1))        # Ada twice
    raises_unchanged(c, c.act, ex.COMBAT, combat(group=1, allies=0b110))      # 2 PCs in 1
    raises_unchanged(c, c.act, ex.COMBAT, combat(blocks=1))                   # no armor
    raises_unchanged(c, c.act, ex.COMBAT, combat(blocks=1 << 4))              # Cy not fighting
    raises_unchanged(c, c.act, ex.COMBAT, combat(threat=4))
    raises_unchanged(c, c.act, ex.COMBAT, combat((0, 0, 0, 0, 0, 0), (-1, -1, 1, 0, 0, 0)))
    raises_unchanged(c, c.act, ex.COMBAT, combat()[:15])


# --- Toughness -----------------------------------------------------------------

def test_bonus_hp_taken_first_and_never_regained():
    c = new()
    c.act(ex.BONUS_HP, (0, 2))
    c.act(ex.BONUS_HP, (0, 1))                 # stacks
    assert c.chars[0].v[V.BONUS] == 3
    c.act(ex.DAMAGE, (0, 2, 0))
    assert (hp(c, 0), c.chars[0].v[V.BONUS]) == (4, 1)
    c.act(ex.DAMAGE, (0, 3, 0))
    assert (hp(c, 0), c.chars[0].v[V.BONUS]) == (2, 0)
    c.act(ex.SHORT_REST, (1,))
    c.act(ex.HEAL, (0, 5))
    c.act(ex.LONG_REST, ())
    assert (hp(c, 0), c.chars[0].v[V.BONUS]) == (4, 0)
    c.act(ex.BONUS_HP, (0, 4))
    c.act(ex.BONUS_END, (0,))                  # expired
    assert c.chars[0].v[V.BONUS] == 0


def test_armor_blocks_once_a_day_until_long_rest():
    c = new()
    c.act(ex.SHEET, (0, 8, 8, 0, 0, 1, 1, 0))   # light armor and a shield
    c.act(ex.DAMAGE, (0, 3, 1))                 # light armor blocks 2
    assert hp(c, 0) == 7
    raises_unchanged(c, c.act, ex.DAMAGE, (0, 3, 1))
    c.act(ex.DAMAGE, (0, 1, 2))                 # the whole Block of 2 on 1 damage
    assert hp(c, 0) == 7 and c.chars[0].v[V.SPENT] == 3
    raises_unchanged(c, c.act, ex.DAMAGE, (0, 1, 2))
    c.act(ex.LONG_REST, ())
    assert c.chars[0].v[V.SPENT] == 0 and hp(c, 0) == 8
    c.act(ex.DAMAGE, (0, 5, 3))                 # both: 2 + 2
    assert hp(c, 0) == 7
    c.act(ex.SHEET, (0, 8, 8, 0, 0, 2, 0, 0))   # heavy armor, blocks 4
    c.act(ex.LONG_REST, ())
    c.act(ex.DAMAGE, (0, 5, 1))
    assert hp(c, 0) == 7
    # In combat the blocks mask holds 2 bits per character.
    c.act(ex.SHEET, (1, 4, 4, 0, 0, 1, 0, 0))
    out = c.act(ex.COMBAT, combat((1, 0, 0, 0, 0, 0), blocks=1 << 2), faces=(1, 1, 6, 6))
    assert hp(c, 1) == 4 and c.chars[1].v[V.SPENT] == 1 and out.margin == 2


def down_faces(r):
    return (1, r - 1) if r <= 7 else (r - 6, 6)


def test_down_and_out_table():
    want = {2: ("xp", 1), 3: ("max", 5), 4: ("trauma", 4), 5: ("dead", 1), 6: ("max", 2),
            7: ("gear", 4), 8: ("max", 2), 9: ("dead", 1), 10: ("trauma", 4),
            11: ("max", 5), 12: ("xp", 1)}
    for r in range(2, 13):
        c = new()
        c.act(ex.DAMAGE, (0, 6, 0))
        v = c.chars[0].v
        assert v[V.HP] == 0 and v[V.DOWN] == 1
        faces = down_faces(r) + ((5,) if r in (4, 10) else ())
        out = c.act(ex.DOWN_OUT, (0, 1), faces=faces)
        what, n = want[r]
        assert out.margin == r and v[V.DOWN] == 0
        if what == "xp":
            assert v[V.XP] == 1
        elif what == "max":
            assert v[V.MAX_HP] == n and v[V.HP] == 0 and not v[V.DEAD]
        elif what == "dead":
            assert v[V.DEAD] == 1
        elif what == "trauma":
            assert "Ada Trauma: lose 1 Knowledge" in out.notes and v[V.MAX_HP] == 4
        else:
            assert v[V.MAX_HP] == 4 and not v[V.DEAD] and "Broken Gear" in out.notes[0]


def test_damage_while_down_owes_more_rolls_and_no_aid_kills():
    c = new()
    c.act(ex.DAMAGE, (0, 4, 0))
    c.act(ex.DAMAGE, (0, 1, 0))
    c.act(ex.DAMAGE, (0, 2, 0))
    assert c.chars[0].v[V.DOWN] == 3
    out = c.act(ex.DOWN_OUT, (0, 1), faces=(1, 1, 6, 6, 1, 2))
    assert c.chars[0].v[V.XP] == 2 and c.chars[0].v[V.MAX_HP] == 5 and len(out.faces) == 6
    raises_unchanged(c, c.act, ex.DOWN_OUT, (0, 1), faces=(1, 1))   # not down anymore
    c.act(ex.DAMAGE, (1, 9, 0))
    c.act(ex.DOWN_OUT, (1, 0))
    assert c.chars[1].v[V.DEAD] == 1
    raises_unchanged(c, c.act, ex.HEAL, (1, 1))


def test_max_hp_to_zero_is_death():
    c = new()
    c.act(ex.SHEET, (0, 2, 2, 0, 0, 0, 0, 0))
    c.act(ex.DAMAGE, (0, 2, 0))
    c.act(ex.DOWN_OUT, (0, 1), faces=(3, 3))    # Lingering Injury: -2 max HP
    v = c.chars[0].v
    assert v[V.MAX_HP] == 0 and v[V.DEAD] == 1
    raises_unchanged(c, c.act, ex.DAMAGE, (0, 1, 0))
    raises_unchanged(c, c.act, ex.SHEET, (0, 4, 4, 0, 0, 0, 0, 0))


# --- turns, usage dice, tables ----------------------------------------------------

def test_encounter_checks_every_1_2_3_turns():
    for freq in (1, 2, 3):
        c = new()
        c.act(ex.SET_FREQ, (freq,))
        checks = 0
        for turn in range(1, 7):
            assert ex.next_check(c)[0] == freq - (turn - 1) % freq
            due = turn % freq == 0
            out = c.act(ex.TURN, (1,), faces=(2,) if due else ())  # overland: no usage
            checks += due
            assert out.verdict == (1 if due else 0)
        assert checks == 6 // freq and c.x[V.TURN_N] == 6
    c = new()
    c.act(ex.SET_FREQ, (1,))
    assert c.act(ex.TURN, (1,), faces=(3,)).verdict == 2     # a sign
    assert c.act(ex.TURN, (1,), faces=(4,)).verdict == 0     # nothing
    assert c.act(ex.TURN, (1,), faces=(1,)).verdict == 1
    assert c.act(ex.ENC_CHECK, (), faces=(12,)).verdict == 0
    raises_unchanged(c, c.act, ex.SET_FREQ, (4,))
    raises_unchanged(c, c.act, ex.TURN, (1,), faces=(13,))
    raises_unchanged(c, c.act, ex.TURN, (1,), faces=())


def test_usage_die_steps_down_and_is_spent():
    c = new()
    c.act(ex.USAGE_NEW, (12, -1, 0), "Rations")
    t = len(c.tals) - 1
    for sides in (12, 10, 8, 6, 4):
        assert ex.usage_sides(c.tals[t]) == sides
        c.act(ex.USAGE_ROLL, (t,), faces=(3,))       # 3+: holds
        assert ex.usage_sides(c.tals[t]) == sides
        out = c.act(ex.USAGE_ROLL, (t,), faces=(2 if sides % 4 else 1,))
    assert ex.usage_sides(c.tals[t]) == 0 and "SPENT" in out.notes[0]
    raises_unchanged(c, c.act, ex.USAGE_ROLL, (t,), faces=(1,))
    c.act(ex.USAGE_NEW, (4, 0, 1), "Torch")
    u = len(c.tals) - 1
    raises_unchanged(c, c.act, ex.USAGE_ROLL, (u,), faces=(5,))   # not a d4 face
    raises_unchanged(c, c.act, ex.USAGE_NEW, (7, -1, 0), "Bad")
    raises_unchanged(c, c.act, ex.USAGE_NEW, (6, -1, 0), "")


def test_usage_dice_checked_every_other_exploration_turn():
    c = new()
    c.act(ex.SET_FREQ, (3,))
    c.act(ex.USAGE_NEW, (6, -1, 1), "Torches")
    c.act(ex.USAGE_NEW, (8, -1, 0), "Oil")          # only after a scene
    t = len(c.tals) - 2
    assert ex.next_check(c) == (3, 2)
    c.act(ex.TURN, (0,), faces=())
    c.act(ex.TURN, (1,), faces=())                   # overland: usage not counted
    assert ex.next_check(c) == (1, 1)
    out = c.act(ex.TURN, (0,), faces=(9, 1))         # encounter d12, then Torches d6
    assert ex.usage_sides(c.tals[t]) == 4 and ex.usage_sides(c.tals[t + 1]) == 8
    assert list(out.faces) == [9, 1] and ex.next_check(c) == (3, 2)


def test_reaction_morale_distance():
    c = new()
    assert [c.act(ex.REACTION, (), faces=(f,)).margin for f in (1, 3, 4, 9, 10)] == [0, 0, 1, 1, 2]
    assert c.act(ex.MORALE, (8, 1), faces=(4,)).verdict == 1
    assert c.act(ex.MORALE, (8, 0), faces=(4,)).verdict == 0
    assert c.act(ex.MORALE, (6, -1), faces=(6,)).verdict == 1
    assert c.act(ex.MORALE, (10, -1), faces=(5,)).verdict == 0
    raises_unchanged(c, c.act, ex.MORALE, (12, 0), faces=(5,))
    raises_unchanged(c, c.act, ex.MORALE, (8, 2), faces=(5,))
    assert "distance 1 (extremely close)" in c.act(ex.DISTANCE, (), faces=(1,)).notes


def test_desperate_returns():
    c = new()
    c.act(ex.DESPERATE, (0,), faces=(4,))
    assert c.chars[0].v[V.MAX_HP] == 2 and hp(c, 0) == 2
    c.act(ex.DESPERATE, (0,), faces=(1,))
    out = c.act(ex.DESPERATE, (0,), faces=(5, 1))
    assert "Ada Trauma: lose 1 Might" in out.notes
    c.act(ex.DESPERATE, (1,), faces=(6,))
    assert c.chars[1].v[V.DEAD] == 1
    raises_unchanged(c, c.act, ex.DESPERATE, (1,), faces=(1,))


def test_project_clock():
    c = new()
    raises_unchanged(c, c.act, ex.PROJECT_NEW, (3, 0), "Tower")
    raises_unchanged(c, c.act, ex.PROJECT_NEW, (11, 0), "Tower")
    c.act(ex.PROJECT_NEW, (4, 0), "Tower")
    t = len(c.tals) - 1
    for _ in range(4):
        out = c.act(ex.PROJECT_TICK, (t,))
    assert c.tals[t].filled() and "complete" in out.notes[0]
    raises_unchanged(c, c.act, ex.PROJECT_TICK, (t,))
    c.act(ex.USAGE_NEW, (6, -1, 0), "Torch")
    raises_unchanged(c, c.act, ex.PROJECT_TICK, (t + 1,))


def test_short_rests_twice_a_day():
    c = new(("Ada",))
    c.act(ex.SHEET, (0, 2, 4, 0, 2, 0, 0, 0))
    c.act(ex.SHORT_REST, (0,))
    assert (hp(c, 0), c.chars[0].v[V.RES]) == (3, 1)
    c.act(ex.USE_RES, (0, 1))
    c.act(ex.SHORT_REST, (1,))
    assert (hp(c, 0), c.chars[0].v[V.RES]) == (4, 1)
    raises_unchanged(c, c.act, ex.SHORT_REST, (1,))
    raises_unchanged(c, c.act, ex.SHORT_REST, (0,))
    raises_unchanged(c, c.act, ex.USE_RES, (0, 2))
    c.act(ex.LONG_REST, ())
    assert c.x[V.DAY] == 2 and c.chars[0].v[V.RESTS] == 0 and c.chars[0].v[V.RES] == 2
    c.act(ex.SHORT_REST, (0,))


# --- robustness ------------------------------------------------------------------

def test_invalid_actions_leave_state_unchanged():
    c = new()
    raises_unchanged(c, c.act, ex.TEST, (2, 8, 0, 0, 0, 0, 0, -1))
    raises_unchanged(c, c.act, ex.TEST, (2, 0, 0, 0, 0, 0, 0, -1))
    raises_unchanged(c, c.act, ex.TEST, (11, 3, 0, 0, 0, 0, 0, -1))
    raises_unchanged(c, c.act, ex.TEST, (2, 3, 0, 0, 0, 7, 0, -1))
    raises_unchanged(c, c.act, ex.TEST, (2, 3, 0, 0, 0, 0, 0, 5))
    raises_unchanged(c, c.act, ex.TEST, (2, 3, 0, 0, 0, 0, 0))
    raises_unchanged(c, c.act, ex.TEST, (0, 1, 0, 0, 0, 0, 0, -1), faces=(4, 7))
    raises_unchanged(c, c.act, ex.TEST, (0, 1, 0, 0, 0, 0, 0, -1), faces=(4,))
    raises_unchanged(c, c.act, ex.DAMAGE, (5, 1, 0))
    raises_unchanged(c, c.act, ex.DAMAGE, (0, -1, 0))
    raises_unchanged(c, c.act, ex.HEAL, (0, 0))
    raises_unchanged(c, c.act, ex.SHEET, (0, 5, 4, 0, 0, 0, 0, 0))
    raises_unchanged(c, c.act, ex.SHEET, (0, 4, 4, 0, 0, 3, 0, 0))
    raises_unchanged(c, c.act, ex.VAR_DAMAGE, (-1, 3, 1, 0), faces=(1, 2, 3))
    raises_unchanged(c, c.act, ex.SHORT_REST, (8,))
    raises_unchanged(c, c.act, ex.TURN, (2,))
    raises_unchanged(c, c.act, 127)
    e = raises_unchanged(c, c.act, ex.TEST, (10, 1, 2, 0, 7, 0, 0, -1))
    assert "over 20" in str(e)


def test_variable_damage_halves_round_up():
    c = new()
    out = c.act(ex.VAR_DAMAGE, (0, 3, 0, 1), faces=(6, 6, 6))
    assert out.successes == 3 and out.margin == 2 and hp(c, 0) == 2
    out = c.act(ex.VAR_DAMAGE, (-1, 6, 0, 0), faces=(6, 6, 1, 1, 4, 2))
    assert out.margin == 3 and "enemy takes 3" in out.notes


def test_undo_and_replay():
    c = new()
    d = Dice(21)
    c.act(ex.SHEET, (0, 6, 6, 1, 2, 1, 0, 0))
    s0 = cp.encode_state(c)
    c.act(ex.DAMAGE, (0, 4, 1))
    assert hp(c, 0) == 4 and c.chars[0].v[V.SPENT] == 1
    c.undo()
    assert cp.encode_state(c)[6:] == s0[6:]
    c.redo()
    assert hp(c, 0) == 4
    c.act(ex.USAGE_NEW, (6, -1, 1), "Torches")
    for _ in range(5):
        c.act(ex.TURN, (0,), dice=d)
    c.act(ex.COMBAT, combat((0, 2, 1, 0, 0, 0), (-1, 2, 0, 0, 0, 0), group=2, allies=0b110), dice=d)
    c.act(ex.TEST, (3, 3, 0, 0, 1, 1, 0, -1), dice=d)
    before = cp.encode_state(c)
    c.act(ex.LONG_REST, ())
    c.undo()
    assert cp.encode_state(c)[6:] == before[6:]
    r = cp.replay(c.system, c.events, c.cid)
    assert cp.encode_state(r) == cp.encode_state(c)
    s = cp.encode_state(c)
    assert cp.encode_state(cp.decode_state(s)) == s
