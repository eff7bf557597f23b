"""The store on flash: recovery after a power cut at every point, damage
reporting, compaction and wear (runs on CPython and on MicroPython)."""
from rules import campaign as cp
from store import Store, journal
from flashsim import FlashSim
from storesession import (MPY, N_SESSION, ROLL, ROOT, SNAP_EVERY, boundaries, data,
                          flash_with_records, fold, record_offsets, reopen, session, sweep,
                          total_units, write_session)


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




def test_bit_flip_mid_journal_is_reported_and_kept_aside():
    EVENTS, STATES = data()
    sim, st = flash_with_records(30)
    path = ROOT + "/j00000000.log"
    img = sim.files[path]
    original = bytes(img)
    off = record_offsets(img)
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
    sim, st = flash_with_records(30)
    img = sim.files[ROOT + "/j00000000.log"]
    img[record_offsets(img)[20] + 1] ^= 0x40  # length field: record would run past the end
    st, state, evs, rep = reopen(sim, 4)
    assert not rep.ok() and "header" in rep.errors[0], rep.errors
    assert st.seq == 20 and fold(state, evs) == STATES[20]


def test_damage_in_first_record_keeps_nothing_but_boots():
    EVENTS, STATES = data()
    sim, st = flash_with_records(5)
    sim.files[ROOT + "/j00000000.log"][journal.HDR] ^= 1
    st, state, evs, rep = reopen(sim)
    assert not rep.ok() and state is None and evs == [] and st.seq == 0
    assert ROOT + "/j00000000.bad" in sim.files and ROOT + "/j00000000.log" not in sim.files
    st.append(EVENTS[0])
    st, state, evs, rep = reopen(sim)
    assert rep.ok() and len(evs) == 1


def test_truncated_journal_drops_tail_quietly():
    EVENTS, STATES = data()
    sim, st = flash_with_records(30)
    path = ROOT + "/j00000000.log"
    off = record_offsets(sim.files[path])
    # Cut inside record 30's event, inside record 26's event, in its header.
    for cut, k in ((off[29] + journal.HDR + 1, 29), (off[25] + journal.HDR + 1, 25), (off[25] + 3, 25)):
        sim.files[path] = sim.files[path][:cut]
        st, state, evs, rep = reopen(sim, k % 3)
        assert rep.ok() and rep.torn == cut - off[k] and rep.notes, rep.errors
        assert st.seq == k and fold(state, evs) == STATES[k]


def test_erased_tail_is_torn_not_damage():
    sim, st = flash_with_records(10)
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
    sim, st = flash_with_records(3)
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

