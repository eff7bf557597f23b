"""Board profiles (hw/pico.py, hw/macropad.py) on fake machine/neopixel
modules, the encoder decoder, the SH1106 SPI transport and the self-test.

Runs on MicroPython (tests/mpy_run.py) and CPython (pytest). The fakes go
into sys.modules only while a test runs (`Fakes`), so other test files see
the real modules (or their absence) as before.
"""

from hw import pins
from hw.keys import ALL, K_BACK, K_DOWN, K_LEFT, K_OK, K_RIGHT, K_ROLL, K_UP, NAMES
from support import micropython_only, raises
from fakeboards import FakeDisplay, FakeMachine, FakeNeoPixel, Fakes, level, make
from ui.buttons import PRESS, RELEASE, Buttons


# --- pico ----------------------------------------------------------------------------
def test_pico_builds_mask_from_pin_values():
    f = Fakes()
    try:
        b = make("pico")
        assert b.name == "pico"
        assert b.keys() == 0  # pull-ups: nothing pressed
        for sig, g, kind, use in pins.PICO:
            if kind != "key":
                continue
            made = FakeMachine.made[g]
            assert made.mode == FakeMachine.Pin.IN and made.pull == FakeMachine.Pin.PULL_UP
            level(g, 0)
            assert b.keys() == 1 << NAMES.index(use), (sig, b.keys())
            level(g, 1)
        # The spec's pins, bit by bit (hwspec: UP GP10 ... ROLL GP16).
        want = ((10, K_UP), (11, K_DOWN), (12, K_LEFT), (13, K_RIGHT), (14, K_OK),
                (15, K_BACK), (16, K_ROLL))
        for g, bit in want:
            level(g, 0)
        assert b.keys() == ALL
        level(14, 1)
        assert b.keys() == ALL & ~K_OK
    finally:
        f.restore()


def test_pico_ring_and_i2c_pins():
    f = Fakes()
    try:
        b = make("pico")
        np = FakeNeoPixel.made[-1]
        assert np.pin.id == 22 and np.n == 12 and b.leds.n == 12
        rgb = bytearray(36)
        rgb[0], rgb[1], rgb[2] = 10, 20, 30
        rgb[33], rgb[34], rgb[35] = 1, 2, 3
        b.leds.write(rgb)
        assert np.buf[0:3] == bytes((20, 10, 30))  # GRB on the wire
        assert np.buf[33:36] == bytes((2, 1, 3)) and np.writes == 1
    finally:
        f.restore()


def test_pico_no_display_is_a_clear_error():
    f = Fakes()
    try:
        FakeMachine.I2C.devices = []
        from hw.pico import Board
        e = raises(RuntimeError, Board)
        assert "GP4 SDA" in str(e) and "GP5 SCL" in str(e)
        assert FakeMachine.log[0] == ("I2C", 0, 4, 5, 400000)
    finally:
        f.restore()


def test_pico_seed_is_small_int():
    f = Fakes()
    try:
        b = make("pico")
        import hw.pico as hp

        class Os:
            data = b"\xff\xff\xff\xff"

            def urandom(self, n):
                assert n == 4
                return self.data
        real = hp.os
        hp.os = Os()
        try:
            assert b.seed() == (1 << 30) - 1  # all ones, masked to a small int
            hp.os.data = b"\x01\x02\x03\x04"
            assert b.seed() == 0x04030201
        finally:
            hp.os = real
    finally:
        f.restore()


def test_pico_campaign_ids_differ_by_chip_for_the_same_entropy():
    # Emulated boards share their ring oscillator's bits
    # (a --seed); a campaign id (Session._cid takes entropy()) is mixed
    # with the flash chip's unique id, so two chips draw two ids.
    f = Fakes()
    try:
        import hw.pico as hp

        class Os:
            def urandom(self, n):
                return b"\x01\x02\x03\x04"   # the same bits on every board
        real = hp.os
        hp.os = Os()
        try:
            ids = []
            for uid in ("e6614103e7452d2f", "e6614103e7452d30", "e6614103e7452d2f"):
                b = make("pico")
                b.unique_id = lambda uid=uid: uid
                assert b.seed() == 0x04030201     # the dice's seed is not touched
                ids.append(b.entropy())
            assert ids[0] != ids[1] and ids[0] == ids[2]
            assert all(0 <= i < 1 << 30 for i in ids)
        finally:
            hp.os = real
    finally:
        f.restore()


