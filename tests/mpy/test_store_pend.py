"""The pending journal (docs/store.md, "Pending
journal"): a device's append is one metadata commit into a small file,
folded into the segment at an idle moment. A power cut at every unit of
appends, folds and snapshots loses no acknowledged event; damage in the
pending file is named and set aside; every reader sees the pending events
(runs on CPython and on MicroPython)."""
import gc

from flashsim import FlashSim, PowerCut
from store import Store, journal, slots, PEND_FILE
from storesession import MPY, ROLL, ROOT, data, fold, heads

if MPY:
    gc.disable()   # see storesession.py

N = 30 if MPY else 120
SNAP = 40
FOLD = 7           # a fold at this cadence too, beside the store's own due()


def write(sim, n, done_box):
    """Events 1..n the way the device writes them: appends to the pending
    file, a fold when due (and every FOLD-th event: an idle moment), a
    snapshot every SNAP. done_box[0]: the events acknowledged so far."""
    EVENTS, STATES = data()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    st.open()
    for k in range(n):
        st.append(EVENTS[k])
        done_box[0] = k + 1
        if (k + 1) % SNAP == 0:
            st.snapshot(STATES[k + 1])
        elif st.due() or (k + 1) % FOLD == 0:
            st.fold()
    return st


def units(n):
    sim = FlashSim()
    write(sim, n, [0])
    return sim.used


def check(cut, keep_unsynced):
    EVENTS, STATES = data()
    sim = FlashSim(cut, keep_unsynced)
    done = [0]
    try:
        write(sim, N, done)
    except PowerCut:
        pass
    sim.revive()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    state, evs, rep = st.open()
    assert rep.ok(), (cut, rep.errors)
    rec = st.seq
    # Every acknowledged event is there; the one in flight whole or absent.
    assert rec == done[0] or rec == done[0] + 1, (cut, rec, done[0])
    assert fold(state, evs) == STATES[rec], cut
    assert st.head == heads()[rec], cut
    # Appends go on after the cut, and a later fold and boot keep them.
    st.append(EVENTS[rec])
    st.fold()
    st.append(EVENTS[rec + 1])
    st2 = Store(sim, ROOT, roll=ROLL)      # a store that does not append there reads them too
    state, evs, rep = st2.open()
    assert rep.ok() and st2.seq == rec + 2, (cut, rep.errors)
    assert fold(state, evs) == STATES[rec + 2], cut
    return rec - done[0]


def test_a_power_cut_at_every_unit_of_appends_folds_and_snapshots():
    total = units(N)
    if MPY:   # the heap (no collection here): five cuts (CPython takes every one)
        cuts = [total * k // 4 - k for k in range(1, 5)]
    else:
        cuts = range(total + 1)
    kept = [0, 0]
    for keep_unsynced in ((True,) if MPY else (True, False)):
        for cut in cuts:
            kept[check(cut, keep_unsynced)] += 1
    print("pending journal cuts: %d points twice; in flight kept %d, dropped %d"
          % (len(cuts), kept[1], kept[0]))
    assert kept[0] > 0 and (MPY or kept[1] > 0)


def test_an_append_is_one_commit_and_no_erase_the_fold_erases():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    st.open()
    st.fold()                       # what the first idle moment does
    seg = ROOT + "/j00000000.log"
    for k in range(10):
        b, c = sim.blocks, sim.commits
        st.append(EVENTS[k])
        assert sim.blocks == b and sim.commits == c + 1, k
        assert seg not in sim.files and st.pending() == k + 1
    assert st.due()                 # the directory's block is filling: fold at idle
    b = sim.blocks
    st.fold()
    assert sim.blocks > b           # the new directory's block (a segment past 512 bytes: its own too)
    assert len(sim.files[seg]) > 0 and st.pending() == 0 and not st.due()
    assert sim.files[ROOT + "/" + PEND_FILE] == bytearray()


def test_appends_with_no_idle_moment_fold_on_their_own_and_keep_everything():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    st.open()
    for k in range(40):             # never idle: the append folds when it must
        st.append(EVENTS[k])
        assert st.pending() <= 12
    st2 = Store(sim, ROOT, roll=ROLL)
    state, evs, rep = st2.open()
    assert rep.ok() and st2.seq == 40 and fold(state, evs) == STATES[40]


def test_a_fold_cut_after_the_segment_leaves_copies_the_boot_passes_over():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    st.open()
    for k in range(5):
        st.append(EVENTS[k])
    pend = bytes(sim.files[ROOT + "/" + PEND_FILE])
    st.fold()
    st.append(EVENTS[5])
    # As if the power went after the segment's sync, before the file emptied:
    # the file holds events 1..5 again (and no 6).
    sim.files[ROOT + "/" + PEND_FILE] = bytearray(pend)
    sim.synced[ROOT + "/" + PEND_FILE] = len(pend)
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    state, evs, rep = st.open()
    assert rep.ok() and rep.errors == [] and st.seq == 5 and st.pending() == 0
    assert fold(state, evs) == STATES[5] and st.head == heads()[5]


def test_damage_in_the_pending_file_is_named_and_set_aside():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    st.open()
    for k in range(6):
        st.append(EVENTS[k])
    st.fold()
    for k in range(6, 10):
        st.append(EVENTS[k])
    img = sim.files[ROOT + "/" + PEND_FILE]
    second = journal.HDR + len(EVENTS[6])
    img[second + journal.HDR] ^= 0x10        # event 8's first byte
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    state, evs, rep = st.open()
    assert st.seq == 7 and fold(state, evs) == STATES[7]
    assert len(rep.errors) == 1 and "pending journal damaged after event 7" in rep.errors[0]
    assert "record 8 fails its CRC" in rep.errors[0], rep.errors
    assert rep.aside == [(PEND_FILE, "pend.bad")] and ROOT + "/pend.bad" in sim.files
    st.append(EVENTS[7])                     # the journal goes on from event 7
    st.fold()
    st = Store(sim, ROOT, roll=ROLL)
    state, evs, rep = st.open()
    assert rep.ok() and st.seq == 8 and fold(state, evs) == STATES[8]


def test_a_pending_file_after_a_gap_is_damage_not_replayed():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    st.open()
    for k in range(8):
        st.append(EVENTS[k])
    img = sim.files[ROOT + "/" + PEND_FILE]
    rest = img[journal.HDR + len(EVENTS[0]):]   # events 2..8: event 1 gone
    sim.files[ROOT + "/" + PEND_FILE] = bytearray(rest)
    sim.synced[ROOT + "/" + PEND_FILE] = len(rest)
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    state, evs, rep = st.open()
    assert st.seq == 0 and evs == []
    assert "pending journal damaged after event 0 (it starts at event 2)" in rep.errors[0]


def test_readers_fold_first_and_the_slot_list_counts_pending_events():
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL, pend=True)
    st.open()
    for k in range(4):
        st.append(EVENTS[k])
    # A slot's summary reads the flash as it is: the pending events count.
    assert slots._count(sim, ROOT, [], 0, 0, 0) == 4
    assert st.read(1, 3) == list(EVENTS[1:3])   # the segments hold them now
    assert st.pending() == 0 and st.segments() == [0]
    st.append(EVENTS[4])
    assert st.paging().segments() == [0] and st.pending() == 0  # a link's page too
    assert st.first() == 1 and st.seq == 5
