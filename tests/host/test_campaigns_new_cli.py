"""`dicetray campaigns new SYSTEM [--name NAME]`: a new
campaign started from the host, staged and swapped in as the device's own
Settings > New campaign does, the old one kept in its slot; against the
real firmware in this process (a RamTray: tests/host/ramtray.py). The
simulator and the hub: test_campaigns_sim.py and test_hub.py."""
import json
import os
import sys

import pytest

from ramtray import Loopback, RamTray, play, serve

from dicetray.link import frame as fr
from dicetray.link.client import Device, DeviceError
from dicetray.rules import campaign as cp


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    return serve({"dev": play(RamTray(system=0, cid=4242), 10)})


def run(trays, capsys, *argv):
    code = trays.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def news(tray):
    return [p for typ, p in tray.requests if typ == fr.NEW]


def test_a_new_campaign_from_the_host(env, capsys):
    tray = env["dev"]
    old = tray.state()
    tray.b._cid = 5151                                            # the id the tray draws next
    code, out, err = run(env, capsys, "campaigns", "new", "expedition", "--name", "Westmarch",
                         "--yes")
    assert code == 0, err
    c = tray.c
    assert (tray.s.n, c.system, c.name, c.nevents, c.cid) == (2, 2, "Westmarch", 1, 5151)
    assert "now: slot 1, campaign 4242 (hunt, 10 events" in out
    assert ("new campaign %d Westmarch (expedition) is the current one, slot 2; campaign 4242 "
            "stays on flash as slot 1 (`dicetray campaigns switch 1` goes back)" % c.cid) in out
    assert tray.app.toast == "New campaign"                       # the tray's own screen: home
    assert json.loads(news(tray)[0]) == {"system": 2, "name": "Westmarch", "from": 1}
    code, out, err = run(env, capsys, "campaigns", "--json")
    slots = json.loads(out)["slots"]
    assert [(t["slot"], t["campaign"], t["system"], t["events"], t["name"]) for t in slots] == [
        (1, 4242, "hunt", 10, ""), (2, c.cid, "expedition", 1, "Westmarch")]
    code, out, err = run(env, capsys, "campaigns")
    lines = out.splitlines()
    assert lines[0].split() == ["SLOT", "CAMPAIGN", "SYSTEM", "EVENTS", "FLASH", "NAME"]
    assert lines[2].split()[:5] == ["*", "2", str(c.cid), "expedition", "1"]
    assert lines[2].split()[-1] == "Westmarch"
    code, out, err = run(env, capsys, "status")
    assert "campaign  %d Westmarch (expedition), 1 event" % c.cid in out
    tray.boot()                                                   # a power cycle keeps it
    assert (tray.s.n, tray.c.name, tray.c.nevents) == (2, "Westmarch", 1)
    code, out, err = run(env, capsys, "campaigns", "switch", "1")  # and the old one is whole
    assert code == 0 and tray.state() == old
    # Unnamed, --json: as the device's Settings makes one (no event).
    code, out, err = run(env, capsys, "campaigns", "new", "paths", "--yes", "--json")
    d = json.loads(out)
    assert code == 0 and (d["system"], d["name"], d["events"], d["slot"]) == ("paths", "", 0, 4)


def test_what_is_wrong_is_refused_cleanly(env, capsys, monkeypatch):
    tray = env["dev"]
    before = tray.state()
    code, out, err = run(env, capsys, "campaigns", "new", "chess", "--yes")
    assert code == 2 and err.strip() == (
        "dicetray campaigns: error: unknown rule system 'chess': choose hunt, paths or expedition")
    code, out, err = run(env, capsys, "campaigns", "new", "hunt", "--name", "A name too long",
                         "--yes")
    assert code == 2 and "--name: a name is 1 to 12 characters" in err and "'A name too long' has 15 characters" in err
    code, out, err = run(env, capsys, "campaigns", "new", "hunt", "--name", "caf\u00e9", "--yes")
    assert code == 2 and "the screen cannot draw it" in err
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    code, out, err = run(env, capsys, "campaigns", "new", "hunt")
    assert code == 1 and "refusing to start a new campaign without confirmation" in err
    assert "add --yes" in err
    assert not news(tray) and tray.state() == before and tray.s.n == 1
    # The device refuses what the host would not send, in its own words.
    dev = tray.device()
    with pytest.raises(DeviceError, match="rule system 5 is not 0 hunt, 1 paths or 2 expedition"):
        dev.new_campaign(5)
    with pytest.raises(DeviceError, match="the campaign's name: a name is 1 to 12 characters"):
        dev.new_campaign(0, "A name too long")
    with pytest.raises(DeviceError, match="NEW needs JSON"):
        dev._request(fr.NEW, b"[1]")
    with pytest.raises(DeviceError, match="NEW system must be an int"):
        dev._request(fr.NEW, json.dumps({"system": "hunt"}).encode())
    assert tray.state() == before and tray.s.n == 1
    assert [t[0] for t in tray.s.campaigns()[0]] == [1]


