"""The device/backup subcommands against the real firmware (a RamTray:
tests/host/ramtray.py): output, --json, exit statuses (0 / 1 device or
data / 2 usage), restore safety, watch."""
import json
import os
import sys

import pytest

from ramtray import RamTray, play, serve

from dicetray import cli
from dicetray.ops import actions
from dicetray.rules import campaign as cp, core


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    return serve({"dev": play(RamTray(system=0, cid=4242), 40)})


def run(trays, capsys, *argv):
    code = trays.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_status_json(env, capsys):
    code, out, err = run(env, capsys, "status", "--json")
    d = json.loads(out)
    assert code == 0 and d["events"] == 40 and d["system"] == "hunt" and d["campaign"] == 4242
    assert d["firmware"] == "0.1.0" and d["first"] == 1 and d["keep"] == 6000
    assert d["head"] == env["dev"].head.hex() and d["device"] == "ram-1"


def test_status_says_campaign_events_last_backup_and_health_in_words(env, capsys):
    # Status is for people; the internals (a chain head of
    # hex, the scrub's verdict, heap bytes, protocol and schema numbers)
    # only under -v and --json.
    code, out, err = run(env, capsys, "status")
    lines = out.splitlines()
    assert code == 0 and [x.split()[0] for x in lines] == ["device", "campaign", "backup", "health"]
    assert lines[0] == "device    ram-1: on ram:ram-1"
    assert lines[1] == "campaign  4242 (hunt), 40 events"
    assert lines[2] == "backup    none of this campaign yet: `dicetray backup` takes one"
    assert lines[3].startswith("health    good")
    head = env["dev"].head.hex()
    for internal in (head, "scrub", "heap", "protocol", "schema", "when idle it is"):
        assert internal not in out, internal
    assert run(env, capsys, "backup")[0] == 0
    code, out, err = run(env, capsys, "status")
    assert "backup    backup 1, taken " in out and "(just now): it holds every event the device has" in out
    play(env["dev"], 2, seed=5)
    code, out, err = run(env, capsys, "status")
    assert "the device has 2 events since: `dicetray backup` takes them" in out
    code, out, err = run(env, capsys, "status", "-v")
    assert "chain     %s" % env["dev"].head.hex() in out and "firmware  0.1.0 (protocol" in out
    assert "scrub     " in out
    code, out, err = run(env, capsys, "status", "--json")
    d = json.loads(out)
    assert d["health"] == "good" and d["last_backup"]["backup"] == 1 and d["last_backup"]["last"] == 40
    assert d["head"] == env["dev"].head.hex() and d["events"] == 42


def test_status_words():
    from dicetray.cli.status import backup_words, health_words
    b = {"backup": 3, "last": 40, "created": 1767300000}
    assert backup_words(b, 41, now=1767300000 + 7200).endswith(
        "(2 hours ago): the device has 1 event since: `dicetray backup` takes it")
    assert backup_words(b, 12, now=1767300000 + 3 * 86400).endswith(
        "(3 days ago): it holds 40 events, more than the device's 12 (an older backup restored "
        "onto it)")
    assert health_words({"scrub": {"cycles": 0}})[1].startswith("good so far: nothing damaged found")
    assert health_words({"scrub": {"cycles": 1, "chain": [1, 9]}})[1].endswith("(once since it booted)")
    word, said = health_words({"scrub": {"cycles": 3, "broken": True}})
    assert word == "damaged" and "does not hold its hash chain" in said and "restoring" in said
    word, said = health_words({"damage": ["events 3..4 of the journal are damaged"]})
    assert word == "damaged" and "(below)" in said


