"""Property tests of the `hunt` rules on CPython: random sequences of valid
and invalid actions replay exactly, undo is an inverse, the state encoding
round-trips, refused actions leave no trace, and invariants hold."""

from hypothesis import given, settings, strategies as st, HealthCheck

from rules import campaign as cp, systems
from rules import hunt as h
from rules.dice import Dice, new_pool

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def snapshot(c):
    """Everything in the state but the event count (undo advances it)."""
    return (list(c.x), [(ch.name, list(ch.v)) for ch in c.chars],
            [(t.name,) + t.fields() if t is not None else None for t in c.tals])


def draw_action(data, c):
    """One action (kind, args, text): mostly plausible, often invalid."""
    n = len(c.chars)
    # Mostly valid values, with a few out-of-range ones mixed in.
    who = st.sampled_from(list(range(n)) * 4 + [-1, n])
    b = st.integers(0, 1)
    bad = st.sampled_from((0, 1, 0, 1, 0, 1, -1, 2))
    three = st.sampled_from((0, 1, 2, 3) * 3 + (-1, 4))
    kind = data.draw(st.sampled_from((
        "roll", "roll", "roll", "roll", "risk", "risk", "scene_end", "scene_end", "scene", "stress",
        "stress", "burst", "burst", "hook", "rest", "kit", "new_hunt", "session_end", "trauma",
        "trauma", "sin_end", "sin_end", "palace", "witness", "face", "char", "undo", "undo", "redo",
        "slash", "hit", "hit", "hit")))
    if kind == "hit":  # a strong attack on the Sin, so that hunts do end
        return h.ROLL, (data.draw(who), 3, 3, 0, 0, 0, c.find(h.ROLE_SIN)), ""
    if kind == "roll":
        tgt = data.draw(st.sampled_from((-1, -1, c.find(h.ROLE_SIN), c.find(h.ROLE_SIN),
                                         c.find(h.ROLE_TENSION), 40)))
        return h.ROLL, (data.draw(who), data.draw(three), data.draw(three), data.draw(b),
                        data.draw(st.sampled_from((0, 0, 0, 1, 2, 5, -1))), data.draw(bad), tgt), ""
    if kind == "risk":
        return h.RISK, (data.draw(who),), ""
    if kind == "scene_end":
        return h.SCENE_END, (data.draw(bad),), ""
    if kind == "scene":
        return h.SCENE, (data.draw(bad),), ""
    if kind == "stress":
        return h.STRESS, (data.draw(who), data.draw(st.integers(0, 9)), data.draw(b),
                          data.draw(st.sampled_from((0, 0, 0, 1, 2)))), ""
    if kind == "burst":
        return h.BURST, (data.draw(who), data.draw(st.sampled_from((0, 1, 1, 1, 1, 2)))), ""
    if kind == "hook":
        return h.HOOK, (data.draw(who),), data.draw(st.sampled_from(("Debt", "Vow", "")))
    if kind == "rest":
        hooks = [t for t in range(len(c.tals)) if c.tals[t] is not None and c.tals[t].role == h.ROLE_HOOK]
        codes = st.sampled_from([0, 1, 0, 1, -1] + [h.REST_HOOK + t for t in hooks] * 2)
        m = 2 * n + data.draw(st.sampled_from((0, 0, 0, 0, 1, -1)))
        return h.REST, tuple(data.draw(st.lists(codes, min_size=max(m, 0), max_size=max(m, 0)))), ""
    if kind == "kit":
        return h.KIT, (data.draw(who), data.draw(st.sampled_from((1, 1, 2, 3, 0, 6)))), ""
    if kind == "new_hunt":
        return h.NEW_HUNT, (data.draw(st.sampled_from((0, 1, 2, 20, -1, 21))), data.draw(bad)), ""
    if kind == "session_end":
        return h.SESSION_END, (), ""
    if kind == "trauma":
        return h.TRAUMA, (), ""
    if kind == "sin_end":
        return h.SIN_END, (data.draw(bad),), ""
    if kind == "palace":
        return h.PALACE, (data.draw(bad),), ""
    if kind == "witness":
        return h.WITNESS, (data.draw(who),), ""
    if kind == "face":
        return h.FACE, (data.draw(st.sampled_from((4, 5, 3, 1, 7))),), ""
    if kind == "char":
        return cp.CHAR_ADD, (), data.draw(st.sampled_from(("Ada", "Bo", "Cy", "")))
    if kind == "undo":
        return cp.UNDO, (), ""
    if kind == "redo":
        return cp.REDO, (), ""
    tals = [t for t in range(len(c.tals)) if c.tals[t] is not None and c.tals[t].role != h.ROLE_STRESS]
    return cp.SLASH, (data.draw(st.sampled_from(tals)), data.draw(st.integers(1, 4)), data.draw(b)), ""


