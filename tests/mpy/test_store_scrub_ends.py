"""The scrub's ends of the journal (apart from
test_store_scrub.py so that each runs in a MicroPython VM's heap, which
these tests cannot collect): the segment appends go to, a torn tail after
a cut, an empty store and a fresh one are no damage. Runs on CPython and
on MicroPython (tests/mpy_run.py)."""

import gc
import sys

from store import Store, journal
from flashsim import FlashSim, PowerCut
from storesession import ROLL, ROOT, data, reopen, segments, store_events

if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def test_the_open_segment_and_a_torn_tail_are_no_damage():
    EVENTS, STATES = data()
    for keep_unsynced in (True, False):
        sim = FlashSim()
        st = store_events(sim, 45)
        # A cut in the middle of an append: a torn record at the end of
        # the open segment; the boot goes on in a new one after it.
        sim.cut = sim.used + journal.HDR + 2
        try:
            st.append(EVENTS[45])
        except PowerCut:
            pass
        sim.revive()
        st, state, evs, rep = reopen(sim, keep=1000)
        assert rep.ok() and st.seq == 45, rep.errors
        for k in range(2 * len(segments(sim)) + 2):
            assert st.scrub_step() is None, k
        st.append(EVENTS[45])
        st.append(EVENTS[46])                         # the segment appends go to: up to seq
        for k in range(2 * len(segments(sim)) + 2):
            assert st.scrub_step() is None, k


def test_an_empty_store_and_a_fresh_one_scrub_clean():
    sim = FlashSim()
    st = Store(sim, ROOT, keep=1000, roll=ROLL)
    st.open()
    assert st.scrub_step() is None and st.scrub_step() is None
    st = store_events(sim, 3, st=st)
    assert st.scrub_step() is None and st.scrub_step() is None
