"""Buttons: debounce, short/long press, auto-repeat, tick wraparound."""
from hw.keys import K_DOWN, K_OK, K_ROLL, K_UP
from support import raises, micropython_only
from ui import buttons as bt
from ui.buttons import LONG, PRESS, RELEASE, REPEAT, Buttons, event

try:
    import micropython
    import time
    MPY = hasattr(time, "ticks_diff")
except ImportError:
    micropython = None
    MPY = False





PERIOD = 1 << 30
WRAP_T0 = PERIOD - 300  # start 300 ms before ticks_ms wraps to 0


def run(b, script, end, t0=0, step=10):
    """Poll every `step` ms from t0 for `end` ms; script = [(ms, raw), ...]
    sorted changes of the raw mask. Returns [(ms, event), ...]."""
    out = []
    raw = 0
    k = 0
    for ms in range(0, end + 1, step):
        while k < len(script) and script[k][0] <= ms:
            raw = script[k][1]
            k += 1
        n = b.update(raw, bt.ticks_add(t0, ms))
        for i in range(n):
            out.append((ms, b.q[i]))
    return out


def test_ticks_standin_matches_micropython_across_wrap():
    half = PERIOD // 2
    pinned = ((5, PERIOD - 3, 8), (PERIOD - 3, 5, -8), (0, half, -half),
              (half - 1, 0, half - 1), (PERIOD - 1, 0, -1), (7, 7, 0))
    for a, b, d in pinned:
        assert bt.ticks_diff_py(a, b) == d, (a, b)
        assert bt.ticks_add_py(b, d) == a, (b, d)
        assert bt.ticks_diff(a, b) == d  # what the firmware uses, either platform
    vals = (0, 1, 2, 99, half - 2, half - 1, half, half + 1, PERIOD - 120,
            PERIOD - 2, PERIOD - 1)
    deltas = (0, 1, -1, 120, -120, 600, half - 1, -half + 1)  # ticks_add's range
    for a in vals:
        for b in vals:
            d = bt.ticks_diff_py(a, b)
            if MPY:
                assert d == time.ticks_diff(a, b), (a, b)
            else:  # the defining formula, with CPython big ints
                assert d == (a - b + half) % PERIOD - half, (a, b)
        for d in deltas:
            s = bt.ticks_add_py(a, d)
            if MPY:
                assert s == time.ticks_add(a, d), (a, d)
            else:
                assert s == (a + d) % PERIOD, (a, d)
            assert 0 <= s < PERIOD


