"""Link frames: one printable line each, shared by the device and the host.

    '#' | base64(type u8 | seq u16 LE | payload | crc32 u32 LE) | '\\n'

Why a line of base64 (see docs/protocol.md): the board's USB serial is
MicroPython's stdin/stdout, so a raw 0x03 would raise KeyboardInterrupt
(and the app must keep Ctrl-C working for mpremote), text stdio may turn
'\\n' into '\\r\\n', and the REPL echoes what it reads. A frame holds only
'#', the base64 alphabet and the newline: no control byte, nothing a
terminal layer rewrites, and at the REPL a frame is a comment that never
runs. '#' never occurs inside base64, so a receiver resynchronises at the
next '#' after any garbage. The CRC covers type, seq and payload.
"""

from binascii import a2b_base64, b2a_base64, crc32
from struct import pack_into, unpack_from

PROTOCOL = 1     # bump on any incompatible change of the requests below
MARK = 0x23      # '#': starts a frame
NL = 0x0A
CR = 0x0D
MAX_REQ = 384    # longest line the device takes: well under the board's 512-byte USB ring
MAX_ANS = 1024   # longest line the device sends (the host has room)
HEAD = 3         # type + seq
CRC = 4


def _body(line_max):
    return (line_max - 2) // 4 * 3   # minus '#' and '\n'; whole base64 groups


MAX_REQ_PAYLOAD = _body(MAX_REQ) - HEAD - CRC   # 278
MAX_ANS_PAYLOAD = _body(MAX_ANS) - HEAD - CRC   # 758

# Requests (host -> device); the answer's type is the request's | 0x80.
HELLO = 0x01      # JSON {"protocol": n, "host": version} -> info JSON
INFO = 0x02       # -> info JSON
SNAP = 0x03       # varint offset -> varint seq, total, offset, bytes
EVENTS = 0x04     # varint since -> varint first, count, head, then (varint len, event)*
ACT = 0x05        # JSON {"kind", "args", "text", "faces"?} -> outcome JSON
CLOCK = 0x06      # JSON {"unix": seconds} -> empty
SUB = 0x07        # varint since (-1: from now) -> varint head; then PUSH frames
UNSUB = 0x08      # -> empty
R_BEGIN = 0x09    # JSON {"seq", "first", "count", "size", "crc"} -> varint stage number
R_SNAP = 0x0A     # varint offset, bytes -> varint received
R_EVENTS = 0x0B   # varint index, (varint len, event)* -> varint next index
R_COMMIT = 0x0C   # -> info JSON (the new campaign)
R_ABORT = 0x0D    # -> empty
END = 0x0E        # -> empty; then the app stops and the REPL takes the port
ANSWER = 0x80
PUSH = 0xFE       # device -> host, seq 0: varint event seq, event bytes
ERR = 0xFF        # utf-8 message saying what was wrong; seq = the request's (0: unknown)


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


def decode(text):
    """(type, seq, payload) of a frame's base64 text (between '#' and the
    newline); ValueError if it is not a whole, intact frame."""
    try:
        body = a2b_base64(text)
    except Exception:  # binascii.Error on CPython, ValueError on MicroPython
        raise ValueError("not base64")
    n = len(body)
    # Only the canonical text: decoders skip stray characters and ignore
    # the spare low bits of a last partial group, so a damaged line could
    # decode to an intact-looking body.
    if b2a_base64(body)[:-1] != bytes(text):
        raise ValueError("not canonical base64")
    if n < HEAD + CRC:
        raise ValueError("frame of %d bytes is too short" % n)
    if unpack_from("<I", body, n - CRC)[0] != crc32(memoryview(body)[:n - CRC]):
        raise ValueError("CRC mismatch")
    return body[0], body[1] | (body[2] << 8), body[HEAD:n - CRC]


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
        self.n = -1          # bytes in the current frame; -1: not in a frame
        self.over = False    # the current frame overflowed
        self.skipped = 0     # bytes seen outside any frame

    def push(self, data, n, out):
        buf = self.buf
        size = len(buf)
        k = self.n
        for i in range(n):
            b = data[i]
            if b == MARK:
                if k > 0 or self.over:
                    self.skipped += k if k > 0 else 0  # a torn frame: dropped
                k = 0
                self.over = False
            elif b == NL or b == CR:
                if self.over:
                    self.over = False
                    out(None)
                elif k > 0:
                    self.n = -1
                    out(self.mv[:k])
                k = -1
            elif k >= 0:
                if k < size:
                    buf[k] = b
                    k += 1
                else:
                    k = -1
                    self.over = True
            elif not self.over:
                self.skipped += 1
            self.n = k
        self.n = k