@micropython_only
def test_pico_display_drivers():
    """ssd1306 by default, sh1106 from /config.txt's display= line."""
    f = Fakes()
    try:
        b = make("pico", real_display=True)
        from hw.ssd1306 import SSD1306
        from hw.sh1106 import SH1106
        assert type(b.display) is SSD1306
        import hw.pico as hp
        old = hp.config
        hp.config = lambda key, default=None, opener=None: "sh1106" if key == "display" else default
        try:
            b = make("pico", real_display=True)
        finally:
            hp.config = old
        assert type(b.display) is SH1106
    finally:
        f.restore()


@micropython_only
def test_pico_i2c_clock_from_config():
    """i2c= in /config.txt sets the OLED's clock (a roll's frame
    in 9 ms at 1 MHz); anything but 100 kHz..1 MHz keeps 400 kHz."""
    f = Fakes()
    try:
        got = []
        for text in (None, "1000000", "100000", "2000000", "fast", "99999"):
            import hw.pico as hp
            old = hp.config
            hp.config = lambda key, default=None, opener=None, t=text: t if key == "i2c" else default
            try:
                FakeMachine.log = []
                make("pico", real_display=True)
            finally:
                hp.config = old
            got.append([e[4] for e in FakeMachine.log if e[0] == "I2C"][-1])
        assert got == [400000, 1000000, 100000, 400000, 400000, 400000], got
    finally:
        f.restore()


def test_pico_i2c_clock_text():
    from hw.pico import i2c_hz
    assert i2c_hz("250000", 7) == 250000 and i2c_hz("", 7) == 7 and i2c_hz(None, 7) == 7
    assert i2c_hz("1000001", 7) == 7 and i2c_hz(" 1000000 ", 7) == 1000000


def test_config_reader():
    from hw.pico import config

    class F:
        def __init__(self, s):
            self.s = s

        def read(self):
            return self.s

        def close(self):
            pass

    def opener(text):
        def o(path, mode):
            assert path == "/config.txt"
            if text is None:
                raise OSError(2)
            return F(text)
        return o

    assert config("display", "ssd1306", opener("board=pico\n display = x\ndisplay=sh1106\n")) \
        == "sh1106"
    assert config("display", "ssd1306", opener(None)) == "ssd1306"
    assert config("encoder", "1", opener("encoder=\n")) == "1"


# --- macropad: encoder ------------------------------------------------------------------
CW = ((0, 1), (0, 0), (1, 0), (1, 1))    # from rest 11, one detent clockwise
CCW = ((1, 0), (0, 0), (0, 1), (1, 1))


def test_encoder_counts_detents_and_cancels_bounce():
    from hw.macropad import Encoder
    e = Encoder()
    got = [e.update(a, b) for a, b in CW]
    assert got == [0, 0, 0, 1] and e.pos == 1
    for a, b in CCW + CCW:
        e.update(a, b)
    assert e.pos == -1
    # Bounce on the first edge (11 <-> 01 a few times), then the detent.
    for a, b in ((0, 1), (1, 1), (0, 1), (1, 1), (0, 1), (0, 0), (1, 0), (1, 1)):
        e.update(a, b)
    assert e.pos == 0
    # Half a detent and back: nothing.
    for a, b in ((0, 1), (0, 0), (0, 1), (1, 1)):
        e.update(a, b)
    assert e.pos == 0
    r = Encoder(sign=-1)
    for a, b in CW:
        r.update(a, b)
    assert r.pos == -1


def turn(b, seq):
    """Drive the encoder lines through seq, firing the pin IRQs as a board would."""
    ga = pins.gpio(pins.MACROPAD, "ENC_A")
    gb = pins.gpio(pins.MACROPAD, "ENC_B")
    for a, bb in seq:
        changed = FakeMachine.levels[ga] != a
        level(ga, a)
        level(gb, bb)
        pin = FakeMachine.made[ga if changed else gb]
        pin.handler(pin)


