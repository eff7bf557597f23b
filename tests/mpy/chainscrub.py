"""A journal of short segments for the scrub's chain tests
(test_scrub_chain.py, test_scrub_anchors.py): the paths session on a
store whose segments hold about a dozen records, an event rewritten on
flash with valid checks, and a whole scrub cycle. Runs on CPython and on
MicroPython."""

from store import Store, journal
from storesession import ROOT, record_offsets, segments, store_events

ROLL = 256        # segments of about a dozen records: several in a short session


def short_store(sim, n, keep=1000, every=16, st=None, roll=ROLL):
    """Events 1..n of the paths session, a snapshot every `every`."""
    return store_events(sim, n, keep, every, st, roll)


def reopen_store(sim, keep=1000):
    """The store on `sim` opened again (short segments)."""
    st = Store(sim, ROOT, keep=keep, roll=ROLL)
    st.open()
    return st


def rewrite(sim, seq):
    """Event `seq` rewritten on flash (one bit of its last byte), its record
    whole: length, seq, CRC and check byte all valid."""
    b = max(x for x in segments(sim) if x < seq)
    img = sim.files[ROOT + "/j%08x.log" % b]
    at = record_offsets(img)[seq - b - 1]
    n = img[at] | (img[at + 1] << 8)
    ev = bytearray(img[at + journal.HDR:at + journal.HDR + n])
    ev[-1] ^= 0x01
    buf = bytearray(journal.HDR + journal.MAX_REC)
    k = journal.pack(buf, seq, bytes(ev))
    img[at:at + k] = buf[:k]
    return b


def cycle(st):
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
