"""A roll's frame through the real display driver (hw/ssd1306.py) over a
recording I2C, on the firmware's session on the flash simulator: the
result's head row (what is rolled, no die of it) goes to the panel while
the roll is made durable, every row of dice only after the event's commit,
a page as its row is drawn; the panel then holds the frame. MicroPython
only (framebuf); the board's DMA path is tests/board/test_frames.py."""

from hw.keys import K_ROLL
from i2cdecode import RecordingI2C, Panel, SSD1306 as K_SSD
from support import micropython_only
from ui.buttons import PRESS
from fakeapp import flash, FlashBoard


class NotingI2C(RecordingI2C):
    """Each transaction with the flash's commit count when it was sent."""

    def __init__(self, fs):
        RecordingI2C.__init__(self)
        self.fs = fs
        self.commits = []

    def writeto(self, addr, buf, stop=True):
        self.commits.append(self.fs.commits)
        return RecordingI2C.writeto(self, addr, buf, stop)


def _boot(fs, i2c):
    import session
    from hw.ssd1306 import SSD1306
    from ui import app as uiapp
    b = FlashBoard(fs)
    b.display = SSD1306(128, 64, i2c)
    s = session.Session(b)
    a = uiapp.App(b, s)
    a.render()
    return a, s


def _warm(a):
    """The boot's idle moments: the pending file opened, the pool made."""
    while not a.warm:
        assert a.b.now < 5000
        a.b.now += a.step()


def _pages(i2c, start):
    """(page, commits) of each window command sent from transaction `start`."""
    out = []
    for i in range(start, len(i2c.log)):
        t = i2c.log[i][1]
        if len(t) == 7 and t[0] == 0 and t[1] == 0x21:
            out.append((t[5], i2c.commits[i]))
    return out


@micropython_only
def test_the_head_goes_out_while_the_roll_is_made_durable_and_the_dice_after():
    fs = flash()
    i2c = NotingI2C(fs)
    a, s = _boot(fs, i2c)
    s.set_bright(3)                       # past the first run's tour
    a, s = _boot(fs, i2c)
    _warm(a)
    seq, commits, n = s.st.seq, fs.commits, len(i2c.log)
    a.handle(K_ROLL, PRESS)
    a.render()
    assert s.st.seq == seq + 1, (s.st.seq, seq)
    assert fs.commits == commits + 1, (fs.commits, commits)
    sent = _pages(i2c, n)
    k = sum(1 for _, c in sent if c == commits)
    # RESULT and the pool (its changed spans) before the commit, the rest after.
    assert k >= 1 and all(p == 0 for p, _ in sent[:k]), sent
    assert len(sent) > k + 2 and all(c == commits + 1 for _, c in sent[k:]), sent
    assert [p for p, _ in sent] == sorted(p for p, _ in sent), sent  # a row's page as it is drawn
    panel = Panel(K_SSD)
    panel.play(i2c.log)
    assert panel.image() == a.fb.buffer


@micropython_only
def test_a_refused_roll_draws_its_refusal_over_the_head():
    fs = flash()
    i2c = NotingI2C(fs)
    a, s = _boot(fs, i2c)
    s.set_bright(3)
    a, s = _boot(fs, i2c)

    def refuse(kind, args=(), text="", faces=None):
        raise ValueError("no dice to roll")

    s.do = refuse
    a.handle(K_ROLL, PRESS)
    a.render()
    assert a.top().title == "REFUSED"
    panel = Panel(K_SSD)
    panel.play(i2c.log)
    assert panel.image() == a.fb.buffer
