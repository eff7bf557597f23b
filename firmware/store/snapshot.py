"""Snapshot files: a campaign state, the journal seq it covers and where
the journal goes on after it.

    version 3: b"DTS" | 3 | seq u32 | seg u32 | off u32 | len u32 | head 32 | crc u32 | state
    version 2: b"DTS" | 2 | seq u32 | seg u32 | off u32 | len u32 | crc u32 | state
    version 1: b"DTS" | 1 | seq u32 | len u32 | crc32(state) u32 | state

(version 2's and 3's crc covers the fields before it and the state).
`head` is the hash chain's head after event seq (store/chain.py); a store
that does not know it (a campaign written before the chain, whose early
journal is gone) writes version 2.

(u32 little-endian.) `seg` and `off`: record seq+1 is (or will be) at
byte `off` of journal segment `seg` (the one named after seq `seg`), so
recovery starts reading there instead of parsing the records the snapshot
already covers. Version 1 (segments started at every snapshot) reads as
seg = seq, off = 0.

A snapshot is written to a temporary file, synced, read back and checked,
and only then renamed to its live name (see the store). Reading checks the
magic, the version, the length against the file size and the CRC.
"""

from binascii import crc32

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

MAGIC = b"DTS"
VERSION = 3
HDR = 56
_HDR2 = const(24)            # version 2: no head (written when the head is unknown)
_HDR1 = const(16)            # version 1, read only
HEAD = 32
MAX_STATE = 1 << 16  # a campaign state is a few hundred bytes to a few KB


def _u32(b, i):
    return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)


def _put32(b, i, v):
    b[i] = v & 0xFF
    b[i + 1] = (v >> 8) & 0xFF
    b[i + 2] = (v >> 16) & 0xFF
    b[i + 3] = (v >> 24) & 0xFF


def encode(seq, state, seg=None, off=0, head=None):
    """The bytes of a snapshot file for `state` covering records 1..seq,
    the journal going on at byte `off` of segment `seg` (default: a
    segment of its own, `seq`, from its start); `head`: the chain's head
    after seq (None: unknown, a version 2 file)."""
    n = len(state)
    if not 0 < n <= MAX_STATE:
        raise ValueError("a state of %d bytes cannot be stored (1..%d)" % (n, MAX_STATE))
    h = _HDR2 if head is None else HDR
    out = bytearray(h + n)
    out[0:3] = MAGIC
    out[3] = 2 if head is None else VERSION
    _put32(out, 4, seq)
    _put32(out, 8, seq if seg is None else seg)
    _put32(out, 12, off)
    _put32(out, 16, n)
    if head is not None:
        if len(head) != HEAD:
            raise ValueError("a chain head is %d bytes, not %d" % (HEAD, len(head)))
        out[20:52] = head
    _put32(out, h - 4, crc32(state, crc32(memoryview(out)[4:h - 4])))
    out[h:] = state
    return out


def write(fs, path, seq, state, seg=None, off=0, head=None):
    """Write and sync a snapshot file; return the bytes written."""
    data = encode(seq, state, seg, off, head)
    f = fs.open(path, "wb")
    try:
        f.write(data)
        fs.sync(f)
    finally:
        f.close()
    return len(data)


def read(fs, path):
    """(seq, state bytes, seg, off, head or None) of a snapshot file;
    ValueError says what is wrong."""
    size = fs.size(path)
    if size < _HDR1:
        raise ValueError("%d bytes, shorter than a snapshot header" % size)
    f = fs.open(path, "rb")
    try:
        data = f.read(size)
    finally:
        f.close()
    if len(data) != size or data[0:3] != MAGIC:
        raise ValueError("not a snapshot (bad magic)")
    v = data[3]
    head = None
    if v == 1:
        h = _HDR1
        seg = _u32(data, 4)
        off = 0
    elif (v == 2 and size >= _HDR2) or (v == VERSION and size >= HDR):
        h = _HDR2 if v == 2 else HDR
        seg = _u32(data, 8)
        off = _u32(data, 12)
    else:
        raise ValueError("snapshot format %d, this firmware reads 1..%d" % (v, VERSION))
    n = _u32(data, 16 if v > 1 else 8)
    if n != size - h:
        raise ValueError("length %d but the file holds %d" % (n, size - h))
    state = data[h:]
    crc = crc32(state) if v == 1 else crc32(state, crc32(memoryview(data)[4:h - 4]))
    if crc != _u32(data, h - 4):
        raise ValueError("CRC mismatch")
    seq = _u32(data, 4)
    if seg > seq:
        raise ValueError("it puts event %d in segment %d" % (seq + 1, seg))
    if v == VERSION:
        head = data[20:52]
    return seq, state, seg, off, head
