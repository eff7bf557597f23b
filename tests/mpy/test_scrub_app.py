"""The journal's background scrub seen from the session and the app:
a real session on simulated flash with a flipped
bit in an old journal record a snapshot covers; the boot says nothing, the
app's idle passes step the scrub every SCRUB_MS of the board's clock and
show what it finds as the boot's damage is shown, once. Runs on CPython
and on MicroPython (tests/mpy_run.py)."""

from store import journal
from fakeapp import played_flash


def _offsets(img):
    """File offsets where each record starts (storesession.record_offsets:
    a copy, since importing that module turns the collector off here)."""
    out = []
    i = 0
    while i < len(img):
        out.append(i)
        i += journal.HDR + (img[i] | (img[i + 1] << 8))
    return out


def _flip_old(fs, at=10):
    root = "/dicetray/c1"
    names = sorted(nm for nm in fs.listdir(root) if nm.endswith(".log"))
    assert len(names) >= 2, names
    img = fs.files[root + "/" + names[0]]
    img[_offsets(img)[at] + journal.HDR + 1] ^= 0x08
    return names


def test_the_session_reports_scrub_damage_once_and_the_app_shows_it():
    from fakeapp import boot, press
    from hw.keys import K_BACK
    from ui import app as uiapp
    fs = played_flash(200)                          # j0 holds 1..176, snapshots cover it
    names = _flip_old(fs)
    end = int(names[1][1:9], 16)
    a, b, s = boot(fs)
    assert s.warnings == [] and b.display.rows[0].startswith("HUNT")   # the boot says nothing
    assert a.stack[-1].__class__.__name__ == "Home"
    home = list(b.display.rows)
    # Idle passes: nothing before SCRUB_MS, then one segment every SCRUB_MS.
    passes = 0
    while b.now < uiapp.SCRUB_MS - uiapp.IDLE_MS:
        b.idle(a.step())
        passes += 1
    assert len(a.stack) == 1 and b.display.rows == home and s.warnings == []
    while b.now < uiapp.SCRUB_MS + 100:
        b.idle(a.step())
    a.render()
    assert len(a.stack) == 2 and len(s.warnings) == 1
    title, text = s.warnings[0]
    assert title == "STORE DAMAGE" and text.startswith("events 11..%d of the journal are damaged" % end), text
    assert names[0] in text and "dicetray backup keeps what is intact" in text
    assert b.display.rows[0].startswith("STORE DAMAGE"), b.display.rows
    press(a, K_BACK)                                   # closed as the boot's are
    assert len(a.stack) == 1
    # Later cycles find the same damage again: it is not reported again.
    for k in range(3 * len(names) + 2):
        b.now += uiapp.SCRUB_MS
        b.idle(a.step())
    assert len(a.stack) == 1 and len(s.warnings) == 1
    # The session's own call: None once reported.
    for k in range(len(names) + 1):
        assert s.scrub() is None


def test_the_scrub_waits_for_idle_and_survives_the_clock_wrap():
    from fakeapp import boot
    from ui import app as uiapp
    from ui.buttons import ticks_add
    fs = played_flash(3)
    a, b, s = boot(fs)
    calls = []
    real = s.scrub

    def counted():
        calls.append(b.now)
        return real()
    a.scrub = counted
    # Just before the ticks wrap at 2**30: the scrub keeps its pace across it.
    b.now = (1 << 30) - 7000
    a.scrub_at = ticks_add(b.now, uiapp.SCRUB_MS)
    while len(calls) < 3:
        b.idle(a.step())
        assert b.now < (1 << 30) + 20000
        b.now &= (1 << 30) - 1
    assert [((calls[i + 1] - calls[i]) & ((1 << 30) - 1)) // 100 for i in range(2)] == [50, 50], calls
    # A key puts it off by SCRUB_MS: it runs when the table is quiet.
    from hw.keys import K_DOWN
    from ui.buttons import ticks_diff
    k = len(calls)
    b.raw = K_DOWN
    for i in range(10):
        b.idle(a.step())
    b.raw = 0
    for i in range(10):
        b.idle(a.step())
    assert len(calls) == k and ticks_diff(a.scrub_at, b.now) > uiapp.SCRUB_MS - 400
    # A pass with something to draw puts it off to the next quiet one.
    b.now = ticks_add(a.scrub_at, 1)
    k = len(calls)
    a.dirty = True
    a.step()
    assert len(calls) == k
    a.step()
    assert len(calls) == k + 1
