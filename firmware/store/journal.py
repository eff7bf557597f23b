"""Journal records: framing on append, scanning on recovery.

A record is an 11-byte header and the event bytes:

    len u16 LE | seq u32 LE | crc32(event) u32 LE | check u8 | event

`check` is 0xA5 xor the ten header bytes before it, so a flipped bit in the
length (the one field that frames what follows) is caught before the
length is trusted. A journal segment is records back to back with nothing
else; its file name carries the seq before its first record.

Scanning tells three endings apart:
- OK: the file ends exactly after a good record;
- TORN: the file ends inside a record (a header cut short, or a checked
  header whose event runs past the end of the file), or everything after
  the last good record is erased (0xFF) or zero fill. That is what a power
  cut during an append leaves; the record was never committed;
- BAD: a complete header or record that fails its check, CRC or sequence
  number. A power cut cannot produce that: it is damage.
A fourth, MORE, is the reader's own: its `out` asked to stop (a boot's
replay goes a step at a time, store/__init__.py `replay`).
"""

from binascii import crc32
from struct import pack_into

HDR = 11
MAX_REC = 1024      # an event is at most ~200 bytes; the store caps records here
MAX_SEQ = (1 << 30) - 1
CHUNK = 2048        # read buffer for scanning: holds any record whole
_SEED = 0xA5

OK = 0
TORN = 1
BAD = 2
MORE = 3   # out() returned true: stopped after that record, more may follow


def pack(buf, seq, ev):
    """Frame event `ev` as record `seq` into preallocated `buf`; return its length."""
    n = len(ev)
    if not 0 < n <= MAX_REC:
        raise ValueError("an event of %d bytes cannot be stored (1..%d)" % (n, MAX_REC))
    if not 0 < seq <= MAX_SEQ:
        raise ValueError("sequence number %d is out of range" % seq)
    # The CRC is a big int on a 32-bit board three times in four: one
    # allocation; pack_into stores it without the further ones that
    # shifting and masking a big int would cost.
    pack_into("<HII", buf, 0, n, seq, crc32(ev))
    buf[10] = _check(buf, 0)
    buf[HDR:HDR + n] = ev
    return HDR + n


def first_seq(b):
    """The seq in the record header at the start of `b` (a file's first
    6 bytes at least): where a pending file's records start."""
    return b[2] | (b[3] << 8) | (b[4] << 16) | (b[5] << 24)


def _check(b, i):
    return (_SEED ^ b[i] ^ b[i + 1] ^ b[i + 2] ^ b[i + 3] ^ b[i + 4]
            ^ b[i + 5] ^ b[i + 6] ^ b[i + 7] ^ b[i + 8] ^ b[i + 9])


class Scan:
    """Result of scanning one segment."""

    def __init__(self, base):
        self.seq = base      # last good record's seq (base if none)
        self.good = 0        # bytes of good records from the start of the file
        self.status = OK
        self.why = ""        # for BAD: what failed, for the report
        self.tail = 0        # bytes after the good records


def scan(fs, path, base, out, buf=None, at=0):
    """Read segment `path` whose first record must be seq base+1.

    Calls out(event_bytes) for every good record in order and stops at the
    first record that is not good, or after a record whose out() returned
    true (status MORE: scan on from `good` and `seq`). Returns a Scan (its `good` counts from
    the start of the file). `buf` is an optional bytearray(CHUNK) to reuse.
    `at`: start at this byte offset, where record base+1 begins (a
    snapshot says where its events end); the bytes before it are read past
    unchecked.
    """
    if buf is None:
        buf = bytearray(CHUNK)
    mv = memoryview(buf)
    crc = bytearray(4)
    r = Scan(base)
    want = base + 1
    lo = hi = 0          # buf[lo:hi] holds unread file bytes
    pos = at             # file offset of buf[lo]
    f = fs.open(path, "rb")
    try:
        if at > 0:       # a seek, not a read past: a replay resumes far into a long segment
            end = f.seek(0, 2)
            if end < at:
                r.status = BAD   # shorter than what was synced before the snapshot
                r.why = "segment ends %d bytes before its snapshot's offset" % (at - end)
                r.good = end
                return r
            f.seek(at)
        while True:
            if hi - lo < HDR:
                lo, hi = _fill(f, buf, mv, lo, hi)
                if hi == 0:
                    break                      # clean end
                if hi < HDR:
                    r.status = TORN            # header cut short
                    break
            b = buf
            if _check(b, lo) != b[lo + 10]:
                r.status = BAD
                r.why = "record header check failed"
                break
            n = b[lo] | (b[lo + 1] << 8)
            seq = b[lo + 2] | (b[lo + 3] << 8) | (b[lo + 4] << 16) | (b[lo + 5] << 24)
            if not 0 < n <= MAX_REC:
                r.status = BAD
                r.why = "record length %d" % n
                break
            if seq != want:
                r.status = BAD
                r.why = "record numbered %d where %d was due" % (seq, want)
                break
            end = lo + HDR + n
            if end > hi:
                lo, hi = _fill(f, buf, mv, lo, hi)
                end = HDR + n
                if end > hi:
                    r.status = TORN            # checked header, event cut short
                    break
            ev = bytes(mv[lo + HDR:end])
            pack_into("<I", crc, 0, crc32(ev))
            if crc[0] != b[lo + 6] or crc[1] != b[lo + 7] or \
                    crc[2] != b[lo + 8] or crc[3] != b[lo + 9]:
                r.status = BAD
                r.why = "record %d fails its CRC" % want
                break
            stop = out(ev)
            pos += end - lo
            lo = end
            r.seq = want
            want += 1
            if stop:
                r.status = MORE
                break
        r.good = pos
        if r.status == TORN or r.status == BAD:
            r.tail = hi - lo
            blank = _blank(buf, lo, hi)
            while True:
                lo, hi = _fill(f, buf, mv, hi, hi)
                if hi == 0:
                    break
                r.tail += hi
                blank = blank and _blank(buf, 0, hi)
            if r.status == BAD and blank:
                r.status = TORN                # erased or zero-filled tail
    finally:
        f.close()
    return r


def _fill(f, buf, mv, lo, hi):
    """Move buf[lo:hi] to the front and read more after it; return (0, new hi)."""
    k = hi - lo
    if lo:
        buf[0:k] = mv[lo:hi]
    while k < len(buf):
        got = f.readinto(mv[k:])
        if not got:
            break
        k += got
    return 0, k


def _blank(buf, lo, hi):
    if lo >= hi:
        return True
    v = buf[lo]
    if v != 0 and v != 0xFF:
        return False
    for i in range(lo, hi):
        if buf[i] != v:
            return False
    return True
