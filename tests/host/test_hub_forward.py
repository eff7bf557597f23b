"""Roll forwarding: a queue on disk posted to each
webhook in order, against a real local HTTP server that fails, stalls
and recovers; at least once across a kill -9."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from dicetray.hub import forward
from dicetray.hub.forward import GIVE_UP, Forwarder, _shape, body

from linkutil import ROOT, wait_for
from webhook import Receiver


@pytest.fixture
def rx():
    r = Receiver()
    yield r
    r.close()


def rec(n):
    return {"schema": "dicetray.event/1", "id": "dev:1:%d" % n, "seq": n,
            "summary": "a: roll %d" % n}


def test_delivered_in_order_and_a_failing_webhook_gets_everything_when_it_recovers(tmp_path, rx):
    f = Forwarder([rx.url], str(tmp_path / "q.db"), timeout=2, backoff=(0.02, 0.2)).start()
    try:
        for n in range(1, 6):
            f.put(rec(n))
        assert wait_for(lambda: len(rx.got) == 5)
        rx.mode = "fail"
        for n in range(6, 11):
            f.put(rec(n))
        assert wait_for(lambda: rx.tries >= 10)      # tried again and again, backing off
        assert f.stats()[rx.url]["pending"] == 5 and "500" in f.stats()[rx.url]["last_error"]
        rx.mode = "busy"                              # a 429 once, then fine
        assert wait_for(lambda: len(rx.got) == 10)
        assert rx.ids() == ["dev:1:%d" % n for n in range(1, 11)]   # in order, none lost or twice
        # The receiver has the last post before its answer reaches the
        # forwarder, which only then takes it off the queue.
        assert wait_for(lambda: f.stats()[rx.url]["pending"] == 0)
    finally:
        f.stop()


def test_the_back_off_grows(tmp_path, rx):
    rx.mode = "fail"
    f = Forwarder([rx.url], str(tmp_path / "q.db"), timeout=2, backoff=(0.05, 10.0)).start()
    try:
        f.put(rec(1))
        assert wait_for(lambda: rx.tries >= 5, 30)
        # 0.05, 0.1, 0.2, 0.4, 0.8...: after five tries the next waits 1.6 s,
        # so a second's look sees at most one more (a constant 0.05 s would make 20)
        n = rx.tries
        time.sleep(1.0)
        assert rx.tries - n <= 2
    finally:
        f.stop()


def test_a_stalled_webhook_holds_back_only_its_own_queue(tmp_path, rx):
    good = Receiver()
    rx.mode = "stall"
    f = Forwarder([rx.url, good.url], str(tmp_path / "q.db"), timeout=0.5,
                  backoff=(0.05, 0.2)).start()
    try:
        for n in range(1, 4):
            f.put(rec(n))                              # returns while the first one stalls
        assert wait_for(lambda: len(good.got) == 3)
        assert rx.got == [] and f.stats()[rx.url]["pending"] == 3
        assert wait_for(lambda: "no whole answer within 0.5 s" in (f.stats()[rx.url]["last_error"] or ""))
        rx.mode = "ok"
        assert wait_for(lambda: len(rx.got) == 3)
    finally:
        f.stop()
        good.close()


def test_what_was_not_delivered_survives_a_restart(tmp_path, rx):
    path = str(tmp_path / "q.db")
    rx.mode = "fail"
    f = Forwarder([rx.url], path, backoff=(0.05, 0.2)).start()
    for n in range(1, 4):
        f.put(rec(n))
    assert wait_for(lambda: rx.tries >= 1)
    f.stop()
    rx.mode = "ok"
    f = Forwarder([rx.url], path, backoff=(0.05, 0.2)).start()
    try:
        assert wait_for(lambda: len(rx.got) == 3)
        assert rx.ids() == ["dev:1:1", "dev:1:2", "dev:1:3"]
        # the last one taken off the queue file too, not only posted
        assert wait_for(lambda: f.stats()[rx.url]["delivered"] == 3)
    finally:
        f.stop()
    other = Receiver()                                  # a webhook added later gets no history
    f = Forwarder([rx.url, other.url], path).start()
    try:
        f.put(rec(4))
        assert wait_for(lambda: len(other.got) == 1 and len(rx.got) == 4)
        assert other.ids() == ["dev:1:4"]
        assert rx.ids() == ["dev:1:%d" % n for n in range(1, 5)]  # none twice
    finally:
        f.stop()
        other.close()


def test_a_record_delivered_as_the_hub_stops_is_not_posted_again(tmp_path, rx, monkeypatch):
    real = forward.post

    def answered_late(*a):  # the answer read; the queue file's deletion comes after stop()
        real(*a)
        time.sleep(0.3)

    monkeypatch.setattr(forward, "post", answered_late)
    path = str(tmp_path / "q.db")
    f = Forwarder([rx.url], path).start()
    f.put(rec(1))
    assert wait_for(lambda: len(rx.got) == 1)
    f.stop()
    f = Forwarder([rx.url], path).start()
    try:
        f.put(rec(2))
        assert wait_for(lambda: "dev:1:2" in rx.ids())  # after any record left before it
        assert rx.ids() == ["dev:1:1", "dev:1:2"]
    finally:
        f.stop()


def test_a_record_refused_for_good_is_skipped_after_some_attempts(tmp_path, rx):
    rx.mode = "refuse"
    rx.bad = {"dev:1:2"}
    f = Forwarder([rx.url], str(tmp_path / "q.db"), backoff=(0.01, 0.05)).start()
    try:
        for n in range(1, 4):
            f.put(rec(n))
        assert wait_for(lambda: len(rx.got) == 2)
        assert rx.ids() == ["dev:1:1", "dev:1:3"] and rx.tries == 2 + GIVE_UP
        assert "skipped after %d attempts" % GIVE_UP in f.stats()[rx.url]["last_error"]
    finally:
        f.stop()


def test_chat_webhooks_get_a_message(tmp_path, rx):
    assert _shape("https://discord.com/api/webhooks/1/abc") == (
        "https://discord.com/api/webhooks/1/abc", "discord")
    assert _shape("http://x/hook#slack") == ("http://x/hook", "slack")
    assert _shape("http://x/hook") == ("http://x/hook", "json")
    f = Forwarder([rx.url + "#discord", rx.url + "?s#slack"], str(tmp_path / "q.db")).start()
    try:
        long = dict(rec(1), summary="x" * 2500)
        f.put(long)
        assert wait_for(lambda: len(rx.got) == 2)
        by = {("content" in b): b for b in rx.got}
        assert by[True] == {"content": "x" * 2000,      # Discord's limit
                            "allowed_mentions": {"parse": []}}
        assert by[False] == {"text": "x" * 2500}
    finally:
        f.stop()


def test_chat_messages_mention_no_one():
    """A character named @everyone (or a name with Slack's
    <!channel>) pings nobody: Discord is told to parse no mention, Slack's
    markup is escaped."""
    r = dict(rec(1), summary="a: roll 2d6 for @everyone: <!channel> <@U1> @here & co")
    d = json.loads(body(r, "discord"))
    assert d["allowed_mentions"] == {"parse": []}
    assert d["content"] == r["summary"]                 # shown as typed, never a ping
    text = json.loads(body(r, "slack"))["text"]
    assert "<" not in text and ">" not in text and "&lt;!channel&gt;" in text
    assert "&amp; co" in text
    assert "@everyone" not in text and "@here" not in text
    assert text.replace("\u2060", "") == (
        "a: roll 2d6 for @everyone: &lt;!channel&gt; &lt;@U1&gt; @here &amp; co")


def test_a_redirect_is_not_delivered(tmp_path, rx):
    """A 302 is not a delivery (a client that follows it
    turns the POST into a bodiless GET that answers 200)."""
    rx.mode = "redirect"
    f = Forwarder([rx.url], str(tmp_path / "q.db"), timeout=2, backoff=(0.02, 0.1)).start()
    try:
        f.put(rec(1))
        assert wait_for(lambda: rx.tries >= 3)
        st = f.stats()[rx.url]
        assert rx.gets == 0                              # the redirect was not followed
        assert st["pending"] == 1 and st["delivered"] == 0 and st["last_success"] is None
        assert "302" in st["last_error"] and "redirect" in st["last_error"]
        rx.mode = "ok"
        assert wait_for(lambda: rx.ids() == ["dev:1:1"])
        assert wait_for(lambda: f.stats()[rx.url]["pending"] == 0)
    finally:
        f.stop()


def test_a_trickling_receiver_does_not_hold_the_queue_past_the_deadline(tmp_path, rx):
    """A receiver that answers one byte a second never
    lets a read time out; the post's whole deadline ends it all the same,
    and the record is posted again."""
    rx.mode = "trickle"
    rx.trickle_s = 1.0
    f = Forwarder([rx.url], str(tmp_path / "q.db"), timeout=1.5, backoff=(0.02, 0.1)).start()
    try:
        f.put(rec(1))
        assert wait_for(lambda: "no whole answer within 1.5 s" in
                        (f.stats()[rx.url]["last_error"] or ""), 15)
        assert rx.got == [] and f.stats()[rx.url]["pending"] == 1
        rx.mode = "ok"
        assert wait_for(lambda: rx.ids() == ["dev:1:1"], 15)
    finally:
        f.stop()


def test_only_http_urls_are_taken():
    for bad in ("ftp://example.org/hook", "file:///etc/passwd", "example.org/hook",
                "http://", "http://x:port/"):
        with pytest.raises(ValueError) as e:
            Forwarder([bad], "/nonexistent/never-opened.db")
        assert "\n" not in str(e.value) and "--forward" in str(e.value)


def test_urls_that_could_never_deliver_are_refused_at_start():
    """A space, a CR LF (which urlsplit drops, so the
    post went to another path) or a character beyond ASCII in a --forward
    URL was taken and could never deliver; now one line at start, the URL
    shown escaped."""
    from dicetray.hub.forward import check
    for bad, said in (("http://example.org/my hook", r"http://example.org/my hook"),
                      ("http://example.org/ho\r\nok", r"http://example.org/ho\r\nok"),
                      ("http://example.org/h\u00e9", r"http://example.org/h\xe9")):
        with pytest.raises(ValueError) as e:
            check(bad)
        msg = str(e.value)
        assert "\n" not in msg and "\r" not in msg and said in msg, msg
        assert "percent-encode" in msg, msg


def test_credentials_in_the_url_are_sent_as_basic_auth(tmp_path, rx):
    """`--forward http://user:pw@host/...` never sent its
    credentials (every record 401, then skipped); they go as Basic auth,
    percent-decoded, and are never shown."""
    import base64
    from dicetray.hub.forward import label
    host = rx.url.split("//", 1)[1]
    url = "http://hook%20user:p%40ss@" + host
    assert label(url) == "http://%s/..." % host.split("/")[0]
    f = Forwarder([url], str(tmp_path / "q.db")).start()
    try:
        f.put(rec(1))
        assert wait_for(lambda: rx.ids() == ["dev:1:1"])
        assert rx.auth == ["Basic " + base64.b64encode(b"hook user:p@ss").decode()]
    finally:
        f.stop()


def test_a_receiver_slower_than_the_deadline_is_told_on_the_terminal(tmp_path, rx, capsys):
    """A receiver that answers 2xx after the deadline
    takes each record again and again while the queue never moves (the
    deadline is documented); the error on the terminal now says so."""
    from dicetray.hub.command import _SayForward
    rx.mode = "slow"
    rx.trickle_s = 1.0
    f = Forwarder([rx.url], str(tmp_path / "q.db"), timeout=0.5, backoff=(0.02, 0.1))
    _SayForward(f)
    f.start()
    try:
        f.put(rec(1))
        assert wait_for(lambda: len(rx.got) >= 2, 20)     # the same record, again
        assert rx.ids()[:2] == ["dev:1:1", "dev:1:1"] and f.stats()[rx.url]["pending"] == 1
        err = f.stats()[rx.url]["last_error"]
        assert err.startswith("no whole answer within 0.5 s"), err
        assert "the receiver may have the record" in err and "gets it again" in err, err
    finally:
        f.stop()
    assert "not delivered: no whole answer within 0.5 s (the receiver may have" in (
        capsys.readouterr().out)


def test_a_sinks_state_is_shown_without_its_secret(tmp_path, rx):
    """What the terminal and the page show: the queue, the last delivery,
    the last error; a webhook's path (its secret) never."""
    from dicetray.hub.forward import label
    assert label("https://discord.com/api/webhooks/1/SECRET") == "https://discord.com/... (discord)"
    assert label("http://u:pw@example.org:8080/hook/SECRET#slack") == (
        "http://example.org:8080/... (slack)")
    heard = []
    f = Forwarder([rx.url], str(tmp_path / "q.db"), backoff=(0.02, 0.1))
    f.listeners.append(heard.append)
    f.start()
    try:
        f.put(rec(1))
        assert wait_for(lambda: f.stats()[rx.url]["delivered"] == 1)
        rx.mode = "fail"
        f.put(rec(2))
        assert wait_for(lambda: (f.stats()[rx.url]["last_error"] or "").startswith("HTTP 500"))
        st = f.stats()[rx.url]
        assert st["pending"] == 1 and st["last_success"] <= st["last_error_at"]
        assert heard and set(heard) == {rx.url}
    finally:
        f.stop()


