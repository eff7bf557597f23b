"""The `hunt` rules: worked examples from the seed, refusals, undo, no-alloc roll."""
import sys

from rules import campaign as cp, codec, systems
from rules import hunt as h
from rules import hunt_more as hm
from rules.dice import Dice, new_pool
from support import raises, raises_unchanged


def new(chars=("Ada", "Bo"), cat=2, palace=1):
    c = cp.Campaign(systems.HUNT, cid=7)
    for name in chars:
        c.act(cp.CHAR_ADD, (), name)
    c.act(h.NEW_HUNT, (cat, palace))
    return c


def tal(c, role, owner=-1):
    return c.tals[c.find(role, owner)]


def stress(c, i):
    return tal(c, h.ROLE_STRESS, i)


def hook(c, i, name):
    for t in h._hooks(c, i):
        if c.tals[t].name == name:
            return t
    return -1


def snapshot(c):
    """Everything but the event count (which undo advances)."""
    return (list(c.x), [list(ch.v) for ch in c.chars],
            [t.fields() if t is not None else None for t in c.tals])


def roll(c, faces, i=0, skill=0, adv=0, agony=0, minus=0, hard=0, target=-1):
    return c.act(h.ROLL, (i, skill, adv, agony, minus, hard, target), faces=faces)


# --- the action roll ---------------------------------------------------------

def test_action_pool_sizes_and_limits():
    assert h.action_pool(3, 3, 3, 0) == 9
    assert h.action_pool(1, 0, 0, 1) == 0
    assert h.action_pool(0, 0, 0, 2) == -2
    raises(ValueError, h.action_pool, 4, 0, 0, 0)
    raises(ValueError, h.action_pool, 0, 4, 0, 0)  # the +3D advantage limit
    raises(ValueError, h.action_pool, 0, 0, 4, 0)
    raises(ValueError, h.action_pool, 0, 0, 0, -1)


def test_evaluate_default_hard_and_keep_lower():
    b = bytearray((4, 5, 6, 3))
    assert h.evaluate(b, 4, 0) == 3          # 4+ succeeds by default
    assert h.evaluate(b, 4, 1) == 1          # hard: only a 6
    assert h.evaluate(b, 4, 0, 6) == 1
    assert h.evaluate(bytearray((6, 2)), 0, 0) == 0   # pool 0: keep the lower die
    assert h.evaluate(bytearray((2, 6)), -3, 0) == 0
    assert h.evaluate(bytearray((5, 6)), 0, 0) == 1
    assert h.evaluate(bytearray((5, 6)), 0, 1) == 0
    assert h.evaluate(bytearray((6, 6)), 0, 1) == 1


def test_roll_pool_matches_evaluate():
    d = Dice(11)
    buf = new_pool()
    for n in (-2, 0, 1, 3, 9, 10):
        for hard in (0, 1):
            s = h.roll_pool(d, buf, n, hard)
            assert s == h.evaluate(buf, n, hard)
            if n <= 0:
                lo = min(buf[0], buf[1])
                assert s == (1 if lo >= (6 if hard else 4) else 0)


def test_roll_pool_allocates_nothing_on_micropython():
    d = Dice(3)
    buf = new_pool()
    total = 0
    if sys.implementation.name == "micropython":
        import micropython
        ok = 1
        micropython.heap_lock()
        try:
            try:
                for n in (10, 0, -1, 3):
                    total += h.roll_pool(d, buf, n, 0)
                    total += h.roll_pool(d, buf, n, 1)
                    total += h.evaluate(buf, n, 0)
            except MemoryError:
                ok = 0
        finally:
            micropython.heap_unlock()
        assert ok, "roll_pool allocated"
    else:
        for n in (10, 0, -1, 3):
            total += h.roll_pool(d, buf, n, 0)
    assert 0 <= total <= 60


def test_roll_event_keyed_faces_success_and_failure_pathos():
    c = new()
    out = roll(c, (1, 4, 2), skill=2, adv=1)
    assert out.verdict == 1 and out.successes == 1 and out.faces == bytes((1, 4, 2))
    out = roll(c, (3, 2), skill=2)
    assert out.verdict == 0 and c.chars[0].v[h.PATHOS] == 1  # failing gains pathos
    # pool <= 0: 2d6, the lower die decides
    out = roll(c, (6, 3), skill=1, minus=2)
    assert out.successes == 0 and c.chars[0].v[h.PATHOS] == 2
    out = roll(c, (5, 6), minus=1)
    assert out.successes == 1
    # hard: only a 6
    out = roll(c, (5, 5, 6), skill=3, hard=1)
    assert out.successes == 1
    raises_unchanged(c, roll, c, (5, 5), skill=3)  # 2 faces for a 3-die pool


