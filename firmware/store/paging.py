"""The journal as the link pages it (LOG, EVENTS): segment files read as
they are on flash, the host checking the records. Functions of a Store,
loaded by Store.paging() at the link's first page, not at boot."""

from . import journal, _name

CHUNK = journal.CHUNK   # the size of scan()'s buffer
HDR = journal.HDR       # a record's header, before its event


def layout(st):
    """Changes whenever st.segments() may have: a new segment's name is
    chosen (its file made at the next append), or one closes. The pending
    records are folded first: a page reads segments only."""
    st.settle()
    return (st._seg, st._new)


def path(st, b):
    """The path of the journal segment whose base is `b`."""
    return st.root + "/" + _name("j", b, "log")


def open(st, p):
    """Segment file `p`, open for reading."""
    return st.fs.open(p, "rb")


def read(st, p, off, buf):
    """The bytes of segment file `p` from `off` into `buf`: how many."""
    f = st.fs.open(p, "rb")
    try:
        if off:
            f.seek(off)
        return f.readinto(buf) or 0
    finally:
        f.close()


def scan(st, b, take, buf, seq, at):
    """take(event) for every good record of segment `b` after event
    `seq`, whose record starts at byte `at` (journal.scan; `buf` a
    bytearray(CHUNK) to reuse)."""
    journal.scan(st.fs, path(st, b), seq, take, buf, at)
