"""The campaign core: events, talismans, chains, undo/redo, encoding."""
from rules import campaign as cp, codec, systems
from rules import talisman as tl
from rules.dice import Dice
from support import raises, raises_unchanged


def new(system=systems.PATHS):
    return cp.Campaign(system, cid=77)


def tal(c, name, cap, policy=tl.CLAMP, link=tl.NONE):
    c.act(cp.TAL_NEW, (cap, policy, link, 0, tl.NONE, 0, 0), name)
    return len(c.tals) - 1


def test_event_codec_round_trip():
    ev = codec.encode_event(40, (0, -1, 63, -64, 64, 1 << 28), bytes((1, 6, 12)), "Sin")
    assert codec.decode_event(ev) == (40, [0, -1, 63, -64, 64, 1 << 28], bytes((1, 6, 12)), "Sin")
    assert len(codec.encode_event(5, (1, 1, 0))) == 7  # kind, nargs, 3 args, nfaces, ntext


def test_event_codec_rejects_bad_input():
    raises(ValueError, codec.encode_event, 0)
    raises(ValueError, codec.encode_event, 5, (1 << 29,))
    raises(ValueError, codec.encode_event, 5, (), b"", "x" * 25)
    ev = codec.encode_event(5, (1, 2, 3), b"\x01", "ab")
    for cut in range(len(ev)):
        raises(ValueError, codec.decode_event, ev[:cut])
    raises(ValueError, codec.decode_event, ev + b"\x00")


def test_clamp_talisman_fills_and_stops():
    c = new()
    t = tal(c, "Door", 3)
    c.act(cp.SLASH, (t, 2, 0))
    out = c.act(cp.SLASH, (t, 5, 0))
    assert c.tals[t].n == 3 and out.successes == 1


def test_nofill_never_fills_the_last_slash():
    c = new()
    t = tal(c, "Sin", 4)
    c.act(cp.SLASH, (t, 9, 1))
    assert c.tals[t].n == 3
    c.act(cp.SLASH, (t, 1, 1))
    assert c.tals[t].n == 3


def test_carry_chain_feeds_linked_talisman_with_excess():
    c = new()
    p = tal(c, "Pressure", 6)
    t = tal(c, "Tension", 3, tl.CARRY, p)
    c.act(cp.SLASH, (t, 2, 0))
    assert (c.tals[t].n, c.tals[p].n) == (2, 0)
    c.act(cp.SLASH, (t, 5, 0))  # 7 = two fills and one over
    assert (c.tals[t].n, c.tals[p].n) == (1, 2)


def test_invalid_actions_leave_state_unchanged():
    c = new()
    t = tal(c, "Clock", 4)
    raises_unchanged(c, c.act, cp.SLASH, (t + 5, 1, 0))
    raises_unchanged(c, c.act, cp.SLASH, (t, 0, 0))
    raises_unchanged(c, c.act, cp.TAL_NEW, (0, 0, -1, 0, -1, 0, 0), "Zero")
    raises_unchanged(c, c.act, cp.TAL_NEW, (3, tl.CARRY, -1, 0, -1, 0, 0), "Nolink")
    fresh = new()
    raises_unchanged(fresh, fresh.undo)
    raises_unchanged(c, c.act, 200)
    raises_unchanged(c, c.act, cp.CHAR_ADD, (), "")


def test_undo_redo_are_inverses():
    c = new()
    t = tal(c, "Clock", 6)
    c.act(cp.SLASH, (t, 2, 0))
    s2 = cp.encode_state(c)
    c.act(cp.SLASH, (t, 3, 0))
    s3 = cp.encode_state(c)
    c.undo()
    assert cp.encode_state(c)[6:] != s3[6:]
    assert c.tals[t].n == 2
    c.redo()
    assert c.tals[t].n == 5
    c.undo()
    c.undo()
    assert c.tals[t].n == 0
    c.redo()
    assert c.tals[t].n == 2
    c.act(cp.SLASH, (t, 1, 0))  # a new action empties the redo stack
    raises_unchanged(c, c.redo)
    assert s2 != s3


