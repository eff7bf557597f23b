"""The device's serial port as a pseudo-terminal.

A client (pyserial, `dicetray --port PATH`, screen...) opens `path` exactly
as it would open a board's /dev/ttyACM0. The simulator keeps the slave end
open itself, so a client closing it never makes the master fail with EIO,
and sets it raw (no echo, no CR/LF rewriting: a binary protocol passes
through unchanged). The master is non-blocking: the firmware never stalls on
the port; bytes written while nobody reads pile up in the pty (a few KB)
and beyond that are dropped, counted in `dropped`.
"""

import errno
import os
import tty


class SerialPty:
    """One pseudo-terminal pair; the firmware side is the master."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.dropped = 0

    def read(self, n):
        """Up to n bytes the client sent, b'' if none (never blocks)."""
        try:
            return os.read(self.master, n)
        except BlockingIOError:
            return b""
        except OSError as e:
            if e.errno == errno.EIO:  # no client side right now
                return b""
            raise

    def write(self, data):
        """Send bytes to the client; what the pty cannot hold is dropped."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view) :]
            except (BlockingIOError, OSError):
                self.dropped += len(view)
                break

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
