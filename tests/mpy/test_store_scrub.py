"""The journal's background scrub: damage in the old
journal a snapshot covers, which the boot does not read, is found by
Store.scrub_step one segment at a time, reported by the session as the
boot's damage is, and shown by the app when it is idle. Runs on CPython
and on MicroPython (tests/mpy_run.py)."""

import gc
import sys

from store import journal
from flashsim import FlashSim
from storesession import ROOT, data, fold, record_offsets, reopen, segments, store_events

MPY = sys.implementation.name == "micropython"
if MPY:
    gc.disable()   # see storesession.py


class Counting(FlashSim):
    """FlashSim that counts the segments opened for reading."""

    reads = 0

    def open(self, path, mode):
        if mode == "rb" and path.endswith(".log"):
            self.reads += 1
        return FlashSim.open(self, path, mode)


def test_a_flipped_bit_in_an_old_record_is_found_by_the_scrub():
    EVENTS, STATES = data()
    sim = Counting()
    store_events(sim, 85)
    segs = segments(sim)
    assert len(segs) >= 2 and segs[0] == 0, segs
    img = sim.files[ROOT + "/j00000000.log"]
    img[record_offsets(img)[10] + journal.HDR] ^= 0x40      # inside event 11, long covered by a snapshot
    # The boot reads only what follows the newest snapshot: it says nothing.
    st, state, evs, rep = reopen(sim, keep=1000)
    assert rep.ok() and st.seq == 85 and rep.snap == 80, rep.errors
    assert fold(state, evs) == STATES[85]
    names = sorted(sim.listdir(ROOT))
    before = bytes(img)
    # The scrub checks the oldest segment first: one segment per step.
    sim.reads = 0
    got = st.scrub_step()
    assert sim.reads == 1
    assert got is not None and got.startswith("events 11..%d of the journal are damaged: " % segs[1]), got
    assert "record 11 fails its CRC" in got and "j00000000.log" in got, got
    # It reads only: nothing renamed, nothing repaired, the device runs on.
    assert sorted(sim.listdir(ROOT)) == names and bytes(img) == before
    # The rest of the cycle is clean, then the damaged segment again.
    for k in range(len(segs) - 1):
        assert st.scrub_step() is None
    assert sim.reads == len(segs)
    assert st.scrub_step() == got
    st.append(EVENTS[85])                             # the store works on
    assert st.seq == 86


def test_a_long_segment_is_checked_a_bounded_step_at_a_time():
    # A segment of more records than a step checks (scrub.STEP, made
    # small here: MicroPython's test session is 90 events): the steps go on
    # where the last stopped, each opening it once, and find damage past
    # the first step's records; then the next cycle.
    from store import scrub
    EVENTS, STATES = data()
    step, scrub.STEP = scrub.STEP, 30
    try:
        n = 85
        sim = Counting()
        store_events(sim, n, roll=100000)                  # one segment holds them all
        assert segments(sim) == [0]
        img = sim.files[ROOT + "/j00000000.log"]
        bad = 2 * 30 + 7                             # checked by the third step
        img[record_offsets(img)[bad - 1] + journal.HDR] ^= 0x10
        st = reopen(sim, keep=1000)[0]
        sim.reads = 0
        assert st.scrub_step() is None and st.scrub_step() is None and sim.reads == 2
        got = st.scrub_step()
        assert sim.reads == 3
        assert got is not None and got.startswith("events %d..%d of the journal are damaged: "
                                                  % (bad, n)), got
        assert "record %d fails its CRC" % bad in got, got
        img[record_offsets(img)[bad - 1] + journal.HDR] ^= 0x10  # mended: the next cycle is clean
        for k in range(4):
            assert st.scrub_step() is None, k
    finally:
        scrub.STEP = step


def test_damage_in_a_header_and_a_missing_tail_are_named():
    sim = FlashSim()
    store_events(sim, 85)
    segs = segments(sim)
    img = sim.files[ROOT + "/j00000000.log"]
    offs = record_offsets(img)
    img[offs[4] + 1] ^= 0x40                          # event 5's length: the header check fails
    st = reopen(sim, keep=1000)[0]
    got = st.scrub_step()
    assert got == ("events 5..%d of the journal are damaged: record header check failed "
                   "(j00000000.log); dicetray backup keeps what is intact" % segs[1]), got
    # An old segment cut short (erased after its 30th record): its
    # successor starts later than it ends. No torn tail does that.
    for i in range(offs[30], len(img)):
        img[i] = 0xFF
    img[offs[4] + 1] ^= 0x40
    st = reopen(sim, keep=1000)[0]
    got = st.scrub_step()
    assert got == ("events 31..%d of the journal are damaged: j00000000.log ends after "
                   "event 30 (j00000000.log); dicetray backup keeps what is intact" % segs[1]), got


def test_a_clean_store_scrubs_clean_through_compaction_and_appends():
    EVENTS, STATES = data()
    sim = Counting()
    keep = 10   # old segments leave during the run: compaction beside the scrub
    st = store_events(sim, 20, keep, 4, roll=60)            # small segments, a snapshot every 4
    n = 20
    gone = 0
    steps = 0
    while n < len(EVENTS) - 2:
        assert st.scrub_step() is None, n
        q = list(st._sq)                              # what is left of this cycle
        steps += 1
        n += 21 if steps % 5 == 1 else 2              # appends, snapshots, compaction between steps
        n = min(n, len(EVENTS))
        store_events(sim, n, keep, 4, st=st)
        segs = segments(sim)
        gone += len([b for b in q if b not in segs])
    assert steps >= 2 * len(segments(sim)), steps       # several cycles
    assert gone, "no segment was compacted away in the middle of a cycle"
    assert st.snaps[-1] > 40 and segments(sim)[0] > 0   # compaction did run
    assert st.scrub_step() is None


def test_a_scrub_step_allocates_little():
    # A segment of ~50 records: the scanner's one bytes object and CRC per
    # record, nothing that grows with the segment beyond that; the read
    # buffer is made once and kept.
    sim = FlashSim()
    st = store_events(sim, 85)
    st.scrub_step()
    buf = st._sbuf
    assert len(buf) == journal.CHUNK
    st.scrub_step()
    assert st._sbuf is buf
    if not MPY:
        return
    segs = segments(sim)
    n = len(record_offsets(sim.files[ROOT + "/j00000000.log"]))
    a = gc.mem_alloc()
    for k in range(len(segs)):
        st.scrub_step()
    used = gc.mem_alloc() - a
    print("scrub: %d bytes allocated for %d segments, 85 records (%d in the first)"
          % (used, len(segs), n))
    # Measured: about 310 bytes a record (the scanner's event copy, its
    # memoryview and CRC, ~115; the chain's SHA-256 object and digest,
    # ~190), a few hundred a segment (file, Scan, name).
    assert used < len(segs) * 600 + 330 * 85, used