def test_a_queue_of_the_hub_before_marks_is_delivered(tmp_path, rx):
    """The queue file of the previous version (one list, a cursor each URL)."""
    import sqlite3
    path = str(tmp_path / "q.db")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE records (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)")
    db.execute("CREATE TABLE cursors (url TEXT PRIMARY KEY, last INTEGER NOT NULL)")
    for n in range(1, 4):
        db.execute("INSERT INTO records (body) VALUES (?)", (json.dumps(rec(n)),))
    db.execute("INSERT INTO cursors VALUES (?, 1)", (rx.url,))
    db.commit()
    db.close()
    f = Forwarder([rx.url], path).start()
    try:
        assert wait_for(lambda: rx.ids() == ["dev:1:2", "dev:1:3"])
    finally:
        f.stop()


def test_marks_queue_each_event_once_and_a_new_url_gets_no_history(tmp_path, rx):
    """The marks behind catching up (view.py): an event of a tray campaign
    queued once whatever asks twice; a campaign's state kept with its last
    event; a URL new at a start begins at the tray's head."""
    path = str(tmp_path / "q.db")

    def ev(n, cid=7):
        return dict(rec(n), device="dev", campaign=cid)

    f = Forwarder([rx.url], path)
    assert f.resume("dev", 7, 10, b"S10") is None       # first sight: from event 10, no history
    f.put_many([(ev(11), b"S11"), (ev(12), b"S12")])
    f.put(ev(12), b"S12")                                # again (the view read the tray afresh)
    assert f.stats()[rx.url]["pending"] == 2
    f.stop()
    other = Receiver()
    try:
        f = Forwarder([rx.url, other.url], path)
        assert f.resume("dev", 7, 15, b"S15") == (12, b"S12")   # rolled while away: from 12
        f.put_many([(ev(n), b"S%d" % n) for n in (13, 14, 15)])
        st = f.stats()
        assert st[rx.url]["pending"] == 5 and st[other.url]["pending"] == 0
        assert f.resume("dev", 7, 15, b"S15") is None           # nothing more
        assert f.resume("dev", 7, 9, b"S9") is None             # taken back (a restore): from 9
        f.put(ev(10), b"S10")
        assert f.stats()[other.url]["pending"] == 1
        f.start()
        assert wait_for(lambda: [r["seq"] for r in rx.got] == [11, 12, 13, 14, 15, 10])
        assert wait_for(lambda: [r["seq"] for r in other.got] == [10])
    finally:
        f.stop()
        other.close()