def test_success_face_is_a_campaign_setting():
    c = new()
    assert c.x[h.X_FACE] == 4
    c.act(h.FACE, (5,))
    assert roll(c, (4, 5), skill=2).successes == 1
    assert roll(c, (4, 6), skill=2, hard=1).successes == 1
    raises_unchanged(c, c.act, h.FACE, (1,))
    raises_unchanged(c, c.act, h.FACE, (7,))


def test_successes_slash_a_task_talisman():
    c = new()
    c.act(cp.TAL_NEW, (4, 0, -1, h.ROLE_TASK, -1, 0, 0), "Door")
    t = len(c.tals) - 1
    roll(c, (4, 6, 1), skill=3, target=t)
    assert c.tals[t].n == 2
    roll(c, (5, 6, 6), skill=3, target=t)
    assert c.tals[t].n == 4
    raises_unchanged(c, roll, c, (5,), skill=1, target=t)          # already full
    raises_unchanged(c, roll, c, (5,), skill=1, target=c.find(h.ROLE_TENSION))


def test_divine_agony_once_per_session_one_exorcist_per_scene():
    c = new()
    raises_unchanged(c, roll, c, (5,), skill=1, agony=1)  # no pathos yet
    roll(c, (1,), skill=1)
    roll(c, (1,), skill=1)
    roll(c, (2,), i=1, skill=1)
    assert c.chars[0].v[h.PATHOS] == 2
    out = roll(c, (1, 6, 2), skill=1, agony=1)  # 1 + 2 pathos dice
    assert out.successes == 1 and c.chars[0].v[h.AGONY_USED] == 1
    assert c.x[h.X_AGONY] == 0
    raises_unchanged(c, roll, c, (1, 1), i=1, skill=1, agony=1)   # Ada used it this scene
    c.act(h.SCENE_END, (1,))
    raises_unchanged(c, roll, c, (1, 1, 1), skill=1, agony=1)     # once per session
    roll(c, (1, 1), i=1, skill=1, agony=1)
    c.act(h.SESSION_END)
    assert c.chars[0].v[h.PATHOS] == 0 and c.chars[0].v[h.AGONY_USED] == 0
    assert c.x[h.X_AGONY] == -1
    raises_unchanged(c, roll, c, (1,), skill=1, agony=1)          # pathos is gone


def test_agony_dice_capped_at_three_and_outside_the_advantage_limit():
    c = new()
    for _ in range(5):
        roll(c, (1,), skill=1)
    assert c.chars[0].v[h.PATHOS] == 5
    out = roll(c, (1,) * 9, skill=3, adv=3, agony=1)  # 3 + 3 + 3 dice
    assert len(out.faces) == 9


# --- tension, pressure and the Sin ----------------------------------------------

def test_tension_three_scenes_become_pressure_and_sin_capacity():
    c = new(cat=2, palace=0)
    sin = tal(c, h.ROLE_SIN)
    assert sin.cap == 8 + 2 + 0
    c.act(h.SCENE_END, (0,))
    c.act(h.SCENE_END, (1,))    # the next scene is a fight
    assert tal(c, h.ROLE_TENSION).n == 2
    c.act(h.SCENE_END, (0,))    # a combat scene passing does not slash tension
    assert tal(c, h.ROLE_TENSION).n == 2
    out = c.act(h.SCENE_END, (0,))
    assert tal(c, h.ROLE_TENSION).n == 0 and tal(c, h.ROLE_PRESSURE).n == 1
    assert sin.cap == 8 + 2 + 1
    assert "Pressure 1/6: Sin capacity 11" in out.notes


