"""The store's public reader of its journal (store/paging.py Reader, what
the link pages and pushes through): the segments as Store.segments()
lists them, listed again when a segment is added; a segment's pages as
they are on flash; the events after a seq, from the reader's cursor when
the next scan starts where the last stopped, so a subscriber catching up
one event at a time parses each record once (runs on CPython and on
MicroPython)."""
from flashsim import FlashSim
from store import Store
from test_store import ROOT, data


class _Stop(Exception):
    pass


class _Starts:
    """The store's filesystem, noting the byte each journal read starts at
    (a scan that resumes seeks there; one from the start does not seek)."""

    def __init__(self, fs):
        self.fs = fs
        self.at = []

    def open(self, path, mode):
        f = self.fs.open(path, mode)
        if "j" in path.rsplit("/", 1)[-1]:
            self.at.append(0)
            seek = f.seek
            at = self.at

            def noted(pos, whence=0):
                if whence == 0:
                    at[-1] = pos
                return seek(pos, whence)
            f.seek = noted
        return f

    def __getattr__(self, name):
        return getattr(self.fs, name)


def _store(n):
    """A store of the session's first n events, a snapshot every 10 that
    compacts nothing: its segments roll at 256 bytes."""
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=256)
    st.open()
    for k in range(n):
        _add(st, k)
    return st, EVENTS


def _add(st, k):
    EVENTS, STATES = data()
    st.append(EVENTS[k])
    if (k + 1) % 10 == 0:
        st.snapshot(STATES[k + 1], compact=False)


def test_the_reader_lists_pages_and_scans_the_journal():
    st, EVENTS = _store(60)
    rd = st.paging()
    segs = rd.segments()
    assert segs == st.segments() and len(segs) > 1
    assert rd.segments() is segs            # the same list until a segment changes
    got = []
    for b in segs:
        rd.scan(b, 0, got.append)
    assert got == list(EVENTS[:60])
    f = st.fs.open(rd.path(segs[0]), "rb")
    whole = f.read()
    f.close()
    buf = bytearray(64)
    assert rd.read(segs[0], 5, buf) == 64 and bytes(buf) == whole[5:69]
    g = rd.open(segs[0])
    assert g.read() == whole
    g.close()


def test_a_scan_goes_on_from_where_the_last_stopped():
    """One event a scan, as a subscriber's pushes take them: each record of
    the segment is parsed once, not the segment again from its start."""
    st, EVENTS = _store(60)
    rd = st.paging()
    b = rd.segments()[0]
    st.fs = fs = _Starts(st.fs)
    seen = [0]
    one = []

    def take(ev):
        seen[0] += 1
        one.append(ev)
        raise _Stop()           # one event a scan: the cursor stays before the next

    calls = []
    since = b
    while True:
        del one[:]
        try:
            rd.scan(b, since, take)
        except _Stop:
            pass
        if not one:
            break
        calls.append(one[0])
        since += 1
    n = len(calls)
    assert n > 1 and calls == list(EVENTS[b:b + n])
    assert seen[0] == n
    # each scan starts at the record the last one stopped before (the one
    # it took, whose take raised): the first two at the segment's start,
    # then each a record further on, never the segment again from its start
    starts = fs.at[:n]
    assert starts[:2] == [0, 0] and starts[2] > 0, starts
    assert all(starts[i - 1] < starts[i] for i in range(3, n)), starts
    # the cursor past the seq asked for: from the segment's start again
    back = []
    rd.scan(b, b, back.append)
    assert back == calls


def test_a_new_segment_is_listed():
    st, EVENTS = _store(60)
    rd = st.paging()
    before = list(rd.segments())
    k = 60
    while st.segments() == before:
        _add(st, k)
        k += 1
    assert rd.segments() == st.segments() != before
