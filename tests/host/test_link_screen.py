"""SCREEN (issue 15, the hub's live page): what the tray shows, read over
the link from the real firmware on the simulator; a read that never takes
the place of the at-most-once answer cache."""

import json
import time

import pytest

import fbtext
from linkutil import Sim, write_flash

from dicetray.link import frame as fr
from dicetray.link.client import Device
from dicetray.rules import campaign as cp


@pytest.fixture(scope="module")
def dev(tmp_path_factory):
    flash = str(tmp_path_factory.mktemp("screen") / "flash")
    write_flash(flash, 5)               # a campaign: the home screen, not the first boot's keys
    sim = Sim(flash)
    d = Device.open(sim.port, timeout=3)
    yield d
    d.close()
    sim.stop()


def test_screen_is_the_framebuffer_and_the_ring(dev):
    s = dev.screen()
    assert (s["width"], s["height"]) == (128, 64)
    assert len(s["fb"]) == 1024 and len(s["leds"]) == 3 * 12
    shown = fbtext.text(s["fb"])
    assert shown.strip() and any(ch.isalpha() for ch in shown)    # the home screen, in words
    dev.act(cp.DICE, (6, 3))
    deadline = time.monotonic() + 10
    while fbtext.text(dev.screen()["fb"]) == shown and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fbtext.text(dev.screen()["fb"]) != shown                # the roll's result drawn


def test_a_screen_read_between_an_act_and_its_retry_applies_it_once(dev):
    before = dev.info()
    dev.seq += 1
    seq = dev.seq
    line = fr.encode(fr.ACT, seq, json.dumps({"kind": cp.DICE, "args": [6, 2]}).encode())
    answers = []
    for k in range(2):
        dev.t.write(line)
        deadline = time.monotonic() + 3
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
