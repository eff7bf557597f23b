"""Link frames, shared by the device and the host: one printable line each,

    '#' | base64(type u8 | seq u16 LE | payload | crc32 u32 LE) | '\\n'

and, for the journal's bulk pages to a host that asks for them (LOGB),
the same body as it is, behind a checked length:

    0xFF | len u16 LE | 0x5A ^ len lo ^ len hi | type | seq | payload | crc32

where the CRC covers type, seq and the payload's first BIN_COVER bytes (a
page's header): the rest is journal records, each with its own header
check and CRC, which the host checks anyway (and reads again before it
calls one that fails damaged).

Why a line of base64 (see docs/protocol.md): the board's USB serial is
MicroPython's stdin/stdout, so a raw 0x03 would raise KeyboardInterrupt
(and the app must keep Ctrl-C working for mpremote), text stdio may turn
'\\n' into '\\r\\n', and the REPL echoes what it reads. A frame holds only
'#', the base64 alphabet and the newline: no control byte, nothing a
terminal layer rewrites, and at the REPL a frame is a comment that never
runs. '#' never occurs inside base64, so a receiver resynchronises at the
next '#' after any garbage. The CRC covers type, seq and payload.

A binary frame goes only device -> host, only as the answer to a request
that asked for it: 0xFF is never in the REPL's UTF-8 text nor in a line,
and the host checks the length byte before it trusts the length, then
the CRC, rescanning what a damaged one held (docs/protocol.md, "Binary
pages"). It spares the board the base64 of every journal byte (1.8 ms a
4 KB page), their CRC (0.8 ms) and a third of the wire.
"""

from binascii import a2b_base64, b2a_base64, crc32
from struct import pack_into, unpack_from

PROTOCOL = 2     # bump on any incompatible change of the requests below
MARK = 0x23      # '#': starts a frame
BIN = 0xFF       # starts a binary frame (device -> host only)
BIN_HEAD = 4     # BIN, length u16, its check
BIN_COVER = 12   # payload bytes a binary frame's CRC covers (a LOGB page's base, offset, size)
NL = 0x0A
CR = 0x0D
MAX_REQ = 384    # longest line the device takes: well under the board's 512-byte USB ring
MAX_ANS = 5632   # longest line the device sends: a journal page (LOG_PAGE) and its varints
HEAD = 3         # type + seq
CRC = 4
LOG_PAGE = 4096  # segment bytes in one LOG answer (fewer: the end): a whole segment as a rule
WINDOW = 2       # requests a host keeps in flight (reads only; see docs/protocol.md)...
PAGES = 4        # ...each a LOG of this many segments, a frame each


def _body(line_max):
    return (line_max - 2) // 4 * 3   # minus '#' and '\n'; whole base64 groups


MAX_REQ_PAYLOAD = _body(MAX_REQ) - HEAD - CRC   # 278
MAX_ANS_PAYLOAD = _body(MAX_ANS) - HEAD - CRC   # 4214

# Requests (host -> device); the answer's type is the request's | 0x80.
HELLO = 0x01      # JSON {"protocol": n, "host": version} -> info JSON
INFO = 0x02       # -> info JSON
SNAP = 0x03       # varint offset -> varint seq, total, offset, bytes
EVENTS = 0x04     # varint since[, flags: 1 = RAM only] -> varint first, count, head, (varint len, event)*
ACT = 0x05        # JSON {"kind", "args", "text", "faces"?, "after"?} -> outcome JSON
CLOCK = 0x06      # JSON {"unix": seconds} -> empty
SUB = 0x07        # varint since (-1: from now) -> varint head; then PUSH frames
UNSUB = 0x08      # -> empty
R_BEGIN = 0x09    # JSON {"seq", "first", "count", "size", "crc"[, "head"]} -> varint stage number
R_SNAP = 0x0A     # varint offset, bytes -> varint received
R_EVENTS = 0x0B   # varint index, (varint len, event)* -> varint next index
R_COMMIT = 0x0C   # -> info JSON (the new campaign)
R_ABORT = 0x0D    # -> empty
END = 0x0E        # -> empty; then the app stops and the REPL takes the port
SEGS = 0x0F       # varint since -> varint head, count, then count segment bases (the first, then deltas)
LOG = 0x10        # base u32, offset u32, count u8 -> count frames: base u32, offset u32, segment bytes
SLOTS = 0x11      # [varint from] -> JSON {"current", "slots": [{...}], "next"}: the campaign slots on flash
SWITCH = 0x12     # varint slot -> info JSON (that campaign, now current, its new slot number)
DELETE = 0x13     # varint slot -> JSON {"slot", "bytes", "blocks"}: what the deleted slot held
CHAIN = 0x14      # varint seq -> the hash chain's head after it (32 bytes; empty: unknown)
SCREEN = 0x15     # -> width u8, height u8, n u8, the framebuffer (MONO_VLSB), n*3 bytes R,G,B of the ring
LOGB = 0x16       # base u32, offset u32, count u8 -> every page of count segments (binary frames)
NEW = 0x17        # JSON {"system", "name"?, "from"?: slot} -> info JSON (a new campaign, now current)
ANSWER = 0x80
PUSH = 0xFE       # device -> host, seq 0: varint event seq, event bytes
ERR = 0xFF        # utf-8 message saying what was wrong; seq = the request's (0: unknown)
EV_RAM = 1        # EVENTS flag: only what the device holds in RAM (count 0 otherwise)


