"""The store's public reader of its journal, as the link pages it (SEGS,
LOG, LOGB, EVENTS): loaded by Store.paging() at the link's first page,
not at boot. Segment files are read as they are on flash (the host checks
the records). Events are scanned with a cursor left where the last scan
stopped, so the next scan from there (a subscriber catching up, one event
a push) reads on instead of from the segment's start. Bounded: one scan
buffer, the segment list and its paths made once per change of it."""

from . import journal, _name

CHUNK = journal.CHUNK   # the size of the scan buffer
HDR = journal.HDR       # a record's header, before its event


class Reader:
    """The journal of Store `st`, read: one per store (a campaign switch
    brings another store, and the link asks it for its reader)."""

    def __init__(self, st):
        self.st = st
        self._kseg = -1      # the layout the list was made at (st._seg, st._new)...
        self._knew = None
        self._segs = []      # ...the segment bases, oldest first...
        self._paths = {}     # ...and their paths, made as asked
        self._buf = None     # the scan buffer, made at the first scan
        self._b = -1         # the cursor: record _seq + 1 of segment _b starts at byte _pos
        self._seq = 0
        self._pos = 0
        self._since = 0      # the scan in progress: the events after _since go to _take
        self._take = None

    def segments(self):
        """The journal segments' bases, oldest first, listed again only
        when they may have changed: a new segment's name chosen (its file
        made at the next append) or one closed. The pending records are
        folded first: a page reads segments only."""
        st = self.st
        st.settle()
        if st._seg != self._kseg or st._new != self._knew:
            self._segs = st.segments()
            self._kseg = st._seg
            self._knew = st._new
            self._paths = {}
        return self._segs

    def path(self, b):
        """The path of the segment whose base is `b`, made once per list:
        every new str costs a search of the interned strings."""
        p = self._paths.get(b)
        if p is None:
            p = self._paths[b] = self.st.root + "/" + _name("j", b, "log")
        return p

    def open(self, b):
        """Segment `b`'s file, open for reading."""
        return self.st.fs.open(self.path(b), "rb")

    def read(self, b, off, buf):
        """The bytes of segment `b` from `off` into `buf`: how many."""
        f = self.st.fs.open(self.path(b), "rb")
        try:
            if off:
                f.seek(off)
            return f.readinto(buf) or 0
        finally:
            f.close()

    def scan(self, b, since, take):
        """take(event) for every good record of segment `b` after event
        `since` (journal.scan), from the cursor when it stands in `b` at or
        before `since`, else from the segment's start. take may raise to
        stop: the cursor stays before that record."""
        if self._b != b or self._seq > since:
            self._b = b
            self._seq = b
            self._pos = 0
        if self._buf is None:
            self._buf = bytearray(CHUNK)
        self._since = since
        self._take = take
        journal.scan(self.st.fs, self.path(b), self._seq, self._step, self._buf, self._pos)

    def _step(self, ev):
        if self._seq >= self._since:
            self._take(ev)
        self._seq += 1
        self._pos += HDR + len(ev)


def paging(st):
    """Store `st`'s reader (what Store.paging() returns)."""
    return Reader(st)
