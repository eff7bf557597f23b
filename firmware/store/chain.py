"""The campaign's hash chain: every event linked to the one before.

    head(0) = 32 zero bytes
    head(n) = SHA-256(head(n-1) | seq n as u32 LE | event n's bytes)

The store keeps head(seq) beside its last event (in RAM, and in every
snapshot it writes), the device shows it (info `head`, the Info screen),
and the host keeps it with every backup. Two copies whose heads agree at
the same seq hold the same history, event for event; an edit anywhere
before that seq changes every head after it. It proves agreement, not
authorship: whoever rewrites every copy rewrites the chain too
(docs/backup.md).
"""

from hashlib import sha256

from . import ZERO  # head(0): defined with the store, which boots without this module
_SEQ = bytearray(4)   # seq's bytes: filled in place, no allocation a link


def link(head, seq, ev):
    """head(seq) from head(seq - 1) and event `seq`'s bytes."""
    b = _SEQ
    b[0] = seq & 0xFF
    b[1] = (seq >> 8) & 0xFF
    b[2] = (seq >> 16) & 0xFF
    b[3] = (seq >> 24) & 0xFF
    h = sha256(head)
    h.update(b)
    h.update(ev)
    return h.digest()


def over(head, first, events):
    """The head after `events`, numbered from `first`, on from `head`
    (head(first - 1))."""
    for ev in events:
        head = link(head, first, ev)
        first += 1
    return head


def rechain(st, base):
    """The head after event `base` of store `st`, from its journal's first
    event on, for a snapshot written before the chain existed (once: the
    next snapshot keeps it); None if the journal no longer starts at
    event 1 or a segment is missing."""
    bases = st.segments()
    if not bases or bases[0] != 0:
        return None
    # head, seq: the closure below updates both
    hc = [ZERO, 0]  # type: list

    def take(ev):
        hc[1] += 1
        hc[0] = link(hc[0], hc[1], ev)
    try:
        for b in bases:
            if b >= base:
                break
            if b != hc[1]:
                return None   # a segment missing between them
            st._range(b, b, base, take)
    except OSError:
        return None
    return hc[0] if hc[1] == base else None