def test_backup_then_list_show_diff(env, capsys):
    assert run(env, capsys, "backup")[0] == 0
    code, out, _ = run(env, capsys, "backup")
    assert code == 0 and "no change since backup 1" in out
    play(env["dev"], 12, seed=4)
    code, out, _ = run(env, capsys, "backup", "--json")
    d = json.loads(out)
    assert d["backup"] == 2 and d["new"] and d["fetched"] == 13 and d["last"] == 52
    code, out, _ = run(env, capsys, "backups", "--json")
    assert [b["id"] for b in json.loads(out)["backups"]] == [1, 2]
    code, out, _ = run(env, capsys, "backups", "show", "2")
    assert code == 0 and "campaign 4242 (hunt" in out and "char 0 Ada" in out and "Tension" in out
    code, out, _ = run(env, capsys, "backups", "diff", "1", "2", "--json")
    d = json.loads(out)
    assert [e["seq"] for e in d["events"]] == list(range(41, 53)) and d["dropped"] == 0
    code, out, _ = run(env, capsys, "backups", "show", "9")
    assert code == 1


def test_remote_actions(env, capsys):
    code, out, _ = run(env, capsys, "roll", "--pool", "3", "--char", "0")
    assert code == 0 and out.startswith("event 41: Ada rolls 3d6: ") and "success" in out
    code, out, err = run(env, capsys, "slash", "17")
    assert code == 1 and "refused by the device: no talisman number 17" in err
    assert "; its talismans: 0 Pressure, 1 Tension, 2 Sin, 3 Stress, 4 Stress\n" in err
    code, out, err = run(env, capsys, "act", "WITNESS", "5")
    assert code == 1 and "no character number 5; its characters: 0 Ada, 1 Bo\n" in err
    code, out, _ = run(env, capsys, "undo", "--json")
    assert code == 0 and json.loads(out)["seq"] == 42
    code, out, err = run(env, capsys, "roll", "--pool", "12")
    assert code == 2 and "--pool 12 is outside 0..9 for hunt" in err
    code, out, err = run(env, capsys, "rest")  # hunt: 2 codes per character needed
    assert code == 1 and "REST takes 2 spend codes" in err
    assert run(env, capsys, "turn")[0] == 0
    code, out, _ = run(env, capsys, "act", "FACE", "5")
    assert code == 0 and env["dev"].c.x[0] == 5
    assert run(env, capsys, "roll")[0] == 2  # --pool is required


def test_roll_maps_to_each_system(env, capsys):
    for system, kind in ((1, 64), (2, 96)):
        env["dev"] = play(RamTray(system=system), 5)
        code, out, _ = run(env, capsys, "roll", "--pool", "4", "--target", "2", "--json")
        assert code == 0 and json.loads(out)["kind"] == kind and env["dev"].nevents == 6
        assert cp.codec.decode_event(env["dev"].journal()[-1])[0] == kind
        code, out, err = run(env, capsys, "roll", "--pool", "4", "--hard")
        assert code == 2 and "--hard is for hunt" in err
    assert actions.roll_event(2, 15) == (96, (10, 1, 2, 0, 1, 0, 0, -1))
    assert actions.roll_event(2, 1, 3) == (96, (0, 3, 0, 1, 0, 0, 0, -1))
    assert actions.roll_event(1, 9, 3, char=1) == (64, (1, 6, 3, 0, 0, 3, 0))
    assert actions.roll_event(0, 0) == (32, (-1, 0, 0, 0, 0, 0, -1))


