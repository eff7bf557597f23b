"""The store's replay a step at a time (Store.recover, Store.replay: a
boot's), against open() (every event at once: the host's): the same
events and head, nothing kept but a short tail of the chain, a step that
resumes inside a segment with a seek (journal.scan's MORE). Runs on
CPython and on MicroPython."""

import gc
import sys

from flashsim import FlashSim
from rules import campaign as cp
from rules.dice import Dice
import store
from store import chain, journal

MPY = sys.implementation.name == "micropython"
if MPY:
    gc.disable()   # see storesession.py
N = 120 if MPY else 400


def _journal(n):
    """A store of n events and only the empty snapshot; (fs, events)."""
    fs = FlashSim()
    st = store.Store(fs, "/dt", None, store.JOURNAL_KEEP)
    st.open()
    c = cp.Campaign(0, 7)
    st.snapshot(cp.encode_snapshot(c), 0)
    d = Dice(3)
    for k in range(n):
        c.act(cp.DICE, (6, 1 + k % 4), dice=d)
        st.append(c.events[-1])
    st.close()
    return fs, list(c.events)


def test_a_replay_in_steps_keeps_a_short_tail_and_ends_as_open():
    fs, evs = _journal(N)
    st = store.Store(fs, "/dt", None, store.JOURNAL_KEEP)
    state, rep = st.recover()
    longest = [0]
    got = []

    def each(ev):
        got.append(ev)
        longest[0] = max(longest[0], len(st._rp[8]))   # _RTAIL: the tail not hashed yet
    steps = 0
    while st.replay(each, 7):
        steps += 1
    assert steps == N // 7 and got == evs and rep.ok() and st.seq == N
    assert longest[0] < store.TAIL_MAX            # hashed in as it went
    assert st.head == chain.over(store.ZERO, 1, evs)
    st.append(evs[0])                             # appends go on where it ended
    again = store.Store(fs, "/dt", None, store.JOURNAL_KEEP)
    state, got2, rep = again.open()
    assert got2 == evs + [evs[0]] and again.seq == N + 1


def test_a_scan_stops_where_out_says_and_resumes_at_its_offset():
    fs, evs = _journal(30)
    path = "/dt/j00000000.log"
    got = []

    def first_ten(ev):
        got.append(ev)
        return len(got) == 10
    r = journal.scan(fs, path, 0, first_ten)
    assert r.status == journal.MORE and r.seq == 10 and got == evs[:10]
    rest = journal.scan(fs, path, r.seq, got.append, None, r.good)
    assert rest.status == journal.OK and rest.seq == 30 and got == evs
    # An offset past the file's end is damage (the segment is shorter than a
    # snapshot says), not a read of nothing.
    size = len(fs.files[path])
    bad = journal.scan(fs, path, 30, got.append, None, size + 5)
    assert bad.status == journal.BAD and bad.good == size and "5 bytes before" in bad.why
