"""The link framing, shared with the firmware: firmware/link/frame.py is the
one copy. An installed package maps it as dicetray.fwlink (pyproject
package-dir); a source tree loads it from the repository's firmware/."""

import importlib.util
import os
import re

try:
    from dicetray.fwlink.frame import *  # noqa: F401,F403
    from dicetray.fwlink import frame as _mod
except ImportError:
    _path = os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "firmware", "link", "frame.py"
    )
    _spec = importlib.util.spec_from_file_location("dicetray._fwframe", os.path.normpath(_path))
    _mod = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_mod)
    globals().update({k: v for k, v in vars(_mod).items() if not k.startswith("__")})


class FastLines(Lines):  # type: ignore[name-defined,misc]  # noqa: F405
    """Lines for the host: the same cuts, resyncs and refusals as the
    firmware's (tests/host/test_link_window.py holds them equal on random
    streams), found with a C search instead of a Python step per byte
    (an answer of a journal page is ~5.5 KB of line).

    push(data, n, out) calls out(bytes of the text) for every frame; None
    once for a frame longer than `size` at its end."""

    def __init__(self, size):
        Lines.__init__(self, size)  # noqa: F405
        self.acc = bytearray()  # the current frame's text so far

    def push(self, data, n, out):
        delim = _DELIM
        data = bytes(data[:n])
        size = len(self.buf)
        i = 0
        while i < n:
            m = delim.search(data, i)
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
                return
            b = data[j]
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


_DELIM = re.compile(rb"[#\r\n]")  # MARK, CR, NL
