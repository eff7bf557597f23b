"""The scrub recomputes the hash chain over the journal:
a record rewritten on flash with valid checks (its CRC and check byte
recomputed) passes every record check, and the device's head comes from
its snapshot, so before this nothing on the device saw it. The scrub now
chains every segment from the head recorded at its base (store/anchors.py)
to the next recorded head and the device's own, reports a break in words,
keeps what it verified for the next snapshot to write, and the store works
on. Runs on CPython and on MicroPython (tests/mpy_run.py)."""

import gc
import sys

from store import Store, chain, anchors
from flashsim import FlashSim
from storesession import ROOT, data, segments
from chainscrub import ROLL, cycle, reopen_store, rewrite, short_store

MPY = sys.implementation.name == "micropython"
if MPY:
    gc.disable()   # see storesession.py


def test_a_clean_journal_holds_its_chain_from_event_1():
    sim = FlashSim()
    st = short_store(sim, 60)
    assert len(segments(sim)) >= 3
    st.close()
    st = reopen_store(sim)
    assert cycle(st) == []
    assert st.scrubbed == (1, 1, 60, True), st.scrubbed
    # The heads at the segments' bases were recorded as they were started.
    for b in segments(sim)[1:]:
        assert anchors.get(st, b) is not None


def test_a_rewritten_record_breaks_the_chain_and_is_named():
    EVENTS, STATES = data()
    sim = FlashSim()
    short_store(sim, 60).close()
    segs = segments(sim)
    b = rewrite(sim, 11)
    nxt = segs[segs.index(b) + 1]
    st = reopen_store(sim)
    assert st.head == chain.over(chain.ZERO, 1, EVENTS[:60])   # the head: its snapshot's
    said = cycle(st)
    assert len(said) == 1, said
    assert said[0].startswith("the hash chain breaks in events %d..%d of the journal: "
                              "they do not lead to the head the device recorded after "
                              "event %d" % (b + 1, nxt, nxt)), said
    assert "dicetray verify" in said[0]
    assert st.scrubbed[3] is False
    # Found again at every cycle (the session reports it once); the device works on.
    assert cycle(st) == said
    short_store(sim, 70, st=st)
    assert st.head == chain.over(chain.ZERO, 1, EVENTS[:70])
    assert cycle(st) == said


def test_a_rewritten_record_in_the_newest_segment_meets_the_device_head():
    sim = FlashSim()
    short_store(sim, 64).close()
    last = segments(sim)[-1]
    rewrite(sim, last + 1)          # covered by the snapshot at 64: not replayed
    st = reopen_store(sim)
    said = cycle(st)
    assert len(said) == 1 and ("recorded after event 64") in said[0], said


def test_an_edit_after_the_newest_snapshot_is_the_history_the_device_holds():
    # Replayed at boot into the state and the head: the device then holds
    # that history, and only a copy (a backup: `dicetray verify`) can tell
    # (docs/store.md, "Scrub").
    EVENTS, STATES = data()
    sim = FlashSim()
    short_store(sim, 40).close()
    rewrite(sim, 34)
    st = reopen_store(sim)
    assert st.head != chain.over(chain.ZERO, 1, EVENTS[:40])
    assert cycle(st) == [] and st.scrubbed == (1, 1, 40, True)


def test_a_restore_past_event_1_records_its_start():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, keep=1000, roll=ROLL)
    st.open()
    head = chain.over(chain.ZERO, 1, EVENTS[:30])
    st.start(STATES[30], 30, head)
    short_store(sim, 50, st=st)
    st.close()
    st = reopen_store(sim)
    assert cycle(st) == [] and st.scrubbed == (1, 31, 50, True), st.scrubbed
    rewrite(sim, 33)
    st = reopen_store(sim)
    said = cycle(st)
    assert len(said) == 1 and said[0].startswith("the hash chain breaks in events 31.."), said
