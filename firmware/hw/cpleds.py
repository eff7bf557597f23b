"""LED backend on Adafruit's CircuitPython `neopixel` library
(adafruit-circuitpython-neopixel): the ring on CircuitPython, or on a
Linux board through Blinka.

Same interface as hw/leds.py: `n` and `write(rgb)` with 3*n bytes R,G,B,
already brightness-capped by ui/ring.py. The library keeps the colour
order (`pixel_order`, GRB for WS2812) and its own `brightness` (default
1.0 here, since ui/ring.py has capped already; a lower value scales every
byte again as int(v * brightness)). On MicroPython the profiles use
hw/leds.NeoPixelLeds on the built-in `neopixel` instead.
"""


class CPNeoPixelLeds:
    """`pin` is a board pin (e.g. board.NEOPIXEL); `np` may be passed in."""

    def __init__(self, pin, n=12, brightness=1.0, order="GRB", np=None):
        if np is None:
            import neopixel
            # Adafruit's library, not MicroPython's neopixel (which the rp2
            # stubs describe and which has none of these keywords).
            np = neopixel.NeoPixel(pin, n, brightness=brightness,  # type: ignore[call-arg]
                                   auto_write=False, pixel_order=order)
        self.np = np
        self.n = n

    def write(self, rgb):
        """Show rgb (3*n bytes R,G,B): set every pixel, then one transmit."""
        if len(rgb) != 3 * self.n:
            raise ValueError("leds.write needs %d bytes (R,G,B x %d), got %d"
                             % (3 * self.n, self.n, len(rgb)))
        np = self.np
        for i in range(self.n):
            j = 3 * i
            np[i] = (rgb[j], rgb[j + 1], rgb[j + 2])
        np.show()
