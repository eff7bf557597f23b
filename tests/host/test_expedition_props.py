"""Property tests for the `expedition` rules (CPython only: hypothesis).

Random sessions of expedition events (valid and invalid, live dice) must:
replay to the same state, undo exactly, encode/decode losslessly, and refuse
bad input with ValueError and no trace.
"""

from hypothesis import given, settings, strategies as st

from rules import campaign as cp, systems
from rules import expedition as ex
from rules.dice import Dice

I = st.integers
pc = I(0, 2)             # the three characters of every session
foe = I(-1, 1)           # -1 an NPC


def _helpless(side):
    return side[:2] + (0, 0, 0, 0) if side[1] == -1 else side


def _combat():
    a = st.tuples(st.sampled_from((-1, 0)), I(-1, 4), I(0, 1), I(0, 1), I(0, 1), I(0, 1)).map(_helpless)
    b = st.tuples(st.sampled_from((-1, 1)), I(-1, 4), I(0, 1), I(0, 1), I(0, 1), I(0, 1)).map(_helpless)
    group = st.sampled_from(((0, 0), (1, 0), (2, 4), (-1, 4), (-3, 4), (-2, 0)))
    # threat bits 0-1, and bits 2-3: a side is a monster by its Level (char -1)
    return st.tuples(a, b, group, st.sampled_from((0, 0, 1, 4)), I(0, 15)).map(
        lambda t: t[0] + t[1] + t[2] + t[3:])


def _sheet(t):
    i, mhp, hp, mres, res, arm, sh, xp = t
    return (i, min(hp, mhp), mhp, min(res, mres), mres, arm, sh, xp)


# Mostly well-formed actions (they may still be refused by the state: a dead
# character, a spent block, ...), plus raw fuzz over the whole kind range.
VALID = st.one_of(
    st.tuples(st.just(ex.TEST), st.tuples(I(0, 6), I(1, 7), I(0, 2), I(0, 2), I(0, 3), I(0, 2), I(0, 2),
                                         st.sampled_from((-1, -1, -1, 0, 1, 2)))),
    st.tuples(st.just(ex.TEST), st.tuples(I(0, 14), I(1, 30), I(0, 2), I(0, 2), I(0, 3), I(0, 2),
                                         I(0, 2), st.just(-1), I(0, 1))),   # Ob past 7, a monster
    st.tuples(st.just(ex.VERSUS), st.tuples(*([I(0, 6), I(0, 2), I(0, 2), I(0, 3), I(0, 2), I(0, 2)] * 2))),
    st.tuples(st.just(ex.VERSUS), st.tuples(*([I(0, 14), I(0, 2), I(0, 2), I(0, 3), I(0, 2), I(0, 2)] * 2
                                              + [I(0, 3)]))),
    st.tuples(st.just(ex.COMBAT), _combat()),
    st.tuples(st.just(ex.DAMAGE), st.tuples(pc, I(0, 6), I(0, 3))),
    st.tuples(st.just(ex.VAR_DAMAGE), st.tuples(foe, I(1, 6), st.just(0), I(0, 1))),
    st.tuples(st.just(ex.HEAL), st.tuples(pc, I(1, 5))),
    st.tuples(st.just(ex.BONUS_HP), st.tuples(pc, I(1, 4))),
    st.tuples(st.just(ex.BONUS_END), st.tuples(pc)),
    st.tuples(st.just(ex.SHEET),
              st.tuples(pc, I(1, 9), I(0, 9), I(0, 3), I(0, 3), I(0, 2), I(0, 1), I(0, 3)).map(_sheet)),
    st.tuples(st.just(ex.USE_RES), st.tuples(pc, I(1, 2))),
    st.tuples(st.just(ex.DOWN_OUT), st.tuples(pc, I(0, 1))),
    st.tuples(st.just(ex.SHORT_REST), st.tuples(I(0, 7))),
    st.tuples(st.just(ex.SHORT_REST), st.tuples(I(0, 7), I(0, 1))),   # (mask, turn)
    st.tuples(st.just(ex.LONG_REST), st.just(())),
    st.tuples(st.just(ex.TURN), st.tuples(I(0, 2))),
    st.tuples(st.just(ex.SET_FREQ), st.tuples(I(1, 3))),
    st.tuples(st.just(ex.ENC_CHECK), st.just(())),
    st.tuples(st.just(ex.USAGE_NEW), st.tuples(st.sampled_from((4, 6, 8, 10, 12)), foe, I(0, 1))),
    st.tuples(st.just(ex.USAGE_ROLL), st.tuples(I(0, 4))),
    st.tuples(st.just(ex.REACTION), st.just(())),
    st.tuples(st.just(ex.MORALE), st.tuples(st.sampled_from((6, 8, 10)), I(-1, 1))),
    st.tuples(st.just(ex.DISTANCE), st.just(())),
    st.tuples(st.just(ex.DESPERATE), st.tuples(pc)),
    st.tuples(st.just(ex.PROJECT_NEW), st.tuples(I(4, 10), foe)),
    st.tuples(st.just(ex.PROJECT_TICK), st.tuples(I(0, 4))),
    st.tuples(st.just(ex.EXT_NEW), st.tuples(I(1, 3), I(0, 2))),
    st.tuples(st.just(cp.UNDO), st.just(())),
    st.tuples(st.just(cp.REDO), st.just(())),
)
FUZZ = st.tuples(I(96, 127), st.lists(I(-3, 12), max_size=16).map(tuple))
ACTIONS = st.one_of(VALID, VALID, VALID, FUZZ)
SESSION = st.tuples(I(0, 1 << 20), st.lists(st.tuples(ACTIONS, st.booleans()), max_size=40))