def encode(typ, seq, payload=b""):
    """The line (bytes, ending in '\\n') for one frame."""
    n = len(payload)
    body = bytearray(HEAD + n + CRC)
    body[0] = typ
    body[1] = seq & 0xFF
    body[2] = (seq >> 8) & 0xFF
    body[HEAD:HEAD + n] = payload
    # pack_into stores a CRC that is a big int on a 32-bit board without
    # the further allocations shifting it would cost.
    pack_into("<I", body, HEAD + n, crc32(memoryview(body)[:HEAD + n]))
    return b"#" + b2a_base64(body)  # type: ignore[arg-type]  # any buffer on MicroPython


class Page:
    """A big answer built in place: the payload goes into body[HEAD:HEAD+n]
    (a file's readinto, index writes), then text() adds type, seq and CRC
    and returns the base64 text with its newline (the line is b'#' then
    that text: two writes, no copy of a few KB to join them; the text is
    the one allocation per frame), or binary() returns the binary frame
    as a view of the page itself (no allocation of its size)."""

    def __init__(self, payload_max=MAX_ANS_PAYLOAD):
        self.buf = bytearray(BIN_HEAD + HEAD + payload_max + CRC)
        self.mv = self.body = memoryview(self.buf)[BIN_HEAD:]

    def _seal(self, typ, seq, n, cover):
        # Statements kept short: a frame over 11 words is a heap allocation
        # per call on MicroPython (docs/architecture.md), and this is per page.
        b = self.body
        b[0] = typ
        b[1] = seq & 0xFF
        b[2] = (seq >> 8) & 0xFF
        n += HEAD
        pack_into("<I", b, n, crc32(self.mv[:HEAD + cover]))
        return n + CRC

    def text(self, typ, seq, n):
        return b2a_base64(self.mv[:self._seal(typ, seq, n, n)])  # type: ignore[arg-type]

    def binary(self, typ, seq, n):
        n = self._seal(typ, seq, n, BIN_COVER)
        b = self.buf
        b[0] = BIN
        b[1] = n & 0xFF
        b[2] = n >> 8
        b[3] = 0x5A ^ b[1] ^ b[2]
        return memoryview(b)[:BIN_HEAD + n]


def _a2b(text):
    try:
        return a2b_base64(text)
    except Exception:  # binascii.Error on CPython, ValueError on MicroPython
        return None


def decode(text):
    """(type, seq, payload) of a frame's base64 text (between '#' and the
    newline); ValueError if it is not a whole, intact frame."""
    body = _a2b(text)   # the try in a function of its own: this frame stays on the C stack
    if body is None:
        raise ValueError("not base64")
    n = len(body)
    # Only the canonical text: decoders skip stray characters and ignore
    # the spare low bits of a last partial group, so a damaged line could
    # decode to an intact-looking body.
    if b2a_base64(body)[:-1] != bytes(text):
        raise ValueError("not canonical base64")
    if n < HEAD + CRC:
        raise ValueError("frame of %d bytes is too short" % n)
    n -= CRC
    c = crc32(memoryview(body)[:n])
    if unpack_from("<I", body, n)[0] != c:
        raise ValueError("CRC mismatch")
    return body[0], body[1] | (body[2] << 8), body[HEAD:n]


class Lines:
    """Cuts a byte stream into frame texts, in a fixed buffer.

    push(data, n, out) calls out(memoryview of the text) for every frame
    completed by data[:n]. Bytes outside frames (REPL echo, prints,
    garbage) are skipped; a '#' always starts a new frame, so a torn frame
    is dropped at the next one. A frame longer than `size` is never
    stored: its bytes are counted and skipped, and out(None) reports it
    once at its end.
    """

    def __init__(self, size):
        self.buf = bytearray(size)
        self.mv = memoryview(self.buf)
        self.size = size
        self.n = -1          # bytes in the current frame; -1: not in a frame
        self.over = False    # the current frame overflowed
        self.skipped = 0     # bytes seen outside any frame

    def push(self, data, n, out):
        # The rare steps are methods: a frame over 11 words would be a heap
        # allocation at every call on MicroPython (docs/architecture.md).
        k = self.n
        i = 0
        while i < n:
            b = data[i]
            i += 1
            if b == MARK:
                k = self._mark(k)
            elif b == NL or b == CR:
                k = self._end(k, out)
            elif k >= 0:
                if k < self.size:
                    self.buf[k] = b
                    k += 1
                else:
                    k = -1
                    self.over = True
            elif not self.over:
                self.skipped += 1
        self.n = k

    def _mark(self, k):
        if k > 0:
            self.skipped += k    # a torn frame: dropped
        self.over = False
        return 0

    def _end(self, k, out):
        if self.over:
            self.over = False
            out(None)
        elif k > 0:
            self.n = -1
            out(self.mv[:k])
        return -1
