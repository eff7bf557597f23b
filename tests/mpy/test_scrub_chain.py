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

from store import Store, chain, journal, anchors
from flashsim import FlashSim
from test_store import ROOT, data, _offsets
from test_store_scrub import _store as store_events, _segs

MPY = sys.implementation.name == "micropython"
if MPY:
    gc.disable()   # see test_store.py

ROLL = 256        # segments of about a dozen records: several in a short session


def _store(sim, n, keep=1000, every=16, st=None, roll=ROLL):
    """Events 1..n of the paths session, a snapshot every `every`."""
    return store_events(sim, n, keep, every, st, roll)


def _reopen(sim, keep=1000):
    st = Store(sim, ROOT, keep=keep, roll=ROLL)
    st.open()
    return st


def _rewrite(sim, seq):
    """Event `seq` rewritten on flash (one bit of its last byte), its record
    whole: length, seq, CRC and check byte all valid."""
    b = max(x for x in _segs(sim) if x < seq)
    img = sim.files[ROOT + "/j%08x.log" % b]
    at = _offsets(img)[seq - b - 1]
    n = img[at] | (img[at + 1] << 8)
    ev = bytearray(img[at + journal.HDR:at + journal.HDR + n])
    ev[-1] ^= 0x01
    buf = bytearray(journal.HDR + journal.MAX_REC)
    k = journal.pack(buf, seq, bytes(ev))
    img[at:at + k] = buf[:k]
    return b


def _cycle(st):
    """Scrub steps until a whole cycle ends; what they reported."""
    said = []
    c = st.scrubbed[0] if getattr(st, "scrubbed", None) else 0
    for _ in range(200):
        got = st.scrub_step()
        if got is not None:
            said.append(got)
        if st.scrubbed and st.scrubbed[0] > c:
            return said
    raise AssertionError("no whole cycle in 200 steps")


def test_a_clean_journal_holds_its_chain_from_event_1():
    sim = FlashSim()
    st = _store(sim, 60)
    assert len(_segs(sim)) >= 3
    st.close()
    st = _reopen(sim)
    assert _cycle(st) == []
    assert st.scrubbed == (1, 1, 60, True), st.scrubbed
    # The heads at the segments' bases were recorded as they were started.
    for b in _segs(sim)[1:]:
        assert anchors.get(st, b) is not None


def test_a_rewritten_record_breaks_the_chain_and_is_named():
    EVENTS, STATES = data()
    sim = FlashSim()
    _store(sim, 60).close()
    segs = _segs(sim)
    b = _rewrite(sim, 11)
    nxt = segs[segs.index(b) + 1]
    st = _reopen(sim)
    assert st.head == chain.over(chain.ZERO, 1, EVENTS[:60])   # the head: its snapshot's
    said = _cycle(st)
    assert len(said) == 1, said
    assert said[0].startswith("the hash chain breaks in events %d..%d of the journal: "
                              "they do not lead to the head the device recorded after "
                              "event %d" % (b + 1, nxt, nxt)), said
    assert "dicetray verify" in said[0]
    assert st.scrubbed[3] is False
    # Found again at every cycle (the session reports it once); the device works on.
    assert _cycle(st) == said
    _store(sim, 70, st=st)
    assert st.head == chain.over(chain.ZERO, 1, EVENTS[:70])
    assert _cycle(st) == said


def test_a_rewritten_record_in_the_newest_segment_meets_the_device_head():
    sim = FlashSim()
    _store(sim, 64).close()
    last = _segs(sim)[-1]
    _rewrite(sim, last + 1)          # covered by the snapshot at 64: not replayed
    st = _reopen(sim)
    said = _cycle(st)
    assert len(said) == 1 and ("recorded after event 64") in said[0], said


def test_an_edit_after_the_newest_snapshot_is_the_history_the_device_holds():
    # Replayed at boot into the state and the head: the device then holds
    # that history, and only a copy (a backup: `dicetray verify`) can tell
    # (docs/store.md, "Scrub").
    EVENTS, STATES = data()
    sim = FlashSim()
    _store(sim, 40).close()
    _rewrite(sim, 34)
    st = _reopen(sim)
    assert st.head != chain.over(chain.ZERO, 1, EVENTS[:40])
    assert _cycle(st) == [] and st.scrubbed == (1, 1, 40, True)


def test_a_restore_past_event_1_records_its_start():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, keep=1000, roll=ROLL)
    st.open()
    head = chain.over(chain.ZERO, 1, EVENTS[:30])
    st.start(STATES[30], 30, head)
    _store(sim, 50, st=st)
    st.close()
    st = _reopen(sim)
    assert _cycle(st) == [] and st.scrubbed == (1, 31, 50, True), st.scrubbed
    _rewrite(sim, 33)
    st = _reopen(sim)
    said = _cycle(st)
    assert len(said) == 1 and said[0].startswith("the hash chain breaks in events 31.."), said
