"""SCREEN (the hub's live page): what the tray shows, read over
the link from the real firmware on the simulator; a read that never takes
the place of the at-most-once answer cache.

One simulator for the module; the last test ends it, to compare the last
SCREEN with the screenshot the simulator writes when its run ends."""

import json
import time

import pytest

import fbtext
from linkutil import HANG, Sim, wait_for, write_flash

from dicetray.link import frame as fr
from dicetray.link.client import Device, DeviceError
from dicetray.rules import campaign as cp
from dicetray.sim import png


@pytest.fixture(scope="module")
def tray(tmp_path_factory):
    d = tmp_path_factory.mktemp("screen")
    flash = str(d / "flash")
    write_flash(flash, 5)               # a campaign: the home screen, not the first boot's keys
    shot = str(d / "end.png")
    sim = Sim(flash, extra=["--screenshot", shot])
    dev = Device.open(sim.port, timeout=3)
    yield sim, dev, shot
    dev.close()
    sim.stop()


def settled(dev, same=60):
    """A SCREEN answer once `same` in a row agree (a roll's animation over).
    Counted in the tray's loop passes, not in wall time: while a host
    talks, every pass answers one request and paints the ring's next
    animation frame (ui/app.py), so a roll's frames are done within a few
    dozen answers however slow the machine is."""
    s, n = dev.screen(), 1
    while n < same:
        t = dev.screen()
        s, n = t, (n + 1 if t == s else 1)
    return s


def test_screen_is_the_framebuffer_and_the_ring(tray):
    dev = tray[1]
    s = dev.screen()
    assert (s["width"], s["height"]) == (128, 64)
    assert len(s["fb"]) == 1024 and len(s["leds"]) == 3 * 12
    # A request the boot's first pass answers comes before the first render
    # (App.step polls the link first): a blank screen, as the panel is then.
    assert wait_for(lambda: any(ch.isalpha() for ch in fbtext.text(dev.screen()["fb"])))
    shown = fbtext.text(dev.screen()["fb"])                        # the home screen, in words
    dev.act(cp.DICE, (6, 3))
    wait_for(lambda: fbtext.text(dev.screen()["fb"]) != shown)
    assert fbtext.text(dev.screen()["fb"]) != shown                # the roll's result drawn


def test_a_screen_read_between_an_act_and_its_retry_applies_it_once(tray):
    dev = tray[1]
    before = dev.info()
    dev.seq += 1
    seq = dev.seq
    line = fr.encode(fr.ACT, seq, json.dumps({"kind": cp.DICE, "args": [6, 2]}).encode())
    answers = []
    for k in range(2):
        dev.t.write(line)
        deadline = time.monotonic() + HANG
        f = dev._frame(deadline)
        while f is not None and f[1] != seq:
            f = dev._frame(deadline)
        assert f is not None and f[0] == fr.ACT | fr.ANSWER
        answers.append(f[2])
        if k == 0:
            dev.screen()             # the page's read, before the host's retry
    assert answers[0] == answers[1]
    after = dev.info()
    assert after["events"] == before["events"] + 1
    assert after["retried"] == before["retried"] + 1


def test_a_firmware_without_screen_is_told_to_upgrade(tray, monkeypatch):
    dev = tray[1]

    def old(typ, payload=b"", **kw):
        raise DeviceError("unknown request type %d: this firmware speaks protocol 2 "
                          "(upgrade the firmware if the host is newer)" % typ)
    monkeypatch.setattr(dev, "_request", old)
    with pytest.raises(DeviceError, match=r"no SCREEN request.*upgrade the firmware "
                                          r"\(dicetray deploy\)"):
        dev.screen()


def test_the_answer_is_what_the_simulator_shows(tray):
    """Last: it ends the simulator, whose screenshot at the end of its run
    is its panel (what the driver sent it) and its LEDs (what leds.write
    sent): they equal the last SCREEN of a settled screen."""
    sim, dev, shot = tray
    s = settled(dev)
    dev.close()
    sim.stop()
    with open(shot, "rb") as f:
        _w, _h, rows = png.decode(f.read())
    assert fbtext.from_png(shot) == s["fb"]
    n = len(s["leds"]) // 3
    for i in range(n):
        x, y = png.led_centre(i, n)
        assert rows[y][3 * x:3 * x + 3] == s["leds"][3 * i:3 * i + 3], "LED %d" % i
