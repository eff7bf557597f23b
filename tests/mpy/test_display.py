"""SSD1306 / SH1106 drivers: decoded I2C stream == framebuffer, dirty spans.

The drivers subclass framebuf.FrameBuffer, which exists only on MicroPython:
tests marked @micropython_only run on MicroPython: under tests/mpy_run.py and,
from pytest on CPython, through conftest.py. The decoder self-tests run on both.
"""
from i2cdecode import SH1106 as K_SH, SSD1306 as K_SSD, CountingI2C, Panel, RecordingI2C
from rules.dice import Dice
from support import raises, micropython_only

try:
    import framebuf
except ImportError:
    framebuf = None

if framebuf is not None:
    from hw.sh1106 import SH1106
    from hw.ssd1306 import SSD1306
    DRIVERS = ((SSD1306, K_SSD), (SH1106, K_SH))




def make(drv, kind):
    """A driver after its first frame (the whole panel sent, display on),
    the I2C log of it and a fresh controller model to play the log into."""
    i2c = RecordingI2C()
    d = drv(128, 64, i2c)
    d.show()
    panel = Panel(kind)
    return d, i2c, panel


def sync(d, i2c, panel):
    """show(), play the new transactions into the panel model, check pixels."""
    start = len(i2c.log)
    n = d.show()
    new = i2c.log[start:]
    panel.play(new)
    assert n == sum(len(b) for _, b in new) == d.last_bytes
    assert d.last_txns == len(new)
    assert panel.image() == d.buffer
    return new


def random_draw(d, dice, ops):
    for _ in range(ops):
        op = dice.d(7)
        x = dice.d(140) - 7  # some shapes hang off the edges: clipping
        y = dice.d(76) - 7
        c = dice.d(2) - 1
        if op == 1:
            d.pixel(x, y, c)
        elif op == 2:
            d.fill_rect(x, y, dice.d(20), dice.d(12), c)
        elif op == 3:
            d.line(x, y, dice.d(128) - 1, dice.d(64) - 1, c)
        elif op == 4:
            d.text("%d/%d" % (dice.d(12), dice.d(12)), x, y, c)
        elif op == 5:
            d.rect(x, y, dice.d(40), dice.d(30), c)
        elif op == 6:
            d.hline(x, y, dice.d(64), c)
        else:
            d.vline(x, y, dice.d(40), c)


# -- decoder self-tests (CPython and MicroPython) ----------------------------

def test_decoder_horizontal_window_wraps_inside_window():
    p = Panel(K_SSD)
    p.feed(bytes((0x00, 0x20, 0x00, 0x21, 10, 11, 0x22, 2, 3)))
    p.feed(bytes((0x40, 1, 2, 3, 4, 5)))  # 2x2 window, the 5th byte wraps to (10, page 2)
    img = p.image()
    assert (img[2 * 128 + 10], img[2 * 128 + 11], img[3 * 128 + 10], img[3 * 128 + 11]) == (5, 2, 3, 4)
    assert p.data_bytes == 5 and p.pixel(10, 16) == 1 and p.pixel(11, 16) == 0


def test_decoder_co_bit_and_sh1106_nibbles():
    p = Panel(K_SH)
    # Co=1 single commands, each followed by a new control byte, then data.
    p.feed(bytes((0x80, 0xB5, 0x80, 0x02 | 0x00, 0x80, 0x10 | 0x01, 0x40, 0xFF, 0x81)))
    img = p.image()
    assert img[5 * 128 + 16] == 0xFF and img[5 * 128 + 17] == 0x81  # RAM 18 = x 16
    assert p.ram[5 * 132 + 18] == 0xFF
    p.feed(bytes((0x00, 0xAF, 0x81, 0x10, 0xA7)))
    assert p.on and p.contrast == 0x10 and p.inverted


def test_decoder_is_strict():
    raises(ValueError, Panel(K_SSD).feed, bytes((0x00, 0x21, 0, 5)))  # window in page mode
    raises(ValueError, Panel(K_SH).feed, bytes((0x00, 0x20, 0x00)))     # SH1106 has no 0x20
    raises(ValueError, Panel(K_SSD).feed, bytes((0x01, 0xAF)))          # bad control byte
    raises(ValueError, Panel(K_SSD).feed, bytes((0x00, 0xF5)))          # unknown command
    p = Panel(K_SSD)
    raises(ValueError, p.feed, bytes((0x80, 0x81, 0x40, 0x00)))         # data before the parameter
    raises(OSError, RecordingI2C().writeto, 0x3D, b"\x00\xaf")          # no device there


# -- drivers (MicroPython) ---------------------------------------------------

@micropython_only
def test_init_keeps_the_panel_dark_until_the_first_frame():
    for drv, kind in DRIVERS:
        i2c = RecordingI2C()
        panel = Panel(kind)
        panel.ram[:] = b"\xa5" * len(panel.ram)  # power-up garbage
        d = drv(128, 64, i2c)
        panel.play(i2c.log)
        assert not panel.on and panel.data_bytes == 0   # configured, nothing sent, nothing lit
        d.text("hi", 0, 0)
        n = len(i2c.log)
        d.show()
        panel.play(i2c.log[n:])
        assert panel.on and not panel.inverted          # lit once the whole frame is in
        assert panel.image() == d.buffer and panel.data_bytes == 1024
        assert d.last_bytes == (1088 if kind == K_SSD else 1064) and d.last_txns == 16
        assert isinstance(d, framebuf.FrameBuffer)