def test_pressure_step_slashes_hooks_and_heals_sin_in_palace():
    c = new(cat=0, palace=1)
    c.act(h.HOOK, (0,), "Debt")
    sin = tal(c, h.ROLE_SIN)
    roll(c, (6, 6, 6, 6), skill=3, adv=1, target=c.find(h.ROLE_SIN))
    assert sin.n == 4
    c.act(h.SCENE_END, (0,))
    c.act(h.SCENE_END, (0,))
    out = c.act(h.SCENE_END, (0,), faces=(3,))  # the palace heal 1d3 is recorded
    assert out.faces == bytes((3,))
    assert sin.n == 1 and sin.cap == 9
    assert c.tals[hook(c, 0, "Debt")].n == 1
    c.act(h.SCENE_END, (0,))
    c.act(h.SCENE_END, (0,))
    raises_unchanged(c, c.act, h.SCENE_END, (0,), faces=(4,))  # not a d3 face...
    raises_unchanged(c, c.act, h.SCENE_END, (0,))  # ...and a heal needs its face
    c.act(h.SCENE_END, (0,), faces=(1,))
    sin = tal(c, h.ROLE_SIN)  # a refused action refolds: fetch objects again
    assert sin.n == 0 and sin.cap == 10 and c.tals[hook(c, 0, "Debt")].n == 2


def test_pressure_fill_and_hook_fill():
    c = new(palace=0)
    c.act(h.HOOK, (1,), "Grudge")
    c.act(h.HOOK, (1,), "Grudge")       # gaining it again slashes it
    assert c.tals[hook(c, 1, "Grudge")].n == 1
    for _ in range(6):
        c.act(h.REST, (0, 0, 0, 0), faces=(1, 1, 1, 1))
    assert tal(c, h.ROLE_PRESSURE).n == 6
    assert hook(c, 1, "Grudge") == -1    # filled on the second step: removed
    assert c.chars[1].v[h.PATHOS] == 1   # filling a hook gives pathos
    assert tal(c, h.ROLE_SIN).cap == 8 + 2 + 6


def test_sin_outside_palace_retreats_after_four_slashes():
    c = new(cat=0, palace=0)
    s = c.find(h.ROLE_SIN)
    roll(c, (6, 6, 6), skill=3, target=s)
    assert c.tals[s].n == 3 and c.x[h.X_PALACE] == 0
    out = roll(c, (6, 6, 6), skill=3, target=s)  # only 1 more lands before it retreats
    assert c.tals[s].n == 4 and c.x[h.X_PALACE] == 1
    assert "Sin retreats to its palace" in out.notes
    c.act(h.PALACE, (0,))
    raises_unchanged(c, c.act, h.PALACE, (0,))


def test_risk_die_tension_once_per_noncombat_scene_and_hooks():
    c = new()
    c.act(h.HOOK, (0,), "Debt")
    out = c.act(h.RISK, (0,), faces=(1,))
    assert out.margin == 1 and c.x[h.X_RISK] == 1
    assert tal(c, h.ROLE_TENSION).n == 1
    assert c.tals[hook(c, 0, "Debt")].n == 1
    c.act(h.RISK, (0,), faces=(1,))     # second 1 in the scene: hooks only
    assert tal(c, h.ROLE_TENSION).n == 1
    assert c.tals[hook(c, 0, "Debt")].n == 2
    c.act(h.RISK, (-1,), faces=(4,))
    assert c.x[h.X_RISK] == 4
    c.act(h.SCENE_END, (1,))            # tension 2; next scene is combat
    c.act(h.RISK, (-1,), faces=(1,))
    assert tal(c, h.ROLE_TENSION).n == 2
    raises_unchanged(c, c.act, h.RISK, (5,), faces=(1,))


# --- exorcists: stress, injuries, death ------------------------------------------

def test_stress_overflows_into_injuries():
    c = new()
    st = stress(c, 0)
    c.act(h.STRESS, (0, 4, 0, 0))
    assert (st.n, st.cap) == (4, 6)
    c.act(h.STRESS, (0, 5, 0, 0))        # 9 >= 6: injury, 3 excess on a 5-talisman
    assert c.chars[0].v[h.INJURIES] == 1 and (st.n, st.cap) == (3, 5)
    assert c.chars[0].v[h.PATHOS] == 1   # an injury gives pathos
    c.act(h.STRESS, (0, 6, 0, 0))        # 9 >= 5: injury, 4 >= 4: injury again, 0 left
    assert c.chars[0].v[h.INJURIES] == 3 and c.chars[0].v[h.BRINK] == 1
    assert st.n == 0


