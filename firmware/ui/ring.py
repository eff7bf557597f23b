"""The LED ring as a dial: talisman fill, danger colour, roll comet, flashes.

Every function writes R,G,B bytes into a caller's preallocated bytearray of
3*n bytes (n = len(rgb) // 3, LED 0 first, clockwise) and allocates nothing,
so it can run every frame. Colours are computed at full scale 0..255 and
every byte is then scaled by the global brightness cap `MAX` (default 64,
25%): WS2812s at full white draw ~60 mA each and are painful to look at in
a dim room. Integer math only.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MAX = 64            # brightness cap applied to every byte, 0..255
SAFE = const(0)     # danger levels for dial(); AUTO follows the fill
WARN = const(1)
DANGER = const(2)
AUTO = const(-1)
TAIL = const(4)           # roll comet: head + 3 fading LEDs
FLASH_FRAMES = const(12)
ROLL_RGB = (80, 160, 255)  # the roll comet: cold blue-white
_SQ = const(65025)        # 255 * 255


def new(n=12):
    """A zeroed RGB buffer for n LEDs."""
    return bytearray(3 * n)


def set_max(v):
    """Set the global brightness cap (0..255)."""
    global MAX
    if not 0 <= v <= 255:
        raise ValueError("brightness cap %r out of range 0..255" % (v,))
    MAX = v


def put(rgb, i, r, g, b, level=255):
    """LED i = colour (r, g, b) at `level`/255, then capped by MAX."""
    k = MAX * level  # <= 65025, so each product below stays < 2**24
    j = 3 * i
    rgb[j] = r * k // _SQ
    rgb[j + 1] = g * k // _SQ
    rgb[j + 2] = b * k // _SQ


def clear(rgb):
    """All LEDs off."""
    for j in range(len(rgb)):
        rgb[j] = 0


def danger_rgb(q):
    """Packed 0xRRGGBB on the green -> amber -> red ramp, q in 0..256."""
    if q < 0:
        q = 0
    elif q > 256:
        q = 256
    if q <= 128:  # green (0,255,0) -> amber (255,160,0)
        return (255 * q // 128) << 16 | (255 - 95 * q // 128) << 8
    return 0xFF0000 | (160 - 160 * (q - 128) // 128) << 8  # amber -> red


def dial(rgb, lit, cap, danger=AUTO):
    """Show a talisman: `lit` of `cap` slashes filled.

    cap <= n: slash k is LED k, lit in the danger colour; every other LED
    is off, so the ring lights as many LEDs as the screen's "lit/cap" says
    slashes (lighting the capacity's empty slots too would make
    "Pressure 0/6" light six LEDs). cap > n: the fill is scaled onto
    the whole ring; the LED the fill ends in is lit in proportion (the
    partial LED is dimmer), the rest off.
    Colour: danger AUTO ramps green -> amber -> red as lit approaches cap;
    SAFE / WARN / DANGER force green / amber / red."""
    n = len(rgb) // 3
    if cap <= 0:
        clear(rgb)
        return
    if lit < 0:
        lit = 0
    elif lit > cap:
        lit = cap
    c = danger_rgb(lit * 256 // cap if danger < 0 else danger * 128)
    r = c >> 16
    g = (c >> 8) & 0xFF
    b = c & 0xFF
    if cap <= n:
        for i in range(n):
            if i < lit:
                put(rgb, i, r, g, b)
            else:
                put(rgb, i, 0, 0, 0, 0)
        return
    # Scaled: the fill covers lit*n/cap LEDs; u counts in 1/cap LED units.
    # lit*n stays small (cap is a talisman size, n a ring).
    u = lit * n
    for i in range(n):
        part = u - i * cap  # how much of LED i is covered, in 1/cap units
        if part >= cap:
            put(rgb, i, r, g, b)
        elif part > 0:
            put(rgb, i, r, g, b, 255 * part // cap)
        else:
            put(rgb, i, 0, 0, 0, 0)


def roll(rgb, frame, colour=ROLL_RGB):
    """One frame of the roll animation: a comet spinning clockwise, one
    LED per frame, with a tail fading by half per LED."""
    n = len(rgb) // 3
    head = frame % n
    r, g, b = colour
    for i in range(n):
        back = head - i
        if back < 0:
            back += n
        if back < TAIL:
            put(rgb, i, r, g, b, 255 >> back)
        else:
            put(rgb, i, 0, 0, 0, 0)


def flash(rgb, ok, frame, frames=FLASH_FRAMES):
    """One frame of a success (green) or failure (red) flash over the whole
    ring: a triangle fade up and down over `frames` frames. Returns False
    (ring cleared) once frame >= frames."""
    if frame >= frames or frame < 0:
        clear(rgb)
        return False
    t = 2 * frame + 1  # centre of the frame, in half-frames
    level = 255 * (frames - abs(frames - t)) // frames
    for i in range(len(rgb) // 3):
        if ok:
            put(rgb, i, 0, 255, 0, level)
        else:
            put(rgb, i, 255, 0, 0, level)
    return True


def current_ma(n=12, cap=None, ma_per_channel=20, quiescent_ma=0):
    """Worst-case ring current in mA at brightness cap `cap` (default MAX):
    every LED white, each channel drawing ma_per_channel at 255 (WS2812B:
    ~20 mA), scaled by cap/255, plus n * quiescent_ma (~0.5-1 mA each)."""
    if cap is None:
        cap = MAX
    return (n * 3 * ma_per_channel * cap + 254) // 255 + n * quiescent_ma
