"""Snapshot files: a campaign state and the journal seq it covers.

    b"DTS" | version u8 | seq u32 LE | len u32 LE | crc32(state) u32 LE | state

A snapshot is written to a temporary file, synced, read back and checked,
and only then renamed to its live name (see the store). Reading checks the
magic, the version, the length against the file size and the CRC.
"""

from binascii import crc32

MAGIC = b"DTS"
VERSION = 1
HDR = 16
MAX_STATE = 1 << 16  # a campaign state is a few hundred bytes to a few KB


def _u32(b, i):
    return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)


def _put32(b, i, v):
    b[i] = v & 0xFF
    b[i + 1] = (v >> 8) & 0xFF
    b[i + 2] = (v >> 16) & 0xFF
    b[i + 3] = (v >> 24) & 0xFF


def encode(seq, state):
    """The bytes of a snapshot file for `state` covering records 1..seq."""
    n = len(state)
    if not 0 < n <= MAX_STATE:
        raise ValueError("a state of %d bytes cannot be stored (1..%d)" % (n, MAX_STATE))
    out = bytearray(HDR + n)
    out[0:3] = MAGIC
    out[3] = VERSION
    _put32(out, 4, seq)
    _put32(out, 8, n)
    _put32(out, 12, crc32(state))
    out[HDR:] = state
    return out


def write(fs, path, seq, state):
    """Write and sync a snapshot file; return the bytes written."""
    data = encode(seq, state)
    f = fs.open(path, "wb")
    try:
        f.write(data)
        fs.sync(f)
    finally:
        f.close()
    return len(data)


def read(fs, path):
    """(seq, state bytes) of a snapshot file; ValueError says what is wrong."""
    size = fs.size(path)
    if size < HDR:
        raise ValueError("%d bytes, shorter than a snapshot header" % size)
    f = fs.open(path, "rb")
    try:
        data = f.read(size)
    finally:
        f.close()
    if len(data) != size or data[0:3] != MAGIC:
        raise ValueError("not a snapshot (bad magic)")
    if data[3] != VERSION:
        raise ValueError("snapshot format %d, this firmware reads %d" % (data[3], VERSION))
    n = _u32(data, 8)
    if n != size - HDR:
        raise ValueError("length %d but the file holds %d" % (n, size - HDR))
    state = data[HDR:]
    if crc32(state) != _u32(data, 12):
        raise ValueError("CRC mismatch")
    return _u32(data, 4), state