def test_exact_fill_is_an_injury_and_brink_then_death():
    c = new()
    st = stress(c, 1)
    c.act(h.STRESS, (1, 6, 0, 0))
    assert c.chars[1].v[h.INJURIES] == 1 and st.n == 0 and st.cap == 5
    c.act(h.STRESS, (1, 5, 0, 0))
    c.act(h.STRESS, (1, 4, 0, 0))
    assert c.chars[1].v[h.BRINK] == 1 and st.n == 0
    c.act(h.STRESS, (1, 1, 0, 0))        # on the brink any stress kills
    assert c.chars[1].v[h.DEAD] == 1
    raises_unchanged(c, c.act, h.STRESS, (1, 1, 0, 0))
    raises_unchanged(c, roll, c, (6,), i=1, skill=1)


def test_seven_stress_in_one_move_is_instant_death():
    c = new()
    c.act(h.STRESS, (0, 7, 0, 0))
    assert c.chars[0].v[h.DEAD] == 1 and c.chars[0].v[h.INJURIES] == 0
    c.act(h.STRESS, (1, 6, 0, 0))
    assert c.chars[1].v[h.DEAD] == 0


def test_defying_fate_heals_an_injury_and_forces_sin_overflow():
    c = new()
    c.act(h.STRESS, (0, 6, 0, 0))
    raises_unchanged(c, c.act, h.STRESS, (0, 3, 0, 1), faces=(2,))  # 3 does not kill
    out = c.act(h.STRESS, (0, 8, 0, 1), faces=(5,))
    ch = c.chars[0].v
    assert ch[h.DEAD] == 0 and ch[h.INJURIES] == 0 and ch[h.MARKS] == 1
    assert ch[h.CHECK] == 5 + 0 and out.faces == bytes((5,))
    assert stress(c, 0).cap == 6


def test_trauma_answer_reduces_stress_and_slashes_sin_without_filling():
    c = new(cat=0, palace=1)
    s = c.find(h.ROLE_SIN)
    raises_unchanged(c, c.act, h.STRESS, (0, 3, 1, 0), faces=(2,))  # no answer yet
    c.act(h.TRAUMA)
    c.act(h.TRAUMA)
    c.act(h.STRESS, (0, 3, 1, 0), faces=(2,))
    assert stress(c, 0).n == 1 and c.tals[s].n == 2 and c.x[h.X_EXPENDED] == 1
    roll(c, (6, 6, 6, 6, 6), skill=3, adv=2, target=s)
    assert c.tals[s].n == 7
    c.act(h.STRESS, (1, 2, 1, 0), faces=(3,))  # may not fill the final slash
    assert c.tals[s].n == 7 and c.tals[s].cap == 8 and stress(c, 1).n == 0
    raises_unchanged(c, c.act, h.STRESS, (1, 2, 1, 0), faces=(3,))  # both expended
    # an answer can bring lethal stress below 7
    c.act(h.TRAUMA)
    c.act(h.STRESS, (1, 8, 1, 0), faces=(2,))
    assert c.chars[1].v[h.DEAD] == 0 and c.chars[1].v[h.INJURIES] == 1
    raises_unchanged(c, c.act, h.TRAUMA)  # at most 3


def test_sin_end_execute_or_spare_clears_the_party():
    c = new(cat=0, palace=1)
    s = c.find(h.ROLE_SIN)
    c.act(h.HOOK, (0,), "Debt")
    c.act(h.STRESS, (0, 6, 0, 0))
    c.act(h.STRESS, (1, 3, 0, 0))
    c.act(h.BURST, (0, 1), faces=(3,))
    c.act(h.BURST, (0, 1), faces=(2,))
    assert c.chars[0].v[h.SIN] == 5
    raises_unchanged(c, c.act, h.SIN_END, (0,))           # not full yet
    roll(c, (6,) * 6, skill=3, adv=3, target=s)
    roll(c, (6, 6), skill=2, target=s)
    assert c.tals[s].filled()
    raises_unchanged(c, c.act, h.SIN_END, (1,))           # spare needs 3 answers
    c.act(h.SIN_END, (0,))
    assert c.x[h.X_OUTCOME] == 1
    a = c.chars[0].v
    assert a[h.SIN] == 2 and a[h.INJURIES] == 0 and stress(c, 0).cap == 6
    assert stress(c, 1).n == 0 and hook(c, 0, "Debt") == -1
    raises_unchanged(c, c.act, h.SIN_END, (0,))           # already executed


