"""Compact binary encoding of events and campaign state.

An event is a `bytes` object, stored as is in the journal on flash, in RAM
and in host backups:

    kind u8 | nargs u8 | args: zigzag varints | nfaces u8 | faces u8... | ntext u8 | text utf-8

Integers are zigzag varints (1 byte for -64..63), so most events take 4 to 8
bytes and a 10-die roll about 16.
"""

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

VERSION = 1  # state schema version; bump on any incompatible layout change
_MAX_ARGS = const(16)
MAX_FACES = 64
_MAX_TEXT = const(24)  # bytes of UTF-8 in a name
INT_LIMIT = 1 << 29  # every encoded int is in -2**29 .. 2**29 - 1


def put_int(out, v):
    """Append int `v` as a zigzag varint to bytearray `out`."""
    if not -INT_LIMIT <= v < INT_LIMIT:
        raise ValueError("integer %d out of range (|v| < 2**29)" % v)
    z = (v << 1) if v >= 0 else ((-v << 1) - 1)
    while z >= 0x80:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)


def get_int(buf, i):
    """Read a zigzag varint at buf[i]; return (value, next index)."""
    if i < len(buf):
        b = buf[i]
        if b < 0x80:  # the common case: one byte, -64..63
            return (b >> 1) ^ -(b & 1), i + 1
    z = 0
    shift = 0
    while True:
        if i >= len(buf):
            raise ValueError("truncated integer at byte %d" % i)
        b = buf[i]
        i += 1
        z |= (b & 0x7F) << shift
        if b < 0x80:
            break
        shift += 7
        if shift > 28:
            raise ValueError("integer too long at byte %d" % i)
    return ((z >> 1) if not z & 1 else -((z + 1) >> 1)), i


def put_text(out, text):
    """Append a length-prefixed UTF-8 name (at most _MAX_TEXT bytes)."""
    b = text.encode()
    if len(b) > _MAX_TEXT:
        raise ValueError("name %r is longer than %d bytes" % (text, _MAX_TEXT))
    out.append(len(b))
    out.extend(b)


def get_text(buf, i):
    """Read a length-prefixed name at buf[i]; return (str, next index)."""
    if i >= len(buf):
        raise ValueError("truncated name at byte %d" % i)
    n = buf[i]
    j = i + 1 + n
    if n > _MAX_TEXT or j > len(buf):
        raise ValueError("bad name length %d at byte %d" % (n, i))
    return str(bytes(buf[i + 1:j]), "utf-8"), j


def encode_event(kind, args=(), faces=b"", text=""):
    """Encode one event as bytes; ValueError names the field that is wrong."""
    if not 0 < kind < 256:
        raise ValueError("event kind %d is not in 1..255" % kind)
    if len(args) > _MAX_ARGS:
        raise ValueError("an event takes at most %d arguments" % _MAX_ARGS)
    if len(faces) > MAX_FACES:
        raise ValueError("an event records at most %d faces" % MAX_FACES)
    out = bytearray((kind, len(args)))
    for a in args:
        put_int(out, a)
    out.append(len(faces))
    for f in faces:
        if not 1 <= f <= 255:
            raise ValueError("face %d is not 1..255" % f)
        out.append(f)
    put_text(out, text)
    return bytes(out)


def decode_event(ev):
    """Decode bytes from encode_event into (kind, args list, faces bytes, text)."""
    if len(ev) < 4:
        raise ValueError("event of %d bytes is too short" % len(ev))
    kind = ev[0]
    n = ev[1]
    if kind == 0 or n > _MAX_ARGS:
        raise ValueError("event header %d/%d is invalid" % (kind, n))
    i = 2
    args = []
    end = len(ev)
    for _ in range(n):
        # A boot replays every event through here: the common one-byte
        # varint inline (a call costs more than the decoding).
        if i < end and ev[i] < 0x80:
            b = ev[i]
            args.append((b >> 1) ^ -(b & 1))
            i += 1
        else:
            v, i = get_int(ev, i)
            args.append(v)
    if i >= len(ev):
        raise ValueError("event truncated before its faces")
    nf = ev[i]
    i += 1
    faces = bytes(ev[i:i + nf])
    if len(faces) != nf:
        raise ValueError("event truncated in its faces")
    i += nf
    if i + 1 == end and ev[i] == 0:
        return kind, args, faces, ""  # no name: the usual case, no new str
    text, i = get_text(ev, i)
    if i != len(ev):
        raise ValueError("event has %d trailing bytes" % (len(ev) - i))
    return kind, args, faces, text
