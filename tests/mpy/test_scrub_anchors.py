"""The hash chain's anchors (store/anchors.py): the
head after each journal segment's base, recorded as the device started
the segment (or verified by the scrub), written at a snapshot, kept
through compaction and reboots, learned for a flash from before them, so
the scrub chains a journal that no longer starts at event 1. Runs on
CPython and on MicroPython (tests/mpy_run.py)."""

import gc
import sys

from store import chain, anchors
from flashsim import FlashSim
from storesession import ROOT, data, segments
from chainscrub import cycle, reopen_store, rewrite, short_store

if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def test_anchors_survive_compaction_and_a_reboot():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = short_store(sim, 80, keep=20)
    first = segments(sim)[0]
    assert first > 0                                   # the journal no longer starts at 1
    st.close()
    st = reopen_store(sim, keep=20)
    assert cycle(st) == []
    assert st.scrubbed == (1, first + 1, 80, True), (st.scrubbed, first)
    assert anchors.get(st, first) == chain.over(chain.ZERO, 1, EVENTS[:first])
    rewrite(sim, first + 2)
    st = reopen_store(sim, keep=20)
    said = cycle(st)
    assert len(said) == 1 and said[0].startswith(
        "the hash chain breaks in events %d.." % (first + 1)), said
    chn = [nm for nm in sim.listdir(ROOT) if nm.endswith(".chn")]
    assert len(chn) == 1, chn                          # one table, the older ones removed


def test_a_flash_from_before_the_anchors_is_learned_by_the_scrub():
    # Firmware before the anchors wrote no .chn file: a journal from event
    # 1 is chained from the chain's start, and the heads it passes are
    # kept (written at the next snapshot), so compaction loses nothing.
    EVENTS, STATES = data()
    sim = FlashSim()
    short_store(sim, 40).close()
    for nm in sim.listdir(ROOT):
        if nm.endswith(".chn"):
            sim.remove(ROOT + "/" + nm)
    st = reopen_store(sim)
    segs = segments(sim)
    assert [anchors.get(st, b) for b in segs[1:]] == [None] * (len(segs) - 1)
    assert cycle(st) == [] and st.scrubbed == (1, 1, 40, True)
    for b in segs[1:]:
        assert anchors.get(st, b) == chain.over(chain.ZERO, 1, EVENTS[:b])
    short_store(sim, 48, st=st)                              # the next segment started writes them
    st.close()
    st = reopen_store(sim)
    for b in segs[1:]:
        assert anchors.get(st, b) == chain.over(chain.ZERO, 1, EVENTS[:b])


def test_without_a_recorded_start_the_chain_is_checked_from_the_first_it_has():
    # A journal past event 1 with no heads recorded (older firmware,
    # compacted): the scrub checks the records and chains from the first
    # recorded head on (here: the newest segment's, at a later snapshot).
    EVENTS, STATES = data()
    sim = FlashSim()
    short_store(sim, 72, keep=20).close()
    assert segments(sim)[0] > 0
    for nm in sim.listdir(ROOT):
        if nm.endswith(".chn"):
            sim.remove(ROOT + "/" + nm)
    st = reopen_store(sim, keep=20)
    assert cycle(st) == []
    assert st.scrubbed[1] == -1 and st.scrubbed[3], st.scrubbed   # nothing to chain from
    short_store(sim, 88, keep=20, st=st)                    # a new segment, its head recorded
    b = segments(sim)[-1]
    assert b > 72 and anchors.get(st, b) == chain.over(chain.ZERO, 1, EVENTS[:b])
    assert cycle(st) == []
    assert st.scrubbed[1] == b + 1 and st.scrubbed[2] == 88, (st.scrubbed, b)


def test_a_torn_anchors_file_falls_back_to_the_one_before():
    sim = FlashSim()
    st = short_store(sim, 40)
    st.close()
    old = [nm for nm in sim.listdir(ROOT) if nm.endswith(".chn")][0]
    # A cut while the next one was written: it is there, cut short.
    sim.files[ROOT + "/h%08x.chn" % 0x7FFF] = bytearray(sim.files[ROOT + "/" + old][:-5])
    st = reopen_store(sim)
    assert cycle(st) == [] and st.scrubbed == (1, 1, 40, True)
    assert len(anchors.table(st)) == len(segments(sim)) - 1
