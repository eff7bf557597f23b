"""The hash chain in the store: its head after every event, kept across
reboots in the snapshots, rebuilt once for a snapshot from before the
chain, unknown where it cannot be rebuilt (runs on CPython and MicroPython)."""
import gc
import sys

from store import Store, chain, snapshot as snap
from flashsim import FlashSim
from support import raises

ROOT = "/dt"
if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def _events(n, salt=0):
    # Core DICE events (kind 10) with varied bytes; the store frames any bytes.
    return [bytes((10, 6, 1 + (k + salt) % 9, k & 0xFF)) for k in range(n)]


def _write(sim, evs, every=16, **kw):
    st = Store(sim, ROOT, **kw)
    st.open()
    for k, ev in enumerate(evs):
        st.append(ev)
        if (k + 1) % every == 0:
            st.snapshot(b"state%d" % (k + 1))
    return st


def test_head_is_the_chain_over_every_event_and_survives_a_reboot():
    evs = _events(70)
    sim = FlashSim()
    st = _write(sim, evs, roll=256)
    assert st.head == chain.over(chain.ZERO, 1, evs)
    assert st.head != chain.over(chain.ZERO, 1, evs[:-1])
    st.close()
    st2 = Store(sim, ROOT, roll=256)
    state, after, rep = st2.open()
    assert rep.ok() and st2.seq == 70 and len(after) == 70 - 64
    assert st2.head == chain.over(chain.ZERO, 1, evs)
    # The newest snapshot holds the head after its event.
    got = snap.read(sim, ROOT + "/s%08x.snp" % 64)
    assert got[4] == chain.over(chain.ZERO, 1, evs[:64])


def test_an_edit_anywhere_changes_the_head():
    evs = _events(20)
    h = chain.over(chain.ZERO, 1, evs)
    for k in (0, 9, 19):
        bad = list(evs)
        bad[k] = bytes((10, 6, 9, 0xEE))
        assert chain.over(chain.ZERO, 1, bad) != h, k
    # Numbering is part of the chain: the same events from event 2 differ.
    assert chain.over(chain.ZERO, 2, evs) != h


def test_a_snapshot_from_before_the_chain_is_rechained_from_the_journal():
    evs = _events(40)
    sim = FlashSim()
    st = _write(sim, evs[:32])
    st.close()
    # Firmware before the chain wrote version 2 snapshots: no head in them.
    for s in (16, 32):
        p = ROOT + "/s%08x.snp" % s
        seq, state, seg, off, head = snap.read(sim, p)
        f = sim.open(p, "wb")
        f.write(snap.encode(seq, state, seg, off))
        f.close()
        assert snap.read(sim, p)[4] is None
    st = Store(sim, ROOT)
    st.open()
    assert st.head == chain.over(chain.ZERO, 1, evs[:32])
    for ev in evs[32:]:
        st.append(ev)
    st.snapshot(b"state40")
    assert snap.read(sim, ROOT + "/s%08x.snp" % 40)[4] == chain.over(chain.ZERO, 1, evs)


def test_head_unknown_when_the_early_journal_is_gone():
    evs = _events(20)
    sim = FlashSim()
    st = Store(sim, ROOT)
    st.start(b"restored at 10", 10)          # a restore without its head
    assert st.head is None
    for ev in evs[10:]:
        st.append(ev)
    assert st.head is None
    st.snapshot(b"state20")
    assert snap.read(sim, ROOT + "/s%08x.snp" % 20)[4] is None   # version 2
    st.close()
    st2 = Store(sim, ROOT)
    st2.open()
    assert st2.seq == 20 and st2.head is None


def test_start_with_a_head_goes_on_from_it():
    evs = _events(20)
    h10 = chain.over(chain.ZERO, 1, evs[:10])
    sim = FlashSim()
    st = Store(sim, ROOT)
    st.start(b"restored at 10", 10, h10)
    for ev in evs[10:]:
        st.append(ev)
    assert st.head == chain.over(chain.ZERO, 1, evs)
    st.close()
    st2 = Store(sim, ROOT)
    st2.open()
    assert st2.head == chain.over(chain.ZERO, 1, evs)


def test_a_damaged_head_in_a_snapshot_fails_its_crc():
    evs = _events(40)
    sim = FlashSim()
    st = _write(sim, evs)
    st.close()
    p = ROOT + "/s%08x.snp" % 32
    sim.files[p][30] ^= 0x01          # a bit of the head
    e = raises(ValueError, snap.read, sim, p)
    assert "CRC" in str(e)
    st2 = Store(sim, ROOT)
    state, after, rep = st2.open()
    assert not rep.ok() and "s00000020.snp damaged" in rep.errors[0]
    # The snapshot before it and the journal give the same head.
    assert st2.head == chain.over(chain.ZERO, 1, evs)


def test_snapshot_header_checks_the_head_length():
    raises(ValueError, snap.encode, 1, b"s", 1, 0, b"short")