KILLED = """
import sys, time
from dicetray.hub.forward import Forwarder
f = Forwarder([sys.argv[1]], sys.argv[2], backoff=(0.01, 0.05)).start()
if sys.argv[3] == "put":
    for n in range(1, 201):
        f.put({"id": "dev:1:%d" % n, "summary": str(n)})
print("ready", flush=True)
time.sleep(60)
"""


def test_kill_9_while_forwarding_loses_nothing_and_repeats_at_most_the_one_in_flight(tmp_path, rx):
    path = str(tmp_path / "q.db")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"))

    def forwarder(what):
        p = subprocess.Popen([sys.executable, "-c", KILLED, rx.url, path, what], env=env,
                             stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "ready"
        return p

    p = forwarder("put")
    assert wait_for(lambda: len(rx.got) >= 20)
    p.send_signal(signal.SIGKILL)                       # in the middle of the stream
    p.wait(30)
    p.stdout.close()
    at_kill = len(rx.got)
    assert at_kill < 200
    p = forwarder("resume")
    try:
        assert wait_for(lambda: len(set(rx.ids())) == 200, 60)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        p.stdout.close()
    ids = rx.ids()
    first = list(dict.fromkeys(ids))
    assert first == ["dev:1:%d" % n for n in range(1, 201)]    # every one, in order
    assert len(ids) - len(first) <= 1                       # the one posted as the kill came


class _Tray:
    """What the view's catching up asks of a tray: its name, info, events."""

    def __init__(self, c):
        self.name, self.c, self.info = "t", c, {"device": "dev"}

    def call(self, name, args=()):
        return {"first": 1} if name == "info" else self.c.events[args[0]:]


def test_catching_up_forwards_what_was_rolled_and_never_a_rewritten_campaign(tmp_path, rx):
    """The view's side of a restart (feed.py, Feed.fresh): the events after
    the last one queued, folded from the state kept with it; a campaign
    that is not the one forwarded (restored meanwhile, another history
    under the same id) is skipped and said, not forwarded wrong."""
    from dicetray import backup as bk
    from dicetray.hub.server import Hub
    from dicetray.hub.feed import Feed
    from dicetray.hub.view import View
    from dicetray.rules import campaign as cp
    from linkutil import make_events

    def at(c):   # the campaign as the view reads it from the device
        return bk.start(None, None, cp.encode_snapshot(c), bk.HOST_DEPTH)

    view = View(Hub(["t=/nonexistent"]))
    f = Forwarder([rx.url], str(tmp_path / "q.db"))
    feed = Feed(f)
    view.add_feed(feed)
    try:
        played = make_events(13, seed=1)
        tray = _Tray(played)
        before = cp.Campaign(played.system, played.cid, cp.UNDO_DEPTH)
        for ev in played.events[:10]:
            before.apply(ev)
        feed.fresh(tray, at(before))                 # first sight: none of its history
        assert f.stats()[rx.url]["pending"] == 0
        feed.fresh(tray, at(played))                 # 11..13, rolled while away
        assert f.stats()[rx.url]["pending"] == 3
        other = cp.Campaign(played.system, played.cid, cp.UNDO_DEPTH)   # the same id,
        other.act(cp.CHAR_ADD, (), "Cy")                                # another history
        while other.nevents < 16:
            other.act(cp.DICE, (6, 1), faces=b"\x03")
        feed.fresh(_Tray(other), at(other))
        st = f.stats()[rx.url]
        assert st["pending"] == 3 and "events 14..16 of campaign 12345 not forwarded" in (
            st["last_error"]) and "not the one forwarded" in st["last_error"], st
        f.start()
        assert wait_for(lambda: [r["seq"] for r in rx.got] == [11, 12, 13])
        assert [r["event"] for r in rx.got] and all(r["trackers"] for r in rx.got)
    finally:
        f.stop()


def _lock(path):
    """Another process's write lock on the queue file (a GUI viewer, a
    VACUUM): a connection of its own in an exclusive transaction."""
    import sqlite3
    db = sqlite3.connect(path, timeout=0, isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    return db


def test_records_the_queue_file_refuses_are_kept_and_queued_in_order(tmp_path, rx, capsys):
    """A second process holds a write lock on the queue
    file; the events rolled meanwhile were never forwarded (the mark moved
    past them with the next one) and nothing said so. They are kept in
    memory and queued in order once the file takes them; a record
    delivered while the file refuses its deletion is not posted again, and
    its URL's thread carries on. Said on the terminal and the page (each
    URL's stats)."""
    from dicetray.hub.command import _SayForward

    def ev(n):
        return dict(rec(n), device="dev", campaign=7)

    path = str(tmp_path / "q.db")
    f = Forwarder([rx.url], path, backoff=(0.02, 0.1))
    f.start()
    _SayForward(f)
    try:
        assert f.resume("dev", 7, 247, b"S247") is None
        for n in (248, 249):
            f.put(ev(n), b"S%d" % n)
        assert wait_for(lambda: f.stats()[rx.url]["delivered"] == 2)
        other = _lock(path)
        try:
            for n in (250, 251, 252):
                f.put(ev(n), b"S%d" % n)                 # the file refuses them: held
            st = f.stats()[rx.url]
            assert st["held"] == 3 and st["pending"] == 0, st
            assert st["last_error"] == (
                "the queue file %s refused a write (database is locked): the records since "
                "are kept in memory and queued in order when it takes them" % path), st
        finally:
            other.rollback()
            other.close()
        f.put(ev(253), b"S253")                          # after them, never before

        def delivered(n):  # the view calls retry() every second (view.py)
            return f.retry() == [] and f.stats()[rx.url]["delivered"] == n

        assert wait_for(lambda: delivered(6))
        assert rx.ids() == ["dev:1:%d" % n for n in range(248, 254)]
        assert f.stats()[rx.url]["held"] == 0
        rx.mode = "fail"
        f.put(ev(254), b"S254")                          # queued; its posts fail
        assert wait_for(lambda: rx.tries >= 8)
        other = _lock(path)
        try:
            rx.mode = "ok"                               # delivered; its deletion refused
            assert wait_for(lambda: "cannot take record dev:1:254 off the queue file" in
                            (f.stats()[rx.url]["last_error"] or ""))
        finally:
            other.rollback()
            other.close()
        f.put(ev(255), b"S255")
        assert wait_for(lambda: delivered(8))
        assert rx.ids() == ["dev:1:%d" % n for n in range(248, 256)]   # in order, once each
        assert wait_for(lambda: f.stats()[rx.url]["pending"] == 0)
    finally:
        f.stop()
    out = capsys.readouterr().out
    assert ": not delivered: the queue file %s refused a write (database is locked): " % path in out
    assert "; 0 queued, 1 held in memory, last delivered " in out, out
    after = out.split("refused a write")[1]
    assert ": delivering again; " in after and "it was delivered, and leaves the queue" in after
    f = Forwarder([rx.url], path)                        # the marks moved with the records
    try:
        assert f.resume("dev", 7, 255, b"S255") is None
        assert f.resume("dev", 7, 256, b"S256") == (255, b"S255")
    finally:
        f.stop()


def test_beyond_what_memory_holds_the_events_are_read_from_the_tray(tmp_path, rx, monkeypatch):
    """Bounded: past HELD_MAX records refused by the
    queue file, a campaign's records are no longer held but its mark stays
    where the queue has it; once the file takes records again the view
    reads the events after the mark from the tray (as catching up does),
    so none is lost or queued twice."""
    from dicetray import backup as bk
    from dicetray.hub import forward
    from dicetray.hub.server import Hub
    from dicetray.hub.feed import Feed
    from dicetray.hub.view import View
    from dicetray.rules import campaign as cp
    from linkutil import make_events

    monkeypatch.setattr(forward, "HELD_MAX", 3, raising=False)
    played = make_events(20, seed=2)
    tray = _Tray(played)
    tray.state = "up"
    tray.as_dict = lambda: {"tray": "t", "state": "up"}
    hub = Hub(["t=/nonexistent"])
    hub.trays["t"] = tray
    view = View(hub)
    path = str(tmp_path / "q.db")
    f = Forwarder([rx.url], path, backoff=(0.02, 0.1))
    feed = Feed(f)
    view.add_feed(feed)
    f.start()
    try:
        c = cp.Campaign(played.system, played.cid, cp.UNDO_DEPTH)
        for e in played.events[:10]:
            c.apply(e)
        c = bk.start(None, None, cp.encode_snapshot(c), bk.HOST_DEPTH)
        feed.fresh(tray, c)                          # first sight: from event 10
        view.camps["t"] = c
        other = _lock(path)
        try:
            for n in range(11, 21):
                view.event(tray, n, played.events[n - 1])
            assert wait_for(lambda: "from event 14 are read from the tray" in
                            (f.stats()[rx.url]["last_error"] or ""), 30), f.stats()
            assert f.stats()[rx.url]["held"] == 3 and rx.got == []
        finally:
            other.rollback()
            other.close()
        assert wait_for(lambda: len(rx.got) == 10, 30), rx.ids()
        assert [r["seq"] for r in rx.got] == list(range(11, 21))
        assert all(r["trackers"] for r in rx.got) and f.stats()[rx.url]["held"] == 0
    finally:
        f.stop()
