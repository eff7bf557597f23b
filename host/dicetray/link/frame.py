"""The link framing, shared with the firmware: firmware/link/frame.py is the
one copy. An installed package maps it as dicetray.fwlink (pyproject
package-dir); a source tree loads it from the repository's firmware/."""

import importlib.util
import os
import re
from binascii import crc32
from collections.abc import Callable
from struct import unpack_from
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # For mypy, the same one copy by the name the firmware gives it
    # (firmware/ is on MYPYPATH: tools/typecheck.py): its constants,
    # encode, decode and Lines are read from that file, never restated.
    from link.frame import *  # noqa: F401,F403
    from link import frame as _mod
else:
    try:
        from dicetray.fwlink.frame import *  # noqa: F401,F403
        from dicetray.fwlink import frame as _mod
    except ImportError:
        _path = os.path.join(
            os.path.dirname(os.path.abspath(__file__)),
            "..",
            "..",
            "..",
            "firmware",
            "link",
            "frame.py",
        )
        _spec = importlib.util.spec_from_file_location("dicetray._fwframe", os.path.normpath(_path))
        _mod = importlib.util.module_from_spec(_spec)
        _spec.loader.exec_module(_mod)
        globals().update({k: v for k, v in vars(_mod).items() if not k.startswith("__")})

# A frame as the link hands it on: (type, seq, payload). A text frame's
# payload is bytes (decode), a binary frame's a bytearray (check_binary).
Frame = tuple[int, int, bytes | bytearray]


class FastLines(Lines):  # noqa: F405
    """Lines for the host: the same cuts, resyncs and refusals as the
    firmware's (tests/host/test_link_window.py holds them equal on random
    streams), found with a C search instead of a Python step per byte
    (an answer of a journal page is ~5.5 KB of line), and binary frames.

    push(data, n, out) calls out(bytes of the text) for every frame; None
    once for a frame longer than `size` at its end. With `binary` (a
    function), a binary frame (BIN, its checked length, a body of at most
    `size` bytes) whose CRC holds (over type, seq and the first BIN_COVER
    bytes of payload) goes to binary((type, seq, payload));
    one whose length check or CRC fails is dropped and what followed its
    BIN is cut again, so a frame it swallowed is not lost with it. Without
    `binary`, BIN is a byte like any other (as the firmware's Lines see it).
    `seen` holds the last 64 bytes outside binary frames (the REPL's
    prompt shows there)."""

    def __init__(self, size: int, binary: Callable[[Frame], object] | None = None) -> None:
        Lines.__init__(self, size)  # noqa: F405
        self.acc = bytearray()  # the current frame's text so far
        self.binary = binary
        self.delim = _DELIM_BIN if binary is not None else _DELIM
        self.bin = bytearray()  # a binary frame's bytes after BIN so far...
        self.need = 0  # ...and how many more it needs (0: not in one)
        self.seen = b""

    def push(self, data: bytes | bytearray, n: int, out: Callable[[bytes | None], object]) -> None:
        data = bytes(data[:n])
        while data:
            if self.need:
                data = self._binary(data)
            else:
                data = self._text(data, out)

    def quiet(self, out: Callable[[bytes | None], object]) -> None:
        """Nothing came for a while: a binary frame still short of its
        length was cut on the way (its length may have claimed the frames
        after it), so what it holds is cut again now."""
        while self.need:  # each pass drops a BIN: it ends
            held = bytes(self.bin)
            self.bin = bytearray()
            self.need = 0
            self.skipped += 1
            self.push(held, len(held), out)

    def _binary(self, data: bytes) -> bytes:
        """Take what a binary frame needs of data; the rest to cut on."""
        k = min(self.need, len(data))
        self.bin += data[:k]
        self.need -= k
        rest = data[k:]
        if self.need:
            return rest
        b = self.bin
        if len(b) == BIN_HEAD - 1:  # noqa: F405  # its length: checked, then the body
            size = b[0] | b[1] << 8
            if b[2] == 0x5A ^ b[0] ^ b[1] and HEAD + CRC <= size <= len(self.buf):  # noqa: F405
                self.need = size
                return rest
        else:
            frame = check_binary(b[BIN_HEAD - 1 :])  # noqa: F405
            if frame is not None:
                self.bin = bytearray()
                self.binary(frame)  # type: ignore[misc]  # set: only its delim cuts at a BIN
                return rest
        self.bin = bytearray()
        self.skipped += 1  # the BIN: what came after it is cut again
        return bytes(b) + rest

    def _text(self, data: bytes, out: Callable[[bytes | None], object]) -> bytes:
        """Cut text frames from data up to a BIN; what follows it."""
        n = len(data)
        size = len(self.buf)
        i = 0
        while i < n:
            m = self.delim.search(data, i)
            j = m.start() if m is not None else n
            run = j - i  # bytes before the next delimiter
            if run:
                if self.n >= 0:
                    if self.n + run <= size:
                        self.acc += data[i:j]
                        self.n += run
                    else:  # longer than a frame: skipped from here on
                        self.acc = bytearray()
                        self.n = -1
                        self.over = True
                elif not self.over:
                    self.skipped += run
            if m is None:
                break
            b = data[j]
            if b == BIN:  # noqa: F405
                self._saw(data[:j])
                if self.n > 0:
                    self.skipped += self.n  # a torn text frame: dropped
                self.n = -1
                self.over = False
                self.acc = bytearray()
                self.need = BIN_HEAD - 1  # noqa: F405
                return data[j + 1 :]
            if b == MARK:  # noqa: F405
                if self.n > 0:
                    self.skipped += self.n  # a torn frame: dropped
                self.n = 0
                self.over = False
                self.acc = bytearray()
            else:
                if self.over:
                    self.over = False
                    out(None)
                elif self.n > 0:
                    text = bytes(self.acc)
                    self.n = -1
                    self.acc = bytearray()
                    out(text)
                self.n = -1
            i = j + 1
        self._saw(data)
        return b""

    def _saw(self, data: bytes) -> None:
        self.seen = (self.seen + data[-64:])[-64:]


def check_binary(body: bytes | bytearray) -> Frame | None:
    """(type, seq, payload) of a binary frame's body (after its length),
    None if it is short or fails its CRC (which covers type, seq and the
    payload's first BIN_COVER bytes: the rest checks itself)."""
    n = len(body) - CRC  # noqa: F405
    cover = HEAD + BIN_COVER  # noqa: F405
    if n < cover or unpack_from("<I", body, n)[0] != crc32(memoryview(body)[:cover]):
        return None
    return body[0], body[1] | (body[2] << 8), body[HEAD:n]  # noqa: F405


_DELIM = re.compile(rb"[#\r\n]")  # MARK, CR, NL
_DELIM_BIN = re.compile(rb"[#\r\n\xff]")  # and BIN