def test_replay_gives_same_state_and_encoding_round_trips():
    c = new()
    d = Dice(5)
    c.act(cp.CHAR_ADD, (), "Ada")
    t = tal(c, "Clock", 6)
    c.act(cp.DICE, (6, 4), dice=d)
    c.act(cp.SLASH, (t, 3, 0))
    c.undo()
    c.act(cp.DICE, (20, 1), dice=d)
    r = cp.replay(c.system, c.events, c.cid)
    assert cp.encode_state(r) == cp.encode_state(c)
    s = cp.encode_state(c)
    assert cp.encode_state(cp.decode_state(s)) == s


def test_hand_rolled_faces_and_mismatch():
    c = new()
    out = c.act(cp.DICE, (6, 3), faces=(1, 2, 6))
    assert out.successes == 9 and out.faces == bytes((1, 2, 6))
    raises_unchanged(c, c.act, cp.DICE, (6, 3), faces=(1, 2))
    raises_unchanged(c, c.act, cp.DICE, (6, 2), faces=(1, 2, 3))
    raises_unchanged(c, c.act, cp.DICE, (6, 2), faces=(1, 9))


def test_decode_state_rejects_damage():
    c = new()
    tal(c, "Clock", 6)
    s = cp.encode_state(c)
    raises(ValueError, cp.decode_state, b"XX" + s[2:])
    raises(ValueError, cp.decode_state, s[:2] + bytes((99,)) + s[3:])
    raises(ValueError, cp.decode_state, s[:-1])
    raises(ValueError, cp.decode_state, s + b"\x00")


def test_undo_window_bounds_history_and_matches_full_history():
    win = cp.Campaign(systems.PATHS, 9, depth=4)
    full = cp.Campaign(systems.PATHS, 9)
    for c in (win, full):
        tal(c, "Clock", 64)
    for k in range(1, 30):
        for c in (win, full):
            c.act(cp.SLASH, (0, 1 + k % 3, 0))
        assert min(k + 1, 4) <= len(win.done) < 8
        assert cp.encode_state(win) == cp.encode_state(full)
    for _ in range(4):  # at least `depth` undos always work
        win.undo()
        full.undo()
        assert cp.encode_state(win) == cp.encode_state(full)
    # Whatever the window accepted, a full-history replay accepts too.
    assert cp.encode_state(cp.replay(win.system, win.events, 9)) == cp.encode_state(win)
    while win.done:
        win.undo()
    raises_unchanged(win, win.undo)


def test_snapshot_keeps_the_undo_window():
    c = cp.Campaign(systems.PATHS, 5, depth=4)
    t = tal(c, "Clock", 64)
    for k in range(11):
        c.act(cp.SLASH, (t, 1, 0))
    c.undo()
    snap = cp.encode_snapshot(c)
    r = cp.decode_snapshot(snap, depth=4)
    assert cp.encode_state(r) == cp.encode_state(c)
    assert cp.encode_snapshot(r) == snap
    for x in (c, r):
        x.redo()
        x.undo()
        x.undo()
        x.act(cp.SLASH, (t, 2, 0))
    assert cp.encode_state(r) == cp.encode_state(c)
    raises(ValueError, cp.decode_snapshot, snap[:-1])
    raises(ValueError, cp.decode_snapshot, b"DT" + snap[2:])


def test_no_argument_kinds_refuse_arguments_when_new_and_replay_them_from_a_journal():
    c = new()
    c.act(cp.CHAR_ADD, (), "Ada")
    t = tal(c, "Clock", 4)
    c.act(cp.SLASH, (t, 2, 0))
    for kind, text in ((cp.UNDO, ""), (cp.REDO, ""), (cp.CHAR_ADD, "Bo")):
        raises_unchanged(c, c.act, kind, (0,), text)
    c.apply(codec.encode_event(cp.UNDO, (0,), b"", ""))   # as journaled before the check
    assert c.tals[t].n == 0


def test_a_name_too_long_is_quoted_whole_or_said_to_be_cut():
    # The refusal quotes the name as given when it can be read back whole,
    # never a cut name that reads like the whole one ('This name is too
    # lon' has 21); a long one is cut, and "..." outside its quotes says so.
    from rules.core import name_error, NAME_RULE
    said = name_error("This name is too long")
    assert said == NAME_RULE + ": 'This name is too long' has 21 characters", said
    said = name_error("x" * 500)
    assert said == NAME_RULE + ": '" + "x" * 24 + "'... has 500 characters", said
