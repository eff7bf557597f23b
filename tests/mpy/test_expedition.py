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
    raises(ValueError, ex.pool, 0, 19)        # 21 dice (bonus dice: 0..18)
    raises(ValueError, ex.pool, 0, -1)
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
            # on the countdown (an overland turn by boat): no usage
            out = c.act(ex.TURN, (ex.OVERLAND_CD,), faces=(2,) if due else ())
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
    raises_unchanged(c, c.act, ex.TEST, (2, 31, 0, 0, 0, 0, 0, -1), faces=(6,) * 4)
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


# --- the seed's cadence, rests, Obstacles, monsters ----------
# Each test fails on the rules before them (docs/rules/expedition.md has the
# readings); old journals must fold exactly as they did.

def test_overland_turn_checks_every_turn():
    # "Normally, Random Encounter Checks ought to be made once per Overland Turn."
    c = new()
    assert c.x[V.FREQ] == 2                      # a dungeon of average density
    for turn in (1, 2, 3):
        out = c.act(ex.TURN, (ex.OVERLAND,), faces=(5,))   # a d12 on every overland turn
        assert list(out.faces) == [5] and out.margin == 5 and out.successes == turn
        assert ex.next_check(c) == (1, 2)        # the dungeon countdowns are untouched
    assert c.x[V.ENC_LEFT] == 2 and c.x[V.TURN_KIND] == ex.OVERLAND
    assert c.act(ex.TURN, (ex.OVERLAND,), faces=(1,)).verdict == 1
    raises_unchanged(c, c.act, ex.TURN, (ex.OVERLAND,), faces=())   # the d12 is always due
    # Back in a dungeon: its countdown goes on where it was.
    assert c.act(ex.TURN, (ex.EXPLORE,), faces=()).verdict == 0
    assert ex.next_check(c) == (1, 1)
    raises_unchanged(c, c.act, ex.TURN, (3,))


def test_old_journals_fold_as_before():
    # Events as the firmware before wrote them (TURN 1 on the dungeon
    # countdown, a one-argument SHORT_REST, Ob 7, an NPC of Ability 10) and
    # the state that firmware folded them to: the same, byte for byte.
    evs = (b"\x03\x00\x00\x03Ada", b"h\x08\x00\x04\x08\x00\x04\x00\x00\x00\x00\x00",
           b"p\x03\x0c\x01\x02\x00\x05Torch", b"m\x01\x02\x00\x00", b"m\x01\x02\x01\x07\x00",
           b"k\x01\x00\x00\x00", b"m\x01\x02\x00\x00", b"m\x01\x00\x01\t\x00",
           b"`\x08\x06\x0e\x00\x00\x00\x00\x00\x01\x05\x06\x06\x06\x06\x06\x00",
           b"b\x10\x00\x04\x00\x00\x00\x00\x01\x14\x00\x00\x00\x00\x00\x00\x00\x06\x10"
           + bytes((6,) * 4 + (1,) * 12) + b"\x00")
    c = cp.replay(systems.EXPEDITION, evs, 4)
    assert list(c.x) == [4, 0, 2, 2, 1, 1]
    assert cp.encode_state(c) == (
        b"DT\x01\x02\x08\x14\x0c\x08\x00\x04\x04\x02\x02\x02\x03Ada\x18\x06\x08\x00\x02"
        b"\x04\x00\x00\x00\x00\x00\x02\x00\x02\x01\x05Torch\n\x06\x00\x01\x02\x01\x0c\x02")