def check_invariants(c):
    s = c.tals[c.find(h.ROLE_SIN)]
    p = c.tals[c.find(h.ROLE_PRESSURE)]
    assert c.tals[c.find(h.ROLE_TENSION)].n < 3
    assert 0 <= p.n <= 6
    assert s.cap == 8 + s.a + p.n
    assert 0 <= s.b < 4
    assert 0 <= c.x[h.X_EXPENDED] <= c.x[h.X_ANSWERED] <= 3
    for i, ch in enumerate(c.chars):
        v = ch.v
        stt = c.tals[c.find(h.ROLE_STRESS, i)]
        assert 0 <= v[h.INJURIES] <= 3 and v[h.BRINK] == (v[h.INJURIES] >= 3)
        assert stt.cap == 6 - v[h.INJURIES]
        if not v[h.DEAD]:
            assert 0 <= stt.n < stt.cap
        if v[h.BRINK]:
            assert stt.n == 0
        assert 0 <= v[h.SIN] <= 10 and 0 <= v[h.BURSTS] <= 3 and 0 <= v[h.KITP] <= 5
    for t in c.tals:
        if t is not None and t.role == h.ROLE_HOOK:
            assert 0 <= t.n < 3


def run_sequence(data, seed, steps, on_ok=None):
    c = cp.Campaign(systems.HUNT, cid=3)
    c.act(cp.CHAR_ADD, (), "Ada")
    c.act(cp.CHAR_ADD, (), "Bo")
    c.act(h.NEW_HUNT, (data.draw(st.integers(0, 3)), data.draw(st.integers(0, 1))))
    d = Dice(seed)
    refused = 0
    for _ in range(steps):
        kind, args, text = draw_action(data, c)
        before = cp.encode_state(c)
        snap = snapshot(c)
        n = len(c.events)
        try:
            c.act(kind, args, text, dice=d)
        except ValueError:
            refused += 1
            assert cp.encode_state(c) == before, (kind, args)
            assert len(c.events) == n
            continue
        check_invariants(c)
        if on_ok is not None and kind not in (cp.UNDO, cp.REDO):
            on_ok(c, snap)
    return c, refused


@SETTINGS
@given(st.data(), st.integers(0, 1 << 28))
def test_replay_encoding_and_refusals(data, seed):
    c, _ = run_sequence(data, seed, 60)
    r = cp.replay(c.system, c.events, c.cid)
    assert cp.encode_state(r) == cp.encode_state(c)
    s = cp.encode_state(c)
    assert cp.encode_state(cp.decode_state(s)) == s
    # a decoded campaign folds new events exactly like the original
    d = cp.decode_state(s)
    out_c = c.act(h.SCENE_END, (0,), dice=Dice(seed))
    d.act(h.SCENE_END, (0,), faces=out_c.faces)
    assert snapshot(d) == snapshot(c)


@SETTINGS
@given(st.data(), st.integers(0, 1 << 28))
def test_undo_is_an_inverse(data, seed):
    def on_ok(c, snap):
        after = snapshot(c)
        c.undo()
        assert snapshot(c) == snap
        c.redo()
        assert snapshot(c) == after
    c, _ = run_sequence(data, seed, 40, on_ok)
    # undo everything back to the start, then redo it all
    end = snapshot(c)
    k = 0
    while c.done:
        c.undo()
        k += 1
    assert snapshot(c) == snapshot(cp.Campaign(systems.HUNT, cid=3))
    for _ in range(k):
        c.redo()
    assert snapshot(c) == end


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1 << 28), st.integers(-4, 20), st.integers(0, 1), st.integers(2, 6))
def test_roll_pool_agrees_with_evaluate(seed, n, hard, face):
    buf = new_pool()
    s = h.roll_pool(Dice(seed), buf, n, hard, face)
    assert s == h.evaluate(buf, n, hard, face)
    need = 6 if hard else face
    faces = list(buf[:n]) if n > 0 else [min(buf[0], buf[1])]
    assert s == sum(1 for f in faces if f >= need)


@given(st.integers(-2, 5), st.integers(-2, 5), st.integers(-2, 5), st.integers(-2, 25))
def test_action_pool_validates(skill, adv, agony, minus):
    ok = 0 <= skill <= 3 and 0 <= adv <= 3 and 0 <= agony <= 3 and 0 <= minus <= 20
    try:
        n = h.action_pool(skill, adv, agony, minus)
    except ValueError:
        assert not ok
        return
    assert ok and n == skill + adv + agony - minus
