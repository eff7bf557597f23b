"""Machine code for the RP2040's Cortex-M0+ (viper): the page staging of
firmware/hw/i2cdma.py. A page is a copy into every other byte of the DMA's
word buffer, where framebuf.blit's per-pixel calls cost ~0.1 ms a page on
the board and a Python loop more; and a page's changed spans, which a
Python scan would find in ~0.2 ms.

Kept out of firmware/, whose every file compiles for any MicroPython
(plain mpy-cross): this one compiles only for an architecture
(-march=armv6m), as the release image's build compiles it (ports/rp2's
MICROPY_CROSS_FLAGS; tools/uf2.py freezes it) and `make deploy` does
(tools/mpy.py NATIVE). It sits at the root of the board's path. Where it
is missing or is for another CPU, hw/i2cdma.py does not load and the
frames go by writeto (hw/pico.py).
"""

import micropython


@micropython.viper
def widen(dst: ptr8, src: ptr8, n: int):  # noqa: F821 (viper types)
    """src[0:n] into the low bytes of the words at dst."""
    i = 0
    while i < n:
        dst[i << 1] = src[i]
        i += 1


@micropython.viper
def widen_keep(dst: ptr8, src: ptr8, keep: ptr8, n: int):  # noqa: F821 (viper types)
    """widen, and src[0:n] copied to keep (the panel's copy) too."""
    i = 0
    while i < n:
        b = src[i]
        dst[i << 1] = b
        keep[i] = b
        i += 1


@micropython.viper
def runs(a: ptr8, b: ptr8, w: int, out: ptr8) -> int:  # noqa: F821 (viper types)
    """The changed spans of a[0:w] against b[0:w] (which differ) into out,
    first and last index of each, cut where a whole 16-byte chunk between
    two changes is equal (hw/ssd1306.py _split's rule); returns how many
    bytes it wrote."""
    n = 0
    start = -1
    last = 0
    i = 0
    while i < w:
        if a[i] != b[i]:
            if start < 0:
                start = i
            elif (i >> 4) - (last >> 4) >= 2:
                out[n] = start
                out[n + 1] = last
                n += 2
                start = i
            last = i
        i += 1
    out[n] = start
    out[n + 1] = last
    return n + 2
