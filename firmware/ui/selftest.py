"""First-boot self-test: display pattern, every key, every LED.

`run(board)` takes over the board until the test is done or abandoned:

1. Test pattern (PATTERN_MS): a checkerboard of 8x8 squares that inverts
   every PATTERN_MS / 4, so every pixel is seen on and off, then a frame
   with the four corner pixels (panel offset and orientation).
2. Keys: the seven key names on screen; a held key shows its name
   inverted (and a tested key keeps a mark), so a dead or swapped button
   is obvious.
3. LEDs, at the same time: one LED at a time, red, then green, then blue,
   clockwise round the ring (at ui/ring.py's brightness cap).

Returns True ("PASS") once every key has been pressed and the LEDs went
round once, False if Back was held (LONG) to leave early. Back pressed
briefly counts as testing Back. LEDs are switched off on return.
"""

from hw.keys import COUNT, K_BACK, NAMES
from ui import ring
from ui.buttons import LONG, Buttons

POLL_MS = 20
PATTERN_MS = 2000
LED_MS = 100       # one colour of one LED
PASS_MS = 1000     # "PASS" stays this long


def pattern(fb, phase):
    """Checkerboard of 8x8 squares (phase 0/1 swaps them) with a border."""
    fb.fill(0)
    for y in range(0, 64, 8):
        for x in range(0, 128, 8):
            if ((x + y) >> 3) & 1 == phase:
                fb.fill_rect(x, y, 8, 8, 1)
    fb.rect(0, 0, 128, 64, 1)


def corners(fb):
    """A frame, the four corner pixels and the panel's size."""
    fb.fill(0)
    fb.rect(0, 0, 128, 64, 1)
    fb.rect(2, 2, 124, 60, 1)
    fb.text("128x64", 40, 28, 1)


def keys_screen(fb, held, tested, leds_done):
    """The key grid: held keys inverted, tested ones marked."""
    fb.fill(0)
    fb.text("SELF TEST", 0, 0, 1)
    for i in range(COUNT):
        x = 0 if i < 4 else 64
        y = 12 + 10 * (i % 4)
        bit = 1 << i
        if held & bit:
            fb.fill_rect(x, y - 1, 62, 10, 1)
        fb.text(("*" if tested & bit else " ") + NAMES[i], x, y, 0 if held & bit else 1)
    fb.text("LEDs ok" if leds_done else "LEDs...", 64, 42, 1)
    fb.text("hold BACK: exit", 0, 56, 1)


def led_frame(rgb, k):
    """Frame k of the LED cycle: LED k // 3 in red, green or blue."""
    n = len(rgb) // 3
    ring.clear(rgb)
    i = (k // 3) % n
    c = k % 3
    ring.put(rgb, i, 255 if c == 0 else 0, 255 if c == 1 else 0, 255 if c == 2 else 0)


def run(board):
    """Run the self-test on `board`; True if passed, False if abandoned."""
    fb = board.display
    leds = board.leds
    rgb = ring.new(leds.n)
    bt = Buttons()
    t0 = board.ticks_ms()
    tested = 0
    drawn = -1
    passed_at = None
    try:
        while True:
            now = board.ticks_ms()
            el = _diff(now, t0)
            n = bt.update(board.keys(), now)
            for j in range(n):
                ev = bt.q[j]
                if ev & 0xFF == K_BACK and ev >> 8 == LONG:
                    return False
            if el >= PATTERN_MS:
                tested |= bt.state
            # LEDs from the start: one LED colour per LED_MS, round and round.
            k = el // LED_MS
            leds_done = k >= 3 * leds.n
            led_frame(rgb, k)
            leds.write(rgb)
            if el < PATTERN_MS:
                view = el * 4 // PATTERN_MS
                if view != drawn:
                    if view < 3:
                        pattern(fb, view & 1)
                    else:
                        corners(fb)
                    fb.show()
                    drawn = view
            elif passed_at is None:
                view = 8 + (bt.state << 8 | tested << 1 | (1 if leds_done else 0))
                if view != drawn:
                    keys_screen(fb, bt.state, tested, leds_done)
                    fb.show()
                    drawn = view
                if tested == (1 << COUNT) - 1 and leds_done and not bt.state:
                    passed_at = now
                    fb.fill(0)
                    fb.text("SELF TEST", 28, 20, 1)
                    fb.text("PASS", 48, 36, 1)
                    fb.show()
            elif _diff(now, passed_at) >= PASS_MS:
                return True
            board.idle(POLL_MS)
    finally:
        ring.clear(rgb)
        leds.write(rgb)
        fb.fill(0)
        fb.show()


def _diff(a, b):
    """ticks_diff for the board's ticks (wrap at 2**30)."""
    return ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)
