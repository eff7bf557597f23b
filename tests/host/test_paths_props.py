"""Property tests of the `paths` rule system (CPython only: hypothesis)."""

from hypothesis import given, settings, strategies as st

from rules import campaign as cp, systems
from rules import paths as P
from rules.dice import Dice, new_pool

# Valid values, then now and then one argument corrupted (or one extra added)
# so that refused actions are exercised too.
helpers = st.lists(st.integers(1, 5), max_size=2)
who = st.integers(-1, 1)
lvl = st.integers(0, 6)
sit = st.integers(-2, 2)
minus = st.integers(0, 4)
corrupt = st.one_of(st.none(), st.none(), st.none(),
                    st.tuples(st.integers(0, 9), st.sampled_from((-3, -1, 0, 3, 8, 21, 99))))

test_ev = st.tuples(st.just(P.TEST), st.tuples(who, lvl, lvl, sit, minus, st.integers(0, 7),
                                               st.integers(0, 1)), helpers, st.just("Lore"))
opp_ev = st.tuples(st.just(P.OPPOSED), st.tuples(who, lvl, lvl, sit, minus, st.integers(1, 6),
                                                 st.integers(0, 1)), helpers, st.just(""))
open_ev = st.tuples(st.just(P.PRO_OPEN), st.tuples(who, st.integers(1, 12), st.integers(0, 4),
                                                   st.integers(0, 3), st.integers(0, 1)),
                    st.just([]), st.sampled_from(("Heal", "Heal", "")))
roll_ev = st.tuples(st.just(P.PRO_ROLL), st.tuples(st.integers(0, 3), lvl, lvl, sit, minus),
                    helpers, st.just(""))
core_ev = st.tuples(st.sampled_from((cp.UNDO, cp.REDO)), st.just(()), st.just([]), st.just(""))
slash_ev = st.tuples(st.just(cp.SLASH), st.tuples(st.integers(0, 3), st.integers(1, 9), st.just(0)),
                     st.just([]), st.just(""))
action = st.tuples(st.one_of(test_ev, opp_ev, open_ev, open_ev, roll_ev, roll_ev, roll_ev,
                             core_ev, slash_ev), corrupt)
actions = st.lists(action, max_size=30)


def snapshot(c):
    """Every piece of state except the event counter."""
    return (list(c.x), [(ch.name, list(ch.v)) for ch in c.chars],
            [None if t is None else (t.name,) + t.fields() for t in c.tals])


def fresh():
    c = cp.Campaign(systems.PATHS, cid=5)
    c.act(cp.CHAR_ADD, (), "Ada")
    c.act(cp.CHAR_ADD, (), "Bo")
    c.act(P.PRO_OPEN, (0, 8, 3, 2, 0), "Healing")
    return c


def run(acts, seed):
    """Apply acts with live dice; check refusals and undo on every step."""
    c = fresh()
    d = Dice(seed)
    for (kind, args, helps, text), bad in acts:
        args = list(args) + list(helps)
        if kind in (P.PRO_ROLL, cp.SLASH) and c.tals:
            args[0] %= len(c.tals)  # aim at a talisman that exists
        if bad is not None:
            i, v = bad
            if i < len(args):
                args[i] = v
            else:
                args.append(v)
        before = snapshot(c)
        enc = cp.encode_state(c)
        n = len(c.events)
        try:
            c.act(kind, args, text, dice=d)
        except ValueError:
            assert cp.encode_state(c) == enc and len(c.events) == n
            continue
        if kind in (cp.UNDO, cp.REDO):
            continue
        after = snapshot(c)
        c.undo()
        assert snapshot(c) == before
        c.redo()
        assert snapshot(c) == after
    return c


@settings(max_examples=150, deadline=None)
@given(actions, st.integers(0, 1 << 20))
def test_replay_is_deterministic_and_undo_inverts(acts, seed):
    c = run(acts, seed)
    r = cp.replay(c.system, c.events, c.cid)
    assert cp.encode_state(r) == cp.encode_state(c)
    again = run(acts, seed)
    assert again.events == c.events


@settings(max_examples=100, deadline=None)
@given(actions, st.integers(0, 1 << 20))
def test_state_encoding_round_trips(acts, seed):
    c = run(acts, seed)
    s = cp.encode_state(c)
    back = cp.decode_state(s)
    assert cp.encode_state(back) == s
    for t, tal in enumerate(c.tals):
        if tal is not None and tal.role == P.PROLONGED:
            assert P.status(back.tals[t]) == P.status(tal)
    assert P.open_tests(back) == P.open_tests(c)


@settings(max_examples=100, deadline=None)
@given(actions, st.integers(0, 1 << 20), st.lists(st.integers(0, 14), max_size=12))
def test_keyed_in_faces_replay_or_refuse_cleanly(acts, seed, faces):
    # Any faces typed in by hand are either used exactly or refused without a trace.
    c = run(acts, seed)
    enc = cp.encode_state(c)
    n = len(c.events)
    for kind, args in ((P.TEST, (0, 2, 2, 0, 0, 3, 0)), (P.OPPOSED, (1, 1, 1, 0, 0, 2, 1)),
                       (P.PRO_ROLL, (0, 1, 1, 0, 0))):
        try:
            out = c.act(kind, args, "", faces=faces)
        except ValueError:
            assert cp.encode_state(c) == enc and len(c.events) == n
            continue
        assert out.faces == bytes(faces)
        assert cp.encode_state(cp.replay(c.system, c.events, c.cid)) == cp.encode_state(c)
        return


@given(st.lists(st.integers(1, 12), min_size=0, max_size=20))
def test_evaluate_counts_sevens_and_double_twelves(faces):
    buf = bytearray(faces)
    assert P.evaluate(buf, len(faces)) == sum(1 for f in faces if f >= 7) + faces.count(12)
    assert P.twelves(buf, len(faces)) == faces.count(12)


@given(st.integers(0, 6), st.integers(0, 6), st.integers(-2, 2), st.integers(0, 20))
def test_pool_is_the_sum_never_below_one(skill, path, situation, minus):
    assert P.pool(skill, path, situation, minus) == max(1, skill + path + situation - minus)


@given(st.integers(0, 40), st.integers(0, 20), st.integers(0, 40), st.integers(0, 20))
def test_opposed_winner_ignores_who_initiated_except_ties(sa, da, sb, db):
    w = P.opposed_winner(sa, da, sb, db)
    if (da >= 2) != (db >= 2) or sa != sb:
        assert P.opposed_winner(sb, db, sa, da) == 1 - w
    else:
        assert w == 0 and P.opposed_winner(sb, db, sa, da) == 0


def test_roll_pool_matches_the_d12_success_mean():
    # Each die is worth 7/12 of a success on average (7..11 one, 12 two).
    d = Dice(99)
    buf = new_pool()
    total = sum(P.roll_pool(d, buf, 20) for _ in range(3000))
    assert abs(total - 60000 * 7 / 12) < 600  # about 4 standard deviations