def test_spare_with_three_answers():
    c = new(cat=0, palace=1)
    for _ in range(3):
        c.act(h.TRAUMA)
    c.act(cp.TAL_CAP, (c.find(h.ROLE_SIN), 2))
    roll(c, (6, 6), skill=2, target=c.find(h.ROLE_SIN))
    c.act(h.SIN_END, (1,))
    assert c.x[h.X_OUTCOME] == 2


# --- bursts, sin, rests, kit, hunts --------------------------------------------

def test_bursts_and_sin_overflow_at_end_of_scene():
    c = new()
    for _ in range(3):
        c.act(h.BURST, (1, 0))
    raises_unchanged(c, c.act, h.BURST, (1, 0))
    for f in (3, 3, 3):
        c.act(h.BURST, (1, 1), faces=(f,))
    out = c.act(h.BURST, (1, 1), faces=(3,))   # 9 + 3 stops at the cap of 10
    assert c.chars[1].v[h.SIN] == 10 and "sin cap: overflow at end of scene" in out.notes
    raises_unchanged(c, c.act, h.BURST, (1, 1), faces=(1,))
    out = c.act(h.SCENE_END, (0,), faces=(4,))  # resistance check 1d6 + marks
    v = c.chars[1].v
    assert v[h.CHECK] == 4 and v[h.MARKS] == 1 and v[h.SIN] == 0


def test_rest_raises_pressure_then_spends_2d3():
    c = new(palace=0)
    c.act(h.HOOK, (0,), "Debt")
    c.act(h.HOOK, (0,), "Debt")
    t = hook(c, 0, "Debt")
    c.act(h.STRESS, (0, 5, 0, 0))
    c.act(h.BURST, (1, 0))
    c.act(h.BURST, (1, 0))
    out = c.act(h.REST, (h.REST_STRESS, h.REST_HOOK + t, h.REST_BURSTS, h.REST_BURSTS),
                faces=(3, 2, 1, 3))
    assert tal(c, h.ROLE_PRESSURE).n == 1 and tal(c, h.ROLE_SIN).cap == 11
    assert stress(c, 0).n == 2
    assert c.tals[t].n == 0          # 1 + 1 (pressure) - 2
    assert c.chars[1].v[h.BURSTS] == 3
    assert out.faces == bytes((3, 2, 1, 3))
    raises_unchanged(c, c.act, h.REST, (0, 0, 0), faces=(1, 1, 1, 1))
    raises_unchanged(c, c.act, h.REST, (0, 0, h.REST_HOOK + t, 0), faces=(1, 1, 1, 1))
    raises_unchanged(c, c.act, h.REST, (0, -1, 0, 0), faces=(1, 1, 1, 1))
    raises_unchanged(c, c.act, h.REST, (0, 0, 0, 0), faces=(1, 1, 1))


def test_kit_points():
    c = new()
    c.act(h.KIT, (0, 2), "service weapon")
    assert c.chars[0].v[h.KITP] == 3
    raises_unchanged(c, c.act, h.KIT, (0, 4))
    raises_unchanged(c, c.act, h.KIT, (0, 0))
    c.act(h.KIT, (0, 3))
    c.act(h.NEW_HUNT, (1, 0))
    assert c.chars[0].v[h.KITP] == 5


def test_new_hunt_resets_the_hunt():
    c = new(cat=3, palace=0)
    c.act(h.SCENE_END, (0,))
    c.act(h.TRAUMA)
    c.act(h.BURST, (0, 0))
    c.act(h.REST, (0, 0, 0, 0), faces=(1, 1, 1, 1))
    c.act(h.NEW_HUNT, (5, 1))
    assert tal(c, h.ROLE_TENSION).n == 0 and tal(c, h.ROLE_PRESSURE).n == 0
    assert tal(c, h.ROLE_SIN).cap == 13 and tal(c, h.ROLE_SIN).a == 5
    assert c.x[h.X_ANSWERED] == 0 and c.x[h.X_PALACE] == 1 and c.x[h.X_HUNT] == 2
    assert c.chars[0].v[h.BURSTS] == 3
    raises_unchanged(c, c.act, h.NEW_HUNT, (21, 0))
    raises_unchanged(c, c.act, h.NEW_HUNT, (1, 2))


