"""The store's background scrub (docs/store.md, "Scrub"): the journal
checked a step at a time with the scanner the boot uses, so damage in the
records a snapshot covers (which the boot never reads) is found on the
device. Apart from the store so that boot does not load it."""

from . import journal
from . import _name

STEP = 160   # records checked a step at most (~35 ms on a board): a segment takes several


class _Enough(Exception):
    """A step has checked STEP records: the next one goes on from there."""


class _Walk:
    """The scrub's `out`: counts the checked records and where the next
    one starts (st._sseq, st._spos); checked events go nowhere."""

    def __init__(self, st):
        self.st = st
        self.n = 0

    def __call__(self, ev):
        if self.n >= STEP:
            raise _Enough()
        self.n += 1
        st = self.st
        st._sseq += 1
        st._spos += journal.HDR + len(ev)


def step(st):
    """Check up to STEP records of the journal with the scanner, the
    oldest segment first, cycling (docs/store.md, "Scrub"): None while it
    is clean, else what is damaged, in words. Reads only: renames and
    repairs nothing (the host can still back up what is intact). The
    segments are listed once per cycle; one compacted away since is passed
    over; the segment appends go to is checked up to the store's seq, a
    torn tail is no damage."""
    q = getattr(st, "_sq", None)   # the segments left this cycle, newest first
    if q is None:
        q = st._sq = []
        st._sb = -1                # the segment being checked...
    b = st._sb
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
        else:
            st._sb = b        # ...from its start
            st._sseq = b      # ...the seq of the record before st._spos
            st._spos = 0
    # Events b+1..hi are this segment's: up to the next one's base, or
    # (the newest listed) up to the store's seq.
    hi = q[-1] if q else st.seq
    buf = getattr(st, "_sbuf", None)   # one read buffer, kept on the store
    if buf is None:
        buf = st._sbuf = bytearray(journal.CHUNK)
    nm = _name("j", b, "log")
    try:
        r = journal.scan(st.fs, st._p(nm), st._sseq, _Walk(st), buf, st._spos)
    except _Enough:
        return None           # clean so far: the next step goes on
    except OSError:
        st._sb = -1
        if st.fs.size(st._p(nm)) < 0:
            return None       # compacted away between two steps of it
        return ("events %d..%d of the journal are damaged: %s cannot be read"
                % (st._sseq + 1, hi, nm))
    st._sb = -1
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