def events(b, bt, ms, step=20, out=None):
    """Poll keys() + Buttons every `step` ms for `ms` ms; returns [(key, kind)]."""
    out = [] if out is None else out
    for _ in range(ms // step):
        n = bt.update(b.keys(), b.now)
        for i in range(n):
            ev = bt.q[i]
            out.append((ev & 0xFF, ev >> 8))
        b.now += step
    return out


def presses(evs):
    return [k for k, kind in evs if kind == PRESS]


def test_macropad_pins_and_ring():
    f = Fakes()
    try:
        b = make("macropad")
        assert b.name == "macropad"
        np = FakeNeoPixel.made[-1]
        assert np.pin.id == 19 and np.n == 12 and b.leds.n == 12
        assert FakeMachine.levels[14] == 0  # speaker amplifier kept off
        ea = FakeMachine.made[17]
        assert ea.handler is not None and FakeMachine.made[18].handler is not None
        # Keys: GP1..GP12, with the functions of the pin map.
        want = {1: K_BACK, 2: K_UP, 4: K_LEFT, 5: K_OK, 6: K_RIGHT, 8: K_DOWN,
                10: K_ROLL, 11: K_ROLL, 12: K_ROLL}
        for g in range(1, 13):
            level(g, 0)
            assert b.keys() == want.get(g, 0), g
            level(g, 1)
    finally:
        f.restore()


def test_macropad_encoder_steps_become_key_presses():
    for step in (20, 40, 10):  # the app polls every 20 ms, 40 during animations
        f = Fakes()
        try:
            b = make("macropad")
            bt = Buttons()
            assert events(b, bt, 200, step) == []
            turn(b, CW)
            evs = events(b, bt, 400, step)
            assert presses(evs) == [K_DOWN], (step, evs)
            assert (K_DOWN, RELEASE) in evs
            turn(b, CCW + CCW + CCW)
            evs = events(b, bt, 1000, step)
            assert presses(evs) == [K_UP, K_UP, K_UP], (step, evs)
            assert b.encoder() == -2
        finally:
            f.restore()


def test_macropad_push_turn_and_tap():
    f = Fakes()
    try:
        b = make("macropad")
        bt = Buttons()
        sw = pins.gpio(pins.MACROPAD, "ENC_SW")
        events(b, bt, 100)
        # Push and turn: RIGHT / LEFT, and no OK on release.
        level(sw, 0)
        evs = events(b, bt, 100)
        turn(b, CW + CW)
        events(b, bt, 600, out=evs)
        turn(b, CCW)
        events(b, bt, 300, out=evs)
        level(sw, 1)
        events(b, bt, 300, out=evs)
        assert presses(evs) == [K_RIGHT, K_RIGHT, K_LEFT], evs
        # A tap: OK.
        level(sw, 0)
        evs = events(b, bt, 100)
        level(sw, 1)
        events(b, bt, 300, out=evs)
        assert presses(evs) == [K_OK], evs
        # A one-poll glitch on the switch is ignored.
        level(sw, 0)
        evs = events(b, bt, 20)
        level(sw, 1)
        events(b, bt, 300, out=evs)
        assert presses(evs) == [], evs
    finally:
        f.restore()


def test_macropad_fast_spin_is_bounded():
    f = Fakes()
    try:
        b = make("macropad")
        bt = Buttons()
        turn(b, CW * 10)
        evs = events(b, bt, 2000)
        from hw.macropad import QLEN
        assert presses(evs) == [K_DOWN] * QLEN
        assert b.encoder() == 10
    finally:
        f.restore()


@micropython_only
def test_macropad_spi_display():
    """SH1106 over SPI: bus and pins, and the panel model sees the frame."""
    from i2cdecode import SH1106 as K_SH, Panel
    f = Fakes()
    try:
        b = make("macropad", real_display=True)
        assert ("SPI", 1, 10000000, 0, 0, 26, 27, 28) in FakeMachine.log
        d = b.display
        d.show()  # the first frame: every page, then display on
        panel = Panel(K_SH)
        spi = d.spi
        for dc, data in spi.frames:
            panel.feed(bytes((0x40 if dc else 0x00,)) + data)
        assert panel.image() == d.buffer and panel.on
        d.text("MacroPad", 10, 20, 1)
        d.pixel(127, 63, 1)
        start = len(spi.frames)
        d.show()
        for dc, data in spi.frames[start:]:
            panel.feed(bytes((0x40 if dc else 0x00,)) + data)
        assert panel.image() == d.buffer
        assert panel.pixel(127, 63) == 1
        assert FakeMachine.levels[22] == 1  # CS released after each frame
    finally:
        f.restore()


@micropython_only
def test_sh1106_spi_show_allocates_nothing_in_steady_state():
    import micropython
    from hw.sh1106 import SH1106_SPI

    class CountSPI:
        n = 0

        def write(self, buf):
            self.n += len(buf)

    class P:
        OUT = 1

        def init(self, mode, value=0):
            pass

        def __call__(self, v=None):
            pass

    spi = CountSPI()
    d = SH1106_SPI(128, 64, spi, P(), P(), P())
    for k in range(3):  # warm up the span views
        d.fill_rect(8, 8, 16, 8, k & 1)
        d.show()
    micropython.heap_lock()
    try:
        for k in range(4):
            d.fill_rect(8, 8, 16, 8, k & 1)
            d.show()
    finally:
        micropython.heap_unlock()
    assert spi.n > 0


# --- self-test ---------------------------------------------------------------------------
class ScriptBoard:
    """A board whose keys follow a script of (ms, mask); idle() moves time."""

    def __init__(self, script):
        self.t = 0
        self.script = script
        self.display = FakeDisplay()
        from hw.leds import NullLeds
        self.leds = NullLeds(12)
        self.frames = []

    def ticks_ms(self):
        return self.t

    def keys(self):
        m = 0
        for ms, mask in self.script:
            if ms <= self.t:
                m = mask
        return m

    def idle(self, ms):
        self.t += ms
        self.frames.append(bytes(self.leds.last))
        if self.t > 60000:
            raise AssertionError("self-test did not finish")


def test_selftest_passes_after_every_key_and_led():
    from ui import selftest
    script = [(0, 0)]
    t = 2500
    for i in range(7):
        script.append((t, 1 << i))
        script.append((t + 100, 0))
        t += 300
    b = ScriptBoard(script)
    assert selftest.run(b) is True
    # Not before the LEDs went round once (3 colours x 12 LEDs x 100 ms).
    assert b.t >= 3 * 12 * selftest.LED_MS
    # Every LED showed red, green and blue at some point; all off at the end.
    seen = set()
    for fr in b.frames:
        for i in range(12):
            c = fr[3 * i:3 * i + 3]
            if c[0] and not c[1] and not c[2]:
                seen.add((i, 0))
            if c[1] and not c[0] and not c[2]:
                seen.add((i, 1))
            if c[2] and not c[0] and not c[1]:
                seen.add((i, 2))
    assert len(seen) == 36
    assert b.leds.last == bytearray(36)


def test_selftest_shows_held_key_names_and_back_exits():
    from ui import selftest
    b = ScriptBoard([(0, 0), (2500, K_ROLL), (2700, 0), (3000, K_BACK)])
    held = []
    show = b.display.show

    def spy():
        for s, c in b.display.texts:
            if c == 0:  # inverted text: a held key
                held.append(s.strip("* "))
        show()
    b.display.show = spy
    assert selftest.run(b) is False
    assert "ROLL" in held and "BACK" in held
    assert b.t < 4000



# --- the app's debounce: a board's switches keep 20 ms, clean keys take none ----
def _app(b):
    """The app (ui/app.py) over board b, its display a text grid, idle on home."""
    from fakefb import FakeFB
    from fakeapp import RamSession
    from ui.app import App
    b.display = FakeFB()
    a = App(b, RamSession())
    a.step()
    return a


def test_the_boards_switches_keep_the_20_ms_debounce():
    """A key from a board's switch is taken only after 20 ms of a stable
    contact, through the app as it runs there (the web page's
    clean keys take none, and no board with switches changes)."""
    for kind, pinmap in (("pico", pins.PICO), ("macropad", pins.MACROPAD)):
        f = Fakes()
        try:
            b = make(kind)
            assert not hasattr(b, "debounce"), kind
            a = _app(b)
            assert a.buttons.debounce == 20, kind
            g = [p for p, bit in pins.keys(pinmap) if bit == K_DOWN][0]
            # DOWN's switch closes at 0, bounces open at 10, closes again
            # at 12 and holds: stable from 12, not taken at 31 (19 ms), taken
            # at 32 (20 ms), where the menu moves: the one redraw.
            drawn = []
            for t, v in ((0, 0), (10, 1), (12, 0), (25, 0), (31, 0), (32, 0), (40, 0)):
                b.now = t
                level(g, v)
                n = a.fb.shows
                a.step()
                drawn.append(a.fb.shows - n)
            assert drawn == [0, 0, 0, 0, 0, 1, 0], (kind, drawn)
        finally:
            f.restore()


def test_a_board_with_clean_keys_takes_a_key_at_the_step_that_sees_it():
    """A board that says `debounce = 0` (the web page's in real time: its
    keys are events, and the page steps the app on each) has a key taken
    and drawn by the very step that first sees it, and a tap seen by two
    steps in the same ms is a press (a board with switches: none)."""
    from fakeapp import FakeBoard

    class Clean(FakeBoard):
        debounce = 0

    for board, want in ((Clean(), 1), (FakeBoard(), 0)):
        a = _app(board)
        n, sel = a.fb.shows, list(a.fb.inv)
        board.raw = K_DOWN
        a.step()                    # the same ms: taken and drawn
        assert a.fb.shows - n == want and (a.fb.inv != sel) == bool(want)
        board.raw = 0
        a.step()
        # OK (taken on release: a long press is something else) down and
        # up in the same ms: the menu's row opens; Back the same: home
        for k in (K_OK, K_BACK):
            board.raw = k
            a.step()
            board.raw = 0
            a.step()
            assert (type(a.top()).__name__ != "Home") == (k == K_OK and want == 1)
    assert Clean.debounce == 0 and a.buttons.debounce == 20