def test_invalid_actions_leave_state_unchanged():
    c = new()
    raises_unchanged(c, c.act, 63)
    raises_unchanged(c, c.act, h.ROLL, (0, 1))
    raises_unchanged(c, roll, c, (5,), i=5, skill=1)
    raises_unchanged(c, roll, c, (5, 5, 5, 5), skill=4)
    raises_unchanged(c, roll, c, (5,) * 4, adv=4)
    raises_unchanged(c, roll, c, (5,), skill=1, hard=2)
    raises_unchanged(c, roll, c, (5,), skill=1, minus=-1)
    raises_unchanged(c, roll, c, (5,), skill=1, target=31)
    raises_unchanged(c, roll, c, (5,), i=-1, skill=1, agony=1)
    raises_unchanged(c, roll, c, (7,), skill=1)
    raises_unchanged(c, c.act, h.STRESS, (0, 0, 0, 0))
    raises_unchanged(c, c.act, h.STRESS, (0, 31, 0, 0))
    raises_unchanged(c, c.act, h.STRESS, (0, 2, 0, 1))
    raises_unchanged(c, c.act, h.HOOK, (0,), "")
    raises_unchanged(c, c.act, h.HOOK, (9,), "x")
    raises_unchanged(c, c.act, h.BURST, (0, 2))
    raises_unchanged(c, c.act, h.SCENE_END, (2,))
    raises_unchanged(c, c.act, h.SCENE, (3,))
    raises_unchanged(c, c.act, h.SESSION_END, (1,))
    raises_unchanged(c, c.act, h.WITNESS, (4,))
    raises_unchanged(c, c.act, h.PALACE, (1,))    # already inside
    raises_unchanged(c, c.act, h.KIT, (1, -2))
    e = raises_unchanged(c, c.act, h.ROLL, (0, 5, 0, 0, 0, 0, -1))
    assert "skill 5 is not in 0..3" in str(e)


def test_undo_after_a_pressure_cascade_restores_everything():
    c = new(cat=1, palace=1)
    c.act(h.HOOK, (0,), "Debt")
    c.act(h.HOOK, (0,), "Debt")
    c.act(h.HOOK, (1,), "Vow")
    roll(c, (6, 6, 6), skill=3, target=c.find(h.ROLE_SIN))
    c.act(h.SCENE_END, (0,))
    c.act(h.SCENE_END, (0,))
    before = snapshot(c)
    out = c.act(h.SCENE_END, (0,), faces=(2,))
    assert tal(c, h.ROLE_PRESSURE).n == 1 and c.tals[hook(c, 0, "Debt")].n == 2
    assert tal(c, h.ROLE_SIN).n == 1 and len(out.notes) >= 4
    c.undo()
    assert snapshot(c) == before
    assert tal(c, h.ROLE_PRESSURE).n == 0 and c.tals[hook(c, 0, "Debt")].n == 1
    assert tal(c, h.ROLE_SIN).n == 3 and tal(c, h.ROLE_SIN).cap == 9
    c.redo()
    assert tal(c, h.ROLE_PRESSURE).n == 1


def test_replay_and_encoding_round_trip():
    c = new()
    d = Dice(99)
    c.act(h.HOOK, (0,), "Debt")
    for _ in range(4):
        c.act(h.ROLL, (0, 2, 1, 0, 0, 0, c.find(h.ROLE_SIN)), dice=d)
        c.act(h.RISK, (0,), dice=d)
        c.act(h.SCENE_END, (0,), dice=d)
    c.act(h.REST, (0, 1, 0, 0), dice=d)
    c.undo()
    c.act(h.BURST, (1, 1), dice=d)
    r = cp.replay(c.system, c.events, c.cid)
    assert cp.encode_state(r) == cp.encode_state(c)
    s = cp.encode_state(c)
    assert cp.encode_state(cp.decode_state(s)) == s


def test_witness_gives_pathos_and_scene_flag_marks_a_fight():
    c = new()
    c.act(h.WITNESS, (1,))
    assert c.chars[1].v[h.PATHOS] == 1
    c.act(h.SCENE, (1,))                 # a fight breaks out in this scene
    c.act(h.RISK, (-1,), faces=(1,))
    c.act(h.SCENE_END, (0,))
    assert tal(c, h.ROLE_TENSION).n == 0 and c.x[h.X_SCENE] == 1 and c.x[h.X_COMBAT] == 0


