"""A roll on flash: the loop pass that takes the Roll
key writes one metadata commit and erases nothing (the pending journal,
docs/store.md); the snapshot due and the fold wait for an idle moment,
TIDY_MS after the last key with the ring's animation over, and then
happen without a key. Runs on CPython and on MicroPython."""

from rules import campaign as cp
from hw.keys import K_ROLL
from ui import app as uiapp
from fakeapp import flash, boot


def _pass(a, b):
    b.now += a.step()


def test_the_roll_pass_commits_once_and_the_idle_moment_does_the_rest():
    fs = flash()
    a, b, s = boot(fs)
    s.set_bright(3)                                # past the first run's tour
    for k in range(15):
        s.do(cp.DICE, (6, 1 + k % 3))
    while s.tidy():
        pass
    a, b, s = boot(fs)
    while not a.warm:                              # the boot's idle moments: the file
        assert b.now < 5000                        # opened, the builder's pool made
        _pass(a, b)
    assert b.now >= uiapp.WARM_MS
    assert not s.st.due() and s.st.seq == 15 and s.st.snaps[-1] == 0
    blocks, commits, shows = fs.blocks, fs.commits, b.display.shows
    b.raw = K_ROLL                                 # a tap: down past the debounce, up
    for _ in range(3):
        _pass(a, b)
    b.raw = 0
    while s.st.seq == 15:
        assert b.now < 10000, "the roll never came"
        _pass(a, b)
    assert b.display.shows > shows and a.anim >= 0
    assert fs.blocks == blocks and fs.commits == commits + 1   # the event, and nothing else
    assert s.st.snaps[-1] == 0 and s.st.pending() == 1       # the snapshot waits
    t = b.now
    while s.st.snaps[-1] == 0:
        assert b.now - t < 5000, "no idle moment came"
        assert fs.blocks == blocks or a.anim < 0   # nothing while the ring turns
        _pass(a, b)
    assert a.anim < 0 and b.now - t >= uiapp.TIDY_MS
    assert s.st.snaps[-1] == 16 and s.st.pending() == 0
    a2, b2, s2 = boot(fs)                         # and it all reads back
    assert s2.st.seq == 16 and cp.encode_state(s2.c) == cp.encode_state(s.c)
