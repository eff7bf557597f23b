"""Pin maps of the supported boards: the ONE source for the firmware
profiles (hw/pico.py, hw/macropad.py), the wiring diagrams
(tools/wiring.py -> hardware/wiring-*.svg) and the tables in
docs/hardware.md, so the three cannot disagree (tests/host/test_hardware.py
checks it).

Each map is a tuple of (signal, GPIO, kind, use):
- kind "key": a switch to GND read with the internal pull-up; `use` is the
  key it acts as (a name of hw/keys.NAMES) or "" for a spare key;
- "i2c", "spi", "oled": display bus and control lines;
- "led": addressable LED data (and the MacroPad's red status LED);
- "enc": the rotary encoder (A, B, push switch);
- "audio": piezo / speaker.

Sources: Raspberry Pi Pico / Pico 2 pinout (GP4 = I2C0 SDA, GP5 = I2C0
SCL); Adafruit MacroPad RP2040: CircuitPython's board definition
ports/raspberrypi/boards/adafruit_macropad_rp2040/pins.c and board.c
(see docs/hardware.md for the table and links).
"""

# DIY Raspberry Pi Pico or Pico 2 (same header; RP2040 or RP2350).
PICO = (
    ("SDA", 4, "i2c", "OLED SDA (I2C0)"),
    ("SCL", 5, "i2c", "OLED SCL (I2C0)"),
    ("UP", 10, "key", "UP"),
    ("DOWN", 11, "key", "DOWN"),
    ("LEFT", 12, "key", "LEFT"),
    ("RIGHT", 13, "key", "RIGHT"),
    ("OK", 14, "key", "OK"),
    ("BACK", 15, "key", "BACK"),
    ("ROLL", 16, "key", "ROLL"),
    ("PIEZO", 18, "audio", "piezo + (optional, PWM)"),
    ("RING", 22, "led", "WS2812 ring DIN (12 LEDs)"),
)
PICO_I2C = (0, 400000)   # I2C bus id, clock (Hz)
PICO_LEDS = 12

# Adafruit MacroPad RP2040. KEY1 is top left, KEY12 bottom right (3 x 4,
# reading order); the NeoPixel under KEYn is pixel n-1.
MACROPAD = (
    ("ENC_SW", 0, "enc", "encoder push: OK tap / hold-to-shift"),
    ("KEY1", 1, "key", "BACK"),
    ("KEY2", 2, "key", "UP"),
    ("KEY3", 3, "key", ""),
    ("KEY4", 4, "key", "LEFT"),
    ("KEY5", 5, "key", "OK"),
    ("KEY6", 6, "key", "RIGHT"),
    ("KEY7", 7, "key", ""),
    ("KEY8", 8, "key", "DOWN"),
    ("KEY9", 9, "key", ""),
    ("KEY10", 10, "key", "ROLL"),
    ("KEY11", 11, "key", "ROLL"),
    ("KEY12", 12, "key", "ROLL"),
    ("LED", 13, "led", "red status LED"),
    ("SPK_EN", 14, "audio", "speaker amplifier enable"),
    ("SPEAKER", 16, "audio", "speaker (PWM)"),
    ("ENC_A", 17, "enc", "encoder A"),
    ("ENC_B", 18, "enc", "encoder B"),
    ("PIXELS", 19, "led", "12 NeoPixels, one under each key"),
    ("SDA", 20, "i2c", "STEMMA QT SDA (unused)"),
    ("SCL", 21, "i2c", "STEMMA QT SCL (unused)"),
    ("OLED_CS", 22, "oled", "SH1106 chip select"),
    ("OLED_RST", 23, "oled", "SH1106 reset"),
    ("OLED_DC", 24, "oled", "SH1106 data/command"),
    ("SCK", 26, "spi", "SPI1 SCK to SH1106"),
    ("MOSI", 27, "spi", "SPI1 TX to SH1106"),
    ("MISO", 28, "spi", "SPI1 RX (not wired to the OLED)"),
)
MACROPAD_SPI = (1, 10000000)  # SPI bus id, clock (Hz) as CircuitPython's board.c
MACROPAD_LEDS = 12

BOARDS = {"pico": PICO, "macropad": MACROPAD}


def gpio(pinmap, signal):
    """GPIO number of `signal` in `pinmap`; ValueError naming the signals if absent."""
    for s, g, _k, _u in pinmap:
        if s == signal:
            return g
    raise ValueError("no signal %r: one of %s" % (signal, ", ".join(p[0] for p in pinmap)))


def keys(pinmap):
    """[(GPIO, key bit)] of the switches that act as a key (spares skipped)."""
    from hw.keys import NAMES
    out = []
    for _s, g, k, use in pinmap:
        if k == "key" and use:
            out.append((g, 1 << NAMES.index(use)))
    return out