def test_each_pressure_step_fires_its_own_triggers():
    assert h.SUCCESS is h.TABLES[4] and h.TABLES[6] == h.SUCCESS_HARD
    c = new(cat=1, palace=1)
    c.act(h.HOOK, (0,), "Debt")
    roll(c, (6, 6, 6), skill=3, target=c.find(h.ROLE_SIN))
    out = c.act(cp.SLASH, (c.find(h.ROLE_PRESSURE), 2, 0), faces=(1, 1))
    assert out.successes == 0
    assert tal(c, h.ROLE_SIN).cap == 8 + 1 + 2 and tal(c, h.ROLE_SIN).n == 1
    assert c.tals[hook(c, 0, "Debt")].n == 2


def test_hook_filled_by_gaining_it_again():
    c = new()
    for _ in range(3):
        c.act(h.HOOK, (0,), "Debt")
    assert c.tals[hook(c, 0, "Debt")].n == 2
    out = c.act(h.HOOK, (0,), "Debt")
    assert hook(c, 0, "Debt") == -1 and c.chars[0].v[h.PATHOS] == 1
    assert "Hook Debt fills: its effect activates" in out.notes
    c.act(h.HOOK, (0,), "Debt")           # a new Debt hook, in the freed slot
    assert c.tals[hook(c, 0, "Debt")].n == 0


def _tals(c, role, owner):
    return [t for t in range(len(c.tals))
            if c.tals[t] is not None and c.tals[t].role == role and c.tals[t].owner == owner]


def test_an_affliction_gives_pathos_and_lasts_until_the_hunt_ends():
    # "An exorcist gains one pathos when they fail a roll, take an injury or
    # affliction, fill a hook, or witness an ally die or suffer sin overflow."
    # "Afflictions are ongoing negative effects that last until the end of
    # the hunt unless stated otherwise."
    c = new()
    out = c.act(hm.AFFLICT, (0, 0), "Blinded")
    t = out.tal
    assert c.tals[t].role == hm.ROLE_AFFLICTION and c.tals[t].owner == 0
    assert c.chars[0].v[h.PATHOS] == 1 and "Ada afflicted: Blinded; pathos 1" in out.notes
    c.act(hm.AFFLICT, (0, 1), "Cursed")              # "unless stated otherwise": lasting
    c.act(hm.AFFLICT, (1, 0), "Blinded")             # Bo too: his own
    assert c.chars[0].v[h.PATHOS] == 2 and c.chars[1].v[h.PATHOS] == 1
    raises_unchanged(c, c.act, hm.AFFLICT, (0, 0), "Blinded")   # already afflicted
    raises_unchanged(c, c.act, hm.AFFLICT, (0, 0), "")
    raises_unchanged(c, c.act, hm.AFFLICT, (0, 2), "Lame")
    raises_unchanged(c, c.act, hm.AFFLICT, (5, 0), "Lame")
    # A slash (the keeper's cure) ends one early.
    c.act(cp.SLASH, (_tals(c, hm.ROLE_AFFLICTION, 1)[0], 1, 0))
    assert _tals(c, hm.ROLE_AFFLICTION, 1) == []
    # The Sin falls: the hunt's afflictions end, the lasting one stays.
    sin = c.find(h.ROLE_SIN)
    c.act(cp.SLASH, (sin, c.tals[sin].cap, 0))
    out = c.act(h.SIN_END, (0,))
    assert [c.tals[t].name for t in _tals(c, hm.ROLE_AFFLICTION, 0)] == ["Cursed"]
    assert "Ada: Blinded ends with the hunt" in out.notes
    c.act(h.NEW_HUNT, (1, 0))
    assert [c.tals[t].name for t in _tals(c, hm.ROLE_AFFLICTION, 0)] == ["Cursed"]
    # Undo takes an affliction back with its pathos.
    c.act(hm.AFFLICT, (1, 0), "Lame")
    p = c.chars[1].v[h.PATHOS]
    c.undo()
    assert c.chars[1].v[h.PATHOS] == p - 1 and _tals(c, hm.ROLE_AFFLICTION, 1) == []


