"""LED ring backends: `write(rgb)` takes the R,G,B bytearray (3*n bytes,
already brightness-capped by ui/ring.py) and puts it on the LEDs."""


class NeoPixelLeds:
    """WS2812 ring on one pin through MicroPython's built-in `neopixel`.

    Bytes go straight into the driver's wire buffer (GRB for WS2812, from
    its ORDER) instead of through np[i] = (r, g, b), which would build a
    tuple per LED per frame. `np` may be passed in (tests, shared strips).
    """

    def __init__(self, pin, n=12, np=None):
        if np is None:
            import machine
            import neopixel
            np = neopixel.NeoPixel(machine.Pin(pin), n)
        self.np = np
        self.n = n
        self._o = np.ORDER
        self._bpp = np.bpp if hasattr(np, "bpp") else 3

    def write(self, rgb):
        """Show rgb (3*n bytes R,G,B)."""
        buf = self.np.buf
        o = self._o
        r, g, b = o[0], o[1], o[2]
        bpp = self._bpp
        j = 0
        for i in range(0, 3 * self.n, 3):
            buf[j + r] = rgb[i]
            buf[j + g] = rgb[i + 1]
            buf[j + b] = rgb[i + 2]
            j += bpp
        self.np.write()


class NullLeds:
    """No ring fitted: keeps the last frame (for tests and the screen-only build)."""

    def __init__(self, n=12):
        self.n = n
        self.last = None
        self.writes = 0

    def write(self, rgb):
        self.last = rgb
        self.writes += 1
