"""The serial port to the tray, through pyserial.

Opened the way mpremote opens it: 115200 baud (a USB CDC port ignores the
rate, but 1200 baud is the "touch" that resets some boards into their
bootloader, so it is refused), no hardware or software flow control, and
DTR/RTS left as the OS raises them at open and never toggled afterwards
(toggling them resets ESP-style boards; MicroPython's USB CDC only needs
DTR up to send). The port is locked (flock) so two host tools never
interleave frames.
"""

import time

BAUD = 115200


class TransportError(Exception):
    """The port could not be opened or failed."""


class Transport:
    """A byte pipe to the device: write(b), read(timeout) -> bytes."""

    def __init__(self, port, baud=BAUD):
        import serial
        if baud == 1200:
            raise TransportError("1200 baud resets some boards into their bootloader: refused")
        s = serial.Serial()
        s.port = port
        s.baudrate = baud
        s.timeout = 0
        s.write_timeout = 5
        s.rtscts = False
        s.dsrdtr = False
        s.xonxoff = False
        s.exclusive = True
        try:
            s.open()
        except (serial.SerialException, OSError) as e:
            raise TransportError("cannot open %s: %s" % (port, e)) from None
        self.port = port
        self.ser = s
        self.sent = 0          # bytes on the wire, each way (for figures)
        self.received = 0

    def write(self, data):
        """Send all of data."""
        import serial
        try:
            self.ser.write(data)
            self.ser.flush()
        except (serial.SerialException, OSError) as e:
            raise TransportError("write to %s failed: %s" % (self.port, e)) from None
        self.sent += len(data)

    def read(self, timeout):
        """Bytes that arrive within `timeout` seconds (b'' if none)."""
        import serial
        ser = self.ser
        try:
            n = ser.in_waiting
            if not n:
                ser.timeout = timeout
                data = ser.read(1)
                if not data:
                    return b""
                n = ser.in_waiting
                if n:
                    data += ser.read(n)
            else:
                ser.timeout = 0
                data = ser.read(n)
        except (serial.SerialException, OSError) as e:
            raise TransportError("read from %s failed: %s" % (self.port, e)) from None
        self.received += len(data)
        return data

    def drain(self, quiet=0.05, limit=1.0):
        """Read and return what the device sends until it is quiet."""
        got = b""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            d = self.read(quiet)
            if not d:
                break
            got += d
        return got

    def close(self):
        try:
            self.ser.close()
        except Exception:
            pass
