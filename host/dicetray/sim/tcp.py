"""The device's serial port as a TCP socket on 127.0.0.1 (`dicetray sim
--tcp`), for systems without pseudo-terminals (Windows) and for clients
that speak pyserial URLs: `dicetray --port socket://127.0.0.1:N`,
`mpremote connect socket://127.0.0.1:N`, `serial.serial_for_url`.

The same interface as pty.SerialPty (read, write, close, path, dropped):
never blocks the firmware. One client at a time, as a board's USB port:
a second connection while one is open is told so in one line and closed
(the first keeps the port). Bytes written while no client is connected
are dropped, as a board's are with nobody on its port, and counted.
"""

import socket

BUSY = b"dicetray sim: another client has this port; one at a time talks to the tray\r\n"


class SerialTcp:
    """A listening socket; the connected client is the port's other end."""

    def __init__(self, port=0):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError as e:
            s.close()
            raise OSError(
                "cannot listen on 127.0.0.1:%d: %s (choose another --tcp port, "
                "or 0 for any free one)" % (port, e.strerror or e)
            ) from None
        s.listen(4)
        s.setblocking(False)
        self.server = s
        self.path = "socket://127.0.0.1:%d" % s.getsockname()[1]
        self.client = None
        self.dropped = 0

    def _accept(self):
        while True:
            try:
                conn, _addr = self.server.accept()
            except OSError:  # none waiting (BlockingIOError) or a failed one
                return
            if self.client is not None:
                try:
                    conn.sendall(BUSY)
                except OSError:
                    pass
                conn.close()
                continue
            conn.setblocking(False)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.client = conn

    def _hang_up(self):
        try:
            self.client.close()
        except OSError:
            pass
        self.client = None

    def read(self, n):
        """Up to n bytes the client sent, b'' if none (never blocks)."""
        self._accept()
        if self.client is None:
            return b""
        try:
            data = self.client.recv(n)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            self._hang_up()
            return b""
        if not data:  # the client closed its end: the port is free again
            self._hang_up()
        return data

    def write(self, data):
        """Send bytes to the client; what it cannot take now is dropped."""
        if self.client is None:
            self._accept()
        if self.client is None:
            self.dropped += len(data)
            return
        view = memoryview(data)
        while view:
            try:
                view = view[self.client.send(view) :]
            except (BlockingIOError, InterruptedError):
                self.dropped += len(view)
                break
            except OSError:
                self.dropped += len(view)
                self._hang_up()
                break

    def close(self):
        if self.client is not None:
            self._hang_up()
        self.server.close()
