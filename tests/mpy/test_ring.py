"""LED ring logic: dial fill and colours, brightness cap, animations, backends."""
from hw.leds import NeoPixelLeds, NullLeds
from support import raises, micropython_only
from ui import ring

try:
    import micropython
except ImportError:
    micropython = None

def led(rgb, i):
    return (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])

def _default_cap():
    # The cap is the module's global: an App built by another test (a
    # brightness level read from its settings) leaves its own there.
    ring.set_max(64)

def test_cap_is_applied_to_every_byte():
    _default_cap()
    rgb = ring.new(12)
    for frame in range(30):
        ring.roll(rgb, frame)
        assert max(rgb) <= ring.MAX
        ring.flash(rgb, frame % 2, frame % 12)
        assert max(rgb) <= ring.MAX
    ring.dial(rgb, 12, 12, ring.DANGER)
    assert led(rgb, 0) == (64, 0, 0)  # full red at the default cap 64/255
    try:
        ring.set_max(255)
        ring.dial(rgb, 12, 12, ring.DANGER)
        assert led(rgb, 11) == (255, 0, 0)
        ring.set_max(0)
        ring.roll(rgb, 3)
        assert max(rgb) == 0
        raises(ValueError, ring.set_max, 256)
    finally:
        ring.set_max(64)

def test_dial_one_led_per_slash_when_it_fits():
    _default_cap()
    rgb = ring.new(12)
    ring.dial(rgb, 3, 6, ring.SAFE)
    for i in range(3):
        assert led(rgb, i) == (0, 64, 0)  # filled: green
    for i in range(3, 12):
        assert led(rgb, i) == (0, 0, 0)  # empty slots and beyond the capacity: off
    ring.dial(rgb, 0, 6)
    assert max(rgb) == 0                  # 0/6: nothing lit

def test_dial_colour_follows_the_fill():
    _default_cap()
    rgb = ring.new(12)
    ring.dial(rgb, 1, 8)
    r0, g0, _ = led(rgb, 0)
    ring.dial(rgb, 4, 8)
    r1, g1, _ = led(rgb, 0)
    ring.dial(rgb, 8, 8)
    r2, g2, _ = led(rgb, 0)
    assert r0 < r1 <= r2 and g0 > g1 > g2 == 0  # green -> amber -> red
    assert (r1, g1) == (64, 40)  # half full: amber (255, 160, 0) capped
    assert ring.danger_rgb(0) == 0x00FF00 and ring.danger_rgb(256) == 0xFF0000
    assert ring.danger_rgb(128) == 0xFFA000 and ring.danger_rgb(999) == 0xFF0000
    ring.dial(rgb, 1, 8, ring.WARN)  # forced level beats the fill
    assert led(rgb, 0) == (64, 40, 0)

def test_dial_scales_a_large_capacity_with_a_dimmer_partial_led():
    _default_cap()
    rgb = ring.new(12)
    try:
        ring.set_max(255)
        ring.dial(rgb, 10, 16, ring.SAFE)  # 10/16 of 12 LEDs = 7.5 LEDs
        assert [led(rgb, i)[1] for i in range(12)] == [255] * 7 + [127] + [0] * 4
        ring.dial(rgb, 16, 16, ring.SAFE)
        assert all(led(rgb, i)[1] == 255 for i in range(12))
        ring.dial(rgb, 99, 16)  # over-full clamps; red
        assert led(rgb, 11) == (255, 0, 0)
        ring.dial(rgb, 3, 0)  # no capacity: dark
        assert max(rgb) == 0
    finally:
        ring.set_max(64)

def test_roll_comet_spins_with_a_fading_tail():
    rgb = ring.new(12)
    ring.roll(rgb, 13)  # head at LED 1, tail on 0, 11, 10
    lv = [sum(led(rgb, i)) for i in range(12)]
    assert lv[1] > lv[0] > lv[11] > lv[10] > 0
    assert sum(lv[2:10]) == 0
    ring.roll(rgb, 14)
    assert sum(led(rgb, 2)) == lv[1]  # moved one LED clockwise

def test_flash_fades_up_and_down_then_stops():
    rgb = ring.new(12)
    levels = []
    f = 0
    while ring.flash(rgb, True, f):
        assert led(rgb, 0)[0] == led(rgb, 0)[2] == 0
        levels.append(led(rgb, 5)[1])
        f += 1
    assert f == ring.FLASH_FRAMES and max(rgb) == 0
    assert levels == levels[::-1] and max(levels) == levels[len(levels) // 2] > levels[0] > 0
    ring.flash(rgb, False, 6)
    assert led(rgb, 3)[0] > 0 and led(rgb, 3)[1] == 0

def test_current_estimate():
    assert ring.current_ma(12, 255) == 720         # 12 x 3 x 20 mA
    assert ring.current_ma(12, 64) == 181          # at the default cap
    assert ring.current_ma(12) == ring.current_ma(12, ring.MAX)
    assert ring.current_ma(12, 64, quiescent_ma=1) == 193

@micropython_only
def test_frames_allocate_nothing():
    rgb = ring.new(12)
    micropython.heap_lock()
    try:
        for f in range(40):
            ring.roll(rgb, f)
            ring.flash(rgb, f & 1, f % 14)
            ring.dial(rgb, f % 9, 8)
            ring.dial(rgb, f, 30, ring.WARN)
    finally:
        micropython.heap_unlock()
    assert max(rgb) > 0

class FakeNeoPixel:
    ORDER = (1, 0, 2, 3)  # GRB, as machine's neopixel

    def __init__(self, n, bpp=3):
        self.buf = bytearray(n * bpp)
        self.bpp = bpp
        self.shown = 0

    def write(self):
        self.shown += 1

def test_neopixel_backend_writes_grb():
    np = FakeNeoPixel(12)
    leds = NeoPixelLeds(22, 12, np=np)
    rgb = ring.new(12)
    rgb[0:3] = bytes((1, 2, 3))
    rgb[33:36] = bytes((7, 8, 9))
    leds.write(rgb)
    assert np.buf[0:3] == bytes((2, 1, 3)) and np.buf[33:36] == bytes((8, 7, 9))
    assert np.shown == 1 and leds.n == 12
    np4 = FakeNeoPixel(2, 4)  # RGBW strips: white byte left dark
    NeoPixelLeds(22, 2, np=np4).write(bytes((1, 2, 3, 4, 5, 6)))
    assert np4.buf == bytes((2, 1, 3, 0, 5, 4, 6, 0))
    null = NullLeds(12)
    null.write(rgb)
    assert null.last is rgb and null.writes == 1 and null.n == 12