def snap(c):
    """Everything a player can see, without the event count."""
    return (list(c.x), [(ch.name, list(ch.v)) for ch in c.chars],
            [None if t is None else (t.name,) + t.fields() for t in c.tals])


def run_session(seed, actions, check_undo=False):
    c = cp.Campaign(systems.EXPEDITION, cid=9)
    for n in ("Ada", "Bo", "Cy"):
        c.act(cp.CHAR_ADD, (), n)
    d = Dice(seed)
    ok = refused = 0
    for (kind, args), named in actions:
        text = "Torch" if named else ""
        before, enc, n = snap(c), cp.encode_state(c), len(c.events)
        try:
            c.act(kind, args, text, dice=d)
        except ValueError:
            refused += 1
            assert snap(c) == before and cp.encode_state(c) == enc and len(c.events) == n
            continue
        ok += 1
        if check_undo and kind not in (cp.UNDO, cp.REDO):
            after = snap(c)
            c.undo()
            assert snap(c) == before
            c.redo()
            assert snap(c) == after
    return c, ok, refused


@settings(max_examples=150, deadline=None)
@given(SESSION)
def test_replay_is_deterministic_and_state_round_trips(session):
    seed, actions = session
    c, _, _ = run_session(seed, actions)
    r = cp.replay(c.system, c.events, c.cid)
    assert cp.encode_state(r) == cp.encode_state(c)
    s = cp.encode_state(c)
    assert cp.encode_state(cp.decode_state(s)) == s
    c2, _, _ = run_session(seed, actions)
    assert c2.events == c.events


@settings(max_examples=100, deadline=None)
@given(SESSION)
def test_undo_is_an_inverse_and_refusals_leave_no_trace(session):
    seed, actions = session
    run_session(seed, actions, check_undo=True)


@settings(max_examples=100, deadline=None)
@given(I(0, 10), I(0, 2), I(0, 2), I(0, 7), I(0, 20), I(1, 30), I(0, 6), I(0, 6))
def test_resolve_and_pool_rules(ab, bon, pen, hel, s, ob, plus, minus):
    try:
        n = ex.pool(ab, bon, pen, hel)
    except ValueError:
        assert 2 + ab + bon - pen + hel > 20
    else:
        assert n == max(0, 2 + ab + bon - pen + hel)
    m = ex.resolve(s, ob, plus, minus)
    base = ex.resolve(s, ob, 0, minus)
    assert (m >= 0) == (base >= 0)                      # +Ns never flips a result
    assert m == (base + plus if base >= 0 else base)
    assert ex.resolve(s, ob, plus, minus + 1) <= m       # -1s never helps
    v = ex.versus_margin(s, ob, plus, minus, 0, 0)
    if max(0, s - minus) == ob:
        assert v == 0                                     # +Ns never breaks a tie


def test_sessions_exercise_both_paths():
    # The session runner counts applied and refused actions correctly.
    turns = [((ex.TURN, (0,)), False)] * 6
    c, ok, refused = run_session(5, turns + [((ex.TEST, (9, 31, 0, 0, 0, 0, 0, -1)), False)])
    assert ok == 6 and refused == 1 and c.x[ex.TURN_N] == 6