def test_short_rest_occupies_an_exploration_turn():
    # "A short rest occupies one Exploration Turn (~10 minutes)."
    c = new(("Ada",))
    c.act(ex.SHEET, (0, 2, 4, 0, 2, 0, 0, 0))
    c.act(ex.USAGE_NEW, (6, -1, 1), "Torches")
    t = len(c.tals) - 1
    out = c.act(ex.SHORT_REST, (0, 1), faces=())        # turn 1: no check due yet
    assert out.successes == 1 and c.x[V.TURN_N] == 1 and ex.next_check(c) == (1, 1)
    assert (hp(c, 0), c.chars[0].v[V.RES]) == (3, 1)
    c.act(ex.USE_RES, (0, 1))
    out = c.act(ex.SHORT_REST, (0, 1), faces=(2, 1))    # turn 2: the d12, then the torch
    assert list(out.faces) == [2, 1] and out.verdict == 1 and out.margin == 2
    assert ex.usage_sides(c.tals[t]) == 4 and ex.next_check(c) == (2, 2)
    assert c.x[V.TURN_N] == 2 and c.x[V.TURN_KIND] == ex.EXPLORE
    assert (hp(c, 0), c.chars[0].v[V.RES], c.chars[0].v[V.RESTS]) == (4, 1, 2)
    raises_unchanged(c, c.act, ex.SHORT_REST, (0, 1), faces=())   # both rests taken
    raises_unchanged(c, c.act, ex.SHORT_REST, (0, 2))
    # The one-argument form (every journal before) passes no turn.
    c.act(ex.LONG_REST, ())
    c.act(ex.SHORT_REST, (0,))
    assert c.x[V.TURN_N] == 2 and ex.next_check(c) == (2, 2)


def test_obstacles_past_seven():
    # An Obstacle is what the text makes it: "+1 Ob per point of damage taken"
    # while channeling, "+1 Ob from each Slot" of armor, a Save's Ob "equal to
    # the number of successes that you rolled", the Cash table's Ob 20.
    c = new()
    args = (10, 12, 2, 0, 6, 0, 0, -1)                 # 20 dice against Ob 12
    out = c.act(ex.TEST, args, faces=(6,) * 12 + (1,) * 8)
    assert (out.successes, out.verdict, out.margin) == (12, 1, 0)
    out = c.act(ex.TEST, args, faces=(6,) * 11 + (1,) * 9)
    assert (out.verdict, out.margin) == (0, 1)
    out = c.act(ex.TEST, (3, ex.MAX_OB, 0, 0, 0, 0, 0, -1), faces=(6,) * 5)
    assert ex.MAX_OB == 30 and (out.verdict, out.margin) == (0, 25)
    assert "5 vs Ob 30: failure by 25" in out.notes
    raises_unchanged(c, c.act, ex.TEST, (3, 31, 0, 0, 0, 0, 0, -1), faces=(6,) * 5)


def test_monsters_roll_level_plus_three():
    # "Monsters generally roll a Pool of dice equal to Level plus 3. Their pool
    # gains a bonus die for strengths, and a penalty die for weaknesses."
    assert ex.monster_pool(0) == 3 and ex.monster_pool(14) == 17
    assert ex.monster_pool(14, 2) == 19 and ex.monster_pool(14, 2, 0, 1) == 20
    assert ex.monster_pool(0, 0, 2) == 1
    raises(ValueError, ex.monster_pool, 15)
    raises(ValueError, ex.monster_pool, 14, 2, 0, 2)   # 21 dice
    raises(ValueError, ex.monster_pool, -1)
    c = new()
    # Ada (Ability 1: 3 dice) against a Level 14 monster: 17 dice.
    a = combat((0, 1, 0, 0, 0, 0), (-1, 14, 0, 0, 0, 0), threat=3 | ex.FOE_B)
    out = c.act(ex.COMBAT, a, faces=(6, 6, 6) + (6,) * 4 + (1,) * 13)
    assert len(out.faces) == 20 and out.verdict == 0 and out.margin == 1 and hp(c, 0) == 3
    # ...with a bonus die for a strength: 18 dice; +2s special damage.
    a = combat((0, 1, 0, 0, 0, 0), (-1, 14, 1, 0, 2, 0), threat=3 | ex.FOE_B)
    out = c.act(ex.COMBAT, a, faces=(1, 1, 1) + (6,) + (1,) * 17)
    assert len(out.faces) == 21 and out.margin == 3 and hp(c, 0) == 0
    # The monster on side A, leading a gang of two: 17 + 2 = 19 dice.
    a = combat((-1, 14, 0, 0, 0, 0), (1, 2, 0, 0, 0, 0), group=2, threat=3 | ex.FOE_A)
    out = c.act(ex.COMBAT, a, faces=(1,) * 19 + (6, 6, 1, 1))
    assert len(out.faces) == 23 and out.verdict == 0 and "enemy takes 2" in out.notes
    # A monster is no character; a Level over 14 is refused; so is a 15th
    # Level as an Ability (a character's Ability stops at 10).
    raises_unchanged(c, c.act, ex.COMBAT, combat((1, 1, 0, 0, 0, 0), (2, 3, 0, 0, 0, 0),
                                                 threat=3 | ex.FOE_B))
    raises_unchanged(c, c.act, ex.COMBAT, combat((1, 1, 0, 0, 0, 0), (-1, 15, 0, 0, 0, 0),
                                                 threat=3 | ex.FOE_B))
    raises_unchanged(c, c.act, ex.COMBAT, combat((1, 1, 0, 0, 0, 0), (-1, 11, 0, 0, 0, 0)))
    raises_unchanged(c, c.act, ex.COMBAT, combat(threat=16))
    # A versus test and a test (a monster's Save) take a monster the same way.
    out = c.act(ex.VERSUS, (0, 0, 0, 0, 0, 0) + (12, 0, 1, 0, 0, 0) + (2,),
                faces=(6, 6) + (6,) * 2 + (1,) * 12)
    assert len(out.faces) == 16 and out.verdict == 2
    out = c.act(ex.TEST, (5, 4, 0, 0, 0, 0, 0, -1, 1), faces=(6,) * 4 + (1,) * 4)
    assert len(out.faces) == 8 and (out.verdict, out.margin) == (1, 0)
    raises_unchanged(c, c.act, ex.VERSUS, (0,) * 12 + (4,))
    raises_unchanged(c, c.act, ex.TEST, (5, 4, 0, 0, 0, 0, 0, -1, 2))