class ResetAfterNew(Loopback):
    """The tray applies the first NEW, then resets before its answer
    leaves (the answer cache goes with the app): the host hears nothing
    and sends NEW again, the same bytes, to the tray booted afresh."""

    def __init__(self, tray):
        Loopback.__init__(self, tray)
        self.reset = False

    def write(self, data):
        Loopback.write(self, data)
        if not self.reset and self.tray.requests[-1][0] == fr.NEW:
            self.reset = True
            self.tray.pump()                 # applied, on flash; its answer lost...
            self.tray.boot()                 # ...with the power


def test_at_most_once_when_the_answer_is_lost_in_a_reset(env):
    tray = env["dev"]
    dev = Device(ResetAfterNew(tray), 0.2)
    dev.hello()
    info = dev.new_campaign(1, "Once")
    assert dev.t.reset and len(news(tray)) == 2                   # sent twice...
    assert [t[0] for t in tray.s.campaigns()[0]] == [1, 2]        # ...made once
    assert (info["slot"], info["system"], info["name"], info["campaign"]) == (
        2, "paths", "Once", tray.c.cid)
    # Someone else's new campaign meanwhile is not taken for ours.
    dev = Device(ResetAfterNew(tray), 0.2)
    dev.hello()
    dev.t.reset = True
    was = dev.info()["slot"]
    tray.s.new_campaign(0)                                        # at the table, after INFO
    dev.info = lambda: dict(Device.info(dev), slot=was)           # the host's view, from before
    with pytest.raises(DeviceError, match="current campaign changed .* nothing was made"):
        dev.new_campaign(2, "Late")
    assert [t[0] for t in tray.s.campaigns()[0]] == [1, 2, 3]


def test_a_campaign_named_on_the_tray_folds_the_same_on_the_host(env, capsys, tmp_path):
    """The name is event 1: a backup folds the journal from event 1 and
    meets the device's state (which holds the name), byte for byte."""
    tray = env["dev"]
    assert run(env, capsys, "campaigns", "new", "expedition", "--name", "Westmarch", "--yes")[0] == 0
    play(tray, 5)
    db = str(tmp_path / "b.sqlite3")
    code, out, err = run(env, capsys, "backup", "--db", db, "--json")
    assert code == 0, err
    assert json.loads(out)["last"] == 6
    c = cp.replay(2, tray.journal(), tray.c.cid)
    assert cp.encode_state(c) == tray.state() and c.name == "Westmarch"
    code, out, err = run(env, capsys, "export", "--db", db, "--format", "json")
    assert code == 0, err
    first = json.loads(out)["events"][0]
    assert (first["seq"], first["summary"]) == (1, "the campaign is named Westmarch")


def test_a_firmware_without_new_is_told_to_upgrade(env, monkeypatch):
    import link.frame as fw_frame    # the tray's own (ramtray imports the firmware as a board does)
    monkeypatch.setattr(fw_frame, "NEW", 0x7F)   # as a firmware before NEW: an unknown request
    dev = env["dev"].device()
    with pytest.raises(DeviceError, match=r"this firmware cannot start a campaign for the host "
                                          r"\(it answers: unknown request type 23.*upgrade the firmware"):
        dev.new_campaign(1)
    assert env["dev"].s.n == 1