@micropython_only
def test_random_drawing_full_and_partial_updates_decode_to_the_frame():
    for drv, kind in DRIVERS:
        dice = Dice(2024)
        d, i2c, panel = make(drv, kind)
        panel.play(i2c.log)
        for rnd in range(40):
            random_draw(d, dice, 1 + rnd % 6)
            sync(d, i2c, panel)
        d.fill(1)  # a full-frame change
        sync(d, i2c, panel)
        assert panel.data_bytes >= 2048
        d.scroll(3, -2)
        sync(d, i2c, panel)
        for x in range(128):  # pixel-level cross-check, not just bytes
            for y in (0, 17, 40, 63):
                assert panel.pixel(x, y) == d.pixel(x, y)


@micropython_only
def test_one_pixel_sends_one_column_of_one_page():
    for drv, kind in DRIVERS:
        d, i2c, panel = make(drv, kind)
        panel.play(i2c.log)
        d.pixel(100, 20, 1)
        new = sync(d, i2c, panel)
        cmd = 7 if kind == K_SSD else 4
        assert [len(b) for _, b in new] == [cmd, 2]
        if kind == K_SSD:
            assert new[0][1] == bytes((0x00, 0x21, 100, 100, 0x22, 2, 2))
        else:
            assert new[0][1] == bytes((0x00, 0xB2, (102 & 15), 0x10 | (102 >> 4)))
        assert new[1][1] == bytes((0x40, 0x10))
        for x in (0, 15, 16, 127):  # chunk and panel edges
            d.pixel(x, 40, 1)
            new = sync(d, i2c, panel)
            assert [len(b) for _, b in new] == [cmd, 2]
            if kind == K_SSD:
                assert new[0][1][2:4] == bytes((x, x))
        # A span: first and last changed columns of each page, nothing
        # outside; cut where a whole 16-column chunk between is unchanged
        # (its 16 bytes cost more than a second window command).
        d.pixel(5, 3, 1)
        d.pixel(20, 6, 1)     # the next chunk: one span, 5..20
        d.pixel(30, 62, 1)
        new = sync(d, i2c, panel)
        assert [len(b) for _, b in new] == [cmd, 17, cmd, 2]
        d.pixel(5, 3, 0)
        d.pixel(60, 6, 1)     # chunks 1 and 2 unchanged: 5, then 60 alone
        d.pixel(100, 1, 1)    # chunks 4 and 5 unchanged too: 100 alone
        d.pixel(127, 1, 1)    # ...with 127: chunks 6 and 7, one span
        new = sync(d, i2c, panel)
        assert [len(b) for _, b in new] == [cmd, 2, cmd, 2, cmd, 29]
        if kind == K_SSD:
            assert [b[2:4] for _, b in new[::2]] == [bytes((5, 5)), bytes((60, 60)), bytes((100, 127))]


@micropython_only
def test_nothing_changed_sends_nothing():
    for drv, kind in DRIVERS:
        d, i2c, panel = make(drv, kind)
        n = len(i2c.log)
        assert d.show() == 0 and len(i2c.log) == n and d.last_bytes == 0
        d.pixel(7, 7, 1)
        d.pixel(7, 7, 0)  # changed and changed back: still nothing to send
        assert d.show() == 0 and len(i2c.log) == n


@micropython_only
def test_show_allocates_nothing_idle_or_with_warm_spans():
    import micropython
    for drv, kind in DRIVERS:
        i2c = CountingI2C()
        d = drv(128, 64, i2c)
        d.text("12", 0, 0, 1)
        d.show()  # first use of this span length makes its view
        d.text("12", 0, 0, 0)
        d.show()
        before = i2c.nbytes
        micropython.heap_lock()
        try:
            idle = d.show()
            d.text("12", 0, 0, 1)  # the span warmed up above
            busy = d.show()
            d.fill(1)
            full = d.show()
        finally:
            micropython.heap_unlock()
        assert idle == 0
        assert busy > 0 and full > busy
        assert i2c.nbytes - before == busy + full


@micropython_only
def test_contrast_invert_power_and_invalidate():
    for drv, kind in DRIVERS:
        d, i2c, panel = make(drv, kind)
        d.contrast(200)
        d.invert(1)
        d.poweroff()
        panel.play(i2c.log)
        assert panel.contrast == 200 and panel.inverted and not panel.on
        raises(ValueError, d.contrast, 256)
        d.poweron()
        d.invert(0)
        panel.play(i2c.log[-2:])
        assert panel.on and not panel.inverted
        d.invalidate()
        new = sync(d, i2c, panel)  # an unchanged frame, but the panel is unknown: resend
        assert len(new) == 16 and d.last_bytes >= 8 * 129
        assert d.bytes_total == i2c.sent()