def test_debounce_waits_for_a_stable_contact():
    b = Buttons()
    # Bounces every 5 ms for 30 ms, then held: one press, 20 ms after settling.
    script = [(t, K_UP if (t // 5) % 2 == 0 else 0) for t in range(0, 30, 5)]
    script += [(30, K_UP), (200, 0), (205, K_UP), (210, 0)]
    ev = run(b, script, 300, step=5)
    assert ev == [(50, event(K_UP, PRESS)), (230, event(K_UP, RELEASE))], ev
    # A glitch shorter than the debounce time never shows.
    b = Buttons()
    assert run(b, [(10, K_OK), (25, 0)], 200, step=5) == []


def test_a_tap_the_busy_app_polled_once_is_not_lost():
    # The app busy between two polls (an idle moment's flash
    # step, which says so): a key seen down at one poll and up at the next
    # is a tap.
    b = Buttons()
    assert b.update(0, 0) == 0
    assert b.update(K_ROLL, 30) == 0          # down: not debounced yet
    b.busy = True                             # the app's flash work, 50 ms
    n = b.update(0, 81)                       # the next poll: up
    assert [b.q[i] for i in range(n)] == [event(K_ROLL, PRESS), event(K_ROLL, RELEASE)]
    assert b.update(0, 110) == 0 and b.state == 0 and not b.busy
    # Without the app saying so, the same down-then-up is a glitch: nothing.
    b = Buttons()
    assert b.update(K_ROLL, 30) == 0 and b.update(0, 81) == 0 and b.update(0, 110) == 0
    # An arrow too; a key held across the busy poll is an ordinary press.
    b = Buttons()
    b.update(K_UP, 0)
    b.busy = True
    n = b.update(0, 60)
    assert [b.q[i] for i in range(n)] == [event(K_UP, PRESS), event(K_UP, RELEASE)]
    b = Buttons()
    b.update(K_OK, 0)
    b.busy = True
    assert b.update(K_OK, 60) == 0 and b.state == K_OK    # debounced: held


def test_a_tap_the_busy_app_never_polled_is_not_lost_either():
    # The whole tap inside the busy step: the board noted its press as it
    # happened (hw/pico.py fell(), a falling edge), and the key is up at
    # both polls.
    b = Buttons()
    assert b.update(0, 0) == 0
    b.busy, b.fell = True, K_ROLL
    n = b.update(0, 120)
    assert [b.q[i] for i in range(n)] == [event(K_ROLL, PRESS), event(K_ROLL, RELEASE)]
    assert b.fell == 0 and not b.busy and b.update(0, 150) == 0
    # Not busy: a press noted between two ordinary polls is a glitch.
    b = Buttons()
    b.update(0, 0)
    b.fell = K_ROLL
    assert b.update(0, 30) == 0
    # A key still down after the busy step is held (its release is a press).
    b = Buttons()
    b.update(0, 0)
    b.busy, b.fell = True, K_OK
    assert b.update(K_OK, 60) == 0 and b.update(K_OK, 90) == 0 and b.state == K_OK


def test_a_press_noted_in_the_busy_step_is_taken_at_the_first_poll_after_it():
    # The board's long session under load: Roll went down inside
    # an erase (the CPU stalled, the press noted by the key's interrupt),
    # the first poll after the work saw it down, and it was up again before
    # the next idle poll 30 ms later. The debounce wants two polls 20 ms
    # apart, so that press was never taken, and the release made no tap.
    # The interrupt saw the press begin during the work: it is taken at once.
    b = Buttons()
    assert b.update(0, 0) == 0
    b.busy, b.fell = True, K_ROLL               # down at 20, in a 45 ms erase
    assert b.update(K_ROLL, 93) == 0 and b.state == K_ROLL
    assert b.update(0, 123) == 0                # up at 120: the release is debounced
    n = b.update(0, 154)
    assert [b.q[i] for i in range(n)] == [event(K_ROLL, PRESS), event(K_ROLL, RELEASE)]
    # An arrow gives its PRESS at once, as a debounced press would.
    b = Buttons()
    b.update(0, 0)
    b.busy, b.fell = True, K_UP
    n = b.update(K_UP, 60)
    assert [b.q[i] for i in range(n)] == [event(K_UP, PRESS)]
    # Without the note (a key down at one poll, unknown since when), the
    # debounce waits as before.
    b = Buttons()
    b.update(0, 0)
    b.busy = True
    assert b.update(K_ROLL, 60) == 0 and b.state == 0


def test_one_poll_after_busy_work_gives_its_keys_in_the_order_pressed():
    # A key script on the rp2 port: Back tapped during an idle moment's
    # erases (its release seen at a poll between two of them), then Down
    # pressed during the next erase. The poll after it saw both: Down,
    # pressed at once (noted), came before Back's short press (key order),
    # so Down moved the menu's cursor and Back then left the menu, and
    # the move was lost. The keys up now go first, and a release seen
    # after busy work is taken at once, as a press noted then is.
    from hw.keys import K_BACK
    b = Buttons()
    b.update(K_BACK, 0)
    b.update(K_BACK, 30)
    b.busy, b.fell = True, K_DOWN             # up after the work; Down went down in it
    n = b.update(K_DOWN, 100)
    assert [b.q[i] for i in range(n)] == [
        event(K_BACK, PRESS), event(K_BACK, RELEASE), event(K_DOWN, PRESS)]
    # Not after busy work, the release waits for the debounce as ever.
    b = Buttons()
    b.update(K_BACK, 0)
    b.update(K_BACK, 30)
    assert b.update(0, 40) == 0 and b.state == K_BACK
    n = b.update(0, 60)
    assert [b.q[i] for i in range(n)] == [event(K_BACK, PRESS), event(K_BACK, RELEASE)]


def test_short_press_fires_on_release():
    ev = run(Buttons(), [(0, K_OK), (150, 0)], 400)
    assert ev == [(170, event(K_OK, PRESS)), (170, event(K_OK, RELEASE))], ev


def test_long_press_fires_once_and_swallows_the_short_press():
    ev = run(Buttons(), [(0, K_ROLL), (2000, 0)], 2500)
    assert ev == [(620, event(K_ROLL, LONG)), (2020, event(K_ROLL, RELEASE))], ev


def test_arrows_repeat_and_never_long_press():
    ev = run(Buttons(), [(0, K_DOWN), (1000, 0)], 1200)
    kinds = [e >> 8 for _, e in ev]
    assert kinds == [PRESS] + [REPEAT] * 5 + [RELEASE], ev
    assert [t for t, _ in ev] == [20, 420, 540, 660, 780, 900, 1020]
    assert all(e & 0xFF == K_DOWN for _, e in ev)


def test_same_events_across_the_ticks_wrap():
    script = [(0, K_UP), (700, K_UP | K_OK), (1500, K_OK), (1600, 0)]
    plain = run(Buttons(), script, 1800)
    wrapped = run(Buttons(), script, 1800, t0=WRAP_T0)
    assert wrapped == plain and len(plain) >= 8, (plain, wrapped)


def test_configurable_timings_and_repeat_keys():
    b = Buttons(debounce=5, long_ms=300, repeat_delay=200, repeat_every=50,
                repeat_keys=K_OK)
    ev = run(b, [(0, K_OK), (400, 0)], 500, step=5)
    assert [t for t, _ in ev] == [5, 205, 255, 305, 355, 405], ev
    ev = run(b, [(0, K_UP), (400, 0)], 500, step=5)  # now UP long-presses
    assert ev == [(305, event(K_UP, LONG)), (405, event(K_UP, RELEASE))], ev
    b = Buttons(long_ms=0)  # no long press: PRESS on the way down
    ev = run(b, [(0, K_OK), (100, 0)], 200)
    assert ev[0] == (20, event(K_OK, PRESS)), ev
    raises(ValueError, Buttons, repeat_every=0)


def test_chord_and_full_queue():
    b = Buttons(qlen=1)
    run(b, [(0, K_UP | K_DOWN)], 30)
    assert b.state == K_UP | K_DOWN and b.dropped == 1
    b.reset()
    assert b.state == 0


def test_cpython_uses_the_standin():
    if not MPY:
        assert bt.ticks_diff is bt.ticks_diff_py and bt.ticks_add is bt.ticks_add_py
    else:
        assert bt.ticks_diff is time.ticks_diff


@micropython_only
def test_update_allocates_nothing():
    b = Buttons()
    raws = bytes((0, K_UP, K_UP, 0, K_OK, K_OK | K_DOWN, K_DOWN, 0))
    t = WRAP_T0
    total = 0
    micropython.heap_lock()
    try:
        for i in range(400):  # 4 s of polls through the wrap, keys changing
            total += b.update(raws[(i // 37) % 8], t)
            t = bt.ticks_add(t, 10)
    finally:
        micropython.heap_unlock()
    assert total > 10


def test_key_names():
    from hw import keys
    assert [keys.name(1 << i) for i in range(keys.COUNT)] == list(keys.NAMES)
    assert keys.name(keys.K_ROLL) == "ROLL" and keys.ALL == 127 and keys.ARROWS == 15
    raises(ValueError, keys.name, keys.K_UP | keys.K_OK)
