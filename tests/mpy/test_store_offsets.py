"""Recovery from where the snapshot says its events end (a segment and a
byte offset): on CPython and on MicroPython (a VM of its own: the store
tests fill one VM's heap, whose collector is off there)."""

from store import journal
from flashsim import FlashSim
from storesession import ROOT, data, fold, record_offsets, reopen, write_session


def test_open_reads_no_record_the_snapshot_covers():
    # The snapshot says where its events end: recovery starts there, so
    # the records before it are not even parsed (a backup, which reads
    # them, would report their damage).
    EVENTS, STATES = data()
    sim = FlashSim()
    write_session(sim, 45)          # snapshot at 40, no roll yet: offset > 0
    path = ROOT + "/j00000000.log"
    img = sim.files[path]
    offs = record_offsets(img)
    assert len(offs) == 45
    img[offs[10] + journal.HDR] ^= 0x40   # damage inside event 11
    st, state, evs, rep = reopen(sim)
    assert rep.ok() and rep.snap == 40 and st.seq == 45, rep.errors
    assert fold(state, evs) == STATES[45]
    # Damage after the offset is still found, and the records before it kept.
    img[offs[42] + journal.HDR] ^= 0x40   # event 43
    st, state, evs, rep = reopen(sim)
    assert not rep.ok() and st.seq == 42 and fold(state, evs) == STATES[42]


def test_snapshot_offset_damaged_falls_back_to_the_older_generation():
    # seg and off are under the snapshot's CRC: a flipped offset is a
    # damaged snapshot, not a wrong place to read from.
    EVENTS, STATES = data()
    sim = FlashSim()
    write_session(sim, 85)
    snp = ROOT + "/s%08x.snp" % 80
    sim.files[snp][12] ^= 0x01     # off, low byte
    st, state, evs, rep = reopen(sim)
    assert rep.snap == 40 and st.seq == 85 and fold(state, evs) == STATES[85]
    assert any("damaged" in e for e in rep.errors)
