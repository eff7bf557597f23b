"""The store's background scrub (docs/store.md, "Scrub"): the journal
checked a step at a time with the scanner the boot uses, so damage in the
records a snapshot covers (which the boot never reads) is found on the
device; and the hash chain recomputed over the same records, from a head
the device recorded (at a segment's base: store/anchors.py; event 0) to
the next one and to the device's own head, so that a record rewritten
with valid checks is found too. Apart from the store so that boot does
not load it."""

from . import journal
from . import _name
from . import anchors
from .chain import link

# Records checked and chained a step at most: a record's checks cost about
# 39,000 fuel and its link of the chain 23,000 more, so 100 a step cost
# what 160 did before the chain (~6.4 M fuel, ~35 ms on a board).
STEP = 100
_KEEP = "; dicetray backup keeps what is intact"
_VERIFY = "; `dicetray verify` names the event that differs from a backup"


class _Enough(Exception):
    """A step has checked STEP records: the next one goes on from there."""


class _Walk:
    """The scrub's `out`: counts the checked records, where the next one
    starts (st._sseq, st._spos), and carries the chain over them
    (st._sh: None while no recorded head is behind them)."""

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
        if st._sh is not None:
            st._sh = link(st._sh, st._sseq, ev)


def step(st):
    """Check up to STEP records of the journal with the scanner and chain
    them, the oldest segment first, cycling (docs/store.md, "Scrub"):
    None while it is clean, else what is damaged, in words. Reads only:
    renames and repairs nothing (the host can still back up what is
    intact); the heads it verified are kept in RAM, written with the next
    segment's (store/anchors.py). The segments are listed once per cycle;
    one compacted away since is passed over; the segment appends go to is
    checked up to the store's seq, a torn tail is no damage."""
    q = getattr(st, "_sq", None)   # the segments left this cycle, newest first
    if q is None:
        q = st._sq = []
        st._sb = -1                # the segment being checked...
        st._send = -1              # the last event of the one before, read to its end
        st.scrubbed = None         # (cycles, lo, hi, ok) of the last whole cycle
        st._scyc = 0
    b = st._sb
    listed = False
    while b < 0:
        if not q:
            if listed:
                return None
            listed = True
            q.extend(st.segments())
            q.reverse()       # the oldest last: pop() takes it
            _cycle(st)
            if not q:         # no journal on flash: nothing to contradict the head
                st._slo, st._shi = st.seq + 1, st.seq
                return _end(st, q, None)
        b = q.pop()
        if st.fs.size(st._p(_name("j", b, "log"))) < 0:
            b = -1            # compacted away since the cycle began
        else:
            st._sb = b        # ...from its start
            st._sseq = b      # ...the seq of the record before st._spos
            st._spos = 0
            if st._send != b:   # not on from the segment before: no running head
                st._sh = None
                st._spend = []
                st._slo = st._shi = -1
                _check(st, b, False)    # one recorded here starts it
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
        st._sb = st._send = -1
        if st.fs.size(st._p(nm)) < 0:
            return _end(st, q, None)       # compacted away between two steps of it
        return _end(st, q, "events %d..%d of the journal are damaged: %s cannot be read%s"
                    % (st._sseq + 1, hi, nm, _KEEP))
    st._sb = -1
    if r.seq >= hi or (r.status != journal.BAD and not q):
        # Read to its end (the newest: what follows is a torn tail).
        st._send = r.seq
        return _end(st, q, _check(st, r.seq, bool(q) and q[-1] == r.seq))
    st._send = -1
    if r.status == journal.BAD:
        why = r.why
    else:
        # Its successor starts later than it ends (a cut leaves a torn
        # tail, but the next segment then starts after its last good event).
        why = "%s ends after event %d" % (nm, r.seq)
    return _end(st, q, "events %d..%d of the journal are damaged: %s (%s)%s"
                % (r.seq + 1, hi, why, nm, _KEEP))


def _cycle(st):
    """A new cycle: nothing chained yet."""
    st._sh = None
    st._spend = []
    st._sck = -1       # where the running head was last a recorded one
    st._slo = -1       # the first event of the chain checked from there
    st._shi = -1       # the last event whose recorded head the chain met
    st._sok = True     # no break found this cycle
    st._send = -1


def _end(st, q, msg):
    """The step's answer; at a cycle's last segment, its result in
    st.scrubbed: (cycles, first and last event the chain was checked
    over, from a recorded head to the last it met, -1 if none; no break)."""
    if not q and st._sb < 0:
        st._scyc += 1
        st.scrubbed = (st._scyc, st._slo if st._shi >= 0 else -1, st._shi, st._sok)
    return msg


def _check(st, e, nxt):
    """At event `e` (a segment's base, or the end of its records; `nxt`:
    the next segment starts there): the head the device recorded after e,
    if it knows one, checks the running head (or starts it). Returns the
    break in words, or None. A head the chain meets vouches for the heads
    it passed at bases with none recorded: kept (store/anchors.py)."""
    want = anchors.get(st, e)
    if want is None and e == st.seq:
        want = st.head
        if e == st._seg:      # the segment appends go to starts here: its anchor
            anchors.add(st, e, want)
    h = st._sh
    if want is None:
        if h is not None and nxt:
            st._spend.append((e, h))    # vouched for when a recorded head is met
        return None
    st._sh = want
    if h is None:
        st._sck = e               # a recorded head: the chain starts here
        st._spend = []
        st._slo = e + 1
        return None
    if h == want:
        for b, hb in st._spend:
            anchors.add(st, b, hb)
        st._spend = []
        st._sck = st._shi = e
        return None
    lo = st._sck + 1
    st._sck = e
    st._spend = []
    st._sok = False
    st._slo = e + 1
    st._shi = -1
    return ("the hash chain breaks in events %d..%d of the journal: they do not lead to "
            "the head the device recorded after event %d (an event there was changed on "
            "flash after it was written)%s" % (lo, e, e, _VERIFY))
