"""The table hub: `dicetray serve` holds every tray's
port and serves every other command through its local socket; the real
firmware on desktop simulators, the real commands in subprocesses."""

import json
import re
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from dicetray.ops.actions import roll_event
from dicetray.link import hubclient
from dicetray.hub import server
from dicetray.link import wire
from dicetray.hub.server import Hub
from dicetray.link.client import DeviceError
from dicetray.rules import codec

from linkutil import ROOT, Sim, wait_for


def dicetray(home, *argv, timeout=120):
    """`dicetray ARGV...` in its own process, as a user runs it."""
    env = dict(os.environ, DICETRAY_HOME=home)
    env["PYTHONPATH"] = os.path.join(ROOT, "host") + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.Popen([sys.executable, "-m", "dicetray"] + list(argv), cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def done(p, timeout=120):
    out, err = p.communicate(timeout=timeout)
    return p.returncode, out, err


ROLL = roll_event(0, 2)     # hunt: a roll of 2 dice


def up(hub, name, events=None):
    def ok():
        t = hub.trays.get(name)
        return t is not None and t.state == "up" and (
            events is None or (t.info or {}).get("events") == events)
    assert wait_for(ok), {n: t.as_dict() for n, t in hub.trays.items()}
    return hub.trays[name]


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = str(tmp_path / "home")
    os.makedirs(h)
    monkeypatch.setenv("DICETRAY_HOME", h)
    return h


@pytest.fixture
def two(tmp_path, home):
    """Two simulated trays, a and b, and a hub holding both."""
    sims = [Sim(str(tmp_path / n)) for n in ("fa", "fb")]
    hub = Hub(["a=" + sims[0].port, "b=" + sims[1].port])
    hub.start()
    up(hub, "a")
    up(hub, "b")
    yield hub, sims
    hub.close()
    for s in sims:
        s.stop()


def test_a_sink_added_before_start_hears_every_given_tray_come_up(tmp_path, home):
    """`dicetray serve` adds its sinks (the log, the page, automatic
    backups) after Hub(ports) and before start(): a tray that answers at
    once must not come up before them (a CI failure once: the
    first backups of trays a..d never taken)."""
    sim = Sim(str(tmp_path / "f"))
    hub = Hub(["t=" + sim.port])
    try:
        time.sleep(1.0)                         # time enough for a started tray to connect
        assert hub.trays["t"].state == "connecting" and not hub.trays["t"].thread.is_alive()
        seen = []

        class Sink:
            def state(self, tray):
                # what the automatic backups connect with (autobackup.py)
                seen.append((tray.name, tray.state, getattr(hub, "reg", None) is not None))

            def event(self, tray, seq, ev):
                pass

        hub.sinks.append(Sink())
        announce = hub._announce

        def slow(reg):   # the registration file written late: the tray is up before
            time.sleep(1.0)
            announce(reg)
        hub._announce = slow
        hub.start()
        up(hub, "t")
        # Up, and the hub's address already known (a web stage's failure
        # once: "'Hub' object has no attribute 'reg'").
        assert seen[0] == ("t", "up", True), seen
    finally:
        hub.close()
        sim.stop()


def test_a_hub_that_never_started_closes(tmp_path, home):
    hub = Hub(["t=" + str(tmp_path / "nowhere")])
    hub.close()                                 # its trays never ran: nothing to join
    assert hub.trays["t"].stopping


def test_commands_at_once_go_through_the_hub_each_applied_once(two, home):
    hub, sims = two
    watch = dicetray(home, "watch", "--tray", "a")
    assert wait_for(lambda: hub.trays["a"].listeners)
    procs = [dicetray(home, "roll", "--pool", "3", "--tray", "ab"[k % 2]) for k in range(8)]
    procs += [dicetray(home, "status", "--json", "--tray", "a"),
              dicetray(home, "backup", "--tray", "b", "--db", os.path.join(home, "b.db"))]
    results = [done(p) for p in procs]
    for code, out, err in results:
        assert code == 0, err                          # no "could not lock the port"
    for name in "ab":
        dev = hubclient.HubDevice(hubclient.find(), tray=name)
        try:
            assert dev.info()["events"] == 4           # four rolls each, none twice
        finally:
            dev.close()
    assert wait_for(lambda: hub.trays["a"].last == 4)
    seen, lines = [], []
    while 4 not in seen:                               # its lines as they come (no sleep)
        line = watch.stdout.readline()
        assert line, "watch ended: %s" % "".join(lines)
        lines.append(line)
        if line.strip()[:1].isdigit():
            seen.append(int(line.split()[0]))
    watch.terminate()
    code, out, err = done(watch)
    seen += [int(ln.split()[0]) for ln in out.splitlines() if ln.strip()[:1].isdigit()]
    assert seen == [1, 2, 3, 4], "".join(lines) + out   # the watcher saw every roll, once


def test_ports_lists_the_trays_and_a_tray_must_be_named(two, home):
    hub, sims = two
    code, out, err = done(dicetray(home, "ports", "--json"))
    assert code == 0, err
    at = {p["tray"]: p for p in json.loads(out) if p["kind"] == "hub"}
    assert set(at) == {"a", "b"} and at["a"]["port"] == sims[0].port
    assert at["a"]["simulator"] == "desktop simulator" and at["a"]["flash"].endswith("fa")
    assert "; a desktop simulator (pid %d), flash folder " % sims[0].p.pid in at["a"]["description"]
    code, out, err = done(dicetray(home, "status", "--tray", "a"))
    assert code == 0 and out.splitlines()[0].endswith(
        ": tray a at the hub, a desktop simulator (pid %d), flash folder %s" % (
            sims[0].p.pid, at["a"]["flash"])), out
    code, out, err = done(dicetray(home, "status"))
    assert code == 1 and "several trays (a, b): choose one with --tray" in err
    code, out, err = done(dicetray(home, "status", "--tray", "zz"))
    assert code == 1 and "no tray named zz at the hub (it has: a, b)" in err
    code, out, err = done(dicetray(home, "--port", sims[1].port, "status", "--json"))
    assert code == 0 and json.loads(out)["device"] == hub.trays["b"].info["device"]
    code, out, err = done(dicetray(home, "deploy", "--dry-run"))
    assert code == 1 and "holds the tray's port" in err and "stop `dicetray serve`" in err


def test_watch_from_a_past_event_and_errors_keep_their_kind(two, home):
    hub, sims = two
    dev = hubclient.HubDevice(hubclient.find(), tray="a")
    try:
        for k in range(3):
            dev.act(*ROLL)
        got = []
        for seq, ev in dev.subscribe(since=1, timeout=1.5):
            got.append((seq, codec.decode_event(ev)[0]))
        assert got == [(2, ROLL[0]), (3, ROLL[0])]
        with pytest.raises(DeviceError) as e:
            dev.act(5, (99, 0, 0))                     # SLASH talisman 99: the rules refuse it
        assert type(e.value) is DeviceError and str(e.value)
        with pytest.raises(DeviceError, match="stop `dicetray serve`"):
            dev.end_session()
        seq, snap = dev.snapshot()
        assert seq == 3 and isinstance(snap, bytes)
    finally:
        dev.close()


def test_a_new_campaign_through_the_hub(two, home):
    """`campaigns new` reaches a tray through the hub
    (its thread runs Device.new_campaign, once); the hub follows the tray
    to its new campaign (subscribed afresh: a watcher sees its events), and
    the other tray is untouched."""
    hub, sims = two
    before = hub.trays["b"].info["campaign"]
    old = hub.trays["a"].info["campaign"]
    code, out, err = done(dicetray(home, "campaigns", "new", "paths", "--name", "Hub game",
                                   "--yes", "--tray", "a"))
    assert code == 0, err
    assert "Hub game (paths) is the current one, slot 2; campaign %s stays on flash as slot 1" % old in out
    code, out, err = done(dicetray(home, "campaigns", "--json", "--tray", "a"))
    slots = json.loads(out)["slots"]
    assert [(t["slot"], t["campaign"] == old, t["name"]) for t in slots] == [
        (1, True, ""), (2, False, "Hub game")]                # one made, the old one kept
    new = slots[1]["campaign"]
    assert wait_for(lambda: hub.trays["a"].info.get("campaign") == new)
    dev = hubclient.HubDevice(hubclient.find(), tray="a")
    try:
        out = dev.act(10, (12, 2))                             # a free roll of 2d12, event 2
        assert out["seq"] == 2
        got = [(seq, codec.decode_event(ev)[0]) for seq, ev in dev.subscribe(since=0, timeout=1.5)]
        assert got == [(1, 11), (2, 10)]                       # the name (RENAME), the roll
    finally:
        dev.close()
    assert wait_for(lambda: hub.trays["a"].last == 2)
    assert hub.trays["b"].info["campaign"] == before
    code, out, err = done(dicetray(home, "campaigns", "new", "chess", "--yes", "--tray", "a"))
    assert code == 2 and "unknown rule system 'chess'" in err


def test_watch_through_the_hub_follows_a_restore_of_the_same_campaign(two, home):
    """A restore through the hub took campaign C from
    event 8 back to 5, and 5 new rolls followed; `watch` through the hub
    heard 9 and 10 only (the hub sent nothing up to its own 8), spliced
    onto the old 6..8, and never showed the new 6..8. The hub marks the
    restore to its watchers, and watch reads the state again and shows
    every new event."""
    import threading
    from dicetray.ops import restore
    from dicetray.backup import BackupStore
    hub, sims = two
    dev = hubclient.HubDevice(hubclient.find(), tray="a")
    try:
        for _ in range(5):
            dev.act(*ROLL)
        st = BackupStore(os.path.join(home, "b.sqlite3"))
        bid = st.take(dev).backup                            # campaign C at event 5
        for _ in range(3):
            dev.act(*ROLL)
        heard = []
        sub = hubclient.HubDevice(hubclient.find(), tray="a")
        t = threading.Thread(target=lambda: heard.extend(sub.subscribe(timeout=5)), daemon=True)
        t.start()
        w = dicetray(home, "watch", "--tray", "a")
        lines = []
        threading.Thread(target=lambda: lines.extend(iter(w.stdout.readline, "")),
                         daemon=True).start()
        try:
            assert wait_for(lambda: len(hub.trays["a"].listeners) == 2 and lines, 30), lines
            assert lines[0].startswith("watching campaign") and "from event 8" in lines[0]
            restore.apply(restore.plan(st, bid, dev), dev)   # back to event 5
            new = [dev.act(*ROLL) for _ in range(5)]         # the new 6..10
            assert [a["seq"] for a in new] == [6, 7, 8, 9, 10]
            t.join(60)
            assert [(s, e is None) for s, e in heard] == [(5, True)] + [
                (n, False) for n in range(6, 11)], heard
            assert wait_for(lambda: any(ln.startswith("   10  ") for ln in lines), 30), lines
        finally:
            w.terminate()
            w.communicate(timeout=30)
        at = lines.index(next(ln for ln in lines if "campaign was replaced" in ln))
        assert lines[at].startswith("    5  (the tray's campaign was replaced"), lines
        assert [ln[:5] for ln in lines[at + 1:]] == ["    %d" % n if n < 10 else "   %d" % n
                                                   for n in range(6, 11)], lines
        sub.close()
    finally:
        dev.close()


def test_the_token_is_needed_and_one_hub_runs(two, home):
    hub, sims = two
    reg = hubclient.find()
    assert oct(os.stat(server.registration()).st_mode & 0o777) == "0o600"
    s = socket.create_connection(("127.0.0.1", reg["port"]), timeout=5)
    f = s.makefile("rwb")
    f.write(wire.line({"token": "guess", "call": "info", "tray": "a"}))
    f.flush()
    ans = wire.read(f)
    s.close()
    assert "wrong token" in ans["err"]["msg"]
    code, out, err = done(dicetray(home, "serve", "--port", "/dev/null"))
    assert code == 1 and "a hub is already running (pid %d)" % os.getpid() in err
    assert hubclient.find()["pid"] == os.getpid()     # the refused one left the file alone


def test_a_tray_unplugged_and_back_is_served_again_with_what_it_did_meanwhile(tmp_path, home):
    flash = str(tmp_path / "f")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    n = s.getsockname()[1]
    s.close()
    sim = Sim(flash, extra=["--tcp", str(n)])
    hub = Hub(["t=" + sim.port])
    hub.start()
    try:
        up(hub, "t")
        q = hub.trays["t"].listen()
        dev = hubclient.HubDevice(hubclient.find(), tray="t")
        dev.act(*ROLL)
        dev.close()
        sim.kill()                                        # the plug pulled
        assert wait_for(lambda: hub.trays["t"].state == "down")
        code, out, err = done(dicetray(home, "status", "--tray", "t"))
        assert code == 1 and "tray t is not connected" in err
        # Back, the same flash: the hub takes its port back by itself (a
        # handshake of ours beside it lost the port to the hub on a loaded
        # machine and waited 60 s for it).
        sim = Sim(flash, extra=["--tcp", str(n)], ready=False)
        up(hub, "t")
        dev = hubclient.HubDevice(hubclient.find(), tray="t")
        assert dev.act(*ROLL)["seq"] == 2
        dev.close()
        seqs = []
        while len(seqs) < 2 and wait_for(lambda: not q.empty()):
            seqs.append(q.get()[0])
        assert seqs == [1, 2]
    finally:
        hub.close()
        sim.stop()


def hold_pty(path, timeout=30):
    """Open ptys until one is `path`, freed once the killed sim and the hub's link let it go.

    A new pty takes the lowest free number, so those below `path`'s are kept open too: the
    caller closes every fd returned once the next sim has taken another path.
    """
    def number(name):
        return int(name[len(name.rstrip("0123456789")):])
    fds, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        m, s = os.openpty()
        name = os.ttyname(s)
        if name == path or number(name) < number(path):
            fds += [m, s]
            if name == path:
                return fds
        else:
            os.close(m)
            os.close(s)
            time.sleep(0.05)
    for fd in fds:
        os.close(fd)
    raise AssertionError("%s was never freed" % path)


def test_without_ports_the_hub_finds_simulators_and_keeps_a_replugged_ones_name(tmp_path, home):
    flash = str(tmp_path / "f")
    sim = Sim(flash, home=home)
    hub = Hub()
    hub.start()
    try:
        first = up(hub, "tray1")
        assert first.port == sim.port
        sim.kill()
        os.remove(os.path.join(home, "sims", "%d.port" % sim.p.pid))   # as the sim's exit would
        hold = hold_pty(first.port)    # the new sim must get another path
        # Handed to the hub, which finds it by itself: a handshake of ours
        # beside the hub's could lose the port to it (one client at a time).
        sim = Sim(flash, home=home, ready=False)
        for fd in hold:
            os.close(fd)
        assert sim.port != first.port
        assert wait_for(lambda: hub.trays.get("tray1") is not first and
                        hub.trays.get("tray1") is not None and
                        hub.trays["tray1"].state == "up"), hub.trays
        assert list(hub.trays) == ["tray1"] and hub.trays["tray1"].port == sim.port
    finally:
        hub.close()
        sim.stop()


def test_tray_without_a_hub_says_so(home):
    code, out, err = done(dicetray(home, "status", "--tray", "a"))
    assert code == 1 and "no hub is running" in err and "dicetray serve" in err


def test_fifty_clients_at_once(two, home):
    import threading
    hub, sims = two
    reg = hubclient.find()
    seqs, errors = [], []

    def client():
        try:
            dev = hubclient.HubDevice(reg, tray="a")
            try:
                dev.info()
                seqs.append(dev.act(*ROLL)["seq"])
            finally:
                dev.close()
        except Exception as e:       # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=client) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors and sorted(seqs) == list(range(1, 51))   # each applied once, in turn


def test_hub_killed_during_a_backup_loses_nothing_and_frees_the_port(tmp_path, home):
    from linkutil import write_flash
    flash = str(tmp_path / "f")
    write_flash(flash, 3000)
    sim = Sim(flash)
    hub = subprocess.Popen([sys.executable, "-m", "dicetray", "serve", "--port", "t=" + sim.port,
                            "--http-port", "0"],
                           cwd=ROOT, env=dict(os.environ, DICETRAY_HOME=home,
                                              PYTHONPATH=os.path.join(ROOT, "host")),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = [hub.stdout.readline() for _ in range(3)]     # hub:, http: and the tray, any order
        assert any(ln.startswith("hub: 127.0.0.1:") for ln in said), said
        assert any(ln.startswith("http: http://127.0.0.1:") for ln in said), said
        assert any("tray t: up" in ln for ln in said), said
        db = os.path.join(home, "b.db")
        sim.p.send_signal(signal.SIGSTOP)   # the tray stalls: the backup's call waits in the hub
        try:
            b = dicetray(home, "backup", "--db", db)
            assert wait_for(lambda: os.path.exists(db))
            time.sleep(1.0)
            hub.kill()
            hub.wait(30)
        finally:
            sim.p.send_signal(signal.SIGCONT)
        code, out, err = done(b)
        assert code == 1 and err.count("\n") == 1 and "lost the hub" in err, (out, err)
        code, out, err = done(dicetray(home, "backups", "--db", db, "--json"))
        assert code == 0 and json.loads(out)["backups"] == []   # no backup half written
        code, out, err = done(dicetray(home, "--port", sim.port, "backup", "--db", db))
        assert code == 0, err                             # the port is free, the stale hub ignored
        assert "events 1..3000" in out
        assert not os.path.exists(server.registration())
    finally:
        if hub.poll() is None:
            hub.kill()
        sim.stop()


def test_the_page_on_the_network_needs_a_token(home):
    code, out, err = done(dicetray(home, "serve", "--listen", "--port", "/dev/null"))
    assert code == 2 and "--listen" in err and "--token" in err
    assert not os.path.exists(server.registration())        # refused before anything started


def test_automatic_backups_at_coming_up_a_scene_end_and_the_hub_stopping(tmp_path, home):
    from dicetray.hub.autobackup import AutoBackup
    from dicetray.rules import hunt
    sim = Sim(str(tmp_path / "f"))
    hub = Hub(["t=" + sim.port])
    db = str(tmp_path / "b.db")
    lines = []
    auto = AutoBackup(hub, 100, db, say=lines.append)
    hub.sinks.append(auto)
    hub.start()
    try:
        up(hub, "t")
        assert wait_for(lambda: [d[2] for d in auto.done] == [0]), (auto.done, lines)
        dev = hubclient.HubDevice(hubclient.find(), tray="t")
        dev.act(*ROLL)
        assert dev.act(hunt.SCENE_END, (0,))["seq"] == 2        # the scene passes: a backup
        assert wait_for(lambda: [d[2] for d in auto.done] == [0, 2]), (auto.done, lines)
        dev.act(*ROLL)
        dev.close()
        assert wait_for(lambda: auto.count.get("t") == 1)     # the sink has event 3
        auto.close()                                             # the session's end
        assert [d[2] for d in auto.done] == [0, 2, 3], lines
    finally:
        hub.close()
        sim.stop()
    code, out, err = done(dicetray(home, "backups", "--db", db, "--json"))
    assert code == 0 and sorted(b["last"] for b in json.loads(out)["backups"]) == [0, 2, 3]


def _post(url, body, keeper=None):
    """(status, JSON answer) of POST url."""
    import urllib.error
    import urllib.request
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST",
                                 headers={"Content-Type": "application/json"})
    if keeper is not None:
        req.add_header("X-Dicetray-Keeper", keeper)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_remote_actions_are_the_commands_own_and_the_keepers_alone(two):
    from dicetray.hub.view import View
    from dicetray.cli.pageline import parse_action
    from dicetray.hub.web import Web
    hub, sims = two
    reg = hubclient.find()
    view = View(hub)
    web = Web(view, "127.0.0.1", 0, token="look", keeper="act", parse_action=parse_action,
              connect=lambda tray: hubclient.HubDevice(reg, tray=tray))
    off = Web(view, "127.0.0.1", 0)
    try:
        act = web.url().split("?")[0] + "act?token=look"
        assert "keeper=act" in web.url(keeper=True) and "keeper" not in web.url()
        code, a = _post(act, {"tray": "b", "action": "roll --pool 2"}, keeper="act")
        assert code == 200 and a["seq"] == 1, a
        assert re.match(r"event 1: roll 2d6: \d \d", a["lines"][0]), a
        dev = hubclient.HubDevice(reg, tray="b")
        assert dev.info()["events"] == 1                  # on tray b, once
        assert hubclient.HubDevice(reg, tray="a").info()["events"] == 0
        code, a = _post(act, {"tray": "b", "action": "undo"}, keeper="act")
        assert code == 200 and a["seq"] == 2 and a["lines"][0].startswith("event 2: undo"), a
        # what the terminal would refuse, the page refuses in the same words
        code, a = _post(act, {"tray": "b", "action": "roll --pool 99"}, keeper="act")
        assert code == 400 and "--pool 99" in a["error"], a
        code, a = _post(act, {"tray": "b", "action": "roll --pool two"}, keeper="act")
        assert code == 400 and "--pool takes a whole number, not 'two'" in a["error"], a
        code, a = _post(act, {"tray": "b", "action": "backup"}, keeper="act")
        assert code == 400 and "not an action" in a["error"] and "roll" in a["error"], a
        code, a = _post(act, {"tray": "b", "action": "roll --pool 2 --tray a"}, keeper="act")
        assert code == 400 and "card's tray" in a["error"], a
        code, a = _post(act, {"tray": "b", "action": "roll --help"}, keeper="act")
        assert code == 400 and "terminal's" in a["error"], a
        code, a = _post(act, {"tray": "b", "action": "slash 40"}, keeper="act")
        assert code == 409 and a["error"].startswith("refused by the device: "), a
        # ... naming the talismans there are, in the tray's numbers
        assert "no talisman number 40; its talismans: 0 Pressure, 1 Tension, 2 Sin" in a["error"], a
        code, a = _post(act, {"tray": "z", "action": "undo"}, keeper="act")
        assert code == 404 and "a, b" in a["error"], a
        code, a = _post(act, b"{not json", keeper="act")
        assert code == 400 and '"action"' in a["error"], a
        # nothing done without the keeper's token, nor where actions are off
        for kw in ({}, {"keeper": "look"}):
            code, a = _post(act, {"tray": "b", "action": "roll --pool 2"}, **kw)
            assert code == 403 and "keeper" in a["error"], a
        code, a = _post(act.split("?")[0], {"tray": "b", "action": "undo"}, keeper="act")
        assert code == 403 and "token" in a["error"], a
        code, a = _post(off.url() + "act", {"tray": "b", "action": "undo"}, keeper="act")
        assert code == 403 and "--keeper-token" in a["error"], a
        assert dev.info()["events"] == 2                  # the roll and its undo, nothing else
        dev.close()
    finally:
        web.close()
        off.close()


def test_the_page_shows_a_trays_trackers_and_last_rolls_at_once(tmp_path, home):
    """A page opened on a tray that already has events
    shows its trackers, in the order its home screen lists them, and its
    last rolls at once, not "waiting for the table"."""
    from dicetray.hub.view import RECENT, View
    from dicetray.link.client import Device
    sim = Sim(str(tmp_path / "f"))
    with Device.open(sim.port) as dev:
        for _ in range(RECENT + 2):
            dev.act(*ROLL)
    hub = Hub(["t=" + sim.port])
    view = View(hub)
    hub.sinks.append(view)
    try:
        hub.start()
        up(hub, "t")
        assert wait_for(lambda: [v for v in view.snapshot()["trays"] if v.get("rows")])
        v = view.snapshot()["trays"][0]
        assert [r["seq"] for r in v["recent"]] == list(range(RECENT + 2, 2, -1))  # newest first
        assert all(re.match(r"\d+  roll 2d6: \d \d, \d success", r["line"]) for r in v["recent"])
        # hunt's home lists Tension, Pressure, the Sin (Pressure is talisman 0)
        assert [(r["name"], r["tal"]) for r in v["rows"][:3]] == [
            ("Tension", 1), ("Pressure", 0), ("Sin", 2)]
    finally:
        hub.close()
        sim.stop()


def test_the_keepers_token_is_a_secret_of_its_own(home):
    for given in (["--token", "s", "--keeper-token", "s"], ["--keeper-token", ""]):
        code, out, err = done(dicetray(home, "serve", "--port", "/dev/null", *given))
        assert code == 2 and "--keeper-token" in err and "of its own" in err, err
    assert not os.path.exists(server.registration())


def _forwarding_hub(port, path, rx):
    """A hub holding `port` as tray t, its view forwarding to `rx` through the queue at `path`."""
    from dicetray.hub.feed import Feed
    from dicetray.hub.forward import Forwarder
    from dicetray.hub.view import View
    hub = Hub(["t=" + port])
    view = View(hub)
    hub.sinks.append(view)
    fwd = Forwarder([rx.url], path, backoff=(0.02, 0.1))
    view.add_feed(Feed(fwd))
    hub.start()
    fwd.start()
    return hub, fwd


def test_events_rolled_while_the_hub_was_down_are_forwarded_when_it_starts_again(tmp_path, home):
    """The hub stopped, the table rolls on (the tray on
    its own, or a command on its port); the hub started again reads those
    events from the tray and forwards them, in order, once. Its first start
    forwards none of the tray's history."""
    from dicetray.link.client import Device
    from webhook import Receiver
    sim = Sim(str(tmp_path / "f"))
    rx = Receiver()
    path = str(tmp_path / "forward.db")

    def roll_alone(n):
        dev = Device.open(sim.port, check_schema=False)
        try:
            for _ in range(n):
                dev.act(*ROLL)
        finally:
            dev.close()

    try:
        roll_alone(2)                                   # events 1, 2: before any hub
        hub, fwd = _forwarding_hub(sim.port, path, rx)
        try:
            up(hub, "t")
            dev = hubclient.HubDevice(hubclient.find(), tray="t")
            assert dev.act(*ROLL)["seq"] == 3
            dev.close()
            assert wait_for(lambda: [r["seq"] for r in rx.got] == [3]), rx.got
        finally:
            hub.close()
            fwd.stop()
        roll_alone(3)                                   # events 4, 5, 6: the hub is down
        hub, fwd = _forwarding_hub(sim.port, path, rx)
        try:
            up(hub, "t")
            assert wait_for(lambda: [r["seq"] for r in rx.got] == [3, 4, 5, 6]), rx.got
            dev = hubclient.HubDevice(hubclient.find(), tray="t")
            assert dev.act(*ROLL)["seq"] == 7
            dev.close()
            assert wait_for(lambda: [r["seq"] for r in rx.got] == [3, 4, 5, 6, 7]), rx.got
        finally:
            hub.close()
            fwd.stop()
        live, late = rx.got[0], rx.got[1]
        assert late["event"] == live["event"] == "roll" and late["outcome"]["verdict"]
        assert late["summary"].startswith("t: roll 2d6: ") and late["trackers"]["talismans"]
        assert late["id"].endswith(":4") and late["campaign"] == live["campaign"]
        assert len({r["id"] for r in rx.got}) == 5                 # none twice
    finally:
        rx.close()
        sim.stop()


def test_serve_refuses_a_forward_url_that_is_not_http_in_one_line(home):
    for url in ("ftp://example.org/hook", "example.org/hook"):
        p = dicetray(home, "serve", "--port", "/dev/null", "--http-port", "0", "--forward", url)
        try:
            code, out, err = done(p, timeout=30)
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
        assert code == 2 and err.count("\n") == 1, err
        assert url in err and "http:// or https://" in err
    assert not os.path.exists(server.registration())


def test_the_terminal_says_when_a_webhook_stops_and_starts_delivering(tmp_path, home):
    """A sink's queue, last error and last delivery on
    the hub's terminal (a 302 is not a delivery)."""
    import threading
    from dicetray.hub.forward import Forwarder
    from webhook import Receiver
    rx = Receiver()
    rx.mode = "redirect"
    path = str(tmp_path / "q.db")
    f = Forwarder([rx.url], path)
    for n in (1, 2):
        f.put({"id": "dev:1:%d" % n, "summary": "a: roll %d" % n})   # queued by an earlier hub
    f.stop()
    p = dicetray(home, "serve", "--port", "t=/nonexistent", "--http-port", "0",
                 "--forward", rx.url, "--forward-queue", path)
    lines = []
    t = threading.Thread(target=lambda: lines.extend(iter(p.stdout.readline, "")), daemon=True)
    t.start()
    name = "forward 1 http://127.0.0.1:%d/..." % rx.srv.server_address[1]
    try:
        assert wait_for(lambda: any("not delivered" in ln for ln in lines)), lines
        assert name + ": 2 queued\n" in lines, lines
        bad = [ln for ln in lines if "not delivered" in ln][0]
        assert bad.startswith(name + ": not delivered: HTTP 302 Found (a redirect is not "
                              "followed"), bad
        assert bad.endswith("; 2 queued, last delivered never\n"), bad
        assert rx.gets == 0 and "/hook" not in "".join(lines)   # the path (a secret) never shown
        rx.mode = "ok"
        assert wait_for(lambda: any("delivering again" in ln for ln in lines)), lines
        good = [ln for ln in lines if "delivering again" in ln][0]
        assert re.match(re.escape(name) + r": delivering again; [01] queued, last delivered "
                        r"\d\d:\d\d:\d\d$", good), good
        assert wait_for(lambda: rx.ids() == ["dev:1:1", "dev:1:2"])
    finally:
        p.terminate()
        p.communicate(timeout=30)
        rx.close()


def test_the_hubs_line_for_a_tray_coming_up_counts_its_events_in_words(capsys):
    from types import SimpleNamespace
    from dicetray.hub.command import _Say
    say = _Say()
    for n in (1, 2):
        info = {"device": "sim-1", "system": "hunt", "campaign": 7, "events": n}
        say.state(SimpleNamespace(name="t%d" % n, port="/dev/pts/9", state="up", why=None,
                                  info=info))
    out = capsys.readouterr().out.splitlines()
    assert out == ["tray t1: up on /dev/pts/9 (device sim-1, hunt campaign 7, 1 event)",
                   "tray t2: up on /dev/pts/9 (device sim-1, hunt campaign 7, 2 events)"], out
