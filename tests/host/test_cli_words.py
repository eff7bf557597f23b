"""The tool's words, read by their output: `dicetray ...`
through dicetray.cli.main, against the real firmware (RamTrays:
tests/host/ramtray.py). Usage errors exit 2, device and data errors 1;
every error is one line."""
import json
import os
import re
import sys

import pytest

import ramtray
from ramtray import RamTray, play, serve

from dicetray import cli
from dicetray.backup import BackupStore
from dicetray.rules import campaign as cp


@pytest.fixture
def devs(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    d = {"hunt": play(RamTray(system=0, cid=4242), 40),
         "paths": play(RamTray(system=1, cid=77), 10),
         "exp": play(RamTray(system=2, cid=99), 10)}
    return serve(d, "hunt")


def tool(capsys, *argv, trays=None):
    code = trays.main(argv) if trays is not None else cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def usage(capsys, *argv, trays=None):
    """A usage error: exit 2, one line on stderr, nothing on stdout."""
    code, out, err = tool(capsys, *argv, trays=trays)
    assert code == 2 and out == "" and err.count("\n") == 1, (argv, code, out, err)
    return err


def acts(tray):
    """("act", kind, args, text) of every ACT the host sent the tray."""
    return [("act",) + a for a in ramtray.acts(tray)]


# --- bad arguments ------------------------------------------------------------

def test_an_unknown_option_is_named_not_a_missing_command(capsys):
    err = usage(capsys, "--frobnicate")
    assert "unknown option --frobnicate" in err and "required" not in err
    assert "--help and --version" in err


@pytest.mark.parametrize("argv,named,takes", [
    (["roll", "--frobnicate"], "--frobnicate", "--pool"),
    (["roll", "--pool", "3", "--frob"], "--frob", "--target"),
    (["backups", "--frob", "show", "1"], "--frob", "--db"),
    (["odds", "hunt", "--pool", "2", "--bogus"], "--bogus", "--versus"),
    (["export", "--fromat", "csv"], "--fromat", "--format"),
])
def test_an_unknown_option_of_a_command_is_named_first(capsys, argv, named, takes):
    err = usage(capsys, *argv)
    assert "unknown option %s" % named in err and takes in err, err
    assert "required" not in err and "missing" not in err


def test_a_near_miss_gets_a_suggestion(capsys):
    assert "(did you mean --format?)" in usage(capsys, "export", "--fromat", "csv")
    err = usage(capsys, "rol", "--pool", "3")
    assert "unknown command 'rol' (did you mean roll?)" in err
    assert "a COMMAND is needed: odds, rules, ports, status" in usage(capsys)


def test_argparse_words_become_the_tools(capsys):
    assert "--pool takes a whole number, not 'x'" in usage(capsys, "odds", "hunt", "--pool", "x")
    assert "--format 'xml' is not one of csv, json" in usage(capsys, "export", "--format", "xml")
    assert "missing ID2 (`dicetray backups diff --help`" in usage(capsys, "backups", "diff", "1")
    assert "unknown subcommand 'frob'" in usage(capsys, "backups", "frob")


def test_every_positional_argument_is_explained_in_help(capsys):
    for argv, names in ((["slash"], ["T", "K"]), (["unslash"], ["T", "K"]),
                        (["dice"], ["SIDES", "N"]), (["act"], ["KIND", "ARG"]),
                        (["restore"], ["ID"]), (["char"], ["NAME"]),
                        (["backups", "show"], ["ID"]), (["backups", "diff"], ["ID1", "ID2"])):
        code, out, _ = tool(capsys, *argv, "--help")
        assert code == 0
        usage_line = out.split("\n\n")[0]
        block = out.split("positional arguments:\n")[1].split("\n\n")[0]
        for name in names:
            assert re.search(r"\b%s\b" % name, usage_line), (argv, usage_line)
            line = [x for x in block.splitlines() if x.strip().startswith(name + " ")]
            assert line and len(line[0].split()) > 2, (argv, name, block)  # a word of help


# --- pool ranges: odds and roll agree with the rules core ---------------------

def test_roll_takes_every_hunt_pool_odds_takes(devs, capsys):
    # hunt: skill 0..3 + advantages 0..3 + divine agony 0..3 (the rules core's
    # action_pool); odds and roll take 0..9 and say so the same way
    e1 = usage(capsys, "odds", "hunt", "--pool", "10", trays=devs)
    e2 = usage(capsys, "roll", "--pool", "10", trays=devs)
    said = "--pool 10 is outside 0..9 for hunt (skill 0..3 + advantages 0..3 + divine agony 0..3"
    assert said in e1 and said in e2
    for n in range(0, 7):
        assert tool(capsys, "roll", "--pool", str(n), trays=devs)[0] == 0
        assert tool(capsys, "odds", "hunt", "--pool", str(n), trays=devs)[0] == 0
    # 7..9 are divine agony's: the exorcist's pathos gives the dice (max 3)
    assert "needs divine agony" in usage(capsys, "roll", "--pool", "9", trays=devs)
    dev = devs["hunt"]
    # At the table: a session ends (pathos and agony start over), Ada
    # witnesses three times (pathos 3), Bo once.
    dev.act(42)                                   # SESSION_END, event 48
    for i in (0, 0, 0, 1):
        dev.act(46, (i,))                         # WITNESS: pathos + 1, events 49..52
    assert dev.c.chars[0].v[4] == 3 and dev.c.chars[1].v[4] == 1   # hunt.PATHOS
    code, out, err = tool(capsys, "roll", "--pool", "9", "--char", "0", trays=devs)
    assert code == 0, err
    assert acts(dev)[-1][1:3] == (32, (0, 3, 3, 1, 0, 0, -1))
    assert out.startswith("event 53: Ada rolls 9d6 with divine agony: ")
    assert len(cp.codec.decode_event(dev.journal()[-1])[2]) == 9   # nine faces on the journal
    # not enough pathos: a data error naming what the character can roll
    code, out, err = tool(capsys, "roll", "--pool", "9", "--char", "1", trays=devs)
    assert code == 1 and "adds 1 die (pathos 1), so the most that character rolls is 7" in err


@pytest.mark.parametrize("system,port,lo,hi,ob,most", [("paths", "paths", 1, 20, 7, 14),
                                                         ("expedition", "exp", 1, 20, 30, 20)])
def test_roll_and_odds_share_the_other_ranges(devs, capsys, system, port, lo, hi, ob, most):
    for n in (lo - 1, hi + 1):
        e1 = usage(capsys, "odds", system, "--pool", str(n), trays=devs)
        e2 = usage(capsys, "roll", "--pool", str(n), "--port", port, trays=devs)
        msg = "--pool %d is outside %d..%d for %s (" % (n, lo, hi, system)
        assert msg in e1 and msg in e2
    assert tool(capsys, "roll", "--pool", str(most), "--port", port, trays=devs)[0] == 0
    if most < hi:  # paths: pools of 15..20 dice need helpers (the odds take them)
        e = usage(capsys, "roll", "--pool", str(most + 1), "--port", port, trays=devs)
        assert "at most 14 dice (Skill 6 + Path 6 + situation +2)" in e
    e = usage(capsys, "roll", "--pool", "3", "--target", str(ob + 1), "--port", port, trays=devs)
    assert "--target %d is outside 1..%d for %s (the " % (ob + 1, ob, system) in e
    assert tool(capsys, "roll", "--pool", "3", "--target", str(ob), "--port", port, trays=devs)[0] == 0


# --- options the device's system has no use for ------------------------------

@pytest.mark.parametrize("port,argv,said", [
    ("exp", ["rest", "1", "2", "3"],
     ["CODE arguments (1 2 3) are hunt's spend codes", "the device runs expedition",
      "--long", "--mask M"]),
    ("exp", ["turn", "--combat"],
     ["--combat is for hunt", "the device runs expedition", "--overland"]),
    ("exp", ["roll", "--pool", "3", "--hard"],
     ["--hard is for hunt", "the device runs expedition", "--target (the Obstacle)"]),
    ("exp", ["roll", "--pool", "3", "--tal", "0"], ["--tal is for hunt", "runs expedition"]),
    ("exp", ["roll", "--pool", "3", "--char", "0"], ["--char", "names no character"]),
    ("paths", ["roll", "--pool", "3", "--hard"], ["--hard is for hunt", "the device runs paths"]),
    ("hunt", ["rest", "--long"], ["--long is expedition's", "the device runs hunt",
                                  "2 spend codes per character"]),
    ("hunt", ["rest", "--mask", "1", "0", "0", "0", "0"], ["--mask is expedition's"]),
    ("hunt", ["turn", "--overland"], ["--overland is expedition's", "the device runs hunt",
                                      "--combat"]),
    ("paths", ["rest"], ["the device runs paths, which has no rest"]),
    ("paths", ["turn"], ["the device runs paths, which has no turns"]),
    ("exp", ["risk"], ["the device runs expedition, which has none"]),
])
def test_an_option_of_another_system_is_refused_not_ignored(devs, capsys, port, argv, said):
    before = len(acts(devs[port]))
    err = usage(capsys, *argv, "--port", port, trays=devs)
    for w in said:
        assert w in err, (w, err)
    assert len(acts(devs[port])) == before  # nothing was sent


def test_expedition_rest_and_turn_still_work(devs, capsys):
    assert tool(capsys, "rest", "--port", "exp", trays=devs)[0] == 0
    assert acts(devs["exp"])[-1][1:3] == (107, (0, 1))     # it occupies an Exploration Turn
    assert tool(capsys, "rest", "--no-turn", "--port", "exp", trays=devs)[0] == 0
    assert acts(devs["exp"])[-1][1:3] == (107, (0,))
    assert tool(capsys, "rest", "--long", "--port", "exp", trays=devs)[0] == 0
    assert acts(devs["exp"])[-1][1:3] == (108, ())
    code, out, _ = tool(capsys, "turn", "--overland", "--port", "exp", trays=devs)
    assert code == 0 and acts(devs["exp"])[-1][1:3] == (109, (2,))   # a check every turn
    assert "an overland turn" in out
    code, out, _ = tool(capsys, "turn", "--overland", "--safe", "--port", "exp", trays=devs)
    assert code == 0 and acts(devs["exp"])[-1][1:3] == (109, (1,))
    assert "an overland turn on the encounter countdown" in out


# --- sentences --------------------------------------------------------------------

def test_backup_says_what_it_holds_in_a_sentence(devs, capsys):
    code, out, _ = tool(capsys, "backup", trays=devs)
    assert code == 0
    assert out.strip() == ("backup 1 taken: campaign 4242 (hunt), events 1..40, all new; "
                           "40 events read from the device")
    play(devs["hunt"], 12, seed=4)
    code, out, _ = tool(capsys, "backup", trays=devs)
    # 13 read: the newest backup's last event comes again, to check it matches
    assert out.strip() == ("backup 2 taken: campaign 4242 (hunt), events 1..52, 12 of them "
                           "new; 13 events read from the device (1 already backed up, read "
                           "again to check the new ones follow on)")
    code, out, _ = tool(capsys, "backup", "--json", trays=devs)
    assert json.loads(out)["added"] == 0
    play(devs["hunt"], 1, seed=5)
    code, out, _ = tool(capsys, "backup", trays=devs)
    # It said "(1 new); 2 events read", which added up to nothing
    assert out.strip() == ("backup 3 taken: campaign 4242 (hunt), events 1..53, 1 of them new; "
                           "2 events read from the device (1 already backed up, read again to "
                           "check the new one follows on)")


def test_backups_list_an_empty_campaign_and_the_device(devs, capsys, monkeypatch):
    # A campaign with no events yet listed as "1..0", and
    # the list had no device column (two trays' backups looked alike).
    devs["new"] = RamTray(system=1, cid=777, name="tray-b")
    assert tool(capsys, "backup", "--port", "new", trays=devs)[0] == 0
    assert tool(capsys, "backup", trays=devs)[0] == 0
    code, out, _ = tool(capsys, "backups", trays=devs)
    head, new, hunt = out.splitlines()
    assert head.split() == ["ID", "CAMPAIGN", "SYSTEM", "DEVICE", "EVENTS", "CREATED", "NOTE"]
    assert new.split()[:5] == ["1", "777", "paths", "tray-b", "none"], new
    assert hunt.split()[:5] == ["2", "4242", "hunt", "ram-1", "1..40"], hunt


def test_articles_and_plurals(devs, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    assert tool(capsys, "backup", "--port", "exp", trays=devs)[0] == 0   # backup 1: expedition
    assert tool(capsys, "backup", trays=devs)[0] == 0                    # backup 2: hunt
    code, out, err = tool(capsys, "restore", "1", "--yes", trays=devs)
    assert code == 1 and "backup 1 is an expedition campaign and the device runs hunt" in err
    code, out, err = tool(capsys, "restore", "2", "--yes", "--port", "exp", trays=devs)
    assert code == 1 and "backup 2 is a hunt campaign and the device runs expedition" in err
    # a device of one event, a backup of one event
    one = devs["one"] = RamTray(system=0, cid=5)
    one.act(cp.CHAR_ADD, (), "Ada")
    assert tool(capsys, "backup", "--port", "one", trays=devs)[0] == 0    # backup 3
    code, out, _ = tool(capsys, "restore", "3", "--port", "one", "--dry-run", trays=devs)
    assert "campaign 5 (hunt), 1 event" in out and "1 event (1..1)" in out
    assert "0 tracker changes" in out and "1 events" not in out
    # one event of the older backup no longer in the newer one
    st = BackupStore(str(tmp_path / "home" / "backups.sqlite3"))
    one.act(cp.DICE, (6, 1))
    assert tool(capsys, "backup", "--port", "one", trays=devs)[0] == 0    # backup 4: events 1..2
    one.device().restore(*st.restore_payload(3))
    one.act(cp.DICE, (8, 1))
    assert tool(capsys, "backup", "--port", "one", trays=devs)[0] == 0    # backup 5: another event 2
    code, out, _ = tool(capsys, "backups", "diff", "4", "5", trays=devs)
    assert code == 0
    assert "the histories split after event 1: 1 event of backup 4 is not in backup 5:" in out
    assert "1 new event in backup 5:" in out
    code, out, _ = tool(capsys, "backups", "diff", "4", "3", trays=devs)
    assert "backup 3 ends at event 1: 1 event of backup 4 comes after it:" in out
    assert "no new events in backup 3" in out


def test_remote_actions_speak_in_words(devs, capsys):
    code, out, _ = tool(capsys, "roll", "--pool", "3", "--char", "0", "--hard", trays=devs)
    assert code == 0
    first = out.splitlines()[0]
    assert re.match(r"event 41: Ada rolls 3d6 \(hard\): [1-6] [1-6] [1-6], "
                    r"\d success(es)?, (success|failure)$", first), first
    assert "ROLL" not in out and "margin" not in out and "3D" not in out
    code, out, _ = tool(capsys, "undo", trays=devs)
    assert out.strip() == "event 42: undo: takes back Ada rolls 3d6 (hard)"
    code, out, _ = tool(capsys, "redo", trays=devs)
    assert out.startswith("event 43: redo: Ada rolls 3d6 (hard) again: ")
    code, out, _ = tool(capsys, "dice", "6", "2", trays=devs)
    assert re.match(r"event 44: free roll of 2d6: \d \d, total \d+$", out.strip())
    code, out, _ = tool(capsys, "roll", "--pool", "2", trays=devs)
    assert re.search(r"\d success(es)?, (success|failure)$", out.strip())
    code, out, _ = tool(capsys, "turn", trays=devs)
    assert out.startswith("event 46: the scene ends\n")


def test_status_names_what_was_compacted(devs, capsys):
    # A tray that keeps 10 events below its compaction floor, in small segments.
    tray = devs["hunt"] = play(RamTray(system=0, cid=4242, keep=10, roll=1), 40)
    first = tray.first()
    assert first > 1
    code, out, _ = tool(capsys, "status", "-v", trays=devs)
    assert "journal   it holds events %d..40: events 1..%d were compacted" % (first, first - 1) in out