def test_bonus_dice_past_two_from_the_texts_own_sources():
    # "Cultivate Asset: When you work to gain the trust or assistance of any
    # person, spend Subterfuge to add +3d to the test." "Strongholds are each
    # rated from 1-6 ... you roll bonus dice equal to the Stronghold's
    # rating." "The Circles score starts as zero bonus dice, but may be
    # improved up to six bonus dice +6d)", and "Reputation is added to
    # relevant Circles checks at a rate of +1d per point".
    assert ex.MAX_BONUS == 18 and ex.pool(0, 18) == 20
    assert ex.pool(3, 3) == 8 and ex.pool(2, 6) == 10
    assert ex.monster_pool(14, 3) == 20
    raises(ValueError, ex.monster_pool, 14, 4)          # 21 dice
    c = new(("Ada",))
    out = c.act(ex.TEST, (3, 4, 3, 0, 0, 0, 0, -1), faces=(6,) * 4 + (1,) * 4)   # +3d: 8 dice
    assert len(out.faces) == 8 and out.verdict == 1
    # A Circles check: Presence 4, Circles 6, Reputation 3: 2 + 4 + 9 = 15 dice.
    out = c.act(ex.TEST, (4, 5, 9, 0, 0, 0, 0, -1), faces=(5,) * 5 + (2,) * 10)
    assert len(out.faces) == 15 and (out.verdict, out.margin) == (1, 0)
    # A Stronghold of rating 6 defending its walls, versus a Level 9 monster
    # with a strength (12 + 1 = 13 dice); and in a combat check.
    out = c.act(ex.VERSUS, (2, 6, 0, 0, 0, 0) + (9, 1, 0, 0, 0, 0) + (2,),
                faces=(6,) * 10 + (1,) * 13)
    assert len(out.faces) == 23 and out.verdict == 1 and out.margin == 10
    a = combat((0, 2, 6, 0, 0, 0), (-1, 9, 1, 0, 0, 0), threat=3 | ex.FOE_B)
    out = c.act(ex.COMBAT, a, faces=(6,) * 10 + (1,) * 13)
    assert len(out.faces) == 23 and out.verdict == 1
    # Still at most 20 dice; a bonus of 19 is refused, naming the range.
    e = raises_unchanged(c, c.act, ex.TEST, (0, 1, 19, 0, 0, 0, 0, -1))
    assert "0..18" in str(e)
    raises_unchanged(c, c.act, ex.TEST, (10, 1, 9, 0, 0, 0, 0, -1))   # 21 dice
