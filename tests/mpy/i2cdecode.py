"""Test-side I2C fakes; the decoder is the simulator's controller model.

`RecordingI2C` captures every transaction, `CountingI2C` only counts;
`Panel` (host/dicetray/panel.py) plays captured transactions into a model
of the SSD1306 / SH1106 controller. Runs on CPython and MicroPython.
"""

from dicetray.panel import HORIZONTAL, PAGE, SH1106, SSD1306, VERTICAL, Panel  # noqa: F401


class RecordingI2C:
    """Fake machine.I2C: records (addr, bytes) for every transaction."""

    def __init__(self, devices=(0x3C,)):
        self.log = []
        self.devices = devices

    def writeto(self, addr, buf, stop=True):
        if addr not in self.devices:
            raise OSError(19)  # ENODEV: what machine.I2C raises on a NAK
        self.log.append((addr, bytes(buf)))
        return len(buf)

    def writevto(self, addr, bufs, stop=True):
        b = bytearray()
        for x in bufs:
            b.extend(x)
        return self.writeto(addr, b, stop)

    def sent(self):
        """Total payload bytes recorded."""
        return sum(len(b) for _, b in self.log)


class CountingI2C:
    """Fake I2C that only counts (allocates nothing: for heap_lock tests)."""

    def __init__(self):
        self.nbytes = 0
        self.ntx = 0

    def writeto(self, addr, buf, stop=True):
        self.nbytes += len(buf)
        self.ntx += 1
        return len(buf)
