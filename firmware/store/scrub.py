"""The store's background scrub (docs/store.md, "Scrub"): one journal
segment checked a step with the scanner the boot uses, so damage in the
records a snapshot covers (which the boot never reads) is found on the
device. Apart from the store so that boot does not load it."""

from . import journal
from . import _name


def _drop(ev):
    """The scrub's `out`: checked events go nowhere."""


def step(st):
    """Check one journal segment with the scanner, the oldest first,
    cycling (docs/store.md, "Scrub"): None while it is clean, else what
    is damaged, in words. Reads only: renames and repairs nothing (the
    host can still back up what is intact). The segments are listed
    once per cycle; one compacted away since is passed over; the
    segment appends go to is checked up to the store's seq, a torn
    tail is no damage."""
    q = getattr(st, "_sq", None)   # the segments left this cycle, newest first
    if q is None:
        q = st._sq = []
    b = -1
    listed = False
    while b < 0:
        if not q:
            if listed:
                return None
            listed = True
            q.extend(st.segments())
            q.reverse()       # the oldest last: pop() takes it
            if not q:
                return None
        b = q.pop()
        if st.fs.size(st._p(_name("j", b, "log"))) < 0:
            b = -1            # compacted away since the cycle began
    # Events b+1..hi are this segment's: up to the next one's base, or
    # (the newest listed) up to the store's seq.
    hi = q[-1] if q else st.seq
    buf = getattr(st, "_sbuf", None)   # one read buffer, kept on the store
    if buf is None:
        buf = st._sbuf = bytearray(journal.CHUNK)
    nm = _name("j", b, "log")
    try:
        r = journal.scan(st.fs, st._p(nm), b, _drop, buf)
    except OSError:
        return ("events %d..%d of the journal are damaged: %s cannot be read"
                % (b + 1, hi, nm))
    if r.seq >= hi:
        return None
    if r.status == journal.BAD:
        why = r.why
    elif q:
        # Its successor starts later than it ends (a cut leaves a torn
        # tail, but the next segment then starts after its last good event).
        why = "%s ends after event %d" % (nm, r.seq)
    else:
        return None           # the newest: what follows its good records is a torn tail
    return ("events %d..%d of the journal are damaged: %s (%s)"
            % (r.seq + 1, hi, why, nm))