def test_an_action_roll_benefits_only_once_from_setup():
    # "Setup is a special action roll ... On a success, an exorcist chooses one
    # character (including themselves) and an action roll they will perform,
    # granting that roll: [cut off]" -- "An action roll may benefit only once
    # from setup."
    c = new()
    out = c.act(h.ROLL, (0, 2, 0, 0, 0, 0, -1, 1), "Strike", faces=(5, 2))   # Ada sets Bo up
    t = out.tal
    assert c.tals[t].role == hm.ROLE_SETUP and c.tals[t].owner == 1 and c.tals[t].name == "Strike"
    assert "Setup Strike for Bo" in out.notes
    out = c.act(h.ROLL, (0, 2, 0, 0, 0, 0, -1, 0), faces=(5, 6))             # and herself
    mine = out.tal
    out = c.act(h.ROLL, (0, 1, 0, 0, 0, 0, -1, 1), faces=(1,))               # a failed setup
    assert out.tal == -1 and len(_tals(c, hm.ROLE_SETUP, 1)) == 1
    assert c.chars[0].v[h.PATHOS] == 1                                      # still a failed roll
    # Bo's roll benefits from his setup: it is spent; a second benefit is refused.
    out = c.act(h.ROLL, (1, 1, 1, 0, 0, 0, -1, -1, t), faces=(4, 4))
    assert "Bo benefits from the setup Strike" in out.notes and c.tals[t] is None
    raises_unchanged(c, c.act, h.ROLL, (1, 1, 1, 0, 0, 0, -1, -1, t), faces=(4, 4))
    # Not his: Ada's own setup is hers; a roll names one setup, so two never stack.
    raises_unchanged(c, c.act, h.ROLL, (1, 1, 0, 0, 0, 0, -1, -1, mine), faces=(4,))
    raises_unchanged(c, c.act, h.ROLL, (0, 1, 0, 0, 0, 0, -1, -1, 0), faces=(4,))  # Pressure
    raises_unchanged(c, c.act, h.ROLL, (0, 1, 0, 0, 0, 0, -1, 9), faces=(4,))      # nobody 9
    raises_unchanged(c, c.act, h.ROLL, (-1, 1, 0, 0, 0, 0, -1, 0), faces=(4,))     # NPC setup
    raises_unchanged(c, c.act, h.ROLL, (0, 1, 0, 0, 0, 0, -1, -1, mine, 0), faces=(4,))
    out = c.act(h.ROLL, (0, 1, 0, 0, 0, 0, -1, 1, mine), faces=(6,))  # benefits and sets Bo up
    assert c.tals[mine] is None or c.tals[mine].owner == 1
    assert len(_tals(c, hm.ROLE_SETUP, 0)) == 0 and len(_tals(c, hm.ROLE_SETUP, 1)) == 1
    # A new hunt: setups go with the old one. The 7-argument form is unchanged.
    c.act(h.NEW_HUNT, (1, 0))
    assert _tals(c, hm.ROLE_SETUP, 1) == []
    out = roll(c, (6, 1), skill=2)
    assert out.successes == 1 and out.tal == -1


def test_success_tables_written_out_match_their_rule():
    # TABLES is a literal (no generator at boot): face f succeeds on s+.
    for s in range(2, 7):
        assert h.TABLES[s] == bytes(1 if f >= s else 0 for f in range(7))
    assert h.TABLES[0] == h.TABLES[1] == b"" and h.SUCCESS is h.TABLES[4]


def test_what_a_rest_and_a_move_will_draw_is_what_the_rules_draw():
    # ui/rest.py and ui/stress.py show the dice before the event: the heal a
    # rest's pressure step draws first, death by stress and an answer at
    # hand, as the rules decide them.
    for palace, full, outcome in ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 0, 1)):
        c = new(cat=0, palace=palace)
        if full:
            c.act(cp.SLASH, (c.find(h.ROLE_PRESSURE), 6, 0), dice=Dice(2))
        if outcome:
            c.act(cp.SLASH, (c.find(h.ROLE_SIN), 8, 0))
            c.act(h.SIN_END, (0,))
        heals = hm.rest_heals(c)
        c.act(h.REST, (0, 0, 0, 0), dice=Dice(3))
        assert len(codec.decode_event(c.events[-1])[2]) == heals + 4, (palace, full, outcome)
        assert heals == (1 if palace and not full and not outcome else 0)
    c = new()
    assert not hm.kills(c, 0, 6) and hm.kills(c, 0, 7) and not hm.answers(c)
    c.act(h.STRESS, (0, 6, 0, 0))
    c.act(h.STRESS, (0, 5, 0, 0))
    c.act(h.STRESS, (0, 4, 0, 0))                    # the brink
    assert hm.kills(c, 0, 1) and not hm.kills(c, 0, 0)
    c.act(h.TRAUMA)
    assert hm.answers(c)
    c.act(h.STRESS, (1, 1, 1, 0), faces=(1,))
    assert not hm.answers(c)
