"""The idle moments' work and the keys: each pass does at most
a step of flash work (about one erase on a board), the keys' next poll
knows the app was busy, and a tap wholly inside a pass is not lost. A real
session on simulated flash; runs on CPython and on MicroPython
(tests/mpy_run.py)."""

import gc
import sys

from fakeapp import played_flash

if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def _idle_passes(a, b, until):
    """The app's loop, idle, until the board's clock reaches `until`."""
    while b.now < until:
        b.idle(a.step())


def test_the_scrub_reads_a_journal_its_idle_steps_folded_a_step_a_pass():
    # Pending records not yet due for a fold (a host's actions)
    # were folded all at once by the scrub step's own read (Store.settle:
    # ~3 erases, ~150 ms on a board), a step the keys did not know had
    # kept the app busy. Now the idle passes before the scrub fold them,
    # one step (at most about one erase) a pass, and the scrub finds none.
    from fakeapp import boot
    from rules import campaign as cp
    from ui import app as uiapp
    fs = played_flash(40)
    a, b, s = boot(fs)
    _idle_passes(a, b, uiapp.WARM_MS + 200)       # the boot's fold and the warm-up
    for k in range(3):                            # a host's actions: pending, no fold due
        s.do(cp.DICE, (6, 1 + k))
    assert s.st.pending() == 3 and not s.st.due()
    steps = []
    fold_step = s.st.fold_step
    scrub = a.scrub

    def counted():
        steps[-1][0] += 1
        return fold_step()

    def scrubbed():
        steps[-1][1] = s.st.pending()
        return scrub()
    s.st.fold_step = counted
    a.scrub = scrubbed
    while b.now < uiapp.SCRUB_MS + 500:
        steps.append([0, None])
        ms = a.step()
        if steps[-1] != [0, None]:
            assert a.buttons.busy, steps          # each pass's work is known to the keys
        b.idle(ms)
    did = [st for st in steps if st != [0, None]]
    assert [n for n, _p in did] == [1, 1, 1, 0], did   # the fold's three steps, then the scrub
    assert did[-1][1] == 0 and s.st.pending() == 0


def test_a_tap_wholly_inside_a_scrub_step_is_a_press():
    # The key went down and up while the scrub step ran (~40 ms on a
    # board): the board noted its press (hw/pico.py fell()), no poll saw
    # it down, and the app told the keys it was busy: a roll.
    from fakeapp import boot
    from hw.keys import K_ROLL
    from ui import app as uiapp
    fs = played_flash(40)
    a, b, s = boot(fs)
    noted = [0]

    def fell():
        m = noted[0]
        noted[0] = 0
        return m
    a.fell = fell
    _idle_passes(a, b, uiapp.WARM_MS + 200)
    scrub = a.scrub

    def tapped():
        noted[0] |= K_ROLL                        # down and up again inside the step
        return scrub()
    a.scrub = tapped
    events = s.st.seq
    while b.now < uiapp.SCRUB_MS + 100 and s.st.seq == events:
        b.idle(a.step())
    assert s.st.seq == events + 1, "the tap inside the scrub step was lost"


def test_a_tap_wholly_inside_a_long_key_is_a_press():
    # A key's own work can be long on a board: a snapshot that could not
    # wait for an idle moment (session.py do(), at SNAP_MAX pending events:
    # a key script's steady presses never leave one) took long enough for
    # the next tap to go down and up unseen, and the key script lost a
    # procedure on the rp2 port. The app tells the keys it was busy.
    from fakeapp import boot
    from hw.keys import K_ROLL
    from ui import app as uiapp
    fs = played_flash(40)
    a, b, s = boot(fs)
    noted = [0]

    def fell():
        m = noted[0]
        noted[0] = 0
        return m
    a.fell = fell
    _idle_passes(a, b, uiapp.WARM_MS + 200)
    do = s.do

    def slow(*args, **kw):
        out = do(*args, **kw)
        if s.st.seq == events + 1:
            b.now += 300                          # the work's time on the board's clock
            noted[0] |= K_ROLL                    # a tap down and up meanwhile
        return out
    s.do = slow
    events = s.st.seq
    b.raw = K_ROLL                                # the first tap, seen by the polls
    for _ in range(3):
        b.idle(a.step())
    b.raw = 0
    while b.now < uiapp.WARM_MS + 5000 and s.st.seq < events + 2:
        b.idle(a.step())
    assert s.st.seq == events + 2, "the tap inside the key's work was lost"
