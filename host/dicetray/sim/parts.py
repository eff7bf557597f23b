"""What a simulated board's parts show, as both simulators keep them: the
OLED's controller model (`self.panel`, dicetray.panel.Panel, fed what the
firmware's driver sent) and the LED ring's bytes (`self.leds`, R,G,B)."""

from . import png


class Shown:
    """The screen and ring of a board that has `panel` and `leds`."""

    scale = 4

    @property
    def display(self):
        """The visible pixels now, as a MONO_VLSB buffer."""
        return bytes(self.panel.image())

    @property
    def contrast(self):
        return self.panel.contrast

    @property
    def power(self):
        return self.panel.on

    def screenshot(self, path):
        """Write the display and LEDs as they are now to a PNG."""
        png.write(path, self.display, self.leds, self.scale, self.contrast, self.power)