def test_roll_target_verdict_is_the_rules_cores(env, capsys):
    # One verdict everywhere. hunt's roll is a success on
    # one success (the rules), so a --target of successes needed, a verdict
    # only the CLI had, is refused before anything is rolled.
    dev = env["dev"]
    code, out, err = run(env, capsys, "roll", "--pool", "2", "--target", "2")
    assert code == 2 and not out and dev.nevents == 40
    assert "a hunt roll takes no target" in err and "--tal T" in err
    # paths and expedition judge a roll against --target in the rules core:
    # what `roll` prints is what the export of the stored event says
    for port, system, target in (("p", 1, 3), ("e", 2, 4)):
        env[port] = play(RamTray(system=system), 3)
        said = {}
        for pool in (1, 2, 3, 4, 5, 6, 8, 10):
            code, out, _ = run(env, capsys, "roll", "--pool", str(pool), "--target",
                               str(target), "--port", port)
            assert code == 0, out
            seq, line = out.split("\n")[0].split(": ", 1)
            said[int(seq.split()[1])] = line.rsplit(", ", 1)[-1]
        code, out, _ = run(env, capsys, "export", "--format", "json", "--port", port)
        stored = {e["seq"]: e["outcome"]["verdict"] for e in json.loads(out)["events"]
                  if e["seq"] in said}
        assert {s: v for s, v in said.items()} == stored and set(stored.values()) == {
            "success", "failure"}
    code, out, _ = run(env, capsys, "roll", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "paths the difficulty 1..7" in text and "expedition the Obstacle 1..30" in text
    assert "hunt takes none: a roll succeeds on one success" in text


def test_restore_safety_and_verification(env, capsys, monkeypatch, tmp_path):
    assert run(env, capsys, "backup")[0] == 0
    fresh = env["other"] = RamTray(system=0, cid=1)
    before = fresh.snapshot()

    def staged(tray):   # a restore's first request (R_BEGIN) makes the next slot's nN/
        return [d for d in tray.fs.dirs if d.startswith("/dicetray/n")]
    # no tty, no --yes: refused, nothing sent
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    code, out, err = run(env, capsys, "restore", "1", "--port", "other")
    assert code == 1 and "--yes" in err and fresh.snapshot() == before and not staged(fresh)
    code, out, err = run(env, capsys, "restore", "1", "--port", "other", "--dry-run")
    assert code == 0 and "dry run" in out and "backup  1: campaign 4242" in out
    assert fresh.snapshot() == before and not staged(fresh) and fresh.s.n == 1
    code, out, err = run(env, capsys, "restore", "1", "--port", "other", "--yes")
    assert code == 0 and "verified" in out
    assert fresh.journal() == env["dev"].journal() and fresh.s.n == 2   # the next slot
    assert fresh.state() == env["dev"].state() and fresh.snapshot() == env["dev"].snapshot()
    assert fresh.head == env["dev"].head
    # another rule system: refused unless forced
    paths = env["p"] = RamTray(system=1)
    code, out, err = run(env, capsys, "restore", "1", "--port", "p", "--yes")
    assert code == 1 and "--force-system" in err and paths.c.system == 1
    code, out, err = run(env, capsys, "restore", "1", "--port", "p", "--yes", "--force-system")
    assert code == 0 and paths.c.system == 0
    # a device that answers the restore but does not hold it (its flash
    # reads back another first event, in a record whose checks all pass): detected
    bad = env["bad"] = RamTray(system=0)
    device = bad.device

    def lossy_device(*a, **kw):
        dev = device(*a, **kw)
        restore = dev.restore

        def lossy(*a, **kw):
            info = restore(*a, **kw)
            bad.replace_event(1, cp.codec.encode_event(cp.CHAR_ADD, (), b"", "Eve"))
            return info
        dev.restore = lossy
        return dev
    bad.device = lossy_device
    code, out, err = run(env, capsys, "restore", "1", "--port", "bad", "--yes")
    assert code == 1 and "did not verify" in err
    assert "its events 1..40 differ from the backup's" in err


def _slots(tray):
    """The tray's slot table: (slot, campaign id, system, events), the current one starred."""
    return [(n, cid, sysno, events, "*" if n == tray.s.n else "")
            for n, cid, sysno, events, _b, _k, _name in tray.s.campaigns()[0]]


def test_restore_says_what_it_does_to_each_slot_and_does_it(env, capsys):
    # The restore said the device's campaign "goes" while it
    # stayed, and a campaign already on the device appeared in two slots.
    # Now: the restored campaign becomes the current one in the next slot;
    # its copies go (never a duplicate); every other campaign keeps its slot.
    assert run(env, capsys, "backup")[0] == 0           # backup 1: campaign 4242, 40 events
    t = env["t"] = RamTray(system=0, cid=77)           # slot 1: campaign 77, no events
    assert run(env, capsys, "restore", "1", "--port", "t", "--yes")[0] == 0
    assert _slots(t) == [(1, 77, 0, 0, ""), (2, 4242, 0, 40, "*")]
    t.b._cid = 99                                       # the tray's next new campaign id
    assert run(env, capsys, "campaigns", "new", "expedition", "--port", "t", "--yes")[0] == 0
    before = [(1, 77, 0, 0, ""), (2, 4242, 0, 40, ""), (3, 99, 2, 0, "*")]
    assert _slots(t) == before
    # the case that failed: a hunt backup onto a tray running expedition, whose slot 2
    # holds the same campaign
    code, out, err = run(env, capsys, "restore", "1", "--port", "t", "--dry-run", "--force-system")
    assert code == 0 and _slots(t) == before, err
    assert "the restored campaign becomes the device's current one, in slot 4" in out
    assert ("slot 2 holds another copy of campaign 4242 (40 events): the restore replaces it"
            in out)
    assert ("the device's current campaign 99 (expedition, 0 events) stays on the device in "
            "slot 3 (`dicetray campaigns switch 3` goes back to it)" in out)
    assert "slot 1 keeps its campaign" in out
    assert " go (" not in out and "go (a different campaign)" not in out
    code, out, err = run(env, capsys, "restore", "1", "--port", "t", "--yes", "--force-system")
    assert code == 0, err
    assert _slots(t) == [(1, 77, 0, 0, ""), (3, 99, 2, 0, ""), (4, 4242, 0, 40, "*")]
    assert ("slots: the restored campaign is the current one, in slot 4; the copy it replaced "
            "in slot 2 is deleted; campaign 77 (hunt, 0 events) stays in slot 1; campaign 99 "
            "(expedition, 0 events) stays in slot 3\n") in out
    # the device's own campaign restored (played on after the backup): its
    # current copy is replaced, the three events after the backup discarded
    dev = env["dev"]
    play(dev, 3, seed=6)
    code, out, err = run(env, capsys, "restore", "1", "--dry-run")
    assert "slot 1 holds the device's current copy of campaign 4242 (43 events): the restore " \
        "replaces it" in out
    assert "the device's 3 events after event 40 are not in backup 1 and would be discarded" in out
    assert "warning: the device's current campaign is in no backup" in out
    assert run(env, capsys, "restore", "1", "--yes")[0] == 0
    assert _slots(dev) == [(2, 4242, 0, 40, "*")] and dev.c.nevents == 40


def test_watch_plain_lines_and_ctrl_c(env, capsys):
    dev = env["dev"]
    # While the watcher waits, the table rolls three times (the tray pushes
    # each event), then Ctrl-C.

    def ctrl_c():
        raise KeyboardInterrupt
    dev.idle = [lambda: dev.act(cp.DICE, (6, 2))] * 3 + [ctrl_c]
    code, out, err = run(env, capsys, "watch")
    lines = out.splitlines()
    assert code == 130 and lines[0].startswith("watching campaign 4242 (hunt) from event 40")
    assert len(lines) == 4 and "free roll of 2d6: " in lines[1] and lines[1].split()[0] == "41"
    assert [x.split()[0] for x in lines[1:]] == ["41", "42", "43"] and "total" in lines[1]
    assert dev.devices[-1].t.closed and not dev.link.sub   # unsubscribed, closed


def test_watch_screen_starts_with_the_trackers_and_last_rolls(env, capsys, monkeypatch):
    # On a terminal, watch shows the tray's trackers (in
    # the order its home screen lists them) and its last rolls at once, in
    # 80x24 without a line wrapping or scrolling away.
    from dicetray.cli import watch
    dev = env["dev"]

    def ctrl_c():
        raise KeyboardInterrupt
    dev.idle = [ctrl_c]
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(watch.shutil, "get_terminal_size", lambda: os.terminal_size((80, 24)))
    code, out, _ = run(env, capsys, "watch")
    screen = out.split("\x1b[H\x1b[2J")[-1].rstrip("\n").splitlines()
    assert code == 130 and len(screen) <= 24 and max(map(len, screen)) < 80, screen
    assert "(waiting for the table)" not in out
    rolls = screen[screen.index("last rolls:") + 1:]
    assert len(rolls) >= 3 and [int(x.split()[0]) for x in rolls] == list(range(41 - len(rolls), 41))
    code, doc, _ = run(env, capsys, "export", "--format", "json")
    last = json.loads(doc)["events"][-1]
    assert rolls[-1].split(None, 1)[1].startswith(last["summary"])   # the export's words
    home = [row.split()[0] for row in dev.b.display.rows[1:4]]       # the tray's home screen
    assert home == ["Tension", "Pressure", "Sin"]
    assert [x.split()[2] for x in screen[2:5]] == home, screen


def test_errors_are_one_line(env, capsys, monkeypatch):
    code, out, err = run(env, capsys, "backups", "diff", "1")
    assert code == 2 and err.count("\n") == 1
    code, out, err = run(env, capsys, "export", "--format", "xml")
    assert code == 2 and "--format 'xml' is not one of csv, json" in err
    code, out, err = run(env, capsys, "backups", "show", "3")
    assert code == 1 and "no backup 3" in err and err.count("\n") == 1


def test_device_error_exit_1(capsys):
    class DeviceError(Exception):
        pass

    def boom(port, timeout, **kw):
        raise DeviceError("no Dicetray found: plug one in or give --port")
    code = cli.main(["status"], open_device=boom)
    out, err = capsys.readouterr()
    assert code == 1 and "no Dicetray found" in err and err.count("\n") == 1


def test_deploy_dry_run_is_delegated(env, capsys, monkeypatch):
    import types
    seen = []
    fake = types.ModuleType("tools.deploy")
    fake.main = lambda argv: seen.append(argv) or 0
    monkeypatch.setitem(sys.modules, "tools.deploy", fake)
    import tools
    monkeypatch.setattr(tools, "deploy", fake, raising=False)
    assert run(env, capsys, "deploy", "--port", "/dev/ttyACM0", "--dry-run")[0] == 0
    assert seen == [["/dev/ttyACM0", "--dry-run"]]


def test_ports_lists_running_simulators(tmp_path, monkeypatch, capsys):
    import json
    import os
    from dicetray import cli
    from dicetray.link import ports
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path))
    assert cli.main(["ports", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    pty = tmp_path / "pts"
    pty.write_text("")
    ports.register_sim(str(pty), os.getpid())  # this process stands in for a simulator
    assert cli.main(["ports", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert [(p["port"], p["kind"]) for p in got] == [(str(pty), "sim")]
    # Each says what it is and where its flash is.
    flash = tmp_path / "boardflash"
    ports.register_sim(str(pty), os.getpid(), "board", str(flash))
    ports.register_sim("http://127.0.0.1:8017/", os.getppid(), "web")   # a live pid of another
    assert cli.main(["ports"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sorted(out) == sorted([
        "%-20s sim  emulated RP2040 board (pid %d), flash folder %s" % (pty, os.getpid(), flash),
        "http://127.0.0.1:8017/ web  web page simulator (pid %d): its firmware and flash are in "
        "the browser that opened it" % os.getppid()]), out
    assert cli.main(["ports", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert sorted((p["kind"], p["simulator"], p["flash"]) for p in got) == [
        ("sim", "emulated RP2040 board", str(flash)), ("web", "web page simulator", None)]
    assert [p.device for p in ports.find() if p.kind != "usb"] == [str(pty)]   # no command reaches a page


def test_restore_longer_than_the_device_keeps(env, capsys):
    # A backup of 200 events onto a device that keeps 50
    # is done and verified, saying what the device holds and what it cannot.
    play(env["dev"], 160, seed=9)
    assert run(env, capsys, "backup")[0] == 0
    # A tray that keeps 50 events below its compaction floor, in segments
    # of about a dozen events (so it compacts in a few dozen, not thousands).
    small = env["small"] = RamTray(system=0, cid=1, keep=50, roll=256)
    code, out, err = run(env, capsys, "restore", "1", "--port", "small", "--dry-run")
    assert code == 0 and "keeps about its last 50 events" in out and "events 1..150" in out
    code, out, err = run(env, capsys, "restore", "1", "--port", "small", "--yes")
    assert code == 0, err
    held = small.first()           # compacted whole segments at a time, as the store does
    assert 100 < held <= 151
    assert "state after event 200 verified" in out
    assert "the device holds events %d..200, verified one by one" % held in out
    assert "events 1..%d are in backup 1 only" % (held - 1) in out
    assert small.journal() == env["dev"].journal()[held - 1:]
    assert small.state() == env["dev"].state()


def test_restore_of_a_baseline_says_it_sends_no_events(env, capsys):
    # A backup taken after the device compacted starts from its snapshot
    # at the head: restoring it sends that state and no events, and says so
    # (it said "verified (state and events)").
    # A tray that compacted its journal (it keeps 10 events below its
    # floor, in small segments) before the first backup.
    dev = env["dev"] = play(RamTray(system=0, cid=4242, keep=10, roll=1), 40)
    first = dev.first()
    assert first > 1
    assert run(env, capsys, "backup")[0] == 0
    fresh = env["fresh"] = RamTray(system=0, cid=1)
    code, out, err = run(env, capsys, "restore", "1", "--port", "fresh", "--yes")
    assert code == 0, err
    assert "the device will hold the state after event 40 and no events" in out
    assert "events %d..40 stay in backup 1 only" % first in out
    assert "the device holds no events (backup 1 has none after its snapshot at 40)" in out
    assert "state and events" not in out
    assert fresh.state() == dev.state() and fresh.snapshot() == dev.snapshot()
    assert fresh.first() == 41 and fresh.head == dev.head


def test_restore_dry_run_names_the_events_it_would_discard(env, capsys):
    assert run(env, capsys, "backup")[0] == 0
    dev = env["dev"]
    dev.act(cp.DICE, (6, 2))
    dev.act(cp.CHAR_ADD, (), "Cy")
    code, out, err = run(env, capsys, "restore", "1", "--dry-run")
    assert code == 0, err
    assert "the device's 2 events after event 40 are not in backup 1 and would be discarded:" in out
    assert "  event 41: " in out and "  event 42: " in out and "Cy" in out
    assert "nothing sent, the device is unchanged" in out and dev.c.nevents == 42
    env["other"] = play(RamTray(system=0, cid=77), 5)
    code, out, err = run(env, capsys, "restore", "1", "--port", "other", "--dry-run")
    assert code == 0 and "the device's current campaign 77 (hunt, 5 events) stays on the " \
        "device in slot 1" in out


def test_rename_and_the_name_limits_said_up_front(env, capsys):
    # Renaming from the tool; a name outside the limits is
    # refused in the rules' words before anything is sent.
    code, out, err = run(env, capsys, "rename", "char", "0", "Adeline")
    assert code == 0 and "Ada is now Adeline" in out and env["dev"].c.chars[0].name == "Adeline"
    talisman = env["dev"].c.tals[0].name
    code, out, err = run(env, capsys, "rename", "tal", "0", "Dread")
    assert code == 0 and env["dev"].c.tals[0].name == "Dread" and talisman != "Dread"
    n = env["dev"].c.nevents
    for bad in ("x" * 500, "Zo\u00eb", " Bo"):
        for argv in (("char", bad), ("rename", "char", "0", bad)):
            code, out, err = run(env, capsys, *argv)
            assert code == 2 and core.NAME_RULE in err and "frame" not in err, (argv, err)
    assert env["dev"].c.nevents == n                     # nothing sent
    code, out, err = run(env, capsys, "rename", "char", "9", "Bo")
    assert code == 1 and "no character number 9" in err
    code, out, err = run(env, capsys, "char", "--help")
    assert code == 0 and "1 to 12 characters" in out


# --- a restore cut short says whether it took -------------------

def _cut(tray, when, typ, fault):
    """tray.device, whose Device meets `fault` (an exception class) at the
    first request of type `typ`: 'before' it reaches the tray, or 'after'."""
    from dicetray.link import frame as fr
    device = tray.device

    def opened(*a, **kw):
        dev = device(*a, **kw)
        t = dev.t
        write, read = t.write, t.read
        dead = []

        def cut_write(data):
            if dead:
                raise fault("the port went away")
            if fr.decode(bytes(data).strip()[1:])[0] != typ:
                return write(data)
            if when == "after":
                write(data)
            if fault is KeyboardInterrupt:
                raise KeyboardInterrupt
            dead.append(1)    # the link lost from here on, both ways
            raise fault("the port went away")

        def cut_read(timeout):
            if dead:
                raise fault("the port went away")
            return read(timeout)
        t.write, t.read = cut_write, cut_read
        return dev
    tray.device = opened


@pytest.mark.parametrize("when, typ, took, said", [
    ("after", "R_COMMIT", True, "the restore took: the device holds backup 1 (campaign 4242, 40 "
                                "events); `dicetray verify --backup 1` checks it event by event"),
    ("before", "R_COMMIT", False, "the restore was not done: the device answers that it still "
                                  "holds its old campaign 1 (0 events); run the restore again"),
    ("before", "R_EVENTS", False, "the restore was not done: the device was never told to swap "
                                  "backup 1 in, so it holds its old campaign 1"),
])
def test_a_restore_cut_short_by_ctrl_c_says_whether_it_took(env, capsys, when, typ, took, said):
    """On main the line only said the device holds one or the other."""
    from dicetray.link import frame as fr
    assert run(env, capsys, "backup")[0] == 0
    fresh = env["other"] = RamTray(system=0, cid=1)
    before = fresh.snapshot()
    _cut(fresh, when, getattr(fr, typ), KeyboardInterrupt)
    code, out, err = run(env, capsys, "restore", "1", "--port", "other", "--yes")
    assert code == 130 and err.count("\n") == 1, err
    assert err.startswith("dicetray restore: interrupted (Ctrl-C): " + said), err
    if took:
        assert fresh.journal() == env["dev"].journal() and fresh.state() == env["dev"].state()
    else:
        assert fresh.snapshot() == before and fresh.s.n == 1


def test_a_restore_whose_link_is_lost_after_the_swap_was_asked_says_how_to_check(env, capsys):
    from dicetray.link import frame as fr
    from dicetray.link.transport import TransportError
    assert run(env, capsys, "backup")[0] == 0
    fresh = env["other"] = RamTray(system=0, cid=1)
    _cut(fresh, "after", fr.R_COMMIT, TransportError)
    code, out, err = run(env, capsys, "restore", "1", "--port", "other", "--yes")
    assert code == 1 and err.count("\n") == 1, err
    assert "the device was told to swap backup 1 in and could not be asked since: it holds " \
           "backup 1 or its old campaign 1, nothing in between" in err
    assert "`dicetray verify --backup 1` says whether the device holds it" in err


def test_port_first_keeps_what_follows_a_double_dash_as_arguments(env, capsys):
    """`dicetray --port P char -- -x`: the moved --port
    goes before the `--`; on main it went after, an argument, refused."""
    other = env["other"] = RamTray(system=0, cid=7)
    code, out, err = run(env, capsys, "--port", "other", "char", "--", "-x")
    assert (code, err) == (0, "") and out == "event 1: -x joins\n"
    code, out, err = run(env, capsys, "--port=other", "rename", "char", "0", "--", "--port")
    assert (code, err) == (0, "") and [c.name for c in other.c.chars] == ["--port"]
    assert [c.name for c in env["dev"].c.chars] == ["Ada", "Bo"]
